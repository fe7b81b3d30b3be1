// Tests for the static embedder: format round trip, corruption and version checks, SIF arithmetic,
// and (when built) the default GloVe model from models/build-static-model.mjs.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "embed/static_embedder.h"
#include "shared_data.h"

using namespace ragwasm;
using namespace ragwasm::embed;

namespace {

// 3 words, 2 dims. Vectors: cat = 0.5*(2, 0) = (1, 0); dog = 0.25*(0, 4) = (0, 1); the = 1*(1, 1).
StaticModelParts tiny_parts(bool with_pc) {
  StaticModelParts p;
  p.dims = 2;
  p.sif_a = 0.5f;
  p.words = {"the", "cat", "dog"};
  p.probabilities = {0.5f, 0.25f, 0.25f};
  p.scales = {1.0f, 0.5f, 0.25f};
  p.principal = with_pc ? std::vector<float>{1.0f, 0.0f} : std::vector<float>{0.0f, 0.0f};
  p.vectors = {1, 1, 2, 0, 0, 4};
  return p;
}

}  // namespace

TEST_CASE("SIF weights the words and the vector is unit length", "[unit]") {
  auto r = StaticEmbedder::load(write_static_model(tiny_parts(false)));
  REQUIRE(r.ok());
  const StaticEmbedder& e = r.value();
  CHECK(e.dims() == 2);
  CHECK(e.vocab_size() == 3);
  // weights a/(a+p): the 0.5/(0.5+0.5) = 0.5; cat 0.5/0.75 = 2/3.
  // "The CAT!" = 0.5*(1,1) + 2/3*(1,0) = (7/6, 1/2); normalized by sqrt(49/36 + 1/4) = sqrt(58)/6.
  const std::vector<float> v = e.embed("The CAT!");
  CHECK(std::abs(v[0] - 7.0 / std::sqrt(58.0)) < 1e-6);  // float32 rounding
  CHECK(std::abs(v[1] - 3.0 / std::sqrt(58.0)) < 1e-6);
  // Unknown words are skipped; no known word gives zeros.
  CHECK(e.embed("zebra") == std::vector<float>{0.0f, 0.0f});
  CHECK(e.word_ids("the zebra dog cat", 2) == std::vector<std::int32_t>{0, 2});
}

TEST_CASE("The principal component is projected out", "[unit]") {
  auto r = StaticEmbedder::load(write_static_model(tiny_parts(true)));
  REQUIRE(r.ok());
  // (7/6, 1/2) minus its projection on (1, 0) = (0, 1/2) -> (0, 1).
  const std::vector<float> v = r.value().embed("the cat");
  CHECK(std::abs(v[0]) < 1e-7);
  CHECK(std::abs(v[1] - 1.0f) < 1e-7);
}

TEST_CASE("The word tokenizer lowercases and splits on punctuation", "[unit]") {
  auto r = StaticEmbedder::load(write_static_model(tiny_parts(false)));
  REQUIRE(r.ok());
  CHECK(r.value().words("Don't STOP-now, Zürich!") == std::vector<std::string>{"don", "t", "stop", "now", "zürich"});
}

TEST_CASE("Every corrupted byte of a static model is rejected", "[unit]") {
  const std::string good = write_static_model(tiny_parts(true));
  REQUIRE(StaticEmbedder::load(good).ok());
  for (std::size_t i = 0; i < good.size(); ++i) {
    std::string bad = good;
    bad[i] = static_cast<char>(bad[i] ^ 0x5A);
    auto r = StaticEmbedder::load(bad);
    INFO("byte " << i);
    REQUIRE_FALSE(r.ok());
    // Bytes 8-11 hold the version (2): any other value is UNSUPPORTED_VERSION (the container checks
    // the version before the seal); every other damaged byte is CORRUPT_INDEX.
    CHECK(r.error().code == ((i >= 8 && i < 12) ? ErrorCode::kUnsupportedVersion : ErrorCode::kCorruptIndex));
  }
  for (std::size_t n : {std::size_t{0}, std::size_t{7}, std::size_t{39}, good.size() - 1}) {
    CHECK(StaticEmbedder::load(good.substr(0, n)).error().code == ErrorCode::kCorruptIndex);
  }
}

TEST_CASE("A word list with CRLF line ends is CORRUPT_INDEX, not a model that matches no token", "[unit]") {
  StaticModelParts p = tiny_parts(true);
  p.words = {"the\r", "cat\r", "dog\r"};
  auto r = StaticEmbedder::load(write_static_model(p));
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().code == ErrorCode::kCorruptIndex);
  CHECK(r.error().message.find("word 0 holds a carriage return") != std::string::npos);
  p.words = {"the", "c\rat", "dog"};
  CHECK(StaticEmbedder::load(write_static_model(p)).error().code == ErrorCode::kCorruptIndex);
}

TEST_CASE("The built GloVe model loads and ranks related sentences higher", "[unit]") {
  const std::string path = std::string(RAGWASM_SOURCE_DIR) + "/models/build/static-model.bin";
  if (!ragwasm::testing::path_exists(path)) {
    std::printf("SKIPPED: needs %s (node models/build-static-model.mjs)\n", path.c_str());
    std::exit(4);
  }
  auto r = StaticEmbedder::load(ragwasm::testing::read_file(path));
  REQUIRE(r.ok());
  const StaticEmbedder& e = r.value();
  CHECK(e.dims() == 100);
  auto dot = [](const std::vector<float>& a, const std::vector<float>& b) {
    double s = 0;
    for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
    return s;
  };
  const auto a = e.embed("The cat sat on the mat.");
  const auto b = e.embed("A kitten slept on the rug.");
  const auto c = e.embed("Stock markets fell sharply after the interest rate decision.");
  CHECK(std::abs(dot(a, a) - 1.0) < 1e-5);
  CHECK(dot(a, b) > dot(a, c));
}

TEST_CASE("The checksum is FNV-1a 64 with the published test vectors", "[unit]") {
  // Test vectors from the FNV reference (Fowler, Noll, Vo; isthe.com/chongo/tech/comp/fnv).
  CHECK(fnv1a64("") == 0xcbf29ce484222325ull);
  CHECK(fnv1a64("a") == 0xaf63dc4c8601ec8cull);
  CHECK(fnv1a64("foobar") == 0x85944171f73967e8ull);
}

TEST_CASE("Word-id batches pad rows with mask 0 and check their limits", "[unit]") {
  auto r = StaticEmbedder::load(write_static_model(tiny_parts(false)));
  REQUIRE(r.ok());
  const StaticEmbedder& e = r.value();
  auto b = e.encode_word_ids({"the cat", "zebra", "dog the cat dog"}, 3, Padding::kLongest);
  REQUIRE(b.ok());
  const BatchEncoding& x = b.value();
  CHECK(x.rows == 3);
  CHECK(x.cols == 3);  // the longest row after the 3-token cut
  CHECK(x.input_ids == std::vector<std::int32_t>{0, 1, 0, 0, 0, 0, 2, 0, 1});
  CHECK(x.attention_mask == std::vector<std::int32_t>{1, 1, 0, 0, 0, 0, 1, 1, 1});
  CHECK(x.token_type_ids == std::vector<std::int32_t>(9, 0));
  CHECK(x.lengths == std::vector<std::uint32_t>{2, 0, 3});
  // max-length padding; a batch of texts without known words still has one column
  CHECK(e.encode_word_ids({"the"}, 5, Padding::kMaxLength).value().cols == 5);
  auto none = e.encode_word_ids({"zebra", "okapi"}, 8, Padding::kLongest);
  REQUIRE(none.ok());
  CHECK(none.value().cols == 1);
  CHECK(none.value().attention_mask == std::vector<std::int32_t>{0, 0});
  CHECK(e.encode_word_ids({}, 8, Padding::kLongest).error().code == ErrorCode::kInvalidArgument);
  CHECK(e.encode_word_ids({"the"}, 0, Padding::kLongest).error().message.find("maxLength") != std::string::npos);
  CHECK(e.encode_word_ids({"the"}, kMaxSequenceLength + 1, Padding::kLongest).error().code == ErrorCode::kInvalidArgument);
  const std::vector<std::string_view> many(kMaxBatchTokens / kMaxSequenceLength + 1, "the");
  CHECK(e.encode_word_ids(many, kMaxSequenceLength, Padding::kMaxLength).error().code == ErrorCode::kLimitExceeded);
}
