// BERT WordPiece tokenizer: BertNormalizer + BertPreTokenizer + greedy longest-match WordPiece +
// [CLS]/[SEP] template, truncation, padding and batch encoding. Built to produce the same ids as the
// Hugging Face tokenizers (and transformers.js) for BERT-family tokenizer.json / vocab.txt files.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"

namespace ragwasm::embed {

constexpr std::size_t kMaxVocabSize = 1u << 21;          // 2,097,152 tokens
constexpr std::size_t kMaxSequenceLength = 1u << 16;     // max_length of one encoded row
constexpr std::size_t kMaxBatchTokens = std::size_t{1} << 28;  // rows * cols of one padded batch

// BertNormalizer options (tokenizer.json "normalizer"). strip_accents: -1 = follow `lowercase`
// (the Hugging Face default when the field is null), 0 = never, 1 = always.
struct NormalizerOptions {
  bool clean_text = true;            // drop U+0000, U+FFFD, Cc/Cf/Co/Cs (except \t \n \r); \s -> ' '
  bool handle_chinese_chars = true;  // put spaces around CJK ideographs (BMP ranges, as transformers.js)
  bool lowercase = true;             // full Unicode lowercase (String.prototype.toLowerCase semantics)
  int strip_accents = -1;            // NFD then remove nonspacing marks (Mn)
};

struct AddedToken {
  std::string content;  // matched literally in the raw text before normalization
  std::int32_t id = 0;
  bool lstrip = false;  // trim white space left of the match
  bool rstrip = false;  // trim white space right of the match
};

struct WordPieceConfig {
  NormalizerOptions normalizer;
  std::string unk_token = "[UNK]";
  std::string cls_token = "[CLS]";
  std::string sep_token = "[SEP]";
  std::string pad_token = "[PAD]";
  std::string continuing_subword_prefix = "##";
  std::size_t max_input_chars_per_word = 100;  // longer words (in code points) become [UNK]
};

enum class Padding { kNone, kLongest, kMaxLength };

struct EncodeOptions {
  std::size_t max_length = 512;     // tokens per row including [CLS]/[SEP]; >= 2 with special tokens
  bool truncation = true;           // cut the word pieces so that a row fits max_length
  Padding padding = Padding::kLongest;
  bool add_special_tokens = true;   // [CLS] ... [SEP]
};

// A padded batch in row-major order: rows x cols. attention_mask is 1 for real tokens, 0 for pads.
struct BatchEncoding {
  std::size_t rows = 0;
  std::size_t cols = 0;
  std::vector<std::int32_t> input_ids;
  std::vector<std::int32_t> attention_mask;
  std::vector<std::int32_t> token_type_ids;  // 0 for single sequences; pairs: 0 for [CLS] A [SEP], 1 for B [SEP]
  std::vector<std::uint32_t> lengths;        // real tokens per row
};

// Not safe for concurrent use from several threads: encoding fills a small word cache (a member).
class WordPieceTokenizer {
 public:
  // vocab.txt: one token per line, id = line number (0-based); "\r\n" accepted. Special tokens
  // ([PAD] [UNK] [CLS] [SEP] [MASK] by default) present in the vocabulary are matched literally.
  // Errors: INVALID_ARGUMENT (empty, no unk/cls/sep/pad token), LIMIT_EXCEEDED (> kMaxVocabSize).
  static Result<WordPieceTokenizer> from_vocab_txt(std::string_view vocab, const WordPieceConfig& config = {});

  // Hugging Face tokenizer.json with a WordPiece model, a BertNormalizer (or none), a
  // BertPreTokenizer and a TemplateProcessing/BertProcessing post-processor.
  // Errors: PARSE_ERROR (not JSON), INVALID_ARGUMENT (another model type or missing field).
  static Result<WordPieceTokenizer> from_tokenizer_json(std::string_view json);

  // The normalized text (for tests and debugging).
  std::string normalize(std::string_view text) const;
  // The pre-tokenized words of normalized text, in order.
  std::vector<std::string> pre_tokenize(std::string_view normalized) const;
  // Token ids of one text: no special tokens, no truncation. Invalid UTF-8 decodes as U+FFFD.
  std::vector<std::int32_t> tokenize(std::string_view text) const;

  // One row: [CLS] pieces [SEP], truncated to options.max_length when options.truncation.
  // Errors: INVALID_ARGUMENT (max_length < 2 with special tokens, or > kMaxSequenceLength);
  // LIMIT_EXCEEDED (text longer than the row and truncation off).
  Result<std::vector<std::int32_t>> encode(std::string_view text, const EncodeOptions& options) const;

  // Rows for every text, padded with the [PAD] id to the longest row (kLongest) or max_length.
  // Errors: as encode(); INVALID_ARGUMENT for an empty batch; LIMIT_EXCEEDED over kMaxBatchTokens.
  Result<BatchEncoding> encode_batch(const std::vector<std::string_view>& texts, const EncodeOptions& options) const;

  // Sequence pairs, BERT format: [CLS] A [SEP] B [SEP] (A B without special tokens), token type 0 for
  // [CLS] A [SEP] and 1 for B [SEP]. firsts holds 1 text (used with every second text) or one per
  // second text. Truncation is Hugging Face tokenizers' 'longest_first' (truncate_encodings) on the
  // budget max_length - 3: when only the longer text must shrink it keeps max_length - 3 - shorter;
  // when both must, the shorter gets budget / 2 and the longer the rest (A counts as the shorter
  // when they are equal).
  // Padding as encode_batch (token type 0, attention 0 on pads).
  // Errors: INVALID_ARGUMENT (empty batch, firsts not 1 or seconds.size(), max_length < 3 with special
  // tokens); LIMIT_EXCEEDED (a pair longer than the row with truncation off, or too large a batch).
  Result<BatchEncoding> encode_pair_batch(const std::vector<std::string_view>& firsts, const std::vector<std::string_view>& seconds,
                                          const EncodeOptions& options) const;

  std::size_t vocab_size() const { return tokens_.size(); }
  // Id of a vocabulary token, or -1.
  std::int32_t token_to_id(std::string_view token) const;
  // Token of an id ("" when out of range).
  std::string_view id_to_token(std::int32_t id) const;
  std::int32_t unk_id() const { return unk_id_; }
  std::int32_t cls_id() const { return cls_id_; }
  std::int32_t sep_id() const { return sep_id_; }
  std::int32_t pad_id() const { return pad_id_; }
  const WordPieceConfig& config() const { return config_; }

 private:
  // Open-addressing hash map from byte strings (views into storage_) to ids.
  struct VocabMap {
    std::vector<std::uint32_t> slots;  // entry index + 1; 0 = empty
    struct Entry {
      std::uint32_t offset;
      std::uint32_t length;
      std::int32_t id;
    };
    std::vector<Entry> entries;
    std::string storage;
    void build(const std::vector<std::pair<std::string_view, std::int32_t>>& items);
    std::int32_t find(std::string_view key) const;
  };

  // Byte trie over every token for longest-prefix matching in one pass: edges live in one
  // open-addressing table keyed by (node << 8 | byte); at most 2^24 - 1 nodes.
  struct Trie {
    struct Edge {
      std::uint32_t key;    // (parent << 8 | byte) + 1; 0 = empty slot
      std::uint32_t child;
    };
    std::vector<Edge> edges;  // key and child side by side: one cache line per step
    std::vector<std::int32_t> terminal;  // node -> token id or -1
    std::size_t mask = 0;
    void build(const std::vector<std::string>& tokens);
    std::uint32_t step(std::uint32_t node, unsigned char byte) const;  // 0 = no edge (root is never a child)
  };

  static Result<WordPieceTokenizer> build(std::vector<std::string> tokens, std::vector<AddedToken> added,
                                          const WordPieceConfig& config, bool json_vocab);
  void normalize_section(std::string_view text, std::u32string& out) const;
  void wordpiece(std::string_view word, std::size_t chars, std::vector<std::int32_t>& out) const;
  void tokenize_section(std::string_view text, std::vector<std::int32_t>& out) const;
  bool ascii_fast_path(std::string_view text, std::vector<std::int32_t>& out) const;
  void tokenize_into(std::string_view text, std::vector<std::int32_t>& out) const;  // appends

  WordPieceConfig config_;
  std::vector<std::string> tokens_;  // id -> token (ids without a token are "")
  VocabMap words_;                   // pieces starting a word
  // Direct-mapped cache of recent words (<= kCacheWordBytes bytes, <= kCachePieces pieces): most
  // words repeat (Zipf), so the trie walk runs once per distinct word. Purely a speed-up.
  static constexpr std::size_t kCacheSlots = 8192;
  static constexpr std::size_t kCacheWordBytes = 23;
  static constexpr std::size_t kCachePieces = 6;
  struct CacheSlot {
    char word[kCacheWordBytes];
    std::uint8_t length = 0;  // 0 = empty
    std::uint8_t pieces = 0;
    std::int32_t ids[kCachePieces];
  };
  void wordpiece_uncached(std::string_view word, std::size_t chars, std::vector<std::int32_t>& out) const;
  mutable std::vector<CacheSlot> cache_;
  mutable std::string ascii_scratch_;

  Trie trie_;
  std::uint32_t continuation_root_ = 0;  // trie node after the continuing-subword prefix (0: none)
  std::vector<AddedToken> added_;
  bool added_first_byte_[256] = {};
  std::int32_t unk_id_ = -1;
  std::int32_t cls_id_ = -1;
  std::int32_t sep_id_ = -1;
  std::int32_t pad_id_ = -1;
};

// Parses a padding name: "none", "longest", "max_length". INVALID_ARGUMENT otherwise.
Result<Padding> parse_padding(std::string_view name);

}  // namespace ragwasm::embed
