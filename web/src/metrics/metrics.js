// @ts-check
// Evaluation, exported from the package as the `metrics` namespace: trec_eval-exact retrieval metrics,
// per-query measures, answer metrics (SQuAD EM/F1, ANLS, ROUGE-L, BLEU), citation precision/recall,
// chunk-agnostic evidence evaluation, judge agreement and system comparison. All scoring is in C++
// (src/metrics); the files beside this one validate, convert and throw RagwasmError. Formulas: docs/metrics.md.
export { Qrels, Run, evaluateRun, formatTrecEval } from './trec.js';
export {
  precisionAt, recallAt, averagePrecision, reciprocalRank, rPrecision, successAt, bpref, ndcg, ndcgCut, ndcgExpCut,
} from './ranked.js';
export { squadNormalize, exactMatch, tokenF1, anls, rougeL, sentenceBleu, citationMetrics } from './answer.js';
export { evidenceContainment, evaluateEvidence, recommendCutoff } from './evidence.js';
export { confusionMatrix, binaryScores, cohensKappa, withinAccuracy, spearman, kendallTau } from './agreement.js';
export { randomizationTest, bootstrapCI, winTieLoss, summarize, compareRuns } from './compare.js';
