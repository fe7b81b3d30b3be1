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
  (void)t.normalize(raw);
  (void)WordPieceTokenizer::from_vocab_txt(raw);
  auto j = WordPieceTokenizer::from_tokenizer_json(raw);
  if (j.ok()) (void)j.value().tokenize("ab, a.b");
  return 0;
}
