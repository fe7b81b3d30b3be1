// libFuzzer entry for the WordPiece tokenizer: arbitrary bytes as text (encode/batch invariants),
// as a vocab.txt and as a tokenizer.json (must be rejected or accepted, never crash).
#include <cstdint>
#include <string>
#include <string_view>

#include "embed/wordpiece.h"

namespace {
const ragwasm::embed::WordPieceTokenizer& tokenizer() {
  static const auto t = ragwasm::embed::WordPieceTokenizer::from_vocab_txt(
      "[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\na\nb\n##a\n##b\nab\n,\n.\n中\né\ne\n##é\n");
  return t.value();
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace ragwasm::embed;
  const std::string_view raw(reinterpret_cast<const char*>(data), size);
  const WordPieceTokenizer& t = tokenizer();
  for (std::int32_t id : t.tokenize(raw)) {
    if (id < 0 || static_cast<std::size_t>(id) >= t.vocab_size()) __builtin_trap();
  }
  EncodeOptions o;
  o.max_length = 8;
  auto row = t.encode(raw, o);
  if (!row.ok() || row.value().size() > 8 || row.value().front() != t.cls_id() || row.value().back() != t.sep_id()) __builtin_trap();
  const std::string_view half = raw.substr(0, size / 2);
  auto batch = t.encode_batch({raw, half}, o);
  if (!batch.ok() || batch.value().input_ids.size() != batch.value().rows * batch.value().cols) __builtin_trap();
  // Pairs (cross-encoder input): longest_first truncation keeps every row within max_length with
  // CLS first, one SEP closing each text, and token type 1 only on the second text.
  const std::string_view second = raw.substr(size / 3);
  auto pairs = t.encode_pair_batch({half}, {raw, second}, o);
  if (!pairs.ok()) __builtin_trap();
  const BatchEncoding& p = pairs.value();
  if (p.rows != 2 || p.cols > 8 || p.input_ids.size() != p.rows * p.cols || p.token_type_ids.size() != p.input_ids.size()) __builtin_trap();
  for (std::size_t r = 0; r < p.rows; ++r) {
    const std::int32_t* ids = &p.input_ids[r * p.cols];
    const std::int32_t* types = &p.token_type_ids[r * p.cols];
    if (ids[0] != t.cls_id()) __builtin_trap();
    std::size_t seps = 0;
    for (std::size_t c = 0; c < p.cols; ++c) {
      if (p.attention_mask[r * p.cols + c] == 0) break;
      if (ids[c] == t.sep_id()) ++seps;
      if (types[c] == 1 && seps == 0) __builtin_trap();  // type 1 before the first SEP
    }
    if (seps < 2 || p.lengths[r] == 0 || ids[p.lengths[r] - 1] != t.sep_id()) __builtin_trap();
  }
  (void)t.normalize(raw);
  (void)WordPieceTokenizer::from_vocab_txt(raw);
  auto j = WordPieceTokenizer::from_tokenizer_json(raw);
  if (j.ok()) (void)j.value().tokenize("ab, a.b");
  return 0;
}
