// Bindings for src/embed/word_neighbours: the word-neighbour table of BM25 query expansion, made from
// a static model file (the default model or a smaller one).
#include <string>

#include "bind_common.h"
#include "bind_neighbours.h"

namespace ragwasm::wasm {
namespace {

val create_word_neighbours(const Bytes& bytes, double max_words) {
  return guard([&] {
    if (!(max_words >= 0 && max_words <= static_cast<double>(embed::kMaxNeighbourWords)) || max_words != static_cast<double>(static_cast<std::size_t>(max_words))) {
      return reply_error("INVALID_ARGUMENT", "ragwasm: maxWords: expected an integer in [0, 4194304]");
    }
    auto r = embed::WordNeighbours::load(bytes, static_cast<std::size_t>(max_words));
    if (!r.ok()) return reply_error(r.error());
    return reply_ok(val(WordNeighboursBinding(std::move(r).value())));
  });
}

// {words: string[], similarities: Float64Array} of WordNeighbours::similar.
val similar(const WordNeighboursBinding& self, const Bytes& word, double min_similarity, double limit) {
  return guard([&] {
    const auto& n = self.core();
    const auto s = n.similar(word, min_similarity, static_cast<std::size_t>(limit));
    val words = val::array();
    std::vector<double> sims;
    for (std::size_t i = 0; i < s.size(); ++i) {
      words.set(i, val(n.word(s[i].id)));
      sims.push_back(s[i].similarity);
    }
    val out = val::object();
    out.set("words", words);
    out.set("similarities", to_typed_array(sims));
    return reply_ok(out);
  });
}

val info(const WordNeighboursBinding& self) {
  return guard([&] {
    val out = val::object();
    out.set("words", static_cast<double>(self.core().size()));
    out.set("dims", static_cast<double>(self.core().dims()));
    return reply_ok(out);
  });
}

}  // namespace
}  // namespace ragwasm::wasm

EMSCRIPTEN_BINDINGS(ragwasm_embed_neighbours) {
  using namespace ragwasm::wasm;
  emscripten::class_<WordNeighboursBinding>("WordNeighboursBinding")
      .function("similar", &similar)
      .function("info", &info);
  emscripten::function("embed_createWordNeighbours", &create_word_neighbours);
}
