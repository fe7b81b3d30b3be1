// Load time of static model files (StaticEmbedder::load, from bytes already in memory), e.g. the same
// model in format v1 (own layout, FNV-1a) and v2 (the one container, XXH64). Median of 9 loads after
// 2 warm-ups per file; also checks that every file embeds a few probe sentences identically to the
// first one. Usage: bench_embed_model_load MODEL.bin [MODEL.bin ...]. Prints one JSON object.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "embed/static_embedder.h"
#include "read_file.h"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: bench_embed_model_load MODEL.bin [MODEL.bin ...]\n");
    return 2;
  }
  const char* probes[] = {"The cat sat on the mat.", "Stock markets fell sharply after the interest rate decision.", "zürich"};
  nlohmann::json out = nlohmann::json::array();
  std::vector<std::vector<float>> first;
  for (int f = 1; f < argc; ++f) {
    const std::string bytes = ragwasm::bench::read_file(argv[f]);
    std::vector<double> ms;
    for (int i = 0; i < 11; ++i) {
      const auto t0 = std::chrono::steady_clock::now();
      auto m = ragwasm::embed::StaticEmbedder::load(bytes);
      const auto t1 = std::chrono::steady_clock::now();
      if (!m.ok()) {
        std::fprintf(stderr, "%s: %s\n", argv[f], m.error().message.c_str());
        return 1;
      }
      if (i >= 2) ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
      if (i == 0) {
        for (std::size_t p = 0; p < 3; ++p) {
          const auto v = m.value().embed(probes[p]);
          if (f == 1) first.push_back(v);
          else if (v != first[p]) {
            std::fprintf(stderr, "%s embeds \"%s\" differently from %s\n", argv[f], probes[p], argv[1]);
            return 1;
          }
        }
      }
    }
    std::sort(ms.begin(), ms.end());
    out.push_back({{"file", argv[f]}, {"bytes", bytes.size()}, {"version", static_cast<int>(static_cast<unsigned char>(bytes[8]))},
                   {"load_ms_median", ms[ms.size() / 2]}, {"load_ms_min", ms.front()}, {"load_ms_max", ms.back()}});
  }
  std::printf("%s\n", nlohmann::json{{"bench", "static model load"}, {"files", out}}.dump().c_str());
  return 0;
}
