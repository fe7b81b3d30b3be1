// src/context/assembly: token-budgeted context blocks with numbered sources, as a spec.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "context/assembly.h"

using namespace ragwasm;
using namespace ragwasm::context;

namespace {
// texts: "aaaa aaaa" 9 code points -> 3 tokens; "bbbb" -> 1; "cccccccc" -> 2; "d" -> 1
std::vector<ContextChunk> sample() {
  return {{"c1", "A", "aaaa aaaa", 0.9, 0, 9, -1},
          {"c3", "A", "cccccccc", 0.7, 20, 28, -1},
          {"c2", "B", "bbbb", 0.8, -1, -1, -1},
          {"c4", "C", "d", 0.6, -1, -1, -1}};
}
std::vector<std::string> source_ids(const AssembledContext& a) {
  std::vector<std::string> out;
  for (const auto& s : a.sources) out.push_back(s.chunk_id);
  return out;
}
}  // namespace

TEST_CASE("the token estimate is the ceiling of code points over four", "[unit]") {
  REQUIRE(estimate_tokens("") == 0);
  REQUIRE(estimate_tokens("abcd") == 1);
  REQUIRE(estimate_tokens("abcde") == 2);
  REQUIRE(estimate_tokens("\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9") == 1);  // 4 x é: 8 bytes, 4 code points
}

TEST_CASE("context blocks are numbered in score order with each document context once", "[unit]") {
  AssemblyOptions o;
  o.token_budget = 1000;
  o.doc_context = {{"A", "Title A"}, {"Z", "unused"}};
  auto r = assemble(sample(), o);
  REQUIRE(r.ok());
  const auto& a = r.value();
  REQUIRE(a.context_text == "[1] Title A\naaaa aaaa\n\n[2] bbbb\n\n[3] cccccccc\n\n[4] d");
  REQUIRE(source_ids(a) == std::vector<std::string>{"c1", "c2", "c3", "c4"});
  REQUIRE(a.sources[0].n == 1);
  REQUIRE(a.sources[2].doc_id == "A");
  REQUIRE(a.sources[2].start == 20);
  REQUIRE(a.sources[2].end == 28);
  REQUIRE(a.sources[0].tokens == 3);
  // texts 3+1+2+1, doc context "Title A\n" 8 -> 2, headers "[n] " 4 x 1, separators 3 x 1
  REQUIRE(a.tokens_used == 7 + 2 + 4 + 3);
  REQUIRE(a.dropped.empty());
}

TEST_CASE("chunks that do not fit the budget are skipped while smaller ones still fit", "[unit]") {
  AssemblyOptions o;
  o.doc_context = {{"A", "Title A"}};
  o.token_budget = 12;
  // c1: 3 + 1 + 2 (doc context) = 6; c2: 1 + 1 + 1 = 3 -> 9; c3: 2 + 1 + 1 = 4 -> 13 > 12 skipped;
  // c4: 1 + 1 + 1 = 3 -> 12 fits
  auto r = assemble(sample(), o);
  REQUIRE(r.ok());
  REQUIRE(source_ids(r.value()) == std::vector<std::string>{"c1", "c2", "c4"});
  REQUIRE(r.value().dropped == std::vector<std::string>{"c3"});
  REQUIRE(r.value().tokens_used == 12);
  o.token_budget = 5;  // c1 alone costs 6
  auto small = assemble(sample(), o);
  REQUIRE(source_ids(small.value()) == std::vector<std::string>{"c2", "c4"});  // 1+1, then 1+1+1 = 5
  REQUIRE(small.value().tokens_used == 5);
  o.token_budget = 1000;
  o.max_chunks = 2;
  REQUIRE(source_ids(assemble(sample(), o).value()) == std::vector<std::string>{"c1", "c2"});
}

TEST_CASE("caller token counts replace the character estimate", "[unit]") {
  auto chunks = sample();
  chunks[0].tokens = 100;  // c1
  AssemblyOptions o;
  o.token_budget = 50;
  auto r = assemble(chunks, o);
  REQUIRE(r.ok());
  REQUIRE(r.value().dropped == std::vector<std::string>{"c1"});
  chunks[0].tokens = 0;
  REQUIRE(assemble(chunks, o).value().sources[0].tokens == 0);
}

TEST_CASE("best at both ends puts odd ranks in front and even ranks at the back", "[unit]") {
  std::vector<ContextChunk> c;
  for (int i = 1; i <= 5; ++i) c.push_back({"e" + std::to_string(i), i == 2 || i == 5 ? "A" : "doc" + std::to_string(i), "t", 1.0 - i * 0.1, -1, -1, -1});
  AssemblyOptions o;
  o.order = Order::kEnds;
  o.doc_context = {{"A", "ctxA"}};
  auto r = assemble(c, o);
  REQUIRE(r.ok());
  REQUIRE(source_ids(r.value()) == std::vector<std::string>{"e1", "e3", "e5", "e4", "e2"});
  // Doc A's context goes with its first block in output order (e5 at position 3), not with e2.
  REQUIRE(r.value().context_text == "[1] t\n\n[2] t\n\n[3] ctxA\nt\n\n[4] t\n\n[5] t");
  o.order = Order::kScore;
  REQUIRE(assemble(c, o).value().tokens_used == r.value().tokens_used);  // accounting is order-independent
}

TEST_CASE("duplicate chunk ids keep the best occurrence and ties order by id", "[unit]") {
  std::vector<ContextChunk> c = {{"b", "D", "x", 0.5, -1, -1, -1}, {"a", "D", "y", 0.5, -1, -1, -1}, {"a", "D", "z", 0.1, -1, -1, -1}};
  auto r = assemble(c, AssemblyOptions{});
  REQUIRE(r.ok());
  REQUIRE(r.value().context_text == "[1] y\n\n[2] x");
  REQUIRE(assemble({}, AssemblyOptions{}).value().context_text.empty());
}

TEST_CASE("bad assembly input is rejected with the parameter named", "[unit]") {
  AssemblyOptions o;
  o.token_budget = 0;
  REQUIRE(assemble(sample(), o).error().code == ErrorCode::kInvalidArgument);
  auto c = sample();
  c[1].text = "ok\xFF";
  auto u = assemble(c, AssemblyOptions{});
  REQUIRE(u.error().code == ErrorCode::kInvalidUtf8);
  REQUIRE(u.error().message == "ragwasm: chunks[1].text: invalid UTF-8 at byte 2");
  c = sample();
  c[0].score = std::numeric_limits<double>::quiet_NaN();
  REQUIRE(assemble(c, AssemblyOptions{}).error().message == "ragwasm: chunks[0].score: expected a finite number, got NaN");
  c = sample();
  c[0].tokens = 1.5;
  REQUIRE(assemble(c, AssemblyOptions{}).error().code == ErrorCode::kInvalidArgument);
  REQUIRE(assemble(sample(), AssemblyOptions{}).ok());
}

TEST_CASE("the assembly JSON request returns the documented hand-over struct", "[unit]") {
  auto r = assemble_json(R"({"chunks":[{"chunkId":"c1","docId":"A","text":"hello","score":1,"start":0,"end":5}],
                             "docContext":{"A":"Doc A"},"tokenBudget":100,"order":"ends"})");
  REQUIRE(r.ok());
  auto j = nlohmann::json::parse(r.value());
  REQUIRE(j["contextText"] == "[1] Doc A\nhello");
  REQUIRE(j["sources"][0]["n"] == 1);
  REQUIRE(j["sources"][0]["chunkId"] == "c1");
  REQUIRE(j["sources"][0]["docId"] == "A");
  REQUIRE(j["sources"][0]["start"] == 0);
  REQUIRE(j["sources"][0]["end"] == 5);
  REQUIRE(j["tokensUsed"] == 2 + 2 + 1);  // "hello" 2, "Doc A\n" 2, "[1] " 1
  auto bad = assemble_json(R"({"chunks":[{"chunkId":"c1","text":"x","tokens":-1}]})");
  REQUIRE(bad.error().message == "ragwasm: chunks[0].tokens: expected an integer in [0, 1000000000], got -1");
  auto unk = assemble_json(R"({"chunks":[],"budget":5})");
  REQUIRE(unk.error().message.find("budget: unknown key") != std::string::npos);
  REQUIRE(assemble_json("[").error().code == ErrorCode::kParseError);
}
