// src/sparse: query expansion from word neighbours (index_expansion.cpp): exact weights, restriction
// to the index's vocabulary, no expansion of stop words, numbers and identifiers, determinism.
#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <vector>

#include "sparse/index.h"
#include "sparse/options_json.h"

using namespace ragwasm::sparse;
using ragwasm::ErrorCode;

namespace {

Bm25Index make_index() {
  IndexOptions o;
  o.fields = {{"text", 1.0}};
  auto r = Bm25Index::create(o);
  REQUIRE(r.ok());
  Bm25Index idx = std::move(r).value();
  const std::vector<std::pair<std::string, std::string>> docs = {
      {"d1", "The doctor sees patients every morning."},
      {"d2", "Sick days are paid in full."},
      {"d3", "The door locks itself after ten seconds."},
      {"d4", "The LT logger manual."},
      {"d5", "Paid holidays and vacation."},
  };
  for (const auto& [id, text] : docs) REQUIRE(idx.add(Document{id, {text}, {}}).ok());
  return idx;
}

// A fixed word source: the table's lists, best first, cut at the floor.
SimilarWords table_source(int* calls = nullptr) {
  static const std::map<std::string, std::vector<SimilarWord>> kTable = {
      {"physician", {{"doctor", 0.8}, {"physicians", 0.79}, {"surgeon", 0.75}, {"patient", 0.71}, {"nurse", 0.7}}},
      {"ill", {{"sick", 0.76}, {"illness", 0.65}}},
      {"secures", {{"secure", 0.9}, {"locks", 0.72}, {"the", 0.71}, {"l2", 0.7}}},
      {"ls", {{"lt", 0.9}}},
      {"pto", {{"vacation", 0.9}}},
      {"off", {{"paid", 0.9}}},
      {"door", {{"locks", 0.8}}},
  };
  return [calls](std::string_view word, double min_similarity) {
    if (calls != nullptr) ++*calls;
    std::vector<SimilarWord> out;
    auto it = kTable.find(std::string(word));
    if (it == kTable.end()) return out;
    for (const auto& n : it->second)
      if (n.similarity >= min_similarity) out.push_back(n);
    return out;
  };
}

SearchOptions expanded(std::size_t per_term = 2, double min_similarity = 0.7, double weight = 0.3) {
  SearchOptions o;
  o.k = 10;
  o.expansion.enabled = true;
  o.expansion.per_term = per_term;
  o.expansion.min_similarity = min_similarity;
  o.expansion.weight = weight;
  o.similar_words = table_source();
  return o;
}

}  // namespace

TEST_CASE("Expansion terms are the nearest words in the index vocabulary at weight x similarity", "[unit]") {
  Bm25Index idx = make_index();
  auto r = idx.expansion_terms("physician on call", expanded());
  REQUIRE(r.ok());
  const auto& t = r.value();
  // doctor (0.8) is in the index; physicians stems to the query's own term physician; surgeon is in
  // no document; patient (0.71, stem "patient" of "patients") is: 2 per term.
  REQUIRE(t.size() == 2);
  CHECK(t[0].term == "doctor");
  CHECK(t[0].from == "physician");
  CHECK(t[0].word == "doctor");
  CHECK(t[0].similarity == 0.8);
  CHECK(t[0].weight == 0.3 * 0.8);  // exact: the same double product
  CHECK(t[1].term == "patient");
  CHECK(t[1].weight == 0.3 * 0.71);
}

TEST_CASE("An expanded search scores the own terms at 1 and the expansion terms at their weights", "[unit]") {
  Bm25Index idx = make_index();
  auto got = idx.search("ill", expanded());
  REQUIRE(got.ok());
  // "ill" is in no document: only the expansion "sick" (0.3 x 0.76) matches, d2.
  auto want = idx.search_terms({{"ill", 1.0}, {"sick", 0.3 * 0.76}}, SearchOptions{});
  REQUIRE(want.ok());
  REQUIRE(got.value().size() == 1);
  CHECK(got.value()[0].id == "d2");
  CHECK(got.value()[0].score == want.value()[0].score);  // bit for bit
  auto single = idx.search_terms({{"sick", 1.0}}, SearchOptions{});
  REQUIRE(single.ok());
  CHECK(got.value()[0].score == 0.3 * 0.76 * single.value()[0].score);
  // The exhaustive oracle gives the same list.
  SearchOptions ex = expanded();
  ex.exhaustive = true;
  auto oracle = idx.search("ill", ex);
  REQUIRE(oracle.ok());
  CHECK(oracle.value()[0].score == got.value()[0].score);
}

TEST_CASE("Expansion skips stop words numbers identifiers and capitals and adds no stop word", "[unit]") {
  Bm25Index idx = make_index();
  // "ls" is part of LS-240 (a digit in the piece), "pto" is written in capitals, "off" is a stop word,
  // 240 is a number: none is expanded. "secures": secure (0.9) stems to its own term, locks (0.72) is taken;
  // "the" is a stop word and "l2" has a digit: never added.
  auto r = idx.expansion_terms("LS-240 PTO off 240 secures", expanded(4));
  REQUIRE(r.ok());
  REQUIRE(r.value().size() == 1);
  CHECK(r.value()[0].term == "lock");
  CHECK(r.value()[0].from == "secures");
  // Written in lower case, "pto" is a word like any other and "ls" alone too.
  auto lower = idx.expansion_terms("pto ls", expanded());
  REQUIRE(lower.ok());
  REQUIRE(lower.value().size() == 2);
  CHECK(lower.value()[0].term == "vacat");
  CHECK(lower.value()[1].term == "lt");
}

TEST_CASE("The similarity floor and perTerm bound the expansion", "[unit]") {
  Bm25Index idx = make_index();
  auto one = idx.expansion_terms("physician", expanded(1));
  REQUIRE(one.ok());
  REQUIRE(one.value().size() == 1);
  CHECK(one.value()[0].term == "doctor");
  auto high = idx.expansion_terms("physician", expanded(2, 0.85));
  REQUIRE(high.ok());
  CHECK(high.value().empty());
  // With nothing to add the search equals the plain search.
  auto plain = idx.search("doctor morning", SearchOptions{});
  auto same = idx.search("doctor morning", expanded(2, 0.85));
  REQUIRE(plain.ok());
  REQUIRE(same.ok());
  REQUIRE(plain.value().size() == same.value().size());
  for (std::size_t i = 0; i < plain.value().size(); ++i) {
    CHECK(plain.value()[i].id == same.value()[i].id);
    CHECK(plain.value()[i].score == same.value()[i].score);
  }
}

TEST_CASE("Expansion is deterministic and asks the source once per distinct word", "[unit]") {
  Bm25Index idx = make_index();
  int calls = 0;
  SearchOptions o = expanded();
  o.similar_words = table_source(&calls);
  auto a = idx.search("ill physician ill", o);
  auto b = idx.search("ill physician ill", o);
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  CHECK(calls == 4);  // 2 distinct words x 2 searches
  REQUIRE(a.value().size() == b.value().size());
  for (std::size_t i = 0; i < a.value().size(); ++i) {
    CHECK(a.value()[i].id == b.value()[i].id);
    CHECK(a.value()[i].score == b.value()[i].score);
  }
}

TEST_CASE("Expansion options are checked", "[unit]") {
  Bm25Index idx = make_index();
  SearchOptions no_source = expanded();
  no_source.similar_words = nullptr;
  auto r = idx.search("ill", no_source);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().code == ErrorCode::kInvalidArgument);
  SearchOptions both = expanded();
  both.rm3.enabled = true;
  REQUIRE_FALSE(idx.search("ill", both).ok());
  REQUIRE_FALSE(idx.expansion_terms("ill", expanded(0)).ok());
  REQUIRE_FALSE(idx.expansion_terms("ill", expanded(2, 0.0)).ok());
  REQUIRE_FALSE(idx.expansion_terms("ill", expanded(2, 0.7, 1.5)).ok());
  // The index still answers after the errors.
  CHECK(idx.search("ill", expanded()).ok());

  auto p = parse_search_options(R"({"k": 3, "expansion": {"perTerm": 3, "minSimilarity": 0.65, "weight": 0.4}})");
  REQUIRE(p.ok());
  CHECK(p.value().expansion.enabled);
  CHECK(p.value().expansion.per_term == 3);
  CHECK(p.value().expansion.min_similarity == 0.65);
  CHECK(p.value().expansion.weight == 0.4);
  CHECK_FALSE(parse_search_options(R"({"expansion": {"perTerm": 17}})").ok());
  CHECK_FALSE(parse_search_options(R"({"expansion": {"floor": 0.5}})").ok());
  CHECK_FALSE(parse_search_options(R"({"expansion": true})").ok());
}

TEST_CASE("unmatchedOnly expands only the query words no document holds", "[unit]") {
  Bm25Index idx = make_index();
  SearchOptions o = expanded(2);
  // "door" is held by d3, "ill" by no document: both are expanded by default.
  auto all = idx.expansion_terms("door ill", o);
  REQUIRE(all.ok());
  REQUIRE(all.value().size() == 2);
  CHECK(all.value()[0].from == "door");
  CHECK(all.value()[0].term == "lock");
  CHECK(all.value()[1].from == "ill");
  o.expansion.unmatched_only = true;
  auto some = idx.expansion_terms("door ill", o);
  REQUIRE(some.ok());
  REQUIRE(some.value().size() == 1);
  CHECK(some.value()[0].from == "ill");
  CHECK(some.value()[0].term == "sick");
}
