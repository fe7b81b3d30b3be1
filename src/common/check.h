// RAGWASM_DCHECK: internal-invariant checks, live in native debug/sanitizer builds and compiled out
// of release and WASM builds (user errors are Result values, never checks).
#pragma once

#if !defined(NDEBUG) && !defined(__EMSCRIPTEN__)
#include <cstdio>
#include <cstdlib>
#define RAGWASM_DCHECK(cond)                                                              \
  do {                                                                                    \
    if (!(cond)) {                                                                        \
      std::fprintf(stderr, "ragwasm: invariant failed: %s at %s:%d\n", #cond, __FILE__, __LINE__); \
      std::abort();                                                                       \
    }                                                                                     \
  } while (0)
#else
#define RAGWASM_DCHECK(cond) ((void)0)
#endif
