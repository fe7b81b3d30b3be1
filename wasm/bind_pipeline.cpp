// Bindings for src/pipeline: JSON pipeline configs (parse + validate + fill defaults). The config
// arrives as UTF-8 JSON bytes; the normalized config leaves as JSON text, with the old names read
// ({config, deprecations: [{path, old, new}]}).
#include <string>

#include "bind_common.h"
#include "pipeline/config.h"

namespace ragwasm::wasm {
namespace {

val parse_config(const Bytes& json) {
  return guard([&] {
    auto r = pipeline::parse_config(json);
    if (!r.ok()) return reply_error(r.error());
    val deprecations = val::array();
    for (const auto& d : r.value().deprecations) {
      val x = val::object();
      x.set("path", d.path);
      x.set("old", d.old_name);
      x.set("new", d.new_name);
      deprecations.call<void>("push", x);
    }
    val out = val::object();
    out.set("config", pipeline::to_json(r.value()));
    out.set("deprecations", deprecations);
    return reply_ok(out);
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
