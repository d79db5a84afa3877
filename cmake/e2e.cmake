# Included by tests.cmake when the .NET SDK was found (DOTNET_EXE): the .NET test apps, the
# unit tests' use of their assemblies, and the end-to-end tests.

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
# Microsoft's TraceEvent reading .nettrace files, for cross-checking the decoder (from NuGet).
set(TRACECHECK_APP_DIR ${CMAKE_BINARY_DIR}/apps/tracecheck)
clra_dotnet_app(tracecheck tracecheck tracecheck.dll
                "Building the NetTrace cross-check app (Microsoft.Diagnostics.Tracing.TraceEvent)")
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
# The profiler tests' target: threads with known CPU shares, a blocked one, deep and generic ones.
set(HOT_APP_DIR ${CMAKE_BINARY_DIR}/apps/hot)
set(CLRA_SPEEDSCOPE_VERSION 1.25.0)
set(CLRA_SPEEDSCOPE_DIR ${CMAKE_BINARY_DIR}/tools/speedscope)
set(CLRA_SPEEDSCOPE_HTML ${CLRA_SPEEDSCOPE_DIR}/node_modules/speedscope/dist/release/index.html)
clra_dotnet_app(hot hot hot.dll "Building the profiler tests' .NET app")
# The demo (scripts/demo.sh) needs only the sample app: building the six test apps took it
# 349 s instead of 16 s. Not in ALL, so a full build makes the sample once, through test_apps.
add_custom_target(sample_app DEPENDS ${SAMPLE_APP_DIR}/sample.dll)
add_custom_target(test_apps ALL DEPENDS ${SAMPLE_APP_DIR}/sample.dll ${HOT_APP_DIR}/hot.dll
                  ${HOOK_APP_DIR}/clra_hook.dll ${CROSSCHECK_APP_DIR}/crosscheck.dll
                  ${TRACECHECK_APP_DIR}/tracecheck.dll ${BADHOOK_DLLS})
# The assembly-check unit tests read these real compiler outputs (no runtime is started).
target_compile_definitions(unit_tests PRIVATE
  CLRA_SAMPLE_DLL="${SAMPLE_APP_DIR}/sample.dll"
  CLRA_HOOK_DLL="${HOOK_APP_DIR}/clra_hook.dll"
  CLRA_BADHOOK_DIR="${BADHOOK_DIR}")
add_dependencies(unit_tests test_apps)

add_executable(e2e_tests ${E2E_SOURCES} ${E2E_ONCE_SOURCES} tests/e2e/harness.c)
target_sources(e2e_tests PRIVATE tests/e2e/elfcore.c tests/e2e/trace_counts.c tests/e2e/runtime.c
               tests/e2e/nettrace_lines.c tests/e2e/runtime_lines.c tests/e2e/hot_app.c
               tests/e2e/consumer.c tests/e2e/proc_status.c
               tests/e2e/chromium_check.c tests/e2e/bg_cli.c tests/e2e/hostile.c
               ${RENDER_SOURCES})
target_include_directories(e2e_tests PRIVATE tests/e2e ${CLRATTACH_PRIVATE_INCLUDE} src/cli)
target_link_libraries(e2e_tests PRIVATE clrattach_static clra_test_main)
target_compile_definitions(e2e_tests PRIVATE
  CLRA_DOTNET="${DOTNET_EXE}"
  CLRA_SAMPLE_DLL="${SAMPLE_APP_DIR}/sample.dll"
  CLRA_HOT_DLL="${HOT_APP_DIR}/hot.dll"
  CLRA_CROSSCHECK_DLL="${CROSSCHECK_APP_DIR}/crosscheck.dll"
  CLRA_TRACECHECK_DLL="${TRACECHECK_APP_DIR}/tracecheck.dll"
  CLRA_DOTNET_TRACE="${CMAKE_BINARY_DIR}/tools/dotnet-trace"
  CLRA_TOOLS_DIR="${CMAKE_BINARY_DIR}/tools"
  CLRA_HOOK_DLL="${HOOK_APP_DIR}/clra_hook.dll"
  CLRA_BADHOOK_DIR="${BADHOOK_DIR}"
  CLRA_CLI="$<TARGET_FILE:clrattach_cli>"
  CLRA_PROFILER_DIR="${CMAKE_BINARY_DIR}/profilers"
  CLRA_SPEEDSCOPE_HTML="${CLRA_SPEEDSCOPE_HTML}")
# Sanitized profilers run inside dotnet, so the target needs the ASan runtime loaded first.
if(CLRA_SANITIZE)
  execute_process(COMMAND ${CMAKE_C_COMPILER} -print-file-name=libasan.so
                  OUTPUT_VARIABLE ASAN_RUNTIME OUTPUT_STRIP_TRAILING_WHITESPACE)
  target_compile_definitions(e2e_tests PRIVATE CLRA_ASAN_PRELOAD="${ASAN_RUNTIME}")
endif()
add_dependencies(e2e_tests test_apps clrattach_cli hello_profiler sampler_profiler
                 ${TEST_PROFILERS})
set(e2e_registered ${E2E_SOURCES} ${E2E_ONCE_SOURCES})
if(CLRA_SANITIZE)
  list(REMOVE_ITEM e2e_registered ${E2E_TIMING_SOURCES})
endif()
clra_register_tests(e2e_tests e2e ${e2e_registered})

include(cmake/runtimes.cmake)

# dotnet-trace (NuGet, a pinned version) in the build tree, installed by the fixture test
# tools.dotnet_trace on first use, so the decoder is cross-checked on traces it wrote too.
add_test(NAME tools.dotnet_trace
         COMMAND bash -c "test -x \"$1/dotnet-trace\" || \"$2\" tool install --tool-path \"$1\" \
dotnet-trace --version 10.0.750501" tools ${CMAKE_BINARY_DIR}/tools ${DOTNET_EXE})
set_tests_properties(tools.dotnet_trace PROPERTIES FIXTURES_SETUP clra_dotnet_trace TIMEOUT 600
                     LABELS "e2e;e2e-matrix;anchors")
# dotnet-stack, dotnet-counters and dotnet-gcdump (NuGet, the version of dotnet-trace) in the
# build tree, installed by fixture tests on first use: the anchors label runs them beside
# clrattach.
foreach(tool dotnet-stack dotnet-counters dotnet-gcdump)
  add_test(NAME tools.${tool}
           COMMAND bash -c "test -x \"$1/$3\" || \"$2\" tool install --tool-path \"$1\" $3 \
--version 10.0.750501 || echo \"$3 not installed: the anchors tests that need it skip\""
           tools ${CMAKE_BINARY_DIR}/tools ${DOTNET_EXE} ${tool})
  set_tests_properties(tools.${tool} PROPERTIES FIXTURES_SETUP clra_${tool} TIMEOUT 600
                       LABELS "e2e;anchors")
endforeach()
# speedscope (npm, a pinned version) in the build tree, its downloads cached there too, installed
# by the fixture test tools.speedscope on first use: the profile consumer tests open it offline.
add_test(NAME tools.speedscope
         COMMAND bash -c "test -f \"$1\" || npm install --prefix \"$2\" --cache \"$2/npm-cache\" \
--prefer-offline --no-audit --no-fund --no-save \"speedscope@$3\" >/dev/null"
                 tools ${CLRA_SPEEDSCOPE_HTML} ${CLRA_SPEEDSCOPE_DIR} ${CLRA_SPEEDSCOPE_VERSION})
set_tests_properties(tools.speedscope PROPERTIES FIXTURES_SETUP clra_speedscope TIMEOUT 600
                     LABELS e2e)
if(TEST e2e.profile_speedscope_file_loads_in_speedscope) # not in the sanitized build
  set_property(TEST e2e.profile_speedscope_file_loads_in_speedscope APPEND PROPERTY
               FIXTURES_REQUIRED clra_speedscope)
endif()
get_directory_property(clra_all_tests TESTS)
foreach(t ${clra_all_tests})
  if(t MATCHES "_dotnet_trace_file$" OR t MATCHES "within_10_points_of_perf$" OR
     t MATCHES "anchor_trace_")
    set_property(TEST ${t} APPEND PROPERTY FIXTURES_REQUIRED clra_dotnet_trace)
  endif()
  if(t MATCHES "anchor_stack_")
    set_property(TEST ${t} APPEND PROPERTY FIXTURES_REQUIRED clra_dotnet-stack)
  endif()
  if(t MATCHES "anchor_counters_")
    set_property(TEST ${t} APPEND PROPERTY FIXTURES_REQUIRED clra_dotnet-counters)
  endif()
  if(t MATCHES "anchor_heap_")
    set_property(TEST ${t} APPEND PROPERTY FIXTURES_REQUIRED clra_dotnet-gcdump)
  endif()
  if(t MATCHES "\\.anchor_")
    set_property(TEST ${t} APPEND PROPERTY LABELS anchors)
  endif()
  # --name looks for the one process called 'sample': no other test's sample app may run then.
  if(t MATCHES "trace_name_finds_the_one_sample_app")
    set_property(TEST ${t} PROPERTY RUN_SERIAL TRUE)
  endif()
endforeach()
include(cmake/reliability.cmake) # stress and faults labels (tests/reliability)
