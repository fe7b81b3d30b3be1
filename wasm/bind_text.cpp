// Bindings for src/text: UTF-8 checks and repair, case/accent folding, the sentence splitter.
// Text arrives as UTF-8 bytes (Uint8Array, encoded by web/src/core/encode.js); offsets leave as UTF-16.
#include <string>
#include <string_view>
#include <vector>

#include "bind_common.h"
#include "common/limits.h"
#include "text/casefold.h"
#include "text/sentences.h"
#include "text/utf8.h"

namespace ragwasm::wasm {
namespace {

// Sentence spans as a flat Uint32Array [start0, end0, start1, end1, ...] of UTF-16 offsets.
val spans_to_utf16(std::string_view bytes, const std::vector<text::Span>& spans) {
  text::OffsetMapper map(bytes);
  std::vector<std::uint32_t> flat;
  flat.reserve(spans.size() * 2);
  for (const auto& s : spans) {
    flat.push_back(static_cast<std::uint32_t>(map.to_utf16(s.start)));
    flat.push_back(static_cast<std::uint32_t>(map.to_utf16(s.end)));
  }
  return to_typed_array(flat);
}

class SentenceSplitterBinding {
 public:
  explicit SentenceSplitterBinding(text::SentenceSplitter core) : core_(std::move(core)) {}
  val split(const Bytes& bytes) const {
    return guard([&] { return reply_ok(spans_to_utf16(bytes, core_.split(bytes))); });
  }

 private:
  text::SentenceSplitter core_;
};

val create_sentence_splitter(val abbreviations, bool newline_breaks) {
  return guard([&] {
    text::SentenceOptions options;
    options.abbreviations = to_string_vector(abbreviations);
    options.newline_breaks = newline_breaks;
    auto r = text::SentenceSplitter::create(options);
    if (!r.ok()) return reply_error(r.error());
    return reply_ok(val(SentenceSplitterBinding(std::move(r).value())));
  });
}

val find_invalid_utf8(const Bytes& bytes) {
  return guard([&] {
    const std::size_t at = text::find_invalid_utf8(bytes);
    return reply_ok(val(at == bytes.size() ? -1.0 : static_cast<double>(at)));
  });
}

val repair_utf8(const Bytes& bytes) {
  return guard([&] { return reply_ok(val(text::repair_utf8(bytes))); });
}

val fold_text(const Bytes& bytes, bool lowercase, bool accents) {
  return guard([&] {
    text::FoldOptions o;
    o.lowercase = lowercase;
    o.fold_accents = accents;
    return reply_ok(val(text::fold(bytes, o)));
  });
}

}  // namespace
}  // namespace ragwasm::wasm

EMSCRIPTEN_BINDINGS(ragwasm_text) {
  using namespace ragwasm::wasm;
  emscripten::class_<SentenceSplitterBinding>("SentenceSplitterBinding")
      .function("split", &SentenceSplitterBinding::split);
  emscripten::function("text_createSentenceSplitter", &create_sentence_splitter);
  emscripten::function("text_findInvalidUtf8", &find_invalid_utf8);
  emscripten::function("text_repairUtf8", &repair_utf8);
  emscripten::function("text_fold", &fold_text);
}
