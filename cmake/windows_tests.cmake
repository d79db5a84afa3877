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

# End-to-end under wine against a self-contained win-x64 .NET 10 (tests/windows/e2e.sh): needs
# wine and the .NET SDK on this Linux host; the app is published into the build tree once.
find_program(CLRA_HOST_DOTNET dotnet NO_CMAKE_FIND_ROOT_PATH)
if(CLRA_WINE AND CLRA_HOST_DOTNET)
  foreach(case info attach missing env ps resume detach unsupported)
    add_test(NAME win-e2e.${case} COMMAND bash ${CMAKE_SOURCE_DIR}/tests/windows/e2e.sh
             ${CMAKE_BINARY_DIR} ${CMAKE_SOURCE_DIR} ${CLRA_HOST_DOTNET} ${case})
    set_tests_properties(win-e2e.${case} PROPERTIES LABELS win-e2e TIMEOUT 300 RUN_SERIAL ON)
  endforeach()
else()
  message(WARNING "Windows end-to-end tests SKIPPED: they need wine and dotnet on this host")
endif()
