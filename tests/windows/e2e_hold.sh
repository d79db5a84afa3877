#!/usr/bin/env bash
# End-to-end tests of `clrattach attach --hold` on Windows, under wine: the hello profiler DLL
# attached to the self-contained win-x64 sample app stays among the app's modules (as the app
# itself lists them) while clrattach.exe holds the SDK's control pipe, and leaves them when the
# command ends: by Ctrl-C (SIGINT to its wine process, which wine delivers as CTRL_C_EVENT), or
# killed outright (taskkill /F of its Windows pid, which is TerminateProcess: the system closes
# its handles, the held pipe among them).
#   e2e_hold.sh BUILD_DIR SOURCE_DIR DOTNET CASE
# Under the e2e lock like every e2e test:
#   flock /tmp/clrattach-e2e.lock ctest --test-dir build-win -L win-e2e
set -u
. "${2:?source dir}/tests/windows/lib.sh"
win_e2e_args hold "$@"
holder=""
cleanup() {
    [ -n "$holder" ] && kill -KILL "$holder" 2>/dev/null # our own clrattach.exe's wine process
    holder=""
    stop_app
    rm -rf "$work"
}
say() { cat "$work/out" "$work/err" "$work/app.out" 2>/dev/null; }

publish_app
HELLO_WIN=$(winpath "$B/profilers/libhello_profiler.dll")

# How many of the app's modules are the hello DLL, by the app's own module list: a fresh
# answer each time (earlier answers stay in app.out).
hello_loaded() {
    local before
    before=$(grep -c '^modules ' "$work/app.out")
    echo "modules libhello_profiler" >&3
    for _ in $(seq 100); do
        [ "$(grep -c '^modules ' "$work/app.out")" -gt "$before" ] && break
        sleep 0.1
    done
    grep '^modules ' "$work/app.out" | tail -1 | tr -d '\r' | sed 's/^modules //'
}

# Polls until the DLL has left the app's modules, up to 10 s; fails if it stays.
wait_unloaded() {
    for _ in $(seq 20); do
        [ "$(hello_loaded)" = 0 ] && return 0
        sleep 0.5
    done
    fail "the hello DLL is still among the app's modules after $1: $(say)"
}

# Starts the app and clrattach.exe attach --hold (ARGS before the pid) in the background, and
# waits until it holds; checks the DLL is loaded.
start_hold() {
    start_app
    [ "$(hello_loaded)" = 0 ] || fail "the hello DLL is loaded before the attach: $(say)"
    "$RUN" "$EXE" attach --hold "$@" "$winpid" "$HELLO_WIN" </dev/null >"$work/out" \
        2>"$work/err" &
    holder=$! # wine itself: wine-run.sh execs it
    for _ in $(seq 300); do
        grep -qs '^holding:' "$work/out" && break
        kill -0 "$holder" 2>/dev/null || break
        sleep 0.1
    done
    grep -qs '^holding:' "$work/out" || fail "attach --hold never held: $(say)"
    [ "$(hello_loaded)" = 1 ] || fail "the hello DLL is not among the app's modules while held: $(say)"
}

# The profiler's own log says why it detached: the holder's pipe closed.
expect_hangup_detach() {
    grep -q "detach requested (the trigger holding the control endpoint went away)" \
        "$work/app.out" || fail "the profiler did not detach on the holder's hang-up: $(say)"
    grep -q "ProfilerDetachSucceeded" "$work/app.out" || fail "no ProfilerDetachSucceeded: $(say)"
    echo ping >&3
    for _ in $(seq 50); do grep -q '^pong' "$work/app.out" && return 0; sleep 0.1; done
    fail "the app did not answer after the detach: $(say)"
}

case "$CASE" in
interrupt)
    # hold_timeout_ms=1000: a profiler that did not know it is held would detach by itself
    # after 1 s (detach_on_disconnect, which --hold adds); 2 s later it is still loaded.
    start_hold --data hold_timeout_ms=1000
    sleep 2
    [ "$(hello_loaded)" = 1 ] || fail "the held DLL left the app's modules while held: $(say)"
    t0=$(date +%s.%N)
    kill -INT "$holder"
    wait "$holder"
    rc=$?
    holder=""
    secs=$(echo "$(date +%s.%N) - $t0" | bc)
    [ "$rc" = 0 ] || fail "attach --hold exited $rc after Ctrl-C, not 0: $(say)"
    grep -q "^detached: the profiler was released and the runtime unloaded it" "$work/out" ||
        fail "no 'detached' line: $(say)"
    [ "$(hello_loaded)" = 0 ] || fail "the DLL is still among the app's modules: $(say)"
    expect_hangup_detach
    echo "released by Ctrl-C and unloaded in ${secs}s"
    ;;
kill)
    # Killed outright, the command cannot close anything itself: the system does. Its Windows
    # pid from wmic's process list (UTF-16): the one clrattach.exe of this prefix is ours.
    start_hold
    "$RUN" wmic process get Name,ProcessId </dev/null 2>/dev/null | iconv -f UTF-16LE -t UTF-8 |
        tr -d '\r' | awk '$1 == "clrattach.exe" { print $2 }' >"$work/holder.pid"
    [ "$(wc -l <"$work/holder.pid")" = 1 ] ||
        fail "not one clrattach.exe in wmic's list: $(cat "$work/holder.pid")"
    t0=$(date +%s.%N)
    "$RUN" taskkill /F /PID "$(cat "$work/holder.pid")" </dev/null >"$work/kill.out" 2>&1 ||
        fail "taskkill /F failed: $(cat "$work/kill.out")"
    wait "$holder"
    rc=$?
    holder=""
    # Wine's taskkill /F ends it with exit code 0, so only its silence shows it was killed: a
    # holder that ended by itself would have said "detached".
    grep -q '^detached' "$work/out" && fail "the killed holder said 'detached' itself: $(say)"
    wait_unloaded "TerminateProcess of the holder"
    secs=$(echo "$(date +%s.%N) - $t0" | bc)
    expect_hangup_detach
    echo "TerminateProcess of process $(cat "$work/holder.pid") (exit $rc); unloaded ${secs}s later"
    ;;
*) fail "unknown case" ;;
esac
echo "PASS $CASE (windows pid $winpid)"
cleanup
