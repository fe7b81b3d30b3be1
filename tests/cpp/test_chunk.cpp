// src/chunk as a spec: LangChain.js fixtures for the recursive splitter, fixed windows, markdown
// headers, sentence packing, semantic breakpoints, options and errors.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "chunk/chunk.h"

using namespace ragwasm;
using namespace ragwasm::chunk;

namespace {

std::vector<std::string> texts(std::string_view t, const std::vector<ChunkSpan>& spans) {
  std::vector<std::string> out;
  for (const auto& s : spans) out.emplace_back(t.substr(s.start, s.end - s.start));
  return out;
}

ChunkOptions opts(Strategy s, std::size_t size, std::size_t overlap) {
  ChunkOptions o;
  o.strategy = s;
  o.chunk_size = size;
  o.chunk_overlap = overlap;
  return o;
}

std::vector<std::string> run(std::string_view t, const ChunkOptions& o) {
  auto r = chunk_text(t, o);
  REQUIRE(r.ok());
  return texts(t, r.value().chunks);
}

}  // namespace

// Expected values below were produced by @langchain/textsplitters 1.0.2 splitText().
TEST_CASE("recursive splitting equals LangChain.js on paragraph and line fixtures", "[unit][diff]") {
  const std::string t = "Hello world.\n\nThis is a test of the splitter.\nIt has lines.\n\nAnd paragraphs too.";
  REQUIRE(run(t, opts(Strategy::kRecursive, 20, 5)) ==
          std::vector<std::string>{"Hello world.", "This is a test of", "of the splitter.", "It has lines.",
                                   "And paragraphs too."});
}

TEST_CASE("recursive overlap is dropped when the carried piece is longer than the overlap like LangChain.js", "[unit][diff]") {
  // Pieces " bbbb" are 5 units > overlap 4, so nothing is carried into the next chunk.
  REQUIRE(run("aaaa bbbb cccc dddd eeee ffff gggg", opts(Strategy::kRecursive, 10, 4)) ==
          std::vector<std::string>{"aaaa bbbb", "cccc dddd", "eeee ffff", "gggg"});
}

TEST_CASE("recursive splitting falls back to characters with overlap like LangChain.js", "[unit][diff]") {
  REQUIRE(run("abcdefghijklmnopqrstuvwxyz", opts(Strategy::kRecursive, 7, 2)) ==
          std::vector<std::string>{"abcdefg", "fghijkl", "klmnopq", "pqrstuv", "uvwxyz"});
}

TEST_CASE("markdown preset equals LangChain.js MarkdownTextSplitter on a small document", "[unit][diff]") {
  const std::string t =
      "# Title\n\nIntro text here.\n\n## Section A\n\nBody of A is here.\n\n```\ncode block\n```\n\n## Section B\n\nB body.";
  REQUIRE(run(t, opts(Strategy::kMarkdown, 30, 0)) ==
          std::vector<std::string>{"# Title\n\nIntro text here.", "## Section A", "Body of A is here.",
                                   "```\ncode block\n```", "## Section B\n\nB body."});
}

TEST_CASE("empty and white-space-only texts give no chunks for every strategy", "[unit]") {
  for (Strategy s : {Strategy::kFixed, Strategy::kRecursive, Strategy::kMarkdown, Strategy::kMarkdownHeader,
                     Strategy::kSentence}) {
    REQUIRE(run("", opts(s, 10, 2)).empty());
  }
  REQUIRE(run(" \n\t\n ", opts(Strategy::kRecursive, 10, 2)).empty());
  REQUIRE(run(" \n\t\n ", opts(Strategy::kMarkdownHeader, 10, 2)).empty());
}

TEST_CASE("trim removes exactly the JavaScript white space set", "[unit]") {
  // NBSP, ideographic space, line separator and BOM are trimmed; ZERO WIDTH SPACE (U+200B) is not.
  const std::string t = "\xC2\xA0\xE3\x80\x80" "a b" "\xE2\x80\xA8\xEF\xBB\xBF";
  std::size_t s = 0, e = t.size();
  trim_js(t, &s, &e);
  REQUIRE(t.substr(s, e - s) == "a b");
  const std::string z = "\xE2\x80\x8B" "x";
  s = 0;
  e = z.size();
  trim_js(z, &s, &e);
  REQUIRE(s == 0);
}

TEST_CASE("the character fallback never cuts an astral character", "[unit]") {
  std::string t;
  for (int i = 0; i < 20; ++i) t += "\xF0\x9F\x98\x80";  // 20 emoji, 40 UTF-16 units, no separators
  auto o = opts(Strategy::kRecursive, 5, 0);
  const auto chunks = run(t, o);
  // 5 units hold two emoji (4 units); a third would make 6.
  REQUIRE(chunks.size() == 10);
  for (const auto& c : chunks) REQUIRE(c == "\xF0\x9F\x98\x80\xF0\x9F\x98\x80");
}

TEST_CASE("strict recursive mode cuts pieces that no separator splits", "[unit]") {
  ChunkOptions o = opts(Strategy::kRecursive, 8, 0);
  // "|" never occurs: LangChain.js then emits the long line whole (untrimmed). With separators
  // {"\n"} alone it would split into characters instead (newSeparators = [] is truthy in JS).
  o.separators = {"\n", "|"};
  const std::string t = "short\nthis-line-is-much-longer-than-eight\nend";
  const auto parity = run(t, o);
  REQUIRE(parity == std::vector<std::string>{"short", "\nthis-line-is-much-longer-than-eight", "end"});
  o.strict = true;
  for (const auto& c : run(t, o)) REQUIRE(measure(c, Unit::kUtf16) <= 8);
}

TEST_CASE("fixed windows count UTF-16 units and overlap without splitting characters", "[unit]") {
  const std::string t = "abcdefghij";
  REQUIRE(run(t, opts(Strategy::kFixed, 4, 1)) == std::vector<std::string>{"abcd", "defg", "ghij"});
  ChunkOptions b = opts(Strategy::kFixed, 4, 0);
  b.unit = Unit::kBytes;
  // "é" is 2 bytes, "€" 3: a window never ends inside a sequence.
  REQUIRE(run("\xC3\xA9\xE2\x82\xAC" "ab", b) == std::vector<std::string>{"\xC3\xA9", "\xE2\x82\xAC" "a", "b"});
  ChunkOptions u = opts(Strategy::kFixed, 3, 0);
  REQUIRE(run("a\xF0\x9F\x98\x80" "bc", u) == std::vector<std::string>{"a\xF0\x9F\x98\x80", "bc"});
}

TEST_CASE("fixed token windows step by size minus overlap", "[unit]") {
  ChunkOptions o = opts(Strategy::kFixed, 3, 1);
  o.unit = Unit::kTokens;
  REQUIRE(run("one two  three\nfour five six seven", o) ==
          std::vector<std::string>{"one two  three", "three\nfour five", "five six seven"});
}

TEST_CASE("markdown headers are found as ATX and setext but not inside code fences", "[unit]") {
  const std::string t =
      "Intro\n# One #\ntext\n```\n# not a header\n```\nTwo\n===\n\n  ## Three\n~~~\n## no\n~~~\nFour\n---\n#hashtag\n";
  const auto h = find_headers(t);
  REQUIRE(h.size() == 4);
  REQUIRE(h[0].level == 1);
  REQUIRE(h[0].text == "One");
  REQUIRE(h[1].level == 1);
  REQUIRE(h[1].text == "Two");
  REQUIRE(h[2].level == 2);
  REQUIRE(h[2].text == "Three");
  REQUIRE(h[3].level == 2);
  REQUIRE(h[3].text == "Four");
  REQUIRE(t.substr(h[1].start, h[1].end - h[1].start) == "Two\n===\n");
}

TEST_CASE("markdown-header chunks carry the header path and can strip headers", "[unit]") {
  const std::string t = "Preface.\n\n# Risk Factors\n\nIntro.\n\n## Liquidity\n\nCash.\n\n## Credit\n\nLoans.\n\n# Other\n\nEnd.";
  ChunkOptions o = opts(Strategy::kMarkdownHeader, 1000, 0);
  auto r = chunk_text(t, o);
  REQUIRE(r.ok());
  const auto& l = r.value();
  REQUIRE(texts(t, l.chunks) == std::vector<std::string>{"Preface.", "# Risk Factors\n\nIntro.", "## Liquidity\n\nCash.",
                                                         "## Credit\n\nLoans.", "# Other\n\nEnd."});
  REQUIRE(l.chunks[0].header == -1);
  REQUIRE(l.headers[l.chunks[2].header].path() == "Risk Factors > Liquidity");
  REQUIRE(l.headers[l.chunks[3].header].path() == "Risk Factors > Credit");
  REQUIRE(l.headers[l.chunks[4].header].path() == "Other");
  o.strip_headers = true;
  REQUIRE(run(t, o) == std::vector<std::string>{"Preface.", "Intro.", "Cash.", "Loans.", "End."});
  o.split_levels = 1;
  o.strip_headers = false;
  REQUIRE(run(t, o).size() == 3);  // h2 headers no longer start sections
}

TEST_CASE("oversize markdown sections keep tables and code fences whole", "[unit]") {
  const std::string table = "| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |";
  const std::string code = "```\nline one\n\nline two\n```";
  const std::string t = "# S\n\nFirst paragraph is here.\n\n" + table + "\n\n" + code + "\n\nLast words.";
  ChunkOptions o = opts(Strategy::kMarkdownHeader, 45, 0);
  const auto chunks = run(t, o);
  bool saw_table = false, saw_code = false;
  for (const auto& c : chunks) {
    REQUIRE(measure(c, Unit::kUtf16) <= 45);
    if (c.find("| a |") != std::string::npos) saw_table = c.find("| 3 | 4 |") != std::string::npos;
    if (c.find("line one") != std::string::npos) saw_code = c.find("line two") != std::string::npos;
  }
  REQUIRE(saw_table);
  REQUIRE(saw_code);
}

TEST_CASE("sentence packing keeps whole sentences and repeats the overlap sentences", "[unit]") {
  const std::string t = "One is here. Two is here. Three is here. Four is here.";
  // "One is here. Two is here." is 25 units, "Three is here. Four is here." 28.
  ChunkOptions o = opts(Strategy::kSentence, 28, 0);
  REQUIRE(run(t, o) == std::vector<std::string>{"One is here. Two is here.", "Three is here. Four is here."});
  o.overlap_sentences = 1;
  REQUIRE(run(t, o) == std::vector<std::string>{"One is here. Two is here.", "Two is here. Three is here.",
                                                "Three is here. Four is here."});
}

TEST_CASE("#19 strict sentence packing cuts a sentence longer than chunkSize", "[unit]") {
  // 200,000 characters without a sentence break (words of 9 letters + space): one sentence.
  std::string t;
  for (int i = 0; i < 20000; ++i) t += "abcdefghi ";
  ChunkOptions o = opts(Strategy::kSentence, 1000, 0);
  // Parity (non-strict): the over-long sentence is one chunk of its own, as documented.
  auto loose = chunk_text(t, o);
  REQUIRE(loose.ok());
  REQUIRE(loose.value().chunks.size() == 1);
  o.strict = true;
  auto r = chunk_text(t, o);
  REQUIRE(r.ok());
  const auto& chunks = r.value().chunks;
  REQUIRE(chunks.size() >= 200);  // 199,999 characters after trimming / at most 1000 per chunk
  std::size_t covered = 0;
  for (const auto& c : chunks) {
    REQUIRE(c.end - c.start <= 1000);
    REQUIRE(c.start >= covered);  // in order, no overlap (overlap is 0 for the cut)
    covered = c.end;
  }
  CHECK(covered == t.size() - 1);  // the trailing space is trimmed
  // Short sentences around a long one: they stay whole, the long one is cut.
  const std::string mixed = "Short one. " + std::string(2500, 'x') + ". Another short one.";
  o.chunk_size = 1000;
  const auto parts = run(mixed, o);
  REQUIRE(parts.front() == "Short one.");
  REQUIRE(parts.back() == "Another short one.");
  for (const auto& p : parts) REQUIRE(p.size() <= 1000);
  // Strict with bytes needs room for a 4-byte character, as the other bounded strategies.
  o.unit = Unit::kBytes;
  o.chunk_size = 3;
  CHECK(chunk_text(mixed, o).error().code == ErrorCode::kInvalidArgument);
  o.chunk_size = 40;
  CHECK(chunk_text(mixed, o).ok());
}

TEST_CASE("breakpoint thresholds follow numpy percentile std and gradient", "[unit]") {
  const std::vector<double> d = {0.1, 0.2, 0.9, 0.3};
  // sorted 0.1 0.2 0.3 0.9; 50th percentile: position 1.5 -> 0.2 + 0.5 * (0.3 - 0.2) = 0.25
  REQUIRE(breakpoint_threshold(d, Breakpoint::kPercentile, 50) == Approx(0.25).epsilon(1e-12));
  // mean 0.375; population variance (0.075625 + 0.030625 + 0.275625 + 0.005625) / 4 = 0.096875
  REQUIRE(breakpoint_threshold(d, Breakpoint::kStandardDeviation, 1) == Approx(0.375 + 0.3112474899).epsilon(1e-9));
  // q75 = 0.3 + 0.25 * 0.6 = 0.45, q25 = 0.1 + 0.75 * 0.1 = 0.175 -> 0.375 + 1.5 * 0.275
  REQUIRE(breakpoint_threshold(d, Breakpoint::kInterquartile, 1.5) == Approx(0.375 + 1.5 * 0.275).epsilon(1e-12));
  // gradient: [0.1, 0.4, 0.05, -0.6]; max = 100th percentile = 0.4
  REQUIRE(breakpoint_threshold(d, Breakpoint::kGradient, 100) == Approx(0.4).epsilon(1e-12));
}

TEST_CASE("semantic chunks break at distant neighbours and respect min and max sizes", "[unit]") {
  const std::string t = "Aa. Bb. Cc. Dd.";
  const std::vector<ChunkSpan> units = {{0, 3}, {4, 7}, {8, 11}, {12, 15}};
  // embeddings: A and B alike, C far, D like C
  const float e[] = {1, 0, 1, 0.1f, 0, 1, 0, 1};
  const auto d = cosine_distances(e, 4, 2);
  REQUIRE(d.size() == 3);
  REQUIRE(d[1] > 0.9);
  SemanticOptions o;
  o.amount = 50;  // threshold = median distance
  auto r = semantic_chunks(t, units, d, o);
  REQUIRE(r.ok());
  REQUIRE(texts(t, r.value()) == std::vector<std::string>{"Aa. Bb.", "Cc. Dd."});
  o.max_chunk_size = 3;  // every sentence alone
  r = semantic_chunks(t, units, d, o);
  REQUIRE(r.ok());
  REQUIRE(r.value().size() == 4);
  o.max_chunk_size = 0;
  o.min_chunk_size = 100;  // never big enough to break
  r = semantic_chunks(t, units, d, o);
  REQUIRE(r.ok());
  REQUIRE(r.value().size() == 1);
  REQUIRE(!semantic_chunks(t, units, {0.5}, o).ok());
}

TEST_CASE("semantic chunks from UTF-16 sentence spans equal the UTF-8 pipeline", "[unit]") {
  // "Ää. Bb. \U0001F600 Cc. Dd." : UTF-16 offsets differ from the byte offsets after Ä and the emoji
  const std::string t = "\xC3\x84\xC3\xA4. Bb. \xF0\x9F\x98\x80 Cc. Dd.";
  const std::vector<std::uint32_t> spans16 = {0, 3, 4, 7, 8, 14, 15, 18};
  const std::vector<ChunkSpan> units = {{0, 5}, {6, 9}, {10, 18}, {19, 22}};
  const std::vector<float> e = {1, 0, 1, 0.1f, 0, 1, 0, 1};
  SemanticOptions o;
  o.amount = 50;
  auto r = semantic_chunks16(t, spans16, e, 2, o);
  REQUIRE(r.ok());
  const auto d = cosine_distances(e.data(), 4, 2);
  REQUIRE(r.value().distances == d);
  REQUIRE(r.value().threshold == breakpoint_threshold(d, o.method, o.amount));
  auto want = semantic_chunks(t, units, d, o);
  REQUIRE(want.ok());
  REQUIRE(texts(t, r.value().chunks) == texts(t, want.value()));
  REQUIRE(texts(t, r.value().chunks) == std::vector<std::string>{"\xC3\x84\xC3\xA4. Bb.", "\xF0\x9F\x98\x80 Cc. Dd."});
  REQUIRE(semantic_chunks16(t, spans16, e, 3, o).error().code == ErrorCode::kDimensionMismatch);
  REQUIRE(semantic_chunks16(t, spans16, e, 0, o).error().code == ErrorCode::kDimensionMismatch);
}

TEST_CASE("options errors name the option and the splitter still works afterwards", "[unit]") {
  auto r = parse_options(R"({"chunkSize": 10, "chunkOverlap": 10})");
  REQUIRE(!r.ok());
  REQUIRE(r.error().code == ErrorCode::kInvalidArgument);
  REQUIRE(r.error().message.find("chunkOverlap") != std::string::npos);
  r = parse_options(R"({"chunkSize": 0})");
  REQUIRE(!r.ok());
  REQUIRE(r.error().message.find("chunkSize") != std::string::npos);
  r = parse_options(R"({"strategy": "magic"})");
  REQUIRE(!r.ok());
  REQUIRE(r.error().message.find("strategy") != std::string::npos);
  r = parse_options(R"({"separators": ["a", 3]})");
  REQUIRE(!r.ok());
  REQUIRE(r.error().message.find("separators[1]") != std::string::npos);
  r = parse_options(R"({"chunkSizee": 3})");
  REQUIRE(!r.ok());
  REQUIRE(r.error().message.find("chunkSizee") != std::string::npos);
  r = parse_options(R"({"chunkSize": 1.5})");
  REQUIRE(!r.ok());
  REQUIRE(parse_options("{").error().code == ErrorCode::kParseError);
  r = parse_options(R"({"strategy": "fixed", "chunkSize": 3, "chunkOverlap": 0, "unit": "bytes"})");
  REQUIRE(!r.ok());
  auto good = parse_options(R"({"strategy": "recursive", "chunkSize": 10, "chunkOverlap": 2})");
  REQUIRE(good.ok());
  // Pieces hello(5) " world"(6) " and"(4) " more"(5): nothing of "world and" fits in overlap 2 + " more".
  REQUIRE(run("hello world and more", good.value()) == std::vector<std::string>{"hello", "world and", "more"});
}

TEST_CASE("invalid UTF-8 is rejected with its offset or repaired by option", "[unit]") {
  const std::string t = "ok \xFF bad";
  ChunkOptions o = opts(Strategy::kRecursive, 100, 0);
  auto r = chunk_text(t, o);
  REQUIRE(!r.ok());
  REQUIRE(r.error().code == ErrorCode::kInvalidUtf8);
  REQUIRE(r.error().message.find("offset 3") != std::string::npos);
  o.invalid_utf8 = InvalidUtf8::kRepair;
  r = chunk_text(t, o);
  REQUIRE(r.ok());
  REQUIRE(r.value().repaired);
  REQUIRE(texts(r.value().repaired_text, r.value().chunks) == std::vector<std::string>{"ok \xEF\xBF\xBD bad"});
}

TEST_CASE("token estimates count word pieces punctuation and CJK characters", "[unit]") {
  REQUIRE(estimate_tokens("") == 0);
  REQUIRE(estimate_tokens("hello, world") == 5);  // hello=2 ,=1 world=2
  REQUIRE(estimate_tokens("\xE4\xB8\xAD\xE6\x96\x87") == 2);  // two CJK characters
  REQUIRE(measure("a \xF0\x9F\x98\x80", Unit::kUtf16) == 4);
  REQUIRE(measure("a \xF0\x9F\x98\x80", Unit::kCodePoints) == 3);
  REQUIRE(measure(" a  b\n", Unit::kTokens) == 2);
}
