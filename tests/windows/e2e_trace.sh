#!/usr/bin/env bash
# End-to-end tests under wine of the verbs that came to Windows with issue 12 (trace, convert,
# startup-hook, dump, counters), against the self-contained win-x64 .NET 10 sample app
# that tests/windows/e2e.sh publishes into the build tree (published here too when missing).
#   e2e_trace.sh BUILD_DIR SOURCE_DIR DOTNET CASE
# One CASE per run, each with its own app process; under the e2e lock like every e2e test.
set -u
. "${2:?source dir}/tests/windows/lib.sh"
win_e2e_args trace "$@"
APP_DLLS=""

publish_app

# The app with the hook's output file, and DLL overrides when a case sets APP_DLLS.
start_trace_app() {
    start_app CLRA_HOOK_OUT="$(winpath "$work/hook.out")" ${APP_DLLS:+WINEDLLOVERRIDES="$APP_DLLS"}
}

cleanup() {
    stop_app
    rm -rf "$work"
}

case "$CASE" in
trace)
    # 25 events of the app's EventSource, written while the trace runs, must all be in the
    # file, in order, as our decoder reads them; the CPU samples make a speedscope file.
    start_trace_app
    "$RUN" "$EXE" trace --providers ClrAttach-Sample,Microsoft-DotNETCore-SampleProfiler \
        --format speedscope --duration 8 --json --output "$(winpath "$work/t.nettrace")" "$winpid" \
        >"$work/trace.out" 2>"$work/trace.err" &
    trace_pid=$!
    # The runtime writes the stream's header as soon as the session starts.
    for _ in $(seq 150); do
        [ -s "$work/t.nettrace" ] && break
        sleep 0.1
    done
    [ -s "$work/t.nettrace" ] || fail "the trace did not start: $(cat "$work/trace.err")"
    ask "events 25" "events-done 25"
    ask "spin 300" "spun"
    wait "$trace_pid"
    trc=$?
    [ "$trc" = 0 ] || fail "trace exited $trc: $(cat "$work/trace.out" "$work/trace.err")"
    for want in '"stopped_by":"duration"' '"valid":true'; do
        grep -qF "$want" "$work/trace.out" || fail "no $want in: $(cat "$work/trace.out")"
    done
    # Ctrl-C: wine turns SIGINT into the console's CTRL_C_EVENT, and the handler stops the
    # session cleanly (StopTracing, rundown, a valid file).
    "$RUN" "$EXE" trace --providers ClrAttach-Sample --json --output "$(winpath "$work/c.nettrace")" \
        "$winpid" >"$work/c.out" 2>"$work/c.err" &
    ctrl_pid=$!
    for _ in $(seq 150); do
        [ -s "$work/c.nettrace" ] && break
        sleep 0.1
    done
    kill -INT "$ctrl_pid"
    wait "$ctrl_pid"
    crc=$?
    [ "$crc" = 0 ] || fail "trace stopped by SIGINT exited $crc: $(cat "$work/c.out" "$work/c.err")"
    for want in '"stopped_by":"signal"' '"valid":true'; do
        grep -qF "$want" "$work/c.out" || fail "no $want after SIGINT in: $(cat "$work/c.out")"
    done
    [ -s "$work/t.speedscope.json" ] || fail "no speedscope file: $(cat "$work/trace.out")"
    grep -q '"shared"' "$work/t.speedscope.json" || fail "the speedscope file has no frames"
    clra convert --format json "$(winpath "$work/t.nettrace")"
    [ "$(rc)" = 0 ] || fail "convert exited $(rc): $(cat "$work/err")"
    tr -d '\r' <"$work/out" | grep '"provider":"ClrAttach-Sample"' | grep '"name":"Tick"' \
        >"$work/ticks"
    [ "$(wc -l <"$work/ticks")" = 25 ] ||
        fail "$(wc -l <"$work/ticks") Tick events decoded, not 25: $(head -c 600 "$work/out")"
    for i in 0 12 24; do
        grep -q "\"Sequence\":$i,\"Text\":\"tick $i\"" "$work/ticks" ||
            fail "no Tick with Sequence $i: $(head -3 "$work/ticks")"
    done
    ;;
counters)
    # counters over the pipe: the Meter histogram of 1..1000 ms the app records while the
    # session runs gives its 95th percentile (CSV, as dotnet-counters names the row), and
    # System.Runtime's cpu-usage is read beside it.
    start_trace_app
    "$RUN" "$EXE" counters --format csv --duration 6 \
        --counters 'ClrAttach.Sample[sample.latency],System.Runtime[cpu-usage]' "$winpid" \
        >"$work/cnt.csv" 2>"$work/cnt.err" &
    cnt_pid=$!
    sleep 2.5
    ask "record 1000" "recorded 1000"
    wait "$cnt_pid"
    crc=$?
    [ "$crc" = 0 ] || fail "counters exited $crc: $(cat "$work/cnt.csv" "$work/cnt.err")"
    p95=$(tr -d '\r' <"$work/cnt.csv" |
          sed -n 's/.*,ClrAttach\.Sample,sample\.latency (ms)\[Percentile=95\],Metric,\(.*\)$/\1/p' |
          tail -1)
    [ -n "$p95" ] || fail "no p95 row: $(cat "$work/cnt.csv" "$work/cnt.err")"
    awk -v v="$p95" 'BEGIN { exit !(v >= 950 * 0.99 && v <= 950 * 1.01) }' ||
        fail "p95 is $p95, recorded 1..1000 ms (want 950 within 1%)"
    grep -q ',System.Runtime,CPU Usage (%),Metric,' "$work/cnt.csv" ||
        fail "no cpu-usage row: $(head -5 "$work/cnt.csv")"
    ;;
hook)
    # The hook (tests/apps/hook) runs inside the app: it writes its pid to CLRA_HOOK_OUT and
    # sets CLRA_HOOK_RAN, which the app reads back. A missing file is refused before sending
    # (the runtime would end the process on a hook it cannot load).
    build_hook
    start_trace_app
    clra startup-hook "$winpid" 'Z:\no\such\hook.dll'
    [ "$(rc)" = 2 ] || fail "a missing hook exited $(rc), not 2: $(cat "$work/err")"
    expect_out "was not contacted"
    clra startup-hook "$winpid" "$(winpath "$B/winhook/clra_hook.dll")"
    [ "$(rc)" = 0 ] || fail "startup-hook exited $(rc): $(cat "$work/out" "$work/err")"
    expect_out "applied startup hook"
    tr -d '\r' <"$work/hook.out" | grep -qx "end pid=$winpid call=1" ||
        fail "the hook did not run in $winpid: $(cat "$work/hook.out" 2>&1)"
    ask "env CLRA_HOOK_RAN" "env CLRA_HOOK_RAN=$winpid:1"
    ;;
dump)
    # The runtime starts createdump.exe, which writes the dump with dbghelp. Under wine 8.0
    # wine's dbghelp writes the file and then crashes in SymCleanup, so the runtime answers
    # E_FAIL: then the refusal must be named and the file left behind reported, never a
    # success. A runtime that answers OK must have written a minidump ("MDMP"). winedbg is off
    # for the app and its children: its crash report costs about 10 s and says nothing to us.
    # The path has a space: the runtime pastes it unquoted into createdump's command line, so
    # clrattach quotes it (unquoted, createdump took "with" for a pid and wrote nothing).
    APP_DLLS="winedbg.exe=d"
    start_trace_app
    mkdir "$work/dir with space"
    dmp="$work/dir with space/d.dmp"
    clra dump --type mini --output "$(winpath "$dmp")" "$winpid"
    [ "$(head -c 4 "$dmp" 2>/dev/null)" = MDMP ] ||
        fail "no minidump at d.dmp (exit $(rc)): $(cat "$work/out" "$work/err")"
    if [ "$(rc)" = 0 ]; then
        expect_out "wrote"
    else
        [ "$(rc)" = 10 ] || fail "dump exited $(rc), neither 0 nor 10: $(cat "$work/err")"
        expect_out "could not write the dump"
        expect_out "E_FAIL (0x80004005)"
        expect_out "GenerateCoreDump3 failed without a message"
        expect_out "was written ($(stat -c %s "$dmp") bytes) and left there"
        expect_out "createdump.exe"
    fi
    ask ping pong # the process lives on
    ;;
*) fail "unknown case" ;;
esac
echo "PASS $CASE (windows pid $winpid)"
cleanup
