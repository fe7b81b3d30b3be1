// Native twin of the `text` bench suite: sentence splitting throughput over the given files.
// Prints one JSON object: {"files": n, "bytes": b, "median_ms": m, "mb_per_s": r, "sentences": s}.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "text/sentences.h"
#include "read_file.h"

int main(int argc, char** argv) {
  std::vector<std::string> texts;
  std::size_t bytes = 0;
  for (int i = 1; i < argc; ++i) {
    texts.push_back(ragwasm::bench::read_file(argv[i]));
    bytes += texts.back().size();
  }
  auto splitter = ragwasm::text::SentenceSplitter::create().value();
  std::size_t sentences = 0;
  std::vector<double> ms;
  for (int rep = 0; rep < 14; ++rep) {
    const auto t0 = std::chrono::steady_clock::now();
    std::size_t n = 0;
    for (const auto& t : texts) n += splitter.split(t).size();
    const auto t1 = std::chrono::steady_clock::now();
    if (rep >= 3) ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    sentences = n;
  }
  std::sort(ms.begin(), ms.end());
  const double median = ms[ms.size() / 2];
  std::printf("{\"files\": %d, \"bytes\": %zu, \"median_ms\": %.4f, \"p95_ms\": %.4f, \"mb_per_s\": %.2f, \"sentences\": %zu}\n",
              argc - 1, bytes, median, ms[ms.size() - 1], bytes / 1e6 / (median / 1000), sentences);
  return 0;
}
