#!/usr/bin/env bash
# The main job on a built-in example: build clrattach, start a sample .NET app, attach the hello
# profiler with some client data, make the app do things while it is attached, detach it with
# `clrattach detach` (which waits until the runtime has unloaded it), and print what it saw.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh demo # only what the demo builds with; scripts/test.sh installs the rest

echo "== building"
cmake -S . -B build -DCLRA_WERROR=ON >/dev/null
cmake --build build -j"$(nproc)" --target clrattach_cli hello_profiler sample_app >/dev/null

work=$(mktemp -d /tmp/clrattach-demo-XXXXXX)
app_pid=
cleanup() {
    [ -n "$app_pid" ] && kill "$app_pid" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

echo "== starting the sample .NET app"
mkfifo "$work/in"
dotnet build/apps/sample/sample.dll --seconds 120 <"$work/in" >"$work/out" 2>&1 &
app_pid=$!
exec 3>"$work/in" # keep the app's stdin open so we can send it commands
for _ in $(seq 100); do grep -q ready "$work/out" && break; sleep 0.1; done
echo "   $(head -1 "$work/out")"

record="$work/hello.log"
profiler="$PWD/build/profilers/libhello_profiler.so"
echo "== attaching: clrattach attach --data 'log=...;greeting=hi' $app_pid $profiler"
build/clrattach attach --data "log=$record;greeting=hi" "$app_pid" "$profiler"

echo "== while attached, the app loads an assembly, throws 5 exceptions and starts 3 threads"
printf 'load\nthrow 5\nthreads 3\n' >&3
for _ in $(seq 100); do [ "$(grep -c '^threads-done\|^thrown' "$work/out")" -ge 2 ] && break; sleep 0.1; done

echo "== detaching: clrattach detach $app_pid"
build/clrattach detach "$app_pid"
echo "== what the profiler recorded inside process $app_pid"
sed -e 's/^/   /' "$record"

echo "== is the profiler still mapped in the process?"
if grep -q libhello_profiler.so "/proc/$app_pid/maps"; then
    echo "   yes (unexpected: it should have been unloaded after detaching)"
    exit 1
fi
echo "   no: the runtime unloaded it after ProfilerDetachSucceeded"
echo "== the app is still alive: $(printf 'ping\n' >&3; sleep 0.3; tail -1 "$work/out")"
