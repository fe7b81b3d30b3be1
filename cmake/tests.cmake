# Native Catch2 tests: tests/cpp/test_<module>[_<topic>].cpp -> one executable each, linked to
# ragwasm_<module> only, so a module under construction cannot break another module's tests.
# Test cases are registered with ctest by catch_discover_tests (never listed by hand).
enable_testing()
if(NOT EXISTS /usr/include/catch2/catch.hpp)
  message(FATAL_ERROR "catch2/catch.hpp not found: run scripts/bootstrap (apt: catch2)")
endif()
include(/usr/lib/cmake/Catch2/Catch.cmake)

# Catch2's main is compiled once (it takes ~10 s).
add_library(ragwasm_catch_main OBJECT ${CMAKE_SOURCE_DIR}/tests/cpp/catch_main.cpp)
target_include_directories(ragwasm_catch_main PUBLIC ${CMAKE_SOURCE_DIR}/tests/cpp)

file(GLOB RAGWASM_TEST_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/cpp/test_*.cpp)
foreach(src IN LISTS RAGWASM_TEST_SOURCES)
  get_filename_component(name ${src} NAME_WE)
  string(REGEX REPLACE "^test_([a-z]+).*$" "\\1" module ${name})
  if(NOT TARGET ragwasm_${module})
    message(FATAL_ERROR "${src}: no module src/${module}/ for this test file")
  endif()
  add_executable(${name} ${src} $<TARGET_OBJECTS:ragwasm_catch_main>)
  target_link_libraries(${name} PRIVATE ragwasm_${module})
  target_include_directories(${name} PRIVATE ${CMAKE_SOURCE_DIR}/tests/cpp)
  target_compile_definitions(${name} PRIVATE RAGWASM_SOURCE_DIR="${CMAKE_SOURCE_DIR}")
  # Exit code 4 = "skipped" (a test whose ../shared data is absent calls RAGWASM_REQUIRE_SHARED).
  catch_discover_tests(${name} PROPERTIES SKIP_RETURN_CODE 4)
endforeach()

# Fuzz replay: tests/fuzz/fuzz_<module>_<surface>.cpp define LLVMFuzzerTestOneInput; under g++ a small
# replay main runs the committed corpus tests/fuzz/corpus/<name>/ plus seeded random mutations.
file(GLOB RAGWASM_FUZZ_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/fuzz/fuzz_*.cpp)
foreach(src IN LISTS RAGWASM_FUZZ_SOURCES)
  get_filename_component(name ${src} NAME_WE)
  string(REGEX REPLACE "^fuzz_([a-z]+).*$" "\\1" module ${name})
  add_executable(${name}_replay ${src} ${CMAKE_SOURCE_DIR}/tests/fuzz/replay_main.cpp)
  target_link_libraries(${name}_replay PRIVATE ragwasm_${module})
  add_test(NAME ${name}_replay COMMAND ${name}_replay ${CMAKE_SOURCE_DIR}/tests/fuzz/corpus/${name} 2000)
endforeach()
