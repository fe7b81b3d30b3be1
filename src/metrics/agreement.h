// Judge agreement (LLM judge vs human labels) and system comparison: confusion matrix, binary
// precision/recall/F1/accuracy, Cohen's kappa (unweighted/linear/quadratic), off-by-one accuracy,
// Spearman and Kendall tau-b; paired randomization test, bootstrap CI, win/tie/loss, summaries.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/result.h"

namespace ragwasm::metrics {

struct Confusion {
  std::vector<int> labels;           // sorted union of both label vectors
  std::vector<std::vector<long>> m;  // m[i][j] = count(a == labels[i] && b == labels[j])
};
// INVALID_ARGUMENT: vectors of different lengths or empty.
Result<Confusion> confusion_matrix(const std::vector<int>& a, const std::vector<int>& b);

struct BinaryScores {
  long tp = 0, fp = 0, fn = 0, tn = 0;
  double precision = 0, recall = 0, f1 = 0, accuracy = 0;  // 0 when the denominator is 0
};
// Binarizes both vectors (value >= threshold -> 1; TREC graded {2,3} -> 1 is threshold 2) and scores
// `predicted` against `gold`.
Result<BinaryScores> binary_scores(const std::vector<int>& predicted, const std::vector<int>& gold, int threshold = 1);

enum class KappaWeights { kNone, kLinear, kQuadratic };
// Cohen's kappa = 1 - sum(w*O) / sum(w*E) over the sorted union of labels (indices i, j), with
// w = [i != j], |i-j|/(k-1) or ((i-j)/(k-1))^2 (as sklearn cohen_kappa_score). NaN when the expected
// disagreement is 0 (both raters always give the same single label).
Result<double> cohens_kappa(const std::vector<int>& a, const std::vector<int>& b, KappaWeights w = KappaWeights::kNone);
// Fraction of pairs with |a - b| <= tolerance (off-by-one accuracy on 0..3 scales: tolerance 1).
Result<double> within_accuracy(const std::vector<int>& a, const std::vector<int>& b, int tolerance = 1);
// Spearman rho: Pearson correlation of average ranks (ties share the mean rank), as scipy.
// Kendall tau-b = (C - D) / sqrt((n0 - n1)(n0 - n2)), as scipy.stats.kendalltau. NaN when a vector
// is constant. INVALID_ARGUMENT for different lengths, fewer than 2 values or non-finite values;
// LIMIT_EXCEEDED for Kendall above 100,000 values (O(n^2)).
Result<double> spearman(const std::vector<double>& a, const std::vector<double>& b);
Result<double> kendall_tau_b(const std::vector<double>& a, const std::vector<double>& b);

// Paired two-sided randomization (permutation) test of mean(a - b): each trial flips the sign of
// every difference with probability 1/2 (SplitMix64 seeded by `seed`, one bit per query);
// p = (1 + #{|mean_perm| >= |mean_obs| - 1e-12}) / (1 + trials).
struct RandomizationResult {
  double mean_difference = 0;
  double p_value = 1;
  int trials = 0;
};
Result<RandomizationResult> randomization_test(const std::vector<double>& a, const std::vector<double>& b, int trials = 10000,
                                               std::uint64_t seed = 42);
// Percentile bootstrap of mean(a - b): `samples` resamples of the queries with replacement;
// CI = [sorted[floor(alpha/2 * B)], sorted[ceil((1 - alpha/2) * B) - 1]].
struct BootstrapResult {
  double mean_difference = 0;
  double low = 0, high = 0;
  double alpha = 0.05;
  int samples = 0;
};
Result<BootstrapResult> bootstrap_ci(const std::vector<double>& a, const std::vector<double>& b, int samples = 10000,
                                     double alpha = 0.05, std::uint64_t seed = 42);
struct WinTieLoss {
  long wins = 0, ties = 0, losses = 0;  // a > b + eps, |a - b| <= eps, a < b - eps
};
Result<WinTieLoss> win_tie_loss(const std::vector<double>& a, const std::vector<double>& b, double epsilon = 0);

// count, min, max, mean and percentiles with linear interpolation between closest ranks
// (numpy.percentile's default): value at position p * (n - 1) of the sorted values.
struct Summary {
  std::size_t count = 0;
  double min = 0, max = 0, mean = 0, p50 = 0, p90 = 0, p95 = 0;
};
Result<Summary> summarize(const std::vector<double>& values);

}  // namespace ragwasm::metrics
