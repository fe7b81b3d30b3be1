// Native twin of the `bm25` bench suite: builds a Bm25Index over a BEIR folder (title + text) and
// times the judged test queries at top-10 and top-100. Prints one JSON object.
// Usage: bench_sparse BEIR_DIR [reps]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "sparse/index.h"

using namespace ragwasm::sparse;
using Clock = std::chrono::steady_clock;

static double ms_since(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: bench_sparse BEIR_DIR [reps]\n");
    return 2;
  }
  const std::string dir = argv[1];
  const int reps = argc > 2 ? std::max(1, std::atoi(argv[2])) : 3;
  std::vector<Document> docs;
  {
    std::ifstream f(dir + "/corpus.jsonl");
    std::string line;
    while (std::getline(f, line)) {
      if (line.empty()) continue;
      auto j = nlohmann::json::parse(line);
      Document d;
      d.id = j["_id"].get<std::string>();
      d.fields = {j.value("title", ""), j.value("text", "")};
      docs.push_back(std::move(d));
    }
  }
  std::map<std::string, std::map<std::string, int>> qrels;
  {
    std::ifstream f(dir + "/qrels/test.tsv");
    std::string line;
    std::getline(f, line);
    while (std::getline(f, line)) {
      std::istringstream ss(line);
      std::string q, d;
      int r = 0;
      if (ss >> q >> d >> r) qrels[q][d] = r;
    }
  }
  std::vector<std::pair<std::string, std::string>> queries;
  {
    std::ifstream f(dir + "/queries.jsonl");
    std::string line;
    while (std::getline(f, line)) {
      if (line.empty()) continue;
      auto j = nlohmann::json::parse(line);
      const std::string id = j["_id"].get<std::string>();
      if (qrels.count(id)) queries.emplace_back(id, j.value("text", ""));
    }
  }
  double build_ms = 1e300, build_cpu_ms = 1e300;
  for (int r = 0; r < reps; ++r) {
    auto t = Clock::now();
    const std::clock_t c = std::clock();
    auto idx = Bm25Index::create({}).value();
    for (const auto& d : docs) (void)idx.add(d);
    build_ms = std::min(build_ms, ms_since(t));
    build_cpu_ms = std::min(build_cpu_ms, 1000.0 * static_cast<double>(std::clock() - c) / CLOCKS_PER_SEC);
  }
  auto idx = Bm25Index::create({}).value();
  for (const auto& d : docs) (void)idx.add(d);
  const std::size_t bytes = idx.save().size();
  // nDCG@10 (trec_eval order: score desc, doc id desc)
  double ndcg = 0;
  for (const auto& [qid, text] : queries) {
    SearchOptions o;
    o.k = 100;
    auto h = idx.search(text, o).value();
    std::sort(h.begin(), h.end(), [](const Hit& a, const Hit& b) { return a.score != b.score ? a.score > b.score : a.id > b.id; });
    const auto& rel = qrels[qid];
    double dcg = 0, idcg = 0;
    for (std::size_t i = 0; i < h.size() && i < 10; ++i) {
      auto it = rel.find(h[i].id);
      if (it != rel.end() && it->second > 0) dcg += it->second / std::log2(i + 2.0);
    }
    std::vector<int> g;
    for (const auto& [d, r] : rel) g.push_back(r);
    std::sort(g.rbegin(), g.rend());
    for (std::size_t i = 0; i < g.size() && i < 10; ++i) idcg += g[i] / std::log2(i + 2.0);
    ndcg += idcg > 0 ? dcg / idcg : 0;
  }
  ndcg /= static_cast<double>(qrels.size());
  nlohmann::json out;
  for (std::size_t k : {std::size_t{10}, std::size_t{100}}) {
    SearchOptions o;
    o.k = k;
    for (const auto& q : queries) (void)idx.search(q.second, o);  // warm-up
    double best_qps = 0, p50 = 0, p95 = 0, best_cpu_qps = 0;
    for (int r = 0; r < reps; ++r) {
      std::vector<double> lat;
      auto t0 = Clock::now();
      const std::clock_t c0 = std::clock();
      for (const auto& q : queries) {
        auto t = Clock::now();
        (void)idx.search(q.second, o);
        lat.push_back(ms_since(t));
      }
      const double qps = static_cast<double>(queries.size()) / (ms_since(t0) / 1000.0);
      const double cpu_s = static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
      if (cpu_s > 0) best_cpu_qps = std::max(best_cpu_qps, static_cast<double>(queries.size()) / cpu_s);
      std::sort(lat.begin(), lat.end());
      if (qps > best_qps) {
        best_qps = qps;
        p50 = lat[lat.size() / 2];
        p95 = lat[std::min(lat.size() - 1, lat.size() * 95 / 100)];
      }
    }
    out[k == 10 ? "top10" : "top100"] = {{"qps", best_qps}, {"cpu_qps", best_cpu_qps}, {"p50_ms", p50}, {"p95_ms", p95}};
  }
  out["docs"] = docs.size();
  out["queries"] = queries.size();
  out["build_ms"] = build_ms;
  out["build_cpu_ms"] = build_cpu_ms;  // process CPU time: less disturbed by other load on the machine
  out["bytes"] = bytes;
  out["memory_bytes"] = idx.stats().memory_bytes;
  out["ndcg10"] = ndcg;
  std::printf("%s\n", out.dump().c_str());
  return 0;
}
