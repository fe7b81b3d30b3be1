// Shared fixtures for the embed tests and the tokenizer benchmark: real texts from ../shared and a
// local transformers.js model folder (tokenizer.json + a generated tokenizer_config.json), offline.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** SciFact documents ({id, title, text}) and queries ({id, text}) from a folder holding the jsonl files. */
export function readScifact(dir) {
  const lines = (f) => readFileSync(join(dir, f), 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
  const docs = lines('corpus.jsonl').map((d) => ({ id: String(d._id), title: d.title ?? '', text: d.text ?? '' }));
  const queries = lines('queries.jsonl').map((q) => ({ id: String(q._id), text: q.text }));
  return { docs, queries };
}

/** SQuAD v1.1 contexts and questions. */
export function readSquad(path) {
  const d = JSON.parse(readFileSync(path, 'utf8'));
  const contexts = [];
  const questions = [];
  for (const a of d.data) {
    for (const p of a.paragraphs) {
      contexts.push(p.context);
      for (const q of p.qas) questions.push(q.question);
    }
  }
  return { contexts, questions };
}

/** TREC qrels (query 0 doc rel) -> Map(query -> Map(doc -> rel)). */
export function readQrels(path) {
  const q = new Map();
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const f = line.trim().split(/\s+/);
    if (f.length < 4) continue;
    if (!q.has(f[0])) q.set(f[0], new Map());
    q.get(f[0]).set(f[2], Number(f[3]));
  }
  return q;
}

/**
 * A temporary transformers.js model folder `<root>/<name>/` with tokenizer.json and a
 * tokenizer_config.json (BertTokenizer, lowercase, model_max_length). Returns {root, name}.
 */
export function makeTokenizerFolder(tokenizerJsonPath, { name = 'bert-local', modelMaxLength = 512 } = {}) {
  const root = mkdtempSync(join(tmpdir(), 'ragwasm-tok-'));
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'tokenizer.json'), readFileSync(tokenizerJsonPath));
  writeFileSync(join(dir, 'tokenizer_config.json'), JSON.stringify({
    tokenizer_class: 'BertTokenizer', do_lower_case: true, model_max_length: modelMaxLength,
    cls_token: '[CLS]', sep_token: '[SEP]', pad_token: '[PAD]', unk_token: '[UNK]', mask_token: '[MASK]',
    clean_up_tokenization_spaces: true, strip_accents: null, tokenize_chinese_chars: true,
  }));
  return { root, name };
}

/** transformers.js configured for local files only. */
export async function loadTransformers(root) {
  const tf = await import('@huggingface/transformers');
  tf.env.allowRemoteModels = false;
  tf.env.allowLocalModels = true;
  tf.env.localModelPath = root.endsWith('/') ? root : `${root}/`;
  tf.env.useBrowserCache = false;
  return tf;
}

/** nDCG@k with linear gain (trec_eval ndcg_cut): DCG = sum rel_i / log2(i + 1), i = 1-based rank. */
export function ndcgAt(ranked, rels, k) {
  let dcg = 0;
  for (let i = 0; i < Math.min(k, ranked.length); i++) dcg += (rels.get(ranked[i]) ?? 0) / Math.log2(i + 2);
  const ideal = [...rels.values()].filter((r) => r > 0).sort((a, b) => b - a);
  let idcg = 0;
  for (let i = 0; i < Math.min(k, ideal.length); i++) idcg += ideal[i] / Math.log2(i + 2);
  return idcg > 0 ? dcg / idcg : 0;
}

/** recall@k: relevant retrieved in the top k / relevant. */
export function recallAt(ranked, rels, k) {
  const relevant = [...rels.entries()].filter(([, r]) => r > 0).map(([d]) => d);
  if (relevant.length === 0) return 0;
  const top = new Set(ranked.slice(0, k));
  return relevant.filter((d) => top.has(d)).length / relevant.length;
}

/**
 * Brute-force cosine top-k over unit vectors (a tiny local oracle; the dense index lives in src/dense).
 * Ties: higher score first, then smaller document ordinal.
 */
export function bruteForceTopK(query, docVectors, k) {
  const scores = new Float64Array(docVectors.length);
  for (let d = 0; d < docVectors.length; d++) {
    const v = docVectors[d];
    let s = 0;
    for (let i = 0; i < v.length; i++) s += v[i] * query[i];
    scores[d] = s;
  }
  const idx = Array.from(scores.keys());
  idx.sort((a, b) => (scores[b] - scores[a]) || (a - b));
  return idx.slice(0, k);
}

/** True when Debian's /usr/bin/python3 has onnx and numpy (the ONNX fixture generators need them). */
export function pythonOnnx() {
  if (!existsSync('/usr/bin/python3')) return false;
  try {
    execFileSync('/usr/bin/python3', ['-c', 'import onnx, numpy'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
