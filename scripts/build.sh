#!/usr/bin/env bash
# Builds ragwasm. Usage: scripts/build.sh [native|wasm|wasm-release|wasm-debug|wasm-threads|sanitize|all] (default all)
#   native        build/native: library, Catch2 tests, benchmarks (g++ -Wall -Wextra -Werror)
#   wasm-release  web/dist/ragwasm.{mjs,wasm}        (-O3, SIMD)
#   wasm-debug    web/dist/debug/ragwasm.{mjs,wasm}  (-sASSERTIONS=2)
#   sanitize      build/sanitize: native tests under ASan+UBSan
#   wasm-threads  build/wasm-threads/threads/scan_threads.{js,wasm,worker.js}: the optional pthreads scan
#                 (bench only, not in `all`; `npm run bench -- threads`, docs/parallel.md)
# JOBS (default: nproc) sets the parallelism.
set -euo pipefail
cd "$(dirname "$0")/.."
what=${1:-all}
jobs=${JOBS:-$(nproc)}
export NODE_PATH=/usr/share/nodejs   # em++ optimized links need acorn (TOOLCHAIN.md)

native() {
  cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build/native -j"$jobs"
  node scripts/build-assets.mjs   # the default static model, which the native embed tests load
}
# The sanitizer build compiles every library but only the executables that exercise untrusted input:
# the fuzz replays (seeded mutation loops) and the loader / parser / property tests listed here.
SANITIZE_TESTS="test_text test_chunk_props test_sparse_index test_dense_format test_embed_static test_embed test_embed_pairs
  test_metrics_trec test_judge test_pipeline_config test_common_container test_sparse_formats test_dense_formats test_embed_formats
  test_sparse_verify"
sanitize() {
  cmake -S . -B build/sanitize -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 \
    -DRAGWASM_SANITIZE=ON -DRAGWASM_BUILD_BENCH=OFF >/dev/null
  local targets=()
  for f in tests/fuzz/fuzz_*.cpp; do targets+=("$(basename "$f" .cpp)_replay"); done
  for t in $SANITIZE_TESTS; do [ -f "tests/cpp/$t.cpp" ] && targets+=("$t"); done
  cmake --build build/sanitize -j"$jobs" --target "${targets[@]}"
}
wasm_variant() {
  local variant=$1 type=Release
  [ "$variant" = debug ] && type=Debug
  emcmake cmake -S . -B "build/wasm-$variant" -DCMAKE_BUILD_TYPE=$type -DRAGWASM_WASM_VARIANT="$variant" \
    "-DCMAKE_CROSSCOMPILING_EMULATOR=/usr/bin/node;--no-experimental-fetch" >/dev/null
  cmake --build "build/wasm-$variant" -j"$jobs"
}

wasm_threads() {
  emcmake cmake -S . -B build/wasm-threads -DCMAKE_BUILD_TYPE=Release -DRAGWASM_WASM_THREADS=ON \
    -DRAGWASM_DIST_DIR="$PWD/build/wasm-threads/dist" "-DCMAKE_CROSSCOMPILING_EMULATOR=/usr/bin/node;--no-experimental-fetch" >/dev/null
  cmake --build build/wasm-threads -j"$jobs" --target ragwasm_scan_threads
}

case "$what" in
  native) native ;;
  sanitize) sanitize ;;
  wasm-release) wasm_variant release ;;
  wasm-debug) wasm_variant debug ;;
  wasm-threads) wasm_threads ;;
  wasm) wasm_variant release; wasm_variant debug; wasm_threads; node scripts/build-assets.mjs ;;  # threads: the optional scan, so its browser test runs
  all) native; wasm_variant release; wasm_variant debug; node scripts/build-assets.mjs ;;
  *) echo "usage: scripts/build.sh [native|wasm|wasm-release|wasm-debug|wasm-threads|sanitize|all]" >&2; exit 2 ;;
esac
