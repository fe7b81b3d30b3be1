// ask(): the doc-chat answer path (retrieve -> extractive or LLM answer -> citations as document
// spans), the offline follow-up rewrite, fileToDocument, and the extractive answerer's plain-text,
// table-row and abstention behaviour through the WASM build.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { ask, Collection, createWordNeighbours, init, MIN_EVIDENCE, NO_ANSWER_TEXT, PASSAGES_TEXT, PRESETS, questionQuery, rewriteFollowUp, suggestWords, unmatchedWords } from '../../../web/src/index.js';
import { loadSets } from '../../bench/lib/docchat-outcomes.mjs';
import { fileToDocument } from '../../../web/src/parse.js';
import { createLlmClient, extractiveAnswer } from '../../../web/src/llm.js';
import { answerScores, answerUnitFeatures } from '../../../web/src/answer/extractive.js';
import { ProtocolTestDouble, openaiJson, openaiSse } from '../llm-protocol-double.mjs';

let double;
before(async () => { await init(); double = await ProtocolTestDouble.start(); });
after(async () => { await double?.close(); });

const LEAVE = '# Leave Policy\n\n## Paid time off\n\nFull-time employees receive **22 days of PTO** per calendar year.\n'
  + 'PTO accrues monthly.\n\n## Travel\n\n| Item | 2024 | 2025 |\n|---|---|---|\n| Meal per diem | $65 | $72 |\n';
const OVERVIEW = '# About Acme\n\nAcme makes pumps in Oslo. Its CEO is Kari Nordmann.\n';

async function collection() {
  const col = await Collection.create(PRESETS.docChatBm25);
  await col.add([{ id: 'leave', title: 'Leave Policy', text: LEAVE }, { id: 'overview', title: 'About Acme', text: OVERVIEW }]);
  return col;
}

test('ask answers in plain text and cites the sentence as a span of the document', async () => {
  const col = await collection();
  const r = await ask(col, 'How many days of PTO do full-time employees receive?');
  assert.equal(r.abstained, false);
  assert.equal(r.mode, 'extractive');
  assert.match(r.answer, /^Full-time employees receive 22 days of PTO per calendar year\. \[1\]/);
  assert.doesNotMatch(r.answer, /\*\*/);
  const c = r.citations[0];
  assert.equal(c.n, 1);
  assert.equal(c.docId, 'leave');
  // start/end are UTF-16 offsets into the document text, and text is exactly that span
  assert.equal(LEAVE.slice(c.start, c.end), c.text);
  assert.ok(c.text.includes('22 days of PTO'));
  assert.ok(r.hits.length >= 1 && r.hits.length <= 10);
  for (const h of r.hits) assert.equal(LEAVE.length >= h.end || OVERVIEW.length >= h.end, true);
  col.dispose();
});

test('a table row answer names its columns', async () => {
  const col = await collection();
  const r = await ask(col, 'What is the meal per diem in 2025?');
  assert.equal(r.abstained, false);
  assert.match(r.answer, /Meal per diem — 2024: \$65; 2025: \$72 \[1\]/);
  assert.equal(LEAVE.slice(r.citations[0].start, r.citations[0].end), '| Meal per diem | $65 | $72 |');
  col.dispose();
});

test('a who question is answered with the sentence naming the person', async () => {
  const col = await collection();
  const r = await ask(col, 'Who is the CEO of Acme?');
  assert.equal(r.abstained, false);
  assert.match(r.answer, /Kari Nordmann/);
  col.dispose();
});

test('issue 27: ask has three outcomes: answer, passages with their best sentence, not-found', async () => {
  const col = await collection();
  const a = await ask(col, 'How many days of PTO do full-time employees receive?');
  assert.equal(a.outcome, 'answer');
  assert.equal(a.abstained, false);
  assert.deepEqual(a.passages, []);
  assert.ok(a.evidence > 0.9, `evidence ${a.evidence}`);
  // Matching words (Oslo, office) but no sentence about a dress code: the closest passages, no claim.
  const p = await ask(col, 'What is the dress code at the Oslo office?');
  assert.equal(p.outcome, 'passages');
  assert.equal(p.abstained, true);
  assert.equal(p.answer, PASSAGES_TEXT);
  assert.equal(PASSAGES_TEXT, "I couldn't find one sentence that answers this; here are the closest passages.");
  assert.deepEqual(p.citations, []);
  assert.ok(p.passages.length >= 1 && p.passages.length <= 5);
  assert.deepEqual(p.passages.map((x) => x.chunkId), p.hits.slice(0, p.passages.length).map((h) => h.chunkId));
  const oslo = p.passages.find((x) => x.docId === 'overview');
  assert.ok(oslo, 'the Oslo passage is shown');
  assert.equal(oslo.best.text, OVERVIEW.slice(oslo.best.start, oslo.best.end));
  assert.equal(oslo.best.text, 'Acme makes pumps in Oslo.');
  assert.ok(oslo.best.start >= oslo.start && oslo.best.end <= oslo.end);
  assert.ok(p.evidence > 0 && p.evidence < 1, `evidence ${p.evidence}`);
  // The same question with a higher evidence bar, and one whose words no document holds: not-found, no passages.
  const n = await ask(col, 'What is the dress code at the Oslo office?', { minEvidence: p.evidence + 0.01 });
  assert.equal(n.outcome, 'not-found');
  assert.equal(n.answer, NO_ANSWER_TEXT);
  assert.equal(NO_ANSWER_TEXT, "Your documents don't say.");
  assert.deepEqual(n.passages, []);
  assert.equal(n.evidence, p.evidence);
  const none = await ask(col, 'What is the capital of France?');
  assert.equal(none.outcome, 'not-found');
  assert.equal(none.evidence, 0);
  assert.deepEqual(none.citations, []);
  assert.equal(MIN_EVIDENCE, PRESETS.docChatAnswer.minEvidence);
  await assert.rejects(ask(col, 'q', { minEvidence: 1.5 }), (e) => e.code === 'INVALID_ARGUMENT' && /minEvidence/.test(e.message));
  col.dispose();
});

test('issue 27: ask names the question\'s words no document uses (a paraphrase or a typo), exactly', async () => {
  const col = await collection();
  try {
    // "vacation" and "holidays" are in no document (they say PTO); "employees" is; question and stop words never count
    assert.deepEqual(unmatchedWords(col, 'How many vacation days do full-time employees get for holidays?'), ['vacation', 'holidays']);
    // a typo, first occurrences only, as written; the index's analyzer decides ("receives" stems like "receive")
    assert.deepEqual(unmatchedWords(col, 'Who receives the Vacaton days, vacaton?'), ['Vacaton']);
    assert.deepEqual(unmatchedWords(col, 'How many days of PTO do full-time employees receive?'), []);
    assert.deepEqual(unmatchedWords(col, "Where's Acme's CEO?"), []);  // a contraction is not named; "Acme's" is Acme, which a document uses
    assert.deepEqual(unmatchedWords(col, "Who is Globex's CEO? Globex didn't"), ['Globex']);  // a possessive is named as its noun
    // how the question is phrased is not what it is about: the word after "how", connectives, "OK"
    assert.deepEqual(unmatchedWords(col, 'How large is the PTO, even though employees get it? Is it OK?'), []);
    assert.deepEqual(unmatchedWords(col, 'How far is the Bergen depot?'), ['Bergen', 'depot']);
    const r = await ask(col, 'How many vacation days do full-time employees get for holidays?');
    assert.deepEqual(r.unmatched, ['vacation', 'holidays']);
    assert.deepEqual((await ask(col, 'How many days of PTO do full-time employees receive?')).unmatched, []);
    // no BM25 index in this thread: it cannot tell
    assert.equal(unmatchedWords({}, 'anything'), null);
    assert.equal(unmatchedWords({ bm25: null }, 'anything'), null);
    assert.throws(() => unmatchedWords(col, 42), (e) => e.code === 'INVALID_ARGUMENT' && /text/.test(e.message));
  } finally {
    col.dispose();
  }
});

test('issue 27: suggestWords offers, for each word no document uses, the model\'s nearest words the documents use', async () => {
  const col = await collection();
  const words = await createWordNeighbours();
  try {
    const s = suggestWords(col, 'Who is the chief executive of the company?', { words, perWord: 2 });
    // one entry per unmatched word, in order; suggestions best first, at most perWord, each a word some document uses
    assert.deepEqual(s.map((x) => x.word), unmatchedWords(col, 'Who is the chief executive of the company?'));
    assert.deepEqual(s.find((x) => x.word === 'executive').suggestions.map((x) => x.word), ['ceo', 'employees']);
    for (const x of s) {
      assert.ok(x.suggestions.length <= 2);
      for (let i = 1; i < x.suggestions.length; i++) assert.ok(x.suggestions[i - 1].similarity >= x.suggestions[i].similarity);
      for (const y of x.suggestions) assert.ok(y.similarity >= 0.5 && col.bm25.analyze(y.word).some((t) => col.bm25.documentFrequency(t) > 0), y.word);
    }
    assert.deepEqual(suggestWords(col, 'How many days of PTO do full-time employees receive?', { words }), []);
    assert.deepEqual(suggestWords(col, 'vacation', { words, minSimilarity: 0.99 }), [{ word: 'vacation', suggestions: [] }]);
    assert.equal(suggestWords({}, 'vacation', { words }), null);
    assert.throws(() => suggestWords(col, 'vacation', {}), (e) => e.code === 'INVALID_ARGUMENT' && /options\.words/.test(e.message));
    assert.throws(() => suggestWords(col, 'vacation', { words, perWord: 0 }), (e) => e.code === 'INVALID_ARGUMENT' && /perWord/.test(e.message));
  } finally {
    col.dispose();
    words.dispose();
  }
});

test('issue 27: an LLM abstention becomes passages or not-found by the retrieval evidence', async () => {
  const col = await collection();
  const llm = createLlmClient({ provider: 'openai', baseUrl: double.origin, model: 'double-model', apiKey: 'test' });
  double.reset();
  double.enqueue({ json: openaiJson('This is not in the documents.') });
  const p = await ask(col, 'What is the dress code at the Oslo office?', { llm });
  assert.equal(p.mode, 'llm');
  assert.equal(p.outcome, 'passages');
  assert.equal(p.answer, PASSAGES_TEXT);
  assert.ok(p.passages.some((x) => x.best?.text === 'Acme makes pumps in Oslo.'));
  double.reset();
  double.enqueue({ json: openaiJson('This is not in the documents.') });
  const n = await ask(col, 'What is the dress code at the Oslo office?', { llm, minEvidence: 0.99 });
  assert.equal(n.outcome, 'not-found');
  assert.equal(n.answer, NO_ANSWER_TEXT);
  double.reset();
  double.enqueue({ json: openaiJson('Employees get 22 days of PTO [1].') });
  const a = await ask(col, 'How many days of PTO do employees get?', { llm });
  assert.equal(a.outcome, 'answer');
  assert.equal(a.polarity, null);
  col.dispose();
});

test('issue 27: a yes/no question naming a word no document uses gets passages, never a Yes or a No', async () => {
  const { documents } = loadSets();
  const col = await Collection.create(PRESETS.docChatBm25);
  await col.add(documents);
  // No document says "pH": this was answered "No. Keep probes at least 1 m apart ... so the probe does not measure only ...".
  const ph = await ask(col, 'Can the Tern probe measure soil pH?', { ...PRESETS.docChatAnswer });
  assert.deepEqual(ph.unmatched, ['pH']);
  assert.equal(ph.outcome, 'passages', ph.answer);
  assert.equal(ph.answer, PASSAGES_TEXT);
  assert.equal(ph.polarity, null);
  assert.ok(ph.passages.length > 0 && ph.passages.some((p) => p.best));
  // ... and this with the DL-7's error-code sentence.
  const salt = await ask(col, 'Can the DL-7 log soil salinity?', { ...PRESETS.docChatAnswer });
  assert.deepEqual([salt.unmatched, salt.outcome], [['salinity'], 'passages']);
  // A number no document uses counts the same (this was answered "a DL-7 stores about 2 million readings");
  // a number they use does not: "3 years" is answered with the DL-7's 2-year warranty sentence.
  const odd = await ask(col, 'Is the DL-7 warranty 4711 days?', { ...PRESETS.docChatAnswer });
  assert.deepEqual([odd.unmatched, odd.outcome], [['4711'], 'passages']);
  const three = await ask(col, 'Is the DL-7 warranty 3 years?', { ...PRESETS.docChatAnswer });
  assert.deepEqual(three.unmatched, []);
  assert.equal(three.outcome, 'answer');
  assert.match(three.answer, /2-year limited warranty/);
  // Yes/no questions in the documents' words are still answered ("No. The HX-9 does not connect to Perch" style).
  const dl = await ask(col, 'Can a pre-2022 DL-7 with 4 MB flash run 3.x?', { ...PRESETS.docChatAnswer, threshold: 0.22 });
  assert.deepEqual([dl.unmatched, dl.outcome, dl.polarity], [[], 'answer', 'no']);
  col.dispose();
});

test('issue 27: Yes/No only when the cited sentence states it (regressions on the sample corpus)', async () => {
  const { documents } = loadSets();
  const col = await Collection.create(PRESETS.docChatBm25);
  await col.add(documents);
  // The documents say the HX-9 does not connect to Perch: this was answered "Yes." with a product-table row.
  const hx = await ask(col, 'Can an HX-9 send its readings to Perch?', { ...PRESETS.docChatAnswer });
  assert.doesNotMatch(hx.answer, /^(Yes|No)\./, hx.answer);
  assert.notEqual(hx.polarity, 'yes');
  // (ask() cites "It receives readings from devices, ... sends alerts ...", about Perch, quoted without Yes/No; the
  // sentence that answers it, read by the answerer, is a No.)
  const guide = documents.find((d) => d.id === 'perch-user-guide').text;
  const perch = extractiveAnswer('Can an HX-9 send its readings to Perch?', [{ id: 'p', text: guide.slice(0, guide.indexOf('only.') + 5) }],
    { threshold: 0, maxSentences: 1 });
  assert.equal(perch.polarity, 'no');
  assert.match(perch.text, /^No\. The HX-9 does not connect to Perch/);
  // "Yes. Loggers made before 2022 with 4 MB flash cannot run 3.x..." contradicted itself.
  const dl = await ask(col, 'Can a pre-2022 DL-7 with 4 MB flash run 3.x?', { ...PRESETS.docChatAnswer, threshold: 0.22 });
  assert.doesNotMatch(dl.answer, /^Yes\./, dl.answer);
  assert.equal(dl.polarity, 'no', dl.answer);
  assert.match(dl.answer, /^No\. Loggers made before 2022 with 4 MB flash cannot run 3\.x/);
  // A negation scoping one shared word is not a No: "... and do not let family members use ..." for contractors and the
  // VPN, "... so a network or Perch outage does not lose ..." for how long Perch keeps data (both were answered "No.").
  for (const q of ['Are contractors allowed to use the VPN?', 'Does Perch keep data forever?']) {
    const r = await ask(col, q, { ...PRESETS.docChatAnswer, threshold: 0.4 });
    assert.deepEqual([r.outcome, r.polarity], ['answer', 'unclear'], `${q} -> ${r.answer}`);
    assert.doesNotMatch(r.answer, /^(Yes|No)\./, `${q} -> ${r.answer}`);
  }
  // A table row is quoted without Yes/No.
  const row = extractiveAnswer('Is the meal per diem $72 in 2025?', [{ id: 'l', text: LEAVE }], { threshold: 0 });
  assert.equal(row.sentences[0].kind, 'table-row');
  assert.equal(row.polarity, 'unclear');
  assert.match(row.text, /^Meal per diem — 2024: \$65; 2025: \$72 \[1\]$/);
  col.dispose();
});

test('a follow-up is rewritten offline with the previous question\'s key terms and the rewrite is reported', async () => {
  assert.equal(rewriteFollowUp('And in Belgium?', [{ role: 'user', content: 'How many days of PTO do employees get?' }]),
    'And in Belgium? days PTO employees');
  // a self-contained question is left alone
  assert.equal(rewriteFollowUp('What is the meal per diem in 2025 for domestic trips?', [{ role: 'user', content: 'How many PTO days?' }]),
    'What is the meal per diem in 2025 for domestic trips?');
  assert.equal(rewriteFollowUp('And in Belgium?', []), 'And in Belgium?');
  const col = await collection();
  const r = await ask(col, 'and in 2025?', { history: [{ role: 'user', content: 'What is the meal per diem?' }, { role: 'assistant', content: '...' }] });
  assert.equal(r.question, 'and in 2025?');
  assert.equal(r.query, 'and in 2025? meal per diem');
  assert.equal(r.abstained, false);
  assert.match(r.answer, /Meal per diem/);
  col.dispose();
});

test('with an LLM client the answer is streamed and its [n] markers become citations', async () => {
  const col = await collection();
  double.reset();
  double.enqueue({ sse: openaiSse(['Employees get 22 days ', 'of PTO [1].']) });
  const llm = createLlmClient({ provider: 'openai', baseUrl: double.origin, model: 'double-model', apiKey: 'test' });
  const streamed = [];
  const r = await ask(col, 'How many days of PTO do employees get?', { llm, onText: (t) => streamed.push(t) });
  assert.equal(r.mode, 'llm');
  assert.equal(r.answer, 'Employees get 22 days of PTO [1].');
  assert.equal(streamed.join(''), r.answer);
  assert.equal(r.citations.length, 1);
  assert.equal(r.citations[0].chunkId, r.hits[0].chunkId);
  assert.equal(r.citations[0].start, r.hits[0].start);
  // the prompt carried the retrieved passage
  assert.match(double.requests[0].raw, /22 days of PTO/);
  // with history the LLM rewrites the follow-up first (query_rewrite prompt), then answers
  double.reset();
  double.enqueue({ json: openaiJson('meal per diem in 2025') }, { json: openaiJson('$72 [1].') });
  const f = await ask(col, 'and in 2025?', { llm, history: [{ role: 'user', content: 'What is the meal per diem?' }] });
  assert.equal(f.query, 'meal per diem in 2025');
  assert.equal(f.answer, '$72 [1].');
  assert.equal(double.requests.length, 2);
  col.dispose();
});

test('bad arguments are INVALID_ARGUMENT and the collection still answers after', async () => {
  const col = await collection();
  await assert.rejects(ask(col, ''), (e) => e.code === 'INVALID_ARGUMENT');
  await assert.rejects(ask(col, '   '), (e) => e.code === 'INVALID_ARGUMENT');
  await assert.rejects(ask(col, 'q', { k: 0 }), (e) => e.code === 'INVALID_ARGUMENT' && /options\.k/.test(e.message));
  await assert.rejects(ask(col, 'q', { k: 3, answerChunks: 4 }), (e) => e.code === 'INVALID_ARGUMENT' && /answerChunks/.test(e.message));
  await assert.rejects(ask(col, 'q', { threshold: 2 }), (e) => e.code === 'INVALID_ARGUMENT');
  await assert.rejects(ask(col, 'q', { colour: 1 }), (e) => e.code === 'INVALID_ARGUMENT' && /colour/.test(e.message));
  await assert.rejects(ask(col, 'q', { llm: {} }), (e) => e.code === 'INVALID_ARGUMENT' && /LlmClient/.test(e.message));
  await assert.rejects(ask({}, 'q'), (e) => e.code === 'INVALID_ARGUMENT');
  const ac = new AbortController();
  ac.abort();
  await assert.rejects(ask(col, 'PTO days', { signal: ac.signal }), (e) => e.code === 'ABORTED');
  assert.equal((await ask(col, 'How many days of PTO do full-time employees receive?')).abstained, false);
  col.dispose();
});

test('fileToDocument takes the title from the first markdown header and rejects unsupported files clearly', async () => {
  const d = await fileToDocument({ name: 'leave.md', data: new TextEncoder().encode(LEAVE) });
  assert.equal(d.id, 'leave.md');
  assert.equal(d.title, 'Leave Policy');
  assert.equal(d.text, LEAVE);
  assert.deepEqual(d.metadata, { name: 'leave.md', format: 'markdown' });
  const t = await fileToDocument({ name: 'notes.txt', data: new TextEncoder().encode('plain notes') }, { id: 'n1' });
  assert.equal(t.id, 'n1');
  assert.equal(t.title, 'notes');
  await assert.rejects(fileToDocument({ name: 'photo.png', data: new Uint8Array([1, 2, 3]) }),
    (e) => e.code === 'INVALID_ARGUMENT' && /photo\.png: unsupported file type/.test(e.message));
});

test('extractiveAnswer reports the question type and unit kind and answerScores scores each chunk', () => {
  const chunks = [{ id: 'a', text: 'Acme was founded in 1998. It makes pumps.' }, { id: 'b', text: 'Unrelated gardening text.' }];
  const r = extractiveAnswer('When was Acme founded?', chunks);
  assert.equal(r.questionType, 'date');
  assert.equal(r.text, 'Acme was founded in 1998. [1]');
  assert.equal(r.sentences[0].kind, 'sentence');
  const s = answerScores('When was Acme founded?', chunks);
  assert.equal(s.length, 2);
  assert.equal(s[0], r.bestScore);  // the same scoring, the same units read
  assert.equal(s[1], 0);
  assert.deepEqual(answerScores('q', []), []);
  assert.throws(() => answerScores('q', [{ text: 1 }]), (e) => e.code === 'INVALID_ARGUMENT');
  assert.throws(() => extractiveAnswer('q', chunks, { typeMismatch: 2 }), (e) => e.code === 'INVALID_ARGUMENT');
});

test('ask reads a product code typed without its hyphen as the documents write it (hx9 -> hx-9)', async () => {
  const col = await Collection.create(PRESETS.docChatBm25);
  await col.add([
    { id: 'hx', title: 'HX-9 manual', text: '# HX-9 manual\n\n## Batteries\n\nThe HX-9 batteries last 40 hours (two AA cells).\n' },
    { id: 'ws', title: 'WS-410 manual', text: '# WS-410 manual\n\n## Warranty\n\nThe WS-410 has a 3-year warranty.\n' },
    { id: 'ws-mount', title: 'Mounting', text: '# Mounting\n\nMount the WS-410 on a 2 m mast.\n' },
    { id: 'files', title: 'Firmware', text: '# Firmware\n\nFirmware files are named ws410-<version>.bin.\n' },
    { id: 'other', title: 'Glossary', text: '# Glossary\n\nBatteries: AA cells, 40 hours. The E04 code means a full card.\n' },
  ]);
  const r = await ask(col, 'How long do hx9 batteries last?', PRESETS.docChatAnswer);
  assert.equal(r.query, 'How long do hx-9 batteries last?');  // what was searched and read
  assert.equal(r.hits[0].docId, 'hx');
  assert.equal(r.outcome, 'answer');
  assert.match(r.answer, /HX-9 batteries last 40 hours/);
  // the documents use "ws-410" in more chunks than "ws410" (one file name): the hyphenated form is searched
  assert.equal((await ask(col, 'ws410 warranty', PRESETS.docChatAnswer)).query, 'ws-410 warranty');
  // a code the documents write glued ("E04"), and words no joined form matches, stay as typed
  assert.equal((await ask(col, 'What does E04 mean?', PRESETS.docChatAnswer)).query, 'What does E04 mean?');
  assert.equal((await ask(col, 'Is the zz9 covered?', PRESETS.docChatAnswer)).query, 'Is the zz9 covered?');
  col.dispose();
});

test('questionQuery drops interrogative and function words and ask retrieves with it when questionWords is false', async () => {
  assert.equal(questionQuery('How many days of PTO do employees get?'), 'days PTO employees');
  // pronouns and contractions of function words go too; a possessive noun stays
  assert.equal(questionQuery("If I'm off, can my manager see Larkspire's calendar?"), "off, manager see Larkspire's calendar?");
  assert.equal(questionQuery('Why don’t I get it?'), 'Why don’t I get it?');  // nothing else left: the question as asked
  assert.equal(questionQuery('What is it?'), 'What is it?');
  assert.equal(questionQuery('Who? When?'), 'Who? When?');
  assert.equal(questionQuery('What — is it?'), 'What — is it?');  // punctuation alone is not what it is about
  // kept: words of the stop list about the asked thing ("document", "today") and possessives of them
  assert.equal(questionQuery("What does the document's title say about today?"), "document's title say today?");
  assert.equal(questionQuery('Can I carry over unused PTO?'), 'carry unused PTO?');
  assert.equal(questionQuery('Am I eligible?'), 'eligible?');
  assert.throws(() => questionQuery(1), (e) => e.code === 'INVALID_ARGUMENT');
  const col = await Collection.create(PRESETS.docChatBm25);
  await col.add([
    { id: 'faq', title: 'FAQ', text: '# FAQ\n\n## How do you do it?\n\nHow does it work? How do updates work? How do I know?\n' },
    { id: 'manual', title: 'Manual', text: '# Manual\n\n## Buttons\n\nHold the button for ten seconds to reset the logger.\n' },
  ]);
  const asked = await ask(col, 'How do I reset it?', { questionWords: true, threshold: 0 });
  const stripped = await ask(col, 'How do I reset it?', { questionWords: false, threshold: 0 });
  // with its question words the query matches the FAQ's own questions first; without them, the answer
  assert.equal(asked.hits[0].docId, 'faq');
  assert.equal(stripped.hits[0].docId, 'manual');
  assert.equal(stripped.query, 'How do I reset it?');  // r.query stays the question (or its follow-up rewrite)
  // first-person words match an FAQ written in the first person, not the policy that answers
  await col.add([
    { id: 'faq2', title: 'Staff FAQ', text: '# Staff FAQ\n\n**Can I book my own business trip?** Yes: I book my trip, I claim my costs.\n\n**Can I bring my dog?** No, I cannot.\n' },
    { id: 'travel', title: 'Travel', text: '# Travel\n\n## Lodging\n\nA business trip is booked by the travel desk. If you stay with family on a business trip, claim $40 per night.\n' },
  ]);
  const q = 'If I stay with my sister on a business trip, can I claim something?';
  assert.equal((await ask(col, q, { questionWords: true, threshold: 0 })).hits[0].docId, 'faq2');
  assert.equal((await ask(col, q, { questionWords: false, threshold: 0 })).hits[0].docId, 'travel');
  // a question that is only question words and stop words is searched as asked instead of failing
  const r = await ask(col, 'What is it?', { questionWords: false });
  assert.ok(Array.isArray(r.hits));
  await assert.rejects(ask(col, 'q', { questionWords: 'no' }), (e) => e.code === 'INVALID_ARGUMENT' && /questionWords/.test(e.message));
  col.dispose();
});

test('entityMismatch lowers the score of units whose chunk lacks an identifier the question names', async () => {
  const col = await collection();
  const named = await ask(col, 'Who is the CEO of Acme?', { entityMismatch: 0.5, threshold: 0 });
  const other = await ask(col, 'Who is the CEO of Globex?', { entityMismatch: 0.5, threshold: 0 });
  const otherPlain = await ask(col, 'Who is the CEO of Globex?', { entityMismatch: 1, threshold: 0 });
  assert.match(named.answer, /Kari Nordmann/);
  assert.equal(other.abstained, false);
  // "Globex" is in no document: every unit is scored half, so the preset's threshold refuses it
  const chunks = other.hits.slice(0, 5).map((h) => ({ id: h.chunkId, text: h.text, context: h.docId === 'leave' ? 'Leave Policy' : 'About Acme' }));
  const full = extractiveAnswer('Who is the CEO of Globex?', chunks, { threshold: 0 }).bestScore;
  assert.ok(full > 0);
  assert.equal(extractiveAnswer('Who is the CEO of Globex?', chunks, { threshold: 0, entityMismatch: 0.5 }).bestScore, 0.5 * full);
  assert.equal(otherPlain.abstained, false);
  assert.equal((await ask(col, 'Who is the CEO of Globex?', { ...PRESETS.docChatAnswer })).abstained, true);
  assert.equal((await ask(col, 'Who is the CEO of Acme?', { ...PRESETS.docChatAnswer })).abstained, false);
  assert.throws(() => extractiveAnswer('q', chunks, { entityMismatch: -0.1 }), (e) => e.code === 'INVALID_ARGUMENT');
  await assert.rejects(ask(col, 'q', { entityMismatch: 2 }), (e) => e.code === 'INVALID_ARGUMENT' && /entityMismatch/.test(e.message));
  col.dispose();
});

test('keyMismatch lowers the score of units whose chunk lacks a key noun of the question', async () => {
  // "Netherlands" and "period" match the notice-period row; the key noun "probation" is in no chunk.
  const chunks = [
    { id: 'c', text: '| Country | Notice period |\n|---|---|\n| Netherlands | one month |\n', context: 'Contracts' },
    { id: 't', text: 'Trainees in Spain are reviewed after three months.', context: 'Onboarding' },
  ];
  const q = 'What is the probation period in the Netherlands?';
  const full = extractiveAnswer(q, chunks, { threshold: 0 }).bestScore;
  assert.ok(full > 0.3);
  assert.equal(extractiveAnswer(q, chunks, { threshold: 0, keyMismatch: 0.5 }).bestScore, 0.5 * full);
  assert.equal(extractiveAnswer(q, chunks, { threshold: 0.3, keyMismatch: 0.5 }).answered, false);
  // the same row answers the notice-period question: every key term is there, no factor
  const q2 = 'What is the notice period in the Netherlands?';
  assert.equal(extractiveAnswer(q2, chunks, { threshold: 0, keyMismatch: 0.5 }).bestScore, extractiveAnswer(q2, chunks, { threshold: 0 }).bestScore);
  assert.deepEqual(answerScores(q, chunks, { keyMismatch: 0.5 }), answerScores(q, chunks).map((x) => 0.5 * x));
  assert.throws(() => extractiveAnswer(q, chunks, { keyMismatch: 1.5 }), (e) => e.code === 'INVALID_ARGUMENT' && /keyMismatch/.test(e.message));
  const col = await collection();
  await assert.rejects(ask(col, 'q', { keyMismatch: -1 }), (e) => e.code === 'INVALID_ARGUMENT' && /keyMismatch/.test(e.message));
  col.dispose();
});

test('issue 27: with PRESETS.docChatAnswer a question about a thing the documents never name gets passages, not an answer', async () => {
  const OFFICES = '# Offices\n\nLarkspire has offices in Ghent and Wexley Ferry.\n\n'
    + 'The facilities manager at Wexley Ferry is Lottie Fairbanks.\n\n'
    + 'Component supply: the LTE-M modem used in the WS-410 has a single source.\n';
  const col = await Collection.create(PRESETS.docChatBm25);
  await col.add([{ id: 'offices', title: 'Offices', text: OFFICES }]);
  // The sentence answers for Wexley Ferry; the chunk names Ghent only in passing (entityConflict, opt-in:
  // 1 in the preset, see the PTO test below).
  const ghent = await ask(col, 'Who is the facilities manager in Ghent?', { ...PRESETS.docChatAnswer, entityConflict: 0.5 });
  assert.equal(ghent.outcome, 'passages');
  assert.equal(ghent.answer, PASSAGES_TEXT);
  assert.match(ghent.passages[0].text, /The facilities manager at Wexley Ferry is Lottie Fairbanks\./);
  // without the factor the Wexley Ferry sentence is quoted as the answer
  const loose = await ask(col, 'Who is the facilities manager in Ghent?', { ...PRESETS.docChatAnswer, entityConflict: 1 });
  assert.equal(loose.outcome, 'answer');
  assert.equal(loose.citations[0].text, 'The facilities manager at Wexley Ferry is Lottie Fairbanks.');
  // The same sentence answers the question about the office it names, also asked in other words.
  const wexley = await ask(col, 'Who is the facilities manager of the Wexley Ferry office?', { ...PRESETS.docChatAnswer, entityConflict: 0.5 });
  assert.equal(wexley.outcome, 'answer');
  assert.equal(wexley.citations[0].text, 'The facilities manager at Wexley Ferry is Lottie Fairbanks.');
  // "Which company" asks for a name: a sentence about the modem that names no company is not an answer.
  const maker = await ask(col, 'Which company makes the LTE-M modem used in the WS-410?', PRESETS.docChatAnswer);
  assert.equal(maker.outcome, 'passages');
  await col.add([{ id: 'supply', title: 'Supply', text: '# Supply\n\nThe LTE-M modem used in the WS-410 is made by Quectel.\n' }]);
  const named = await ask(col, 'Which company makes the LTE-M modem used in the WS-410?', PRESETS.docChatAnswer);
  assert.equal(named.outcome, 'answer');
  assert.match(named.answer, /Quectel/);
  // The option is validated like the other score factors, and the collection still answers after.
  await assert.rejects(ask(col, 'q', { entityConflict: 2 }), (e) => e.code === 'INVALID_ARGUMENT' && /entityConflict/.test(e.message));
  await assert.rejects(ask(col, 'q', { typeMismatch: -0.5 }), (e) => e.code === 'INVALID_ARGUMENT' && /typeMismatch/.test(e.message));
  assert.throws(() => extractiveAnswer('q', [{ id: 'a', text: 'x' }], { entityConflict: 1.5 }), (e) => e.code === 'INVALID_ARGUMENT' && /entityConflict/.test(e.message));
  assert.equal((await ask(col, 'Who is the facilities manager at Wexley Ferry?', PRESETS.docChatAnswer)).outcome, 'answer');
  col.dispose();
});

test('entityConflict lowers the score of a unit naming another identifier in place of the question\'s', () => {
  // The chunk names Q1 2025 in its note; each row names another quarter (Q3, Q4) in its place.
  const chunks = [{ id: 'r', text: 'Q1 2025 figures follow in April.\n\n| Quarter | Perch uptime |\n|---|---|\n| Q3 2024 | 99.95% |\n| Q4 2024 | 99.97% |\n', context: 'Quarterly report' }];
  const q = 'What was the Perch uptime in Q1 2025?';
  const rows = (o) => answerUnitFeatures(q, chunks, o).filter((f) => f.kind === 'table-row').map((f) => f.score);
  assert.equal(rows({}).length, 2);
  assert.ok(rows({}).every((x) => x > 0.2), `scores ${rows({})}`);
  assert.deepEqual(rows({ entityConflict: 0.5 }), rows({}).map((x) => 0.5 * x));
  // the note names Q1 itself: no factor
  const note = (o) => answerUnitFeatures(q, chunks, o).find((f) => f.kind === 'sentence').score;
  assert.equal(note({ entityConflict: 0.5 }), note({}));
  // the question about a quarter a row names: no factor for that row
  const q4 = 'What was the Perch uptime in Q4 2024?';
  const q4row = (o) => answerUnitFeatures(q4, chunks, o).find((f) => f.text.startsWith('Q4 2024')).score;
  assert.equal(q4row({ entityConflict: 0.5 }), q4row({}));
  assert.deepEqual(answerScores(q, [{ text: chunks[0].text.split('\n\n')[1] }], { entityConflict: 0.5 }),
    answerScores(q, [{ text: chunks[0].text.split('\n\n')[1] }]).map((x) => 0.5 * x));
});

test('answerUnitFeatures gives every unit the quantities the answerer scores it by', () => {
  const chunks = [{ text: 'Acme was founded in 1998. It makes pumps.' }, { text: 'Unrelated gardening text.', context: 'Garden' }];
  const f = answerUnitFeatures('When was Acme founded?', chunks);
  assert.deepEqual(f.map((u) => [u.chunkIndex, u.text, u.kind]), [[0, 'Acme was founded in 1998.', 'sentence'], [0, 'It makes pumps.', 'sentence'], [1, 'Unrelated gardening text.', 'sentence']]);
  assert.equal(f[0].score, answerScores('When was Acme founded?', chunks)[0]);  // the same score as the answerer's
  assert.deepEqual([f[0].cover, f[0].termShare, f[0].bigramShare, f[0].typeOk, f[0].position, f[0].unitTerms], [1, 1, 1, true, 0, 3]);
  assert.deepEqual([f[1].cover, f[1].typeOk, f[1].position, f[2].position], [0, false, 1, 0]);
  assert.deepEqual([f[0].start, f[0].end], [0, 25]);  // UTF-16 span in the chunk text
  assert.deepEqual(answerUnitFeatures('q', []), []);
  assert.throws(() => answerUnitFeatures('q', [{ text: 1 }]), (e) => e.code === 'INVALID_ARGUMENT');
  assert.throws(() => answerUnitFeatures('q', chunks, { keyMismatch: 2 }), (e) => e.code === 'INVALID_ARGUMENT');
});

// Why entityConflict is off in PRESETS.docChatAnswer: with 200-character chunks the PTO sentence ("Full-time
// employees receive 22 days of paid time off (PTO) …") lacks the question's "U.S." and names "PTO", so at 0.5
// the sick-days sentence, which names "U.S.", was quoted instead: a wrong answer (tests/browser/chat.test.mjs
// found it with a user-loaded config).
test('issue 27: PRESETS.docChatAnswer answers the PTO question with the PTO sentence under a small chunker', async () => {
  const { bundleCorpus } = await import('../../../scripts/build-assets.mjs');
  const corpus = bundleCorpus();  // the sample corpus as the demo embeds it
  const col = await Collection.create({ chunker: { strategy: 'recursive', chunkSize: 200, chunkOverlap: 0 }, indexes: { bm25: {} } });
  await col.add(corpus.documents);
  const q = 'How many days of paid time off do full-time U.S. employees get per year?';
  const r = await ask(col, q, PRESETS.docChatAnswer);
  assert.equal(r.outcome, 'answer');
  assert.match(r.answer, /22 days of paid time off/);
  const strict = await ask(col, q, { ...PRESETS.docChatAnswer, entityConflict: 0.5 });
  assert.match(strict.answer, /10 paid sick days/);  // the reason the factor is opt-in
  col.dispose();
});
