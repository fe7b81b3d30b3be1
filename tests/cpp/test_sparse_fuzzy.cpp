// Prefix and fuzzy expansion, AND, per-query field boosts, explain and suggest (issue 29): the dictionary
// scans are checked against a brute-force Levenshtein over every term, expanded searches against the same
// weighted query run through search_terms, AND against a filter of the OR list, shards against one index.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "sparse/index.h"

using namespace ragwasm;
using namespace ragwasm::sparse;

namespace {

unsigned levenshtein(const std::string& a, const std::string& b) {
  std::vector<unsigned> prev(b.size() + 1), cur(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = static_cast<unsigned>(j);
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = static_cast<unsigned>(i);
    for (std::size_t j = 1; j <= b.size(); ++j)
      cur[j] = std::min({prev[j - 1] + (a[i - 1] == b[j - 1] ? 0u : 1u), prev[j] + 1, cur[j - 1] + 1});
    prev.swap(cur);
  }
  return prev[b.size()];
}

Bm25Index plain_index() {
  IndexOptions o;
  o.analyzer.stemmer = Stemmer::kNone;
  o.analyzer.use_stopwords = false;
  return std::move(Bm25Index::create(o)).value();
}

Document doc(const std::string& id, const std::string& title, const std::string& text) {
  Document d;
  d.id = id;
  d.fields = {title, text};
  return d;
}

std::vector<Document> random_docs(std::size_t n, std::mt19937& rng) {
  const std::string letters = "abcde";
  std::uniform_int_distribution<int> wl(1, 6), nw(1, 12), ch(0, 4);
  std::vector<Document> out;
  for (std::size_t d = 0; d < n; ++d) {
    std::string text, title;
    const int words = nw(rng);
    for (int w = 0; w < words; ++w) {
      const int l = wl(rng);
      for (int c = 0; c < l; ++c) text += letters[static_cast<std::size_t>(ch(rng))];
      text += ' ';
    }
    title = text.substr(0, text.find(' '));
    out.push_back(doc("d" + std::to_string(d), title, text));
  }
  return out;
}

}  // namespace

TEST_CASE("Fuzzy expansion finds exactly the terms within the edit distance", "[unit][prop]") {
  std::mt19937 rng(29);
  auto idx = plain_index();
  for (const auto& d : random_docs(400, rng)) REQUIRE(idx.add(d).ok());
  const auto terms = idx.terms();
  for (const std::string q : {"abc", "a", "eeee", "abcdea", "bad", "ccccc"}) {
    for (unsigned dist = 1; dist <= 3; ++dist) {
      SearchOptions o;
      o.k = 100000;
      o.match.fuzzy = dist;
      o.exhaustive = true;
      auto hits = idx.search(q, o);
      REQUIRE(hits.ok());
      auto ex = idx.explain(q, o, hits.value());
      REQUIRE(ex.ok());
      std::set<std::string> got;
      for (const auto& row : ex.value())
        for (const auto& m : row) got.insert(m.term);
      std::set<std::string> want;
      for (const auto& t : terms)
        if (idx.document_frequency(t) > 0 && levenshtein(t, q) <= dist) want.insert(t);
      INFO("query " << q << " distance " << dist);
      CHECK(got == want);
      for (const auto& row : ex.value())
        for (const auto& m : row)
          if (m.kind == TermMatch::Kind::kFuzzy) CHECK(m.distance == levenshtein(m.term, q));
    }
  }
}

TEST_CASE("Expanded searches equal the same weighted query through search_terms", "[unit][diff]") {
  std::mt19937 rng(2029);
  auto idx = plain_index();
  for (const auto& d : random_docs(500, rng)) REQUIRE(idx.add(d).ok());
  for (const std::string q : {"abc de", "bad", "cab e", "aaaa dd"}) {
    SearchOptions o;
    o.k = 20;
    o.match.prefix = true;
    o.match.fuzzy = 0.34;
    auto hits = idx.search(q, o);
    REQUIRE(hits.ok());
    // the weighted query: exact 1, prefix 0.375 * |t| / (|t| + 0.3 (|t| - |q|)), fuzzy 0.45 * |t| / (|t| + d)
    std::vector<WeightedTerm> wq;
    for (const auto& t : idx.analyze(q)) {
      const unsigned d = static_cast<unsigned>(std::round(t.size() * 0.34));
      for (const auto& term : idx.terms()) {
        if (idx.document_frequency(term) == 0) continue;
        const double len = static_cast<double>(term.size());
        if (term == t) wq.push_back({term, 1.0});
        else if (term.compare(0, t.size(), t) == 0) wq.push_back({term, 0.375 * len / (len + 0.3 * (len - t.size()))});
        else if (d > 0 && levenshtein(term, t) <= d) wq.push_back({term, 0.45 * len / (len + levenshtein(term, t))});
      }
    }
    SearchOptions plain;
    plain.k = 20;
    auto want = idx.search_terms(wq, plain);
    REQUIRE(want.ok());
    REQUIRE(hits.value().size() == want.value().size());
    for (std::size_t i = 0; i < want.value().size(); ++i) {
      CHECK(hits.value()[i].id == want.value()[i].id);
      CHECK(hits.value()[i].score == Approx(want.value()[i].score).epsilon(1e-12));
    }
    // MaxScore and the oracle agree on the expanded query too
    o.exhaustive = true;
    auto oracle = idx.search(q, o);
    REQUIRE(oracle.ok());
    REQUIRE(oracle.value().size() == hits.value().size());
    for (std::size_t i = 0; i < hits.value().size(); ++i) CHECK(oracle.value()[i].id == hits.value()[i].id);
  }
}

TEST_CASE("A misspelled query finds the document and explain names the expansion", "[unit]") {
  auto idx = std::move(Bm25Index::create(IndexOptions{})).value();  // default analyzer: stemmed terms
  REQUIRE(idx.add(doc("warranty", "Warranty policy", "Every device has a two year warranty covering defects.")).ok());
  REQUIRE(idx.add(doc("returns", "Returns", "Return an item within 30 days for a refund.")).ok());
  REQUIRE(idx.add(doc("shipping", "Shipping", "Orders ship within two business days.")).ok());
  SearchOptions exact;
  CHECK(idx.search("warrenty", exact).value().empty());
  SearchOptions o;
  o.match.fuzzy = 0.2;
  auto hits = idx.search("warrenty", o).value();
  REQUIRE(hits.size() == 1);
  CHECK(hits[0].id == "warranty");
  auto ex = idx.explain("warrenty", o, hits).value();
  REQUIRE(ex.size() == 1);
  REQUIRE(ex[0].size() == 1);
  CHECK(ex[0][0].kind == TermMatch::Kind::kFuzzy);
  CHECK(ex[0][0].term == "warranti");
  CHECK(ex[0][0].distance == 1);
  CHECK(ex[0][0].score == Approx(hits[0].score).epsilon(1e-12));
  // prefix: "ship" typed so far
  SearchOptions p;
  p.match.prefix = true;
  auto ph = idx.search("retu", p).value();
  REQUIRE(ph.size() == 1);
  CHECK(ph[0].id == "returns");
  // the exact term outweighs its expansions: "two" exact vs prefix-only
  auto sug = idx.suggest("wa", 5).value();
  REQUIRE(sug.size() == 1);
  CHECK(sug[0].term == "warranti");
  CHECK(sug[0].df == 1);
}

TEST_CASE("AND keeps the OR hits holding every query term or an expansion", "[unit][diff]") {
  std::mt19937 rng(92);
  auto idx = plain_index();
  for (const auto& d : random_docs(400, rng)) REQUIRE(idx.add(d).ok());
  REQUIRE(idx.remove("d7").ok());
  for (const std::string q : {"ab cd", "abc e", "dd ee aa"}) {
    SearchOptions o;
    o.k = 100000;
    o.match.prefix = true;
    o.exhaustive = true;
    auto all = idx.search(q, o).value();
    auto ex = idx.explain(q, o, all).value();
    const auto qterms = idx.analyze(q);
    std::vector<Hit> want;
    for (std::size_t i = 0; i < all.size(); ++i) {
      std::set<std::string> covered;
      for (const auto& m : ex[i]) covered.insert(m.query);
      if (covered.size() == std::set<std::string>(qterms.begin(), qterms.end()).size()) want.push_back(all[i]);
    }
    SearchOptions a = o;
    a.combine = Combine::kAnd;
    auto got = idx.search(q, a).value();
    INFO("query " << q);
    REQUIRE(got.size() == want.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
      CHECK(got[i].id == want[i].id);
      CHECK(got[i].score == want[i].score);
    }
  }
  SearchOptions a;
  a.combine = Combine::kAnd;
  CHECK(idx.search("abc zzzz", a).value().empty());  // a term nothing matches: no AND hit
}

TEST_CASE("A per-query field boost equals an index built with that boost when lengths are equal", "[unit]") {
  // per-query boosts multiply tf weights; document lengths keep the index's boosts, so compare with b = 0
  IndexOptions base;
  base.scoring.b = 0;
  IndexOptions boosted = base;
  boosted.fields[0].boost = 3;
  auto a = std::move(Bm25Index::create(base)).value();
  auto b = std::move(Bm25Index::create(boosted)).value();
  std::mt19937 rng(7);
  for (const auto& d : random_docs(200, rng)) {
    REQUIRE(a.add(d).ok());
    REQUIRE(b.add(d).ok());
  }
  SearchOptions o;
  o.k = 30;
  o.boost = {{"title", 3.0}};
  SearchOptions plain;
  plain.k = 30;
  for (const std::string q : {"abc", "de a", "bbb"}) {
    auto x = a.search(q, o).value();
    auto y = b.search(q, plain).value();
    REQUIRE(x.size() == y.size());
    for (std::size_t i = 0; i < x.size(); ++i) {
      CHECK(x[i].id == y[i].id);
      CHECK(x[i].score == Approx(y[i].score).epsilon(1e-12));
    }
  }
  // the boost does not stick: a plain search afterwards is unchanged
  auto before = a.search("abc", plain).value();
  REQUIRE(a.search("abc", o).ok());
  auto after = a.search("abc", plain).value();
  REQUIRE(before.size() == after.size());
  for (std::size_t i = 0; i < before.size(); ++i) CHECK(before[i].score == after[i].score);
  SearchOptions badf;
  badf.boost = {{"body", 2.0}};
  auto r = a.search("abc", badf);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().message.find("unknown field 'body'") != std::string::npos);
}

TEST_CASE("Sharded expanded searches equal one index", "[unit][diff]") {
  std::mt19937 rng(31);
  const auto docs = random_docs(600, rng);
  auto one = plain_index();
  std::vector<Bm25Index> shards;
  shards.push_back(plain_index());
  shards.push_back(plain_index());
  shards.push_back(plain_index());
  for (std::size_t i = 0; i < docs.size(); ++i) {
    REQUIRE(one.add(docs[i]).ok());
    REQUIRE(shards[i % 3].add(docs[i]).ok());
  }
  // summed statistics, df re-aligned per shard (as ShardedBm25Index does)
  CollectionStats total;
  total.field_lengths.assign(2, 0);
  std::map<std::string, std::uint32_t> df;
  for (auto& s : shards) {
    const auto st = s.collection_stats();
    total.documents += st.documents;
    for (std::size_t f = 0; f < 2; ++f) total.field_lengths[f] += st.field_lengths[f];
    const auto t = s.terms();
    for (std::size_t i = 0; i < t.size(); ++i) df[t[i]] += st.df[i];
  }
  for (auto& s : shards) {
    CollectionStats g = total;
    for (const auto& t : s.terms()) g.df.push_back(df[t]);
    REQUIRE(s.set_global_stats(g).ok());
  }
  for (const auto combine : {Combine::kOr, Combine::kAnd}) {
    for (const std::string q : {"abc d", "eeab", "ca bd"}) {
      SearchOptions o;
      o.k = 25;
      o.match.prefix = true;
      o.match.fuzzy = 1;
      o.combine = combine;
      auto want = one.search(q, o).value();
      std::vector<Hit> merged;
      for (auto& s : shards)
        for (const auto& h : s.search(q, o).value()) merged.push_back(h);
      std::sort(merged.begin(), merged.end(), [](const Hit& a, const Hit& b) { return a.score > b.score || (a.score == b.score && a.id < b.id); });
      if (merged.size() > o.k) merged.resize(o.k);
      REQUIRE(merged.size() == want.size());
      for (std::size_t i = 0; i < want.size(); ++i) {
        CHECK(merged[i].id == want[i].id);
        CHECK(merged[i].score == want[i].score);  // bit for bit
      }
    }
  }
}
