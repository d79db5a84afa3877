# The runtime matrix: the end-to-end tests once more per .NET runtime in CLRA_RUNTIMES, each
# run labelled e2e-<version> (the system runtime's run, labelled e2e, also gets
# e2e-<system version>). The runtimes are not installed: their NuGet runtime packs are restored
# into one private .NET root in the build tree (scripts/ci/runtimes.sh, run by the fixture
# test runtimes.restore on first use, kept afterwards) and the sample app is started with
# `<root>/dotnet exec --fx-version <version>` (tests/e2e/runtime.c).

set(CLRA_RUNTIMES_DEFAULT 8.0.0 8.0.31 9.0.18 9.0.20 10.0.14)
# Patch siblings of a runtime that runs the whole suite run only the version-sensitive core
# (E2E_CORE_SOURCES: attach, detach, callbacks, info, hooks, dump, trace): their other tests
# repeated what 8.0.31, 9.0.20 and the system 10.0.x had shown, at 280 s each (CI 29 min).
set(CLRA_RUNTIMES_CORE_ONLY 8.0.0 9.0.18 10.0.14 CACHE STRING
    "Runtimes of CLRA_RUNTIMES that run only the core end-to-end tests")
if(DEFINED ENV{CLRA_RUNTIMES})
  string(REGEX REPLACE "[ ,]+" ";" clra_runtimes_env "$ENV{CLRA_RUNTIMES}")
  set(CLRA_RUNTIMES "${clra_runtimes_env}" CACHE STRING "" FORCE)
endif()
set(CLRA_RUNTIMES "${CLRA_RUNTIMES_DEFAULT}" CACHE STRING
    "Microsoft.NETCore.App versions the end-to-end tests also run on (from NuGet runtime packs); \
empty for none; the environment variable CLRA_RUNTIMES (spaces or commas) overrides it")
set(CLRA_RUNTIME_ROOT ${CMAKE_BINARY_DIR}/runtimes/dotnet)

# The newest Microsoft.NETCore.App of the system SDK: the runtime of the plain e2e run.
execute_process(COMMAND ${DOTNET_EXE} --list-runtimes OUTPUT_VARIABLE clra_list
                ERROR_QUIET RESULT_VARIABLE clra_list_rc)
string(REGEX MATCHALL "Microsoft\\.NETCore\\.App [0-9]+\\.[0-9]+\\.[0-9]+" clra_list "${clra_list}")
set(CLRA_SYSTEM_RUNTIME_VERSION 0.0.0)
foreach(entry ${clra_list})
  string(REPLACE "Microsoft.NETCore.App " "" v "${entry}")
  if(v VERSION_GREATER CLRA_SYSTEM_RUNTIME_VERSION)
    set(CLRA_SYSTEM_RUNTIME_VERSION ${v})
  endif()
endforeach()
if(CLRA_SYSTEM_RUNTIME_VERSION STREQUAL "0.0.0")
  message(WARNING "`${DOTNET_EXE} --list-runtimes` named no Microsoft.NETCore.App: the e2e tests "
                  "cannot tell which runtime version they run on")
endif()
target_compile_definitions(e2e_tests PRIVATE
  CLRA_SYSTEM_RUNTIME_VERSION="${CLRA_SYSTEM_RUNTIME_VERSION}")

# Registers every TEST(name) of the e2e sources for one runtime (version), as e2e-<v>.<name>;
# a core-only runtime gets the tests of E2E_CORE_SOURCES alone.
function(clra_register_runtime_tests version)
  set(sources ${E2E_SOURCES})
  if(version IN_LIST CLRA_RUNTIMES_CORE_ONLY)
    set(sources ${E2E_CORE_SOURCES})
  endif()
  foreach(src ${sources})
    file(STRINGS ${src} lines REGEX "^TEST\\([A-Za-z0-9_]+\\)")
    foreach(line ${lines})
      string(REGEX REPLACE "^TEST\\(([A-Za-z0-9_]+)\\).*" "\\1" name "${line}")
      if(version STREQUAL CLRA_SYSTEM_RUNTIME_VERSION)
        set_property(TEST e2e.${name} APPEND PROPERTY LABELS e2e-${version})
        continue()
      endif()
      add_test(NAME e2e-${version}.${name} COMMAND e2e_tests ${name})
      set_tests_properties(e2e-${version}.${name} PROPERTIES
        LABELS "e2e-${version};e2e-matrix" TIMEOUT 120 SKIP_RETURN_CODE 77
        FIXTURES_REQUIRED clra_runtimes
        ENVIRONMENT "CLRA_RUNTIME_ROOT=${CLRA_RUNTIME_ROOT};CLRA_RUNTIME_VERSION=${version}")
    endforeach()
  endforeach()
endfunction()

clra_register_runtime_tests(${CLRA_SYSTEM_RUNTIME_VERSION})
# Sanitized builds run the system runtime only (the matrix tests the runtimes, not our memory).
if(CLRA_SANITIZE OR NOT CLRA_RUNTIMES)
  return()
endif()
list(REMOVE_ITEM CLRA_RUNTIMES ${CLRA_SYSTEM_RUNTIME_VERSION})
add_test(NAME runtimes.restore
         COMMAND bash ${CMAKE_SOURCE_DIR}/scripts/ci/runtimes.sh ${CLRA_RUNTIME_ROOT}
                 ${DOTNET_EXE} ${CLRA_RUNTIMES})
set_tests_properties(runtimes.restore PROPERTIES FIXTURES_SETUP clra_runtimes TIMEOUT 900
                     LABELS e2e-matrix)
foreach(version ${CLRA_RUNTIMES})
  clra_register_runtime_tests(${version})
endforeach()
