# The Windows build (mingw-w64, cmake/toolchain-mingw64.cmake): cmake/sources.cmake adds the
# _WIN source lists to the shared ones, everything links statically against the mingw
# runtime (a DLL or .exe needs nothing beside it), and the tests run under wine
# (docs/windows.md).
# Windows 8 is the oldest the code asks for (CancelIoEx, GetNamedPipeServerProcessId).
add_compile_definitions(_WIN32_WINNT=0x0602 WIN32_LEAN_AND_MEAN __USE_MINGW_ANSI_STDIO=1)
add_link_options(-static-libgcc -static)
set(CMAKE_POSITION_INDEPENDENT_CODE OFF)

# ctest runs every test executable through wine (tests/windows/wine-run.sh.in), with a prefix
# of its own in the build tree, made by the first run and reused after.
find_program(CLRA_WINE wine)
find_program(CLRA_WINESERVER wineserver)
if(CLRA_WINE AND CLRA_WINESERVER)
  configure_file(${CMAKE_SOURCE_DIR}/tests/windows/wine-run.sh.in
                 ${CMAKE_BINARY_DIR}/wine-run.sh @ONLY FILE_PERMISSIONS OWNER_READ OWNER_WRITE
                 OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${CMAKE_BINARY_DIR}/wine-run.sh)
endif()
