# Finds the .NET SDK for the end-to-end tests, as CLRA_DOTNET says (AUTO, ON, OFF).
# Sets DOTNET_EXE when it is to be used; otherwise CLRA_NO_DOTNET_REASON says why not.
#
# Only PATH is searched (then $DOTNET_ROOT), never CMake's system directories or guessed
# install locations: a PATH without dotnet, or -DCLRA_DOTNET=OFF, means a build without it.
# The path found is cached in DOTNET_EXE (set it to pick another SDK).

string(TOUPPER "${CLRA_DOTNET}" clra_dotnet_mode)
if(NOT clra_dotnet_mode MATCHES "^(AUTO|ON|OFF)$")
  message(FATAL_ERROR "CLRA_DOTNET is '${CLRA_DOTNET}'; use AUTO, ON or OFF.")
endif()

set(CLRA_NO_DOTNET_REASON "")
if(clra_dotnet_mode STREQUAL "OFF")
  unset(DOTNET_EXE CACHE)
  unset(DOTNET_EXE)
  set(CLRA_NO_DOTNET_REASON "configured with -DCLRA_DOTNET=OFF")
else()
  # A path that no longer holds dotnet (PATH changed since) is searched again.
  if(DOTNET_EXE AND NOT EXISTS "${DOTNET_EXE}")
    unset(DOTNET_EXE CACHE)
  endif()
  find_program(DOTNET_EXE dotnet PATHS ENV DOTNET_ROOT
               NO_PACKAGE_ROOT_PATH NO_CMAKE_PATH NO_CMAKE_ENVIRONMENT_PATH NO_CMAKE_SYSTEM_PATH)
  if(NOT DOTNET_EXE)
    set(CLRA_NO_DOTNET_REASON "the .NET SDK (dotnet) is not on PATH")
    if(clra_dotnet_mode STREQUAL "ON")
      message(FATAL_ERROR "The end-to-end tests need the .NET SDK (dotnet) on PATH "
                          "(-DCLRA_DOTNET=ON); install it, configure with -DCLRA_DOTNET=AUTO "
                          "or OFF to skip them, or with -DCLRA_TESTS=OFF to build without tests.")
    endif()
  endif()
endif()
