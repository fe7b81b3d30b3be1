// src/dense HNSW against the flat index as its oracle: recall floors on seeded random data,
// reproducible builds, deletion, filters, and identical results after save/load.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "dense/vector_index.h"
#include "dense_fixtures.h"

using namespace ragwasm;
using namespace ragwasm::dense;
using ragwasm::testing::make_ids;
using ragwasm::testing::random_vectors;

namespace {

VectorIndex build(IndexKind kind, Storage storage, Metric metric, std::uint32_t dim, const std::vector<float>& data,
                  std::uint32_t m = 16, std::uint32_t efc = 200) {
  IndexOptions o;
  o.dimension = dim;
  o.kind = kind;
  o.storage = storage;
  o.metric = metric;
  o.hnsw.m = m;
  o.hnsw.ef_construction = efc;
  o.hnsw.seed = 7;
  auto ix = VectorIndex::create(o).value();
  const std::size_t n = data.size() / dim;
  REQUIRE(ix.add(make_ids(n), data.data(), data.size()).ok());
  return ix;
}

std::vector<std::string> ids_of(const VectorIndex& ix, const std::vector<Hit>& hits) {
  std::vector<std::string> out;
  for (const Hit& h : hits) out.push_back(ix.id(h.slot));
  return out;
}

// Mean fraction of the exact top-k found by the approximate search.
double recall_at(const VectorIndex& approx, const VectorIndex& exact, const std::vector<float>& queries,
                 std::uint32_t dim, std::uint32_t k, std::uint32_t ef, const std::uint8_t* allow = nullptr,
                 std::size_t allow_size = 0) {
  const std::size_t nq = queries.size() / dim;
  double found = 0, total = 0;
  for (std::size_t i = 0; i < nq; ++i) {
    SearchOptions so;
    so.k = k;
    so.ef_search = ef;
    so.allow = allow;
    so.allow_size = allow_size;
    auto a = ids_of(approx, approx.search(queries.data() + i * dim, dim, so).value());
    auto e = ids_of(exact, exact.search_exact(queries.data() + i * dim, dim, so).value());
    for (auto& id : e) found += std::count(a.begin(), a.end(), id) ? 1 : 0;
    total += static_cast<double>(e.size());
  }
  return total == 0 ? 1.0 : found / total;
}

}  // namespace

TEST_CASE("HNSW recall at 10 on 10k x 64 random vectors meets its floor", "[diff][slow]") {
  const std::uint32_t dim = 64;
  auto data = random_vectors(10000, dim, 101);
  auto queries = random_vectors(200, dim, 102);
  for (Storage st : {Storage::kF32}) {  // int8 measured 0.47 / 0.83 / 0.99 too; the clustered case covers it
    auto ix = build(IndexKind::kHnsw, st, Metric::kCosine, dim, data);
    const double r16 = recall_at(ix, ix, queries, dim, 10, 16);
    const double r64 = recall_at(ix, ix, queries, dim, 10, 64);
    const double r256 = recall_at(ix, ix, queries, dim, 10, 256);
    std::printf("hnsw %s 10k x 64 cosine M16 efC200 seed 101: recall@10 ef16 %.4f ef64 %.4f ef256 %.4f\n",
                storage_name(st), r16, r64, r256);
    INFO("storage " << storage_name(st) << " recall ef16 " << r16 << " ef64 " << r64 << " ef256 " << r256);
    // Floors sit below the measured values (f32: 0.47 / 0.83 / 0.99; hnswlib-wasm with the same M,
    // efConstruction and data kind measured 0.47 / 0.82 / 0.99): 64-d Gaussian data is hard for HNSW.
    REQUIRE(r64 >= 0.78);
    REQUIRE(r256 >= 0.97);
    REQUIRE(r256 >= r16);
  }
}

namespace {
// Gaussian clusters (like sentence embeddings): 100 centers, each point a center plus noise 1.5 times the spread of the centers.
std::vector<float> clustered(std::size_t n, std::size_t dim, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> g(0.0f, 1.0f);
  std::vector<float> centers(100 * dim);
  for (float& x : centers) x = g(rng);
  std::vector<float> v(n * dim);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t c = rng() % 100;
    for (std::size_t j = 0; j < dim; ++j) v[i * dim + j] = centers[c * dim + j] + 1.5f * g(rng);
  }
  return v;
}
}  // namespace

TEST_CASE("HNSW recall at 10 on clustered 10k x 64 vectors is at least 0.95 at efSearch 64", "[diff][slow]") {
  const std::uint32_t dim = 64;
  auto all = clustered(10200, dim, 201);
  std::vector<float> data(all.begin(), all.begin() + 10000 * dim);
  std::vector<float> queries(all.begin() + 10000 * dim, all.end());
  for (Storage st : {Storage::kF32, Storage::kInt8}) {
    auto ix = build(IndexKind::kHnsw, st, Metric::kCosine, dim, data);
    const double r64 = recall_at(ix, ix, queries, dim, 10, 64);
    std::printf("hnsw %s clustered 10k x 64 cosine M16 efC200 seed 201: recall@10 ef64 %.4f\n", storage_name(st), r64);
    INFO("storage " << storage_name(st) << " recall ef64 " << r64);
    REQUIRE(r64 >= 0.95);
  }
}

TEST_CASE("HNSW builds are reproducible and survive save and load unchanged", "[diff]") {
  const std::uint32_t dim = 24;
  auto data = random_vectors(2000, dim, 301);
  auto queries = random_vectors(50, dim, 302);
  for (Metric m : {Metric::kCosine, Metric::kDot, Metric::kL2}) {
    for (Storage st : {Storage::kF32, Storage::kInt8}) {
      INFO("metric " << metric_name(m) << " storage " << storage_name(st));
      auto a = build(IndexKind::kHnsw, st, m, dim, data, 8, 64);
      auto b = build(IndexKind::kHnsw, st, m, dim, data, 8, 64);
      const auto bytes = a.save();
      REQUIRE(bytes == b.save());
      auto loaded = VectorIndex::load(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
      REQUIRE(loaded.ok());
      REQUIRE(loaded.value().save() == bytes);
      for (std::size_t i = 0; i < 50; ++i) {
        SearchOptions so;
        so.k = 10;
        so.ef_search = 32;
        auto x = a.search(queries.data() + i * dim, dim, so).value();
        auto y = loaded.value().search(queries.data() + i * dim, dim, so).value();
        REQUIRE(ids_of(a, x) == ids_of(loaded.value(), y));
        for (std::size_t r = 0; r < x.size(); ++r) REQUIRE(x[r].score == y[r].score);
      }
    }
  }
}

TEST_CASE("adding after a load continues the same build", "[diff]") {
  const std::uint32_t dim = 16;
  auto data = random_vectors(2000, dim, 311);
  auto whole = build(IndexKind::kHnsw, Storage::kF32, Metric::kCosine, dim, data, 8, 50);
  std::vector<float> first(data.begin(), data.begin() + 1000 * dim);
  auto half = build(IndexKind::kHnsw, Storage::kF32, Metric::kCosine, dim, first, 8, 50);
  const auto bytes = half.save();
  auto loaded = VectorIndex::load(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size())).value();
  std::vector<std::string> rest;
  for (std::size_t i = 1000; i < 2000; ++i) rest.push_back("d" + std::to_string(i));
  REQUIRE(loaded.add(rest, data.data() + 1000 * dim, 1000 * dim).ok());
  REQUIRE(loaded.save() == whole.save());
}

TEST_CASE("HNSW never returns removed ids and keeps its recall after deletions", "[diff]") {
  const std::uint32_t dim = 32;
  auto data = random_vectors(5000, dim, 401);
  auto queries = random_vectors(100, dim, 402);
  auto ix = build(IndexKind::kHnsw, Storage::kF32, Metric::kCosine, dim, data);
  std::vector<std::string> removed;
  for (std::size_t i = 0; i < 5000; i += 3) removed.push_back("d" + std::to_string(i));
  REQUIRE(ix.remove(removed).ok());
  REQUIRE(ix.size() == 5000 - removed.size());
  for (std::size_t i = 0; i < 100; ++i) {
    SearchOptions so;
    so.k = 20;
    const auto hits = ix.search(queries.data() + i * dim, dim, so).value();
    for (const Hit& h : hits) {
      REQUIRE(ix.is_live(h.slot));
      REQUIRE(std::stoul(ix.id(h.slot).substr(1)) % 3 != 0);
    }
  }
  const double r = recall_at(ix, ix, queries, dim, 10, 128);
  std::printf("hnsw f32 5k x 32 after removing 1/3: recall@10 ef128 %.4f\n", r);
  REQUIRE(r >= 0.90);
  // a removed id can be added again
  REQUIRE(ix.add({"d0"}, data.data(), dim).ok());
  SearchOptions so;
  so.k = 1;
  REQUIRE(ix.id(ix.search(data.data(), dim, so).value()[0].slot) == "d0");
}

TEST_CASE("filtered HNSW search returns k hits when at least k vectors pass", "[diff]") {
  const std::uint32_t dim = 32;
  auto data = random_vectors(5000, dim, 501);
  auto queries = random_vectors(100, dim, 502);
  auto ix = build(IndexKind::kHnsw, Storage::kF32, Metric::kCosine, dim, data);
  for (std::size_t every : {2, 7, 60, 500}) {  // 50%, 14%, 1.7% (exact path), 10 vectors (exact path)
    std::vector<std::uint8_t> mask(ix.slot_count(), 0);
    std::size_t passing = 0;
    for (std::size_t s = 0; s < mask.size(); ++s) {
      mask[s] = std::stoul(ix.id(static_cast<std::uint32_t>(s)).substr(1)) % every == 0;
      passing += mask[s];
    }
    for (std::size_t i = 0; i < 100; ++i) {
      SearchOptions so;
      so.k = 10;
      so.allow = mask.data();
      so.allow_size = mask.size();
      auto hits = ix.search(queries.data() + i * dim, dim, so).value();
      REQUIRE(hits.size() == std::min<std::size_t>(10, passing));
      for (const Hit& h : hits) REQUIRE(mask[h.slot] == 1);
    }
    const double r = recall_at(ix, ix, queries, dim, 10, 64, mask.data(), mask.size());
    std::printf("hnsw filtered 1/%zu of 5k x 32: recall@10 ef64 %.4f\n", every, r);
    INFO("filter 1/" << every << " recall " << r);
    REQUIRE(r >= 0.85);
  }
}

TEST_CASE("compact() drops HNSW tombstones: the index equals one built from the live vectors in order", "[diff]") {
  const std::uint32_t dim = 16;
  auto data = random_vectors(1500, dim, 501);
  auto queries = random_vectors(30, dim, 502);
  for (Metric m : {Metric::kCosine, Metric::kL2}) {
    for (Storage st : {Storage::kF32, Storage::kInt8}) {
      INFO("metric " << metric_name(m) << " storage " << storage_name(st));
      auto ix = build(IndexKind::kHnsw, st, m, dim, data, 8, 64);
      std::vector<std::string> removed;
      std::vector<std::string> kept_ids;
      std::vector<float> kept;
      for (std::size_t i = 0; i < 1500; ++i) {
        if (i % 4 == 1) {
          removed.push_back("d" + std::to_string(i));
        } else {
          kept_ids.push_back("d" + std::to_string(i));
          kept.insert(kept.end(), data.begin() + i * dim, data.begin() + (i + 1) * dim);
        }
      }
      REQUIRE(ix.remove(removed).ok());
      const auto before = ix.save();
      REQUIRE(ix.slot_count() == 1500);
      REQUIRE(ix.compact() == removed.size());
      REQUIRE(ix.slot_count() == kept_ids.size());
      REQUIRE(ix.size() == kept_ids.size());
      IndexOptions o = ix.options();
      auto fresh = VectorIndex::create(o).value();
      REQUIRE(fresh.add(kept_ids, kept.data(), kept.size()).ok());
      const auto after = ix.save();
      REQUIRE(after == fresh.save());
      REQUIRE(after.size() < before.size());
      for (std::size_t i = 0; i < 30; ++i) {
        SearchOptions so;
        so.k = 10;
        auto x = ix.search(queries.data() + i * dim, dim, so).value();
        auto y = fresh.search(queries.data() + i * dim, dim, so).value();
        REQUIRE(ids_of(ix, x) == ids_of(fresh, y));
      }
      // a second compact has nothing to drop; adding continues as after a fresh build
      REQUIRE(ix.compact() == 0);
      REQUIRE(ix.save() == after);
      REQUIRE(ix.add({"d1"}, data.data() + dim, dim).ok());
      REQUIRE(fresh.add({"d1"}, data.data() + dim, dim).ok());
      REQUIRE(ix.save() == fresh.save());
    }
  }
}

TEST_CASE("compact() leaves flat indexes, and HNSW indexes without tombstones, as they are", "[diff]") {
  const std::uint32_t dim = 8;
  auto data = random_vectors(200, dim, 511);
  auto flat = build(IndexKind::kFlat, Storage::kF32, Metric::kCosine, dim, data);
  REQUIRE(flat.remove({"d3", "d7"}).ok());
  const auto flat_bytes = flat.save();
  REQUIRE(flat.compact() == 0);
  REQUIRE(flat.save() == flat_bytes);
  auto hnsw = build(IndexKind::kHnsw, Storage::kF32, Metric::kDot, dim, data, 8, 32);
  const auto hnsw_bytes = hnsw.save();
  REQUIRE(hnsw.compact() == 0);
  REQUIRE(hnsw.save() == hnsw_bytes);
  // every vector removed: compact gives the empty index of the same options
  std::vector<std::string> all = make_ids(200);
  REQUIRE(hnsw.remove(all).ok());
  REQUIRE(hnsw.compact() == 200);
  REQUIRE(hnsw.save() == VectorIndex::create(hnsw.options()).value().save());
  SearchOptions so;
  so.k = 5;
  REQUIRE(hnsw.search(data.data(), dim, so).value().empty());
  REQUIRE(hnsw.add({"again"}, data.data(), dim).ok());
  REQUIRE(hnsw.search(data.data(), dim, so).value().size() == 1);
}
