// StaticEmbedder: sentence vectors from a static word-vector table (GloVe 6B 100-d by default, built
// by models/build-static-model.mjs) with SIF weighting a / (a + p(w)) and the first principal
// component removed (Arora, Liang, Ma 2017, "A Simple but Tough-to-Beat Baseline for Sentence
// Embeddings"). Vectors are int8 with one float scale per word.
//
// File format "RWSTATIC" version 2 (written): the one container (src/common/container.h,
// docs/formats.md) with sections 1 header (u32 dims, u32 words n, f32 sif_a), 2 words (n UTF-8
// words, each followed by '\n'), 3 f32 p[n] (word probability), 4 f32 scale[n], 5 f32 pc[dims]
// (unit first component; all zero = no removal), 6 i8 vectors[n * dims]; every section length must
// equal what the header's counts give.
// Version 1 (read only; little-endian; every length checked against the bytes left):
//   0  char[8] magic "RWSTATIC"      8  u32 version = 1      12 u32 dims     16 u32 words (n)
//   20 f32 sif_a                     24 u32 words_bytes      28 u32 reserved = 0
//   32 words: n UTF-8 words, each followed by '\n' (words_bytes in all), zero-padded to 4 bytes
//   .. f32 p[n] (word probability)   .. f32 scale[n]   .. f32 pc[dims] (unit first component)
//   .. i8 vectors[n * dims]          .. zero padding to 8 bytes
//   .. u64 FNV-1a 64 of every byte before it
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/hash.h"
#include "common/result.h"
#include "embed/wordpiece.h"

namespace ragwasm::embed {

constexpr std::uint32_t kStaticModelVersion = 2;  // written; versions 1 and 2 are read
constexpr std::size_t kMaxStaticDims = 4096;
constexpr std::size_t kMaxStaticWords = 4u << 20;

// The version-1 checksum: FNV-1a 64 (src/common/hash.h), standard offset basis.
using ragwasm::fnv1a64;

struct StaticModelParts {
  std::uint32_t dims = 0;
  float sif_a = 1e-3f;
  std::vector<std::string> words;      // by rank
  std::vector<float> probabilities;    // p(w)
  std::vector<float> scales;           // vector i = scales[i] * q[i]
  std::vector<float> principal;        // dims values; all zero = no removal
  std::vector<std::int8_t> vectors;    // words.size() * dims
};

// Serializes parts in the current format (version 2). The model builder models/build-static-model.mjs
// computes the parts in JS and pipes them to models/write-static-model.cpp, which calls this.
std::string write_static_model(const StaticModelParts& parts);

class StaticEmbedder {
 public:
  // Parses and validates a model file of version 1 or 2. Errors: CORRUPT_INDEX (bad magic, lengths,
  // checksum, words, values), UNSUPPORTED_VERSION (any other format version, naming the ones read).
  static Result<StaticEmbedder> load(std::string_view bytes);

  std::size_t dims() const { return dims_; }
  std::size_t vocab_size() const { return words_.size(); }
  float sif_a() const { return sif_a_; }

  // The words the embedder looks up: lowercase, then maximal runs of characters that are neither
  // white space nor punctuation (the BERT punctuation set). "Don't stop!" -> don, t, stop.
  std::vector<std::string> words(std::string_view text) const;

  // Unit-length sentence vector (dims floats): v = sum_w a/(a+p(w)) * vec(w) over in-vocabulary
  // words, minus its projection on the principal component, L2-normalized. No known word: zeros.
  std::vector<float> embed(std::string_view text) const;
  // embed() for many texts, row-major rows x dims.
  std::vector<float> embed_batch(const std::vector<std::string_view>& texts) const;

  // Vocabulary indices of the known words of text (unknown words skipped), at most max_tokens.
  std::vector<std::int32_t> word_ids(std::string_view text, std::size_t max_tokens) const;
  // Word-id rows for an ONNX export of the table: input_ids = vocabulary indices of the known words
  // (word_ids, at most max_tokens per text), attention_mask 1 on them; token_type_ids 0. Columns:
  // max_tokens with Padding::kMaxLength, otherwise the longest row (at least 1: ORT rejects
  // zero-sized dimensions in some kernels). A text without known words gets a row of mask 0.
  // Errors: INVALID_ARGUMENT (empty batch, max_tokens outside [1, kMaxSequenceLength]);
  // LIMIT_EXCEEDED (rows x cols over kMaxBatchTokens).
  Result<BatchEncoding> encode_word_ids(const std::vector<std::string_view>& texts, std::size_t max_tokens, Padding padding) const;
  // Index of a word, or -1.
  std::int32_t find(std::string_view word) const;
  // Dequantized vector of word index i (dims floats).
  std::vector<float> vector(std::size_t i) const;
  // Word index i (i < vocab_size()) and its int8 vector (dims values; vector(i) = scale x these).
  const std::string& word(std::size_t i) const { return words_[i]; }
  const std::int8_t* quantized(std::size_t i) const { return vectors_.data() + i * dims_; }

 private:
  std::size_t dims_ = 0;
  float sif_a_ = 0;
  std::vector<std::string> words_;
  std::vector<float> weights_;  // a / (a + p)
  std::vector<float> scales_;
  std::vector<float> pc_;
  std::vector<std::int8_t> vectors_;
  std::vector<std::uint32_t> slots_;  // open addressing: index + 1
};

}  // namespace ragwasm::embed
