// Bindings for src/context/assembly: token-budgeted context blocks with numbered sources. The
// request arrives as UTF-8 JSON bytes; the reply (AssembledContext) leaves as JSON text.
#include <string>

#include "bind_common.h"
#include "context/assembly.h"

namespace ragwasm::wasm {
namespace {

val assemble(const Bytes& request) {
  return guard([&] {
    auto r = context::assemble_json(request);
    if (!r.ok()) return reply_error(r.error());
    return reply_ok(val(r.value()));
  });
}

val estimate_tokens(const Bytes& text) {
  return guard([&] { return reply_ok(val(static_cast<double>(context::estimate_tokens(text)))); });
}

}  // namespace
}  // namespace ragwasm::wasm

EMSCRIPTEN_BINDINGS(ragwasm_context_assembly) {
  using namespace ragwasm::wasm;
  emscripten::function("context_assemble", &assemble);
  emscripten::function("context_estimateTokens", &estimate_tokens);
}
