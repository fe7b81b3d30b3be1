// Bindings for src/embed: the WordPiece tokenizer, pooling and the static embedder.
// Many texts cross as ONE Uint8Array of concatenated UTF-8 plus a Uint32Array of n+1 byte offsets
// (web/src/embed/embed.js packTexts), so a batch costs two copies instead of n Embind conversions.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "bind_common.h"
#include "embed/batching.h"
#include "embed/pooling.h"
#include "embed/static_embedder.h"
#include "embed/wordpiece.h"

namespace ragwasm::wasm {
namespace {

using embed::BatchEncoding;

// Splits the packed bytes by offsets; INVALID_ARGUMENT when the offsets are not a valid partition.
Result<std::vector<std::string_view>> unpack(const Bytes& bytes, const val& offsets_js) {
  const std::vector<std::uint32_t> offsets = emscripten::convertJSArrayToNumberVector<std::uint32_t>(offsets_js);
  if (offsets.size() < 2 || offsets.front() != 0 || offsets.back() != bytes.size()) {
    return make_error(ErrorCode::kInvalidArgument, "texts: bad packed offsets");
  }
  std::vector<std::string_view> out;
  out.reserve(offsets.size() - 1);
  for (std::size_t i = 0; i + 1 < offsets.size(); ++i) {
    if (offsets[i + 1] < offsets[i]) return make_error(ErrorCode::kInvalidArgument, "texts: bad packed offsets");
    out.emplace_back(std::string_view(bytes).substr(offsets[i], offsets[i + 1] - offsets[i]));
  }
  return out;
}

val batch_to_js(const BatchEncoding& b) {
  val o = val::object();
  o.set("rows", static_cast<double>(b.rows));
  o.set("cols", static_cast<double>(b.cols));
  o.set("inputIds", to_typed_array(b.input_ids));
  o.set("attentionMask", to_typed_array(b.attention_mask));
  o.set("tokenTypeIds", to_typed_array(b.token_type_ids));
  o.set("lengths", to_typed_array(b.lengths));
  return o;
}

class TokenizerBinding {
  static Result<embed::EncodeOptions> encode_options(double max_length, bool truncation, const std::string& padding, bool add_special) {
    auto pad = embed::parse_padding(padding);
    if (!pad.ok()) return pad.error();
    embed::EncodeOptions o;
    o.max_length = static_cast<std::size_t>(max_length);
    o.truncation = truncation;
    o.padding = pad.value();
    o.add_special_tokens = add_special;
    return o;
  }

 public:
  explicit TokenizerBinding(embed::WordPieceTokenizer core) : core_(std::move(core)) {}

  val encode_batch(const Bytes& bytes, val offsets, double max_length, bool truncation, std::string padding, bool add_special) const {
    return guard([&] {
      auto texts = unpack(bytes, offsets);
      if (!texts.ok()) return reply_error(texts.error());
      auto o = encode_options(max_length, truncation, padding, add_special);
      if (!o.ok()) return reply_error(o.error());
      auto r = core_.encode_batch(texts.value(), o.value());
      if (!r.ok()) return reply_error(r.error());
      return reply_ok(batch_to_js(r.value()));
    });
  }

  // Pairs: firsts (1 text or one per second text) and seconds, each packed bytes + n+1 offsets.
  val encode_pair_batch(const Bytes& first_bytes, val first_offsets, const Bytes& second_bytes, val second_offsets, double max_length,
                        bool truncation, std::string padding, bool add_special) const {
    return guard([&] {
      auto firsts = unpack(first_bytes, first_offsets);
      if (!firsts.ok()) return reply_error(firsts.error());
      auto seconds = unpack(second_bytes, second_offsets);
      if (!seconds.ok()) return reply_error(seconds.error());
      auto o = encode_options(max_length, truncation, padding, add_special);
      if (!o.ok()) return reply_error(o.error());
      auto r = core_.encode_pair_batch(firsts.value(), seconds.value(), o.value());
      if (!r.ok()) return reply_error(r.error());
      return reply_ok(batch_to_js(r.value()));
    });
  }

  val tokenize(const Bytes& bytes) const {
    return guard([&] { return reply_ok(to_typed_array(core_.tokenize(bytes))); });
  }

  val normalize(const Bytes& bytes) const {
    return guard([&] { return reply_ok(val(core_.normalize(bytes))); });
  }

  val token_to_id(const Bytes& token) const {
    return guard([&] { return reply_ok(val(core_.token_to_id(token))); });
  }

  val id_to_token(double id) const {
    return guard([&] {
      if (!(id >= 0 && id < static_cast<double>(core_.vocab_size())) || id != static_cast<double>(static_cast<std::int64_t>(id))) {
        return reply_error(make_error(ErrorCode::kInvalidArgument, "id: expected an integer in [0, " + std::to_string(core_.vocab_size()) + ")"));
      }
      return reply_ok(val(std::string(core_.id_to_token(static_cast<std::int32_t>(id)))));
    });
  }

  val info() const {
    return guard([&] {
      val o = val::object();
      o.set("vocabSize", static_cast<double>(core_.vocab_size()));
      o.set("clsId", core_.cls_id());
      o.set("sepId", core_.sep_id());
      o.set("padId", core_.pad_id());
      o.set("unkId", core_.unk_id());
      return reply_ok(o);
    });
  }

 private:
  embed::WordPieceTokenizer core_;
};

val create_tokenizer(const Bytes& bytes, std::string format) {
  return guard([&] {
    auto r = format == "vocab" ? embed::WordPieceTokenizer::from_vocab_txt(bytes) : embed::WordPieceTokenizer::from_tokenizer_json(bytes);
    if (!r.ok()) return reply_error(r.error());
    return reply_ok(val(TokenizerBinding(std::move(r).value())));
  });
}

class StaticEmbedderBinding {
 public:
  explicit StaticEmbedderBinding(embed::StaticEmbedder core) : core_(std::move(core)) {}

  val embed_batch(const Bytes& bytes, val offsets) const {
    return guard([&] {
      auto texts = unpack(bytes, offsets);
      if (!texts.ok()) return reply_error(texts.error());
      return reply_ok(to_typed_array(core_.embed_batch(texts.value())));
    });
  }

  // Word-id rows for an ONNX export of the table (embed::StaticEmbedder::encode_word_ids).
  val encode_batch(const Bytes& bytes, val offsets, double max_length, bool /*truncation*/, std::string padding, bool /*add_special*/) const {
    return guard([&] {
      auto texts = unpack(bytes, offsets);
      if (!texts.ok()) return reply_error(texts.error());
      auto pad = embed::parse_padding(padding);
      if (!pad.ok()) return reply_error(pad.error());
      // out of range (or NaN) -> 0, which the core reports as the maxLength error
      const std::size_t max_tokens = max_length >= 1 && max_length <= static_cast<double>(embed::kMaxSequenceLength) ? static_cast<std::size_t>(max_length) : 0;
      auto r = core_.encode_word_ids(texts.value(), max_tokens, pad.value());
      if (!r.ok()) return reply_error(r.error());
      return reply_ok(batch_to_js(r.value()));
    });
  }

  val info() const {
    return guard([&] {
      val o = val::object();
      o.set("dims", static_cast<double>(core_.dims()));
      o.set("vocabSize", static_cast<double>(core_.vocab_size()));
      o.set("sifA", core_.sif_a());
      return reply_ok(o);
    });
  }

  val words(const Bytes& bytes) const {
    return guard([&] {
      val arr = val::array();
      for (const std::string& w : core_.words(bytes)) arr.call<void>("push", val(w));
      return reply_ok(arr);
    });
  }

 private:
  embed::StaticEmbedder core_;
};

val create_static_embedder(const Bytes& bytes) {
  return guard([&] {
    auto r = embed::StaticEmbedder::load(bytes);
    if (!r.ok()) return reply_error(r.error());
    return reply_ok(val(StaticEmbedderBinding(std::move(r).value())));
  });
}

// hidden: Float32Array rows*tokens*dim; mask: Int32Array rows*tokens (or empty for 'cls'/'none').
val pool(val hidden_js, val mask_js, double rows, double tokens, double dim, std::string pooling, bool normalize) {
  return guard([&] {
    auto p = embed::parse_pooling(pooling);
    if (!p.ok()) return reply_error(p.error());
    // A double outside size_t's range would make static_cast undefined (a trap in WASM).
    for (double v : {rows, tokens, dim}) {
      if (!(v >= 0 && v <= 4294967295.0) || v != static_cast<double>(static_cast<std::uint32_t>(v))) return reply_error("INVALID_ARGUMENT", "ragwasm: shape: rows, tokens and dim must be integers in [0, 2^32 - 1]");
    }
    const std::vector<float> hidden = emscripten::convertJSArrayToNumberVector<float>(hidden_js);
    const std::vector<std::int32_t> mask = emscripten::convertJSArrayToNumberVector<std::int32_t>(mask_js);
    auto r = embed::pool(hidden.data(), hidden.size(), mask.data(), mask.size(), static_cast<std::size_t>(rows), static_cast<std::size_t>(tokens),
                         static_cast<std::size_t>(dim), p.value(), normalize);
    if (!r.ok()) return reply_error(r.error());
    return reply_ok(to_typed_array(r.value()));
  });
}

// Length-bucketed batch plan: lengths (Uint32Array of token counts), rows cap, padded-token budget (0: none)
// -> {order, starts} (Uint32Arrays).
val plan_length_batches(val lengths_js, double batch_size, double max_tokens) {
  return guard([&] {
    const std::vector<std::uint32_t> lengths = emscripten::convertJSArrayToNumberVector<std::uint32_t>(lengths_js);
    auto r = embed::plan_length_batches(lengths.data(), lengths.size(), static_cast<std::size_t>(batch_size),
                                        static_cast<std::size_t>(max_tokens));
    if (!r.ok()) return reply_error(r.error());
    val o = val::object();
    o.set("order", to_typed_array(r.value().order));
    o.set("starts", to_typed_array(r.value().starts));
    return reply_ok(o);
  });
}

}  // namespace
}  // namespace ragwasm::wasm

EMSCRIPTEN_BINDINGS(ragwasm_embed) {
  using namespace ragwasm::wasm;
  emscripten::class_<TokenizerBinding>("TokenizerBinding")
      .function("encodeBatch", &TokenizerBinding::encode_batch)
      .function("encodePairBatch", &TokenizerBinding::encode_pair_batch)
      .function("tokenize", &TokenizerBinding::tokenize)
      .function("normalize", &TokenizerBinding::normalize)
      .function("tokenToId", &TokenizerBinding::token_to_id)
      .function("idToToken", &TokenizerBinding::id_to_token)
      .function("info", &TokenizerBinding::info);
  emscripten::class_<StaticEmbedderBinding>("StaticEmbedderBinding")
      .function("embedBatch", &StaticEmbedderBinding::embed_batch)
      .function("encodeBatch", &StaticEmbedderBinding::encode_batch)
      .function("words", &StaticEmbedderBinding::words)
      .function("info", &StaticEmbedderBinding::info);
  emscripten::function("embed_createTokenizer", &create_tokenizer);
  emscripten::function("embed_createStaticEmbedder", &create_static_embedder);
  emscripten::function("embed_pool", &pool);
  emscripten::function("embed_planLengthBatches", &plan_length_batches);
}
