#!/usr/bin/env bash
# End-to-end tests of the Windows build under wine, against a real Windows .NET 10: the sample
# app (tests/apps/sample) published self-contained for win-x64 (tests/windows/sample-win.csproj)
# into the build tree, reused while its sources do not change.
#   e2e.sh BUILD_DIR SOURCE_DIR DOTNET CASE
# One CASE per run, each with its own app process. Run under the e2e lock like every e2e test:
#   flock /tmp/clrattach-e2e.lock ctest --test-dir build-win -L win-e2e
set -u
. "${2:?source dir}/tests/windows/lib.sh"
win_e2e_args e2e "$@"
APP_MARK=CLRA_WIN_MARK=marked-for-env # the env case reads it back
HELLO_WIN=$(winpath "$B/profilers/libhello_profiler.dll")
cleanup() {
    stop_app
    rm -rf "$work"
}

publish_app
if [ "$CASE" = resume ]; then
    # Paused at startup on its default pipe: ps finds it (ProcessInfo answers while paused),
    # resume lets it run, and only then does it print "ready".
    export DOTNET_DefaultDiagnosticPortSuspend=1
    launch_app "$APP_MARK"
    for _ in $(seq 100); do
        clra ps --json
        winpid=$(grep -o '"pid":[0-9]*,[^}]*winapp' "$work/out" | head -1 | sed 's/"pid":\([0-9]*\).*/\1/')
        [ -n "$winpid" ] && break
        sleep 0.2
    done
    [ -n "$winpid" ] || fail "ps never listed the paused app: $(cat "$work/out" "$work/err")"
    sleep 1
    grep -q '^ready' "$work/app.out" && fail "the app ran before it was resumed"
    clra resume "$winpid"
    [ "$(rc)" = 0 ] || fail "resume exited $(rc): $(cat "$work/err")"
    wait_ready
    echo "PASS $CASE (windows pid $winpid)"
    cleanup
    exit 0
fi
start_app "$APP_MARK"
case "$CASE" in
info)
    clra info "$winpid"
    [ "$(rc)" = 0 ] || fail "info exited $(rc): $(cat "$work/err")"
    expect_out "process $winpid"
    expect_out "os / arch       Windows / x64"
    expect_out "runtime         10."
    expect_out "rid             win-x64"
    expect_out "endpoint        \\\\.\\pipe\\dotnet-diagnostic-$winpid"
    ;;
attach)
    # Byte-exact client data: NUL, 0xFF, a UTF-8 check mark and a newline survive the trip.
    hex=00ff10414243e29c930a
    clra attach --data-hex "$hex" "$winpid" "$HELLO_WIN"
    [ "$(rc)" = 0 ] || fail "attach exited $(rc): $(cat "$work/err")"
    ask ping pong
    grep -qE "client_data bytes=10 hex=$hex([^0-9a-f]|$)" "$work/app.out" ||
        fail "the profiler did not get the bytes $hex: $(cat "$work/app.out")"
    grep -q "ProfilerAttachComplete" "$work/app.out" || fail "no ProfilerAttachComplete"
    # A second attach: the runtime's own refusal, named.
    clra attach "$winpid" "$HELLO_WIN"
    [ "$(rc)" = 10 ] || fail "second attach exited $(rc), not 10"
    expect_out "CORPROF_E_PROFILER_ALREADY_ACTIVE (0x8013136A)"
    ;;
missing)
    clra attach "$winpid" 'Z:\no\such\profiler.dll'
    [ "$(rc)" = 10 ] || fail "attach of a missing library exited $(rc), not 10"
    expect_out "ERROR_MOD_NOT_FOUND (0x8007007E)"
    expect_out "LoadLibrary" # the Windows sentence, not the dlopen one
    ask ping pong # the process lives on
    ;;
env)
    clra env "$winpid"
    [ "$(rc)" = 0 ] || fail "env exited $(rc): $(cat "$work/err")"
    expect_out "CLRA_WIN_MARK=marked-for-env"
    clra setenv "$winpid" CLRA_WIN_SET "set by clrattach.exe"
    [ "$(rc)" = 0 ] || fail "setenv exited $(rc): $(cat "$work/err")"
    ask "env CLRA_WIN_SET" "env CLRA_WIN_SET=set by clrattach.exe"
    ;;
ps)
    # Found through EnumProcesses and its modules (listing \\.\pipe\ fails under wine).
    clra ps --json
    [ "$(rc)" = 0 ] || fail "ps exited $(rc): $(cat "$work/err")"
    grep -qE "\"pid\":$winpid,[^}]*\"status\":\"ok\"[^}]*\"rid\":\"win-x64\"" "$work/out" ||
        fail "ps does not list $winpid as reachable: $(cat "$work/out")"
    ;;
detach)
    # Through the SDK's control pipe; the command waits until the DLL's base address is gone
    # from the process's modules. A re-attach then succeeds (no ALREADY_ACTIVE): unloaded.
    clra attach "$winpid" "$HELLO_WIN"
    [ "$(rc)" = 0 ] || fail "attach exited $(rc): $(cat "$work/err")"
    clra detach "$winpid"
    [ "$(rc)" = 0 ] || fail "detach exited $(rc): $(cat "$work/out" "$work/err")"
    expect_out "detached hello {5e3e0c65-3e00-442d-b0ad-7f2d7f8946df} from process $winpid: unloaded"
    ask ping pong
    grep -q "ProfilerDetachSucceeded" "$work/app.out" || fail "no ProfilerDetachSucceeded"
    clra detach "$winpid"
    [ "$(rc)" = 5 ] || fail "a second detach exited $(rc), not 5 (no profiler)"
    clra attach --data again "$winpid" "$HELLO_WIN"
    [ "$(rc)" = 0 ] || fail "re-attach after detach exited $(rc): $(cat "$work/err")"
    ;;
profile_args)
    clra profile
    [ "$(rc)" = 2 ] || fail "profile without a PID exited $(rc), not the usage error 2"
    expect_out "expected one PID"
    clra profile --method signals "$winpid"
    [ "$(rc)" = 2 ] || fail "profile --method signals exited $(rc), not the usage error 2"
    expect_out "--method is suspend or walk"
    clra profile --duration 1 2147483600
    [ "$(rc)" = 3 ] || fail "profile of no process exited $(rc), not 3"
    clra info 2147483600
    [ "$(rc)" = 3 ] || fail "info of no process exited $(rc), not 3"
    ;;
*) fail "unknown case" ;;
esac
echo "PASS $CASE (windows pid $winpid)"
cleanup
