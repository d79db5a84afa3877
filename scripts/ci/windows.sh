#!/usr/bin/env bash
# The Windows build and its tests: cross-builds with mingw-w64 (cmake/toolchain-mingw64.cmake)
# into BUILD_DIR (default build-win), then runs under wine the unit tests (label win-unit) and
# the end-to-end tests against a self-contained win-x64 .NET 10 (label win-e2e, under the e2e
# lock). The wine prefix (BUILD_DIR/wineprefix) and the published app (BUILD_DIR/winapp) stay
# in the build tree, so only the first run pays for them (docs/windows.md gives the costs).
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=${1:-build-win}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
CLRA_WITH_WINDOWS=1 scripts/setup.sh
cmake -S . -B "$dir" -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-mingw64.cmake -DCLRA_WERROR=ON >/dev/null
cmake --build "$dir" -j2 >/dev/null
export WINEPREFIX=$dir/wineprefix
# The first wine-run.sh makes the prefix and starts one wineserver for the whole run; it is
# ended (this prefix's only) however the run ends.
"$dir/wine-run.sh" cmd /c exit
trap 'wineserver -k || true' EXIT
# A second try for a failed unit test only: under load a wine process has been seen to end
# non-zero before the test printed anything (2 of about 10 runs, a different test each time,
# each passing 40 times of 40 alone); a test that really fails fails twice.
(cd "$dir" && ctest -j2 --output-on-failure --repeat until-pass:2 -L win-unit) |
    tee "$dir/ctest.log"
# CLRA_E2E_LOCK_HELD=1: the caller already holds the lock (taking it again would wait forever).
lock=(flock /tmp/clrattach-e2e.lock)
[ -z "${CLRA_E2E_LOCK_HELD:-}" ] || lock=()
(cd "$dir" && "${lock[@]}" ctest --output-on-failure -L win-e2e) |
    tee -a "$dir/ctest.log"
