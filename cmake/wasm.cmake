# The Embind module: wasm/bind_*.cpp + every src module -> web/dist/ragwasm.{mjs,wasm}
# (release) or web/dist/debug/ragwasm.{mjs,wasm} (debug, -sASSERTIONS=2).
# RAGWASM_WASM_ONLY="text;chunk" binds only those modules (plus info): lets one module's work build
# and test while another module is mid-change. Empty (the default) binds everything.
set(RAGWASM_WASM_ONLY "" CACHE STRING "modules to bind (empty: all)")
# RAGWASM_DIST_DIR: where ragwasm.mjs/.wasm go (default web/dist, web/dist/debug for debug).
set(RAGWASM_DIST_DIR "" CACHE PATH "output folder of the WASM module")
if(RAGWASM_WASM_ONLY)
  set(RAGWASM_BIND_SOURCES ${CMAKE_SOURCE_DIR}/wasm/bind_info.cpp)
  foreach(m IN LISTS RAGWASM_WASM_ONLY)
    file(GLOB _bind CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/wasm/bind_${m}.cpp ${CMAKE_SOURCE_DIR}/wasm/bind_${m}_*.cpp)
    list(APPEND RAGWASM_BIND_SOURCES ${_bind})
  endforeach()
else()
  file(GLOB RAGWASM_BIND_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/wasm/bind_*.cpp)
endif()
add_executable(ragwasm ${RAGWASM_BIND_SOURCES})
# Size (the BM25-only app's JS + WASM target, tests/consumers): modules and bindings off the speed-measured
# paths are compiled -Os in the release build (the later -O flag wins over CMake's -O3); the hot ones
# (BM25, vectors, embeddings and the tokenizer, chunking, text, metrics) stay -O3. Same results: no
# fast-math in either, and WASM has no FMA contraction.
if(NOT RAGWASM_WASM_VARIANT STREQUAL "debug")
  foreach(m IN ITEMS fusion pipeline judge context answer)
    if(TARGET ragwasm_${m})
      get_target_property(_type ragwasm_${m} TYPE)
      if(_type STREQUAL "STATIC_LIBRARY")
        target_compile_options(ragwasm_${m} PRIVATE -Os)
      endif()
    endif()
  endforeach()
  # Cold files inside the hot modules: query expansion from word neighbours, the saved-file term check,
  # and search-option JSON (run once per query or per load).
  foreach(_src IN ITEMS src/sparse/index_expansion.cpp src/sparse/index_verify.cpp src/sparse/options_json.cpp
                        src/embed/word_neighbours.cpp)
    set_source_files_properties(${CMAKE_SOURCE_DIR}/${_src} PROPERTIES COMPILE_OPTIONS -Os)
  endforeach()
  foreach(_src IN LISTS RAGWASM_BIND_SOURCES)
    if(NOT _src MATCHES "bind_(sparse|dense|embed|chunk|text)" OR _src MATCHES "bind_embed_neighbours")
      set_source_files_properties(${_src} PROPERTIES COMPILE_OPTIONS -Os)
    endif()
  endforeach()
endif()
if(RAGWASM_WASM_ONLY)
  foreach(m IN LISTS RAGWASM_WASM_ONLY)
    target_link_libraries(ragwasm PRIVATE ragwasm_${m})
  endforeach()
  target_link_libraries(ragwasm PRIVATE ragwasm_common)
else()
  target_link_libraries(ragwasm PRIVATE ragwasm_all)
endif()
target_include_directories(ragwasm PRIVATE ${CMAKE_SOURCE_DIR}/wasm)

set(_link
  --bind                          # Embind
  --js-library ${CMAKE_SOURCE_DIR}/wasm/library_std_string.js  # after --bind: std::string params copy
                                  # typed arrays with one HEAPU8.set, not a JS loop per byte (#18)
  -fwasm-exceptions               # same EH mode as every TU (mixing modes links silently but breaks)
  -sMODULARIZE=1                  # a factory function, so init() controls loading (wasmBinary in Node)
  -sEXPORT_ES6=1                  # import it as an ES module from pages, Workers and Node
  -sEXPORT_NAME=createRagwasmModule
  -sALLOW_MEMORY_GROWTH=1         # malloc failure becomes bad_alloc (caught) instead of abort()
  -sMAXIMUM_MEMORY=4GB            # 2 GB default is too small for 100k-chunk collections with vectors
  -sWASM_BIGINT=1                 # int64 across the boundary as BigInt
  -sEXPORTED_FUNCTIONS=_malloc,_free
  -sEXPORTED_RUNTIME_METHODS=HEAPU8   # chunk.js encodes text straight into the heap
)
if(RAGWASM_WASM_VARIANT STREQUAL "debug")
  list(APPEND _link
    -sASSERTIONS=2                # Embind type-checks arguments only with assertions
    -sENVIRONMENT=web,worker,node # assertion builds check the environment; node is needed for tests
  )
  set(_out ${CMAKE_SOURCE_DIR}/web/dist/debug)
else()
  list(APPEND _link
    -sENVIRONMENT=web,worker      # with node in the list EXPORT_ES6 emits __dirname/require (pitfall 3);
                                  # Node still runs it when init() passes wasmBinary
  )
  set(_out ${CMAKE_SOURCE_DIR}/web/dist)
endif()
if(RAGWASM_DIST_DIR)
  set(_out ${RAGWASM_DIST_DIR})
endif()
string(REPLACE ";" " " _link_str "${_link}")
set_target_properties(ragwasm PROPERTIES
  SUFFIX ".mjs"
  RUNTIME_OUTPUT_DIRECTORY ${_out}
  LINK_FLAGS "${_link_str}"
  LINK_DEPENDS ${CMAKE_SOURCE_DIR}/wasm/library_std_string.js)

if(RAGWASM_WASM_THREADS)
  include(${CMAKE_SOURCE_DIR}/cmake/wasm-threads.cmake)
endif()
