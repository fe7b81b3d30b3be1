// Judge reply parsers: the fixture corpus tests/fixtures/judge-replies/*.jsonl (realistic replies,
// including failure shapes), plus edge cases and self-consistency aggregation.
#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "judge/reply_parser.h"

using namespace ragwasm;
using namespace ragwasm::judge;
using nlohmann::json;

namespace {

std::vector<json> read_jsonl(const std::string& name) {
  std::ifstream f(std::string(RAGWASM_SOURCE_DIR) + "/tests/fixtures/judge-replies/" + name);
  REQUIRE(f.good());
  std::vector<json> out;
  std::string line;
  while (std::getline(f, line)) {
    if (!line.empty()) out.push_back(json::parse(line));
  }
  return out;
}

ScoreOptions options_for(const json& c) {
  ScoreOptions o;
  o.kind = c["kind"] == "percent" ? ScaleKind::kPercent : ScaleKind::kRating;
  o.min = c.value("min", 0.0);
  o.max = c.value("max", 3.0);
  return o;
}

}  // namespace

TEST_CASE("Every reply in the score fixture corpus parses to its expected value or fails", "[unit]") {
  const auto cases = read_jsonl("scores.jsonl");
  REQUIRE(cases.size() >= 30);
  std::size_t failures_expected = 0;
  for (const auto& c : cases) {
    INFO("fixture " << c["id"].get<std::string>() << ": " << c["reply"].get<std::string>());
    auto r = parse_score(c["reply"].get<std::string>(), options_for(c));
    if (c["expect"].is_string()) {
      ++failures_expected;
      REQUIRE_FALSE(r.ok());
      CHECK(r.error().code == ErrorCode::kParseError);
      CHECK(r.error().message.rfind("ragwasm: reply:", 0) == 0);
    } else {
      REQUIRE(r.ok());
      CHECK(r.value().value == Approx(c["expect"].get<double>()).margin(1e-9));  // exact scale values
      if (c.contains("method")) CHECK(std::string(score_method_name(r.value().method)) == c["method"].get<std::string>());
    }
  }
  CHECK(failures_expected >= 10);  // the corpus must keep its failure shapes
}

TEST_CASE("The last of several different labelled scores wins and is flagged ambiguous", "[unit]") {
  auto r = parse_score("Rating: 1. Hmm, no. Rating: 3");
  REQUIRE(r.ok());
  CHECK(r.value().value == 3);
  CHECK(r.value().ambiguous);
  auto same = parse_score("Rating: 2 ... so Rating: 2");
  REQUIRE(same.ok());
  CHECK_FALSE(same.value().ambiguous);
}

TEST_CASE("JSON beats a labelled score elsewhere in the reply", "[unit]") {
  auto r = parse_score("Score: 1 seemed right at first.\n{\"score\": 2}");
  REQUIRE(r.ok());
  CHECK(r.value().value == 2);
  CHECK(r.value().method == ScoreMethod::kJson);
}

TEST_CASE("Integer-only rubrics reject fractional ratings", "[unit]") {
  ScoreOptions o;
  o.integer_only = true;
  CHECK_FALSE(parse_score("Rating: 2.5", o).ok());
  o.integer_only = false;
  auto r = parse_score("Rating: 2.5", o);
  REQUIRE(r.ok());
  CHECK(r.value().value == 2.5);
}

TEST_CASE("Custom scales and labels are honoured", "[unit]") {
  ScoreOptions o;
  o.min = 1;
  o.max = 5;
  o.labels = {"Stars"};
  auto r = parse_score("stars: 4/5", o);
  REQUIRE(r.ok());
  CHECK(r.value().value == 4);
  CHECK_FALSE(parse_score("stars: 0", o).ok());     // below min 1
  CHECK_FALSE(parse_score("Rating: 4", o).ok());    // "rating" is not a label here; no bare number
}

TEST_CASE("Bad options and oversized replies are reported with codes", "[unit]") {
  ScoreOptions bad;
  bad.min = 3;
  bad.max = 0;
  auto r = parse_score("Rating: 1", bad);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().code == ErrorCode::kInvalidArgument);
  ScoreOptions empty_label;
  empty_label.labels = {" "};
  CHECK(parse_score("Rating: 1", empty_label).error().code == ErrorCode::kInvalidArgument);
  std::string huge(kMaxReplyBytes + 1, 'x');
  CHECK(parse_score(huge).error().code == ErrorCode::kLimitExceeded);
  // The parser keeps no state: a good reply after the errors still parses.
  CHECK(parse_score("Rating: 1").value().value == 1);
}

TEST_CASE("Claim replies in the fixture corpus give per-claim scores and report missing ones", "[unit]") {
  const auto cases = read_jsonl("claims.jsonl");
  REQUIRE(cases.size() >= 6);
  for (const auto& c : cases) {
    INFO("fixture " << c["id"].get<std::string>());
    auto r = parse_claim_scores(c["reply"].get<std::string>(), c["n_claims"].get<int>());
    REQUIRE(r.ok());
    const auto& got = r.value();
    const auto& expect = c["expect"];
    REQUIRE(got.size() == expect.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
      INFO("claim " << i + 1 << " error: " << got[i].error);
      CHECK(got[i].claim == static_cast<int>(i + 1));
      if (expect[i].is_null()) {
        CHECK_FALSE(got[i].score.has_value());
        CHECK_FALSE(got[i].error.empty());
      } else {
        REQUIRE(got[i].score.has_value());
        CHECK(*got[i].score == expect[i].get<double>());
        CHECK(got[i].error.empty());
      }
      if (c.contains("evidence")) CHECK(got[i].evidence == c["evidence"][i].get<std::string>());
    }
  }
}

TEST_CASE("Claim parsing rejects a claim count outside its range", "[unit]") {
  CHECK(parse_claim_scores("[1] Score: 1", 0).error().code == ErrorCode::kInvalidArgument);
  CHECK(parse_claim_scores("[1] Score: 1", 1001).error().code == ErrorCode::kInvalidArgument);
  CHECK(parse_claim_scores("[1] Score: 1", 1).value()[0].score.value() == 1);
}

TEST_CASE("Key value lines are read from a metadata reply", "[unit]") {
  auto r = parse_key_values(
      "Here is the metadata:\n- **Company:** Acme Corp\n- Date: 2023-03-31\nForm type: 10-Q\n"
      "company: Other Inc\nno colon here\nEmpty:\n  Key figures: revenue $4.1B; margin 12%\n");
  REQUIRE(r.ok());
  const auto& kv = r.value();
  // "Here is the metadata:" and "Empty:" have no value; the second "company" keeps the first value.
  REQUIRE(kv.size() == 4);
  CHECK(kv[0] == std::make_pair(std::string("company"), std::string("Acme Corp")));
  CHECK(kv[1] == std::make_pair(std::string("date"), std::string("2023-03-31")));
  CHECK(kv[2] == std::make_pair(std::string("form type"), std::string("10-Q")));
  CHECK(kv[3] == std::make_pair(std::string("key figures"), std::string("revenue $4.1B; margin 12%")));
}

TEST_CASE("Abstentions are recognised and ordinary answers are not", "[unit]") {
  CHECK(is_abstention("The documents do not answer this question."));
  CHECK(is_abstention("This is not in the documents."));
  CHECK(is_abstention("I don\xE2\x80\x99t know based on the provided context."));
  CHECK(is_abstention("The answer cannot be determined from the context."));
  CHECK_FALSE(is_abstention("The trial enrolled 300 patients [1]."));
  CHECK_FALSE(is_abstention("The drug does not provide protection against influenza B [2]."));
}

TEST_CASE("Self-consistency aggregation reports mean majority spread and unparsed samples", "[unit]") {
  // samples 2, 3, 2, unparsed, 1
  std::vector<std::optional<double>> s = {2.0, 3.0, 2.0, std::nullopt, 1.0};
  Aggregate mean = aggregate(s, AggregateMethod::kMean);
  CHECK(mean.samples == 5);
  CHECK(mean.parsed == 4);
  CHECK(mean.unparsed == 1);
  REQUIRE(mean.value.has_value());
  CHECK(*mean.value == Approx((2.0 + 3.0 + 2.0 + 1.0) / 4.0).epsilon(1e-12));
  CHECK(mean.spread == 2.0);  // 3 - 1
  // population variance: ((0)^2 + 1^2 + 0^2 + (-1)^2) / 4 = 0.5
  CHECK(mean.stddev == Approx(std::sqrt(0.5)).epsilon(1e-12));
  Aggregate maj = aggregate(s, AggregateMethod::kMajority);
  CHECK(*maj.value == 2.0);
  CHECK(maj.agreement == Approx(2.0 / 4.0).epsilon(1e-12));
  // A tie (1, 3) goes to the smaller value.
  CHECK(*aggregate({3.0, 1.0}, AggregateMethod::kMajority).value == 1.0);
  // Nothing parsed: no value at all (never NaN, never 0).
  Aggregate none = aggregate({std::nullopt, std::nullopt}, AggregateMethod::kMean);
  CHECK_FALSE(none.value.has_value());
  CHECK(none.unparsed == 2);
}

TEST_CASE("#19 scores with exponents or a zero denominator are refused not read as leading digits", "[unit]") {
  for (const char* reply : {"3e2", "Score: 3e2", "1e309", "Rating: 1E309", ".5e1", "Score: .5e1", "3/0", "Score: 3/0",
                            "Final score: 2e-1", "{\"score\": \"3e2\"}"}) {
    INFO(reply);
    auto r = parse_score(reply);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == ErrorCode::kParseError);
  }
  auto e = parse_score("Score: 3e2");
  CHECK(e.error().message == "ragwasm: reply: '3e2' is not a plain decimal score (exponents are not accepted)");
  CHECK(parse_score("3/0").error().message == "ragwasm: reply: '3/0' is not a score (the denominator must be a positive plain number)");
  // Nothing was lost: plain scores still parse, as do words starting with e after a number.
  CHECK(parse_score("Score: 3").value().value == 3);
  CHECK(parse_score("Score: 2 excellent").value().value == 2);
  CHECK(parse_score("Score: 2/3").value().value == 2);
  CHECK(parse_score(".5", ScoreOptions{ScaleKind::kRating, 0, 1}).value().value == 0.5);
}

TEST_CASE("#19 a claim whose score has an exponent has no score and says why", "[unit]") {
  auto r = parse_claim_scores("[1] Score: 3e2\n[2] Score: 2\n", 2);
  REQUIRE(r.ok());
  CHECK_FALSE(r.value()[0].score.has_value());
  CHECK(r.value()[0].error == "claim 1: reply: '3e2' is not a plain decimal score (exponents are not accepted)");
  CHECK(r.value()[1].score.value() == 2);
}
