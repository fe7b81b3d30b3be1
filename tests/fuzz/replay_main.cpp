// Replay driver for libFuzzer entries under g++ (CI has no clang fuzzer runtime in the native build):
// runs LLVMFuzzerTestOneInput on every file of a corpus folder, then on N seeded random mutations of
// those files (bit flips, byte insertions/deletions, truncation, splices). Under RAGWASM_SANITIZE=ON
// this is a sanitizer-checked mutation loop. Usage: fuzz_x_replay CORPUS_DIR [MUTATIONS] [SEED]
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <dirent.h>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

std::vector<std::string> read_corpus(const std::string& dir) {
  std::vector<std::string> out;
  if (DIR* d = opendir(dir.c_str())) {
    std::vector<std::string> names;
    while (dirent* e = readdir(d)) {
      if (e->d_name[0] != '.') names.emplace_back(e->d_name);
    }
    closedir(d);
    std::sort(names.begin(), names.end());
    for (const auto& n : names) {
      std::ifstream f(dir + "/" + n, std::ios::binary);
      std::ostringstream ss;
      ss << f.rdbuf();
      out.push_back(ss.str());
    }
  }
  return out;
}

void run(const std::string& s) { LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(s.data()), s.size()); }

std::string mutate(const std::vector<std::string>& corpus, std::mt19937_64& rng) {
  std::string s = corpus.empty() ? std::string() : corpus[rng() % corpus.size()];
  const int edits = 1 + static_cast<int>(rng() % 8);
  for (int e = 0; e < edits; ++e) {
    switch (rng() % 6) {
      case 0:  // flip a bit
        if (!s.empty()) s[rng() % s.size()] ^= static_cast<char>(1u << (rng() % 8));
        break;
      case 1:  // insert a random byte
        s.insert(s.begin() + static_cast<long>(s.empty() ? 0 : rng() % (s.size() + 1)), static_cast<char>(rng() & 0xFF));
        break;
      case 2:  // delete a byte
        if (!s.empty()) s.erase(s.begin() + static_cast<long>(rng() % s.size()));
        break;
      case 3:  // truncate
        if (!s.empty()) s.resize(rng() % s.size());
        break;
      case 4:  // splice with another corpus entry
        if (!corpus.empty()) {
          const std::string& o = corpus[rng() % corpus.size()];
          if (!o.empty()) s += o.substr(rng() % o.size());
        }
        break;
      default:  // overwrite 4 bytes with an interesting value
        if (s.size() >= 4) {
          const std::uint32_t vals[] = {0u, 0xFFFFFFFFu, 0x7FFFFFFFu, 0x80000000u, 1u};
          const std::uint32_t v = vals[rng() % 5];
          const std::size_t at = rng() % (s.size() - 3);
          for (int k = 0; k < 4; ++k) s[at + k] = static_cast<char>((v >> (8 * k)) & 0xFF);
        }
        break;
    }
  }
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s CORPUS_DIR [MUTATIONS] [SEED]\n", argv[0]);
    return 2;
  }
  const auto corpus = read_corpus(argv[1]);
  const long mutations = argc > 2 ? std::atol(argv[2]) : 1000;
  const std::uint64_t seed = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 20261121;
  for (const auto& s : corpus) run(s);
  run(std::string());
  std::mt19937_64 rng(seed);
  for (long i = 0; i < mutations; ++i) run(mutate(corpus, rng));
  std::printf("replayed %zu corpus files and %ld mutations (seed %llu)\n", corpus.size(), mutations,
              static_cast<unsigned long long>(seed));
  return 0;
}
