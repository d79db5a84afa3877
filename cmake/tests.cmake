# Tests: each TEST(name) in a test source becomes its own ctest case, labelled by its folder.

add_library(clra_test_main STATIC tests/common/test_main.c)
target_include_directories(clra_test_main PUBLIC tests/common)

# Registers every TEST(name) found in the sources of a test executable.
function(clra_register_tests exe label)
  foreach(src ${ARGN})
    file(STRINGS ${src} lines REGEX "^TEST\\([A-Za-z0-9_]+\\)")
    foreach(line ${lines})
      string(REGEX REPLACE "^TEST\\(([A-Za-z0-9_]+)\\).*" "\\1" name "${line}")
      add_test(NAME ${label}.${name} COMMAND ${exe} ${name})
      set_tests_properties(${label}.${name} PROPERTIES LABELS ${label} TIMEOUT 120
                           SKIP_RETURN_CODE 77)
    endforeach()
  endforeach()
endfunction()

# Unit tests: no runtime needed.
include(cmake/test_sources.cmake)
# The CLI's option parser and help generator are tested on their own (test_cli_options.c), as
# are the other CLI pieces listed here that need no runtime (profile's event modes collect
# events handed over by hand in test_profile_events.c).
add_executable(unit_tests ${UNIT_SOURCES} tests/fakesrv/fakesrv.c
               src/cli/base/options.c src/cli/base/option_table.c src/cli/base/usage.c
               src/cli/base/output.c src/cli/base/paths.c src/cli/base/platform_unix.c
               src/cli/base/report.c src/cli/base/duration.c src/cli/base/process_name.c
               src/cli/base/diagnostic_port.c src/cli/base/runtime_version.c
               src/cli/counters/counters_known.c src/cli/counters/counters_view.c
               src/cli/heap/heap_compare.c src/cli/heap/heap_load.c src/cli/heap/heap_print.c
               src/cli/profile/profile_drain.c ${PROFILE_EVENTS_SOURCES}
               ${UNWIND_SOURCES}
               ${RENDER_SOURCES})
target_include_directories(unit_tests PRIVATE ${CLRATTACH_PRIVATE_INCLUDE} ${CLRPROF_PRIVATE_INCLUDE}
                           src/cli tests/fakesrv profilers/sampler)
target_link_libraries(unit_tests PRIVATE clrattach_static clrprof clra_test_main Threads::Threads)
clra_register_tests(unit_tests unit ${UNIT_SOURCES})

# The profiling headers must also be valid C++ (checked when there is a C++ compiler).
if(CMAKE_CXX_COMPILER AND EXISTS ${CMAKE_SOURCE_DIR}/tests/unit/corprof_cxx_check.cpp)
  add_library(corprof_cxx_check OBJECT tests/unit/corprof_cxx_check.cpp)
  target_include_directories(corprof_cxx_check PRIVATE include)
endif()

# Test-only profilers: tests/profilers/NAME.c becomes profilers/libNAME_profiler.so.
set(TEST_PROFILERS "")
foreach(src ${TEST_PROFILER_SOURCES})
  get_filename_component(name ${src} NAME_WE)
  clra_add_profiler(${name}_profiler ${src})
  list(APPEND TEST_PROFILERS ${name}_profiler)
endforeach()

# The tutorial's final profiler, extracted from the page itself, so the page cannot rot.
set(TUTORIAL_MD ${CMAKE_SOURCE_DIR}/docs/writing-a-profiler.md)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${TUTORIAL_MD})
file(READ ${TUTORIAL_MD} tutorial_text)
string(REGEX MATCH "<!-- tutorial-final -->\n```c\n([^`]*)```\n<!-- /tutorial-final -->" tutorial_found "${tutorial_text}")
if(NOT tutorial_found)
  message(FATAL_ERROR "docs/writing-a-profiler.md lost its <!-- tutorial-final --> code block")
endif()
file(WRITE ${CMAKE_BINARY_DIR}/tutorial/gcwatch.c "${CMAKE_MATCH_1}")
clra_add_profiler(tutorial_profiler ${CMAKE_BINARY_DIR}/tutorial/gcwatch.c)
list(APPEND TEST_PROFILERS tutorial_profiler)

# End-to-end tests: real .NET processes, built once with dotnet build. Without the .NET SDK
# they are not built, and one e2e test says why and is reported as skipped.
include(cmake/dotnet.cmake)
if(DOTNET_EXE)
  include(cmake/e2e.cmake)
else()
  message(WARNING "End-to-end tests SKIPPED: ${CLRA_NO_DOTNET_REASON}. The unit tests that read "
                  ".NET assemblies (tests/apps) are skipped too.")
  add_test(NAME e2e.skipped_without_dotnet
           COMMAND sh -c "echo \"SKIP e2e: ${CLRA_NO_DOTNET_REASON}\" >&2; exit 77")
  set_tests_properties(e2e.skipped_without_dotnet PROPERTIES LABELS e2e SKIP_RETURN_CODE 77)
  # The tests that read these assemblies skip, naming the reason (tests/common/test_apps.h).
  target_compile_definitions(unit_tests PRIVATE
    CLRA_TEST_APPS_MISSING="${CLRA_NO_DOTNET_REASON}"
    CLRA_SAMPLE_DLL="" CLRA_HOOK_DLL="" CLRA_BADHOOK_DIR="")
endif()
target_compile_definitions(unit_tests PRIVATE CLRA_CMAKE_VERSION="${PROJECT_VERSION}")

# Fuzz targets: a smoke run of mutated seeds on every build (libFuzzer builds can reuse
# tests/fuzz/fuzz_parsers.c as is).
add_executable(fuzz_smoke tests/fuzz/fuzz_smoke.c tests/fuzz/fuzz_parsers.c
               src/cli/profile/profile_drain.c ${RENDER_SOURCES} ${PROFILE_EVENTS_SOURCES}
               src/cli/base/output.c src/cli/base/platform_unix.c)
target_include_directories(fuzz_smoke PRIVATE ${CLRATTACH_PRIVATE_INCLUDE} src/cli)
target_link_libraries(fuzz_smoke PRIVATE clrattach_static clrprof clra_test_main)
clra_register_tests(fuzz_smoke fuzz-smoke ${CMAKE_SOURCE_DIR}/tests/fuzz/fuzz_smoke.c)
include(cmake/fuzz.cmake) # libFuzzer binaries and the `fuzz` label (clang builds)

# Install and consume: `cmake --install` into a temporary prefix, then a find_package consumer
# and a pkg-config consumer built against that copy and run (tests/install/run.sh).
add_test(NAME install.consume
         COMMAND bash ${CMAKE_SOURCE_DIR}/tests/install/run.sh ${CMAKE_BINARY_DIR} ${PROJECT_VERSION}
                 ${CMAKE_COMMAND} ${CMAKE_C_COMPILER} "${CLRA_SANITIZE_FLAGS}")
set_tests_properties(install.consume PROPERTIES LABELS install TIMEOUT 300 SKIP_RETURN_CODE 77)

# The library's layering: includes run one way and /proc is read in target/procfs only.
add_test(NAME unit.layering COMMAND bash ${CMAKE_SOURCE_DIR}/tests/layers/check_layers.sh
         ${CMAKE_SOURCE_DIR})
set_tests_properties(unit.layering PROPERTIES LABELS unit)
# The platform seam: every source in one list, few platform conditionals in shared files.
add_test(NAME unit.platforms COMMAND bash ${CMAKE_SOURCE_DIR}/tests/layers/check_platforms.sh
         ${CMAKE_SOURCE_DIR})
set_tests_properties(unit.platforms PROPERTIES LABELS unit)
# The names programs share (CLSIDs, control endpoints, the mark) are spelled in
# src/common/shared_names.h only.
add_test(NAME unit.shared_names COMMAND bash ${CMAKE_SOURCE_DIR}/tests/layers/check_shared_names.sh
         ${CMAKE_SOURCE_DIR})
set_tests_properties(unit.shared_names PROPERTIES LABELS unit)

# Every section the sources cite in docs/protocol.md or docs/profiling-api.md exists there.
add_test(NAME unit.doc_citations COMMAND bash ${CMAKE_SOURCE_DIR}/tests/docs/check_citations.sh ${CMAKE_SOURCE_DIR})
set_tests_properties(unit.doc_citations PROPERTIES LABELS unit)

# The code map in docs/README.md names every folder of src/, include/ and profilers/, and only
# folders that exist; every relative link of the README, CHANGELOG.md and docs/ resolves.
add_test(NAME unit.code_map COMMAND bash ${CMAKE_SOURCE_DIR}/tests/docs/check_code_map.sh ${CMAKE_SOURCE_DIR})
set_tests_properties(unit.code_map PROPERTIES LABELS unit)
add_test(NAME unit.doc_links COMMAND bash ${CMAKE_SOURCE_DIR}/tests/docs/check_links.sh ${CMAKE_SOURCE_DIR})
set_tests_properties(unit.doc_links PROPERTIES LABELS unit)
