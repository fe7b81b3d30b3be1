// Numbers in error messages: shortest fixed form ("0.7", "3", "NaN", "-Infinity"), the same words
// JavaScript prints, so a message reads the same from C++ and from the JS API.
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
