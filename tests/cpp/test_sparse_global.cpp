// Sharded BM25 with collection-wide statistics: shards over disjoint documents, each given the summed
// collection_stats() of all shards, score every document bit for bit as one index over everything,
// and their top-k lists merged by the ranking rule equal the unsharded top-k (ids and scores).
#include <catch2/catch.hpp>

#include <cstdio>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/ranking.h"
#include "sparse/index.h"

using namespace ragwasm;
using namespace ragwasm::sparse;

namespace {

constexpr unsigned kSeed = 20261127;

std::vector<Document> corpus(std::size_t n, std::mt19937& rng) {
  std::vector<std::string> words;
  for (int i = 0; i < 300; ++i) words.push_back("w" + std::to_string(i * 7919 % 1000));
  std::vector<double> weights;
  for (int i = 1; i <= 300; ++i) weights.push_back(1.0 / i);
  std::discrete_distribution<int> zipf(weights.begin(), weights.end());
  std::uniform_int_distribution<int> len(0, 40);
  std::vector<Document> docs;
  for (std::size_t d = 0; d < n; ++d) {
    Document doc;
    doc.id = "doc" + std::to_string((d * 37) % n);  // insertion order differs from id order
    for (int f = 0; f < 2; ++f) {
      std::string text;
      const int l = f == 0 ? len(rng) / 8 : len(rng);
      for (int i = 0; i < l; ++i) text += words[zipf(rng)] + " ";
      doc.fields.push_back(text);
    }
    doc.meta.push_back(MetaValue{"year", true, "", static_cast<double>(2000 + d % 20)});
    docs.push_back(doc);
  }
  return docs;
}

// Sums the shards' statistics by term and re-aligns df with each shard's dictionary.
void inject(std::vector<Bm25Index>& shards) {
  CollectionStats total;
  std::unordered_map<std::string, std::uint32_t> df;
  for (const auto& s : shards) {
    const auto c = s.collection_stats();
    total.documents += c.documents;
    total.field_lengths.resize(c.field_lengths.size(), 0);
    for (std::size_t f = 0; f < c.field_lengths.size(); ++f) total.field_lengths[f] += c.field_lengths[f];
    const auto terms = s.terms();
    for (std::size_t t = 0; t < terms.size(); ++t) df[terms[t]] += c.df[t];
  }
  for (auto& s : shards) {
    CollectionStats g = total;
    for (const auto& t : s.terms()) g.df.push_back(df[t]);
    REQUIRE(s.set_global_stats(g).ok());
    REQUIRE(s.has_global_stats());
  }
}

std::vector<Hit> merge(std::vector<std::vector<Hit>> lists, std::size_t k) {
  std::vector<Hit> all;
  for (auto& l : lists) all.insert(all.end(), l.begin(), l.end());
  std::sort(all.begin(), all.end(), [](const Hit& a, const Hit& b) { return ranks_before(a.score, a.id, b.score, b.id); });
  if (all.size() > k) all.resize(k);
  return all;
}

}  // namespace

TEST_CASE("shards with injected global statistics return the unsharded top-k bit for bit", "[unit][diff]") {
  for (Scorer scorer : {Scorer::kLucene, Scorer::kRobertson, Scorer::kAtire, Scorer::kBm25L, Scorer::kBm25Plus}) {
    std::mt19937 rng(kSeed);
    INFO("seed " << kSeed << " scorer " << scorer_name(scorer));
    IndexOptions o;
    o.fields = {{"title", 2.5}, {"text", 1.0}};
    o.scoring.scorer = scorer;
    const auto docs = corpus(600, rng);
    auto whole = Bm25Index::create(o).value();
    std::vector<Bm25Index> shards;
    for (int s = 0; s < 3; ++s) shards.push_back(Bm25Index::create(o).value());
    for (std::size_t d = 0; d < docs.size(); ++d) {
      REQUIRE(whole.add(docs[d]).ok());
      REQUIRE(shards[d % 3].add(docs[d]).ok());
    }
    inject(shards);
    std::uniform_int_distribution<int> qw(0, 999), ql(1, 5);
    for (int q = 0; q < 200; ++q) {
      std::string query;
      for (int i = ql(rng); i > 0; --i) query += "w" + std::to_string(qw(rng)) + " ";
      for (bool exhaustive : {false, true}) {
        SearchOptions so;
        so.k = 1 + static_cast<std::size_t>(q % 25);
        so.exhaustive = exhaustive;
        if (q % 4 == 0) {
          FilterClause c;
          c.key = "year";
          c.kind = FilterClause::Kind::kRange;
          c.lo = 2005;
          c.hi = 2012;
          so.filter.push_back(c);
        }
        const auto want = whole.search(query, so).value();
        std::vector<std::vector<Hit>> parts;
        for (auto& s : shards) parts.push_back(s.search(query, so).value());
        const auto got = merge(parts, so.k);
        INFO("query '" << query << "' k " << so.k << " exhaustive " << exhaustive);
        REQUIRE(got.size() == want.size());
        for (std::size_t i = 0; i < got.size(); ++i) {
          REQUIRE(got[i].id == want[i].id);
          REQUIRE(got[i].score == want[i].score);  // exact: bit-identical doubles
        }
      }
    }
  }
}

TEST_CASE("without global statistics a shard scores with its own statistics", "[unit]") {
  std::mt19937 rng(kSeed);
  const auto docs = corpus(200, rng);
  IndexOptions o;
  auto whole = Bm25Index::create(o).value();
  auto half = Bm25Index::create(o).value();
  for (std::size_t d = 0; d < docs.size(); ++d) {
    REQUIRE(whole.add(docs[d]).ok());
    if (d % 2 == 0) REQUIRE(half.add(docs[d]).ok());
  }
  SearchOptions so;
  so.k = 5;
  const auto local = half.search("w0 w7919", so).value();
  REQUIRE(!local.empty());
  std::vector<Bm25Index> one;
  one.push_back(std::move(half));
  CollectionStats g = whole.collection_stats();
  // re-align the whole collection's df with the shard's dictionary
  const auto wt = whole.terms();
  std::unordered_map<std::string, std::uint32_t> df;
  for (std::size_t t = 0; t < wt.size(); ++t) df[wt[t]] = g.df[t];
  g.df.clear();
  for (const auto& t : one[0].terms()) g.df.push_back(df[t]);
  REQUIRE(one[0].set_global_stats(g).ok());
  const auto global = one[0].search("w0 w7919", so).value();
  REQUIRE(global.size() == local.size());
  bool differs = false;
  for (std::size_t i = 0; i < global.size(); ++i) differs = differs || global[i].score != local[i].score;
  REQUIRE(differs);
  // a mutation restores local statistics
  Document extra;
  extra.id = "extra";
  extra.fields = {"", "w1"};
  REQUIRE(one[0].add(extra).ok());
  REQUIRE(!one[0].has_global_stats());
  REQUIRE(one[0].remove("extra").ok());
  const auto again = one[0].search("w0 w7919", so).value();
  REQUIRE(again.size() == local.size());
  for (std::size_t i = 0; i < again.size(); ++i) REQUIRE(again[i].score == local[i].score);
  // clear_global_stats() does too ("w1" of the removed document stays in the dictionary with df 0)
  g.df.clear();
  for (const auto& t : one[0].terms()) g.df.push_back(df[t]);
  REQUIRE(one[0].set_global_stats(g).ok());
  one[0].clear_global_stats();
  REQUIRE(!one[0].has_global_stats());
}

TEST_CASE("set_global_stats rejects statistics that cannot cover the shard", "[unit]") {
  IndexOptions o;
  auto idx = Bm25Index::create(o).value();
  REQUIRE(idx.add(Document{"a", {"", "alpha beta"}, {}}).ok());
  REQUIRE(idx.add(Document{"b", {"", "beta gamma"}, {}}).ok());
  const auto own = idx.collection_stats();
  REQUIRE(own.documents == 2);
  REQUIRE(own.field_lengths.size() == 2);
  REQUIRE(own.field_lengths[1] == 4);
  REQUIRE(own.df.size() == idx.terms().size());
  auto bad = own;
  bad.df.pop_back();
  auto s = idx.set_global_stats(bad);
  REQUIRE(s.error().code == ErrorCode::kInvalidArgument);
  REQUIRE(s.error().message.find("one per dictionary term") != std::string::npos);
  bad = own;
  bad.field_lengths = {0};
  REQUIRE(idx.set_global_stats(bad).error().code == ErrorCode::kInvalidArgument);
  bad = own;
  bad.documents = 1;
  REQUIRE(idx.set_global_stats(bad).error().code == ErrorCode::kInvalidArgument);
  bad = own;
  bad.df[0] = 0;
  REQUIRE(idx.set_global_stats(bad).error().code == ErrorCode::kInvalidArgument);
  bad = own;
  bad.field_lengths[1] = 3;
  REQUIRE(idx.set_global_stats(bad).error().code == ErrorCode::kInvalidArgument);
  REQUIRE(!idx.has_global_stats());
  REQUIRE(idx.set_global_stats(own).ok());  // its own statistics are valid global ones
}
