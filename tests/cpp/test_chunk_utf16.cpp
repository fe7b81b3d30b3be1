// The UTF-16 instantiation of the recursive splitter (the JS binding's fast path) against the UTF-8
// one: on seeded random documents (emoji, CJK, combining marks, CRLF, JS white space, markdown
// structure, no spaces, long runs, lone surrogates) split_recursive16 over the UTF-16 code units
// gives exactly the spans of split_recursive over the UTF-8 encoding, converted to UTF-16 offsets,
// for default and markdown separators, custom (non-ASCII) separators, parity and strict mode.
// estimate_tokens16 and trim_js16 agree with their UTF-8 twins on the same spans.
#include <catch2/catch.hpp>

#include <random>
#include <string>
#include <vector>

#include "chunk/chunk.h"
#include "text/utf8.h"

using namespace ragwasm;
using namespace ragwasm::chunk;

namespace {

// Pieces as code point lists; 0xD800 / 0xDC00 alone stand for a lone surrogate (in the UTF-8 text:
// U+FFFD, what TextEncoder writes for it).
const std::vector<std::u32string> kPieces = {
    U"word", U"Lorem", U"ipsum", U" ", U" ", U" ", U"\n", U"\r\n", U"\n\n", U". ", U"\U0001F600", U"\u4E2D\u6587",
    U"e\u0301", U"\u00A0", U"\u3000", U"\u2028", U"\uFEFF", U"# Header\n", U"\n## Sub\n", U"```\n", U"```\n\n",
    U"| a | b |\n", U"\n\n---\n\n", U"\t", U"\u00E9t\u00E9", U"x", U"\u0416", U"\u00A7 ", U"\n### H\n",
};

struct Doc {
  std::u16string u16;
  std::string u8;
  std::vector<std::size_t> u16_at_byte;  // UTF-16 offset of every UTF-8 byte offset (code point starts + end)
};

void append_cp(Doc* d, char32_t cp, bool lone) {
  d->u16_at_byte.resize(d->u8.size() + 1, 0);
  d->u16_at_byte[d->u8.size()] = d->u16.size();
  if (lone) {
    d->u16.push_back(static_cast<char16_t>(cp));
    d->u8 += "\xEF\xBF\xBD";  // U+FFFD
  } else {
    if (cp >= 0x10000) {
      d->u16.push_back(static_cast<char16_t>(0xD800 + ((cp - 0x10000) >> 10)));
      d->u16.push_back(static_cast<char16_t>(0xDC00 + ((cp - 0x10000) & 0x3FF)));
    } else {
      d->u16.push_back(static_cast<char16_t>(cp));
    }
    text::append_utf8(d->u8, cp);
  }
  d->u16_at_byte.resize(d->u8.size() + 1, 0);
  d->u16_at_byte[d->u8.size()] = d->u16.size();
}

Doc random_doc(std::mt19937& rng) {
  Doc d;
  d.u16_at_byte.assign(1, 0);
  const int mode = static_cast<int>(rng() % 4);
  const std::size_t n = rng() % 300;
  for (std::size_t i = 0; i < n; ++i) {
    if (mode == 1) {
      for (char32_t c : (rng() % 5 == 0) ? std::u32string(U"\U0001F600") : std::u32string(U"abc")) append_cp(&d, c, false);
    } else if (mode == 2 && rng() % 30 == 0) {
      const std::size_t run = 200 + rng() % 400;
      for (std::size_t k = 0; k < run; ++k) append_cp(&d, U'z', false);
    } else if (rng() % 40 == 0) {
      append_cp(&d, rng() % 2 ? 0xD800 : 0xDC00, true);  // lone surrogate (the 'x' keeps it unpaired)
      append_cp(&d, U'x', false);
    } else {
      for (char32_t c : kPieces[rng() % kPieces.size()]) append_cp(&d, c, false);
    }
  }
  return d;
}

std::u16string to16(const std::string& s) { return ragwasm::text::to_utf16(s); }

void compare(const Doc& d, const ChunkOptions& o, const std::vector<std::string>& seps, unsigned seed) {
  INFO("seed " << seed << " size " << o.chunk_size << " overlap " << o.chunk_overlap << " strict " << o.strict
                << " separators " << seps.size());
  const std::vector<ChunkSpan> a = split_recursive(d.u8, o, seps);
  const std::vector<ChunkSpan> b = split_recursive16(d.u16, o, seps);
  REQUIRE(a.size() == b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    INFO("chunk " << i);
    REQUIRE(d.u16_at_byte[a[i].start] == b[i].start);
    REQUIRE(d.u16_at_byte[a[i].end] == b[i].end);
  }
}

}  // namespace

TEST_CASE("UTF-16 recursive splitting equals UTF-8 splitting on random documents", "[prop]") {
  const std::vector<std::string> custom = {"\xC2\xA7 ", "\n", "\xE4\xB8\xAD", " ", ""};  // "§ ", CJK
  const std::vector<std::string> no_empty = {"\n\n", "x"};
  std::size_t nonempty = 0;
  for (unsigned seed = 1; seed <= 700; ++seed) {
    std::mt19937 rng(seed);
    const Doc d = random_doc(rng);
    ChunkOptions o;
    o.chunk_size = 2 + rng() % 300;
    o.chunk_overlap = rng() % 3 == 0 ? 0 : rng() % o.chunk_size;
    for (bool strict : {false, true}) {
      o.strict = strict;
      compare(d, o, default_separators(), seed);
      compare(d, o, markdown_separators(), seed);
      compare(d, o, custom, seed);
      compare(d, o, no_empty, seed);
    }
    if (!d.u16.empty()) ++nonempty;
  }
  CHECK(nonempty > 600);
}

TEST_CASE("UTF-16 recursive splitting matches LangChain fixtures", "[unit]") {
  ChunkOptions o;
  o.chunk_size = 10;
  o.chunk_overlap = 4;
  const std::u16string t = u"aaaa bbbb cccc";
  const auto spans = split_recursive16(t, o, default_separators());
  REQUIRE(spans.size() == 2);
  CHECK(t.substr(spans[0].start, spans[0].end - spans[0].start) == u"aaaa bbbb");
  CHECK(t.substr(spans[1].start, spans[1].end - spans[1].start) == u"cccc");
  CHECK(split_recursive16(u"", o, default_separators()).empty());
  // A surrogate pair is never cut by the "" separator; a lone surrogate is one piece.
  o.chunk_size = 2;
  o.chunk_overlap = 0;
  const std::u16string e = u"\U0001F600\U0001F600\xD800x";
  const auto s2 = split_recursive16(e, o, {""});
  REQUIRE(s2.size() == 3);
  CHECK(s2[0].end == 2);
  CHECK(s2[1].start == 2);
  CHECK(s2[1].end == 4);
  CHECK(s2[2].start == 4);
  CHECK(s2[2].end == 6);
}

TEST_CASE("UTF-16 token estimates and trimming equal the UTF-8 ones", "[prop]") {
  for (unsigned seed = 1; seed <= 400; ++seed) {
    std::mt19937 rng(seed * 7919u);
    const Doc d = random_doc(rng);
    if (d.u8.empty()) continue;
    // Random spans between code point starts.
    std::vector<std::size_t> starts;
    for (std::size_t i = 0; i <= d.u8.size(); ++i) {
      if (i == d.u8.size() || text::is_utf8_lead(static_cast<unsigned char>(d.u8[i]))) starts.push_back(i);
    }
    for (int k = 0; k < 20; ++k) {
      std::size_t s = starts[rng() % starts.size()];
      std::size_t e = starts[rng() % starts.size()];
      if (s > e) std::swap(s, e);
      const std::size_t s16 = d.u16_at_byte[s];
      const std::size_t e16 = d.u16_at_byte[e];
      INFO("seed " << seed << " span " << s << ".." << e);
      const std::u16string_view v16 = std::u16string_view(d.u16).substr(s16, e16 - s16);
      CHECK(estimate_tokens16(v16) == estimate_tokens(std::string_view(d.u8).substr(s, e - s)));
      std::size_t a = s, b = e, a16 = s16, b16 = e16;
      trim_js(d.u8, &a, &b);
      trim_js16(d.u16, &a16, &b16);
      CHECK(d.u16_at_byte[a] == a16);
      CHECK(d.u16_at_byte[b] == b16);
    }
  }
  // The conversion helper round-trips the pieces (checks the test's own encoder).
  CHECK(to16("\xF0\x9F\x98\x80x") == std::u16string(u"\U0001F600x"));
}
