// The optional WASM-threads build of the flat f32 scan (issue #18 item 1; docs/parallel.md, "WASM threads"):
// one VectorIndex (flat, dot, f32) in a shared-memory heap, its scan split over pthreads. Not part of the
// package, not built by default: `bash scripts/build.sh wasm-threads` -> build/wasm-threads/threads/.
// Each thread calls the library's own scan on a slot range (VectorIndex::search_exact_many_slots) and
// the lists are merged by VectorIndex::merge_hits: the hits equal search_exact_many's (tests/cpp/test_dense.cpp).
// Here only threads are started and results converted: no scoring, no ranking.
// C exports (plain pointers into the heap; 0 = ok, else an error whose text st_error() returns):
//   st_create(dim)                              a new empty index (the previous one is dropped)
//   st_add(data, rows, first)                   rows x dim floats, ids "v<first + i>" (the bench's ids)
//   st_search(queries, count, k, threads, chunk, out_slots, out_scores, out_counts, out_ms)
//       chunk 0: thread t scans the t-th of `threads` equal slot ranges (a static split, as the Worker pool's shards);
//       chunk > 0: threads take ranges of `chunk` slots from a shared counter until none is left (dynamic);
//       the calling thread is one of the threads. out_* hold count * k hits, count lengths, and per
//       thread its milliseconds in the scan (threads entries).
//   st_id(slot)                                 the id of a slot (UTF-8, NUL-terminated)
#include <emscripten/emscripten.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "dense/vector_index.h"

using ragwasm::dense::Hit;
using ragwasm::dense::IndexOptions;
using ragwasm::dense::Metric;
using ragwasm::dense::SearchOptions;
using ragwasm::dense::VectorIndex;

namespace {

std::unique_ptr<VectorIndex> g_index;
std::string g_error;

int fail(const std::string& message) {
  g_error = message;
  return 1;
}

using Lists = std::vector<std::vector<Hit>>;  // one list per query

}  // namespace

extern "C" {

EMSCRIPTEN_KEEPALIVE const char* st_error() { return g_error.c_str(); }

EMSCRIPTEN_KEEPALIVE int st_create(std::uint32_t dim) {
  IndexOptions o;
  o.dimension = dim;
  o.metric = Metric::kDot;
  auto r = VectorIndex::create(o);
  if (!r.ok()) return fail(r.error().message);
  g_index = std::make_unique<VectorIndex>(std::move(r).value());
  return 0;
}

EMSCRIPTEN_KEEPALIVE int st_add(const float* data, std::uint32_t rows, std::uint32_t first) {
  if (!g_index) return fail("st_add: no index (call st_create first)");
  std::vector<std::string> ids;
  ids.reserve(rows);
  for (std::uint32_t i = 0; i < rows; ++i) ids.push_back("v" + std::to_string(first + i));
  auto s = g_index->add(ids, data, std::size_t{rows} * g_index->options().dimension);
  return s.ok() ? 0 : fail(s.error().message);
}

EMSCRIPTEN_KEEPALIVE const char* st_id(std::uint32_t slot) {
  return g_index && slot < g_index->slot_count() ? g_index->id(slot).c_str() : "";
}

EMSCRIPTEN_KEEPALIVE int st_search(const float* queries, std::uint32_t count, std::uint32_t k, std::uint32_t threads,
                                   std::uint32_t chunk, std::uint32_t* out_slots, float* out_scores,
                                   std::uint32_t* out_counts, double* out_ms) {
  if (!g_index) return fail("st_search: no index (call st_create first)");
  if (threads < 1 || threads > 16) return fail("threads: expected 1..16, got " + std::to_string(threads));
  const VectorIndex& ix = *g_index;
  const std::size_t n = ix.slot_count();
  const std::size_t dim = ix.options().dimension;
  SearchOptions o;
  o.k = k;
  // the ranges: static = `threads` equal parts; dynamic = ceil(n / chunk) parts taken from a counter
  const std::size_t parts = chunk == 0 ? threads : std::max<std::size_t>(1, (n + chunk - 1) / chunk);
  const std::size_t step = chunk == 0 ? (n + threads - 1) / threads : chunk;
  std::vector<Lists> results(parts);
  std::vector<std::string> errors(threads);
  std::atomic<std::size_t> next{0};
  auto scan = [&](std::uint32_t t, std::size_t part) {  // one range into results[part]; false on an error
    const std::size_t begin = std::min(n, part * step), end = std::min(n, begin + step);
    auto r = ix.search_exact_many_slots(queries, count, dim, o, begin, end);
    if (!r.ok()) {
      errors[t] = r.error().message;
      return false;
    }
    results[part] = std::move(r).value();
    return true;
  };
  auto work = [&](std::uint32_t t) {
    const auto t0 = std::chrono::steady_clock::now();
    if (chunk == 0) {
      scan(t, t);
    } else {
      for (std::size_t p = next.fetch_add(1); p < parts && scan(t, p); p = next.fetch_add(1)) {
      }
    }
    out_ms[t] = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  };
  std::vector<std::thread> pool;
  for (std::uint32_t t = 1; t < threads; ++t) pool.emplace_back(work, t);
  work(0);
  for (auto& th : pool) th.join();
  for (const auto& e : errors) {
    if (!e.empty()) return fail(e);
  }
  std::vector<const std::vector<Hit>*> lists(parts);
  for (std::uint32_t q = 0; q < count; ++q) {
    for (std::size_t p = 0; p < parts; ++p) lists[p] = &results[p][q];
    const std::vector<Hit> hits = ix.merge_hits(lists.data(), lists.size(), k);
    out_counts[q] = static_cast<std::uint32_t>(hits.size());
    for (std::size_t i = 0; i < hits.size(); ++i) {
      out_slots[std::size_t{q} * k + i] = hits[i].slot;
      out_scores[std::size_t{q} * k + i] = hits[i].score;
    }
  }
  return 0;
}

}  // extern "C"
