// Bindings for module facts: version, limits, and a deliberate allocation for the out-of-memory test.
#include <string>
#include <vector>

#include "bind_common.h"
#include "common/limits.h"
#include "common/version.h"

namespace ragwasm::wasm {
namespace {

std::string version() { return kVersion; }

val info() {
  return guard([] {
    val v = val::object();
    v.set("version", std::string(kVersion));
    v.set("maxTextBytes", static_cast<double>(kMaxTextBytes));
    v.set("simd", true);
    v.set("exceptions", std::string("wasm"));
    return reply_ok(v);
  });
}

// Allocates `mebibytes` MiB and frees it: proves that heap exhaustion becomes OUT_OF_MEMORY.
val debug_allocate(double mebibytes) {
  return guard([&] {
    std::vector<char> block(static_cast<std::size_t>(mebibytes * 1024 * 1024));
    block[block.size() / 2] = 1;
    return reply_ok(val(static_cast<double>(block.size())));
  });
}

}  // namespace
}  // namespace ragwasm::wasm

EMSCRIPTEN_BINDINGS(ragwasm_info) {
  using namespace ragwasm::wasm;
  emscripten::function("version", &version);
  emscripten::function("info", &info);
  emscripten::function("debug_allocate", &debug_allocate);
}
