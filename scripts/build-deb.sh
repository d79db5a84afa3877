#!/usr/bin/env bash
# Builds the Debian packages (clrattach, libclrattach0.3, libclrattach-dev) with
# dpkg-buildpackage from a copy of the source tree (tracked and new files, not build output)
# and leaves the .deb files in build-deb/, then runs lintian on them (its tags are printed;
# debian/source/lintian-overrides and docs/packaging.md explain the ones kept).
set -euo pipefail
cd "$(dirname "$0")/.."
out=build-deb
rm -rf "$out"
mkdir -p "$out/src"
git ls-files -co --exclude-standard -z | xargs -0 tar -c --no-recursion | tar -x -C "$out/src"
CLRA_GIT_REVISION=$(git describe --always --dirty 2>/dev/null || echo unknown)
export CLRA_GIT_REVISION
(cd "$out/src" && dpkg-buildpackage -us -uc -b -j"$(nproc)") >"$out/build.log" 2>&1 ||
    { tail -40 "$out/build.log"; echo "build-deb: dpkg-buildpackage failed ($out/build.log)" >&2; exit 1; }
ls -l "$out"/*.deb
if command -v lintian >/dev/null; then
    lintian --allow-root --info --display-info --pedantic "$out"/*.changes | tee "$out/lintian.log" || true
    echo "build-deb: lintian: $(grep -c '^[EWI]:' "$out/lintian.log" || true) tags (E/W/I)"
fi
