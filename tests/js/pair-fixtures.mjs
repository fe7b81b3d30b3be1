// Shared by the pair-tokenizer parity test and the cross-encoder proof test.

/**
 * Hugging Face tokenizers' LongestFirst truncation of a pair (truncate_encodings in
 * tokenizers/src/utils/truncation.rs) on content ids; budget = maxLength - 3 for [CLS] A [SEP] B [SEP].
 * Only the longer text shrinks while that suffices; otherwise the shorter (A on a tie) keeps
 * floor(budget / 2) and the other the rest.
 */
export function longestFirst(a, b, budget) {
  if (a.length + b.length <= budget) return [a, b];
  let n1 = a.length;
  let n2 = b.length;
  const swap = n1 > n2;
  if (swap) [n1, n2] = [n2, n1];
  n2 = n1 > budget ? n1 : Math.max(n1, budget - n1);
  if (n1 + n2 > budget) {
    n1 = Math.floor(budget / 2);
    n2 = n1 + (budget % 2);
  }
  if (swap) [n1, n2] = [n2, n1];
  return [a.slice(0, n1), b.slice(0, n2)];
}

/**
 * Expected rows for pairs: transformers.js's untruncated pair encodings (tokenizer(a, {text_pair: b}))
 * split at the first [SEP] and cut with longestFirst. Returns {rows, types, truncated, bothCut}.
 */
export function longestFirstRows(fullInputIds, maxLength, { cls = 101, sep = 102 } = {}) {
  const rows = [];
  const types = [];
  let truncated = 0;
  let bothCut = 0;
  for (const ids of fullInputIds) {
    const at = ids.indexOf(sep);
    const ca = ids.slice(1, at);
    const cb = ids.slice(at + 1, ids.length - 1);
    const [ka, kb] = longestFirst(ca, cb, maxLength - 3);
    if (ka.length < ca.length || kb.length < cb.length) truncated++;
    if (ka.length < ca.length && kb.length < cb.length) bothCut++;
    const row = [cls, ...ka, sep, ...kb, sep];
    rows.push(row);
    types.push(row.map((_, k) => (k <= ka.length + 1 ? 0 : 1)));
  }
  return { rows, types, truncated, bothCut };
}
