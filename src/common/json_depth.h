// Nesting-depth pre-scan for JSON text, run before nlohmann parses anything: a document nested
// deeper than kMaxJsonDepth is refused without being parsed (nlohmann's value destructor, copy and
// dump recurse once per level; 20,000 levels overflowed the WASM stack and corrupted the module).
// Header-only; every JSON entry point of src/ (json_reader.h parse, tokenizer.json, chunker and
// index options, judge replies, JSONL runs, evidence questions) calls it.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "common/limits.h"
#include "common/result.h"

namespace ragwasm {

// Byte offset of the bracket that opens level max_depth + 1, or npos when the text nests at most
// max_depth levels. Counts '[' and '{' outside strings (a backslash escapes the next byte inside a
// string); closing brackets lower the depth (never below 0). Linear, no allocation. It does not
// validate the JSON: malformed text is left to the parser.
inline std::size_t json_depth_overflow_at(std::string_view text, std::size_t max_depth = kMaxJsonDepth) {
  std::size_t depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;  // skip the escaped byte (\" or \\)
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > max_depth) return i;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return std::string_view::npos;
}

// LIMIT_EXCEEDED naming `what`, the limit and the byte where it was passed; success otherwise.
// Usage: `if (Status s = check_json_depth(text, "pipeline config"); !s.ok()) return s.error();`
inline Status check_json_depth(std::string_view text, std::string_view what, std::size_t max_depth = kMaxJsonDepth) {
  const std::size_t at = json_depth_overflow_at(text, max_depth);
  if (at == std::string_view::npos) return Status::success();
  return make_error(ErrorCode::kLimitExceeded, std::string(what) + ": JSON nested deeper than " + std::to_string(max_depth) +
                                                   " levels (level " + std::to_string(max_depth + 1) + " opens at byte " +
                                                   std::to_string(at) + "); the limit is " + std::to_string(max_depth));
}

}  // namespace ragwasm
