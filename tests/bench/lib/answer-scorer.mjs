// Issue 15 round 4: a learned unit scorer / answerability signal for the extractive answerer, fitted on
// external labelled data (SQuAD v1.1 dev, by path) and evaluated on the tuning half of examples/corpus.
//  - features(): the quantities the answerer already computes for a unit (answerUnitFeatures, C++
//    unit_features) as a numeric vector;
//  - fitLogistic(): L2-regularised logistic regression by Newton's method (IRLS) from zero, a fixed
//    number of iterations and a fixed summation order: the same data gives the same coefficients;
//  - squadRows(): (question, unit) rows from SQuAD: label 1 when the unit's span holds an answer
//    start; every question also against one paragraph of another article (all labels 0), which is
//    what an unanswerable question looks like.
// docs/docchat.md ("Round 4") reports what these gave.
import { answerUnitFeatures } from '../../../web/src/answer/extractive.js';

export const FEATURE_NAMES = ['bias', 'cover', 'unitCover', 'relCover', 'termShare', 'bigramShare', 'keyShare', 'entityShare',
  'typeOk', 'entitiesOk', 'keysOk', 'position', 'logUnitTerms', 'missingShare'];

/** The feature vectors of a question's units (one answerUnitFeatures call's output). */
export function features(units) {
  const maxCover = units.reduce((m, u) => Math.max(m, u.cover), 0);
  return units.map((u) => [1, u.cover, u.unitCover, maxCover > 0 ? u.cover / maxCover : 0, u.termShare, u.bigramShare, u.keyShare,
    u.entityShare, u.typeOk ? 1 : 0, u.entitiesOk ? 1 : 0, u.keysOk ? 1 : 0, u.position, Math.log1p(u.unitTerms), u.missingShare]);
}

export const sigmoid = (z) => 1 / (1 + Math.exp(-z));
export const predict = (w, x) => sigmoid(x.reduce((s, v, i) => s + v * w[i], 0));

function solve(A, b) {
  const n = b.length;
  const M = A.map((row, i) => [...row, b[i]]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(M[r][c]) > Math.abs(M[p][c])) p = r;
    [M[c], M[p]] = [M[p], M[c]];
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = M[r][c] / M[c][c];
      for (let k = c; k <= n; k++) M[r][k] -= f * M[c][k];
    }
  }
  return M.map((row, i) => row[n] / row[i]);
}

/** Logistic regression, L2 penalty `l2` on every weight but the bias, `iters` Newton steps from 0. */
export function fitLogistic(X, y, { l2 = 1, iters = 12 } = {}) {
  const d = X[0].length;
  let w = new Array(d).fill(0);
  for (let it = 0; it < iters; it++) {
    const H = Array.from({ length: d }, () => new Array(d).fill(0));
    const g = new Array(d).fill(0);
    for (let r = 0; r < X.length; r++) {
      const x = X[r];
      const p = predict(w, x);
      const e = p - y[r];
      const v = p * (1 - p);
      for (let i = 0; i < d; i++) {
        g[i] += e * x[i];
        const vi = v * x[i];
        for (let j = 0; j <= i; j++) H[i][j] += vi * x[j];
      }
    }
    for (let i = 0; i < d; i++) {
      for (let j = 0; j < i; j++) H[j][i] = H[i][j];
      if (i > 0) {
        H[i][i] += l2;
        g[i] += l2 * w[i];
      }
    }
    const step = solve(H, g);
    w = w.map((v, i) => v - step[i]);
  }
  return w;
}

/** Deterministic fit / held-out split of SQuAD articles: every 5th article (index % 5 === 4) is held out. */
export const isHeldOutArticle = (index) => index % 5 === 4;

/**
 * Rows of SQuAD v1.1 (parsed dev-v1.1.json) for the articles where `keep(articleIndex)`:
 * {qid, article, X: feature vectors, y: labels (1 = the unit holds an answer start), foreign: bool}.
 * Each question is read against its own paragraph and against a paragraph without it: paragraph (p mod n)
 * of the next article (`negatives` 'other-article') or the next paragraph of its own article ('same-article').
 * `answerOptions`: the answerer options the features are computed with (entityMismatch, keyMismatch).
 */
export function squadRows(squad, keep, answerOptions = {}, negatives = 'other-article') {
  const arts = squad.data;
  const out = [];
  const opts = { maxChunks: 1, entityMismatch: answerOptions.entityMismatch ?? 0.6, keyMismatch: answerOptions.keyMismatch ?? 0.5 };
  arts.forEach((art, a) => {
    if (!keep(a)) return;
    const other = negatives === 'same-article' ? art : arts[(a + 1) % arts.length];
    art.paragraphs.forEach((par, p) => {
      // 'same-article': the next paragraph of the same article (a near miss: same topic, the answer elsewhere)
      const foreign = negatives === 'same-article' ? art.paragraphs[(p + 1) % art.paragraphs.length] : other.paragraphs[p % other.paragraphs.length];
      for (const qa of par.qas) {
        const starts = qa.answers.map((x) => x.answer_start);
        const own = answerUnitFeatures(qa.question, [{ text: par.context, context: art.title }], opts);
        if (own.length > 0) {
          out.push({ qid: qa.id, article: a, foreign: false, X: features(own), y: own.map((u) => (starts.some((s) => s >= u.start && s < u.end) ? 1 : 0)) });
        }
        if (foreign === par) continue;  // a one-paragraph article has no near miss
        const neg = answerUnitFeatures(qa.question, [{ text: foreign.context, context: other.title }], opts);
        if (neg.length > 0) out.push({ qid: qa.id, article: a, foreign: true, X: features(neg), y: neg.map(() => 0) });
      }
    });
  });
  return out;
}

/**
 * Held-out quality of coefficients `w` on squadRows output: unit selection accuracy (the top unit of
 * the own paragraph holds the answer; ties: the earlier unit) for the model and for the answerer's own
 * cover, the unit-level accuracy at p = 0.5 (and of always answering 0), and answerability: the share of (own, foreign) pairs of a
 * question where the own paragraph's best p is higher (a pairwise AUC).
 */
export function evaluateRows(w, rows) {
  let sel = 0, selCover = 0, own = 0, correct = 0, units = 0, negatives = 0, pairs = 0, ranked = 0;
  const bestP = new Map();
  for (const r of rows) {
    const ps = r.X.map((x) => predict(w, x));
    ps.forEach((p, i) => { units++; if (r.y[i] === 0) negatives++; if ((p >= 0.5 ? 1 : 0) === r.y[i]) correct++; });
    const m = Math.max(...ps);
    if (!bestP.has(r.qid)) bestP.set(r.qid, {});
    bestP.get(r.qid)[r.foreign ? 'foreign' : 'own'] = m;
    if (r.foreign || !r.y.some((v) => v === 1)) continue;
    own++;
    const arg = (vals) => vals.reduce((b, v, i) => (v > vals[b] ? i : b), 0);
    if (r.y[arg(ps)] === 1) sel++;
    if (r.y[arg(r.X.map((x) => x[1]))] === 1) selCover++;
  }
  for (const v of bestP.values()) {
    if (v.own === undefined || v.foreign === undefined) continue;
    pairs++;
    ranked += v.own > v.foreign ? 1 : v.own === v.foreign ? 0.5 : 0;
  }
  return { questions: own, selection: sel / Math.max(1, own), selectionByCover: selCover / Math.max(1, own), unitAccuracy: correct / Math.max(1, units), majorityAccuracy: negatives / Math.max(1, units), units, answerabilityAuc: ranked / Math.max(1, pairs), pairs };
}
