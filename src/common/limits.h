// Documented size limits, checked before allocating so that oversized input is LIMIT_EXCEEDED,
// never an out-of-memory trap. The JS layer checks the same numbers first (web/src/core/limits.js).
#pragma once

#include <cstddef>

namespace ragwasm {

constexpr std::size_t kMaxTextBytes = std::size_t{256} << 20;  // one text argument: 256 MiB of UTF-8
constexpr std::size_t kMaxAbbreviations = 100000;              // custom sentence-splitter abbreviations
constexpr std::size_t kMaxAbbreviationBytes = 64;               // one abbreviation

}  // namespace ragwasm
