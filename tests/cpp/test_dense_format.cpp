// src/dense save/load: round trips for every storage and metric, and corrupt input (truncation, seeded
// bit flips, other versions, structurally bad files with a valid checksum) rejected, never trusted.
#include <catch2/catch.hpp>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "common/checksum.h"
#include "dense/vector_index.h"
#include "dense_fixtures.h"

using namespace ragwasm;
using namespace ragwasm::dense;
using ragwasm::testing::make_ids;
using ragwasm::testing::random_vectors;

namespace {

std::string_view view(const std::vector<std::uint8_t>& b) {
  return std::string_view(reinterpret_cast<const char*>(b.data()), b.size());
}

VectorIndex sample(IndexKind kind, Storage storage, Metric metric, std::size_t n = 40, std::uint32_t dim = 19) {
  IndexOptions o;
  o.dimension = dim;
  o.kind = kind;
  o.storage = storage;
  o.metric = metric;
  o.hnsw.m = 6;
  o.hnsw.ef_construction = 30;
  auto ix = VectorIndex::create(o).value();
  auto data = random_vectors(n, dim, 3);
  std::vector<std::string> ids;
  for (std::size_t i = 0; i < n; ++i) ids.push_back("doc-" + std::to_string(i) + "-\xC3\xA9");
  REQUIRE(ix.add(ids, data.data(), data.size()).ok());
  REQUIRE(ix.remove({"doc-5-\xC3\xA9", "doc-" + std::to_string(n - 3) + "-\xC3\xA9"}).ok());
  return ix;
}

// Recomputes the container's trailing XXH64 after an edit.
void reseal(std::vector<std::uint8_t>& b) {
  const std::uint64_t h = ragwasm::xxh64(b.data(), b.size() - 8);
  std::memcpy(b.data() + b.size() - 8, &h, 8);
}

}  // namespace

TEST_CASE("every storage and metric round trips through save and load", "[unit]") {
  auto q = random_vectors(1, 19, 9);
  for (IndexKind kind : {IndexKind::kFlat, IndexKind::kHnsw}) {
    for (Storage st : {Storage::kF32, Storage::kInt8, Storage::kBinary}) {
      if (kind == IndexKind::kHnsw && st == Storage::kBinary) continue;
      for (Metric m : {Metric::kCosine, Metric::kDot, Metric::kL2}) {
        INFO("storage " << storage_name(st) << " metric " << metric_name(m) << " hnsw " << (kind == IndexKind::kHnsw));
        auto ix = sample(kind, st, m);
        const auto bytes = ix.save();
        auto loaded = VectorIndex::load(view(bytes));
        REQUIRE(loaded.ok());
        VectorIndex& l = loaded.value();
        REQUIRE(l.size() == 38);
        REQUIRE(l.contains("doc-0-\xC3\xA9"));
        REQUIRE(!l.contains("doc-5-\xC3\xA9"));
        REQUIRE(!l.contains("doc-37-\xC3\xA9"));
        REQUIRE(l.options().metric == m);
        REQUIRE(l.options().storage == st);
        SearchOptions so;
        so.k = 7;
        auto a = ix.search(q.data(), 19, so).value();
        auto b = l.search(q.data(), 19, so).value();
        REQUIRE(a.size() == b.size());
        for (std::size_t i = 0; i < a.size(); ++i) {
          REQUIRE(ix.id(a[i].slot) == l.id(b[i].slot));
          REQUIRE(a[i].score == b[i].score);
        }
        REQUIRE(l.save() == bytes);
      }
    }
  }
}

TEST_CASE("an empty index round trips", "[unit]") {
  IndexOptions o;
  o.dimension = 4;
  o.kind = IndexKind::kHnsw;
  auto bytes = VectorIndex::create(o).value().save();
  auto l = VectorIndex::load(view(bytes));
  REQUIRE(l.ok());
  REQUIRE(l.value().size() == 0);
  const std::vector<float> v = {1, 2, 3, 4};
  SearchOptions so;
  REQUIRE(l.value().search(v.data(), 4, so).value().empty());
  REQUIRE(l.value().add({"a"}, v.data(), 4).ok());
}

TEST_CASE("every truncation of a saved index is CORRUPT_INDEX", "[unit]") {
  for (IndexKind kind : {IndexKind::kFlat, IndexKind::kHnsw}) {
    const auto bytes = sample(kind, Storage::kInt8, Metric::kCosine, 12, 5).save();
    for (std::size_t n = 0; n < bytes.size(); ++n) {
      auto r = VectorIndex::load(std::string_view(reinterpret_cast<const char*>(bytes.data()), n));
      INFO("kept " << n << " of " << bytes.size() << " bytes");
      REQUIRE(!r.ok());
      REQUIRE(r.error().code == ErrorCode::kCorruptIndex);
    }
  }
}

TEST_CASE("seeded bit flips are rejected with CORRUPT_INDEX or UNSUPPORTED_VERSION", "[prop]") {
  const std::uint64_t seed = 20261121;
  std::mt19937_64 rng(seed);
  for (IndexKind kind : {IndexKind::kFlat, IndexKind::kHnsw}) {
    const auto bytes = sample(kind, Storage::kF32, Metric::kL2, 30, 9).save();
    for (int trial = 0; trial < 2000; ++trial) {
      auto b = bytes;
      const int flips = 1 + static_cast<int>(rng() % 3);
      for (int f = 0; f < flips; ++f) b[rng() % b.size()] ^= static_cast<std::uint8_t>(1u << (rng() % 8));
      if (b == bytes) continue;  // two flips of the same bit cancel
      auto r = VectorIndex::load(view(b));
      INFO("seed " << seed << " trial " << trial);
      REQUIRE(!r.ok());
      const bool version_field = std::memcmp(b.data() + 8, bytes.data() + 8, 4) != 0;
      REQUIRE(r.error().code == (version_field ? ErrorCode::kUnsupportedVersion : ErrorCode::kCorruptIndex));
    }
  }
}

TEST_CASE("another format version is UNSUPPORTED_VERSION naming the readable version", "[unit]") {
  auto b = sample(IndexKind::kFlat, Storage::kF32, Metric::kCosine).save();
  b[8] = 3;
  reseal(b);
  auto r = VectorIndex::load(view(b));
  REQUIRE(r.error().code == ErrorCode::kUnsupportedVersion);
  REQUIRE(r.error().message.find("version 3") != std::string::npos);
  REQUIRE(r.error().message.find("reads version 2") != std::string::npos);
  REQUIRE(VectorIndex::load("not an index at all").error().code == ErrorCode::kCorruptIndex);
}

TEST_CASE("structurally bad files with a valid checksum are rejected", "[prop]") {
  // Re-sealed mutations reach the checks behind the checksum: none may load into an unsafe index.
  // Any file that does load must search and save without crashing (run under ASan in CI).
  const std::uint64_t seed = 77;
  std::mt19937_64 rng(seed);
  const auto bytes = sample(IndexKind::kHnsw, Storage::kInt8, Metric::kDot, 20, 7).save();
  int rejected = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    auto b = bytes;
    b[16 + rng() % (b.size() - 24)] ^= static_cast<std::uint8_t>(1u << (rng() % 8));
    reseal(b);
    auto r = VectorIndex::load(view(b));
    if (!r.ok()) {
      REQUIRE(r.error().code == ErrorCode::kCorruptIndex);
      ++rejected;
      continue;
    }
    const std::vector<float> q(7, 0.5f);
    SearchOptions so;
    so.k = 5;
    REQUIRE(r.value().search(q.data(), 7, so).ok());
  }
  INFO("rejected " << rejected << " of 3000 (seed " << seed << ")");
  REQUIRE(rejected > 300);  // flips in vector payloads may load (finite values), structure flips may not
  // A link pointing past the last node, re-sealed: rejected by the graph check.
  auto ix = sample(IndexKind::kHnsw, Storage::kF32, Metric::kCosine, 10, 4);
  auto b = ix.save();
  const std::uint32_t bad = 1000;
  // level-0 links sit right before the upper-links section: find the first link cell by scanning for
  // a count in [1, 12] followed by a valid slot, then overwrite that slot.
  bool patched = false;
  for (std::size_t at = b.size() - 12; at > 16 && !patched; at -= 4) {
    std::uint32_t count = 0, target = 0;
    std::memcpy(&count, b.data() + at - 4, 4);
    std::memcpy(&target, b.data() + at, 4);
    if (count >= 1 && count <= 12 && target < 10) {
      std::memcpy(b.data() + at, &bad, 4);
      reseal(b);
      auto r = VectorIndex::load(view(b));
      if (!r.ok()) {
        REQUIRE(r.error().code == ErrorCode::kCorruptIndex);
        patched = true;
      }
    }
  }
  REQUIRE(patched);
}

TEST_CASE("a failed load leaves nothing behind and the saved index still loads", "[unit]") {
  auto ix = sample(IndexKind::kFlat, Storage::kBinary, Metric::kCosine);
  auto b = ix.save();
  auto bad = b;
  bad.resize(bad.size() / 2);
  REQUIRE(VectorIndex::load(view(bad)).error().message.find("corrupt") != std::string::npos);
  REQUIRE(VectorIndex::load(view(b)).ok());
  REQUIRE(ix.size() == 38);
}
