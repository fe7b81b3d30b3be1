// Judge agreement and system comparison statistics (formulas in agreement.h).
#include "metrics/agreement.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ragwasm::metrics {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

template <class T>
Status check_pair(const std::vector<T>& a, const std::vector<T>& b, const char* what, std::size_t min_size = 1) {
  if (a.size() != b.size()) {
    return make_error(ErrorCode::kInvalidArgument, std::string(what) + ": expected two vectors of the same length, got " +
                                                       std::to_string(a.size()) + " and " + std::to_string(b.size()));
  }
  if (a.size() < min_size) {
    return make_error(ErrorCode::kInvalidArgument, std::string(what) + ": expected at least " + std::to_string(min_size) +
                                                       " values, got " + std::to_string(a.size()));
  }
  if constexpr (std::is_floating_point_v<T>) {
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (!std::isfinite(a[i]) || !std::isfinite(b[i])) {
        return make_error(ErrorCode::kInvalidArgument, std::string(what) + ": value " + std::to_string(i) + " is not a finite number");
      }
    }
  }
  return Status::success();
}

// SplitMix64 (Steele et al. 2014): fixed integer arithmetic, same stream natively and in WASM.
struct SplitMix64 {
  std::uint64_t s;
  std::uint64_t next() {
    std::uint64_t z = (s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  // Uniform in [0, n) by rejection (no modulo bias).
  std::uint64_t below(std::uint64_t n) {
    const std::uint64_t limit = std::numeric_limits<std::uint64_t>::max() - std::numeric_limits<std::uint64_t>::max() % n;
    std::uint64_t x;
    do x = next();
    while (x >= limit);
    return x % n;
  }
};

std::vector<double> average_ranks(const std::vector<double>& v) {
  std::vector<std::size_t> idx(v.size());
  for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = i;
  std::stable_sort(idx.begin(), idx.end(), [&](std::size_t x, std::size_t y) { return v[x] < v[y]; });
  std::vector<double> r(v.size());
  std::size_t i = 0;
  while (i < idx.size()) {
    std::size_t j = i;
    while (j + 1 < idx.size() && v[idx[j + 1]] == v[idx[i]]) ++j;
    const double avg = (static_cast<double>(i) + static_cast<double>(j)) / 2.0 + 1.0;
    for (std::size_t k = i; k <= j; ++k) r[idx[k]] = avg;
    i = j + 1;
  }
  return r;
}

double pearson(const std::vector<double>& a, const std::vector<double>& b) {
  const double n = static_cast<double>(a.size());
  double ma = 0, mb = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    ma += a[i];
    mb += b[i];
  }
  ma /= n;
  mb /= n;
  double sab = 0, saa = 0, sbb = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    sab += (a[i] - ma) * (b[i] - mb);
    saa += (a[i] - ma) * (a[i] - ma);
    sbb += (b[i] - mb) * (b[i] - mb);
  }
  if (saa == 0 || sbb == 0) return kNaN;
  return sab / std::sqrt(saa * sbb);
}

std::vector<double> differences(const std::vector<double>& a, const std::vector<double>& b) {
  std::vector<double> d(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) d[i] = a[i] - b[i];
  return d;
}

double mean_of(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return v.empty() ? 0.0 : s / static_cast<double>(v.size());
}

}  // namespace

Result<Confusion> confusion_matrix(const std::vector<int>& a, const std::vector<int>& b) {
  RAGWASM_TRY(check_pair(a, b, "confusion matrix labels"));
  Confusion c;
  c.labels = a;
  c.labels.insert(c.labels.end(), b.begin(), b.end());
  std::sort(c.labels.begin(), c.labels.end());
  c.labels.erase(std::unique(c.labels.begin(), c.labels.end()), c.labels.end());
  if (c.labels.size() > 1000) return make_error(ErrorCode::kLimitExceeded, "confusion matrix labels: at most 1000 distinct labels, got " + std::to_string(c.labels.size()));
  c.m.assign(c.labels.size(), std::vector<long>(c.labels.size(), 0));
  auto at = [&](int v) { return static_cast<std::size_t>(std::lower_bound(c.labels.begin(), c.labels.end(), v) - c.labels.begin()); };
  for (std::size_t i = 0; i < a.size(); ++i) ++c.m[at(a[i])][at(b[i])];
  return c;
}

Result<BinaryScores> binary_scores(const std::vector<int>& predicted, const std::vector<int>& gold, int threshold) {
  RAGWASM_TRY(check_pair(predicted, gold, "binary scores labels"));
  BinaryScores s;
  for (std::size_t i = 0; i < predicted.size(); ++i) {
    const bool p = predicted[i] >= threshold, g = gold[i] >= threshold;
    if (p && g) ++s.tp;
    else if (p) ++s.fp;
    else if (g) ++s.fn;
    else ++s.tn;
  }
  auto ratio = [](long x, long y) { return y ? static_cast<double>(x) / static_cast<double>(y) : 0.0; };
  s.precision = ratio(s.tp, s.tp + s.fp);
  s.recall = ratio(s.tp, s.tp + s.fn);
  s.f1 = s.precision + s.recall > 0 ? 2 * s.precision * s.recall / (s.precision + s.recall) : 0.0;
  s.accuracy = ratio(s.tp + s.tn, static_cast<long>(predicted.size()));
  return s;
}

Result<double> cohens_kappa(const std::vector<int>& a, const std::vector<int>& b, KappaWeights w) {
  auto cr = confusion_matrix(a, b);
  if (!cr.ok()) return cr.error();
  const Confusion& c = cr.value();
  const std::size_t k = c.labels.size();
  const double n = static_cast<double>(a.size());
  std::vector<double> row(k, 0), col(k, 0);
  for (std::size_t i = 0; i < k; ++i) {
    for (std::size_t j = 0; j < k; ++j) {
      row[i] += static_cast<double>(c.m[i][j]);
      col[j] += static_cast<double>(c.m[i][j]);
    }
  }
  double obs = 0, exp = 0;
  for (std::size_t i = 0; i < k; ++i) {
    for (std::size_t j = 0; j < k; ++j) {
      double wt;
      const double d = k > 1 ? (static_cast<double>(i) - static_cast<double>(j)) / static_cast<double>(k - 1) : 0.0;
      switch (w) {
        case KappaWeights::kNone: wt = i == j ? 0.0 : 1.0; break;
        case KappaWeights::kLinear: wt = std::fabs(d); break;
        default: wt = d * d; break;
      }
      obs += wt * static_cast<double>(c.m[i][j]) / n;
      exp += wt * (row[i] / n) * (col[j] / n);
    }
  }
  if (exp == 0) return kNaN;
  return 1.0 - obs / exp;
}

Result<double> within_accuracy(const std::vector<int>& a, const std::vector<int>& b, int tolerance) {
  RAGWASM_TRY(check_pair(a, b, "within accuracy labels"));
  if (tolerance < 0) return make_error(ErrorCode::kInvalidArgument, "within accuracy tolerance: expected an integer >= 0, got " + std::to_string(tolerance));
  long ok = 0;
  for (std::size_t i = 0; i < a.size(); ++i) ok += std::llabs(static_cast<long long>(a[i]) - b[i]) <= tolerance;
  return static_cast<double>(ok) / static_cast<double>(a.size());
}

Result<double> spearman(const std::vector<double>& a, const std::vector<double>& b) {
  RAGWASM_TRY(check_pair(a, b, "spearman", 2));
  return pearson(average_ranks(a), average_ranks(b));
}

Result<double> kendall_tau_b(const std::vector<double>& a, const std::vector<double>& b) {
  RAGWASM_TRY(check_pair(a, b, "kendall", 2));
  if (a.size() > 100000) return make_error(ErrorCode::kLimitExceeded, "kendall: at most 100000 values (O(n^2)), got " + std::to_string(a.size()));
  // C - D over all pairs; pairs tied in a (n1) or in b (n2) are excluded from the respective term.
  double s = 0, n1 = 0, n2 = 0, n0 = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    for (std::size_t j = i + 1; j < a.size(); ++j) {
      const double da = a[i] - a[j], db = b[i] - b[j];
      n0 += 1;
      if (da == 0) n1 += 1;
      if (db == 0) n2 += 1;
      if (da != 0 && db != 0) s += (da > 0) == (db > 0) ? 1 : -1;
    }
  }
  const double den = std::sqrt((n0 - n1) * (n0 - n2));
  if (den == 0) return kNaN;
  return s / den;
}

Result<RandomizationResult> randomization_test(const std::vector<double>& a, const std::vector<double>& b, int trials, std::uint64_t seed) {
  RAGWASM_TRY(check_pair(a, b, "randomization test scores"));
  if (trials < 1 || trials > 10000000) return make_error(ErrorCode::kInvalidArgument, "randomization test trials: expected an integer in [1, 10000000], got " + std::to_string(trials));
  const auto d = differences(a, b);
  RandomizationResult r;
  r.mean_difference = mean_of(d);
  r.trials = trials;
  const double obs = std::fabs(r.mean_difference) - 1e-12;
  SplitMix64 rng{seed};
  long extreme = 0;
  const double n = static_cast<double>(d.size());
  for (int t = 0; t < trials; ++t) {
    double s = 0;
    std::uint64_t bits = 0;
    for (std::size_t i = 0; i < d.size(); ++i) {
      if (i % 64 == 0) bits = rng.next();
      s += (bits & 1) ? -d[i] : d[i];
      bits >>= 1;
    }
    if (std::fabs(s / n) >= obs) ++extreme;
  }
  r.p_value = static_cast<double>(extreme + 1) / static_cast<double>(trials + 1);
  return r;
}

Result<BootstrapResult> bootstrap_ci(const std::vector<double>& a, const std::vector<double>& b, int samples, double alpha, std::uint64_t seed) {
  RAGWASM_TRY(check_pair(a, b, "bootstrap scores"));
  if (samples < 1 || samples > 1000000) return make_error(ErrorCode::kInvalidArgument, "bootstrap samples: expected an integer in [1, 1000000], got " + std::to_string(samples));
  if (!(alpha > 0 && alpha < 1)) return make_error(ErrorCode::kInvalidArgument, "bootstrap alpha: expected a number in (0, 1), got " + std::to_string(alpha));
  const auto d = differences(a, b);
  BootstrapResult r;
  r.mean_difference = mean_of(d);
  r.alpha = alpha;
  r.samples = samples;
  SplitMix64 rng{seed};
  std::vector<double> means(static_cast<std::size_t>(samples));
  for (auto& m : means) {
    double s = 0;
    for (std::size_t i = 0; i < d.size(); ++i) s += d[rng.below(d.size())];
    m = s / static_cast<double>(d.size());
  }
  std::sort(means.begin(), means.end());
  const double B = static_cast<double>(samples);
  std::size_t lo = static_cast<std::size_t>(std::floor(alpha / 2 * B));
  std::size_t hi = static_cast<std::size_t>(std::ceil((1 - alpha / 2) * B));
  hi = hi == 0 ? 0 : hi - 1;
  lo = std::min(lo, means.size() - 1);
  hi = std::min(hi, means.size() - 1);
  r.low = means[lo];
  r.high = means[hi];
  return r;
}

Result<WinTieLoss> win_tie_loss(const std::vector<double>& a, const std::vector<double>& b, double epsilon) {
  RAGWASM_TRY(check_pair(a, b, "win/tie/loss scores"));
  if (!(epsilon >= 0) || !std::isfinite(epsilon)) return make_error(ErrorCode::kInvalidArgument, "win/tie/loss epsilon: expected a finite number >= 0");
  WinTieLoss w;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double d = a[i] - b[i];
    if (d > epsilon) ++w.wins;
    else if (d < -epsilon) ++w.losses;
    else ++w.ties;
  }
  return w;
}

Result<Summary> summarize(const std::vector<double>& values) {
  if (values.empty()) return make_error(ErrorCode::kInvalidArgument, "summary values: expected at least 1 value, got 0");
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (!std::isfinite(values[i])) return make_error(ErrorCode::kInvalidArgument, "summary values: value " + std::to_string(i) + " is not a finite number");
  }
  std::vector<double> v = values;
  std::sort(v.begin(), v.end());
  Summary s;
  s.count = v.size();
  s.min = v.front();
  s.max = v.back();
  s.mean = mean_of(values);
  auto pct = [&](double p) {
    const double pos = p * static_cast<double>(v.size() - 1);
    const std::size_t i = static_cast<std::size_t>(std::floor(pos));
    const double frac = pos - static_cast<double>(i);
    return i + 1 < v.size() ? v[i] + (v[i + 1] - v[i]) * frac : v[i];
  };
  s.p50 = pct(0.5);
  s.p90 = pct(0.9);
  s.p95 = pct(0.95);
  return s;
}

}  // namespace ragwasm::metrics
