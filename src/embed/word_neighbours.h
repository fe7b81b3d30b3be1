// WordNeighbours: the nearest words of a word in a static model's word-vector table, for query
// expansion (src/sparse/index_expansion.cpp, docs/sparse.md "Query expansion"). Cosine similarity is
// computed exactly on the int8 vectors: the per-word scales cancel, so
//   sim(a, b) = dot(q_a, q_b) / sqrt(|q_a|^2 * |q_b|^2)
// with integer dot products and squared norms (exact in 32/53 bits) and one correctly rounded sqrt
// and division in double: native and WASM give the same bits. Ties: word rank (the model's order).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common/result.h"
#include "embed/static_embedder.h"

namespace ragwasm::embed {

constexpr std::size_t kMaxNeighbourWords = kMaxStaticWords;

struct WordNeighbour {
  std::uint32_t id = 0;  // word rank in the table
  double similarity = 0;
};

class WordNeighbours {
 public:
  // The first `max_words` words of the model (its frequency order; 0 = all), copied: the model may
  // be freed afterwards. Words with an all-zero vector are kept but are nobody's neighbour.
  static WordNeighbours from_model(const StaticEmbedder& model, std::size_t max_words);
  // from_model(StaticEmbedder::load(bytes)); the errors of StaticEmbedder::load.
  static Result<WordNeighbours> load(std::string_view bytes, std::size_t max_words);

  std::size_t size() const { return words_.size(); }
  std::size_t dims() const { return dims_; }
  const std::string& word(std::size_t i) const { return words_[i]; }
  // Index of a word (exact bytes, as the model stores it: lowercase), or -1.
  std::int32_t find(std::string_view word) const;
  // Cosine similarity of words i and j (0 when either vector is all zero).
  double similarity(std::size_t i, std::size_t j) const;
  // The words whose similarity with `word` is >= min_similarity, the word itself excluded, best first
  // (similarity descending, then rank ascending), at most `limit`. An unknown word has none.
  //   n.similar("physician", 0.6, 64)  // {doctor 0.8.., ...}
  // One pass over the table per word; requests with min_similarity >= kMemoFloor and limit <=
  // kMemoLimit are answered from a memo of each word's first kMemoLimit neighbours at kMemoFloor
  // (the same list, cut: the order does not depend on the floor), at most kMemoWords words kept.
  std::vector<WordNeighbour> similar(std::string_view word, double min_similarity, std::size_t limit) const;
  static constexpr double kMemoFloor = 0.4;
  static constexpr std::size_t kMemoLimit = 256;
  static constexpr std::size_t kMemoWords = 4096;

 private:
  std::size_t dims_ = 0;
  std::vector<std::string> words_;
  std::vector<std::int8_t> vectors_;        // words_.size() * dims_
  std::vector<std::int64_t> norms2_;        // sum of q^2 per word
  std::unordered_map<std::string, std::uint32_t> index_;  // word -> first rank
  mutable std::unordered_map<std::uint32_t, std::vector<WordNeighbour>> memo_;  // rank -> neighbours at kMemoFloor

  std::vector<WordNeighbour> scan(std::size_t i, double min_similarity, std::size_t limit) const;
};

}  // namespace ragwasm::embed
