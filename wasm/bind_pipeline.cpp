// Bindings for src/pipeline: JSON pipeline configs (parse + validate + fill defaults). The config
// arrives as UTF-8 JSON bytes; the normalized config leaves as JSON text.
#include <string>

#include "bind_common.h"
#include "pipeline/config.h"

namespace ragwasm::wasm {
namespace {

val parse_config(const Bytes& json) {
  return guard([&] {
    auto r = pipeline::parse_config(json);
    if (!r.ok()) return reply_error(r.error());
    return reply_ok(val(pipeline::to_json(r.value())));
  });
}

val default_config() {
  return guard([&] { return reply_ok(val(pipeline::to_json(pipeline::default_config()))); });
}

}  // namespace
}  // namespace ragwasm::wasm

EMSCRIPTEN_BINDINGS(ragwasm_pipeline) {
  using namespace ragwasm::wasm;
  emscripten::function("pipeline_parseConfig", &parse_config);
  emscripten::function("pipeline_defaultConfig", &default_config);
}
