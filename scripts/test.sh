#!/usr/bin/env bash
# Installs what is missing, then builds and runs the whole test suite three ways: gcc with
# -Werror, gcc with AddressSanitizer + UndefinedBehaviorSanitizer (end-to-end tests included,
# the ASan runtime preloaded into the .NET targets), and clang with -Werror (unit tests).
set -euo pipefail
cd "$(dirname "$0")/.."
CLRA_WITH_CLANG=1 scripts/setup.sh
jobs=$(nproc)

run_suite() { # build-dir, then cmake options
    local dir=$1
    shift
    echo "== $dir: $*"
    cmake -S . -B "$dir" -DCLRA_WERROR=ON "$@" >/dev/null
    cmake --build "$dir" -j"$jobs" >/dev/null
    (cd "$dir" && ctest -j2 --output-on-failure "${ctest_args[@]}")
}

ctest_args=()
run_suite build
run_suite build-sanitize -DCLRA_SANITIZE=ON
ctest_args=(-L "unit|fuzz-smoke")
run_suite build-clang -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++
