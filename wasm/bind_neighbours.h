// The word-neighbour table of BM25 query expansion (embed::WordNeighbours) as a binding object, shared
// by wasm/bind_embed_neighbours.cpp (which creates it) and wasm/bind_sparse.cpp (whose searches take it).
#pragma once

#include <utility>
#include <vector>

#include "embed/word_neighbours.h"
#include "sparse/index.h"

namespace ragwasm::wasm {

class WordNeighboursBinding {
 public:
  explicit WordNeighboursBinding(embed::WordNeighbours core) : core_(std::move(core)) {}
  const embed::WordNeighbours& core() const { return core_; }

  // The index's word source: WordNeighbours::similar, words spelled out (at most kMaxNeighbours each).
  sparse::SimilarWords source() const {
    const embed::WordNeighbours* n = &core_;
    return [n](std::string_view word, double min_similarity) {
      std::vector<sparse::SimilarWord> out;
      for (const auto& s : n->similar(word, min_similarity, kMaxNeighbours)) out.push_back(sparse::SimilarWord{n->word(s.id), s.similarity});
      return out;
    };
  }
  static constexpr std::size_t kMaxNeighbours = 256;

 private:
  embed::WordNeighbours core_;
};

}  // namespace ragwasm::wasm
