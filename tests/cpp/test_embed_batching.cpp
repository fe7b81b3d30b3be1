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
