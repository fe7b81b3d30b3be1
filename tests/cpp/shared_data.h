// Locating ../shared (datasets, golden runs, tokenizer files) from tests. RAGWASM_SHARED overrides
// the default <repo>/../shared. A test that needs data it cannot find is reported as skipped (exit
// code 4, registered as SKIP_RETURN_CODE with ctest), never as passed.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/stat.h>

namespace ragwasm::testing {

inline std::string shared_dir() {
  if (const char* env = std::getenv("RAGWASM_SHARED")) return env;
  return std::string(RAGWASM_SOURCE_DIR) + "/../shared";
}

inline bool path_exists(const std::string& p) {
  struct stat st;
  return ::stat(p.c_str(), &st) == 0;
}

// Absolute path of a file under ../shared; skips the current test (exit 4) when it is missing.
inline std::string require_shared(const std::string& relative) {
  const std::string p = shared_dir() + "/" + relative;
  if (!path_exists(p)) {
    std::printf("SKIPPED: needs ../shared/%s (not found at %s)\n", relative.c_str(), p.c_str());
    std::fflush(stdout);
    std::exit(4);
  }
  return p;
}

inline std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

inline std::string repo_path(const std::string& relative) { return std::string(RAGWASM_SOURCE_DIR) + "/" + relative; }

}  // namespace ragwasm::testing
