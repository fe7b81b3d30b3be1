// Bindings for module facts: version, limits, and a deliberate allocation for the out-of-memory test.
#include <malloc.h>

#include <new>
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
    v.set("maxJsonDepth", static_cast<double>(kMaxJsonDepth));
    v.set("maxAlignmentCells", kMaxAlignmentCells);
    v.set("maxJudgeReplyBytes", static_cast<double>(kMaxJudgeReplyBytes));
    v.set("simd", true);
    v.set("exceptions", std::string("wasm"));
    return reply_ok(v);
  });
}

// Allocates `mebibytes` MiB with operator new and frees it: proves that heap exhaustion becomes an
// OUT_OF_MEMORY reply (bad_alloc caught by guard) rather than an abort. Test-only.
val debug_allocate(double mebibytes) {
  return guard([&] {
    const auto bytes = static_cast<std::size_t>(mebibytes * 1024.0 * 1024.0);
    char* block = static_cast<char*>(::operator new(bytes));
    block[bytes / 2] = 1;
    ::operator delete(block);
    return reply_ok(val(static_cast<double>(bytes)));
  });
}

// Bytes currently allocated by malloc (dlmalloc's uordblks) and the heap size: leak checks in tests.
val heap_stats() {
  return guard([] {
    const struct mallinfo mi = mallinfo();
    val v = val::object();
    v.set("allocatedBytes", static_cast<double>(mi.uordblks));
    v.set("heapBytes", static_cast<double>(__builtin_wasm_memory_size(0) * 65536.0));
    return reply_ok(v);
  });
}

}  // namespace
}  // namespace ragwasm::wasm

EMSCRIPTEN_BINDINGS(ragwasm_info) {
  using namespace ragwasm::wasm;
  emscripten::function("version", &version);
  emscripten::function("info", &info);
  emscripten::function("debug_allocate", &debug_allocate);
  emscripten::function("heap_stats", &heap_stats);
  // Bytes (bind_common.h) takes std::string's JS wire type; the name "std::string" keeps its UTF-8
  // string path (embind.js decides by the name). Here because bind_info.cpp is in every build.
  emscripten::internal::_embind_register_std_string(emscripten::internal::TypeID<Bytes>::get(), "std::string");
}
