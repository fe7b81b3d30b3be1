// Tests for src/embed WordPiece tokenizer and pooling. Expected ids are from bert-base-uncased
// (../shared/models/bert-base-uncased), cross-checked with transformers.js in tests/js/embed-tokenizer-parity.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "embed/pooling.h"
#include "embed/wordpiece.h"
#include "shared_data.h"

using namespace ragwasm;
using namespace ragwasm::embed;

namespace {

// A tiny vocabulary: ids are line numbers.
const char* kTinyVocab =
    "[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\nun\n##aff\n##able\nhello\n,\nworld\n!\ncafe\n##s\n中\nσ\nς\n";

WordPieceTokenizer tiny() {
  auto r = WordPieceTokenizer::from_vocab_txt(kTinyVocab);
  REQUIRE(r.ok());
  return std::move(r).value();
}

using Ids = std::vector<std::int32_t>;

}  // namespace

TEST_CASE("Greedy longest match splits a word into continuation pieces", "[unit]") {
  const auto t = tiny();
  CHECK(t.tokenize("unaffable") == Ids{5, 6, 7});
  CHECK(t.tokenize("Hello, World!") == Ids{8, 9, 10, 11});
  // "unaffablex": no piece matches the trailing x, so the whole word is [UNK] (not partial pieces).
  CHECK(t.tokenize("unaffablex hello") == Ids{1, 8});
}

TEST_CASE("The normalizer lowercases strips accents and spaces CJK ideographs", "[unit]") {
  const auto t = tiny();
  CHECK(t.normalize("Café") == "cafe");
  CHECK(t.normalize("CAFÉS") == "cafes");
  CHECK(t.tokenize("CAFÉS") == Ids{12, 13});
  CHECK(t.normalize("a中b") == "a 中 b");
  CHECK(t.tokenize("中中") == Ids{14, 14});
  // Control characters are dropped, \t \n \r become spaces, U+FFFD is dropped.
  CHECK(t.normalize("a\x01" "b\tc\xEF\xBF\xBD") == "ab c");
  // Final sigma: word-final capital sigma lowercases to ς, otherwise σ (String.prototype.toLowerCase).
  CHECK(t.normalize("ΣΑΣ") == "σας");
  // ß and æ have no canonical decomposition: kept as they are.
  CHECK(t.normalize("Straße Æ") == "straße æ");
}

TEST_CASE("Punctuation is split into single-character words", "[unit]") {
  const auto t = tiny();
  CHECK(t.pre_tokenize("a,b ... c¿d") == std::vector<std::string>{"a", ",", "b", ".", ".", ".", "c", "¿", "d"});
  CHECK(t.pre_tokenize("  ") == std::vector<std::string>{});
}

TEST_CASE("Words longer than max_input_chars_per_word become UNK", "[unit]") {
  WordPieceConfig c;
  c.max_input_chars_per_word = 5;
  auto r = WordPieceTokenizer::from_vocab_txt(kTinyVocab, c);
  REQUIRE(r.ok());
  CHECK(r.value().tokenize("hello unaffable") == Ids{8, 1});
}

TEST_CASE("Special tokens in the text are matched literally", "[unit]") {
  const auto t = tiny();
  CHECK(t.tokenize("hello[MASK]world") == Ids{8, 4, 10});
  CHECK(t.tokenize("[mask]") == Ids{1 /* "[" unknown */, 1 /* mask unknown */, 1});
}

TEST_CASE("Encode adds CLS and SEP and truncates keeping SEP", "[unit]") {
  const auto t = tiny();
  EncodeOptions o;
  o.max_length = 4;
  auto r = t.encode("hello , world !", o);
  REQUIRE(r.ok());
  CHECK(r.value() == Ids{2, 8, 9, 3});
  o.truncation = false;
  auto bad = t.encode("hello , world !", o);
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().code == ErrorCode::kLimitExceeded);
  o.max_length = 1;
  CHECK(t.encode("x", o).error().code == ErrorCode::kInvalidArgument);
}

TEST_CASE("Batch encoding pads to the longest row with attention mask", "[unit]") {
  const auto t = tiny();
  EncodeOptions o;
  auto r = t.encode_batch({"hello world", "hello", ""}, o);
  REQUIRE(r.ok());
  const BatchEncoding& b = r.value();
  CHECK(b.rows == 3);
  CHECK(b.cols == 4);
  CHECK(b.input_ids == Ids{2, 8, 10, 3, /**/ 2, 8, 3, 0, /**/ 2, 3, 0, 0});
  CHECK(b.attention_mask == Ids{1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 0, 0});
  CHECK(b.token_type_ids == Ids(12, 0));
  CHECK(b.lengths == std::vector<std::uint32_t>{4, 3, 2});
  o.padding = Padding::kMaxLength;
  o.max_length = 6;
  auto m = t.encode_batch({"hello"}, o);
  REQUIRE(m.ok());
  CHECK(m.value().input_ids == Ids{2, 8, 3, 0, 0, 0});
  CHECK(t.encode_batch({}, o).error().code == ErrorCode::kInvalidArgument);
}

TEST_CASE("Bad vocabularies and tokenizer files are rejected", "[unit]") {
  CHECK(WordPieceTokenizer::from_vocab_txt("").error().code == ErrorCode::kInvalidArgument);
  CHECK(WordPieceTokenizer::from_vocab_txt("a\nb\n").error().code == ErrorCode::kInvalidArgument);  // no [UNK]
  CHECK(WordPieceTokenizer::from_tokenizer_json("{not json").error().code == ErrorCode::kParseError);
  CHECK(WordPieceTokenizer::from_tokenizer_json(R"({"model":{"type":"BPE"}})").error().code == ErrorCode::kInvalidArgument);
  CHECK(WordPieceTokenizer::from_tokenizer_json("[]").error().code == ErrorCode::kInvalidArgument);
}

TEST_CASE("Mean pooling averages masked tokens and normalizes", "[unit]") {
  // 1 row, 3 tokens (last one padding), dim 2: mean of (1,0) and (3,4) = (2,2); normalized (1/sqrt2, 1/sqrt2).
  const std::vector<float> h = {1, 0, 3, 4, 100, 100};
  const std::vector<std::int32_t> mask = {1, 1, 0};
  auto r = pool(h.data(), h.size(), mask.data(), mask.size(), 1, 3, 2, Pooling::kMean, false);
  REQUIRE(r.ok());
  CHECK(r.value() == std::vector<float>{2, 2});
  auto n = pool(h.data(), h.size(), mask.data(), mask.size(), 1, 3, 2, Pooling::kMean, true);
  REQUIRE(n.ok());
  CHECK(std::abs(n.value()[0] - 0.70710678f) < 1e-6f);  // float32 rounding only
  auto c = pool(h.data(), h.size(), mask.data(), mask.size(), 1, 3, 2, Pooling::kCls, false);
  REQUIRE(c.ok());
  CHECK(c.value() == std::vector<float>{1, 0});
  CHECK(pool(h.data(), 5, mask.data(), mask.size(), 1, 3, 2, Pooling::kMean, false).error().code == ErrorCode::kInvalidArgument);
  // tokens x dim = 2^64 wraps size_t to 0: an empty tensor must not pass as a 1 x 2^32 x 2^32 one
  const std::size_t big = std::size_t{1} << (sizeof(std::size_t) * 4);
  CHECK(pool(h.data(), 0, mask.data(), 0, 1, big, big, Pooling::kCls, false).error().code == ErrorCode::kInvalidArgument);
  CHECK(pool(h.data(), 0, mask.data(), 0, big, big, 1, Pooling::kMean, false).error().code == ErrorCode::kInvalidArgument);
  CHECK(parse_pooling("max").error().code == ErrorCode::kInvalidArgument);
}

TEST_CASE("bert-base-uncased vocab.txt and tokenizer.json give the same ids", "[unit]") {
  const std::string dir = ragwasm::testing::require_shared("models/bert-base-uncased/vocab.txt");
  const std::string base = dir.substr(0, dir.size() - std::string("vocab.txt").size());
  auto a = WordPieceTokenizer::from_vocab_txt(ragwasm::testing::read_file(base + "vocab.txt"));
  auto b = WordPieceTokenizer::from_tokenizer_json(ragwasm::testing::read_file(base + "tokenizer.json"));
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  CHECK(a.value().vocab_size() == 30522);
  // Ids checked against transformers.js 4.3.1: [CLS] hello , world ! [SEP]
  const Ids expected = {101, 7592, 1010, 2088, 999, 102};
  EncodeOptions o;
  CHECK(a.value().encode("Hello, world!", o).value() == expected);
  CHECK(b.value().encode("Hello, world!", o).value() == expected);
  const char* text = "Naïve café owners in Zürich saw 3.5% growth (p<0.05) — 東京 résumé [MASK]";
  CHECK(a.value().tokenize(text) == b.value().tokenize(text));
}
