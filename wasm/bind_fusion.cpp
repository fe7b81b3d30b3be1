// Bindings for src/fusion: fusion, tuning, MMR, neighbour expansion and aggregation. Requests arrive
// as UTF-8 JSON bytes (parsed and validated in src/fusion/fusion_json.cpp); replies leave as JSON text.
// MMR vectors/similarities arrive as typed arrays.
#include <string>
#include <vector>

#include "bind_common.h"
#include "fusion/fusion_json.h"

namespace ragwasm::wasm {
namespace {

val reply_json(const Result<std::string>& r) {
  if (!r.ok()) return reply_error(r.error());
  return reply_ok(val(r.value()));
}

val fuse(const Bytes& request) {
  return guard([&] { return reply_json(fusion::fuse_json(request)); });
}
val tune(const Bytes& request) {
  return guard([&] { return reply_json(fusion::tune_json(request)); });
}
// vectors: Float32Array (n*dim) with dim > 0, or similarity: Float64Array (n*n) with dim == 0.
val mmr(const Bytes& request, val vectors, int dim, val similarity) {
  return guard([&] {
    std::vector<float> v;
    std::vector<double> s;
    if (dim > 0) v = emscripten::convertJSArrayToNumberVector<float>(vectors);
    else s = emscripten::convertJSArrayToNumberVector<double>(similarity);
    return reply_json(fusion::mmr_json(request, v, dim > 0 ? static_cast<std::size_t>(dim) : 0, s));
  });
}
val expand(const Bytes& request) {
  return guard([&] { return reply_json(fusion::expand_json(request)); });
}
val aggregate(const Bytes& request) {
  return guard([&] { return reply_json(fusion::aggregate_json(request)); });
}

}  // namespace
}  // namespace ragwasm::wasm

EMSCRIPTEN_BINDINGS(ragwasm_fusion) {
  using namespace ragwasm::wasm;
  emscripten::function("fusion_fuse", &fuse);
  emscripten::function("fusion_tune", &tune);
  emscripten::function("fusion_mmr", &mmr);
  emscripten::function("fusion_expand", &expand);
  emscripten::function("fusion_aggregate", &aggregate);
}
