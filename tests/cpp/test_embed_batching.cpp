// Tests for src/embed/batching: length-bucketed batch plans for the ONNX embedder.
#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <vector>

#include "embed/batching.h"

using namespace ragwasm;
using namespace ragwasm::embed;

using U32 = std::vector<std::uint32_t>;

TEST_CASE("Texts are ordered by token length with ties by input position", "[unit]") {
  const U32 lengths{7, 3, 7, 1, 3};
  auto r = plan_length_batches(lengths.data(), lengths.size(), 2);
  REQUIRE(r.ok());
  CHECK(r.value().order == U32{3, 1, 4, 0, 2});
  CHECK(r.value().starts == U32{0, 2, 4, 5});
}

TEST_CASE("A plan is a permutation cut into full batches and one remainder", "[prop]") {
  const unsigned seed = 18;
  std::mt19937 rng(seed);
  for (int round = 0; round < 50; ++round) {
    INFO("seed " << seed << " round " << round);
    const std::size_t n = rng() % 300;
    const std::size_t batch = 1 + rng() % 40;
    U32 lengths(n);
    for (auto& l : lengths) l = rng() % 64;
    auto r = plan_length_batches(lengths.data(), n, batch);
    REQUIRE(r.ok());
    const auto& p = r.value();
    REQUIRE(p.order.size() == n);
    std::vector<bool> seen(n, false);
    for (auto i : p.order) {
      REQUIRE(i < n);
      REQUIRE_FALSE(seen[i]);
      seen[i] = true;
    }
    for (std::size_t k = 1; k < n; ++k) {
      const auto a = p.order[k - 1];
      const auto b = p.order[k];
      REQUIRE((lengths[a] < lengths[b] || (lengths[a] == lengths[b] && a < b)));
    }
    REQUIRE(p.starts.front() == 0);
    REQUIRE(p.starts.back() == n);
    for (std::size_t b = 1; b + 1 < p.starts.size(); ++b) REQUIRE(p.starts[b] - p.starts[b - 1] == batch);
    if (n > 0) REQUIRE(p.starts.back() - p.starts[p.starts.size() - 2] <= batch);
  }
}

TEST_CASE("An empty input plans no batch and a zero batch size is refused", "[unit]") {
  auto empty = plan_length_batches(nullptr, 0, 4);
  REQUIRE(empty.ok());
  CHECK(empty.value().order.empty());
  CHECK(empty.value().starts == U32{0});
  const U32 lengths{1, 2};
  auto zero = plan_length_batches(lengths.data(), lengths.size(), 0);
  REQUIRE_FALSE(zero.ok());
  CHECK(zero.error().code == ErrorCode::kInvalidArgument);
}

TEST_CASE("A token budget cuts batches by rows times the longest length", "[unit]") {
  // Sorted lengths 2 2 3 3 5 9 20; budget 8 padded tokens, at most 3 rows.
  const U32 lengths{9, 2, 3, 20, 2, 5, 3};
  auto r = plan_length_batches(lengths.data(), lengths.size(), 3, 8);
  REQUIRE(r.ok());
  CHECK(r.value().order == U32{1, 4, 2, 6, 5, 0, 3});
  // {2 2} (a third row of length 3 would pad to 9 > 8), {3 3}, {5}, {9} and {20} alone (over the budget).
  CHECK(r.value().starts == U32{0, 2, 4, 5, 6, 7});
  auto capped = plan_length_batches(lengths.data(), lengths.size(), 1, 1000);
  REQUIRE(capped.ok());
  CHECK(capped.value().starts == U32{0, 1, 2, 3, 4, 5, 6, 7});
}

TEST_CASE("Token budget plans cover every text once within both bounds and are deterministic", "[prop]") {
  const unsigned seed = 1818;
  std::mt19937 rng(seed);
  for (int round = 0; round < 100; ++round) {
    INFO("seed " << seed << " round " << round);
    const std::size_t n = rng() % 400;
    const std::size_t batch = 1 + rng() % 200;
    const std::size_t budget = 1 + rng() % 4096;
    U32 lengths(n);
    for (auto& l : lengths) l = rng() % 256;
    auto r = plan_length_batches(lengths.data(), n, batch, budget);
    REQUIRE(r.ok());
    const auto& p = r.value();
    // The order does not depend on the budget.
    auto plain = plan_length_batches(lengths.data(), n, batch);
    REQUIRE(plain.ok());
    REQUIRE(p.order == plain.value().order);
    std::vector<bool> seen(n, false);
    for (auto i : p.order) {
      REQUIRE(i < n);
      REQUIRE_FALSE(seen[i]);
      seen[i] = true;
    }
    REQUIRE(p.starts.front() == 0);
    REQUIRE(p.starts.back() == n);
    for (std::size_t b = 0; b + 1 < p.starts.size(); ++b) {
      const std::size_t rows = p.starts[b + 1] - p.starts[b];
      REQUIRE(rows >= 1);
      REQUIRE(rows <= batch);
      const std::uint32_t longest = lengths[p.order[p.starts[b + 1] - 1]];
      if (rows > 1) REQUIRE(static_cast<std::uint64_t>(rows) * longest <= budget);
      // Greedy: the next text did not fit (row cap or budget), so the cut was needed.
      if (p.starts[b + 1] < n) {
        const std::uint64_t with_next = static_cast<std::uint64_t>(rows + 1) * lengths[p.order[p.starts[b + 1]]];
        REQUIRE((rows == batch || with_next > budget));
      }
    }
    auto again = plan_length_batches(lengths.data(), n, batch, budget);
    REQUIRE(again.ok());
    REQUIRE(again.value().starts == p.starts);
    REQUIRE(again.value().order == p.order);
  }
}
