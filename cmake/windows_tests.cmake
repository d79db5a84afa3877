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
