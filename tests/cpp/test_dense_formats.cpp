// Saved vector indexes across versions: v1 files ("RWDV", padded rows, CRC-32) of every kind still
// load and answer as when saved; the current writer (the one container, unpadded rows) passes the
// corruption suite, and a header dimension that disagrees with the stored rows is corrupt (issue #19).
#include <catch2/catch.hpp>

#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "common/checksum.h"
#include "dense/vector_index.h"
#include "format_fixtures.h"
#include "format_suite.h"

using namespace ragwasm::dense;
using ragwasm::ErrorCode;
using ragwasm::Status;
using ragwasm::testing::fixture_expected;
using ragwasm::testing::read_fixture;

namespace {

const char* kKinds[] = {"f32", "int8", "binary", "hnsw"};

std::string as_string(const std::vector<std::uint8_t>& b) { return std::string(b.begin(), b.end()); }

// Scores to 1e-6 relative: the same float kernels, the margin only absorbs flag differences.
void check_answers(const VectorIndex& ix, const nlohmann::json& e) {
  const std::vector<float> q = e["query"].get<std::vector<float>>();
  SearchOptions so;
  so.k = 5;
  const auto hits = ix.search(q.data(), q.size(), so);
  REQUIRE(hits.ok());
  REQUIRE(hits.value().size() == e["hits"].size());
  for (std::size_t i = 0; i < hits.value().size(); ++i) {
    CHECK(ix.id(hits.value()[i].slot) == e["hits"][i]["id"].get<std::string>());
    CHECK(hits.value()[i].score == Approx(e["hits"][i]["score"].get<double>()).epsilon(1e-6));
  }
}

Status load_status(const std::string& b) {
  auto r = VectorIndex::load(b);
  if (!r.ok()) return r.error();
  return Status::success();
}

}  // namespace

TEST_CASE("vector indexes saved by format v1 load and answer as when they were saved", "[unit]") {
  const auto expected = fixture_expected("v1")["vectors"];
  for (const char* kind : kKinds) {
    INFO("kind " << kind);
    const std::string v1 = read_fixture("v1", std::string("vectors-") + kind + ".bin");
    REQUIRE(v1.substr(0, 4) == "RWDV");
    auto ix = VectorIndex::load(v1);
    REQUIRE(ix.ok());
    CHECK(ix.value().size() == 11);  // 12 added, v3 removed
    check_answers(ix.value(), expected[kind]);
    // saved again: the current container, which answers the same and round trips byte for byte
    const std::string again = as_string(ix.value().save());
    REQUIRE(again.substr(0, 8) == "RWVECTOR");
    auto reloaded = VectorIndex::load(again);
    REQUIRE(reloaded.ok());
    check_answers(reloaded.value(), expected[kind]);
    REQUIRE(as_string(reloaded.value().save()) == again);
  }
}

TEST_CASE("every saved vector index kind passes the container corruption suite", "[fuzz]") {
  for (const char* kind : kKinds) {
    INFO("kind " << kind);
    auto ix = VectorIndex::load(read_fixture("v1", std::string("vectors-") + kind + ".bin")).value();
    CHECK(ragwasm::testing::run_corruption_suite(as_string(ix.save()), VectorIndex::kFormatVersion, load_status) > 600);
  }
}

TEST_CASE("a resealed header dimension that disagrees with the stored rows is corrupt", "[unit]") {
  // Issue #19: dimension 8 edited to 16 (both pad to the same SIMD stride) and resealed used to
  // load, and 16-d queries were scored against zero padding.
  for (const char* kind : kKinds) {
    INFO("kind " << kind);
    auto ix = VectorIndex::load(read_fixture("v1", std::string("vectors-") + kind + ".bin")).value();
    const std::string good = as_string(ix.save());
    for (const auto& s : ragwasm::testing::sections_of(good)) {
      if (s.tag != 12) continue;  // the header section: u8 x4, then u32 dimension
      REQUIRE(ragwasm::testing::u32_at(good, s.payload + 4) == 8);
      for (std::uint32_t dim : {16u, 7u, 9u, 4u}) {
        std::string b = good;
        ragwasm::testing::put_u32_at(b, s.payload + 4, dim);
        const auto r = VectorIndex::load(ragwasm::testing::reseal(b));
        INFO("dimension " << dim);
        REQUIRE_FALSE(r.ok());
        REQUIRE(r.error().code == ErrorCode::kCorruptIndex);
      }
      // the vector count too: one more or one fewer than the rows stored
      const std::uint64_t slots = ragwasm::testing::u64_at(good, s.payload + 8);  // 11 flat, 12 HNSW (tombstone)
      for (std::uint64_t count : {slots - 1, slots + 1}) {
        std::string b = good;
        ragwasm::testing::put_u64_at(b, s.payload + 8, count);
        const auto r = VectorIndex::load(ragwasm::testing::reseal(b));
        REQUIRE_FALSE(r.ok());
        REQUIRE(r.error().code == ErrorCode::kCorruptIndex);
      }
    }
  }
}

TEST_CASE("a damaged v1 vector index is refused by its CRC-32", "[unit]") {
  const std::string v1 = read_fixture("v1", "vectors-hnsw.bin");
  ragwasm::testing::expect_flips_corrupt(v1, 12, 5, 0x04, load_status);
  std::string future = v1;
  future[4] = 2;  // the "RWDV" layout never had a version 2
  const std::uint32_t crc = ragwasm::crc32(reinterpret_cast<const std::uint8_t*>(future.data()), future.size() - 4);
  std::memcpy(&future[future.size() - 4], &crc, 4);
  REQUIRE(VectorIndex::load(future).error().code == ErrorCode::kUnsupportedVersion);
}

namespace {
// VectorIndex::check's verdict: the error, or the summary and the live ids (in slot order), the ids
// being what its caller checks for duplicates (the one check left to it).
struct CheckVerdict {
  Status status = Status::success();
  VectorIndex::SavedSummary summary;
  std::vector<std::string> ids;
};
CheckVerdict check_of(const std::string& b) {
  CheckVerdict v;
  auto r = VectorIndex::check(b, [&](std::string_view id) { v.ids.emplace_back(id); });
  if (!r.ok()) v.status = r.error();
  else v.summary = r.value();
  return v;
}
std::vector<std::string> live_ids(const VectorIndex& ix) {
  std::vector<std::string> out;
  for (std::uint32_t s : ix.live_slots()) out.push_back(ix.id(s));
  return out;
}
}  // namespace

TEST_CASE("VectorIndex::check gives load()'s verdict on every kind, v1 and v2, and on resealed one-byte edits", "[unit]") {
  std::size_t tried = 0, refused = 0;
  for (const char* kind : kKinds) {
    INFO(kind);
    const std::string v1 = read_fixture("v1", std::string("vectors-") + kind + ".bin");
    auto ix = VectorIndex::load(v1).value();
    const std::string good = as_string(ix.save());
    for (const std::string& b : {v1, good}) {
      const CheckVerdict v = check_of(b);
      REQUIRE(v.status.ok());
      CHECK(v.summary.dimension == ix.options().dimension);
      CHECK(v.summary.live == ix.size());
      CHECK(v.ids == live_ids(ix));
    }
    for (const auto& s : ragwasm::testing::sections_of(good)) {
      for (std::size_t at = s.payload; at < s.payload + s.length; ++at) {
        for (const std::uint8_t x : {0x01, 0x80}) {
          std::string b = good;
          b[at] = static_cast<char>(static_cast<std::uint8_t>(b[at]) ^ x);
          b = ragwasm::testing::reseal(b);
          const auto loaded = VectorIndex::load(b);
          const CheckVerdict v = check_of(b);
          ++tried;
          if (!loaded.ok() && v.status.ok()) {
            REQUIRE(loaded.error().message.find("duplicate id") != std::string::npos);
            REQUIRE(std::set<std::string>(v.ids.begin(), v.ids.end()).size() < v.ids.size());
            continue;
          }
          REQUIRE(loaded.ok() == v.status.ok());
          if (!loaded.ok()) {
            ++refused;
            REQUIRE(v.status.error().message == loaded.error().message);
            continue;
          }
          REQUIRE(v.summary.dimension == loaded.value().options().dimension);
          REQUIRE(v.summary.live == loaded.value().size());
          REQUIRE(v.ids == live_ids(loaded.value()));
        }
      }
    }
  }
  CHECK(tried > 1000);
  CHECK(refused > 100);
}

TEST_CASE("VectorIndex::check passes the container corruption suite", "[fuzz]") {
  for (const char* kind : kKinds) {
    auto ix = VectorIndex::load(read_fixture("v1", std::string("vectors-") + kind + ".bin")).value();
    CHECK(ragwasm::testing::run_corruption_suite(as_string(ix.save()), VectorIndex::kFormatVersion,
                                                 [](const std::string& b) { return check_of(b).status; }) > 600);
  }
}
