// Native twin of the `dense` bench suite: flat scan throughput (f32, int8, binary) beside the same
// reference passes (bare kernel, batch kernel, read-only pass over the stored rows) and HNSW build
// time, recall@10 and queries/s against the exact scan, on seeded Gaussian vectors.
// Usage: bench_dense [--quick]. Prints one JSON object.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "dense/kernels.h"
#include "dense/vector_index.h"

using namespace ragwasm::dense;

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

std::vector<float> gaussian(std::size_t n, std::size_t dim, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> g(0.0f, 1.0f);
  std::vector<float> v(n * dim);
  for (float& x : v) x = g(rng);
  return v;
}

std::vector<std::string> ids(std::size_t n) {
  std::vector<std::string> out;
  out.reserve(n);
  for (std::size_t i = 0; i < n; ++i) out.push_back("d" + std::to_string(i));
  return out;
}

template <class F>
double median_ms(F&& f, int warmup = 3, int reps = 11) {
  for (int i = 0; i < warmup; ++i) f();
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) {
    const auto t0 = Clock::now();
    f();
    t.push_back(ms_since(t0));
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

VectorIndex make(std::uint32_t dim, Storage st, IndexKind kind, Metric metric) {
  IndexOptions o;
  o.dimension = dim;
  o.storage = st;
  o.kind = kind;
  o.metric = metric;
  o.hnsw.m = 16;
  o.hnsw.ef_construction = 200;
  o.hnsw.seed = 42;
  return VectorIndex::create(o).value();
}

}  // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  std::string json = "{\"simd\": ";
  json += simd_enabled() ? "true" : "false";
  json += ", \"flat\": [";
  const std::size_t shapes[2][2] = {{quick ? 20000u : 100000u, 384}, {quick ? 100000u : 1000000u, 100}};
  bool first = true;
  for (const auto& shape : shapes) {
    const std::size_t n = shape[0], dim = shape[1];
    const auto data = gaussian(n, dim, 1);
    const auto q = gaussian(1, dim, 2);
    const auto names = ids(n);
    for (Storage st : {Storage::kF32, Storage::kInt8, Storage::kBinary}) {
      auto ix = make(static_cast<std::uint32_t>(dim), st, IndexKind::kFlat, Metric::kDot);
      if (!ix.add(names, data.data(), data.size()).ok()) return 1;
      SearchOptions so;
      so.k = 10;
      volatile float sink = 0;
      const double ms = median_ms([&] { sink = sink + ix.search(q.data(), dim, so).value()[0].score; });
      const double bytes = st == Storage::kF32 ? n * dim * 4.0 : st == Storage::kInt8 ? n * dim * 1.0 : n * dim / 8.0;
      // Reference passes over the same stored rows (see tests/bench/suites/dense.mjs).
      double ref_ms[3];
      double stored = 0;
      const ReferencePass passes[3] = {ReferencePass::kKernel, ReferencePass::kBatch, ReferencePass::kRead};
      for (int p = 0; p < 3; ++p) {
        ref_ms[p] = median_ms([&] {
          const auto r = ix.reference_pass(q.data(), dim, passes[p]).value();
          stored = static_cast<double>(r.bytes);
          sink = sink + static_cast<float>(r.checksum);
        });
      }
      char buf[512];
      std::snprintf(buf, sizeof buf,
                    "%s{\"n\": %zu, \"dim\": %zu, \"storage\": \"%s\", \"median_ms\": %.4f, \"gb_per_s\": %.3f, "
                    "\"stored_bytes\": %.0f, \"kernel_ms\": %.4f, \"batch_ms\": %.4f, \"read_ms\": %.4f, \"read_gb_per_s\": %.3f}",
                    first ? "" : ", ", n, dim, storage_name(st), ms, bytes / 1e9 / (ms / 1000), stored, ref_ms[0], ref_ms[1],
                    ref_ms[2], stored / 1e9 / (ref_ms[2] / 1000));
      json += buf;
      first = false;
    }
  }
  json += "], \"hnsw\": [";
  const std::size_t n = quick ? 3000 : 10000, dim = 64, nq = 200;
  const auto data = gaussian(n, dim, 11);
  const auto queries = gaussian(nq, dim, 12);
  first = true;
  for (Storage st : {Storage::kF32, Storage::kInt8}) {
    auto ix = make(dim, st, IndexKind::kHnsw, Metric::kCosine);
    const auto t0 = Clock::now();
    if (!ix.add(ids(n), data.data(), data.size()).ok()) return 1;
    const double build_ms = ms_since(t0);
    auto exact = make(dim, Storage::kF32, IndexKind::kFlat, Metric::kCosine);
    if (!exact.add(ids(n), data.data(), data.size()).ok()) return 1;
    std::vector<std::vector<std::string>> truth(nq);
    SearchOptions so;
    so.k = 10;
    for (std::size_t i = 0; i < nq; ++i) {
      const auto hits = exact.search(queries.data() + i * dim, dim, so).value();  // a copy: no dangling temporary
      for (const Hit& h : hits) truth[i].push_back(exact.id(h.slot));
    }
    for (std::uint32_t ef : {16u, 32u, 64u, 128u, 256u, 512u}) {
      so.ef_search = ef;
      double found = 0;
      for (std::size_t i = 0; i < nq; ++i) {
        const auto hits = ix.search(queries.data() + i * dim, dim, so).value();
        for (const Hit& h : hits) found += std::count(truth[i].begin(), truth[i].end(), ix.id(h.slot)) ? 1 : 0;
      }
      const double ms = median_ms([&] {
        for (std::size_t i = 0; i < nq; ++i) (void)ix.search(queries.data() + i * dim, dim, so);
      }, 1, 5);
      char buf[256];
      std::snprintf(buf, sizeof buf, "%s{\"n\": %zu, \"dim\": %zu, \"storage\": \"%s\", \"build_ms\": %.1f, \"ef\": %u, \"recall_at_10\": %.4f, \"qps\": %.1f}",
                    first ? "" : ", ", n, dim, storage_name(st), build_ms, ef, found / (nq * 10.0), nq / (ms / 1000));
      json += buf;
      first = false;
    }
  }
  json += "]}";
  std::printf("%s\n", json.c_str());
  return 0;
}
