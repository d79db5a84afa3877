#!/usr/bin/env bash
# A project using an installed clrattach through pkg-config, with plain compiler command lines
# (see tests/install/run.sh). Usage: build.sh OUTDIR; PKG_CONFIG_PATH finds the .pc files, CC
# is the compiler, CFLAGS extra flags.
set -euo pipefail
out=$1
src=$(cd "$(dirname "$0")/../common" && pwd)
cc=${CC:-cc}
read -ra extra <<<"${CFLAGS:-}"
warn=(-Wall -Wextra -Werror)
pc() { pkg-config --print-errors "$@"; }
# shellcheck disable=SC2046 # pkg-config output is meant to be split into words
{
    set -x
    "$cc" "${warn[@]}" "${extra[@]}" "$src/version.c" -o "$out/version_shared" $(pc --cflags --libs clrattach)
    "$cc" "${warn[@]}" "${extra[@]}" "$src/version.c" -o "$out/version_static" \
        $(pc --cflags clrattach) $(pc --libs-only-L clrattach) -Wl,-Bstatic -lclrattach -Wl,-Bdynamic \
        $(pc --static --libs-only-other clrattach)
    "$cc" "${warn[@]}" "${extra[@]}" -shared -fPIC "$src/profiler.c" -o "$out/libtiny_profiler.so" \
        $(pc --cflags --libs clrprof)
    "$cc" "${warn[@]}" "${extra[@]}" "$src/dlcheck.c" -o "$out/dlcheck" -ldl
}
