// ragwasm_write_static_model: the native end of models/build-static-model.mjs. The JS builder computes
// the model's parts (vocabulary, probabilities, int8 vectors, principal component) and pipes them here;
// this tool writes the file with the one C++ writer (embed::write_static_model, the container of
// docs/formats.md), loads it back with StaticEmbedder::load, and only then exits 0. Built by CMake
// (native configurations), and on demand by scripts/build-assets.mjs.
//
//   ragwasm_write_static_model <out-file>     parts on stdin, little-endian, unpadded:
//     u32 dims | u32 words n | f32 sif_a | u32 words_bytes | words ('\n'-terminated, words_bytes)
//     | f32 p[n] | f32 scale[n] | f32 pc[dims] | i8 vectors[n * dims]
//   ragwasm_write_static_model --version      prints the format version it writes
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>

#include "embed/static_embedder.h"

namespace {

int fail(const std::string& why) {
  std::fprintf(stderr, "ragwasm_write_static_model: %s\n", why.c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace ragwasm::embed;
  if (argc == 2 && std::string(argv[1]) == "--version") {
    std::printf("%u\n", kStaticModelVersion);
    return 0;
  }
  if (argc != 2) return fail("usage: ragwasm_write_static_model <out-file> < parts   (or --version)");
  std::ios::sync_with_stdio(false);
  const std::string in((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
  std::size_t at = 0;
  auto take = [&](void* dst, std::size_t n) {
    if (in.size() - at < n) return false;
    std::memcpy(dst, in.data() + at, n);
    at += n;
    return true;
  };
  StaticModelParts p;
  std::uint32_t n = 0, words_bytes = 0;
  if (!take(&p.dims, 4) || !take(&n, 4) || !take(&p.sif_a, 4) || !take(&words_bytes, 4)) return fail("stdin: parts header truncated");
  if (p.dims == 0 || p.dims > kMaxStaticDims || n == 0 || n > kMaxStaticWords) return fail("stdin: dims or word count out of range");
  if (in.size() - at < words_bytes) return fail("stdin: word list truncated");
  std::size_t start = at;
  for (std::size_t i = at; i < at + words_bytes; ++i) {
    if (in[i] != '\n') continue;
    p.words.emplace_back(in, start, i - start);
    start = i + 1;
  }
  at += words_bytes;
  if (p.words.size() != n || start != at) return fail("stdin: word list does not hold " + std::to_string(n) + " newline-terminated words");
  p.probabilities.resize(n);
  p.scales.resize(n);
  p.principal.resize(p.dims);
  p.vectors.resize(std::size_t{n} * p.dims);
  if (!take(p.probabilities.data(), 4u * n) || !take(p.scales.data(), 4u * n) || !take(p.principal.data(), 4u * p.dims) ||
      !take(p.vectors.data(), p.vectors.size())) {
    return fail("stdin: parts truncated");
  }
  if (at != in.size()) return fail("stdin: " + std::to_string(in.size() - at) + " unexpected bytes after the parts");
  const std::string bytes = write_static_model(p);
  auto check = StaticEmbedder::load(bytes);
  if (!check.ok()) return fail("the written model does not load: " + check.error().message);
  std::ofstream f(argv[1], std::ios::binary);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  f.close();
  if (!f) return fail(std::string("cannot write ") + argv[1]);
  return 0;
}
