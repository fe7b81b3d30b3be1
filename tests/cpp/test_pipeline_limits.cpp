// Issue #19 (C++ side): deep JSON is refused before parsing at every JSON entry point, super-linear
// metrics are bounded, and parsers say what they skipped. Each refused call is followed by a good
// call showing nothing was lost. Linked through ragwasm_pipeline, which depends on every module.
#include <catch2/catch.hpp>

#include <string>

#include "chunk/chunk.h"
#include "common/json_depth.h"
#include "common/limits.h"
#include "context/assembly.h"
#include "embed/wordpiece.h"
#include "fusion/fusion_json.h"
#include "judge/reply_parser.h"
#include "metrics/answer.h"
#include "metrics/trec.h"
#include "pipeline/config.h"
#include "sparse/options_json.h"

using namespace ragwasm;

namespace {

// {"a":{"a":...1...}} nested `levels` deep.
std::string deep_object(std::size_t levels) {
  std::string s;
  for (std::size_t i = 0; i < levels; ++i) s += "{\"a\":";
  s += "1";
  s.append(levels, '}');
  return s;
}
std::string deep_array(std::size_t levels) { return std::string(levels, '[') + std::string(levels, ']'); }

const char* kTinyTokenizerJson =
    R"({"model":{"type":"WordPiece","unk_token":"[UNK]","vocab":{"[PAD]":0,"[UNK]":1,"[CLS]":2,"[SEP]":3,"hello":4}},)"
    R"("normalizer":null,"pre_tokenizer":{"type":"BertPreTokenizer"},"post_processor":null})";

}  // namespace

TEST_CASE("#19 the depth pre-scan counts brackets outside strings only", "[unit]") {
  CHECK(json_depth_overflow_at(deep_array(256)) == std::string_view::npos);
  CHECK(json_depth_overflow_at(deep_array(257)) == 256);  // byte of the 257th '['
  CHECK(json_depth_overflow_at(deep_object(257)) == 5 * 256);
  // Brackets inside strings (escaped quotes included) do not count.
  const std::string in_string = "[\"" + std::string(1000, '[') + "\\\"" + std::string(1000, '{') + "\"]";
  CHECK(json_depth_overflow_at(in_string) == std::string_view::npos);
  // An escaped backslash ends before the quote, which then closes the string: the outer '[' is
  // level 1, so level 257 is the 256th bracket of the deep array that starts at byte 5.
  CHECK(json_depth_overflow_at("[\"\\\\\"" + deep_array(300) + "]") == 5 + 255);
  CHECK(json_depth_overflow_at("{}{}[][]", 1) == std::string_view::npos);  // siblings do not add up
  CHECK(json_depth_overflow_at("]]]][[", 1) == 5);                        // stray closers never go below 0
  const Status s = check_json_depth(deep_array(300), "config");
  REQUIRE_FALSE(s.ok());
  CHECK(s.error().code == ErrorCode::kLimitExceeded);
  CHECK(s.error().message == "ragwasm: config: JSON nested deeper than 256 levels (level 257 opens at byte 256); the limit is 256");
}

TEST_CASE("#19 a 20000-deep tokenizer.json is refused 16 times and a good one still loads", "[unit]") {
  const std::string deep = "{\"model\":" + deep_object(20000) + "}";
  for (int i = 0; i < 16; ++i) {
    auto r = embed::WordPieceTokenizer::from_tokenizer_json(deep);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == ErrorCode::kLimitExceeded);
  }
  auto good = embed::WordPieceTokenizer::from_tokenizer_json(kTinyTokenizerJson);
  REQUIRE(good.ok());
  CHECK(good.value().token_to_id("hello") == 4);
}

TEST_CASE("#19 deep JSON is refused by every JSON entry point before parsing", "[unit]") {
  const std::string deep = deep_array(20000);
  const std::string deep_in_object = "{\"x\":" + deep + "}";
  CHECK(pipeline::parse_config(deep_in_object).error().code == ErrorCode::kLimitExceeded);
  CHECK(chunk::parse_options(deep_in_object).error().code == ErrorCode::kLimitExceeded);
  CHECK(sparse::parse_index_options(deep_in_object).error().code == ErrorCode::kLimitExceeded);
  CHECK(sparse::parse_search_options(deep_in_object).error().code == ErrorCode::kLimitExceeded);
  CHECK(sparse::parse_metadata(deep, 1).error().code == ErrorCode::kLimitExceeded);
  CHECK(fusion::fuse_json(deep_in_object).error().code == ErrorCode::kLimitExceeded);
  CHECK(fusion::tune_json(deep_in_object).error().code == ErrorCode::kLimitExceeded);
  CHECK(fusion::aggregate_json(deep_in_object).error().code == ErrorCode::kLimitExceeded);
  CHECK(context::assemble_json(deep_in_object).error().code == ErrorCode::kLimitExceeded);
  auto run = metrics::parse_jsonl_run("{\"qid\":\"q1\",\"hits\":" + deep + "}\n", "run.jsonl");
  REQUIRE_FALSE(run.ok());
  CHECK(run.error().code == ErrorCode::kLimitExceeded);
  CHECK(run.error().message.find("run.jsonl:1") != std::string::npos);
  // A judge reply's too-deep JSON candidate is skipped; the plain-text score after it is read.
  auto score = judge::parse_score("{\"score\":" + deep + "} Score: 2", judge::ScoreOptions{});
  REQUIRE(score.ok());
  CHECK(score.value().value == 2);
  // Nothing was lost: the same entry points accept ordinary input afterwards.
  CHECK(chunk::parse_options(R"({"strategy":"fixed","chunkSize":10,"chunkOverlap":2})").ok());
  CHECK(sparse::parse_index_options("{}").ok());
  CHECK(metrics::parse_jsonl_run("{\"qid\":\"q1\",\"hits\":[{\"docid\":\"d1\",\"score\":1}]}\n", "run.jsonl").ok());
}
