# Tests of the Windows build, run under wine by ctest (cmake/windows.cmake sets the emulator).
add_library(clra_test_main STATIC tests/common/test_main.c)
target_include_directories(clra_test_main PUBLIC tests/common)
function(clra_register_win_tests exe label)
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

# Unit tests: UNIT_SOURCES_WINDOWS of cmake/test_sources.cmake.
include(cmake/test_sources.cmake)
add_executable(unit_tests ${UNIT_SOURCES_WINDOWS})
target_include_directories(unit_tests PRIVATE ${CLRATTACH_PRIVATE_INCLUDE} ${CLRPROF_PRIVATE_INCLUDE})
target_link_libraries(unit_tests PRIVATE clrattach_static clrprof clra_test_main)
clra_register_win_tests(unit_tests win-unit ${UNIT_SOURCES_WINDOWS})
target_compile_definitions(unit_tests PRIVATE CLRA_CMAKE_VERSION="${PROJECT_VERSION}")

# The .NET Framework attach (ICLRProfiling through mscoree.dll) against fakes built here, under
# wine (tests/windows/framework.sh; no .NET, so no e2e lock): fx/shim/mscoree.dll, fx/clr.dll and
# fx/fake_target.exe; with i686-w64-mingw32-gcc also a 32-bit fake_target.exe in fx32 for the
# bitness check (it needs wine32 to start; the case is skipped without).
add_library(fake_mscoree SHARED ${FRAMEWORK_FAKE_MSCOREE})
target_include_directories(fake_mscoree PRIVATE ${CMAKE_SOURCE_DIR}/src/clrattach)
set_target_properties(fake_mscoree PROPERTIES PREFIX "" OUTPUT_NAME mscoree
                      RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/fx/shim
                      ARCHIVE_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/fx/shim)
add_library(fake_clr SHARED ${FRAMEWORK_FAKE_CLR})
set_target_properties(fake_clr PROPERTIES PREFIX "" OUTPUT_NAME clr
                      RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/fx
                      ARCHIVE_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/fx)
add_executable(fake_target ${FRAMEWORK_FAKE_TARGET})
set_target_properties(fake_target PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/fx)
find_program(CLRA_MINGW32_GCC i686-w64-mingw32-gcc)
if(CLRA_MINGW32_GCC)
  add_custom_command(OUTPUT ${CMAKE_BINARY_DIR}/fx32/fake_target.exe ${CMAKE_BINARY_DIR}/fx32/clr.dll
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/fx32
    COMMAND ${CLRA_MINGW32_GCC} -O1 -static -o ${CMAKE_BINARY_DIR}/fx32/fake_target.exe
            ${FRAMEWORK_FAKE_TARGET}
    COMMAND ${CLRA_MINGW32_GCC} -O1 -static -shared -o ${CMAKE_BINARY_DIR}/fx32/clr.dll
            ${FRAMEWORK_FAKE_CLR}
    DEPENDS ${FRAMEWORK_FAKE_TARGET} ${FRAMEWORK_FAKE_CLR} VERBATIM)
  add_custom_target(fake_target32 ALL DEPENDS ${CMAKE_BINARY_DIR}/fx32/fake_target.exe)
endif()
if(CLRA_WINE)
  foreach(case args hresults notimpl longpath neither bitness noshim noprofiling deadline)
    add_test(NAME win-unit.fx_${case} COMMAND bash ${CMAKE_SOURCE_DIR}/tests/windows/framework.sh
             ${CMAKE_BINARY_DIR} ${case})
    set_tests_properties(win-unit.fx_${case} PROPERTIES LABELS win-unit TIMEOUT 180
                         SKIP_RETURN_CODE 77)
  endforeach()
endif()

# End-to-end under wine against a self-contained win-x64 .NET 10 (tests/windows/e2e.sh): needs
# wine and the .NET SDK on this Linux host; the app is published into the build tree once.
find_program(CLRA_HOST_DOTNET dotnet NO_CMAKE_FIND_ROOT_PATH)
if(CLRA_WINE AND CLRA_HOST_DOTNET)
  foreach(case info attach missing env ps resume detach profile_args)
    add_test(NAME win-e2e.${case} COMMAND bash ${CMAKE_SOURCE_DIR}/tests/windows/e2e.sh
             ${CMAKE_BINARY_DIR} ${CMAKE_SOURCE_DIR} ${CLRA_HOST_DOTNET} ${case})
    set_tests_properties(win-e2e.${case} PROPERTIES LABELS win-e2e TIMEOUT 300 RUN_SERIAL ON)
  endforeach()
  # launch on Windows (tests/windows/e2e_launch.sh): the app with a startup profiler, a trace
  # or a startup hook, and commands that are not .NET.
  foreach(case profiler trace duration hook never interrupt notdotnet usage)
    add_test(NAME win-e2e.launch_${case} COMMAND bash ${CMAKE_SOURCE_DIR}/tests/windows/e2e_launch.sh
             ${CMAKE_BINARY_DIR} ${CMAKE_SOURCE_DIR} ${CLRA_HOST_DOTNET} ${case})
    set_tests_properties(win-e2e.launch_${case} PROPERTIES LABELS win-e2e TIMEOUT 300 RUN_SERIAL ON)
  endforeach()
  # profile, stack and launch --profile with the sampler DLL (tests/windows/e2e_profile.sh).
  foreach(case split walk stack launch)
    add_test(NAME win-e2e.profile_${case} COMMAND bash ${CMAKE_SOURCE_DIR}/tests/windows/e2e_profile.sh
             ${CMAKE_BINARY_DIR} ${CMAKE_SOURCE_DIR} ${CLRA_HOST_DOTNET} ${case})
    set_tests_properties(win-e2e.profile_${case} PROPERTIES LABELS win-e2e TIMEOUT 300 RUN_SERIAL ON)
  endforeach()
  # attach --hold over the SDK's control pipe (tests/windows/e2e_hold.sh, issue 28).
  foreach(case interrupt kill)
    add_test(NAME win-e2e.hold_${case} COMMAND bash ${CMAKE_SOURCE_DIR}/tests/windows/e2e_hold.sh
             ${CMAKE_BINARY_DIR} ${CMAKE_SOURCE_DIR} ${CLRA_HOST_DOTNET} ${case})
    set_tests_properties(win-e2e.hold_${case} PROPERTIES LABELS win-e2e TIMEOUT 300 RUN_SERIAL ON)
  endforeach()
  # trace, convert, startup-hook and dump (tests/windows/e2e_trace.sh, issue 12).
  foreach(case trace hook dump counters)
    add_test(NAME win-e2e.${case} COMMAND bash ${CMAKE_SOURCE_DIR}/tests/windows/e2e_trace.sh
             ${CMAKE_BINARY_DIR} ${CMAKE_SOURCE_DIR} ${CLRA_HOST_DOTNET} ${case})
    set_tests_properties(win-e2e.${case} PROPERTIES LABELS win-e2e TIMEOUT 300 RUN_SERIAL ON)
  endforeach()
else()
  message(WARNING "Windows end-to-end tests SKIPPED: they need wine and dotnet on this host")
endif()
