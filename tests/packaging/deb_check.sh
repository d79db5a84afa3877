#!/usr/bin/env bash
# Checks the Debian packages of scripts/build-deb.sh without installing them on the machine:
# every .deb unpacked with dpkg -x into one temporary root, then the installed command prints
# its version, has its man pages and completion where Debian puts them, lists and attaches to
# (and detaches from) a real .NET process; a program built with pkg-config against the -dev
# package loads the packaged shared library, and a profiler built on the packaged SDK loads.
# Usage: deb_check.sh DEB_DIR DOTNET SAMPLE_DLL HELLO_PROFILER_SO (run under the e2e lock)
set -euo pipefail
debs=$(realpath "$1") dotnet=$2 sample=$(realpath "$3") hello=$(realpath "$4")
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/clra-deb-XXXXXX)
chmod 755 "$work"
app=
cleanup() {
    [ -z "$app" ] || { kill -9 "$app" && wait "$app"; } 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "deb: FAIL: $*" >&2; exit 1; }
root=$work/root

for deb in "$debs"/clrattach_*.deb "$debs"/libclrattach0.3_*.deb "$debs"/libclrattach-dev_*.deb; do
    [ -f "$deb" ] || fail "missing $deb"
    dpkg -x "$deb" "$root"
done
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
lib=$root/usr/lib/$multiarch
cli=$root/usr/bin/clrattach
for f in usr/share/man/man1/clrattach.1.gz usr/share/man/man1/clrattach-attach.1.gz \
    usr/share/bash-completion/completions/clrattach usr/share/zsh/vendor-completions/_clrattach \
    "usr/lib/$multiarch/libclrattach.so.0.3" usr/include/clrprof/clrprof.h \
    "usr/lib/$multiarch/libclrprof.a" "usr/lib/$multiarch/cmake/clrattach/clrattachConfig.cmake"; do
    [ -e "$root/$f" ] || fail "not in the packages: /$f"
done
"$cli" --version | grep -q '^clrattach 0\.' || fail "--version: $("$cli" --version)"
echo "deb: ok: unpacked; $("$cli" --version | head -1); man pages, completion, library, SDK in place"

# The packaged command against a real .NET process.
CLRPROF_HELLO_LOG=$work/hello.log CLRPROF_LOG=$work/hello.log DOTNET_CLI_TELEMETRY_OPTOUT=1 \
    "$dotnet" "$sample" --seconds 300 </dev/null >"$work/app.out" 2>&1 &
app=$!
for _ in $(seq 300); do grep -q '^ready' "$work/app.out" && break; sleep 0.1; done
grep -q '^ready' "$work/app.out" || fail "the sample app did not start: $(cat "$work/app.out")"
"$cli" ps 2>/dev/null | grep -q "^ *$app " || fail "the packaged ps misses $app"
cp "$hello" "$work/"
"$cli" attach "$app" "$work/$(basename "$hello")" | grep -q '^attached' || fail "packaged attach"
"$cli" detach "$app" | grep -q '^detached hello' || fail "packaged detach"
grep -q ProfilerDetachSucceeded "$work/hello.log" || fail "the profiler saw no detach"
echo "deb: ok: the packaged clrattach lists, attaches to and detaches from $app"

# The -dev package: a pkg-config consumer against the unpacked root only.
mkdir -p "$work/pc"
PKG_CONFIG_PATH=$lib/pkgconfig PKG_CONFIG_LIBDIR=$lib/pkgconfig \
    bash "$here/../install/consumer_pkgconfig/build.sh" "$work/pc" >"$work/pc.log" 2>&1 ||
    fail "pkg-config consumer: $(cat "$work/pc.log")"
got=$(LD_LIBRARY_PATH=$lib "$work/pc/version_shared")
[ "$got" = "$("$cli" --version | sed -n 's/^clrattach \([^ ]*\).*/\1/p')" ] ||
    fail "the consumer printed '$got'"
case $(LD_LIBRARY_PATH=$lib ldd "$work/pc/version_shared") in
*"$lib/libclrattach.so.0.3"*) ;;
*) fail "the consumer does not load the packaged libclrattach.so.0.3" ;;
esac
"$work/pc/dlcheck" "$work/pc/libtiny_profiler.so" >/dev/null || fail "the SDK profiler"
echo "deb: ok: a pkg-config consumer of libclrattach-dev runs on the packaged library; an SDK profiler loads"
