// Parity of Tokenizer.encodePairs (cross-encoder inputs) with transformers.js (AutoTokenizer with
// text_pair, local bert-base-uncased tokenizer.json, remote models disabled) on real SciFact pairs:
// (query, title + abstract), (abstract, query) and (abstract, abstract).
//
// Untruncated pairs must equal transformers.js exactly: ids, token_type_ids and attention_mask of the
// padded batch. Truncation: transformers.js 4.x cuts the concatenated pair at max_length (dropping the
// final [SEP]), while Hugging Face tokenizers (Python/Rust, what cross-encoders are trained and served
// with) apply 'longest_first' and keep every special token. We implement the latter, so truncated rows
// are checked against transformers.js's untruncated pair encoding cut by the longest_first rule of
// tokenizers' truncate_encodings (src/utils/truncation.rs); the number of rows where transformers.js's
// own cut differs is printed.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';

import { init, RagwasmError, Tokenizer } from '../../../web/src/index.js';
import { skipUnlessShared } from '../helpers.mjs';
import { loadTransformers, makeTokenizerFolder, readScifact } from '../embed-fixtures.mjs';
import { longestFirstRows } from '../pair-fixtures.mjs';

await init();

const BATCH = 32;

let ctx = null;
async function setup(t) {
  const tokPath = skipUnlessShared(t, 'models/bert-base-uncased/tokenizer.json');
  const corpus = skipUnlessShared(t, 'data/scifact/corpus.jsonl');
  if (!tokPath || !corpus) return null;
  if (ctx) return ctx;
  const { docs, queries } = readScifact(corpus.replace(/corpus\.jsonl$/, ''));
  const passage = (d) => `${d.title} ${d.text}`;
  const pairs = [];
  // Every query with a deterministic document (stride 7919, a prime), then the reverse order for 300
  // of them (long first text), then 300 (abstract, abstract) pairs (both long: the split case).
  queries.forEach((q, i) => pairs.push([q.text, passage(docs[(i * 7919) % docs.length])]));
  for (let i = 0; i < 300; i++) pairs.push([docs[(i * 104729) % docs.length].text, queries[i].text]);
  for (let i = 0; i < 300; i++) pairs.push([docs[(i * 15485863) % docs.length].text, docs[(i * 32452843 + 1) % docs.length].text]);
  // modelMaxLength large so that transformers.js does not cap max_length at 512 for the untruncated run.
  const { root, name } = makeTokenizerFolder(tokPath, { modelMaxLength: 1 << 20 });
  const tf = await loadTransformers(root);
  const ref = await tf.AutoTokenizer.from_pretrained(name);
  const ours = Tokenizer.fromTokenizerJson(readFileSync(tokPath));
  ctx = { pairs, ref, ours, root };
  return ctx;
}

test.after(() => {
  if (ctx) {
    ctx.ours.dispose();
    rmSync(ctx.root, { recursive: true, force: true });
  }
});

function flat(rows) {
  return rows.flat();
}

test('untruncated pairs equal transformers.js text_pair ids token types and masks on 1709 SciFact pairs', async (t) => {
  const c = await setup(t);
  if (!c) return;
  let compared = 0;
  let mismatches = 0;
  let firstBad = null;
  for (let i = 0; i < c.pairs.length; i += BATCH) {
    const batch = c.pairs.slice(i, i + BATCH);
    const a = batch.map((p) => p[0]);
    const b = batch.map((p) => p[1]);
    const mine = c.ours.encodePairs(a, b, { maxLength: 65536 });
    const theirs = c.ref(a, { text_pair: b, padding: true, return_tensor: false });
    compared += batch.length;
    const equal = (typed, rows) => {
      const want = flat(rows);
      return typed.length === want.length && typed.every((v, k) => v === want[k]);
    };
    const same = mine.cols === theirs.input_ids[0].length && equal(mine.inputIds, theirs.input_ids)
      && equal(mine.tokenTypeIds, theirs.token_type_ids) && equal(mine.attentionMask, theirs.attention_mask);
    if (!same) {
      mismatches++;
      firstBad ??= i;
    }
  }
  t.diagnostic(`${compared} pairs in batches of ${BATCH}: ${mismatches} mismatching batches`);
  assert.ok(compared >= 1000, `compared ${compared} pairs`);
  assert.equal(mismatches, 0, `first mismatching batch starts at pair ${firstBad}`);
  // One query string with many passages equals the query repeated.
  const qs = c.pairs.slice(0, 8);
  const one = c.ours.encodePairs(qs[0][0], qs.map((p) => p[1]), { maxLength: 128 });
  const many = c.ours.encodePairs(qs.map(() => qs[0][0]), qs.map((p) => p[1]), { maxLength: 128 });
  assert.deepEqual(one, many);
});

for (const maxLength of [128, 512]) {
  test(`longest_first truncation at maxLength ${maxLength} equals Hugging Face tokenizers on 1709 SciFact pairs`, async (t) => {
    const c = await setup(t);
    if (!c) return;
    let truncated = 0;
    let bothCut = 0;
    let tfjsDiffers = 0;
    let mismatches = 0;
    const examples = [];
    for (let i = 0; i < c.pairs.length; i += BATCH) {
      const batch = c.pairs.slice(i, i + BATCH);
      const a = batch.map((p) => p[0]);
      const b = batch.map((p) => p[1]);
      const mine = c.ours.encodePairs(a, b, { maxLength });
      const full = c.ref(a, { text_pair: b, return_tensor: false });
      const cut = c.ref(a, { text_pair: b, truncation: true, max_length: maxLength, return_tensor: false });
      // Expected rows: transformers.js's untruncated pair split at its first [SEP], cut longest_first.
      full.input_ids.forEach((ids, r) => {
        const sep = ids.indexOf(c.ours.specialIds.sep);
        assert.deepEqual(full.token_type_ids[r], ids.map((_, k) => (k <= sep ? 0 : 1)));
      });
      const want = longestFirstRows(full.input_ids, maxLength);
      const { rows, types } = want;
      truncated += want.truncated;
      bothCut += want.bothCut;
      rows.forEach((row, r) => {
        if (cut.input_ids[r].length !== row.length || cut.input_ids[r].some((v, k) => v !== row[k])) tfjsDiffers++;
      });
      const cols = Math.max(...rows.map((r) => r.length));
      assert.equal(mine.cols, cols);
      for (let r = 0; r < batch.length; r++) {
        const n = rows[r].length;
        const pad = (v, fill) => [...v, ...new Array(cols - n).fill(fill)];
        const at = (arr) => Array.from(arr.subarray(r * cols, (r + 1) * cols));
        const ok = JSON.stringify(at(mine.inputIds)) === JSON.stringify(pad(rows[r], 0))
          && JSON.stringify(at(mine.tokenTypeIds)) === JSON.stringify(pad(types[r], 0))
          && JSON.stringify(at(mine.attentionMask)) === JSON.stringify(pad(new Array(n).fill(1), 0));
        if (!ok) {
          mismatches++;
          if (examples.length < 3) examples.push({ pair: i + r, mine: at(mine.inputIds).slice(0, 20), want: rows[r].slice(0, 20) });
        }
      }
    }
    t.diagnostic(`maxLength ${maxLength}: ${c.pairs.length} pairs, ${truncated} truncated (${bothCut} with both texts cut), ${mismatches} mismatches; `
      + `transformers.js's own truncation (concatenation cut at max_length) differs on ${tfjsDiffers} rows`);
    assert.ok(c.pairs.length >= 1000);
    assert.ok(truncated >= (maxLength === 128 ? 1000 : 100), `only ${truncated} pairs needed truncation`);
    assert.ok(bothCut >= 50, `only ${bothCut} pairs had both texts cut`);
    assert.equal(mismatches, 0, JSON.stringify(examples));
  });
}

test('encodePairs rejects bad arguments with RagwasmError', async (t) => {
  const c = await setup(t);
  if (!c) return;
  const is = (code, re) => (e) => e instanceof RagwasmError && e.code === code && (!re || re.test(e.message));
  assert.throws(() => c.ours.encodePairs('q', []), is('INVALID_ARGUMENT', /seconds/));
  assert.throws(() => c.ours.encodePairs(['a', 'b'], ['x', 'y', 'z']), is('INVALID_ARGUMENT', /firsts: expected 3/));
  assert.throws(() => c.ours.encodePairs(3, ['x']), is('INVALID_ARGUMENT', /firsts/));
  assert.throws(() => c.ours.encodePairs('q', ['x', 4]), is('INVALID_ARGUMENT', /seconds\[1\]/));
  assert.throws(() => c.ours.encodePairs('q', ['x'], { maxLength: 2 }), is('INVALID_ARGUMENT', /maxLength/));
  assert.throws(() => c.ours.encodePairs('q', ['x'], { stride: 2 }), is('INVALID_ARGUMENT', /unknown option 'stride'/));
  assert.throws(() => c.ours.encodePairs('a b c', ['d e f'], { maxLength: 5, truncation: false }), is('LIMIT_EXCEEDED', /truncation is off/));
});
