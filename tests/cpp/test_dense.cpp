// src/dense: kernels, flat search (f32 / int8 / binary), metrics, ties, add/remove and errors, as a spec.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "dense/kernels.h"
#include "dense/vector_index.h"
#include "dense_fixtures.h"

using namespace ragwasm;
using namespace ragwasm::dense;
using ragwasm::testing::make_ids;
using ragwasm::testing::random_vectors;

namespace {

VectorIndex make_index(Metric metric, Storage storage, std::uint32_t dim) {
  IndexOptions o;
  o.dimension = dim;
  o.metric = metric;
  o.storage = storage;
  auto r = VectorIndex::create(o);
  REQUIRE(r.ok());
  return std::move(r).value();
}

std::vector<std::string> hit_ids(const VectorIndex& ix, const std::vector<Hit>& hits) {
  std::vector<std::string> out;
  for (const Hit& h : hits) out.push_back(ix.id(h.slot));
  return out;
}

std::vector<Hit> must_search(const VectorIndex& ix, const std::vector<float>& q, std::uint32_t k) {
  SearchOptions so;
  so.k = k;
  auto r = ix.search(q.data(), q.size(), so);
  REQUIRE(r.ok());
  return std::move(r).value();
}

// Reference score in double precision, as the docs define it (higher is better).
double reference_score(Metric m, const float* q, const float* x, std::size_t dim) {
  double dot = 0, qq = 0, xx = 0, l2 = 0;
  for (std::size_t i = 0; i < dim; ++i) {
    dot += double{q[i]} * x[i];
    qq += double{q[i]} * q[i];
    xx += double{x[i]} * x[i];
    l2 += (double{q[i]} - x[i]) * (double{q[i]} - x[i]);
  }
  if (m == Metric::kDot) return dot;
  if (m == Metric::kL2) return -l2;
  return (qq == 0 || xx == 0) ? 0.0 : dot / std::sqrt(qq * xx);
}

}  // namespace

TEST_CASE("the f32 dot kernel adds in the documented 16-lane order", "[unit]") {
  const std::size_t stride = 48;
  auto a = random_vectors(1, stride, 1);
  auto b = random_vectors(1, stride, 2);
  float p[16] = {};
  for (std::size_t i = 0; i < stride; i += 16)
    for (int j = 0; j < 16; ++j) p[j] = p[j] + a[i + j] * b[i + j];
  float s[4];
  for (int l = 0; l < 4; ++l) s[l] = (p[l] + p[4 + l]) + (p[8 + l] + p[12 + l]);
  const float expected = (s[0] + s[1]) + (s[2] + s[3]);
  REQUIRE(dot_f32(a.data(), b.data(), stride) == expected);  // bit for bit
  float d[16] = {};
  for (std::size_t i = 0; i < stride; i += 16)
    for (int j = 0; j < 16; ++j) d[j] = d[j] + (a[i + j] - b[i + j]) * (a[i + j] - b[i + j]);
  for (int l = 0; l < 4; ++l) s[l] = (d[l] + d[4 + l]) + (d[8 + l] + d[12 + l]);
  REQUIRE(l2sq_f32(a.data(), b.data(), stride) == (s[0] + s[1]) + (s[2] + s[3]));
}

TEST_CASE("the int8 and Hamming kernels are exact", "[unit]") {
  std::vector<std::int8_t> a(32), b(32);
  std::int32_t expected = 0;
  for (int i = 0; i < 32; ++i) {
    a[i] = static_cast<std::int8_t>(i % 2 ? -128 + i : 127 - i);
    b[i] = static_cast<std::int8_t>(i % 3 ? 127 : -128);
    expected += std::int32_t{a[i]} * b[i];
  }
  REQUIRE(dot_i8(a.data(), b.data(), 32) == expected);
  std::vector<std::uint8_t> x(32, 0), y(32, 0);
  x[0] = 0xFF;   // 8 differing bits
  y[17] = 0x81;  // 2 differing bits
  x[31] = 0x0F;
  y[31] = 0x01;  // 3 differing bits
  REQUIRE(hamming(x.data(), y.data(), 32) == 13);
}

TEST_CASE("cosine dot and l2 scores follow their formulas", "[unit]") {
  const std::vector<float> data = {1, 0, 0, 1, 1, 1, -2, 0};  // a=(1,0) b=(0,1) c=(1,1) d=(-2,0)
  const std::vector<float> q = {2, 0};
  {
    auto ix = make_index(Metric::kCosine, Storage::kF32, 2);
    REQUIRE(ix.add({"a", "b", "c", "d"}, data.data(), data.size()).ok());
    auto hits = must_search(ix, q, 4);
    REQUIRE(hit_ids(ix, hits) == std::vector<std::string>{"a", "c", "b", "d"});
    REQUIRE(hits[0].score == Approx(1.0).epsilon(1e-6));
    REQUIRE(hits[1].score == Approx(1 / std::sqrt(2.0)).epsilon(1e-6));  // cos 45 degrees
    REQUIRE(hits[2].score == Approx(0.0).margin(1e-7));
    REQUIRE(hits[3].score == Approx(-1.0).epsilon(1e-6));
  }
  {
    auto ix = make_index(Metric::kDot, Storage::kF32, 2);
    REQUIRE(ix.add({"a", "b", "c", "d"}, data.data(), data.size()).ok());
    auto hits = must_search(ix, q, 4);
    // dots: a 2, b 0, c 2, d -4; a and c tie at 2 -> insertion order a before c
    REQUIRE(hit_ids(ix, hits) == std::vector<std::string>{"a", "c", "b", "d"});
    REQUIRE(hits[0].score == 2.0f);
    REQUIRE(hits[3].score == -4.0f);
  }
  {
    auto ix = make_index(Metric::kL2, Storage::kF32, 2);
    REQUIRE(ix.add({"a", "b", "c", "d"}, data.data(), data.size()).ok());
    auto hits = must_search(ix, q, 4);
    // squared distances: a 1, b 4+1=5, c 1+1=2, d 16 -> scores are their negatives
    REQUIRE(hit_ids(ix, hits) == std::vector<std::string>{"a", "c", "b", "d"});
    REQUIRE(hits[0].score == -1.0f);
    REQUIRE(hits[1].score == -2.0f);
    REQUIRE(hits[2].score == -5.0f);
    REQUIRE(hits[3].score == -16.0f);
  }
}

TEST_CASE("flat f32 search equals a double-precision brute force", "[diff]") {
  const std::uint32_t dim = 37;  // not a multiple of 16: exercises padding
  const std::size_t n = 2000;
  auto data = random_vectors(n, dim, 7);
  auto queries = random_vectors(20, dim, 8);
  for (Metric m : {Metric::kCosine, Metric::kDot, Metric::kL2}) {
    auto ix = make_index(m, Storage::kF32, dim);
    REQUIRE(ix.add(make_ids(n), data.data(), data.size()).ok());
    for (std::size_t qi = 0; qi < 20; ++qi) {
      const float* q = queries.data() + qi * dim;
      std::vector<std::pair<double, std::size_t>> ref;
      for (std::size_t i = 0; i < n; ++i) ref.push_back({reference_score(m, q, data.data() + i * dim, dim), i});
      std::sort(ref.begin(), ref.end(), [](auto& a, auto& b) { return a.first > b.first || (a.first == b.first && a.second < b.second); });
      auto hits = must_search(ix, std::vector<float>(q, q + dim), 10);
      REQUIRE(hits.size() == 10);
      for (std::size_t r = 0; r < 10; ++r) {
        INFO("metric " << metric_name(m) << " query " << qi << " rank " << r);
        // float32 vs double: 1e-5 relative (plus 1e-5 absolute near zero)
        REQUIRE(hits[r].score == Approx(ref[r].first).epsilon(1e-5).margin(1e-5));
        // ids are exact unless the reference gap to the neighbor is within float rounding
        if (std::fabs(ref[r].first - ref[r + 1].first) > 1e-4 * (1 + std::fabs(ref[r].first)) &&
            (r == 0 || std::fabs(ref[r].first - ref[r - 1].first) > 1e-4 * (1 + std::fabs(ref[r].first)))) {
          REQUIRE(ix.id(hits[r].slot) == "d" + std::to_string(ref[r].second));
        }
      }
    }
  }
}

TEST_CASE("equal scores rank by insertion order even after removals move rows", "[unit]") {
  const std::uint32_t dim = 4;
  std::vector<float> v = {1, 2, 3, 4};
  std::vector<float> data;
  for (int i = 0; i < 6; ++i) data.insert(data.end(), v.begin(), v.end());
  auto ix = make_index(Metric::kCosine, Storage::kF32, dim);
  REQUIRE(ix.add({"e0", "e1", "e2", "e3", "e4", "e5"}, data.data(), data.size()).ok());
  REQUIRE(hit_ids(ix, must_search(ix, v, 3)) == std::vector<std::string>{"e0", "e1", "e2"});
  REQUIRE(ix.remove({"e1"}).ok());  // e5's row moves into e1's slot
  REQUIRE(hit_ids(ix, must_search(ix, v, 6)) == std::vector<std::string>{"e0", "e2", "e3", "e4", "e5"});
  REQUIRE(ix.add({"e1"}, v.data(), v.size()).ok());  // re-added: now the newest
  REQUIRE(hit_ids(ix, must_search(ix, v, 6)) == std::vector<std::string>{"e0", "e2", "e3", "e4", "e5", "e1"});
}

TEST_CASE("adding in many small batches gives the same index as one batch", "[unit]") {
  // Capacity grows geometrically across adds (issue 18: exact reserves made batched builds quadratic);
  // the saved bytes and the hits must not depend on the batch sizes, and a refused batch changes nothing.
  const std::uint32_t dim = 24;
  const std::size_t n = 3000;
  auto data = random_vectors(n, dim, 21);
  auto ids = make_ids(n);
  auto queries = random_vectors(5, dim, 22);
  for (Storage st : {Storage::kF32, Storage::kInt8, Storage::kBinary}) {
    auto whole = make_index(Metric::kCosine, st, dim);
    REQUIRE(whole.add(ids, data.data(), data.size()).ok());
    auto parts = make_index(Metric::kCosine, st, dim);
    bool refused = false;
    for (std::size_t at = 0, b = 1; at < n; at += b, b = b % 13 + 1) {
      const std::size_t m = std::min(b, n - at);
      std::vector<std::string> part(ids.begin() + at, ids.begin() + at + m);
      REQUIRE(parts.add(part, data.data() + at * dim, m * dim).ok());
      if (at >= 1500 && !refused) {
        REQUIRE_FALSE(parts.add({"d0"}, data.data(), dim).ok());  // duplicate id: refused, nothing added
        refused = true;
      }
    }
    REQUIRE(refused);
    REQUIRE(parts.size() == n);
    REQUIRE(parts.save() == whole.save());
    for (std::size_t qi = 0; qi < 5; ++qi) {
      std::vector<float> q(queries.begin() + qi * dim, queries.begin() + (qi + 1) * dim);
      REQUIRE(hit_ids(parts, must_search(parts, q, 10)) == hit_ids(whole, must_search(whole, q, 10)));
    }
  }
}

TEST_CASE("int8 scores stay within the quantization error of f32 scores", "[prop]") {
  const std::uint32_t dim = 64;
  const std::size_t n = 3000;
  auto data = random_vectors(n, dim, 11);
  auto queries = random_vectors(30, dim, 12);
  for (Metric m : {Metric::kCosine, Metric::kDot, Metric::kL2}) {
    auto f = make_index(m, Storage::kF32, dim);
    auto q8 = make_index(m, Storage::kInt8, dim);
    REQUIRE(f.add(make_ids(n), data.data(), data.size()).ok());
    REQUIRE(q8.add(make_ids(n), data.data(), data.size()).ok());
    double overlap = 0;
    for (std::size_t qi = 0; qi < 30; ++qi) {
      std::vector<float> q(queries.begin() + qi * dim, queries.begin() + (qi + 1) * dim);
      auto a = hit_ids(f, must_search(f, q, 10));
      auto hb = must_search(q8, q, 10);
      auto b = hit_ids(q8, hb);
      for (auto& id : b) overlap += std::count(a.begin(), a.end(), id) ? 1 : 0;
      // the top int8 score is within 2% of the scale of the f32 scores (|cos| <= 1; dot, l2 ~ dim)
      const double scale = m == Metric::kCosine ? 1.0 : dim;
      const float exact = reference_score(m, q.data(), data.data() + std::stoul(b[0].substr(1)) * dim, dim);
      REQUIRE(std::fabs(hb[0].score - exact) <= 0.02 * scale);
    }
    INFO("metric " << metric_name(m) << " int8 recall@10 vs f32 " << overlap / 300);
    REQUIRE(overlap / 300 >= 0.85);  // measured 0.9+ on this seed
  }
}

TEST_CASE("binary search with a full rescore pool equals its rescore storage", "[diff]") {
  const std::uint32_t dim = 96;
  const std::size_t n = 1500;
  auto data = random_vectors(n, dim, 21);
  auto queries = random_vectors(10, dim, 22);
  for (Storage rescore : {Storage::kInt8, Storage::kF32}) {
    IndexOptions o;
    o.dimension = dim;
    o.storage = Storage::kBinary;
    o.binary_rescore = rescore;
    auto bin = VectorIndex::create(o).value();
    auto ref = make_index(Metric::kCosine, rescore, dim);
    REQUIRE(bin.add(make_ids(n), data.data(), data.size()).ok());
    REQUIRE(ref.add(make_ids(n), data.data(), data.size()).ok());
    for (std::size_t qi = 0; qi < 10; ++qi) {
      std::vector<float> q(queries.begin() + qi * dim, queries.begin() + (qi + 1) * dim);
      SearchOptions so;
      so.k = 10;
      so.rescore = 150;  // pool 1500 = everything: the rescore must then equal the exact search
      auto a = bin.search(q.data(), dim, so).value();
      auto b = must_search(ref, q, 10);
      REQUIRE(hit_ids(bin, a) == hit_ids(ref, b));
      for (std::size_t r = 0; r < a.size(); ++r) REQUIRE(a[r].score == b[r].score);
    }
  }
}

TEST_CASE("binary Hamming scores without rescoring count agreeing signs", "[unit]") {
  IndexOptions o;
  o.dimension = 4;
  o.storage = Storage::kBinary;
  auto ix = VectorIndex::create(o).value();
  const std::vector<float> data = {1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1, -1};
  REQUIRE(ix.add({"same", "half", "opposite"}, data.data(), data.size()).ok());
  SearchOptions so;
  so.k = 3;
  so.rescore = 0;
  const std::vector<float> q = {0.5f, 2, 3, 4};
  auto hits = ix.search(q.data(), 4, so).value();
  REQUIRE(hit_ids(ix, hits) == std::vector<std::string>{"same", "half", "opposite"});
  REQUIRE(hits[0].score == 1.0f);    // 0 differing bits: 1 - 0/4
  REQUIRE(hits[1].score == 0.0f);    // 2 differing: 1 - 4/4
  REQUIRE(hits[2].score == -1.0f);   // 4 differing: 1 - 8/4
}

TEST_CASE("bad input is rejected with a named error and nothing indexed is lost", "[unit]") {
  const std::uint32_t dim = 8;
  auto data = random_vectors(5, dim, 31);
  for (IndexKind kind : {IndexKind::kFlat, IndexKind::kHnsw}) {
    IndexOptions o;
    o.dimension = dim;
    o.kind = kind;
    auto ix = VectorIndex::create(o).value();
    REQUIRE(ix.add(make_ids(5), data.data(), data.size()).ok());
    std::vector<float> q(data.begin(), data.begin() + dim);
    const auto before = hit_ids(ix, must_search(ix, q, 5));

    auto one = random_vectors(1, dim, 32);
    Status s = ix.add({"x"}, one.data(), dim - 1);
    REQUIRE(s.error().code == ErrorCode::kDimensionMismatch);
    REQUIRE(s.error().message.find("dimension 8") != std::string::npos);
    one[3] = std::nanf("");
    s = ix.add({"x"}, one.data(), dim);
    REQUIRE(s.error().code == ErrorCode::kInvalidArgument);
    REQUIRE(s.error().message.find("vectors[0][3]") != std::string::npos);
    REQUIRE(s.error().message.find("nan") != std::string::npos);
    one[3] = INFINITY;
    REQUIRE(ix.add({"x"}, one.data(), dim).error().code == ErrorCode::kInvalidArgument);
    one[3] = 0.5f;
    REQUIRE(ix.add({}, one.data(), 0).error().message.find("empty batch") != std::string::npos);
    REQUIRE(ix.add({"d2"}, one.data(), dim).error().code == ErrorCode::kDuplicateId);
    std::vector<float> two(2 * dim, 0.25f);
    REQUIRE(ix.add({"y", "y"}, two.data(), two.size()).error().code == ErrorCode::kDuplicateId);
    // a batch with one bad row adds nothing, not even its good rows
    two[dim + 1] = -INFINITY;
    REQUIRE(!ix.add({"y", "z"}, two.data(), two.size()).ok());
    REQUIRE(!ix.contains("y"));
    REQUIRE(ix.remove({"d1", "nope"}).error().code == ErrorCode::kNotFound);
    REQUIRE(ix.contains("d1"));
    REQUIRE(ix.remove({}).error().code == ErrorCode::kInvalidArgument);

    SearchOptions so;
    so.k = 0;
    auto r = ix.search(q.data(), dim, so);
    REQUIRE(r.error().code == ErrorCode::kInvalidArgument);
    REQUIRE(r.error().message == "ragwasm: k: expected an integer in [1, 100000], got 0");  // the rule of every search (check_search_k)
    so.k = 100001;
    REQUIRE(ix.search(q.data(), dim, so).error().message == "ragwasm: k: expected an integer in [1, 100000], got 100001");
    so.k = 100000;
    REQUIRE(ix.search(q.data(), dim, so).value().size() == 5);
    so.k = 3;
    REQUIRE(ix.search(q.data(), dim + 1, so).error().code == ErrorCode::kDimensionMismatch);
    std::vector<float> badq = q;
    badq[0] = std::nanf("");
    REQUIRE(ix.search(badq.data(), dim, so).error().message.find("query[0]") != std::string::npos);
    std::vector<std::uint8_t> mask(2, 1);
    so.allow = mask.data();
    so.allow_size = mask.size();
    REQUIRE(ix.search(q.data(), dim, so).error().message.find("filter") != std::string::npos);

    REQUIRE(ix.size() == 5);
    REQUIRE(hit_ids(ix, must_search(ix, q, 5)) == before);
  }
}

TEST_CASE("index options out of range are rejected", "[unit]") {
  IndexOptions o;
  REQUIRE(VectorIndex::create(o).error().message.find("dimension") != std::string::npos);
  o.dimension = kMaxDimension + 1;
  REQUIRE(!VectorIndex::create(o).ok());
  o.dimension = 8;
  o.kind = IndexKind::kHnsw;
  o.hnsw.m = 1;
  REQUIRE(VectorIndex::create(o).error().message.find("hnsw.M") != std::string::npos);
  o.hnsw.m = 16;
  o.hnsw.ef_construction = 0;
  REQUIRE(VectorIndex::create(o).error().message.find("efConstruction") != std::string::npos);
  o.hnsw.ef_construction = 100;
  o.storage = Storage::kBinary;
  REQUIRE(VectorIndex::create(o).error().message.find("binary") != std::string::npos);
}

TEST_CASE("a zero vector scores 0 under cosine", "[unit]") {
  auto ix = make_index(Metric::kCosine, Storage::kF32, 3);
  const std::vector<float> data = {0, 0, 0, 1, 0, 0};
  REQUIRE(ix.add({"zero", "x"}, data.data(), data.size()).ok());
  auto hits = must_search(ix, {1, 1, 0}, 2);
  REQUIRE(hit_ids(ix, hits) == std::vector<std::string>{"x", "zero"});
  REQUIRE(hits[1].score == 0.0f);
}

TEST_CASE("k larger than the index returns every vector", "[unit]") {
  auto ix = make_index(Metric::kDot, Storage::kInt8, 16);
  auto data = random_vectors(7, 16, 41);
  REQUIRE(ix.add(make_ids(7), data.data(), data.size()).ok());
  REQUIRE(must_search(ix, std::vector<float>(data.begin(), data.begin() + 16), 100).size() == 7);
}

TEST_CASE("a filter keeps only allowed ids", "[unit]") {
  auto ix = make_index(Metric::kCosine, Storage::kF32, 16);
  auto data = random_vectors(100, 16, 51);
  REQUIRE(ix.add(make_ids(100), data.data(), data.size()).ok());
  auto mask = ix.mask_for_ids({"d3", "d50", "d99", "missing"});
  SearchOptions so;
  so.k = 10;
  so.allow = mask.data();
  so.allow_size = mask.size();
  auto hits = ix.search(data.data(), 16, so).value();
  auto ids = hit_ids(ix, hits);
  std::sort(ids.begin(), ids.end());
  REQUIRE(ids == std::vector<std::string>{"d3", "d50", "d99"});
}

namespace {

// n x dim values and nq x dim queries on a coarse grid (so equal scores occur), seeded
void grid_data(std::uint32_t seed, std::size_t n, std::uint32_t dim, std::size_t nq, std::vector<float>& data,
               std::vector<float>& queries) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> grid(-3, 3);
  data.resize(n * dim);
  for (auto& x : data) x = static_cast<float>(grid(rng));
  queries.resize(nq * dim);
  for (auto& x : queries) x = static_cast<float>(grid(rng)) + 0.5f;
}

// Calls f(options) for k 1, 10, 1000, each without and with a mask allowing two slots in three.
template <class F>
void for_each_scan_option(const VectorIndex& ix, F f) {
  std::vector<std::uint8_t> mask(ix.slot_count(), 1);
  for (std::size_t s = 0; s < mask.size(); s += 3) mask[s] = 0;
  for (bool masked : {false, true}) {
    for (std::uint32_t k : {1u, 10u, 1000u}) {
      SearchOptions o;
      o.k = k;
      if (masked) {
        o.allow = mask.data();
        o.allow_size = mask.size();
      }
      f(o);
    }
  }
}

}  // namespace

TEST_CASE("search_exact_many equals search_exact per query for every metric and storage", "[diff]") {
  // values on a coarse grid so equal scores (ties by insertion order) occur; rows removed and a mask
  const std::uint32_t dim = 24;
  const std::size_t n = 700;  // several 256-row blocks, the last one partial
  std::vector<float> data, queries;
  grid_data(1818, n, dim, 9, data, queries);
  for (Metric metric : {Metric::kDot, Metric::kCosine, Metric::kL2}) {
    for (Storage storage : {Storage::kF32, Storage::kInt8, Storage::kBinary}) {
      VectorIndex ix = make_index(metric, storage, dim);
      REQUIRE(ix.add(make_ids(n), data.data(), data.size()).ok());
      REQUIRE(ix.remove({"d7", "d300", "d699"}).ok());
      for_each_scan_option(ix, [&](const SearchOptions& o) {
          auto many = ix.search_exact_many(queries.data(), 9, dim, o);
          REQUIRE(many.ok());
          REQUIRE(many.value().size() == 9);
          for (std::size_t q = 0; q < 9; ++q) {
            auto one = ix.search_exact(queries.data() + q * dim, dim, o);
            REQUIRE(one.ok());
            const auto& a = many.value()[q];
            const auto& b = one.value();
            REQUIRE(a.size() == b.size());
            for (std::size_t i = 0; i < a.size(); ++i) {
              REQUIRE(a[i].slot == b[i].slot);
              REQUIRE(a[i].score == b[i].score);  // the same kernel on the same block: exactly equal
            }
          }
      });
      queries[3 * dim + 2] = std::nanf("");
      auto bad = ix.search_exact_many(queries.data(), 9, dim, SearchOptions{});
      REQUIRE(!bad.ok());
      REQUIRE(bad.error().code == ErrorCode::kInvalidArgument);
      queries[3 * dim + 2] = 0.5f;
    }
  }
}

TEST_CASE("live_slots lists the live slots in ascending order", "[unit]") {
  for (Storage storage : {Storage::kF32, Storage::kInt8}) {
    VectorIndex ix = make_index(Metric::kCosine, storage, 4);
    const auto data = random_vectors(5, 4, 11);
    REQUIRE(ix.add(make_ids(5), data.data(), data.size()).ok());
    REQUIRE(ix.live_slots() == std::vector<std::uint32_t>{0, 1, 2, 3, 4});
    const std::string gone1 = ix.id(1), gone3 = ix.id(3);
    REQUIRE(ix.remove({gone1, gone3}).ok());
    const auto live = ix.live_slots();
    CHECK(live.size() == ix.size());
    CHECK(std::is_sorted(live.begin(), live.end()));
    std::vector<std::string> ids;
    for (std::uint32_t s : live) {
      CHECK(ix.is_live(s));
      ids.push_back(ix.id(s));
    }
    std::sort(ids.begin(), ids.end());
    std::vector<std::string> want = make_ids(5);
    want.erase(std::remove_if(want.begin(), want.end(), [&](const std::string& id) { return id == gone1 || id == gone3; }), want.end());
    std::sort(want.begin(), want.end());
    CHECK(ids == want);
  }
}

TEST_CASE("slot range scans merged by merge_hits equal search_exact_many", "[diff]") {
  // what the optional WASM-threads scan does (tests/bench/threads): each thread scans a slot range,
  // the lists are merged. Coarse grid values so ties occur; removed rows make insertion order differ
  // from slot order (a removal moves the last row into the hole), so the merge must rank by ordinal.
  const std::uint32_t dim = 24;
  const std::size_t n = 700;
  std::vector<float> data, queries;
  grid_data(1819, n, dim, 5, data, queries);
  // cut points of the splits: halves, uneven, inside 256-row blocks, empty ranges, many small ranges
  std::vector<std::vector<std::size_t>> splits = {{0, 350, 10000}, {0, 0, 1, 255, 256, 333, 333, 699, 10000}};
  std::vector<std::size_t> fine;
  for (std::size_t c = 0; c < n; c += 37) fine.push_back(c);
  fine.push_back(n);
  splits.push_back(fine);
  for (Metric metric : {Metric::kDot, Metric::kCosine, Metric::kL2}) {
    for (Storage storage : {Storage::kF32, Storage::kInt8}) {
      VectorIndex ix = make_index(metric, storage, dim);
      REQUIRE(ix.add(make_ids(n), data.data(), data.size()).ok());
      REQUIRE(ix.remove({"d7", "d300", "d699", "d12"}).ok());
      for_each_scan_option(ix, [&](const SearchOptions& o) {
          const std::uint32_t k = o.k;
          auto whole = ix.search_exact_many(queries.data(), 5, dim, o);
          REQUIRE(whole.ok());
          for (const auto& cuts : splits) {
            std::vector<std::vector<std::vector<Hit>>> parts;
            for (std::size_t c = 0; c + 1 < cuts.size(); ++c) {
              auto part = ix.search_exact_many_slots(queries.data(), 5, dim, o, cuts[c], cuts[c + 1]);
              REQUIRE(part.ok());
              parts.push_back(std::move(part).value());
            }
            for (std::size_t q = 0; q < 5; ++q) {
              std::vector<const std::vector<Hit>*> lists;
              for (const auto& p : parts) lists.push_back(&p[q]);
              auto merged = ix.merge_hits(lists.data(), lists.size(), k);
              const auto& want = whole.value()[q];
              REQUIRE(merged.size() == want.size());
              for (std::size_t i = 0; i < want.size(); ++i) {
                REQUIRE(merged[i].slot == want[i].slot);
                REQUIRE(merged[i].score == want[i].score);  // the same kernel per row: exactly equal
              }
            }
          }
      });
      auto backwards = ix.search_exact_many_slots(queries.data(), 5, dim, SearchOptions{}, 10, 5);
      REQUIRE(!backwards.ok());
      REQUIRE(backwards.error().code == ErrorCode::kInvalidArgument);
    }
  }
  VectorIndex bin = make_index(Metric::kCosine, Storage::kBinary, dim);
  REQUIRE(bin.add(make_ids(n), data.data(), data.size()).ok());
  auto refused = bin.search_exact_many_slots(queries.data(), 5, dim, SearchOptions{}, 0, n);
  REQUIRE(!refused.ok());
  REQUIRE(refused.error().code == ErrorCode::kInvalidArgument);
}
