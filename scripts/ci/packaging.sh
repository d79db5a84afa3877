#!/usr/bin/env bash
# The packaging checks of CI (called by scripts/test.sh after the main build): the static musl
# command (scripts/build-static.sh; its CLI checks and the container case, tests/static/run.sh,
# with its size checked against the 150 KB budget, tests/static/size_check.sh, and its peak
# RSS printed) and the Debian packages (scripts/build-deb.sh; lintian
# must report no error or warning; tests/packaging/deb_check.sh). Starts .NET processes: run
# under the e2e lock, which scripts/test.sh's caller holds. Usage: packaging.sh [BUILD_DIR]
# (the main build, for the sample app and the hello profiler; default build).
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
dotnet=$(command -v dotnet)
sample=$build/apps/sample/sample.dll
hello=$build/profilers/libhello_profiler.so
[ -f "$sample" ] && [ -f "$hello" ] || { echo "packaging: build $build first" >&2; exit 1; }

echo "== packaging: static command"
scripts/build-static.sh
tests/static/size_check.sh build-static/clrattach
cc -O2 -o build-static/peak_rss bench/peak_rss.c
CLRA_PEAK_RSS=$PWD/build-static/peak_rss \
    tests/static/run.sh build-static/clrattach "$dotnet" "$sample" "$hello" 2>&1 |
    grep -v 'stale diagnostics sockets\|could not be inspected'

echo "== packaging: Debian packages"
scripts/build-deb.sh
if grep -q '^[EW]:' build-deb/lintian.log; then
    echo "packaging: lintian reports errors or warnings (build-deb/lintian.log)" >&2
    exit 1
fi
tests/packaging/deb_check.sh build-deb "$dotnet" "$sample" "$hello"
echo "== packaging: ok"
