// src/common/ranking.h: the one ranking rule (score descending, then key ascending).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "common/ranking.h"

using ragwasm::ranks_before;

TEST_CASE("a higher score ranks first whatever the keys", "[unit]") {
  REQUIRE(ranks_before(2.0, std::string("z"), 1.0, std::string("a")));
  REQUIRE_FALSE(ranks_before(1.0, std::string("a"), 2.0, std::string("z")));
}

TEST_CASE("equal scores rank by key ascending and bytewise for strings", "[unit]") {
  REQUIRE(ranks_before(1.0, std::string("a"), 1.0, std::string("b")));
  REQUIRE_FALSE(ranks_before(1.0, std::string("b"), 1.0, std::string("a")));
  // bytewise: 'Z' (0x5A) < 'a' (0x61) and a UTF-8 lead byte (0xC3) sorts after ASCII
  REQUIRE(ranks_before(1.0, std::string("Z"), 1.0, std::string("a")));
  REQUIRE(ranks_before(1.0, std::string("z"), 1.0, std::string("\xC3\xA9")));
  REQUIRE(ranks_before(0.5f, std::uint32_t{3}, 0.5f, std::uint32_t{7}));
  // -0.0 == 0.0: the key decides
  REQUIRE(ranks_before(-0.0, 1, 0.0, 2));
  REQUIRE_FALSE(ranks_before(0.0, 2, -0.0, 1));
}

TEST_CASE("an item never ranks before itself", "[unit]") {
  REQUIRE_FALSE(ranks_before(1.0, std::string("a"), 1.0, std::string("a")));
}

TEST_CASE("composite keys rank lexicographically", "[unit]") {
  const std::string d1 = "doc1", d2 = "doc2";
  const int zero = 0, five = 5;
  REQUIRE(ranks_before(1.0, std::tie(d1, five), 1.0, std::tie(d2, zero)));
  REQUIRE(ranks_before(1.0, std::tie(d1, zero), 1.0, std::tie(d1, five)));
}

TEST_CASE("sorting by the rule gives the same list from any input order", "[prop]") {
  struct Item {
    double score;
    int key;
  };
  std::vector<Item> items;
  for (int i = 0; i < 200; ++i) items.push_back({static_cast<double>(i % 7), i});  // many ties
  auto by_rule = [](const Item& a, const Item& b) { return ranks_before(a.score, a.key, b.score, b.key); };
  std::vector<Item> expected = items;
  std::sort(expected.begin(), expected.end(), by_rule);
  for (std::size_t i = 1; i < expected.size(); ++i) {
    const bool ordered = expected[i - 1].score > expected[i].score ||
                         (expected[i - 1].score == expected[i].score && expected[i - 1].key < expected[i].key);
    REQUIRE(ordered);
  }
  std::mt19937 rng(20261125);  // seed fixed
  for (int round = 0; round < 20; ++round) {
    std::shuffle(items.begin(), items.end(), rng);
    std::vector<Item> got = items;
    std::sort(got.begin(), got.end(), by_rule);
    for (std::size_t i = 0; i < got.size(); ++i) REQUIRE(got[i].key == expected[i].key);
  }
}
