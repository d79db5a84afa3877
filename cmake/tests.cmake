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
file(GLOB UNIT_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/unit/test_*.c)
# The CLI's option parser and help generator are tested on their own (test_cli_options.c).
add_executable(unit_tests ${UNIT_SOURCES} tests/fakesrv/fakesrv.c
               src/cli/options.c src/cli/usage.c src/cli/output.c)
target_include_directories(unit_tests PRIVATE src/attach src/sdk src/cli tests/fakesrv)
target_link_libraries(unit_tests PRIVATE clrattach_static clrprof clra_test_main Threads::Threads)
clra_register_tests(unit_tests unit ${UNIT_SOURCES})

# The profiling headers must also be valid C++.
if(EXISTS ${CMAKE_SOURCE_DIR}/tests/unit/corprof_cxx_check.cpp)
  add_library(corprof_cxx_check OBJECT tests/unit/corprof_cxx_check.cpp)
  target_include_directories(corprof_cxx_check PRIVATE include)
endif()

# Test-only profilers: tests/profilers/NAME.c becomes profilers/libNAME_profiler.so.
file(GLOB TEST_PROFILER_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/profilers/*.c)
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

# End-to-end tests: real .NET processes built once with dotnet build.
find_program(DOTNET_EXE dotnet HINTS /usr/share/dotnet /usr/lib/dotnet $ENV{HOME}/.dotnet)
if(NOT DOTNET_EXE)
  message(FATAL_ERROR "The end-to-end tests need the .NET SDK (dotnet) on PATH; install it, "
                      "or configure with -DCLRA_TESTS=OFF to build without tests.")
endif()
# Builds tests/apps/NAME/PROJECT.csproj into build/apps/NAME; OUTPUT is the dll it makes.
function(clra_dotnet_app name project output comment)
  file(GLOB sources CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/apps/${name}/*.cs)
  add_custom_command(
    OUTPUT ${CMAKE_BINARY_DIR}/apps/${name}/${output}
    COMMAND ${DOTNET_EXE} build ${CMAKE_SOURCE_DIR}/tests/apps/${name}/${project}.csproj
            -c Release -o ${CMAKE_BINARY_DIR}/apps/${name} --nologo -v quiet
            -p:BaseIntermediateOutputPath=${CMAKE_BINARY_DIR}/apps/obj/${name}/
    DEPENDS ${sources} tests/apps/${name}/${project}.csproj
    COMMENT ${comment})
endfunction()
set(SAMPLE_APP_DIR ${CMAKE_BINARY_DIR}/apps/sample)
clra_dotnet_app(sample sample sample.dll "Building the sample .NET app")
# The official managed client, for cross-checking answers (restored from NuGet).
set(CROSSCHECK_APP_DIR ${CMAKE_BINARY_DIR}/apps/crosscheck)
clra_dotnet_app(crosscheck crosscheck crosscheck.dll
                "Building the cross-check app (Microsoft.Diagnostics.NETCore.Client)")
# A startup hook assembly that `clrattach startup-hook` applies to the sample app.
set(HOOK_APP_DIR ${CMAKE_BINARY_DIR}/apps/hook)
clra_dotnet_app(hook hook clra_hook.dll "Building the startup hook test assembly")
# Startup hooks with one mistake each, for the tests of the assembly check (one dotnet run).
set(BADHOOK_DIR ${CMAKE_BINARY_DIR}/apps/badhook)
set(BADHOOK_VARIANTS instance params returns generic namespaced nested)
list(TRANSFORM BADHOOK_VARIANTS PREPEND ${BADHOOK_DIR}/badhook_ OUTPUT_VARIABLE BADHOOK_DLLS)
list(TRANSFORM BADHOOK_DLLS APPEND .dll)
add_custom_command(
  OUTPUT ${BADHOOK_DLLS}
  COMMAND ${DOTNET_EXE} build ${CMAKE_SOURCE_DIR}/tests/apps/badhook/variants.proj --nologo -v quiet
          -p:OutDir=${BADHOOK_DIR}/ -p:BadHookObj=${CMAKE_BINARY_DIR}/apps/obj/badhook/
  DEPENDS tests/apps/badhook/BadHooks.cs tests/apps/badhook/badhook.csproj
          tests/apps/badhook/variants.proj
  COMMENT "Building the deliberately wrong startup hooks")
add_custom_target(test_apps ALL DEPENDS ${SAMPLE_APP_DIR}/sample.dll ${HOOK_APP_DIR}/clra_hook.dll
                  ${CROSSCHECK_APP_DIR}/crosscheck.dll ${BADHOOK_DLLS})
# The assembly-check unit tests read these real compiler outputs (no runtime is started).
target_compile_definitions(unit_tests PRIVATE
  CLRA_SAMPLE_DLL="${SAMPLE_APP_DIR}/sample.dll"
  CLRA_HOOK_DLL="${HOOK_APP_DIR}/clra_hook.dll"
  CLRA_BADHOOK_DIR="${BADHOOK_DIR}")
add_dependencies(unit_tests test_apps)

file(GLOB E2E_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/e2e/test_*.c)
add_executable(e2e_tests ${E2E_SOURCES} tests/e2e/harness.c)
target_sources(e2e_tests PRIVATE tests/e2e/elfcore.c tests/e2e/trace_counts.c)
target_include_directories(e2e_tests PRIVATE tests/e2e src/attach)
target_link_libraries(e2e_tests PRIVATE clrattach_static clra_test_main)
target_compile_definitions(e2e_tests PRIVATE
  CLRA_DOTNET="${DOTNET_EXE}"
  CLRA_SAMPLE_DLL="${SAMPLE_APP_DIR}/sample.dll"
  CLRA_CROSSCHECK_DLL="${CROSSCHECK_APP_DIR}/crosscheck.dll"
  CLRA_HOOK_DLL="${HOOK_APP_DIR}/clra_hook.dll"
  CLRA_BADHOOK_DIR="${BADHOOK_DIR}"
  CLRA_CLI="$<TARGET_FILE:clrattach_cli>"
  CLRA_PROFILER_DIR="${CMAKE_BINARY_DIR}/profilers")
# Sanitized profilers run inside dotnet, so the target needs the ASan runtime loaded first.
if(CLRA_SANITIZE)
  execute_process(COMMAND ${CMAKE_C_COMPILER} -print-file-name=libasan.so
                  OUTPUT_VARIABLE ASAN_RUNTIME OUTPUT_STRIP_TRAILING_WHITESPACE)
  target_compile_definitions(e2e_tests PRIVATE CLRA_ASAN_PRELOAD="${ASAN_RUNTIME}")
endif()
add_dependencies(e2e_tests test_apps clrattach_cli hello_profiler ${TEST_PROFILERS})
clra_register_tests(e2e_tests e2e ${E2E_SOURCES})

# Fuzz targets: a smoke run of mutated seeds on every build (libFuzzer builds can reuse
# tests/fuzz/fuzz_parsers.c as is).
add_executable(fuzz_smoke tests/fuzz/fuzz_smoke.c tests/fuzz/fuzz_parsers.c)
target_include_directories(fuzz_smoke PRIVATE src/attach)
target_link_libraries(fuzz_smoke PRIVATE clrattach_static clrprof clra_test_main)
clra_register_tests(fuzz_smoke fuzz-smoke ${CMAKE_SOURCE_DIR}/tests/fuzz/fuzz_smoke.c)
