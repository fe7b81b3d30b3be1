// src/sparse: BM25 index, MaxScore top-k against the exhaustive oracle, filters, updates with exact
// statistics, compaction and the saved format (round trips and 10,000 seeded corruptions).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "common/checksum.h"
#include "sparse/index.h"
#include "sparse/options_json.h"

using namespace ragwasm::sparse;
using ragwasm::ErrorCode;

namespace {

IndexOptions plain_options(Scorer scorer = Scorer::kLucene) {
  IndexOptions o;
  o.analyzer.stemmer = Stemmer::kNone;
  o.analyzer.use_stopwords = false;
  o.scoring.scorer = scorer;
  return o;
}

// Random documents over a small Zipf-like vocabulary, so that ties and repeated terms are common.
struct Gen {
  std::mt19937 rng;
  explicit Gen(std::uint32_t seed) : rng(seed) {}
  std::string word(int vocab) {
    std::uniform_real_distribution<double> u(0, 1);
    const int w = static_cast<int>(std::pow(u(rng), 2.0) * vocab);
    return "w" + std::to_string(w);
  }
  std::string text(int max_words, int vocab) {
    std::uniform_int_distribution<int> len(0, max_words);
    std::string s;
    for (int i = len(rng); i > 0; --i) s += word(vocab) + " ";
    return s;
  }
  Document doc(const std::string& id) {
    Document d;
    d.id = id;
    d.fields = {text(4, 30), text(25, 40)};
    static const char* langs[] = {"en", "fr", "de"};
    d.meta.push_back(MetaValue{"lang", false, langs[rng() % 3], 0});
    d.meta.push_back(MetaValue{"year", true, "", static_cast<double>(2000 + rng() % 21)});
    if (rng() % 2) d.meta.push_back(MetaValue{"tag", false, "t" + std::to_string(rng() % 4), 0});
    if (rng() % 2) d.meta.push_back(MetaValue{"tag", false, "t" + std::to_string(rng() % 4), 0});
    return d;
  }
};

void require_same(const std::vector<Hit>& a, const std::vector<Hit>& b) {
  REQUIRE(a.size() == b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    INFO("rank " << i);
    REQUIRE(a[i].id == b[i].id);
    // tolerance: 1e-6 relative (the implementation sums in the same order, so they are equal)
    REQUIRE(std::fabs(a[i].score - b[i].score) <= 1e-6 * std::max(1.0, std::fabs(b[i].score)));
  }
}

bool sorted_by_score_then_id(const std::vector<Hit>& h) {
  for (std::size_t i = 1; i < h.size(); ++i) {
    if (h[i - 1].score < h[i].score) return false;
    if (h[i - 1].score == h[i].score && !(h[i - 1].id < h[i].id)) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("lucene bm25 scores match a hand computation", "[unit]") {
  auto idx = Bm25Index::create(plain_options()).value();
  REQUIRE(idx.add(Document{"a", {"", "x y y"}, {}}).ok());
  REQUIRE(idx.add(Document{"b", {"", "y z"}, {}}).ok());
  REQUIRE(idx.add(Document{"c", {"", "z z z z"}, {}}).ok());
  auto hits = idx.search("y", {}).value();
  REQUIRE(hits.size() == 2);
  const double N = 3, df = 2, avgdl = 9.0 / 3, k1 = 0.9, b = 0.4;
  const double idf = std::log(1 + (N - df + 0.5) / (df + 0.5));
  const double sa = idf * 2 / (2 + k1 * (1 - b + b * 3 / avgdl));
  const double sb = idf * 1 / (1 + k1 * (1 - b + b * 2 / avgdl));
  CHECK(hits[0].id == "a");
  CHECK(hits[0].score == Approx(sa).epsilon(1e-12));
  CHECK(hits[1].id == "b");
  CHECK(hits[1].score == Approx(sb).epsilon(1e-12));
}

TEST_CASE("field boosts weight term frequency and length as simple bm25f", "[unit]") {
  IndexOptions o = plain_options();
  o.fields = {{"title", 3.0}, {"text", 1.0}};
  auto idx = Bm25Index::create(o).value();
  REQUIRE(idx.add(Document{"t", {"apple", "pie"}, {}}).ok());
  REQUIRE(idx.add(Document{"x", {"pie", "apple"}, {}}).ok());
  auto hits = idx.search("apple", {}).value();
  REQUIRE(hits.size() == 2);
  CHECK(hits[0].id == "t");
  // tf 3 and dl 4 for "t"; tf 1 and dl 4 for "x"; avgdl 4
  const double idf = std::log(1 + (2 - 2 + 0.5) / (2 + 0.5));
  CHECK(hits[0].score == Approx(idf * 3 / (3 + 0.9)).epsilon(1e-12));
  CHECK(hits[1].score == Approx(idf * 1 / (1 + 0.9)).epsilon(1e-12));
}

TEST_CASE("maxscore returns exactly the oracle results on random corpora for every scorer", "[prop]") {
  const Scorer scorers[] = {Scorer::kLucene, Scorer::kRobertson, Scorer::kAtire, Scorer::kBm25L, Scorer::kBm25Plus};
  for (std::uint32_t seed = 1; seed <= 40; ++seed) {
    Gen g(seed);
    const Scorer scorer = scorers[seed % 5];
    auto idx = Bm25Index::create(plain_options(scorer)).value();
    const int ndocs = 50 + static_cast<int>(g.rng() % 400);
    for (int i = 0; i < ndocs; ++i) REQUIRE(idx.add(g.doc("d" + std::to_string(g.rng() % 100000) + "_" + std::to_string(i))).ok());
    // some deletions so tombstones are exercised
    auto ids = idx.ids();
    for (int i = 0; i < ndocs / 10; ++i) (void)idx.remove(ids[g.rng() % ids.size()]);
    for (int qi = 0; qi < 30; ++qi) {
      INFO("seed " << seed << " scorer " << scorer_name(scorer) << " query " << qi);
      const std::string q = g.text(6, 45) + (qi % 7 == 0 ? " unknownterm" : "");
      SearchOptions fast, oracle;
      fast.k = oracle.k = 1 + g.rng() % 30;
      oracle.exhaustive = true;
      if (qi % 3 == 0) {
        FilterClause c;
        c.key = "lang";
        c.strings = {"en", "de"};
        fast.filter = oracle.filter = {c};
      }
      auto a = idx.search(q, fast).value();
      auto b = idx.search(q, oracle).value();
      require_same(a, b);
      REQUIRE(sorted_by_score_then_id(a));
    }
  }
}

TEST_CASE("weighted queries from search_terms agree between maxscore and the oracle", "[prop]") {
  Gen g(77);
  auto idx = Bm25Index::create(plain_options()).value();
  for (int i = 0; i < 300; ++i) REQUIRE(idx.add(g.doc("d" + std::to_string(i))).ok());
  for (int qi = 0; qi < 50; ++qi) {
    std::vector<WeightedTerm> q;
    for (int t = 0; t < 5; ++t) q.push_back(WeightedTerm{g.word(45), (g.rng() % 100) / 37.0});
    SearchOptions fast, oracle;
    fast.k = oracle.k = 10;
    oracle.exhaustive = true;
    require_same(idx.search_terms(q, fast).value(), idx.search_terms(q, oracle).value());
  }
}

TEST_CASE("filters return k results whenever at least k documents match", "[prop]") {
  Gen g(5);
  auto idx = Bm25Index::create(plain_options()).value();
  std::map<std::string, Document> docs;
  for (int i = 0; i < 400; ++i) {
    Document d = g.doc("d" + std::to_string(i));
    docs[d.id] = d;
    REQUIRE(idx.add(d).ok());
  }
  auto count_matching = [&](const std::string& term, const std::function<bool(const Document&)>& pred) {
    std::size_t n = 0;
    for (const auto& [id, d] : docs) {
      const auto toks = idx.analyze(d.fields[0] + " " + d.fields[1]);
      if (std::find(toks.begin(), toks.end(), term) != toks.end() && pred(d)) ++n;
    }
    return n;
  };
  auto has = [](const Document& d, const std::string& key, const std::string& v) {
    for (const auto& m : d.meta)
      if (m.key == key && !m.is_number && m.str == v) return true;
    return false;
  };
  auto year = [](const Document& d) {
    for (const auto& m : d.meta)
      if (m.key == "year") return m.num;
    return -1.0;
  };
  for (const std::string term : {"w0", "w3", "w11", "w25"}) {
    SearchOptions o;
    o.k = 20;
    FilterClause lang;
    lang.key = "lang";
    lang.strings = {"fr"};
    FilterClause range;
    range.key = "year";
    range.kind = FilterClause::Kind::kRange;
    range.lo = 2005;
    range.hi = 2010;
    range.hi_open = true;
    FilterClause tag;
    tag.key = "tag";
    tag.strings = {"t1", "t3"};
    o.filter = {lang, range};
    auto hits = idx.search(term, o).value();
    const std::size_t expect = count_matching(term, [&](const Document& d) {
      return has(d, "lang", "fr") && year(d) >= 2005 && year(d) < 2010;
    });
    INFO("term " << term);
    CHECK(hits.size() == std::min<std::size_t>(20, expect));
    for (const auto& h : hits) {
      CHECK(has(docs[h.id], "lang", "fr"));
      CHECK(year(docs[h.id]) >= 2005);
      CHECK(year(docs[h.id]) < 2010);
    }
    o.filter = {tag};
    hits = idx.search(term, o).value();
    CHECK(hits.size() == std::min<std::size_t>(20, count_matching(term, [&](const Document& d) {
                          return has(d, "tag", "t1") || has(d, "tag", "t3");
                        })));
    FilterClause unknown;
    unknown.key = "nosuchkey";
    unknown.strings = {"x"};
    o.filter = {unknown};
    CHECK(idx.search(term, o).value().empty());
  }
}

TEST_CASE("statistics stay exact after every add update and delete", "[prop]") {
  Gen g(11);
  auto idx = Bm25Index::create(plain_options()).value();
  std::map<std::string, std::vector<std::string>> model;  // id -> tokens of both fields
  for (int step = 0; step < 600; ++step) {
    const int op = static_cast<int>(g.rng() % 10);
    const std::string id = "d" + std::to_string(g.rng() % 120);
    if (op < 6) {
      Document d = g.doc(id);
      const bool existed = model.count(id) != 0;
      auto st = idx.add(d);
      if (existed) {
        REQUIRE(!st.ok());
        REQUIRE(st.error().code == ErrorCode::kDuplicateId);
      } else {
        REQUIRE(st.ok());
        model[id] = idx.analyze(d.fields[0] + " " + d.fields[1]);
      }
    } else if (op < 8) {
      Document d = g.doc(id);
      REQUIRE(idx.upsert(d).ok());
      model[id] = idx.analyze(d.fields[0] + " " + d.fields[1]);
    } else {
      auto st = idx.remove(id);
      REQUIRE(st.ok() == (model.count(id) != 0));
      if (!st.ok()) REQUIRE(st.error().code == ErrorCode::kNotFound);
      model.erase(id);
    }
    if (step % 50 == 49) idx.compact();
    const auto s = idx.stats();
    REQUIRE(s.documents == model.size());
    double total = 0;
    std::map<std::string, std::size_t> df;
    for (const auto& [k, toks] : model) {
      total += static_cast<double>(toks.size());
      for (const auto& t : std::set<std::string>(toks.begin(), toks.end())) ++df[t];
    }
    REQUIRE(s.avg_length == Approx(model.empty() ? 0.0 : total / static_cast<double>(model.size())).epsilon(1e-12));
    for (int w = 0; w < 40; w += 3) {
      const std::string t = "w" + std::to_string(w);
      REQUIRE(idx.document_frequency(t) == df[t]);
    }
  }
}

TEST_CASE("random-order incremental building equals batch building scores included", "[prop]") {
  for (std::uint32_t seed = 100; seed < 106; ++seed) {
    Gen g(seed);
    std::vector<Document> docs;
    for (int i = 0; i < 250; ++i) docs.push_back(g.doc("doc" + std::to_string(i)));
    auto batch = Bm25Index::create(plain_options()).value();
    for (const auto& d : docs) REQUIRE(batch.add(d).ok());

    auto inc = Bm25Index::create(plain_options()).value();
    std::vector<std::size_t> order(docs.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::shuffle(order.begin(), order.end(), g.rng);
    for (std::size_t i = 0; i < order.size(); ++i) {
      const Document& d = docs[order[i]];
      if (i % 5 == 0) {  // first a different version, replaced later
        REQUIRE(inc.add(g.doc(d.id)).ok());
      } else {
        REQUIRE(inc.add(d).ok());
      }
      if (i % 7 == 0) REQUIRE(inc.add(g.doc("temp" + std::to_string(i))).ok());
    }
    for (std::size_t i = 0; i < order.size(); i += 5) REQUIRE(inc.upsert(docs[order[i]]).ok());
    for (std::size_t i = 0; i < order.size(); i += 7) REQUIRE(inc.remove("temp" + std::to_string(i)).ok());
    for (int pass = 0; pass < 2; ++pass) {
      for (int qi = 0; qi < 40; ++qi) {
        const std::string q = g.text(5, 45);
        SearchOptions o;
        o.k = 15;
        auto a = inc.search(q, o).value();
        auto b = batch.search(q, o).value();
        REQUIRE(a.size() == b.size());
        for (std::size_t i = 0; i < a.size(); ++i) {
          REQUIRE(a[i].id == b[i].id);
          REQUIRE(a[i].score == b[i].score);  // exact: statistics are integers, summation order fixed
        }
      }
      inc.compact();
      REQUIRE(inc.stats().deleted == 0);
    }
  }
}

TEST_CASE("save and load round-trip to equal results and identical bytes", "[unit]") {
  Gen g(3);
  IndexOptions o;
  o.fields = {{"title", 2.0}, {"body", 1.0}};
  o.scoring.scorer = Scorer::kBm25Plus;
  o.scoring.k1 = 1.2;
  o.analyzer.stopwords = {"w1"};
  auto idx = Bm25Index::create(o).value();
  for (int i = 0; i < 200; ++i) REQUIRE(idx.add(g.doc("id" + std::to_string(i))).ok());
  REQUIRE(idx.remove("id7").ok());
  const std::string bytes = idx.save();
  auto loaded = Bm25Index::load(bytes);
  REQUIRE(loaded.ok());
  Bm25Index& l = loaded.value();
  CHECK(l.save() == bytes);
  CHECK(l.stats().documents == 199);
  CHECK(l.options().fields[0].name == "title");
  CHECK(l.options().scoring.k1 == 1.2);
  CHECK(l.options().analyzer.stopwords == std::vector<std::string>{"w1"});
  for (int qi = 0; qi < 30; ++qi) {
    const std::string q = g.text(5, 45);
    SearchOptions so;
    so.k = 10;
    FilterClause c;
    c.key = "year";
    c.kind = FilterClause::Kind::kRange;
    c.lo = 2003;
    if (qi % 2) so.filter = {c};
    require_same(l.search(q, so).value(), idx.search(q, so).value());
  }
  // the loaded index keeps working: updates
  REQUIRE(l.add(g.doc("new")).ok());
  CHECK(l.contains("new"));
}

TEST_CASE("ten thousand seeded corruptions of a saved index fail cleanly", "[fuzz]") {
  Gen g(9);
  auto idx = Bm25Index::create(plain_options()).value();
  for (int i = 0; i < 40; ++i) REQUIRE(idx.add(g.doc("k" + std::to_string(i))).ok());
  const std::string good = idx.save();
  std::mt19937 rng(20261121);
  std::size_t corrupt = 0, version = 0;
  for (int i = 0; i < 10000; ++i) {
    std::string b = good;
    const int kind = i % 4;
    if (kind == 0) {
      b.resize(rng() % b.size());  // truncation
    } else if (kind == 1) {
      const int flips = 1 + static_cast<int>(rng() % 3);
      for (int f = 0; f < flips; ++f) b[rng() % b.size()] ^= static_cast<char>(1u << (rng() % 8));
      if (b == good) b[b.size() / 2] ^= 4;  // two flips of the same bit cancelled out
    } else if (kind == 2) {
      b[rng() % b.size()] = static_cast<char>(rng());
      if (b == good) b[0] ^= 1;
    } else {
      const std::uint32_t v = 3 + rng() % 1000;  // this build reads versions 1 and 2
      for (int k = 0; k < 4; ++k) b[8 + k] = static_cast<char>((v >> (8 * k)) & 0xFF);
    }
    auto r = Bm25Index::load(b);
    INFO("mutation " << i << " kind " << kind);
    REQUIRE_FALSE(r.ok());
    const ErrorCode code = r.error().code;
    REQUIRE((code == ErrorCode::kCorruptIndex || code == ErrorCode::kUnsupportedVersion));
    if (code == ErrorCode::kCorruptIndex) ++corrupt;
    else ++version;
    if (kind == 3) REQUIRE(code == ErrorCode::kUnsupportedVersion);
  }
  CHECK(corrupt > 7000);
  CHECK(version >= 2500);
}

TEST_CASE("corrupt bytes with a repaired checksum never crash the loader", "[fuzz]") {
  // Deep validation: mutate the body, then recompute the trailing XXH64 so only the structural
  // checks can reject it. Loading either fails with CORRUPT_INDEX or yields a usable index.
  Gen g(13);
  auto idx = Bm25Index::create(plain_options()).value();
  for (int i = 0; i < 30; ++i) REQUIRE(idx.add(g.doc("k" + std::to_string(i))).ok());
  const std::string good = idx.save();
  std::mt19937 rng(7);
  std::size_t rejected = 0;
  for (int i = 0; i < 3000; ++i) {
    std::string b = good.substr(0, good.size() - 8);
    const std::size_t pos = 16 + rng() % (b.size() - 16);
    b[pos] = static_cast<char>(rng());
    if (i % 5 == 0) b.resize(16 + rng() % (b.size() - 16));
    const std::uint64_t h = ragwasm::xxh64(b);
    for (int k = 0; k < 8; ++k) b.push_back(static_cast<char>((h >> (8 * k)) & 0xFF));
    auto r = Bm25Index::load(b);
    if (!r.ok()) {
      REQUIRE(r.error().code == ErrorCode::kCorruptIndex);
      ++rejected;
    } else {
      auto hits = r.value().search("w1 w2 w3", {});
      REQUIRE(hits.ok());
    }
  }
  CHECK(rejected > 1000);
}

TEST_CASE("a saved term delta that wraps around to a repeated term is rejected as corrupt", "[unit]") {
  // Hand-crafted documents section with a valid checksum: term deltas 1 1 then 2^64-1, which wraps
  // the running term id from 2 back to 1 (a duplicate term). Loading must say CORRUPT_INDEX rather
  // than build postings with the same document twice.
  auto idx = Bm25Index::create(plain_options()).value();
  REQUIRE(idx.add(Document{"a", {"x y z"}, {}}).ok());
  const std::string good = idx.save();
  auto u32_at = [&](std::size_t at) {
    std::uint32_t v = 0;
    for (int k = 0; k < 4; ++k) v |= static_cast<std::uint32_t>(static_cast<std::uint8_t>(good[at + k])) << (8 * k);
    return v;
  };
  auto u64_at = [&](std::size_t at) {
    std::uint64_t v = 0;
    for (int k = 0; k < 8; ++k) v |= static_cast<std::uint64_t>(static_cast<std::uint8_t>(good[at + k])) << (8 * k);
    return v;
  };
  std::size_t pos = 16, docs_header = 0;
  for (int i = 0; i < 4; ++i) {
    if (u32_at(pos) == 4) docs_header = pos;
    pos += 12 + static_cast<std::size_t>(u64_at(pos + 4));
  }
  REQUIRE(docs_header != 0);
  REQUIRE(pos == good.size() - 8);
  REQUIRE(docs_header + 12 + u64_at(docs_header + 4) == pos);  // the documents section is the last one
  auto craft = [&](std::initializer_list<std::uint64_t> deltas) {
    std::string docs;
    auto varint = [&](std::uint64_t v) {
      while (v >= 0x80) {
        docs.push_back(static_cast<char>((v & 0x7F) | 0x80));
        v >>= 7;
      }
      docs.push_back(static_cast<char>(v));
  };
  varint(1);  // one document
  varint(1);
  docs += "a";
  const std::size_t nf = idx.options().fields.size();  // the text went to the first field
  for (std::size_t f = 0; f < nf; ++f) varint(f == 0 ? 3 : 0);  // field lengths
  varint(3);                                                     // three term entries
  for (std::uint64_t d : deltas) {
    varint(d);
    for (std::size_t f = 0; f < nf; ++f) varint(f == 0 ? 1 : 0);  // tf per field
  }
  varint(0);  // no metadata
  std::string b = good.substr(0, docs_header + 4);
  for (int k = 0; k < 8; ++k) b.push_back(static_cast<char>((std::uint64_t{docs.size()} >> (8 * k)) & 0xFF));
  b += docs;
  const std::uint64_t h = ragwasm::xxh64(b);
  for (int k = 0; k < 8; ++k) b.push_back(static_cast<char>((h >> (8 * k)) & 0xFF));
  return b;
  };
  // control: the same hand-built section with deltas 0 1 1 (terms x y z) loads and finds the document
  auto fine = Bm25Index::load(craft({0, 1, 1}));
  REQUIRE(fine.ok());
  REQUIRE(fine.value().search("y", {}).value().at(0).id == "a");
  const std::string b = craft({1, 1, ~std::uint64_t{0}});
  auto r = Bm25Index::load(b);
  REQUIRE_FALSE(r.ok());
  INFO(r.error().message);
  CHECK(r.error().message.find("term order") != std::string::npos);
  REQUIRE(r.error().code == ErrorCode::kCorruptIndex);
}

TEST_CASE("bad arguments give errors and the index stays usable", "[unit]") {
  IndexOptions bad = plain_options();
  bad.scoring.b = 1.5;
  REQUIRE(Bm25Index::create(bad).error().code == ErrorCode::kInvalidArgument);
  bad = plain_options();
  bad.fields = {};
  REQUIRE(Bm25Index::create(bad).error().code == ErrorCode::kInvalidArgument);
  bad = plain_options();
  bad.fields = {{"a", 1}, {"a", 2}};
  REQUIRE_FALSE(Bm25Index::create(bad).ok());

  auto idx = Bm25Index::create(plain_options()).value();
  REQUIRE(idx.add(Document{"", {"x"}, {}}).error().code == ErrorCode::kInvalidArgument);
  REQUIRE(idx.add(Document{"a", {"x", "y", "z"}, {}}).error().code == ErrorCode::kInvalidArgument);
  REQUIRE(idx.add(Document{"a", {"x"}, {MetaValue{"n", true, "", std::nan("")}}}).error().code == ErrorCode::kInvalidArgument);
  REQUIRE(idx.add(Document{"a", {"hello"}, {}}).ok());
  // a rejected upsert leaves the old version in place
  REQUIRE_FALSE(idx.upsert(Document{"a", {"x", "y", "z"}, {}}).ok());
  REQUIRE(idx.search("hello", {}).value().size() == 1);
  SearchOptions so;
  // k: the rule of every search entry point (check_search_k, common/limits.h), one message
  for (const std::size_t k : {std::size_t{0}, std::size_t{100001}, std::size_t{2000000}}) {
    so.k = k;
    const std::string want = "ragwasm: k: expected an integer in [1, 100000], got " + std::to_string(k);
    REQUIRE(idx.search("hello", so).error().code == ErrorCode::kInvalidArgument);
    REQUIRE(idx.search("hello", so).error().message == want);
    REQUIRE(idx.search_terms({WeightedTerm{"hello", 1}}, so).error().message == want);
  }
  so.k = 100000;
  REQUIRE(idx.search("hello", so).value().size() == 1);
  REQUIRE(parse_search_options(R"({"k": 0})").error().message.find("search options.k: expected an integer in [1, 100000], got 0") != std::string::npos);
  REQUIRE(parse_search_options(R"({"k": 100000})").value().k == 100000);
  REQUIRE(idx.search_terms({WeightedTerm{"hello", -1}}, {}).error().code == ErrorCode::kInvalidArgument);
  REQUIRE(idx.remove("zzz").error().code == ErrorCode::kNotFound);
  REQUIRE(idx.search("hello", {}).value().at(0).id == "a");
  REQUIRE(Bm25Index::load("garbage").error().code == ErrorCode::kCorruptIndex);
}

TEST_CASE("rm3 expansion keeps the original terms and adds weighted feedback terms", "[unit]") {
  auto idx = Bm25Index::create(plain_options()).value();
  for (int i = 0; i < 30; ++i) REQUIRE(idx.add(Document{"n" + std::to_string(i), {"", "noise filler" + std::to_string(i)}, {}}).ok());
  REQUIRE(idx.add(Document{"a", {"", "apple orchard harvest"}, {}}).ok());
  REQUIRE(idx.add(Document{"b", {"", "apple orchard cider"}, {}}).ok());
  REQUIRE(idx.add(Document{"c", {"", "orchard cider press"}, {}}).ok());
  SearchOptions o;
  o.rm3.enabled = true;
  o.rm3.fb_docs = 2;
  o.rm3.fb_terms = 3;
  auto q = idx.expand_query("apple", o).value();
  REQUIRE(q.size() >= 2);
  CHECK(q[0].term == "apple");
  double sum = 0;
  for (const auto& t : q) sum += t.weight;
  CHECK(sum == Approx(1.0).epsilon(1e-12));
  // "c" has no "apple" but shares expansion terms: RM3 retrieves it
  auto hits = idx.search("apple", o).value();
  std::set<std::string> ids;
  for (const auto& h : hits) ids.insert(h.id);
  CHECK(ids.count("c") == 1);
  CHECK(idx.search("apple", {}).value().size() == 2);
}

TEST_CASE("remove_many removes nothing when an id is unknown unless told to skip unknown ids", "[unit]") {
  auto idx = Bm25Index::create(plain_options()).value();
  for (const char* id : {"a", "b", "c"}) {
    Document d;
    d.id = id;
    d.fields = {std::string("text of ") + id};
    REQUIRE(idx.add(d).ok());
  }
  auto strict = idx.remove_many({"a", "zzz", "b"}, false);
  REQUIRE_FALSE(strict.ok());
  CHECK(strict.error().code == ErrorCode::kNotFound);
  CHECK(strict.error().message.find("'zzz'") != std::string::npos);
  CHECK((idx.contains("a") && idx.contains("b") && idx.contains("c")));  // nothing removed
  auto lenient = idx.remove_many({"a", "zzz", "b", "a"}, true);
  REQUIRE(lenient.ok());
  CHECK(lenient.value() == 2);  // "a" listed twice is removed once; "zzz" skipped
  CHECK_FALSE(idx.contains("a"));
  CHECK_FALSE(idx.contains("b"));
  CHECK(idx.contains("c"));
  CHECK(idx.remove_many({"c"}, false).value() == 1);
  CHECK(idx.stats().documents == 0);
}
