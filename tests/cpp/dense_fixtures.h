// Shared fixtures of the dense tests: seeded Gaussian vectors and ids d0, d1, ...
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace ragwasm::testing {

// n x dim values from N(0, 1), row-major; the same seed gives the same vectors on every platform
// (std::mt19937 is specified; std::normal_distribution is libstdc++'s here and in every build we run).
inline std::vector<float> random_vectors(std::size_t n, std::size_t dim, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> g(0.0f, 1.0f);
  std::vector<float> v(n * dim);
  for (float& x : v) x = g(rng);
  return v;
}

inline std::vector<std::string> make_ids(std::size_t n, const std::string& prefix = "d") {
  std::vector<std::string> ids;
  for (std::size_t i = 0; i < n; ++i) ids.push_back(prefix + std::to_string(i));
  return ids;
}

}  // namespace ragwasm::testing
