// Reads the committed saved-format fixtures tests/fixtures/formats/<version>/ and their
// expected.json (written by scripts/make-format-fixtures.sh with that version's writers).
#pragma once

#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

namespace ragwasm::testing {

inline std::string read_fixture(const std::string& version, const std::string& name) {
  const std::string path = std::string(RAGWASM_SOURCE_DIR) + "/tests/fixtures/formats/" + version + "/" + name;
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error("missing fixture " + path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

inline nlohmann::json fixture_expected(const std::string& version) {
  return nlohmann::json::parse(read_fixture(version, "expected.json"));
}

}  // namespace ragwasm::testing
