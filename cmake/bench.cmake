# Native benchmark executables: tests/bench/native/bench_<module>.cpp -> bench_<module>.
# Each prints one JSON object on stdout; tests/bench/run.mjs runs them beside the WASM numbers.
file(GLOB RAGWASM_BENCH_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/bench/native/bench_*.cpp)
foreach(src IN LISTS RAGWASM_BENCH_SOURCES)
  get_filename_component(name ${src} NAME_WE)
  string(REGEX REPLACE "^bench_([a-z]+).*$" "\\1" module ${name})
  add_executable(${name} ${src})
  target_link_libraries(${name} PRIVATE ragwasm_${module})
endforeach()
