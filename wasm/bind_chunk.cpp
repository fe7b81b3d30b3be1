// Bindings for src/chunk: one call per document returns every chunk as a flat Uint32Array
// [start, end, tokenEstimate, headerIndex + 1] per chunk (UTF-16 offsets), so JS slices the chunk
// texts from its own string and no per-chunk Embind object is created.
#include <cstdint>
#include <string>
#include <vector>

#include "bind_common.h"
#include "chunk/chunk.h"
#include "text/utf8.h"

namespace ragwasm::wasm {
namespace {

val header_paths(const std::vector<chunk::HeaderPath>& headers) {
  val arr = val::array();
  for (std::size_t i = 0; i < headers.size(); ++i) {
    val levels = val::array();
    for (int l = 0; l < 6; ++l) levels.call<void>("push", headers[i].levels[l]);
    arr.call<void>("push", levels);
  }
  return arr;
}

// The same options JSON usually comes for every document of a corpus: a successful parse is cached
// (WASM runs single-threaded). Returns nullptr and sets *out, or an error code (message in
// cached_error()).
std::string& cached_error() {
  static std::string e;
  return e;
}
const char* parse_cached(const std::string& json, const chunk::ChunkOptions** out) {
  static std::string cached_json;
  static chunk::ChunkOptions cached;
  static bool have = false;
  if (!have || json != cached_json) {
    auto o = chunk::parse_options(json);
    if (!o.ok()) {
      cached_error() = o.error().message;
      return error_code_name(o.error().code);
    }
    cached = o.value();
    cached_json = json;
    have = true;
  }
  *out = &cached;
  return nullptr;
}

val split_view(std::string_view bytes, const std::string& options_json, bool tokens, bool encoded_by_js,
               bool ascii = false) {
  const chunk::ChunkOptions* cached = nullptr;
  if (const char* err = parse_cached(options_json, &cached)) return reply_error(err, cached_error());
  chunk::ChunkOptions o = *cached;
  o.assume_valid_utf8 = encoded_by_js;  // TextEncoder output is always valid UTF-8
  auto r = chunk::chunk_text(bytes, o);
  if (!r.ok()) return reply_error(r.error());
  const chunk::ChunkList& list = r.value();
  const std::string_view t = list.repaired ? std::string_view(list.repaired_text) : bytes;
  val v = val::object();
  v.set("flat", to_typed_array(chunk::flat_chunks(t, list.chunks, tokens, ascii)));
  v.set("headers", header_paths(list.headers));
  v.set("repaired", list.repaired);
  return reply_ok(v);
}

val chunk_split(const Bytes& bytes, const std::string& options_json, bool tokens) {
  return guard([&] { return split_view(bytes, options_json, tokens, false); });
}

// Fast path: the text is already in WASM memory at [ptr, ptr + len), written there by JS
// (TextEncoder.encodeInto into a buffer from the module's malloc; JS frees it after the call), which
// skips Embind's per-byte copy of a Uint8Array into std::string.
// `ascii` = JS saw encodeInto write one byte per UTF-16 unit (every character ASCII).
val chunk_splitAt(std::uint32_t ptr, std::uint32_t len, const std::string& options_json, bool tokens, bool ascii) {
  return guard([&] {
    const std::string_view bytes(reinterpret_cast<const char*>(static_cast<std::uintptr_t>(ptr)), len);
    return split_view(bytes, options_json, tokens, true, ascii);
  });
}

// UTF-16 fast path (recursive / markdown with unit utf16, the LangChain default): the JS string's
// code units are at [ptr, ptr + 2 * len) in WASM memory (written there by JS, freed by JS after the
// call); the splitter works on them directly, so there is no UTF-8 encoding and no offset conversion.
// Same result shape as chunk_splitAt. Other options return INVALID_ARGUMENT (JS never sends them).
val chunk_splitAt16(std::uint32_t ptr, std::uint32_t len, const std::string& options_json, bool tokens) {
  return guard([&] {
    const chunk::ChunkOptions* cached = nullptr;
    if (const char* err = parse_cached(options_json, &cached)) return reply_error(err, cached_error());
    const chunk::ChunkOptions& opt = *cached;
    if ((opt.strategy != chunk::Strategy::kRecursive && opt.strategy != chunk::Strategy::kMarkdown) ||
        opt.unit != chunk::Unit::kUtf16) {
      return reply_error("INVALID_ARGUMENT", "ragwasm: chunk_splitAt16: only recursive/markdown with unit utf16");
    }
    const std::u16string_view text(reinterpret_cast<const char16_t*>(static_cast<std::uintptr_t>(ptr)), len);
    const std::vector<std::string>& seps =
        !opt.separators.empty() ? opt.separators
        : opt.strategy == chunk::Strategy::kMarkdown ? chunk::markdown_separators()
                                                     : chunk::default_separators();
    const std::vector<chunk::ChunkSpan> spans = chunk::split_recursive16(text, opt, seps);
    val v = val::object();
    v.set("flat", to_typed_array(chunk::flat_chunks16(text, spans, tokens)));
    v.set("headers", val::array());
    v.set("repaired", false);
    return reply_ok(v);
  });
}

// Headers as a flat Uint32Array [start16, end16, level] (UTF-16 offsets of the header lines).
val chunk_headers(const Bytes& bytes) {
  return guard([&] {
    text::OffsetMapper map(bytes);
    std::vector<std::uint32_t> flat;
    for (const auto& h : chunk::find_headers(bytes)) {
      flat.push_back(static_cast<std::uint32_t>(map.to_utf16(h.start)));
      flat.push_back(static_cast<std::uint32_t>(map.to_utf16(h.end)));
      flat.push_back(static_cast<std::uint32_t>(h.level));
    }
    return reply_ok(to_typed_array(flat));
  });
}

// Semantic chunks from sentence spans (UTF-16 offsets, flat [s0, e0, s1, e1, ...]) and one embedding
// per sentence (row-major Float32Array, n x dim). method: 0 percentile, 1 standard_deviation,
// 2 interquartile, 3 gradient. unit as in the options JSON.
val chunk_semantic(const Bytes& bytes, val spans16, val embeddings, double dim_d, int method, double amount,
                   double min_size, double max_size, const std::string& unit) {
  return guard([&] {
    const std::vector<std::uint32_t> s16 = emscripten::convertJSArrayToNumberVector<std::uint32_t>(spans16);
    const std::vector<float> emb = emscripten::convertJSArrayToNumberVector<float>(embeddings);
    chunk::SemanticOptions o;
    o.method = static_cast<chunk::Breakpoint>(method < 0 || method > 3 ? 0 : method);
    o.amount = amount;
    o.min_chunk_size = static_cast<std::size_t>(min_size);
    o.max_chunk_size = static_cast<std::size_t>(max_size);
    o.unit = unit == "codepoints" ? chunk::Unit::kCodePoints
             : unit == "bytes"    ? chunk::Unit::kBytes
             : unit == "tokens"   ? chunk::Unit::kTokens
                                  : chunk::Unit::kUtf16;
    const std::size_t dim = dim_d >= 1 && dim_d <= 1e9 ? static_cast<std::size_t>(dim_d) : 0;  // 0: the core reports it
    auto r = chunk::semantic_chunks16(bytes, s16, emb, dim, o);
    if (!r.ok()) return reply_error(r.error());
    val v = val::object();
    v.set("flat", to_typed_array(chunk::flat_chunks(bytes, r.value().chunks)));  // semantic chunks are in order
    v.set("distances", to_typed_array(r.value().distances));
    v.set("threshold", r.value().threshold);
    return reply_ok(v);
  });
}

}  // namespace
}  // namespace ragwasm::wasm

EMSCRIPTEN_BINDINGS(ragwasm_chunk) {
  using namespace ragwasm::wasm;
  emscripten::function("chunk_split", &chunk_split);
  emscripten::function("chunk_splitAt", &chunk_splitAt);
  emscripten::function("chunk_splitAt16", &chunk_splitAt16);
  emscripten::function("chunk_headers", &chunk_headers);
  emscripten::function("chunk_semantic", &chunk_semantic);
}
