// The static model file across versions: the v1 fixture ("RWSTATIC", written by write_static_model
// from the formula vectors of tests/fixtures/formats/make_fixtures.cpp) loads and embeds as when saved.
#include <catch2/catch.hpp>

#include <cstring>
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

namespace {

ragwasm::Status load_status(const std::string& b) {
  auto r = StaticEmbedder::load(b);
  if (!r.ok()) return r.error();
  return ragwasm::Status::success();
}

// 4 words, 3 dims, with a principal component: every section non-empty.
StaticModelParts small_parts() {
  StaticModelParts p;
  p.dims = 3;
  p.sif_a = 0.01f;
  p.words = {"the", "tea", "green", "zürich"};
  p.probabilities = {0.4f, 0.1f, 0.05f, 0.01f};
  p.scales = {0.02f, 0.01f, 0.03f, 0.005f};
  p.principal = {0.6f, 0.8f, 0.0f};
  p.vectors = {10, -20, 30, 127, 0, -127, 5, 5, 5, -1, 2, -3};
  return p;
}

}  // namespace

TEST_CASE("the static model writer uses the one container at version 2", "[unit]") {
  const std::string b = write_static_model(small_parts());
  REQUIRE(b.substr(0, 8) == "RWSTATIC");
  REQUIRE(ragwasm::testing::u32_at(b, 8) == 2);
  REQUIRE(ragwasm::testing::sections_of(b).size() == 6);
  auto m = StaticEmbedder::load(b);
  REQUIRE(m.ok());
  CHECK(m.value().dims() == 3);
  CHECK(m.value().vocab_size() == 4);
  CHECK(m.value().find("zürich") == 3);
  CHECK(m.value().vector(0) == std::vector<float>{0.02f * 10, 0.02f * -20, 0.02f * 30});
}

TEST_CASE("the v2 static model passes the container corruption suite", "[fuzz]") {
  const std::size_t tried = ragwasm::testing::run_corruption_suite(write_static_model(small_parts()), 2, load_status);
  CHECK(tried > 500);
}

TEST_CASE("a v2 static model whose sections disagree with its header is refused", "[unit]") {
  const std::string good = write_static_model(small_parts());
  // header section: dims 3 -> 4, words 4 -> 5 (resealed: only the section length checks can catch it)
  const auto secs = ragwasm::testing::sections_of(good);
  for (std::size_t field : {std::size_t{0}, std::size_t{4}}) {
    std::string b = good;
    ragwasm::testing::put_u32_at(b, secs[0].payload + field, ragwasm::testing::u32_at(b, secs[0].payload + field) + 1);
    auto r = StaticEmbedder::load(ragwasm::testing::reseal(b));
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == ErrorCode::kCorruptIndex);
  }
  // a word probability of 2 (resealed) is a value check of the payload
  std::string b = good;
  const float two = 2.0f;
  std::memcpy(&b[secs[2].payload], &two, 4);
  auto r = StaticEmbedder::load(ragwasm::testing::reseal(b));
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().message.find("probability") != std::string::npos);
}

TEST_CASE("static model versions other than 1 and 2 are UNSUPPORTED_VERSION naming the versions read", "[unit]") {
  std::string b = write_static_model(small_parts());
  ragwasm::testing::put_u32_at(b, 8, 3);
  auto r = StaticEmbedder::load(ragwasm::testing::reseal(b));
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().code == ErrorCode::kUnsupportedVersion);
  CHECK(r.error().message.find("versions 1 to 2") != std::string::npos);
}
