// Chunking options: JSON parsing (the binding's wire format), validation naming the option, and the
// chunk_text dispatcher (UTF-8 check or repair, size limit, strategy).
#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

#include "chunk/chunk.h"
#include "common/json_depth.h"
#include "common/limits.h"
#include "text/utf8.h"

namespace ragwasm::chunk {
namespace {

using nlohmann::json;

Error bad(const std::string& name, const std::string& expected, const json& got) {
  std::string g = got.dump();
  if (g.size() > 60) g = g.substr(0, 60) + "...";
  return make_error(ErrorCode::kInvalidArgument, "options." + name + ": expected " + expected + ", got " + g);
}

Result<std::size_t> get_size(const json& v, const std::string& name, std::size_t min) {
  if (!v.is_number_integer() && !v.is_number_unsigned()) return bad(name, "an integer", v);
  if (v.is_number_integer() && v.get<long long>() < static_cast<long long>(min)) {
    return bad(name, "an integer >= " + std::to_string(min), v);
  }
  const auto x = v.get<unsigned long long>();
  if (x > kMaxTextBytes) return bad(name, "an integer <= " + std::to_string(kMaxTextBytes), v);
  return static_cast<std::size_t>(x);
}

Result<bool> get_bool(const json& v, const std::string& name) {
  if (!v.is_boolean()) return bad(name, "true or false", v);
  return v.get<bool>();
}

}  // namespace

Result<ChunkOptions> parse_options(std::string_view text) {
  RAGWASM_TRY(check_json_depth(text, "options"));
  json j = json::parse(text.begin(), text.end(), nullptr, false);
  if (j.is_discarded()) return make_error(ErrorCode::kParseError, "options: not valid JSON");
  if (!j.is_object()) return bad("", "an object", j);
  ChunkOptions o;
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string& k = it.key();
    const json& v = it.value();
    if (k == "strategy") {
      const std::string s = v.is_string() ? v.get<std::string>() : std::string();
      if (s == "fixed") o.strategy = Strategy::kFixed;
      else if (s == "recursive") o.strategy = Strategy::kRecursive;
      else if (s == "markdown") o.strategy = Strategy::kMarkdown;
      else if (s == "markdown-header") o.strategy = Strategy::kMarkdownHeader;
      else if (s == "sentence") o.strategy = Strategy::kSentence;
      else return bad(k, "one of 'fixed', 'recursive', 'markdown', 'markdown-header', 'sentence'", v);
    } else if (k == "chunkSize") {
      auto r = get_size(v, k, 1);
      if (!r.ok()) return r.error();
      o.chunk_size = r.value();
    } else if (k == "chunkOverlap") {
      auto r = get_size(v, k, 0);
      if (!r.ok()) return r.error();
      o.chunk_overlap = r.value();
    } else if (k == "overlapSentences") {
      auto r = get_size(v, k, 0);
      if (!r.ok()) return r.error();
      o.overlap_sentences = r.value();
    } else if (k == "splitLevels") {
      auto r = get_size(v, k, 1);
      if (!r.ok()) return r.error();
      if (r.value() > 6) return bad(k, "an integer in [1, 6]", v);
      o.split_levels = static_cast<int>(r.value());
    } else if (k == "unit") {
      const std::string s = v.is_string() ? v.get<std::string>() : std::string();
      if (s == "utf16") o.unit = Unit::kUtf16;
      else if (s == "codepoints") o.unit = Unit::kCodePoints;
      else if (s == "bytes") o.unit = Unit::kBytes;
      else if (s == "tokens") o.unit = Unit::kTokens;
      else return bad(k, "one of 'utf16', 'codepoints', 'bytes', 'tokens'", v);
    } else if (k == "invalidUtf8") {
      const std::string s = v.is_string() ? v.get<std::string>() : std::string();
      if (s == "reject") o.invalid_utf8 = InvalidUtf8::kReject;
      else if (s == "repair") o.invalid_utf8 = InvalidUtf8::kRepair;
      else return bad(k, "'reject' or 'repair'", v);
    } else if (k == "separators") {
      if (!v.is_array()) return bad(k, "an array of strings", v);
      if (v.empty() || v.size() > 256) return bad(k, "an array of 1 to 256 strings", v);
      o.separators.clear();
      for (std::size_t i = 0; i < v.size(); ++i) {
        if (!v[i].is_string()) return bad(k + "[" + std::to_string(i) + "]", "a string", v[i]);
        o.separators.push_back(v[i].get<std::string>());
      }
    } else if (k == "strict" || k == "stripHeaders" || k == "newlineBreaks") {
      auto r = get_bool(v, k);
      if (!r.ok()) return r.error();
      if (k == "strict") o.strict = r.value();
      else if (k == "stripHeaders") o.strip_headers = r.value();
      else o.newline_breaks = r.value();
    } else {
      return make_error(ErrorCode::kInvalidArgument, "options: unknown option '" + k + "'");
    }
  }
  RAGWASM_TRY(validate(o));
  return o;
}

Status validate(const ChunkOptions& o) {
  if (o.chunk_size < 1) return bad("chunkSize", "an integer >= 1", json(o.chunk_size));
  if (o.chunk_size > kMaxTextBytes) return bad("chunkSize", "an integer <= " + std::to_string(kMaxTextBytes), json(o.chunk_size));
  if (o.strategy != Strategy::kSentence && o.chunk_overlap >= o.chunk_size) {
    return bad("chunkOverlap", "an integer < chunkSize (" + std::to_string(o.chunk_size) + ")", json(o.chunk_overlap));
  }
  if (o.split_levels < 1 || o.split_levels > 6) return bad("splitLevels", "an integer in [1, 6]", json(o.split_levels));
  // Where every chunk must fit in chunk_size, the widest character must fit too.
  const bool bounded = o.strategy == Strategy::kFixed || o.strategy == Strategy::kMarkdownHeader ||
                       ((o.strategy == Strategy::kRecursive || o.strategy == Strategy::kMarkdown ||
                         o.strategy == Strategy::kSentence) && o.strict);
  if (bounded && o.unit == Unit::kBytes && o.chunk_size < 4) {
    return bad("chunkSize", "an integer >= 4 with unit 'bytes' (a character can take 4 bytes)", json(o.chunk_size));
  }
  if (bounded && o.unit == Unit::kUtf16 && o.chunk_size < 2) {
    return bad("chunkSize", "an integer >= 2 with unit 'utf16' (an astral character takes 2 units)", json(o.chunk_size));
  }
  return Status::success();
}

Result<ChunkList> chunk_text(std::string_view text, const ChunkOptions& o) {
  RAGWASM_TRY(validate(o));
  if (text.size() > kMaxTextBytes) {
    return make_error(ErrorCode::kLimitExceeded, "text: " + std::to_string(text.size()) +
                                                     " bytes, the limit is " + std::to_string(kMaxTextBytes));
  }
  ChunkList list;
  const std::size_t bad_at = o.assume_valid_utf8 ? text.size() : text::find_invalid_utf8(text);
  if (bad_at != text.size()) {
    if (o.invalid_utf8 == InvalidUtf8::kReject) {
      return make_error(ErrorCode::kInvalidUtf8, "text: invalid UTF-8 at byte offset " + std::to_string(bad_at) +
                                                     " (set invalidUtf8: 'repair' to replace it by U+FFFD)");
    }
    list.repaired = true;
    list.repaired_text = text::repair_utf8(text);
  }
  const std::string_view t = list.repaired ? std::string_view(list.repaired_text) : text;
  switch (o.strategy) {
    case Strategy::kFixed:
      list.chunks = split_fixed(t, o);
      break;
    case Strategy::kRecursive:
      list.chunks = split_recursive(t, o, o.separators.empty() ? default_separators() : o.separators);
      break;
    case Strategy::kMarkdown:
      list.chunks = split_recursive(t, o, o.separators.empty() ? markdown_separators() : o.separators);
      break;
    case Strategy::kMarkdownHeader: {
      ChunkList m = split_markdown_headers(t, o);
      list.chunks = std::move(m.chunks);
      list.headers = std::move(m.headers);
      break;
    }
    case Strategy::kSentence:
      list.chunks = split_sentences_packed(t, o);
      break;
  }
  return list;
}

}  // namespace ragwasm::chunk
