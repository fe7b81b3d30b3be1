// Numbers in error messages: fixed form with 6 decimals, trailing zeros dropped ("0.7", "3", "-0.25"),
// and JavaScript's words for the non-finite ("NaN", "Infinity", "-Infinity"). Tiny values print as "0"
// or "-0" and huge ones in full: it names a bad argument, it is not a round-trip format.
#pragma once

#include <cmath>
#include <string>

namespace ragwasm {

inline std::string number_text(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  std::string s = std::to_string(v);
  while (s.size() > 1 && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s;
}

}  // namespace ragwasm
