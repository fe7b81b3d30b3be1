// Validates the embedded sample corpus in examples/corpus/ (no WASM needed):
// manifest <-> files, document format, questions.jsonl and own-words.jsonl (fields, ids, exact evidence
// excerpts; for own-words also the mix of types and that paraphrased questions avoid the documents' words).
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join, basename, extname } from 'node:path';
import { repoRoot } from '../helpers.mjs';

const corpusDir = join(repoRoot, 'examples', 'corpus');
const QUESTION_TYPES = new Set(['lookup', 'numeric', 'multi-hop', 'table', 'temporal', 'unanswerable']);
const DOC_KINDS = new Set([
  'policy', 'handbook', 'memo', 'manual', 'release-notes', 'meeting', 'report', 'postmortem',
  'guide', 'faq', 'glossary', 'overview',
]);
const QUESTION_FIELDS = ['id', 'question', 'answer', 'doc_ids', 'evidence', 'answerable', 'type'];

/** Decodes bytes as UTF-8 and throws on any invalid sequence. */
function decodeStrict(bytes, name) {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (err) {
    throw new Error(`${name}: not valid UTF-8 (${err.message})`);
  }
}

function loadManifest() {
  return JSON.parse(readFileSync(join(corpusDir, 'manifest.json'), 'utf8'));
}

/** Map id -> document text for every manifest entry. */
function loadDocs(manifest) {
  const docs = new Map();
  for (const entry of manifest) {
    const bytes = readFileSync(join(corpusDir, entry.file));
    docs.set(entry.id, decodeStrict(bytes, entry.file));
  }
  return docs;
}

function loadQuestions(file = 'questions.jsonl') {
  const text = readFileSync(join(corpusDir, file), 'utf8');
  return text.split('\n').filter((line) => line.trim() !== '').map((line, i) => {
    try {
      return JSON.parse(line);
    } catch (err) {
      throw new Error(`${file} line ${i + 1}: invalid JSON (${err.message})`);
    }
  });
}

/**
 * Returns the list of problems with one question (empty when it is valid).
 * Exported logic is kept here so a negative control below can prove the checks can fail.
 */
function questionProblems(q, docs, { fields = QUESTION_FIELDS, types = QUESTION_TYPES, idPattern = /^q\d{2,}$/ } = {}) {
  const problems = [];
  for (const field of fields) {
    if (!(field in q)) problems.push(`missing field ${field}`);
  }
  if (problems.length) return problems;
  if (typeof q.id !== 'string' || !idPattern.test(q.id)) problems.push(`bad id ${JSON.stringify(q.id)}`);
  if (typeof q.question !== 'string' || q.question.trim().length < 10) problems.push('question too short');
  if (typeof q.answer !== 'string' || q.answer.trim() === '') problems.push('empty answer');
  if (!Array.isArray(q.doc_ids) || !q.doc_ids.every((d) => typeof d === 'string')) problems.push('doc_ids must be string[]');
  if (!Array.isArray(q.evidence) || !q.evidence.every((e) => typeof e === 'string')) problems.push('evidence must be string[]');
  if (typeof q.answerable !== 'boolean') problems.push('answerable must be boolean');
  if (!types.has(q.type)) problems.push(`unknown type ${JSON.stringify(q.type)}`);
  if (problems.length) return problems;

  if ((q.type === 'unanswerable') !== (q.answerable === false)) {
    problems.push(`type ${q.type} inconsistent with answerable=${q.answerable}`);
  }
  if (new Set(q.doc_ids).size !== q.doc_ids.length) problems.push('duplicate doc_ids');
  for (const id of q.doc_ids) {
    if (!docs.has(id)) problems.push(`unknown doc id ${id}`);
  }
  if (q.answerable) {
    if (q.doc_ids.length === 0) problems.push('answerable question without doc_ids');
    if (q.evidence.length === 0) problems.push('answerable question without evidence');
    for (const e of q.evidence) {
      if (e.trim().length < 8) problems.push(`evidence too short: ${JSON.stringify(e)}`);
      const found = q.doc_ids.some((id) => docs.has(id) && docs.get(id).includes(e));
      if (!found) problems.push(`evidence not found verbatim in ${q.doc_ids.join(', ')}: ${JSON.stringify(e)}`);
    }
    if (q.type === 'multi-hop' && q.doc_ids.length < 2) problems.push('multi-hop question needs >= 2 doc_ids');
  } else {
    if (q.doc_ids.length !== 0) problems.push('unanswerable question must have doc_ids []');
    if (q.evidence.length !== 0) problems.push('unanswerable question must have evidence []');
    if (!q.answer.startsWith('The documents do not say')) problems.push('unanswerable answer must start with "The documents do not say"');
  }
  return problems;
}

test('manifest entries are complete, unique and point at existing files', () => {
  const manifest = loadManifest();
  assert.ok(Array.isArray(manifest), 'manifest.json must be an array');
  const ids = new Set();
  for (const entry of manifest) {
    for (const key of ['id', 'file', 'title', 'kind', 'date']) {
      assert.equal(typeof entry[key], 'string', `manifest entry ${JSON.stringify(entry.id)}: ${key} must be a string`);
      assert.notEqual(entry[key].trim(), '', `manifest entry ${entry.id}: ${key} is empty`);
    }
    assert.ok(!ids.has(entry.id), `duplicate manifest id ${entry.id}`);
    ids.add(entry.id);
    assert.equal(entry.id, basename(entry.file, extname(entry.file)), `id ${entry.id} must equal the file name without extension`);
    assert.match(entry.file, /^docs\/[a-z0-9-]+\.(md|txt)$/, `${entry.id}: file must be docs/<name>.md|txt`);
    assert.ok(existsSync(join(corpusDir, entry.file)), `${entry.file} does not exist`);
    assert.ok(DOC_KINDS.has(entry.kind), `${entry.id}: unknown kind ${entry.kind}`);
    assert.match(entry.date, /^\d{4}-\d{2}-\d{2}$/, `${entry.id}: date must be YYYY-MM-DD`);
    assert.equal(new Date(`${entry.date}T00:00:00Z`).toISOString().slice(0, 10), entry.date, `${entry.id}: invalid date ${entry.date}`);
  }
});

test('every document is listed once and the document count is within 15 to 30', () => {
  const manifest = loadManifest();
  const listed = new Set(manifest.map((e) => e.file));
  const onDisk = readdirSync(join(corpusDir, 'docs')).map((f) => `docs/${f}`);
  assert.deepEqual([...onDisk].sort(), [...listed].sort(), 'files in docs/ and manifest.json must match exactly');
  assert.ok(manifest.length >= 15 && manifest.length <= 30, `expected 15..30 documents, got ${manifest.length}`);
  assert.ok(!manifest.some((e) => e.file.includes('hostile')), 'the hostile fixture must not be in the manifest');
});

test('documents are valid UTF-8 and start with a markdown H1 equal to the manifest title', () => {
  const manifest = loadManifest();
  let total = 0;
  for (const entry of manifest) {
    const bytes = readFileSync(join(corpusDir, entry.file));
    total += bytes.length;
    const text = decodeStrict(bytes, entry.file);
    assert.ok(text.startsWith('# '), `${entry.file} must start with "# "`);
    const firstLine = text.slice(2, text.indexOf('\n')).trim();
    assert.equal(firstLine, entry.title, `${entry.file}: H1 must equal the manifest title`);
    assert.ok(!text.includes('\r'), `${entry.file}: use LF line endings`);
    assert.ok(bytes.length >= 500, `${entry.file} is suspiciously short (${bytes.length} bytes)`);
  }
  // The corpus is meant to be roughly 100-200 KB; allow some slack but catch a truncated corpus.
  assert.ok(total >= 80_000 && total <= 300_000, `total corpus size ${total} bytes outside 80..300 KB`);
});

/** Asserts that every question of `file` passes `check(q, docs)` and that ids are unique; names each problem. */
function assertQuestionSet(file, check) {
  const docs = loadDocs(loadManifest());
  const ids = new Set();
  const allProblems = [];
  for (const q of loadQuestions(file)) {
    for (const p of check(q, docs)) allProblems.push(`${q.id ?? '(no id)'}: ${p}`);
    assert.ok(!ids.has(q.id), `duplicate question id ${q.id}`);
    ids.add(q.id);
  }
  assert.deepEqual(allProblems, [], allProblems.join('\n'));
}

test('questions have all fields and exact evidence excerpts from their documents', () => {
  assertQuestionSet('questions.jsonl', (q, docs) => questionProblems(q, docs));
});

test('question set has the required size and mix of types', () => {
  const questions = loadQuestions();
  assert.ok(questions.length >= 40, `expected >= 40 questions, got ${questions.length}`);
  const byType = {};
  for (const q of questions) byType[q.type] = (byType[q.type] ?? 0) + 1;
  assert.ok((byType.unanswerable ?? 0) >= 5, `expected >= 5 unanswerable questions, got ${byType.unanswerable ?? 0}`);
  for (const type of QUESTION_TYPES) {
    assert.ok((byType[type] ?? 0) >= 3, `expected >= 3 questions of type ${type}, got ${byType[type] ?? 0}`);
  }
  assert.equal(questions.filter((q) => q.answerable === false).length, byType.unanswerable);
});

test('the question checker rejects broken questions (negative control)', () => {
  const docs = loadDocs(loadManifest());
  const good = loadQuestions().find((q) => q.answerable && q.evidence.length > 0);
  assert.deepEqual(questionProblems(good, docs), []);
  // An excerpt changed by one character is not verbatim any more.
  const altered = { ...good, evidence: [good.evidence[0].replace(/\S(?=\S*$)/, '#')] };
  assert.notDeepEqual(questionProblems(altered, docs), []);
  // Evidence that exists, but in a document not named in doc_ids, does not count.
  const otherId = [...docs.keys()].find((id) => !good.doc_ids.includes(id) && !docs.get(id).includes(good.evidence[0]));
  assert.notDeepEqual(questionProblems({ ...good, doc_ids: [otherId] }, docs), []);
  // Unanswerable questions may not carry evidence.
  assert.notDeepEqual(questionProblems({ ...good, answerable: false, type: 'unanswerable', answer: 'The documents do not say.' }, docs), []);
  // Missing fields are reported.
  const { evidence: _dropped, ...noEvidence } = good;
  assert.notDeepEqual(questionProblems(noEvidence, docs), []);
});

test('the hostile fixture exists, is labelled, is valid UTF-8 and contains its payload classes', () => {
  const file = join(corpusDir, 'hostile', 'hostile.md');
  const text = decodeStrict(readFileSync(file), 'hostile/hostile.md');
  assert.ok(text.startsWith('# '), 'hostile.md must start with "# "');
  assert.match(text.split('\n').slice(0, 4).join('\n'), /TEST FIXTURE/, 'hostile.md must be labelled in its first lines');
  const expected = {
    'script tag': /<script>/i,
    'img onerror': /<img[^>]*onerror=/i,
    'javascript: link': /\]\(javascript:/i,
    'RTL override U+202E': /\u202e/,
    'zero-width space U+200B': /\u200b/,
    'astral emoji': /\u{1F326}/u,
    CJK: /\p{Script=Han}/u,
    'line longer than 5000 characters': /[^\n]{5000,}/,
  };
  for (const [name, re] of Object.entries(expected)) assert.match(text, re, `hostile.md lacks ${name}`);
});

/** Runs make-split.mjs with `args` into a temporary file and returns what it wrote. */
async function regenerateSplit(args) {
  const { execFileSync } = await import('node:child_process');
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const dir = mkdtempSync(join(tmpdir(), 'ragwasm-split-'));
  try {
    execFileSync(process.execPath, [join(corpusDir, 'make-split.mjs'), ...args, join(dir, 'split.json')], { stdio: 'ignore' });
    return JSON.parse(readFileSync(join(dir, 'split.json'), 'utf8'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('split.json puts every question in exactly one half and is what make-split.mjs writes', async () => {
  const questions = loadQuestions();
  const split = JSON.parse(readFileSync(join(corpusDir, 'split.json'), 'utf8'));
  const all = [...split.tuning, ...split.reporting].sort();
  assert.deepEqual(all, questions.map((q) => q.id).sort(), 'each question id once, in one half');
  const unanswerable = new Set(questions.filter((q) => !q.answerable).map((q) => q.id));
  for (const half of ['tuning', 'reporting']) {
    const n = split[half].filter((id) => unanswerable.has(id)).length;
    assert.ok(n >= 7, `${half}: expected >= 7 unanswerable questions, got ${n}`);
  }
  // Regenerating with the committed seed gives the committed file (no hand edits).
  assert.deepEqual(await regenerateSplit([]), split);
});

// ---- own-words.jsonl: issue 27's second question set, written apart from questions.jsonl ----

const OWN_WORDS = 'own-words.jsonl';
const OWN_TYPES = new Set(['lookup', 'yes-no', 'who', 'when', 'numeric', 'table', 'multi-hop', 'unanswerable']);
const OWN_FIELDS = [...QUESTION_FIELDS, 'paraphrased'];
const OWN_OPTIONS = { fields: OWN_FIELDS, types: OWN_TYPES, idPattern: /^w\d{2,}$/ };

/** A case-insensitive whole-word (whole-phrase) pattern; runs of spaces in the phrase match any whitespace. */
function wordPattern(phrase) {
  const body = phrase.trim().split(/\s+/).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s+');
  return new RegExp(`(?<![\\p{L}\\p{N}])${body}(?![\\p{L}\\p{N}])`, 'iu');
}

/** "a=b; c d=e" -> [['a', 'b'], ['c d', 'e']] (null when malformed). */
function parseNote(note) {
  if (typeof note !== 'string') return null;
  const pairs = note.split(';').map((part) => part.split('=').map((s) => s.trim()));
  return pairs.every((p) => p.length === 2 && p[0] !== '' && p[1] !== '') ? pairs : null;
}

/** questionProblems plus the own-words rules: polarity on yes-no, and a note whose left words avoid the documents. */
function ownWordsProblems(q, docs, idPattern = OWN_OPTIONS.idPattern) {
  const problems = questionProblems(q, docs, { ...OWN_OPTIONS, idPattern });
  if (problems.length) return problems;
  if (typeof q.paraphrased !== 'boolean') problems.push('paraphrased must be boolean');
  if (q.type === 'yes-no') {
    if (q.polarity !== 'yes' && q.polarity !== 'no') problems.push(`yes-no question needs polarity "yes" or "no", got ${JSON.stringify(q.polarity)}`);
    else if (!q.answer.startsWith(q.polarity === 'yes' ? 'Yes' : 'No')) problems.push(`answer must start with ${q.polarity === 'yes' ? 'Yes' : 'No'} (polarity ${q.polarity})`);
  } else if ('polarity' in q) {
    problems.push('polarity only on yes-no questions');
  }
  if (q.paraphrased !== true) {
    if ('note' in q) problems.push('note only on paraphrased questions');
    return problems;
  }
  const pairs = parseNote(q.note);
  if (!pairs) return [...problems, `paraphrased question needs a note "their word=document word; ...", got ${JSON.stringify(q.note)}`];
  // Where the user's words must not occur: the evidence documents; for an unanswerable question, any document.
  const against = q.answerable ? q.doc_ids : [...docs.keys()];
  for (const [mine, theirs] of pairs) {
    if (!wordPattern(mine).test(q.question)) problems.push(`note word "${mine}" is not in the question`);
    for (const id of against) {
      if (docs.has(id) && wordPattern(mine).test(docs.get(id))) problems.push(`note word "${mine}" occurs in ${id}: not a paraphrase`);
    }
    if (![...docs.values()].some((text) => wordPattern(theirs).test(text))) problems.push(`document word "${theirs}" occurs in no document`);
  }
  return problems;
}

test('own-words.jsonl: fields, exact evidence, polarity and paraphrase notes', () => {
  assertQuestionSet(OWN_WORDS, ownWordsProblems);
});

test('own-words.jsonl: size and mix (answerable, unanswerable, paraphrased, yes/no polarity, who, when, multi-hop)', () => {
  const questions = loadQuestions(OWN_WORDS);
  const answerable = questions.filter((q) => q.answerable === true);
  const count = (pred) => questions.filter(pred).length;
  assert.ok(answerable.length >= 44, `expected >= 44 answerable questions, got ${answerable.length}`);
  assert.ok(count((q) => q.answerable === false) >= 12, `expected >= 12 unanswerable questions, got ${count((q) => q.answerable === false)}`);
  const paraphrased = answerable.filter((q) => q.paraphrased === true).length;
  assert.ok(paraphrased >= 0.4 * answerable.length, `expected >= 40% of answerable questions paraphrased, got ${paraphrased} of ${answerable.length}`);
  assert.ok(count((q) => q.type === 'yes-no' && q.polarity === 'no') >= 6, 'expected >= 6 yes-no questions answered No');
  assert.ok(count((q) => q.type === 'yes-no' && q.polarity === 'yes') >= 4, 'expected >= 4 yes-no questions answered Yes');
  for (const [type, min] of [['who', 6], ['when', 6], ['multi-hop', 5]]) {
    assert.ok(count((q) => q.type === type) >= min, `expected >= ${min} ${type} questions, got ${count((q) => q.type === type)}`);
  }
  assert.equal(count((q) => q.type === 'unanswerable'), count((q) => q.answerable === false));
});

test('own-words checker rejects broken questions (negative control)', () => {
  const docs = loadDocs(loadManifest());
  const questions = loadQuestions(OWN_WORDS);
  const para = questions.find((q) => q.answerable && q.paraphrased && q.type !== 'yes-no');
  const yesNo = questions.find((q) => q.type === 'yes-no' && q.polarity === 'no');
  assert.deepEqual(ownWordsProblems(para, docs), []);
  assert.deepEqual(ownWordsProblems(yesNo, docs), []);
  // A "paraphrase" word that the evidence document uses is rejected (take a word of the evidence itself).
  const docWord = para.evidence[0].match(/\p{L}{4,}/u)[0];
  const tricked = { ...para, question: `${para.question} ${docWord}`, note: `${docWord}=${docWord}` };
  assert.ok(ownWordsProblems(tricked, docs).some((p) => p.includes('not a paraphrase')), 'a document word passed as a paraphrase');
  // The note's word must be in the question, and a paraphrased question needs a note.
  assert.notDeepEqual(ownWordsProblems({ ...para, note: 'zyxwvu=rainfall' }, docs), []);
  const { note: _n, ...noNote } = para;
  assert.notDeepEqual(ownWordsProblems(noNote, docs), []);
  // Yes-no needs a polarity matching the answer's first word; other types carry none.
  const { polarity: _p, ...noPolarity } = yesNo;
  assert.notDeepEqual(ownWordsProblems(noPolarity, docs), []);
  assert.notDeepEqual(ownWordsProblems({ ...yesNo, polarity: 'yes' }, docs), []);
  assert.notDeepEqual(ownWordsProblems({ ...para, polarity: 'no' }, docs), []);
  // The shared checks still apply: evidence must be verbatim, ids must be w<digits>.
  assert.notDeepEqual(ownWordsProblems({ ...para, evidence: [para.evidence[0].replace(/\S(?=\S*$)/, '#')] }, docs), []);
  assert.notDeepEqual(ownWordsProblems({ ...para, id: 'q01' }, docs), []);
  // The whole-word match does not fire inside a longer word.
  assert.ok(!wordPattern('ill').test('will fill the bill'));
  assert.ok(wordPattern('off ill').test('Off\n  ill today'));
});

test('own-words-split.json puts every question in exactly one half, balanced by type, and is what make-split.mjs writes', async () => {
  const questions = loadQuestions(OWN_WORDS);
  const split = JSON.parse(readFileSync(join(corpusDir, 'own-words-split.json'), 'utf8'));
  assert.equal(split.seed, 27);
  assert.equal(typeof split.method, 'string');
  const all = [...split.tuning, ...split.reporting].sort();
  assert.deepEqual(all, questions.map((q) => q.id).sort(), 'each question id once, in one half');
  assert.ok(Math.abs(split.tuning.length - split.reporting.length) <= 1, `halves ${split.tuning.length} / ${split.reporting.length}`);
  const type = new Map(questions.map((q) => [q.id, `${q.type}/${q.paraphrased}`]));
  for (const stratum of new Set(type.values())) {
    const n = (half) => split[half].filter((id) => type.get(id) === stratum).length;
    assert.ok(Math.abs(n('tuning') - n('reporting')) <= 1, `${stratum}: ${n('tuning')} tuning vs ${n('reporting')} reporting`);
  }
  assert.deepEqual(await regenerateSplit(['--set', 'own-words']), split);
});

test('scripts/build-assets.mjs bundles own-words.jsonl and its split into corpus.json beside questions', async () => {
  const { bundleCorpus } = await import('../../../scripts/build-assets.mjs');
  const bundle = bundleCorpus();
  assert.deepEqual(bundle.questions, loadQuestions());
  assert.deepEqual(bundle.ownWordsQuestions, loadQuestions(OWN_WORDS));
  assert.deepEqual(bundle.ownWordsSplit, JSON.parse(readFileSync(join(corpusDir, 'own-words-split.json'), 'utf8')));
  assert.equal(bundle.documents.length, loadManifest().length);
});

// ---- probe.jsonl: issue 27's probe set (2026-12-07), the own-words rules, reporting only ----

test('probe.jsonl: the own-words rules (fields, exact evidence, polarity, paraphrase notes), none repeating another set', () => {
  assertQuestionSet('probe.jsonl', (q, docs) => ownWordsProblems(q, docs, /^p\d{2,}$/));
  const probe = loadQuestions('probe.jsonl');
  assert.ok(probe.length >= 30, `${probe.length} questions`);
  assert.ok(probe.filter((q) => !q.answerable).length >= 6, 'unanswerable questions');
  assert.ok(probe.filter((q) => q.paraphrased).length >= probe.filter((q) => q.answerable).length / 2, 'mostly paraphrased');
  const others = new Set([...loadQuestions(), ...loadQuestions(OWN_WORDS), ...loadQuestions('near-miss.jsonl')].map((q) => q.question.toLowerCase()));
  assert.deepEqual(probe.filter((q) => others.has(q.question.toLowerCase())).map((q) => q.id), []);
});

test('near-miss.jsonl: unanswerable, tuning-only questions with the question fields, none repeating another set', () => {
  const docs = loadDocs(loadManifest());
  const near = loadQuestions('near-miss.jsonl');
  assert.ok(near.length >= 30, `${near.length} questions`);
  const problems = near.flatMap((q) => questionProblems(q, docs, { idPattern: /^n\d{2,}$/ }).map((p) => `${q.id}: ${p}`));
  assert.deepEqual(problems, []);
  assert.equal(new Set(near.map((q) => q.id)).size, near.length, 'ids are unique');
  for (const q of near) {
    assert.equal(q.type, 'unanswerable', q.id);
    assert.equal(q.split, 'tuning', `${q.id}: the near-miss set has no reporting half`);
  }
  // none repeats a question of the other sets
  const others = new Set([...loadQuestions(), ...loadQuestions(OWN_WORDS)].map((q) => q.question.toLowerCase()));
  assert.deepEqual(near.filter((q) => others.has(q.question.toLowerCase())).map((q) => q.id), []);
});
