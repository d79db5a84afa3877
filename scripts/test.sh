#!/usr/bin/env bash
# Installs what is missing, then builds and runs the whole test suite four ways: gcc with
# -Werror, gcc with AddressSanitizer + UndefinedBehaviorSanitizer (end-to-end tests included,
# the ASan runtime preloaded into the .NET targets), clang with -Werror (unit tests and the
# install test), and gcc with the .NET SDK hidden from PATH (unit tests must build and pass
# without it; the end-to-end tests must be reported as skipped). Every full run includes the
# install test (ctest label `install`): cmake --install, then a find_package consumer and a
# pkg-config consumer built against the installed copy.
set -euo pipefail
cd "$(dirname "$0")/.."
CLRA_WITH_CLANG=1 CLRA_WITH_WINDOWS=1 scripts/setup.sh
jobs=$(nproc)

run_suite() { # build-dir, then cmake options
    local dir=$1
    shift
    echo "== $dir: $*"
    cmake -S . -B "$dir" -DCLRA_WERROR=ON "$@" >/dev/null
    cmake --build "$dir" -j"$jobs" >/dev/null
    if ! (cd "$dir" && ctest -j2 --output-on-failure "${ctest_args[@]}") | tee "$dir/ctest.log"; then
        failure_digest "$dir/ctest.log"
        return 1
    fi
}

# Repeats each failed test's own output at the very end, where a truncated CI log still shows
# it: with -j2 the output of a failure is otherwise buried among hundreds of passing lines.
failure_digest() {
    echo "== failures in $1"
    awk '/\*\*\*(Failed|Timeout|Exception)/ { on = 1; print; next }
         on && /^ *(Start +[0-9]+:|[0-9]+\/[0-9]+ Test +#)/ { on = 0 }
         on && n < 400 { print; n++ }' "$1"
}

# A directory of links to every program on PATH except dotnet (often /usr/bin/dotnet, so
# dropping directories from PATH would not hide it).
path_without_dotnet() {
    local shadow=$1 dir f name
    local -A seen=([dotnet]=1)
    local -a links=()
    rm -rf "$shadow"
    mkdir -p "$shadow"
    local IFS=:
    for dir in $PATH; do
        for f in "$dir"/*; do
            name=${f##*/}
            [ -x "$f" ] && [ -z "${seen[$name]:-}" ] || continue
            seen[$name]=1
            links+=("$f")
        done
    done
    unset IFS
    printf '%s\0' "${links[@]}" | xargs -0 ln -s -t "$shadow"
}

# These two need the .NET SDK (CLRA_DOTNET=ON): without it they fail instead of skipping.
ctest_args=()
run_suite build -DCLRA_DOTNET=ON
scripts/ci/packaging.sh build # static musl command, Debian packages, their checks
run_suite build-sanitize -DCLRA_SANITIZE=ON -DCLRA_DOTNET=ON
ctest_args=(-L "unit|fuzz|install") # fuzz: the libFuzzer targets, 3 s each (cmake/fuzz.cmake)
run_suite build-clang -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++

# Without the .NET SDK: default options (CLRA_DOTNET=AUTO), dotnet neither on PATH nor in
# $DOTNET_ROOT. Everything registered runs: unit, fuzz-smoke, install, and the one e2e test
# that reports the end-to-end tests as skipped.
mkdir -p build-nodotnet
path_without_dotnet build-nodotnet/path
ctest_args=()
(
    unset DOTNET_ROOT
    export PATH=$PWD/build-nodotnet/path
    run_suite build-nodotnet
)
if ! grep -q '^DOTNET_EXE:FILEPATH=DOTNET_EXE-NOTFOUND' build-nodotnet/CMakeCache.txt; then
    echo "build-nodotnet found dotnet although it was hidden" >&2
    exit 1
fi
if ! grep -q 'e2e.skipped_without_dotnet (Skipped)' build-nodotnet/ctest.log; then
    echo "build-nodotnet did not report the end-to-end tests as skipped" >&2
    exit 1
fi

# The Windows build (mingw-w64), its unit tests and end-to-end tests under wine.
scripts/ci/windows.sh build-win
