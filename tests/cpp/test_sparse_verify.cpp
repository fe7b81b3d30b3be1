// src/sparse/index_verify.cpp: Bm25Index::find_term_mismatch compares stored texts with the terms the
// index holds for their ids (#30 F-2): the texts it was built from match; a text replaced by another
// of the same length, two ids' texts exchanged, a missing id with text, or a term the dictionary
// lacks are each the first differing item, with its analyzed and held term counts.
#include <catch2/catch.hpp>

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "sparse/index.h"

using namespace ragwasm::sparse;

namespace {

// title, text per id
const std::vector<std::vector<std::string>> kDocs = {
    {"a", "Fruit", "apples and pears grow here"},
    {"b", "", "zebra stripes run fast now"},
    {"c", "Quiet", "a third, quiet document about COVID-19 and the zebra"},
    {"d", "", ""},  // indexed with no terms
};

Bm25Index build() {
  IndexOptions o;
  o.fields = {{"title", 2.0}, {"text", 1.0}};
  auto index = Bm25Index::create(o);
  REQUIRE(index.ok());
  for (const auto& d : kDocs) {
    Document doc;
    doc.id = d[0];
    doc.fields = {d[1], d[2]};
    REQUIRE(index.value().add(doc).ok());
  }
  return std::move(index).value();
}

// kDocs as items of (id, text, title): field order need not be the index's
std::vector<std::string> items(std::vector<std::vector<std::string>> docs) {
  std::vector<std::string> out;
  for (const auto& d : docs) out.insert(out.end(), {d[0], d[2], d[1]});
  return out;
}

std::optional<TermMismatch> check(const Bm25Index& index, const std::vector<std::string>& s) {
  return index.find_term_mismatch(std::vector<std::string_view>(s.begin(), s.end()), 2);
}

// distinct terms of a document's texts by the index's string analyzer (the oracle for the counts)
std::size_t distinct(const Bm25Index& index, const std::vector<std::string>& d) {
  std::set<std::string> t;
  for (std::size_t f = 1; f < d.size(); ++f)
    for (auto& w : index.analyze(d[f])) t.insert(w);
  return t.size();
}

}  // namespace

TEST_CASE("find_term_mismatch: the texts an index was built from match", "[unit]") {
  const Bm25Index index = build();
  CHECK_FALSE(check(index, items(kDocs)).has_value());
  // an id the index does not hold matches only with no terms
  auto extra = kDocs;
  extra.push_back({"zz", "", "the a and"});  // stopwords only
  CHECK_FALSE(check(index, items(extra)).has_value());
  CHECK_FALSE(index.find_term_mismatch({}, 2).has_value());
}

TEST_CASE("find_term_mismatch: a same-length substitution is the first differing item", "[unit]") {
  const Bm25Index index = build();
  auto docs = kDocs;
  docs[0][2] = "zebras and bears grow here";  // same length, 4 terms as before
  const auto m = check(index, items(docs));
  REQUIRE(m.has_value());
  CHECK(m->item == 0);
  CHECK(m->analyzed == 5);  // fruit, zebra, bear, grow, here
  CHECK(m->held == 5);      // fruit, appl, pear, grow, here
}

TEST_CASE("find_term_mismatch: two ids' texts exchanged, or text for an id not indexed", "[unit]") {
  const Bm25Index index = build();
  auto swapped = kDocs;
  std::swap(swapped[0][0], swapped[1][0]);  // ids a and b exchanged
  auto m = check(index, items(swapped));
  REQUIRE(m.has_value());
  CHECK(m->item == 0);
  CHECK(m->analyzed == distinct(index, kDocs[0]));  // fruit, appl, pear, grow, here
  CHECK(m->held == distinct(index, kDocs[1]));      // zebra, stripe, run, fast, now
  CHECK(m->analyzed == 5);
  CHECK(m->held == 5);
  auto missing = kDocs;
  missing.push_back({"zz", "", "apples"});
  m = check(index, items(missing));
  REQUIRE(m.has_value());
  CHECK(m->item == 4);
  CHECK(m->analyzed == 1);
  CHECK(m->held == 0);
  auto emptied = kDocs;
  emptied[2][1] = "";
  emptied[2][2] = "";
  m = check(index, items(emptied));
  REQUIRE(m.has_value());
  CHECK(m->item == 2);
  CHECK(m->analyzed == 0);
  CHECK(m->held == distinct(index, kDocs[2]));
  CHECK(m->held >= 6);
}
