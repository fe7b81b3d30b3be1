# The optional WASM-threads build of the flat scan (issue #18 item 1, docs/parallel.md "WASM threads"):
# tests/bench/threads/scan_threads.cpp + ragwasm_dense, every TU compiled with -pthread (CMakeLists.txt,
# RAGWASM_WASM_THREADS=ON), linked with a shared-memory heap and a pre-started pool of pthread Workers.
# Output: ${CMAKE_BINARY_DIR}/threads/scan_threads.{js,wasm,worker.js}, a classic script (MODULARIZE,
# not ES6: the 3.1.6 pthread worker.js loads the main script with importScripts). The package's module
# is not built in this configuration by default (EXCLUDE_FROM_ALL), so web/dist is never overwritten.
set_target_properties(ragwasm PROPERTIES EXCLUDE_FROM_ALL ON)
add_executable(ragwasm_scan_threads ${CMAKE_SOURCE_DIR}/tests/bench/threads/scan_threads.cpp)
target_link_libraries(ragwasm_scan_threads PRIVATE ragwasm_dense)
set(_threads_link
  -pthread
  -sUSE_PTHREADS=1
  -sPTHREAD_POOL_SIZE=4            # Workers started with the module, so std::thread does not wait for one
  -fwasm-exceptions
  -sMODULARIZE=1
  -sEXPORT_NAME=createScanThreads
  -sENVIRONMENT=web,worker
  -sINITIAL_MEMORY=1024MB
  -sALLOW_MEMORY_GROWTH=1
  -sMAXIMUM_MEMORY=2GB
  -sEXPORTED_FUNCTIONS=_malloc,_free,_st_error,_st_create,_st_add,_st_search,_st_id
  -sEXPORTED_RUNTIME_METHODS=UTF8ToString
)
string(REPLACE ";" " " _threads_link_str "${_threads_link}")
set_target_properties(ragwasm_scan_threads PROPERTIES
  OUTPUT_NAME scan_threads
  SUFFIX ".js"
  RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/threads
  LINK_FLAGS "${_threads_link_str}")
