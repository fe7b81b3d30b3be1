// Chunking strategies: fixed-size windows, LangChain.js-exact recursive character splitting (and its
// markdown preset), markdown-header sections, sentence packing, and semantic breakpoints. Every
// strategy is a pure function (UTF-8 text, options) -> byte spans [start, end) into that text.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"

namespace ragwasm::chunk {

enum class Strategy {
  kFixed,           // fixed-size windows in `unit`, with overlap
  kRecursive,       // LangChain.js RecursiveCharacterTextSplitter (default separators)
  kMarkdown,        // LangChain.js MarkdownTextSplitter (= fromLanguage("markdown"))
  kMarkdownHeader,  // one chunk per header section, oversize sections sub-split
  kSentence,        // whole sentences packed up to chunk_size
};

// How a length is measured. kUtf16 is JavaScript's String.prototype.length (LangChain's default).
enum class Unit {
  kUtf16,       // UTF-16 code units (astral characters count 2)
  kCodePoints,  // Unicode scalar values
  kBytes,       // UTF-8 bytes
  kTokens,      // whitespace-separated tokens (maximal runs of non-white-space)
};

// Which invalid UTF-8 handling chunk_text applies (JS strings are always valid; bytes may not be).
enum class InvalidUtf8 { kReject, kRepair };

struct ChunkSpan {
  std::size_t start = 0;  // byte offset, inclusive
  std::size_t end = 0;    // byte offset, exclusive
  int header = -1;        // index into ChunkList::headers, -1 when no header path is known
};

// A header path: texts of the enclosing h1..h6 (empty string: no header at that level).
struct HeaderPath {
  std::string levels[6];
  std::string path() const;  // non-empty levels joined by " > ", e.g. "Risk Factors > Liquidity"
};

struct ChunkList {
  std::vector<ChunkSpan> chunks;
  std::vector<HeaderPath> headers;
  // Set only when InvalidUtf8::kRepair changed the input: the spans index this text instead.
  bool repaired = false;
  std::string repaired_text;
};

// LangChain.js's default separators and its markdown preset (getSeparatorsForLanguage("markdown")).
const std::vector<std::string>& default_separators();
const std::vector<std::string>& markdown_separators();

struct ChunkOptions {
  Strategy strategy = Strategy::kRecursive;
  std::size_t chunk_size = 1000;    // in `unit`; >= 1 (bytes >= 4, utf16 >= 2 where a character must fit)
  std::size_t chunk_overlap = 200;  // in `unit`; < chunk_size (fixed, recursive, markdown, sub-splits)
  Unit unit = Unit::kUtf16;
  // recursive / markdown
  std::vector<std::string> separators;  // empty: the strategy's preset
  bool strict = false;                  // guarantee every chunk <= chunk_size (see docs/chunk.md)
  // markdown-header
  int split_levels = 6;         // headers h1..h{split_levels} start sections (1..6)
  bool strip_headers = false;   // chunk text excludes the header line(s)
  // sentence
  std::size_t overlap_sentences = 0;  // sentences repeated at the start of the next chunk
  bool newline_breaks = false;        // every line break ends a sentence
  InvalidUtf8 invalid_utf8 = InvalidUtf8::kReject;
  // Skip the UTF-8 check: only for callers that produced the bytes themselves from valid text (the
  // binding's TextEncoder.encodeInto path). Not settable from JSON.
  bool assume_valid_utf8 = false;
};

// Parses options from JSON (the binding's wire format). Keys (camelCase, all optional):
// strategy ("fixed"|"recursive"|"markdown"|"markdown-header"|"sentence"), chunkSize, chunkOverlap,
// unit ("utf16"|"codepoints"|"bytes"|"tokens"), separators (array of strings), strict,
// splitLevels, stripHeaders, overlapSentences, newlineBreaks, invalidUtf8 ("reject"|"repair").
// Errors: PARSE_ERROR (not JSON), INVALID_ARGUMENT naming the option (type, range, unknown key).
Result<ChunkOptions> parse_options(std::string_view json);

// Checks ranges and combinations (overlap < size, parity mode needs unit utf16, ...).
// Errors: INVALID_ARGUMENT naming the option.
Status validate(const ChunkOptions& o);

// Chunks `text` with the chosen strategy. Empty text -> no chunks.
// Errors: INVALID_ARGUMENT (options), INVALID_UTF8 (with kReject and ill-formed input, naming the
// byte offset), LIMIT_EXCEEDED (text over kMaxTextBytes).
Result<ChunkList> chunk_text(std::string_view text, const ChunkOptions& o);

// --- The strategies on valid UTF-8 with validated options (chunk_text validates and dispatches) ---
std::vector<ChunkSpan> split_fixed(std::string_view text, const ChunkOptions& o);
std::vector<ChunkSpan> split_recursive(std::string_view text, const ChunkOptions& o,
                                       const std::vector<std::string>& separators);
// The same recursive splitter over UTF-16 code units (unit utf16 only: `o.unit` is ignored), for
// the JS binding's fast path: spans are UTF-16 offsets into `text`. A lone surrogate is one unit and
// never white space (as the U+FFFD TextEncoder writes for it), so results equal split_recursive on
// the UTF-8 encoding with offsets converted (tested).
std::vector<ChunkSpan> split_recursive16(std::u16string_view text, const ChunkOptions& o,
                                         const std::vector<std::string>& separators);
ChunkList split_markdown_headers(std::string_view text, const ChunkOptions& o);
std::vector<ChunkSpan> split_sentences_packed(std::string_view text, const ChunkOptions& o);

// --- Markdown structure ---
struct Header {
  int level = 0;               // 1..6
  std::size_t start = 0;       // byte offset of the header's first line (setext: the text line)
  std::size_t end = 0;         // byte offset after the header's last line (incl. its newline)
  std::string text;            // header text, trimmed, ATX closing #s removed
};
// ATX (`# x`) and setext (`x\n===`) headers, in order, ignoring those inside fenced code blocks.
std::vector<Header> find_headers(std::string_view text);

// --- Measures shared by strategies and stats ---
// Length of text in `unit`.
std::size_t measure(std::string_view text, Unit unit);
// True for the characters JavaScript's String.prototype.trim removes (WhiteSpace + LineTerminator).
bool is_js_whitespace(char32_t cp);
// Narrows [start, end) by JS-trim white space at both ends (valid UTF-8).
void trim_js(std::string_view text, std::size_t* start, std::size_t* end);
// trim_js over UTF-16 code units.
void trim_js16(std::u16string_view text, std::size_t* start, std::size_t* end);
// A token estimate (not a tokenizer): a word (run of ASCII letters/digits and U+0080..U+07FF letters)
// counts about ceil(len/4), every other non-space ASCII character 1, every code point >= U+0800
// (CJK, emoji, ...) 1, ASCII white space 0. Exact formula in measure.cpp; one branch-free pass.
std::uint32_t estimate_tokens(std::string_view text);
// estimate_tokens of the UTF-8 encoding of UTF-16 `text` (a lone surrogate counts as U+FFFD).
std::uint32_t estimate_tokens16(std::u16string_view text);

// Running counts behind estimate_tokens and UTF-16 offsets, for converting many ordered spans in
// one forward pass: counts(e) - counts(s) (+ the word-start correction at s) gives
// estimate_tokens(text[s, e)) exactly. Used by flat_chunks.
class TokenCounter {
 public:
  explicit TokenCounter(std::string_view text) : t_(text) {}
  // Counts over [0, byte); moving backwards restarts from 0.
  void advance_to(std::size_t byte);
  std::uint64_t utf16() const { return units_; }
  struct Snapshot {
    std::uint64_t word_chars = 0, word_starts = 0, wide = 0, other = 0;
  };
  Snapshot snapshot() const { return Snapshot{word_chars_, word_starts_, wide_, other_}; }
  // estimate_tokens(text[s, e)) from the snapshots taken at s and e (s <= e).
  std::uint32_t tokens_between(const Snapshot& at_s, std::size_t s, const Snapshot& at_e) const;

 private:
  std::string_view t_;
  std::size_t pos_ = 0;
  std::uint64_t units_ = 0, word_chars_ = 0, word_starts_ = 0, wide_ = 0, other_ = 0;
};

// Chunks as one flat array [start16, end16, tokenEstimate, header + 1] per chunk (what the binding
// hands to JS): UTF-16 offsets of the UTF-8 spans and estimate_tokens of each span, computed in one
// forward pass over the merged starts and ends (TokenCounter); a backward step restarts the count
// (still exact). tokens = false leaves the estimates 0; ascii = true (the caller knows every byte is
// ASCII) makes the offsets the byte offsets with no pass at all.
std::vector<std::uint32_t> flat_chunks(std::string_view text, const std::vector<ChunkSpan>& chunks, bool tokens = true, bool ascii = false);
// The same over UTF-16 text whose spans are already UTF-16 offsets (split_recursive16): estimates by
// estimate_tokens16, header index 0 (none).
std::vector<std::uint32_t> flat_chunks16(std::u16string_view text, const std::vector<ChunkSpan>& spans, bool tokens = true);

// --- Semantic chunking ---
enum class Breakpoint { kPercentile, kStandardDeviation, kInterquartile, kGradient };
struct SemanticOptions {
  Breakpoint method = Breakpoint::kPercentile;
  // percentile/gradient: percentile in [0, 100] (default 95); standard_deviation: multiplier (3);
  // interquartile: multiplier (1.5). A negative value selects the method's default.
  double amount = -1;
  std::size_t min_chunk_size = 0;  // in `unit`: no break before a chunk reaches this size
  std::size_t max_chunk_size = 0;  // in `unit`: 0 = unlimited; otherwise a forced break before exceeding
  Unit unit = Unit::kUtf16;
};
// Cosine distances 1 - cos(e[i], e[i+1]) between consecutive rows of a row-major (n x dim) matrix;
// a zero vector has distance 1 to anything. Summation in double, fixed order.
std::vector<double> cosine_distances(const float* embeddings, std::size_t n, std::size_t dim);
// Threshold of the method over the distances (numpy-compatible linear percentile, population std).
double breakpoint_threshold(const std::vector<double>& distances, Breakpoint method, double amount);
// Groups sentences [units[i].start, units[i].end) into chunks: a break after unit i when
// distances[i] > threshold (gradient: when gradient[i] > threshold), subject to min/max sizes
// measured over the span from the chunk's first unit start to its last unit end.
// Errors: INVALID_ARGUMENT when distances.size() != units.size() - 1 or sizes contradict.
Result<std::vector<ChunkSpan>> semantic_chunks(std::string_view text, const std::vector<ChunkSpan>& units,
                                               const std::vector<double>& distances,
                                               const SemanticOptions& o);

// Semantic chunking from what the JS layer holds: sentence spans as UTF-16 offsets (flat [s0, e0,
// s1, e1, ...]) into `text` (UTF-8) and one embedding per sentence (row-major n x dim): converts the
// spans, measures cosine_distances, groups with semantic_chunks. Chunks are UTF-8 spans in order.
// Errors: DIMENSION_MISMATCH (dim 0 or embeddings.size() != n * dim); as semantic_chunks.
struct SemanticResult {
  std::vector<ChunkSpan> chunks;
  std::vector<double> distances;
  double threshold = 0;
};
Result<SemanticResult> semantic_chunks16(std::string_view text, const std::vector<std::uint32_t>& spans16, const std::vector<float>& embeddings,
                                         std::size_t dim, const SemanticOptions& o);

}  // namespace ragwasm::chunk
