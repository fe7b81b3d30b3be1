// Parity: our C++ WordPiece tokenizer gives the same ids as transformers.js (AutoTokenizer, local
// tokenizer.json, remote models disabled) on every SciFact document and query and every SQuAD dev
// context and question. Mismatch count goal: 0.
import test from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';

import { init, Tokenizer } from '../../../web/src/index.js';
import { readFileSync } from 'node:fs';
import { skipUnlessShared } from '../helpers.mjs';
import { loadTransformers, makeTokenizerFolder, readScifact, readSquad } from '../embed-fixtures.mjs';

await init();

async function compare(t, tokenizerFile) {
  const tokPath = skipUnlessShared(t, `models/bert-base-uncased/${tokenizerFile}`);
  const scifactDir = skipUnlessShared(t, 'data/scifact/corpus.jsonl');
  const squadPath = skipUnlessShared(t, 'data/squad-v1.1/dev-v1.1.json');
  if (!tokPath || !scifactDir || !squadPath) return;
  const { docs, queries } = readScifact(scifactDir.replace(/corpus\.jsonl$/, ''));
  const { contexts, questions } = readSquad(squadPath);
  const sets = {
    'scifact titles': docs.map((d) => d.title),
    'scifact abstracts': docs.map((d) => d.text),
    'scifact queries': queries.map((q) => q.text),
    'squad contexts': contexts,
    'squad questions': questions,
  };
  const { root, name } = makeTokenizerFolder(tokPath);
  try {
    const tf = await loadTransformers(root);
    const ref = await tf.AutoTokenizer.from_pretrained(name);
    const ours = Tokenizer.fromTokenizerJson(readFileSync(tokPath));
    let total = 0;
    let mismatches = 0;
    const examples = [];
    for (const [setName, texts] of Object.entries(sets)) {
      // Batches of 256 through encodeBatch (padding 'none'): the same path the embedder uses.
      for (let i = 0; i < texts.length; i += 256) {
        const batch = texts.slice(i, i + 256);
        const enc = ours.encodeBatch(batch, { padding: 'none', truncation: false, maxLength: 65536 });
        let off = 0;
        for (let j = 0; j < batch.length; j++) {
          const n = enc.lengths[j];
          const mine = Array.from(enc.inputIds.subarray(off, off + n));
          off += n;
          const theirs = ref.encode(batch[j]);
          total++;
          if (mine.length !== theirs.length || mine.some((v, k) => v !== theirs[k])) {
            mismatches++;
            if (examples.length < 5) examples.push({ set: setName, index: i + j, text: batch[j].slice(0, 200), mine: mine.slice(0, 40), theirs: theirs.slice(0, 40) });
          }
        }
      }
    }
    t.diagnostic(`${tokenizerFile}: ${total} texts compared, ${mismatches} mismatches`);
    assert.ok(total >= 5183 * 2 + 1109 + 2067 + 10570, `compared ${total} texts`);
    assert.equal(mismatches, 0, `mismatching texts (first ${examples.length}): ${JSON.stringify(examples, null, 1)}`);
    ours.dispose();
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

test('ids equal transformers.js on all SciFact and SQuAD dev texts (bert-base-uncased)', async (t) => {
  await compare(t, 'tokenizer.json');
});

test('ids equal transformers.js on all SciFact and SQuAD dev texts (bge-small-en-v1.5)', async (t) => {
  await compare(t, 'bge-small-en-v1.5-tokenizer.json');
});

// Hand-picked hard cases plus seeded random strings drawn from scripts, marks, punctuation,
// controls, CJK, astral characters and special tokens.
const HARD = [
  '', '   ', 'Hello, world!', 'ΣΑΣ ΟΔΟΣ Σ', 'Naïve café — résumé', 'Straße ÆØÅ ﬁ ǅ İstanbul', '東京タワー 한국어 中文字',
  '[CLS] [MASK] [mask] x[SEP]y', 'a\u0000b\u0001c\u200bd\ufeffe\u00adf', 'tab\tnew\nline\rcr\u00a0nbsp\u2028ls',
  'x'.repeat(101), 'x'.repeat(100), '😀👍🏽 emoji', 'e\u0301 precomposed é', 'ℌ ℍ Ω K Å', '¿¡«»‹›„“”‘’…‰',
  '3.14159 1,000,000 50% $5', 'U.S.A. e.g. i.e.', 'don\'t won\'t it\'s', 'co-operation self-driving',
  '\ud83d lone surrogate', 'ｆｕｌｌｗｉｄｔｈ', 'Ǆ ǈ ǋ ß ẞ', 'Ⅻ ⓐ ㎏', '𝐀𝐁𝐂 𠀀 𪚥', 'ᾈ ᾼ ῌ',
];

function randomStrings(seed, n) {
  let s = seed >>> 0;
  const rnd = () => { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; return s / 4294967296; };
  const pools = [
    [0x20, 0x7e], [0xa0, 0x24f], [0x300, 0x36f], [0x370, 0x3ff], [0x400, 0x4ff], [0x2000, 0x206f],
    [0x3000, 0x303f], [0x4e00, 0x4e80], [0xac00, 0xac40], [0x0, 0x1f], [0x1f300, 0x1f340], [0x20000, 0x20010], [0xff00, 0xff60],
  ];
  const out = [];
  for (let i = 0; i < n; i++) {
    const len = 1 + Math.floor(rnd() * 40);
    let t = '';
    for (let k = 0; k < len; k++) {
      if (rnd() < 0.05) { t += ['[MASK]', '[SEP]', '[CLS]', '[PAD]', '[UNK]'][Math.floor(rnd() * 5)]; continue; }
      if (rnd() < 0.2) { t += ' '; continue; }
      const [lo, hi] = pools[Math.floor(rnd() * pools.length)];
      t += String.fromCodePoint(lo + Math.floor(rnd() * (hi - lo + 1)));
    }
    out.push(t);
  }
  return out;
}

test('ids equal transformers.js on hard cases and 3000 seeded random strings', async (t) => {
  const tokPath = skipUnlessShared(t, 'models/bert-base-uncased/tokenizer.json');
  if (!tokPath) return;
  const seed = 20261121;
  const texts = [...HARD, ...randomStrings(seed, 3000)];
  const { root, name } = makeTokenizerFolder(tokPath);
  try {
    const tf = await loadTransformers(root);
    const ref = await tf.AutoTokenizer.from_pretrained(name);
    const ours = Tokenizer.fromTokenizerJson(readFileSync(tokPath));
    const bad = [];
    for (const text of texts) {
      const mine = Array.from(ours.encode(text, { truncation: false, maxLength: 65536 }));
      const theirs = ref.encode(text);
      if (mine.length !== theirs.length || mine.some((v, k) => v !== theirs[k])) bad.push({ text: JSON.stringify(text), mine, theirs });
    }
    assert.equal(bad.length, 0, `seed ${seed}: ${bad.length} mismatches, first: ${JSON.stringify(bad.slice(0, 3))}`);
    ours.dispose();
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
