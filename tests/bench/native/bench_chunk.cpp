// Native twin of the `chunk` bench suite: chunking throughput per strategy/config over the given
// files (all files concatenated per run, each chunked separately). Prints one JSON object:
// {"files": n, "bytes": b, "results": {"recursive 1800/300": {"median_ms", "mb_per_s", "cpu_median_ms",
// "cpu_mb_per_s", "chunks"}, ...}}. cpu_* use this process's CPU time, which stays meaningful when
// the machine is shared (wall-clock numbers then include time spent waiting for a core).
#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <string>
#include <vector>

#include "chunk/chunk.h"
#include "read_file.h"

using namespace ragwasm::chunk;

int main(int argc, char** argv) {
  std::vector<std::string> texts;
  std::size_t bytes = 0;
  for (int i = 1; i < argc; ++i) {
    texts.push_back(ragwasm::bench::read_file(argv[i]));
    bytes += texts.back().size();
  }
  struct Config {
    const char* name;
    Strategy strategy;
    std::size_t size;
    std::size_t overlap;
  };
  const Config configs[] = {
      {"recursive 1800/300", Strategy::kRecursive, 1800, 300}, {"recursive 512/64", Strategy::kRecursive, 512, 64},
      {"recursive 200/0", Strategy::kRecursive, 200, 0},       {"markdown 1800/300", Strategy::kMarkdown, 1800, 300},
      {"markdown 512/64", Strategy::kMarkdown, 512, 64},       {"markdown 200/0", Strategy::kMarkdown, 200, 0},
      {"fixed 1000/200", Strategy::kFixed, 1000, 200},         {"markdown-header 2000", Strategy::kMarkdownHeader, 2000, 0},
      {"sentence 1000", Strategy::kSentence, 1000, 0},
  };
  std::printf("{\"files\": %d, \"bytes\": %zu, \"results\": {", argc - 1, bytes);
  bool first = true;
  for (const Config& c : configs) {
    ChunkOptions o;
    o.strategy = c.strategy;
    o.chunk_size = c.size;
    o.chunk_overlap = c.overlap;
    o.invalid_utf8 = InvalidUtf8::kRepair;
    std::vector<double> ms, cpu;
    std::size_t chunks = 0;
    auto cpu_now = [] {
      timespec ts;
      clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
      return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
    };
    for (int rep = 0; rep < 14; ++rep) {
      const double c0 = cpu_now();
      const auto t0 = std::chrono::steady_clock::now();
      std::size_t n = 0;
      for (const auto& t : texts) {
        auto r = chunk_text(t, o);
        if (r.ok()) n += r.value().chunks.size();
      }
      const auto t1 = std::chrono::steady_clock::now();
      const double c1 = cpu_now();
      if (rep >= 3) {
        ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
        cpu.push_back(c1 - c0);
      }
      chunks = n;
    }
    std::sort(ms.begin(), ms.end());
    std::sort(cpu.begin(), cpu.end());
    const double median = ms[ms.size() / 2];
    const double cmed = cpu[cpu.size() / 2];
    std::printf("%s\"%s\": {\"median_ms\": %.4f, \"mb_per_s\": %.2f, \"cpu_median_ms\": %.4f, \"cpu_mb_per_s\": %.2f, \"chunks\": %zu}",
                first ? "" : ", ", c.name, median, bytes / 1e6 / (median / 1000), cmed, bytes / 1e6 / (cmed / 1000), chunks);
    first = false;
  }
  std::printf("}}\n");
  return 0;
}
