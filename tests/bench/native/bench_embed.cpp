// Native twin of the `tokenizer` bench suite: WordPiece over SciFact documents ("title text").
// Usage: bench_embed TOKENIZER_JSON CORPUS_JSONL. Prints one JSON object.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "embed/wordpiece.h"
#include "read_file.h"

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: bench_embed TOKENIZER_JSON CORPUS_JSONL\n");
    return 2;
  }
  const auto read = ragwasm::bench::read_file;
  auto tok = ragwasm::embed::WordPieceTokenizer::from_tokenizer_json(read(argv[1]));
  if (!tok.ok()) {
    std::fprintf(stderr, "%s\n", tok.error().message.c_str());
    return 1;
  }
  std::vector<std::string> texts;
  std::istringstream lines(read(argv[2]));
  std::string line;
  std::size_t bytes = 0;
  while (std::getline(lines, line)) {
    if (line.empty()) continue;
    auto j = nlohmann::json::parse(line);
    texts.push_back(j.value("title", std::string()) + " " + j.value("text", std::string()));
    bytes += texts.back().size();
  }
  std::vector<double> ms;
  std::size_t tokens = 0;
  for (int rep = 0; rep < 8; ++rep) {
    const auto t0 = std::chrono::steady_clock::now();
    tokens = 0;
    for (const auto& t : texts) tokens += tok.value().tokenize(t).size() + 2;
    const auto t1 = std::chrono::steady_clock::now();
    if (rep > 0) ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());  // rep 0 is warm-up
  }
  std::sort(ms.begin(), ms.end());
  const double median = ms[ms.size() / 2];
  std::printf("{\"texts\": %zu, \"bytes\": %zu, \"tokens\": %zu, \"median_ms\": %.3f, \"tokens_per_s\": %.0f, \"mb_per_s\": %.2f}\n", texts.size(), bytes, tokens,
              median, tokens / (median / 1000.0), bytes / 1e6 / (median / 1000.0));
  return 0;
}
