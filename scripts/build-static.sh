#!/usr/bin/env bash
# Builds a fully static, size-optimised clrattach command with musl (Debian's musl-tools) into
# build-static/clrattach: one file with no dependency, for distroless, Alpine or chiseled
# containers. musl-gcc sees only musl's headers, so the kernel's UAPI headers (linux/, asm/,
# asm-generic/) of the build machine are offered through a directory of links. Prints the
# stripped size and where the bytes go. Extra arguments go to the CMake configure step.
#
# By default it builds the container verb set, which has a 150 KB budget
# (tests/static/size_check.sh): every verb but launch, trace, convert, counters, profile, stack, dump and heap (docs/packaging.md says
# why). With --all-verbs as the first argument it builds every verb into build-static-all/.
set -euo pipefail
cd "$(dirname "$0")/.."
out=build-static leave_out="launch;trace;convert;counters;profile;stack;dump;heap"
if [ "${1:-}" = --all-verbs ]; then
    out=build-static-all leave_out=""
    shift
fi
command -v musl-gcc >/dev/null || { echo "build-static: musl-gcc missing (apt-get install musl-tools)" >&2; exit 1; }

# The kernel headers musl's tree lacks, from the build machine's own linux-libc-dev.
kh=$PWD/$out/kernel-headers
mkdir -p "$kh"
multiarch=$(gcc -print-multiarch)
ln -sfn /usr/include/linux "$kh/linux"
ln -sfn /usr/include/asm-generic "$kh/asm-generic"
ln -sfn "/usr/include/$multiarch/asm" "$kh/asm"

# Size: every function and object in its own section for --gc-sections; no unwind tables (C,
# nothing unwinds); not position-independent (a static executable loads at a fixed address);
# no page-aligned gaps between segments (-z noseparate-code, and -z common-page-size=64 so the
# data segment starts in the file right after the code, at the same offset within its page,
# instead of on the next page: up to 4 KB of padding that made the size jump a page at a
# time); no build id. -Oz (GCC 12) saves
# 1.3 KB over -Os; LTO was tried and made the binary 2.7 KB larger.
cflags="-ffunction-sections -fdata-sections -fno-asynchronous-unwind-tables -fno-unwind-tables"
cflags+=" -fno-pie -fmerge-all-constants"
ldflags="-no-pie -Wl,--gc-sections,-z,noseparate-code,-z,common-page-size=64,-z,norelro,--build-id=none,--hash-style=gnu -s"
cmake -S . -B "$out" -DCMAKE_C_COMPILER=musl-gcc -DCLRA_STATIC=ON -DCLRA_TESTS=OFF \
    -DCLRA_WERROR=ON -DCMAKE_BUILD_TYPE=MinSizeRel -DCMAKE_POSITION_INDEPENDENT_CODE=OFF \
    -DCMAKE_C_FLAGS_MINSIZEREL="-Oz -DNDEBUG" -DCLRA_CLI_LEAVE_OUT="$leave_out" \
    -DCMAKE_C_FLAGS="-isystem $kh $cflags" \
    -DCMAKE_EXE_LINKER_FLAGS="$ldflags" "$@" >/dev/null
cmake --build "$out" -j"$(nproc)" --target clrattach_cli >/dev/null

# The unstripped twin (same objects, symbols kept) says where the bytes go.
musl-gcc -static ${ldflags% -s} -Wl,-Map="$out/clrattach.map" -o "$out/clrattach.syms" \
    $(find "$out/CMakeFiles/clrattach_cli.dir" -name '*.o') "$out/libclrattach.a"
size=$(stat -c %s "$out/clrattach")
if [ -n "$leave_out" ]; then
    echo "build-static: $out/clrattach: $size bytes stripped ($((size / 1024)) KB, budget 150 KB; verbs left out: ${leave_out//;/, })"
else
    echo "build-static: $out/clrattach: $size bytes stripped ($((size / 1024)) KB, every verb; the budget is for the container set)"
fi
file "$out/clrattach" | sed 's/^/build-static: /'
size -A "$out/clrattach" | awk '$1 ~ /^\.(text|rodata|data|bss|eh_frame)/ {printf "build-static:   %-10s %7d\n", $1, $2}'
echo "build-static: largest functions and data (unstripped twin):"
nm --size-sort -S -t d "$out/clrattach.syms" | tail -12 | awk '{printf "build-static:   %6d %s %s\n", $2, $3, $4}'
