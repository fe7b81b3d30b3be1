// File reading shared by the native benchmark executables (whole file, bytes as they are).
#pragma once

#include <fstream>
#include <sstream>
#include <string>

namespace ragwasm::bench {

inline std::string read_file(const char* path) {
  std::ifstream f(path, std::ios::binary);
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

}  // namespace ragwasm::bench
