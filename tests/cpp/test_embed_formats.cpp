// The static model file across versions: the v1 fixture ("RWSTATIC", written by write_static_model
// from the formula vectors of tests/fixtures/formats/make_fixtures.cpp) loads and embeds as when saved.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "embed/static_embedder.h"
#include "format_fixtures.h"
#include "format_suite.h"

using namespace ragwasm::embed;
using ragwasm::ErrorCode;
using ragwasm::testing::fixture_expected;
using ragwasm::testing::read_fixture;

TEST_CASE("a static model saved by format v1 loads and embeds as when it was saved", "[unit]") {
  const std::string v1 = read_fixture("v1", "static-model.bin");
  auto model = StaticEmbedder::load(v1);
  REQUIRE(model.ok());
  REQUIRE(model.value().dims() == 8);
  REQUIRE(model.value().vocab_size() == 10);
  const auto expected = fixture_expected("v1");  // held: a range-for over a member of a temporary dangles
  for (const auto& e : expected["static_model"]) {
    const auto want = e["vector"].get<std::vector<float>>();
    const auto got = model.value().embed(e["text"].get<std::string>());
    INFO("text " << e["text"]);
    REQUIRE(got.size() == want.size());
    for (std::size_t i = 0; i < got.size(); ++i) CHECK(got[i] == Approx(want[i]).margin(1e-6));  // same float code; margin for flags
  }
}

TEST_CASE("a damaged v1 static model is refused", "[unit]") {
  const std::string v1 = read_fixture("v1", "static-model.bin");
  ragwasm::testing::expect_flips_corrupt(v1, 12, 3, 0x20, [](const std::string& b) -> ragwasm::Status {
    auto r = StaticEmbedder::load(b);
    if (!r.ok()) return r.error();
    return ragwasm::Status::success();
  });
  for (std::size_t n = 0; n < v1.size(); n += 5) REQUIRE(StaticEmbedder::load(v1.substr(0, n)).error().code == ErrorCode::kCorruptIndex);
}
