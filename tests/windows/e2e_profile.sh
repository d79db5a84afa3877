#!/usr/bin/env bash
# win-e2e.profile_*: the sampler DLL under wine against tests/apps/hot published as a
# self-contained win-x64 .NET 10 app (tests/windows/hot-win.csproj, into BUILD/winhot once).
#   split   `profile` (method suspend) of hot --quarter: Shares.ThreeQuarters holds 75% of it
#           and OneQuarter within 5 points, the method that ran is named, the DLL gone after
#   walk    the same with --method walk (SuspendRuntime + DoStackSnapshot)
#   stack   `stack`, by suspend then by walk, shows the main thread asleep in Program.Main
#   launch  `launch --profile` of hot --quarter --seconds 2 (it exits by itself) writes a
#           folded profile holding Shares.ThreeQuarters, drained while it ran
# usage: e2e_profile.sh BUILD_DIR SOURCE_DIR DOTNET CASE
set -u
. "${2:?source dir}/tests/windows/lib.sh"
win_e2e_args prof "$@"
cleanup() {
    if [ -n "${app_pid:-}" ]; then exec 3>&- 2>/dev/null; kill "$app_pid" 2>/dev/null; fi
    rm -rf "$work"
}
SAMPLER_WIN=$(winpath "$B/profilers/libsampler_profiler.dll")

# Publishes hot for win-x64 once (again when its sources are newer).
publish_hot() {
    local src="$B/winhot-src" out="$B/winhot"
    if [ -x "$out/hot.exe" ] && [ -z "$(find "$S/tests/apps/hot" "$S/tests/windows/hot-win.csproj" -newer "$out/hot.exe" -name '*.cs*' 2>/dev/null)" ]; then
        return 0
    fi
    mkdir -p "$src"
    cp "$S/tests/windows/hot-win.csproj" "$S"/tests/apps/hot/*.cs "$src/"
    "$DOTNET" publish "$src/hot-win.csproj" -c Release -o "$out" --nologo -v q \
        >"$work/publish.log" 2>&1 || { cat "$work/publish.log" >&2; fail "dotnet publish of hot failed"; }
    touch "$out/hot.exe"
}

start_hot() {
    mkfifo "$work/in"
    "$RUN" "$B/winhot/hot.exe" "$@" <"$work/in" >"$work/app.out" 2>&1 &
    app_pid=$!
    exec 3>"$work/in"
    wait_ready
}

# "A B share": the samples whose stack holds method A, those holding B, and A's percentage of
# both, from a folded profile ("frame;frame;... count" lines).
share() {
    python3 - "$1" "$2" "$3" <<'PY'
import sys
a = b = 0
for line in open(sys.argv[1], encoding="utf-8"):
    stack, _, count = line.rstrip("\n").rpartition(" ")
    frames = stack.split(";")
    if sys.argv[2] in frames:
        a += int(count)
    elif sys.argv[3] in frames:
        b += int(count)
print("%d %d %.1f" % (a, b, 100.0 * a / (a + b) if a + b else -1))
PY
}

# Profiles for 4 s by the given method into a folded file; checks the split of two methods
# against want percent within 5 points, then that the DLL left: a stack taken next must load
# the sampler as the main profiler again (a sampler still loaded would hold the main slot).
profile_split() {
    local method=$1 a=$2 b=$3 want=$4
    clra profile --json --method "$method" --duration 4 --profiler "$SAMPLER_WIN" \
        --output "$(winpath "$work/p.folded")" "$winpid"
    [ "$(rc)" = 0 ] || fail "profile exited $(rc): $(cat "$work/out" "$work/err")"
    local ran=$([ "$method" = walk ] && echo walk || echo suspend)
    grep -q "\"method\":\"$ran\"" "$work/out" || fail "not sampled by $ran: $(cat "$work/out")"
    grep -q '"unload_ms":[0-9]' "$work/out" || fail "the sampler did not unload: $(cat "$work/out")"
    read -r na nb pct < <(share "$work/p.folded" "$a" "$b")
    echo "$method: $a $na, $b $nb: $pct% (want $want +- 5)"
    [ "$na" -ge 20 ] || fail "too few samples in $a ($na): $(head -c 3000 "$work/p.folded")"
    python3 -c "import sys; sys.exit(0 if abs($pct - $want) <= 5 else 1)" ||
        fail "$a's share $pct% is not $want within 5 points"
    clra stack --json --method "$method" "$winpid" # the sampler beside clrattach.exe's folder
    [ "$(rc)" = 0 ] || fail "stack after profile exited $(rc): $(cat "$work/out" "$work/err")"
    grep -q '"loaded_as":"main"' "$work/out" || fail "the first sampler was still loaded: $(cat "$work/out")"
}

# The main thread sleeps in Program.Main for the whole run: stack must show it there.
expect_sleeper() {
    grep -q '"frames":\[[^]]*"System.Threading.Thread.Sleep","ClrAttach.Hot.Program.Main"' "$work/out" ||
        fail "$1: no thread asleep in Program.Main: $(head -c 3000 "$work/out")"
    grep -q "\"method\":\"$1\"" "$work/out" || fail "not taken by $1: $(head -c 3000 "$work/out")"
}

publish_hot
case "$CASE" in
split)
    start_hot --quarter # Shares.ThreeQuarters burns 150 ms for OneQuarter's 50
    profile_split suspend ClrAttach.Hot.Shares.ThreeQuarters ClrAttach.Hot.Shares.OneQuarter 75
    ;;
walk)
    # not hot --modes: its call-free loops never reach a safe point under wine (docs/windows.md),
    # so SuspendRuntime (and any GC) would wait for them for ever
    start_hot --quarter
    profile_split walk ClrAttach.Hot.Shares.ThreeQuarters ClrAttach.Hot.Shares.OneQuarter 75
    ;;
stack)
    start_hot
    clra stack --json "$winpid"
    [ "$(rc)" = 0 ] || fail "stack exited $(rc): $(cat "$work/out" "$work/err")"
    expect_sleeper suspend
    clra stack --json --method walk "$winpid"
    [ "$(rc)" = 0 ] || fail "stack --method walk exited $(rc): $(cat "$work/out" "$work/err")"
    grep -q '"loaded_as":"main"' "$work/out" || fail "the first sampler was still loaded: $(cat "$work/out")"
    expect_sleeper walk
    ;;
launch)
    out="$work/startup.folded"
    # hot ends at EOF on stdin or after --seconds: here after 2 s, by itself
    sleep 6 | clra launch --profile "$(winpath "$out")" -- "$(winpath "$B/winhot/hot.exe")" --quarter --seconds 2
    [ "$(rc)" = 0 ] || fail "launch --profile exited $(rc): $(cat "$work/out" "$work/err")"
    ! grep -q 'cannot reach the sampler' "$work/err" || fail "launch did not drain: $(cat "$work/err")"
    grep -q 'written to' "$work/err" || fail "launch did not say where: $(cat "$work/err")"
    [ -s "$out" ] || fail "no profile written: $(cat "$work/err")"
    grep -q 'ClrAttach.Hot.Shares.ThreeQuarters' "$out" || fail "no Shares.ThreeQuarters in the profile: $(head -c 2000 "$out")"
    ;;
*) fail "unknown case" ;;
esac
echo "PASS $CASE (windows pid ${winpid:-launched})"
cleanup
