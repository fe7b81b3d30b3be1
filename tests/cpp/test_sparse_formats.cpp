// The saved Bm25Index across versions: files written by v1 (FNV-1a seal) still load and answer as
// when saved; the current writer uses the one container (v2, XXH64) and passes the corruption suite.
#include <catch2/catch.hpp>

#include <set>
#include <string>
#include <vector>

#include "common/container.h"
#include "format_fixtures.h"
#include "format_suite.h"
#include "sparse/index.h"

using namespace ragwasm::sparse;
using ragwasm::ErrorCode;
using ragwasm::Status;
using ragwasm::testing::fixture_expected;
using ragwasm::testing::read_fixture;

namespace {

// Runs every query of expected.json; ids must match exactly, scores to 1e-12 relative (the same
// double arithmetic in the same order; the margin only absorbs compiler flag differences).
void check_answers(Bm25Index& ix, const nlohmann::json& expected) {
  for (const auto& q : expected) {
    SearchOptions o;
    o.k = 5;
    if (q.contains("filter_group")) {
      FilterClause f;
      f.key = "group";
      f.strings = {q["filter_group"].get<std::string>()};
      o.filter = {f};
    }
    const auto hits = ix.search(q["query"].get<std::string>(), o);
    REQUIRE(hits.ok());
    INFO("query " << q["query"]);
    REQUIRE(hits.value().size() == q["hits"].size());
    for (std::size_t i = 0; i < hits.value().size(); ++i) {
      CHECK(hits.value()[i].id == q["hits"][i]["id"].get<std::string>());
      CHECK(hits.value()[i].score == Approx(q["hits"][i]["score"].get<double>()).epsilon(1e-12));
    }
  }
}

Status load_status(const std::string& b) {
  auto r = Bm25Index::load(b);
  if (!r.ok()) return r.error();
  return Status::success();
}

}  // namespace

TEST_CASE("a BM25 index saved by format v1 loads and answers as when it was saved", "[unit]") {
  const std::string v1 = read_fixture("v1", "bm25.bin");
  REQUIRE(ragwasm::testing::u32_at(v1, 8) == 1);
  auto ix = Bm25Index::load(v1);
  REQUIRE(ix.ok());
  CHECK_FALSE(ix.value().contains("honey"));  // removed before saving
  check_answers(ix.value(), fixture_expected("v1")["bm25"]);
}

TEST_CASE("a v1 BM25 index saved again is written as the current container and answers the same", "[unit]") {
  auto ix = Bm25Index::load(read_fixture("v1", "bm25.bin")).value();
  const std::string again = ix.save();
  REQUIRE(again.substr(0, 8) == "RWSPARSE");
  REQUIRE(ragwasm::testing::u32_at(again, 8) == 2);
  auto reloaded = Bm25Index::load(again);
  REQUIRE(reloaded.ok());
  check_answers(reloaded.value(), fixture_expected("v1")["bm25"]);
  REQUIRE(reloaded.value().save() == again);
}

TEST_CASE("a damaged v1 BM25 index is refused by its own checksum", "[unit]") {
  ragwasm::testing::expect_flips_corrupt(read_fixture("v1", "bm25.bin"), 16, 7, 0x10, load_status);
}

TEST_CASE("the saved BM25 index passes the container corruption suite", "[fuzz]") {
  auto ix = Bm25Index::load(read_fixture("v1", "bm25.bin")).value();
  const std::string good = ix.save();
  const std::size_t tried = ragwasm::testing::run_corruption_suite(good, 2, load_status);
  CHECK(tried > 600);
}

TEST_CASE("a resealed BM25 document count larger than the documents is rejected", "[unit]") {
  // The documents section starts with varint(live documents) = 7 (one byte): claim 8 instead.
  auto ix = Bm25Index::load(read_fixture("v1", "bm25.bin")).value();
  const std::string good = ix.save();
  for (const auto& s : ragwasm::testing::sections_of(good)) {
    if (s.tag != 4) continue;
    REQUIRE(static_cast<std::uint8_t>(good[s.payload]) == 7);
    std::string b = good;
    b[s.payload] = 8;
    const auto r = Bm25Index::load(ragwasm::testing::reseal(b));
    REQUIRE_FALSE(r.ok());
    REQUIRE(r.error().code == ErrorCode::kCorruptIndex);
  }
}

namespace {
// Bm25Index::check's verdict, in load()'s terms: the same error, and on success the same fields and
// document count as the loaded index; ids (in saved order) collected for the duplicate-id check, the
// one check left to check()'s caller.
struct CheckVerdict {
  Status status = Status::success();
  SavedIndexSummary summary;
  std::vector<std::string> ids;
};
CheckVerdict check_of(const std::string& b) {
  CheckVerdict v;
  auto r = Bm25Index::check(b, [&](std::string_view id) { v.ids.emplace_back(id); });
  if (!r.ok()) v.status = r.error();
  else v.summary = r.value();
  return v;
}
}  // namespace

TEST_CASE("Bm25Index::check gives load()'s verdict on every resealed one-byte edit, without building the index", "[unit]") {
  auto ix = Bm25Index::load(read_fixture("v1", "bm25.bin")).value();
  const std::string good = ix.save();
  {
    const CheckVerdict v = check_of(good);
    REQUIRE(v.status.ok());
    CHECK(v.summary.documents == 7);
    CHECK(v.summary.fields == std::vector<std::string>{ix.options().fields[0].name, ix.options().fields[1].name});
    CHECK(v.ids == ix.ids());  // every saved id, in saved order
  }
  std::size_t tried = 0, refused = 0, duplicates = 0;
  for (const auto& s : ragwasm::testing::sections_of(good)) {
    for (std::size_t at = s.payload; at < s.payload + s.length; ++at) {
      for (const std::uint8_t x : {0x01, 0x80, 0xFF}) {
        std::string b = good;
        b[at] = static_cast<char>(static_cast<std::uint8_t>(b[at]) ^ x);
        b = ragwasm::testing::reseal(b);
        const auto loaded = Bm25Index::load(b);
        const CheckVerdict v = check_of(b);
        ++tried;
        if (!loaded.ok() && v.status.ok()) {
          // only a duplicate id may pass check(): its caller sees it in the ids
          REQUIRE(loaded.error().message.find("documents: id") != std::string::npos);
          const std::set<std::string> unique(v.ids.begin(), v.ids.end());
          REQUIRE(unique.size() < v.ids.size());
          ++duplicates;
          continue;
        }
        REQUIRE(loaded.ok() == v.status.ok());
        if (!loaded.ok()) {
          ++refused;
          REQUIRE(v.status.error().code == loaded.error().code);
          REQUIRE(v.status.error().message == loaded.error().message);
          continue;
        }
        REQUIRE(v.summary.documents == loaded.value().ids().size());
        REQUIRE(v.ids == loaded.value().ids());
        std::vector<std::string> names;
        for (const auto& f : loaded.value().options().fields) names.push_back(f.name);
        REQUIRE(v.summary.fields == names);
      }
    }
  }
  CHECK(tried > 1000);
  CHECK(refused > 100);  // the edits do reach the checks
  INFO(duplicates);
}

TEST_CASE("Bm25Index::check passes the container corruption suite", "[fuzz]") {
  auto ix = Bm25Index::load(read_fixture("v1", "bm25.bin")).value();
  const std::string good = ix.save();
  const std::size_t tried = ragwasm::testing::run_corruption_suite(good, 2, [](const std::string& b) { return check_of(b).status; });
  CHECK(tried > 600);
}
