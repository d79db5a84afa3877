#!/usr/bin/env bash
# Install-and-consume test (ctest label `install`): `cmake --install` the build into a
# temporary prefix, then build two consumers against that copy only — one with
# find_package(clrattach) (consumer_cmake/), one with pkg-config and plain compiler command lines
# (consumer_pkgconfig/) — and run them: each program must print the project's version, each
# profiler must dlopen and answer DllGetClassObject. No .NET needed.
#
# Usage: run.sh BUILD_DIR VERSION CMAKE CC [CFLAGS]   (CFLAGS: e.g. the sanitizer flags the
# installed libraries were built with, which their consumers need too)
set -euo pipefail
build=$1 version=$2 cmake=$3 cc=$4 cflags=${5:-}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/clra-install.XXXXXX")
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix

fail() {
    echo "FAIL: $*" >&2
    exit 1
}
step() { echo "== $*"; }
# Runs a consumer program; it must print exactly the project's version.
expect_version() {
    local got
    got=$("$@") || fail "$* exited with $?"
    [ "$got" = "$version" ] || fail "$* printed '$got', expected '$version'"
    echo "ok   $* -> $got"
}
# A program linked against the shared library must load the installed one. (ldd's output is
# taken whole: `ldd | grep -q` can fail under pipefail when grep exits first.)
loads_installed_lib() {
    case $(ldd "$1") in
    *"$libdir/libclrattach.so"*) ;;
    *) fail "$1 does not load $libdir/libclrattach.so" ;;
    esac
}

step "cmake --install $build --prefix $prefix"
"$cmake" --install "$build" --prefix "$prefix" >"$work/install.log" || {
    cat "$work/install.log" >&2
    fail "cmake --install"
}
for f in bin/clrattach include/clrattach.h include/clrattach_version.h \
    include/clrprof/clrprof_profiler.h; do
    [ -e "$prefix/$f" ] || fail "not installed: $f"
done
pcfile=$(find "$prefix" -path '*/pkgconfig/clrattach.pc' -print -quit)
[ -n "$pcfile" ] || fail "clrattach.pc not installed"
libdir=$(dirname "$(dirname "$pcfile")")
for f in libclrattach.so libclrattach.a libclrprof.a pkgconfig/clrprof.pc \
    cmake/clrattach/clrattachConfig.cmake cmake/clrattach/clrattachConfigVersion.cmake; do
    [ -e "$libdir/$f" ] || fail "not installed: $libdir/$f"
done
# The real file is versioned, the soname link points at it.
soname=$(readelf -d "$libdir/libclrattach.so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ -e "$libdir/$soname" ] || fail "libclrattach.so's soname $soname is not installed"
echo "ok   installed; libclrattach soname $soname"
cli=$("$prefix/bin/clrattach" --version | head -1)
[ "$cli" = "clrattach $version" ] || fail "clrattach --version printed '$cli' first"
echo "ok   clrattach --version -> $cli"

# Only the installed copy may be used: no build tree, no package registry, no system copy.
export LD_LIBRARY_PATH=$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}

step "find_package(clrattach) consumer"
cm=$work/consumer_cmake
"$cmake" -S "$here/consumer_cmake" -B "$cm" -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF -DCMAKE_C_COMPILER="$cc" -DCMAKE_C_FLAGS="$cflags" \
    -DCLRA_EXPECTED_VERSION="$version" >"$cm.log" 2>&1 || {
    cat "$cm.log" >&2
    fail "configuring the find_package consumer"
}
grep -q "from $prefix/" "$cm.log" || fail "find_package did not take the installed copy: $(grep 'clrattach ' "$cm.log")"
"$cmake" --build "$cm" >>"$cm.log" 2>&1 || {
    cat "$cm.log" >&2
    fail "building the find_package consumer"
}
expect_version "$cm/version_shared"
expect_version "$cm/version_static"
loads_installed_lib "$cm/version_shared"
"$cm/dlcheck" "$cm/libtiny_profiler.so" || fail "the find_package profiler"

step "pkg-config consumer"
if ! command -v pkg-config >/dev/null; then
    echo "SKIP: pkg-config is not installed (scripts/setup.sh installs it)" >&2
    exit 77
fi
pk=$work/consumer_pkgconfig
mkdir -p "$pk"
export PKG_CONFIG_PATH=$libdir/pkgconfig PKG_CONFIG_LIBDIR=$libdir/pkgconfig
[ "$(pkg-config --modversion clrattach)" = "$version" ] || fail "pkg-config --modversion clrattach"
[ "$(pkg-config --modversion clrprof)" = "$version" ] || fail "pkg-config --modversion clrprof"
CC=$cc CFLAGS=$cflags "$here/consumer_pkgconfig/build.sh" "$pk" >"$pk.log" 2>&1 || {
    cat "$pk.log" >&2
    fail "building the pkg-config consumer"
}
expect_version "$pk/version_shared"
expect_version "$pk/version_static"
loads_installed_lib "$pk/version_shared"
case $(ldd "$pk/version_static") in
*libclrattach*) fail "$pk/version_static loads libclrattach.so" ;;
esac
"$pk/dlcheck" "$pk/libtiny_profiler.so" || fail "the pkg-config profiler"
echo "install test passed"
