// Strict reading of JSON requests/configs with errors that name the JSON path
// ("retrieval.fusion.weights[1]: expected a number >= 0, got -1"). Header-only; used by the fusion,
// context and pipeline JSON front ends. Syntax errors -> PARSE_ERROR; schema errors (unknown key,
// wrong type, out of range) -> INVALID_ARGUMENT; nesting deeper than kMaxJsonDepth -> LIMIT_EXCEEDED.
#pragma once

#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/format.h"
#include "common/json_depth.h"
#include "common/result.h"

namespace ragwasm::jsonr {

using nlohmann::json;

inline Result<json> parse(std::string_view text, std::string_view what) {
  RAGWASM_TRY(check_json_depth(text, what));
  try {
    return json::parse(text.begin(), text.end());
  } catch (const json::parse_error& e) {
    return make_error(ErrorCode::kParseError, std::string(what) + ": malformed JSON at byte " + std::to_string(e.byte));
  } catch (const json::exception&) {
    return make_error(ErrorCode::kParseError, std::string(what) + ": malformed JSON");
  }
}

inline std::string key_path(std::string_view path, std::string_view key) {
  if (path.empty()) return std::string(key);
  std::string p(path);
  p += '.';
  p.append(key.data(), key.size());
  return p;
}
inline std::string index_path(std::string_view path, std::size_t i) { return std::string(path) + "[" + std::to_string(i) + "]"; }


using ragwasm::number_text;

// Short description of a JSON value for error messages.
inline std::string describe(const json& j) {
  switch (j.type()) {
    case json::value_t::null: return "null";
    case json::value_t::boolean: return j.get<bool>() ? "true" : "false";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
    case json::value_t::number_float: return number_text(j.get<double>());
    case json::value_t::string: {
      const auto& s = j.get_ref<const std::string&>();
      return s.size() > 40 ? "a string of " + std::to_string(s.size()) + " bytes" : j.dump(-1, ' ', false, json::error_handler_t::replace);
    }
    case json::value_t::array: return "an array of " + std::to_string(j.size());
    case json::value_t::object: return "an object";
    default: return "a value";
  }
}

inline Error type_error(std::string_view path, std::string_view expected, const json& got) {
  return make_error(ErrorCode::kInvalidArgument, std::string(path) + ": expected " + std::string(expected) + ", got " + describe(got));
}

// Checks that j is an object whose keys are all in `known`.
inline Status expect_object(const json& j, std::string_view path, std::initializer_list<const char*> known) {
  if (!j.is_object()) return type_error(path.empty() ? "(root)" : path, "an object", j);
  for (auto it = j.begin(); it != j.end(); ++it) {
    bool ok = false;
    for (const char* k : known) ok = ok || it.key() == k;
    if (!ok) {
      std::string list;
      for (const char* k : known) list += (list.empty() ? "" : ", ") + std::string(k);
      return make_error(ErrorCode::kInvalidArgument,
                        key_path(path, it.key()) + ": unknown key (known keys" + (path.empty() ? "" : " of " + std::string(path)) + ": " + list + ")");
    }
  }
  return Status::success();
}

// A finite number in [lo, hi] (JSON cannot hold NaN; the range text names the bound).
inline Result<double> number(const json& j, std::string_view path, double lo = -std::numeric_limits<double>::infinity(),
                             double hi = std::numeric_limits<double>::infinity()) {
  if (!j.is_number()) return type_error(path, "a number", j);
  const double v = j.get<double>();
  if (!std::isfinite(v) || v < lo || v > hi) {
    std::string range;
    if (std::isfinite(lo) && std::isfinite(hi)) range = "a number in [" + number_text(lo) + ", " + number_text(hi) + "]";
    else if (std::isfinite(lo)) range = "a number >= " + number_text(lo);
    else if (std::isfinite(hi)) range = "a number <= " + number_text(hi);
    else range = "a finite number";
    return type_error(path, range, j);
  }
  return v;
}

inline Result<std::uint64_t> integer(const json& j, std::string_view path, std::uint64_t lo = 0,
                                     std::uint64_t hi = std::numeric_limits<std::uint32_t>::max()) {
  std::string range = "an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
  if (j.is_number_unsigned()) {
    const auto v = j.get<std::uint64_t>();
    if (v < lo || v > hi) return type_error(path, range, j);
    return v;
  }
  if (j.is_number_integer()) return type_error(path, range, j);  // negative
  if (j.is_number_float()) {
    const double d = j.get<double>();
    if (std::isfinite(d) && d == std::floor(d) && d >= static_cast<double>(lo) && d <= static_cast<double>(hi)) {
      return static_cast<std::uint64_t>(d);
    }
  }
  return type_error(path, range, j);
}

inline Result<bool> boolean(const json& j, std::string_view path) {
  if (!j.is_boolean()) return type_error(path, "true or false", j);
  return j.get<bool>();
}

inline Result<std::string> string(const json& j, std::string_view path, bool allow_empty = true) {
  if (!j.is_string() || (!allow_empty && j.get_ref<const std::string&>().empty())) {
    return type_error(path, allow_empty ? "a string" : "a non-empty string", j);
  }
  return j.get<std::string>();
}

inline Result<std::string> one_of(const json& j, std::string_view path, std::initializer_list<const char*> allowed) {
  std::string list;
  for (const char* a : allowed) list += (list.empty() ? "" : ", ") + std::string("\"") + a + "\"";
  if (j.is_string()) {
    for (const char* a : allowed) {
      if (j.get_ref<const std::string&>() == a) return std::string(a);
    }
  }
  return type_error(path, "one of " + list, j);
}

inline Status array(const json& j, std::string_view path) {
  if (!j.is_array()) return type_error(path, "an array", j);
  return Status::success();
}

}  // namespace ragwasm::jsonr
