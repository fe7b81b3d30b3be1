// src/embed: WordNeighbours, exact cosine nearest words over a model's int8 vectors.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "embed/word_neighbours.h"

using namespace ragwasm;
using namespace ragwasm::embed;

namespace {

// 6 words, 2 dims (int8 vectors; the scales differ but cancel in the cosine):
// a (3, 4), b (4, 3), c (-3, 4), zero (0, 0), e (6, 8) = 2a, f (4, 3) = b.
std::string tiny_model() {
  StaticModelParts p;
  p.dims = 2;
  p.sif_a = 0.001f;
  p.words = {"a", "b", "c", "zero", "e", "f"};
  p.probabilities = {0.2f, 0.2f, 0.2f, 0.1f, 0.2f, 0.1f};
  p.scales = {0.1f, 0.5f, 1.0f, 1.0f, 0.25f, 2.0f};
  p.principal = {0.0f, 0.0f};
  p.vectors = {3, 4, 4, 3, -3, 4, 0, 0, 6, 8, 4, 3};
  return write_static_model(p);
}

}  // namespace

TEST_CASE("Similar words are ranked by exact cosine then by rank", "[unit]") {
  auto r = WordNeighbours::load(tiny_model(), 0);
  REQUIRE(r.ok());
  const WordNeighbours& n = r.value();
  CHECK(n.size() == 6);
  // cos(a, e) = 50 / sqrt(25 * 100) = 1; cos(a, b) = cos(a, f) = 24 / 25; cos(a, c) = 7 / 25.
  const auto s = n.similar("a", 0.0, 10);
  REQUIRE(s.size() == 4);  // the word itself and the all-zero vector are nobody's neighbour
  CHECK(n.word(s[0].id) == "e");
  CHECK(s[0].similarity == 1.0);
  CHECK(n.word(s[1].id) == "b");  // b and f tie at 24/25: b has the lower rank
  CHECK(s[1].similarity == 24.0 / 25.0);
  CHECK(n.word(s[2].id) == "f");
  CHECK(s[2].similarity == 24.0 / 25.0);
  CHECK(n.word(s[3].id) == "c");
  CHECK(s[3].similarity == 7.0 / 25.0);
  CHECK(n.similarity(0, 2) == 7.0 / 25.0);
}

TEST_CASE("The floor the limit and max_words cut the neighbours", "[unit]") {
  auto r = WordNeighbours::load(tiny_model(), 0);
  REQUIRE(r.ok());
  CHECK(r.value().similar("a", 0.5, 10).size() == 3);
  CHECK(r.value().similar("a", 0.5, 2).size() == 2);
  CHECK(r.value().similar("unknown", 0.0, 10).empty());
  CHECK(r.value().similar("zero", 0.0, 10).empty());
  auto first3 = WordNeighbours::load(tiny_model(), 3);
  REQUIRE(first3.ok());
  CHECK(first3.value().size() == 3);
  CHECK(first3.value().find("e") == -1);
  const auto s = first3.value().similar("a", 0.0, 10);
  REQUIRE(s.size() == 2);
  CHECK(first3.value().word(s[0].id) == "b");
}

TEST_CASE("Loading damaged bytes fails with CORRUPT_INDEX", "[unit]") {
  std::string bytes = tiny_model();
  bytes[bytes.size() / 2] ^= 0x5a;
  auto r = WordNeighbours::load(bytes, 0);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().code == ErrorCode::kCorruptIndex);
}
