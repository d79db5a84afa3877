# Cross build for 64-bit Windows with mingw-w64 (Debian: apt-get install mingw-w64):
#   cmake -S . -B build-win -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-mingw64.cmake
# Tests of that tree run under wine (cmake/windows.cmake sets the emulator), see docs/windows.md.
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(CLRA_MINGW_PREFIX x86_64-w64-mingw32 CACHE STRING "mingw-w64 tool prefix")
set(CMAKE_C_COMPILER ${CLRA_MINGW_PREFIX}-gcc)
set(CMAKE_CXX_COMPILER ${CLRA_MINGW_PREFIX}-g++)
set(CMAKE_RC_COMPILER ${CLRA_MINGW_PREFIX}-windres)
set(CMAKE_FIND_ROOT_PATH /usr/${CLRA_MINGW_PREFIX})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
