// Seeded property tests over thousands of random documents (emoji, CJK, combining marks, CRLF, very
// long lines, no spaces at all, markdown headers/fences/tables) for every strategy:
//   order       chunks are non-empty, starts and ends never decrease
//   exactness   offsets fall on code point boundaries (so the slices are the chunk texts)
//   coverage    every character that is not JS white space lies in at least one chunk
//               (the only text ever dropped is white space trimmed at chunk boundaries)
//   overlap     consecutive chunks share at most chunk_overlap units
//   size        fixed, strict recursive, markdown-header and (default separators) parity recursive
//               chunks never exceed chunk_size
#include <catch2/catch.hpp>

#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "chunk/chunk.h"
#include "text/utf8.h"

using namespace ragwasm;
using namespace ragwasm::chunk;

namespace {

const char* const kPieces[] = {
    "word", "Lorem", "ipsum", " ", " ", " ", "\n", "\r\n", "\n\n", ". ", "! ", "? ", "\xF0\x9F\x98\x80",
    "\xE4\xB8\xAD\xE6\x96\x87", "e\xCC\x81", "\xC2\xA0", "\xE3\x80\x80", "# Header\n", "\n## Sub\n", "```\n",
    "| a | b |\n", "Title\n===\n", "---\n", "\t", "Dr. ", "3.14 ", "\xE2\x80\xA8", "x",
};

std::string random_doc(std::mt19937& rng) {
  std::string t;
  const int mode = static_cast<int>(rng() % 4);
  const std::size_t n = rng() % 300;
  for (std::size_t i = 0; i < n; ++i) {
    if (mode == 1) {
      t += (rng() % 5 == 0) ? "\xF0\x9F\x98\x80" : "abc";  // no spaces at all, one very long line
    } else if (mode == 2 && rng() % 30 == 0) {
      t += std::string(200 + rng() % 400, 'z');  // very long unbroken runs
    } else {
      t += kPieces[rng() % (sizeof(kPieces) / sizeof(kPieces[0]))];
    }
  }
  return t;
}

bool is_boundary(std::string_view t, std::size_t i) {
  return i == t.size() || (i < t.size() && text::is_utf8_lead(static_cast<unsigned char>(t[i])));
}

void check(std::string_view t, const ChunkOptions& o, const std::vector<ChunkSpan>& chunks, bool bounded,
           bool check_overlap, unsigned seed) {
  INFO("seed " << seed << " strategy " << static_cast<int>(o.strategy) << " size " << o.chunk_size << " overlap "
                << o.chunk_overlap << " strict " << o.strict << " unit " << static_cast<int>(o.unit));
  std::vector<char> covered(t.size() + 1, 0);
  for (std::size_t i = 0; i < chunks.size(); ++i) {
    const ChunkSpan& c = chunks[i];
    REQUIRE(c.start < c.end);
    REQUIRE(c.end <= t.size());
    REQUIRE(is_boundary(t, c.start));
    REQUIRE(is_boundary(t, c.end));
    if (i > 0) {
      REQUIRE(c.start >= chunks[i - 1].start);
      REQUIRE(c.end >= chunks[i - 1].end);
      if (check_overlap && c.start < chunks[i - 1].end) {
        REQUIRE(measure(t.substr(c.start, chunks[i - 1].end - c.start), o.unit) <= o.chunk_overlap);
      }
    }
    if (bounded) REQUIRE(measure(t.substr(c.start, c.end - c.start), o.unit) <= o.chunk_size);
    for (std::size_t k = c.start; k < c.end; ++k) covered[k] = 1;
  }
  std::size_t i = 0;
  while (i < t.size()) {
    std::size_t len = 0;
    const char32_t cp = text::decode_utf8(t, i, &len);
    if (!is_js_whitespace(cp) && !covered[i]) {
      FAIL_CHECK("character at byte " << i << " is in no chunk");
      return;
    }
    i += len;
  }
}

}  // namespace

TEST_CASE("every strategy keeps order offsets coverage overlap and size on random documents", "[prop]") {
  const unsigned base_seed = 20261121;
  std::mt19937 rng(base_seed);
  const Unit units[] = {Unit::kUtf16, Unit::kCodePoints, Unit::kBytes, Unit::kTokens};
  for (unsigned doc = 0; doc < 1500; ++doc) {
    const unsigned seed = base_seed + doc;
    rng.seed(seed);
    const std::string t = random_doc(rng);
    const std::size_t size = 4 + rng() % 120;
    const std::size_t overlap = rng() % 3 == 0 ? 0 : rng() % size;
    const Unit unit = units[rng() % 4];

    ChunkOptions o;
    o.chunk_size = size;
    o.chunk_overlap = overlap;
    // Parity recursive and markdown (UTF-16, LangChain.js semantics).
    for (Strategy s : {Strategy::kRecursive, Strategy::kMarkdown}) {
      o.strategy = s;
      o.unit = Unit::kUtf16;
      o.strict = false;
      auto r = chunk_text(t, o);
      REQUIRE(r.ok());
      check(t, o, r.value().chunks, s == Strategy::kRecursive, true, seed);
      // Strict mode in a random unit.
      o.strict = true;
      o.unit = unit;
      r = chunk_text(t, o);
      REQUIRE(r.ok());
      check(t, o, r.value().chunks, true, unit != Unit::kTokens, seed);
    }
    o.strict = false;
    o.unit = unit;
    o.strategy = Strategy::kFixed;
    auto r = chunk_text(t, o);
    REQUIRE(r.ok());
    check(t, o, r.value().chunks, true, true, seed);
    o.strategy = Strategy::kMarkdownHeader;
    o.strip_headers = doc % 2 == 0;
    r = chunk_text(t, o);
    REQUIRE(r.ok());
    if (!o.strip_headers) check(t, o, r.value().chunks, true, unit != Unit::kTokens, seed);
    else {
      for (const auto& c : r.value().chunks) REQUIRE(measure(t.substr(c.start, c.end - c.start), unit) <= size);
    }
    o.strategy = Strategy::kSentence;
    o.overlap_sentences = rng() % 3;
    r = chunk_text(t, o);
    REQUIRE(r.ok());
    check(t, o, r.value().chunks, false, false, seed);
  }
}

TEST_CASE("semantic chunks cover every sentence in order for random distances", "[prop]") {
  std::mt19937 rng(7);
  for (int doc = 0; doc < 500; ++doc) {
    const std::string t = random_doc(rng);
    std::vector<ChunkSpan> units;
    std::size_t p = 0;
    while (p < t.size()) {  // fake sentences: split at every ". "
      std::size_t q = t.find(". ", p);
      q = q == std::string::npos ? t.size() : q + 1;
      units.push_back(ChunkSpan{p, q, -1});
      p = q;
    }
    std::vector<double> d(units.empty() ? 0 : units.size() - 1);
    for (double& x : d) x = static_cast<double>(rng() % 1000) / 1000.0;
    SemanticOptions o;
    o.method = static_cast<Breakpoint>(rng() % 4);
    o.max_chunk_size = rng() % 2 ? 0 : 50 + rng() % 200;
    o.min_chunk_size = o.max_chunk_size ? rng() % o.max_chunk_size : rng() % 100;
    auto r = semantic_chunks(t, units, d, o);
    REQUIRE(r.ok());
    std::size_t expect_start = units.empty() ? 0 : units[0].start;
    for (const auto& c : r.value()) {
      REQUIRE(c.start == expect_start);  // chunks tile the sentence sequence
      std::size_t next = 0;
      for (std::size_t i = 0; i < units.size(); ++i) {
        if (units[i].end == c.end) next = i + 1;
      }
      REQUIRE(next > 0);
      if (o.max_chunk_size && measure(t.substr(c.start, c.end - c.start), Unit::kUtf16) > o.max_chunk_size) {
        REQUIRE(c.end == units[next - 1].end);
        REQUIRE(c.start == units[next - 1].start);  // only a single sentence may exceed the maximum
      }
      expect_start = next < units.size() ? units[next].start : t.size();
    }
    if (!units.empty()) REQUIRE(r.value().back().end == units.back().end);
  }
}

TEST_CASE("running token counts reproduce estimate_tokens and UTF-16 lengths on random spans", "[prop]") {
  std::mt19937 rng(99);
  for (int doc = 0; doc < 300; ++doc) {
    const std::string t = random_doc(rng);
    if (t.empty()) continue;
    // random code point boundaries, visited in order and sometimes backwards (restart)
    std::vector<std::size_t> cuts;
    for (std::size_t i = 0; i <= t.size(); ++i) {
      if (is_boundary(t, i) && rng() % 8 == 0) cuts.push_back(i);
    }
    if (cuts.size() < 2) continue;
    TokenCounter counter(t);
    for (int k = 0; k < 20; ++k) {
      std::size_t a = cuts[rng() % cuts.size()], b = cuts[rng() % cuts.size()];
      if (a > b) std::swap(a, b);
      counter.advance_to(a);
      const auto sa = counter.snapshot();
      const std::size_t ua = counter.utf16();
      counter.advance_to(b);
      INFO("doc " << doc << " span " << a << ".." << b);
      REQUIRE(counter.tokens_between(sa, a, counter.snapshot()) == estimate_tokens(t.substr(a, b - a)));
      REQUIRE(counter.utf16() - ua == measure(t.substr(a, b - a), Unit::kUtf16));
    }
  }
}
