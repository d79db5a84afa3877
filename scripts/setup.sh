#!/usr/bin/env bash
# Installs what building and testing clrattach needs, if it is missing (Debian; run as root or
# with sudo available). The .NET SDK is expected to be present already: it is what the
# end-to-end tests attach to (CLRA_NEED_DOTNET=0: only say it is missing; the build then skips
# those tests).
#
# `scripts/setup.sh demo` (what scripts/demo.sh runs) installs only what the demo builds with:
# cmake, make and a C compiler with libc's headers. The project is C only (g++ is used by one
# unit test when present); the demo's targets (the command, the hello profiler, the sample app)
# need neither the packaging tools nor the profile-format consumers below, which only tests use.
# Without an argument (scripts/test.sh) it installs everything the test suite uses.
set -euo pipefail

mode=${1:-all}
case "$mode" in
all | demo) ;;
*)
    echo "usage: scripts/setup.sh [demo]" >&2
    exit 2
    ;;
esac

need=()
command -v cmake >/dev/null || need+=(cmake)
command -v make >/dev/null || need+=(make)
command -v gcc >/dev/null || need+=(gcc)
dpkg -s libc6-dev >/dev/null 2>&1 || need+=(libc6-dev)
if [ "$mode" = all ]; then
    command -v g++ >/dev/null || need+=(g++)
    command -v pkg-config >/dev/null || need+=(pkg-config) # the install test's pkg-config consumer
    # Packaging (scripts/ci/packaging.sh): the static musl build, man pages, the Debian packages.
    command -v musl-gcc >/dev/null || need+=(musl-tools)
    command -v scdoc >/dev/null || need+=(scdoc)
    command -v lintian >/dev/null || need+=(lintian)
    command -v dh >/dev/null || need+=(debhelper)
    dpkg -s build-essential >/dev/null 2>&1 || need+=(build-essential)
    # The profile formats' consumers (ctest tests consumer.*): headless Chromium renders the flame graph
    # and speedscope (itself from npm, installed into the build tree by the fixture consumer.npm),
    # `go tool pprof` reads the pprof file.
    command -v chromium >/dev/null || need+=(chromium)
    command -v go >/dev/null || need+=(golang-go)
    command -v npm >/dev/null || need+=(npm)
    # perf, the anchor of the signal sampler's bias figure (e2e signal_profile_..._of_perf).
    command -v perf >/dev/null || need+=(linux-perf)
    if [ "${CLRA_WITH_CLANG:-0}" = 1 ] && ! command -v clang >/dev/null; then
        need+=(clang)
    fi
    # The Windows build and its tests under wine (scripts/ci/windows.sh): CLRA_WITH_WINDOWS=1.
    if [ "${CLRA_WITH_WINDOWS:-0}" = 1 ]; then
        command -v x86_64-w64-mingw32-gcc >/dev/null || need+=(mingw-w64)
        command -v wine >/dev/null || need+=(wine64)
    fi
    # libFuzzer and the sanitizer runtimes for the clang build's fuzz targets (ctest label fuzz).
    if [ "${CLRA_WITH_CLANG:-0}" = 1 ] && ! dpkg -s libclang-rt-14-dev >/dev/null 2>&1; then
        need+=(libclang-rt-14-dev)
    fi
fi

if [ ${#need[@]} -gt 0 ]; then
    echo "setup: installing ${need[*]}"
    sudo_cmd=()
    [ "$(id -u)" = 0 ] || sudo_cmd=(sudo)
    "${sudo_cmd[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${need[@]}" >/dev/null
fi

if ! command -v dotnet >/dev/null; then
    echo "setup: the .NET SDK (dotnet) is not on PATH. Install it (https://dot.net) and retry;" >&2
    echo "       the end-to-end tests and the demo start a real .NET process." >&2
    [ "${CLRA_NEED_DOTNET:-1}" = 0 ] || exit 1
fi
