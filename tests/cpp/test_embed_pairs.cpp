// Tests for sequence-pair encoding in src/embed (cross-encoder inputs): the BERT pair template, token
// type ids, padding and Hugging Face tokenizers' 'longest_first' truncation. Expected lengths are the
// table of tokenizers' own truncate_encodings test (utils/truncation.rs, max_length 7 = budget);
// tests/js/embed/embed-pair-parity.test.mjs checks the ids against transformers.js on SciFact pairs.
#include <catch2/catch.hpp>

#include <string>
#include <utility>
#include <vector>

#include "embed/wordpiece.h"

using namespace ragwasm;
using namespace ragwasm::embed;

namespace {

const char* kTinyVocab = "[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\nun\n##aff\n##able\nhello\n,\nworld\n!\n";
constexpr std::int32_t kCls = 2, kSep = 3, kHello = 8, kWorld = 10;

WordPieceTokenizer tiny() {
  auto r = WordPieceTokenizer::from_vocab_txt(kTinyVocab);
  REQUIRE(r.ok());
  return std::move(r).value();
}

std::string words(const char* w, std::size_t n) {
  std::string s;
  for (std::size_t i = 0; i < n; ++i) s += std::string(i ? " " : "") + w;
  return s;
}

using Ids = std::vector<std::int32_t>;

}  // namespace

TEST_CASE("A pair is CLS A SEP B SEP with token type 1 on the second text", "[unit]") {
  const auto t = tiny();
  EncodeOptions o;
  auto r = t.encode_pair_batch({"hello"}, {"world !", "un"}, o);
  REQUIRE(r.ok());
  const BatchEncoding& b = r.value();
  CHECK(b.rows == 2);
  CHECK(b.cols == 6);
  CHECK(b.input_ids == Ids{kCls, kHello, kSep, kWorld, 11, kSep, /**/ kCls, kHello, kSep, 5, kSep, 0});
  CHECK(b.token_type_ids == Ids{0, 0, 0, 1, 1, 1, /**/ 0, 0, 0, 1, 1, 0});
  CHECK(b.attention_mask == Ids{1, 1, 1, 1, 1, 1, /**/ 1, 1, 1, 1, 1, 0});
  CHECK(b.lengths == std::vector<std::uint32_t>{6, 5});
  // Without special tokens: A B; padding 'none' concatenates rows.
  o.add_special_tokens = false;
  o.padding = Padding::kNone;
  auto n = t.encode_pair_batch({"hello", "world"}, {"world", ""}, o);
  REQUIRE(n.ok());
  CHECK(n.value().input_ids == Ids{kHello, kWorld, kWorld});
  CHECK(n.value().token_type_ids == Ids{0, 1, 0});
}

TEST_CASE("Longest first truncation matches the Hugging Face tokenizers table", "[unit]") {
  const auto t = tiny();
  EncodeOptions o;
  o.max_length = 7 + 3;  // budget 7 after [CLS] [SEP] [SEP]
  // {len A, len B, kept A, kept B}
  const std::vector<std::vector<std::size_t>> table = {
      {0, 0, 0, 0}, {0, 2, 0, 2}, {0, 4, 0, 4}, {0, 8, 0, 7}, {2, 0, 2, 0}, {2, 2, 2, 2}, {2, 4, 2, 4}, {2, 8, 2, 5},
      {4, 0, 4, 0}, {4, 2, 4, 2}, {4, 4, 3, 4}, {4, 8, 3, 4}, {8, 0, 7, 0}, {8, 2, 5, 2}, {8, 4, 4, 3}, {8, 8, 3, 4},
  };
  for (const auto& row : table) {
    INFO("lengths " << row[0] << " and " << row[1]);
    auto r = t.encode_pair_batch({words("hello", row[0])}, {words("world", row[1])}, o);
    REQUIRE(r.ok());
    Ids want{kCls};
    want.insert(want.end(), row[2], kHello);
    want.push_back(kSep);
    want.insert(want.end(), row[3], kWorld);
    want.push_back(kSep);
    CHECK(Ids(r.value().input_ids.begin(), r.value().input_ids.begin() + static_cast<std::ptrdiff_t>(want.size())) == want);
    CHECK(r.value().lengths[0] == want.size());
  }
}

TEST_CASE("Pair encoding rejects bad batches and too long pairs without truncation", "[unit]") {
  const auto t = tiny();
  EncodeOptions o;
  CHECK(t.encode_pair_batch({"a"}, {}, o).error().code == ErrorCode::kInvalidArgument);
  CHECK(t.encode_pair_batch({"a", "b"}, {"a", "b", "c"}, o).error().code == ErrorCode::kInvalidArgument);
  o.max_length = 2;
  CHECK(t.encode_pair_batch({"a"}, {"b"}, o).error().code == ErrorCode::kInvalidArgument);
  o.max_length = 3;
  auto empty = t.encode_pair_batch({"hello"}, {"world"}, o);
  REQUIRE(empty.ok());
  CHECK(empty.value().input_ids == Ids{kCls, kSep, kSep});
  o.max_length = 5;
  o.truncation = false;
  auto bad = t.encode_pair_batch({"hello hello"}, {"world"}, o);
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().code == ErrorCode::kLimitExceeded);
  o.padding = Padding::kMaxLength;
  auto fit = t.encode_pair_batch({"hello"}, {"world"}, o);
  REQUIRE(fit.ok());
  CHECK(fit.value().input_ids == Ids{kCls, kHello, kSep, kWorld, kSep});
}
