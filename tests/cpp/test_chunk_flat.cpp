// chunk::flat_chunks / flat_chunks16 (the array the binding hands to JS, moved out of
// wasm/bind_chunk.cpp) against the boring twin: each boundary converted alone by text::OffsetMapper
// and each span estimated alone by estimate_tokens, on seeded random documents chunked by every
// strategy, plus unordered and overlapping spans (a backward step restarts the count).
#include <catch2/catch.hpp>

#include <random>
#include <string>
#include <vector>

#include "chunk/chunk.h"
#include "text/utf8.h"

using namespace ragwasm;
using namespace ragwasm::chunk;

namespace {

const std::vector<std::string> kPieces = {"word", "Lorem", " ", " ", "\n", "\n\n", ". ", "\xF0\x9F\x98\x80", "\xE4\xB8\xAD\xE6\x96\x87",
                                          "e\xCC\x81", "# Header\n", "\n## Sub\n", "x", "\xD0\x96", "don't", "covid-19", "\t"};

std::string random_doc(std::mt19937& rng, std::size_t pieces, bool ascii_only) {
  std::string s;
  for (std::size_t i = 0; i < pieces; ++i) {
    const std::string& p = kPieces[rng() % kPieces.size()];
    bool ascii = true;
    for (unsigned char c : p) ascii = ascii && c < 0x80;
    if (!ascii_only || ascii) s += p;
  }
  return s;
}

std::vector<std::uint32_t> naive(std::string_view text, const std::vector<ChunkSpan>& spans, bool tokens) {
  text::OffsetMapper map(text);
  std::vector<std::uint32_t> flat;
  for (const auto& c : spans) {
    flat.push_back(static_cast<std::uint32_t>(map.to_utf16(c.start)));
    flat.push_back(static_cast<std::uint32_t>(map.to_utf16(c.end)));
    flat.push_back(tokens ? estimate_tokens(text.substr(c.start, c.end - c.start)) : 0);
    flat.push_back(static_cast<std::uint32_t>(c.header + 1));
  }
  return flat;
}

}  // namespace

TEST_CASE("flat chunks equal per-span offset conversion and token estimates", "[prop]") {
  const unsigned seed = 1407;
  std::mt19937 rng(seed);
  const char* option_sets[] = {R"({"strategy": "recursive", "chunkSize": 40, "chunkOverlap": 10})",
                               R"({"strategy": "fixed", "chunkSize": 25, "chunkOverlap": 5, "unit": "codepoints"})",
                               R"({"strategy": "markdown", "chunkSize": 60, "chunkOverlap": 0})",
                               R"({"strategy": "sentence", "chunkSize": 50, "unit": "bytes"})"};
  for (int round = 0; round < 60; ++round) {
    const bool ascii_only = round % 5 == 0;
    const std::string doc = random_doc(rng, 20 + rng() % 200, ascii_only);
    for (const char* json : option_sets) {
      INFO("seed " << seed << " round " << round << " options " << json);
      auto o = parse_options(json);
      REQUIRE(o.ok());
      auto r = chunk_text(doc, o.value());
      REQUIRE(r.ok());
      const auto& spans = r.value().chunks;
      REQUIRE(flat_chunks(doc, spans) == naive(doc, spans, true));
      REQUIRE(flat_chunks(doc, spans, false) == naive(doc, spans, false));
      if (ascii_only) REQUIRE(flat_chunks(doc, spans, false, true) == naive(doc, spans, false));
    }
  }
}

TEST_CASE("flat chunks stay exact for spans out of order", "[unit]") {
  const std::string doc = "ab \xF0\x9F\x98\x80 cd \xE4\xB8\xAD ef gh";
  // a later span first, overlapping spans, an empty span, a span ending before the previous start
  // (boundaries on characters, as every strategy gives)
  const std::vector<ChunkSpan> spans = {{10, 18, 0}, {0, 11, -1}, {3, 3, -1}, {2, 7, 1}, {0, doc.size(), -1}};
  REQUIRE(flat_chunks(doc, spans) == naive(doc, spans, true));
  REQUIRE(flat_chunks(doc, spans, false) == naive(doc, spans, false));
  REQUIRE(flat_chunks(doc, {}).empty());
}

TEST_CASE("flat chunks over UTF-16 text keep the offsets and estimate each span", "[unit]") {
  const std::u16string text = u"Hello wide \u4E2D\u6587 world \U0001F600 end";
  const std::vector<ChunkSpan> spans = {{0, 10, -1}, {6, 16, -1}, {16, text.size(), -1}};
  const auto flat = flat_chunks16(text, spans);
  REQUIRE(flat.size() == 12);
  for (std::size_t k = 0; k < spans.size(); ++k) {
    REQUIRE(flat[4 * k] == spans[k].start);
    REQUIRE(flat[4 * k + 1] == spans[k].end);
    REQUIRE(flat[4 * k + 2] == estimate_tokens16(std::u16string_view(text).substr(spans[k].start, spans[k].end - spans[k].start)));
    REQUIRE(flat[4 * k + 3] == 0);
  }
  REQUIRE(flat[2] > 0);
  REQUIRE(flat_chunks16(text, spans, false)[2] == 0);
}
