// src/metrics/agreement: judge agreement statistics and system comparison, as hand arithmetic.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "metrics/agreement.h"

using namespace ragwasm::metrics;
using ragwasm::ErrorCode;
using VI = std::vector<int>;
using VD = std::vector<double>;

TEST_CASE("confusion matrix counts label pairs over the sorted label union", "[unit]") {
  auto c = confusion_matrix(VI{0, 1, 2, 2}, VI{0, 2, 2, 1});
  REQUIRE(c.ok());
  REQUIRE(c.value().labels == VI{0, 1, 2});
  REQUIRE(c.value().m[0][0] == 1);
  REQUIRE(c.value().m[1][2] == 1);
  REQUIRE(c.value().m[2][2] == 1);
  REQUIRE(c.value().m[2][1] == 1);
}

TEST_CASE("binary scores binarize TREC grades 2 and 3 as relevant", "[unit]") {
  // threshold 2: predicted 3,2,1,0,2 -> 1,1,0,0,1 ; gold 2,0,3,1,3 -> 1,0,1,0,1
  // tp = 2 (items 1,5), fp = 1 (item 2), fn = 1 (item 3), tn = 1 (item 4)
  auto s = binary_scores(VI{3, 2, 1, 0, 2}, VI{2, 0, 3, 1, 3}, 2);
  REQUIRE(s.ok());
  REQUIRE(s.value().tp == 2);
  REQUIRE(s.value().precision == Approx(2.0 / 3).margin(1e-12));
  REQUIRE(s.value().recall == Approx(2.0 / 3).margin(1e-12));
  REQUIRE(s.value().accuracy == Approx(3.0 / 5).margin(1e-12));
}

TEST_CASE("Cohen kappa unweighted and quadratic by hand", "[unit]") {
  // a = 0 1 1 0, b = 0 1 0 0: po = 3/4; pe = (2/4)(3/4) + (2/4)(1/4) = 1/2 -> (3/4 - 1/2)/(1 - 1/2) = 0.5
  REQUIRE(cohens_kappa(VI{0, 1, 1, 0}, VI{0, 1, 0, 0}).value() == Approx(0.5).margin(1e-12));
  // a = 0 1 2, b = 0 2 2, quadratic w = ((i-j)/2)^2: observed = w(1,2)/3 = 1/12;
  // expected = (1/3) * [(2/3) + (1/4)(1/3) + (1/4)(2/3) + (1/3)] = 5/12 -> 1 - (1/12)/(5/12) = 0.8
  REQUIRE(cohens_kappa(VI{0, 1, 2}, VI{0, 2, 2}, KappaWeights::kQuadratic).value() == Approx(0.8).margin(1e-12));
  // linear w = |i-j|/2: observed = (1/2)/3 = 1/6; expected = (1/3)[(2/3) + (1/2)(1/3) + (1/2)(2/3) + (1/3)] = 1/2
  REQUIRE(cohens_kappa(VI{0, 1, 2}, VI{0, 2, 2}, KappaWeights::kLinear).value() == Approx(1.0 - (1.0 / 6) / 0.5).margin(1e-12));
  REQUIRE(std::isnan(cohens_kappa(VI{1, 1}, VI{1, 1}).value()));  // no expected disagreement: undefined
}

TEST_CASE("off by one accuracy on a 0 to 3 scale", "[unit]") {
  // |diff| = 0, 1, 2, 3 -> within 1: two of four
  REQUIRE(within_accuracy(VI{0, 1, 3, 0}, VI{0, 2, 1, 3}, 1).value() == Approx(0.5).margin(1e-12));
}

TEST_CASE("Spearman and Kendall tau-b with ties", "[unit]") {
  // b ranks with the tie at 7 averaged: 1 2 3.5 5 3.5 ; sab = 8, saa = 10, sbb = 9.5 -> 8/sqrt(95)
  REQUIRE(spearman(VD{1, 2, 3, 4, 5}, VD{5, 6, 7, 8, 7}).value() == Approx(8 / std::sqrt(95.0)).margin(1e-12));
  // 10 pairs: 8 concordant, 1 discordant, 1 tied in b -> (8 - 1)/sqrt(10 * 9)
  REQUIRE(kendall_tau_b(VD{1, 2, 3, 4, 5}, VD{5, 6, 7, 8, 7}).value() == Approx(7 / std::sqrt(90.0)).margin(1e-12));
  REQUIRE(std::isnan(spearman(VD{1, 1, 1}, VD{1, 2, 3}).value()));
}

TEST_CASE("label vectors of different lengths are invalid arguments", "[unit]") {
  REQUIRE(cohens_kappa(VI{1, 2}, VI{1}).error().code == ErrorCode::kInvalidArgument);
  REQUIRE(spearman(VD{1, 2}, VD{1}).error().code == ErrorCode::kInvalidArgument);
  REQUIRE(spearman(VD{1, NAN}, VD{1, 2}).error().code == ErrorCode::kInvalidArgument);
  REQUIRE(confusion_matrix(VI{}, VI{}).error().code == ErrorCode::kInvalidArgument);
  REQUIRE(randomization_test(VD{1}, VD{1}, 0).error().code == ErrorCode::kInvalidArgument);
}

TEST_CASE("randomization test finds a consistent difference and none between equal systems", "[unit]") {
  // a - b = +1 on all 10 queries: only the 2 of 1024 all-same sign flips reach |mean| >= 1.
  VD a(10, 1.0), b(10, 0.0);
  auto r = randomization_test(a, b, 20000, 7);
  REQUIRE(r.ok());
  REQUIRE(r.value().mean_difference == 1.0);
  REQUIRE(r.value().p_value < 0.01);
  REQUIRE(r.value().p_value > 0.0);
  auto again = randomization_test(a, b, 20000, 7);
  REQUIRE(again.value().p_value == r.value().p_value);  // seeded: deterministic
  auto same = randomization_test(VD{0.1, 0.5, 0.3}, VD{0.1, 0.5, 0.3}, 1000, 1);
  REQUIRE(same.value().p_value == 1.0);  // every permutation is as extreme as 0
}

TEST_CASE("bootstrap interval brackets the mean difference", "[unit]") {
  auto c = bootstrap_ci(VD{0.5, 0.7, 0.9}, VD{0.0, 0.2, 0.4}, 2000, 0.05, 3);
  REQUIRE(c.ok());
  REQUIRE(c.value().low == Approx(0.5).margin(1e-12));  // every difference is 0.5
  REQUIRE(c.value().high == Approx(0.5).margin(1e-12));
  auto v = bootstrap_ci(VD{1, 0, 1, 0, 1, 1, 0, 1}, VD{0, 0, 0, 0, 0, 0, 0, 0}, 5000, 0.1, 9);
  REQUIRE(v.value().mean_difference == Approx(5.0 / 8).margin(1e-12));
  REQUIRE(v.value().low < 5.0 / 8);
  REQUIRE(v.value().high > 5.0 / 8);
  REQUIRE(v.value().low >= 0.0);
  REQUIRE(v.value().high <= 1.0);
}

TEST_CASE("win tie loss and summaries", "[unit]") {
  auto w = win_tie_loss(VD{0.5, 0.2, 0.3, 0.9}, VD{0.4, 0.2, 0.35, 0.9});
  REQUIRE(w.value().wins == 1);
  REQUIRE(w.value().ties == 2);
  REQUIRE(w.value().losses == 1);
  // 1..10: p50 at position 4.5 -> 5.5; p90 at 8.1 -> 9.1; p95 at 8.55 -> 9.55
  auto s = summarize(VD{10, 9, 8, 7, 6, 5, 4, 3, 2, 1});
  REQUIRE(s.value().count == 10);
  REQUIRE(s.value().min == 1);
  REQUIRE(s.value().max == 10);
  REQUIRE(s.value().mean == Approx(5.5).margin(1e-12));
  REQUIRE(s.value().p50 == Approx(5.5).margin(1e-12));
  REQUIRE(s.value().p90 == Approx(9.1).margin(1e-12));
  REQUIRE(s.value().p95 == Approx(9.55).margin(1e-12));
  REQUIRE(summarize(VD{}).error().code == ErrorCode::kInvalidArgument);
}
