// src/sparse/impacts: the impact table of a built index reproduces search() exactly: for every query,
// sum over query_weights of weight * impact (added in query-term order) equals the search score bit
// for bit, for every scorer, with field boosts, after removals.
#include <catch2/catch.hpp>

#include <map>
#include <random>
#include <string>
#include <vector>

#include "sparse/impacts.h"
#include "sparse/index.h"

using namespace ragwasm::sparse;
using ragwasm::ErrorCode;

namespace {

std::string text(std::mt19937& rng, int words, int vocab) {
  std::string s;
  for (int i = 0; i < words; ++i) s += "w" + std::to_string(rng() % vocab) + (rng() % 7 == 0 ? "s " : " ");
  return s;
}

// term -> (doc id -> impact), read in small batches so batch boundaries are crossed.
std::map<std::string, std::map<std::string, double>> read_all(Bm25Index& index) {
  ImpactReader r(index);
  std::map<std::string, std::map<std::string, double>> out;
  std::size_t t = 0;
  while (t < r.term_count()) {
    auto b = r.read(t, 7, 50);
    REQUIRE(b.ok());
    REQUIRE(b.value().row_start.size() == b.value().terms.size() + 1);
    for (std::size_t i = 0; i < b.value().terms.size(); ++i)
      for (std::uint32_t j = b.value().row_start[i]; j < b.value().row_start[i + 1]; ++j)
        out[b.value().terms[i]][r.doc_ids()[b.value().doc[j]]] = b.value().impact[j];
    REQUIRE(b.value().next_term > t);
    t = b.value().next_term;
  }
  return out;
}

void check_queries(Bm25Index& index, std::uint32_t seed) {
  const auto table = read_all(index);
  std::mt19937 rng(seed);
  for (int q = 0; q < 60; ++q) {
    const std::string query = text(rng, 1 + static_cast<int>(rng() % 5), 40);
    INFO("seed " << seed << " query '" << query << "'");
    SearchOptions o;
    o.k = 1000;
    auto hits = index.search(query, o);
    REQUIRE(hits.ok());
    const auto terms = query_weights(index, query);
    std::map<std::string, double> score;
    for (const auto& wt : terms) {
      auto it = table.find(wt.term);
      if (it == table.end()) continue;  // no live document holds it: search() drops it too
      for (const auto& [doc, impact] : it->second) score[doc] += wt.weight * impact;
    }
    REQUIRE(score.size() == hits.value().size());
    for (const auto& h : hits.value()) CHECK(score.at(h.id) == h.score);  // exact: same products, same order
  }
}

}  // namespace

TEST_CASE("impacts summed in query-term order equal the search scores exactly for every scorer", "[unit]") {
  for (Scorer s : {Scorer::kLucene, Scorer::kRobertson, Scorer::kAtire, Scorer::kBm25L, Scorer::kBm25Plus}) {
    IndexOptions o;
    o.scoring.scorer = s;
    o.fields = {{"title", 2.5}, {"text", 1.0}};
    auto index = Bm25Index::create(o);
    REQUIRE(index.ok());
    std::mt19937 rng(17);
    for (int d = 0; d < 200; ++d) {
      Document doc;
      doc.id = "d" + std::to_string(d);
      doc.fields = {text(rng, static_cast<int>(rng() % 4), 40), text(rng, static_cast<int>(rng() % 30), 40)};
      REQUIRE(index.value().add(doc).ok());
    }
    INFO("scorer " << scorer_name(s));
    check_queries(index.value(), 5);
  }
}

TEST_CASE("impacts skip removed documents and terms left only in them", "[unit]") {
  IndexOptions o;
  o.fields = {{"text", 1.0}};
  auto index = Bm25Index::create(o);
  REQUIRE(index.ok());
  std::mt19937 rng(3);
  for (int d = 0; d < 120; ++d) REQUIRE(index.value().add(Document{"d" + std::to_string(d), {text(rng, 12, 30)}, {}}).ok());
  REQUIRE(index.value().add(Document{"only", {"zebra"}, {}}).ok());
  for (int d = 0; d < 120; d += 3) REQUIRE(index.value().remove("d" + std::to_string(d)).ok());
  REQUIRE(index.value().remove("only").ok());
  const auto table = read_all(index.value());
  CHECK(table.count("zebra") == 0);
  for (const auto& [term, docs] : table) {
    CHECK(docs.size() == index.value().document_frequency(term));
    for (const auto& [doc, impact] : docs) CHECK(index.value().contains(doc));
  }
  check_queries(index.value(), 9);
}

TEST_CASE("query weights count repeated terms in order of first appearance", "[unit]") {
  IndexOptions o;
  o.fields = {{"text", 1.0}};
  o.analyzer.stemmer = Stemmer::kNone;
  auto index = Bm25Index::create(o);
  REQUIRE(index.ok());
  REQUIRE(index.value().add(Document{"a", {"apple banana cherry"}, {}}).ok());
  const auto q = query_weights(index.value(), "Cherry the apple unknown cherry");
  REQUIRE(q.size() == 3);
  CHECK(q[0].term == "cherry");
  CHECK(q[0].weight == 2);
  CHECK(q[1].term == "apple");
  CHECK(q[1].weight == 1);
  CHECK(q[2].term == "unknown");
}

TEST_CASE("an impact read past the last term is an invalid argument", "[unit]") {
  auto index = Bm25Index::create(IndexOptions{});
  REQUIRE(index.ok());
  ImpactReader r(index.value());
  auto b = r.read(0, 10);
  REQUIRE(b.ok());
  CHECK(b.value().terms.empty());
  CHECK(r.read(1, 10).error().code == ErrorCode::kInvalidArgument);
}
