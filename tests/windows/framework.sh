#!/usr/bin/env bash
# The .NET Framework attach of clrattach.exe (ICLRProfiling through mscoree.dll) under wine,
# against fakes built with the Windows tree (tests/windows/fx): fx/fake_target.exe loads the
# do-nothing fx/clr.dll and waits, and CLRA_MSCOREE_PATH points clrattach at fx/shim/mscoree.dll,
# whose AttachProfiler writes what it received to CLRA_FAKE_RECORD and answers
# CLRA_FAKE_HRESULT. No real .NET Framework is involved anywhere.
#   framework.sh BUILD_DIR CASE
# Expected values here are written out by hand (the GUID's memory layout, UTF-16LE by iconv,
# the names and meanings from the ICLRProfiling::AttachProfiler documentation).
set -u
B=${1:?build dir}
CASE=${2:?case}
RUN="$B/wine-run.sh"
EXE="$B/clrattach.exe"
work=$(mktemp -d "${TMPDIR:-/tmp}/clra-win-fx.XXXXXX")
target_pid=""
winpath() { printf 'Z:%s' "$(printf '%s' "$1" | tr / '\\')"; }
export CLRA_MSCOREE_PATH
CLRA_MSCOREE_PATH=$(winpath "$B/fx/shim/mscoree.dll")
export CLRA_FAKE_RECORD
CLRA_FAKE_RECORD=$(winpath "$work/record.txt")
unset CLRA_FAKE_HRESULT CLRA_FAKE_RUNTIMES

cleanup() {
    if [ -n "$target_pid" ]; then
        exec 3>&-
        for _ in $(seq 50); do kill -0 "$target_pid" 2>/dev/null || break; sleep 0.1; done
        kill "$target_pid" 2>/dev/null
        target_pid=""
    fi
    rm -rf "$work"
}
fail() { echo "FAIL fx_$CASE: $*" >&2; cleanup; exit 1; }

# Starts DIR/fake_target.exe loading DLL ("-" for none), stdin on a fifo that cleanup closes;
# the Windows pid into winpid. Returns 1 when it never says ready (within WAIT tenths).
start_target() {
    mkfifo "$work/in"
    "$RUN" "$1/fake_target.exe" "$2" <"$work/in" >"$work/target.out" 2>&1 &
    target_pid=$!
    exec 3>"$work/in"
    for _ in $(seq "${WAIT:-300}"); do
        grep -q '^ready pid=' "$work/target.out" && break
        kill -0 "$target_pid" 2>/dev/null || break
        sleep 0.1
    done
    winpid=$(sed -n 's/^ready pid=\([0-9]*\).*/\1/p' "$work/target.out")
    [ -n "$winpid" ]
}

clra() { "$RUN" "$EXE" "$@" >"$work/out" 2>"$work/err"; echo $? >"$work/rc"; rm -f "$work/record.seen"; }
rc() { cat "$work/rc"; }
said() { cat "$work/out" "$work/err"; }
expect_rc() { [ "$(rc)" = "$1" ] || fail "exit $(rc), not $1: $(said)"; }
expect_said() { grep -qF -- "$1" "$work/out" "$work/err" || fail "no '$1' in: $(said)"; }
# The record's line starting with KEY= (or KEY), from the last attach.
rec() { tr -d '\r' <"$work/record.txt" 2>/dev/null | grep -- "$1" | tail -1; }
expect_rec() { rec "$1" | grep -qF -- "$2" || fail "record: no '$2' in '$(rec "$1")' (all: $(cat "$work/record.txt" 2>/dev/null))"; }
no_record() { [ ! -s "$work/record.txt" ] || fail "mscoree was called: $(cat "$work/record.txt")"; }
utf16_hex() { printf '%s' "$1" | iconv -f UTF-8 -t UTF-16LE | od -An -v -tx1 | tr -d ' \n'; }

FX="$B/fx"
case "$CASE" in
args)
    # Every argument byte-exact: pid, timeout, the CLSID in its memory layout (Data1-3 little
    # endian, Data4 as written), the path in UTF-16LE without its NUL, the client data.
    start_target "$FX" clr.dll || fail "fake target did not start: $(cat "$work/target.out")"
    path='C:\profilers\fx test\prof.dll'
    clra attach --clsid 0a1b2c3d-4e5f-6789-abcd-ef0123456789 --attach-timeout 4321 \
        --data-hex 00ff10414243e29c930a "$winpid" "$path"
    expect_rc 0
    expect_said "attached $path to process $winpid"
    expect_rec enumerate "enumerate pid=$winpid"
    expect_rec "^attach" "attach pid=$winpid timeout=4321"
    expect_rec clsid= "clsid=3d2c1b0a5f4e8967abcdef0123456789"
    expect_rec path_units "path_units=${#path} path=$(utf16_hex "$path")"
    expect_rec size= "size=10 data_null=0 data=00ff10414243e29c930a"
    expect_rec unload "unload outstanding=0"
    # No client data: a NULL pointer and size 0; the default attach timeout (10 s).
    rm -f "$work/record.txt"
    clra attach "$winpid" "$path"
    expect_rc 0
    expect_rec "^attach" "attach pid=$winpid timeout=10000"
    expect_rec clsid= "clsid=650c3e5e003e2d44b0ad7f2d7f8946df" # the hello profiler's default
    expect_rec size= "size=0 data_null=1 data="
    # A path outside the ANSI code page (the command line is read as UTF-16) arrives as the
    # same UTF-16: é is one unit, ✓ one, 𝄞 (outside the BMP) a surrogate pair.
    rm -f "$work/record.txt"
    path='C:\profilers\é✓𝄞\prof.dll'
    LC_ALL=C.UTF-8 clra attach "$winpid" "$path"
    expect_rc 0
    expect_rec path_units "path_units=26 path=$(utf16_hex "$path")"
    ;;
hresults)
    # Each documented HRESULT of AttachProfiler: its name and value, a meaning that says what
    # the documentation says, exit 10; S_OK and S_FALSE are successes. Other codes (the
    # profiler's own) pass through by name, or as UNKNOWN_HRESULT.
    start_target "$FX" clr.dll || fail "fake target did not start: $(cat "$work/target.out")"
    while IFS='|' read -r hr name phrase; do
        CLRA_FAKE_HRESULT=$hr clra attach "$winpid" 'C:\p\prof.dll'
        expect_rc 10
        expect_said "clrattach: process $winpid refused the profiler: $name (0x$hr)"
        grep -F "  meaning: " "$work/err" | grep -qiF -- "$phrase" ||
            fail "$name: the meaning does not say '$phrase': $(said)"
        expect_said "  what to do: "
        expect_said "ICLRProfiling::AttachProfiler"
    done <<'EOF'
8013136A|CORPROF_E_PROFILER_ALREADY_ACTIVE|already
80131368|CORPROF_E_PROFILER_NOT_ATTACHABLE|cannot be attached
8013136B|CORPROF_E_PROFILEE_INCOMPATIBLE_WITH_TRIGGER|incompatible
80070005|E_ACCESSDENIED|access
80070522|ERROR_PRIVILEGE_NOT_HELD|privilege
8013136C|CORPROF_E_IPC_FAILED|shutting down
80070002|ERROR_FILE_NOT_FOUND|does not exist
800705B4|ERROR_TIMEOUT|before the profiler began to load
80070057|E_INVALIDARG|argument
80004005|E_FAIL|unspecified
80131375|CORPROF_E_PROFILER_CANCEL_ACTIVATION|declined
8BADF00D|UNKNOWN_HRESULT|initializeforattach
EOF
    for hr in 0 1; do
        CLRA_FAKE_HRESULT=$hr clra attach "$winpid" 'C:\p\prof.dll'
        expect_rc 0
    done
    CLRA_FAKE_HRESULT=8013136C clra attach --json "$winpid" 'C:\p\prof.dll'
    expect_rc 10
    for m in '"ok":false' '"error":"CLRA_ERUNTIME"' '"hresult":"0x8013136C"' \
        '"hresult_name":"CORPROF_E_IPC_FAILED"' '"exit_code":10'; do
        expect_said "$m"
    done
    ;;
notimpl)
    start_target "$FX" clr.dll || fail "fake target did not start: $(cat "$work/target.out")"
    CLRA_FAKE_HRESULT=80004001 clra attach "$winpid" 'C:\p\prof.dll'
    expect_rc 10
    expect_said "refused the profiler: CORPROF_E_PROFILER_NOT_ATTACHABLE (0x80131368)"
    expect_said "returned E_NOTIMPL (0x80004001)"
    expect_rec "^attach" "attach pid=$winpid"
    ;;
longpath)
    # At most 260 UTF-16 units with the NUL: 259 characters go through, 260 and 261 are
    # refused before mscoree is even loaded.
    start_target "$FX" clr.dll || fail "fake target did not start: $(cat "$work/target.out")"
    for n in 259 260 261; do
        rm -f "$work/record.txt"
        path="C:\\$(printf 'a%.0s' $(seq $((n - 7)))).dll"
        [ ${#path} = "$n" ] || fail "test bug: path of ${#path} characters, not $n"
        clra attach "$winpid" "$path"
        if [ "$n" = 259 ]; then
            expect_rc 0
            expect_rec path_units "path_units=259 path=$(utf16_hex "$path")"
        else
            expect_rc 2
            expect_said "the profiler path is $n characters long"
            expect_said "at most 260 with its terminating NUL"
            no_record
        fi
    done
    ;;
neither)
    start_target "$FX" - || fail "fake target did not start: $(cat "$work/target.out")"
    clra attach "$winpid" 'C:\p\prof.dll'
    expect_rc 4
    expect_said "neither coreclr.dll nor clr.dll"
    no_record
    ;;
bitness)
    [ -x "$B/fx32/fake_target.exe" ] || { echo "SKIP fx_bitness: no i686-w64-mingw32-gcc"; cleanup; exit 77; }
    if ! WAIT=100 start_target "$B/fx32" clr.dll; then
        echo "SKIP fx_bitness: a 32-bit program does not start under this wine (wine32 missing?): $(cat "$work/target.out")"
        cleanup
        exit 77
    fi
    clra attach "$winpid" 'C:\p\prof.dll'
    expect_rc 2
    expect_said "is a 32-bit process and this clrattach.exe is 64-bit"
    no_record
    ;;
noshim)
    start_target "$FX" clr.dll || fail "fake target did not start: $(cat "$work/target.out")"
    CLRA_MSCOREE_PATH='Z:\nonexistent\mscoree.dll' clra attach "$winpid" 'C:\p\prof.dll'
    expect_rc 5
    expect_said "cannot be loaded here"
    expect_said "install the .NET Framework 4"
    ;;
noprofiling)
    # Only a v2 runtime: none offers ICLRProfiling. A v2 before a v4: the v4 one is used.
    start_target "$FX" clr.dll || fail "fake target did not start: $(cat "$work/target.out")"
    CLRA_FAKE_RUNTIMES=v2.0.50727 clra attach "$winpid" 'C:\p\prof.dll'
    expect_rc 5
    expect_said "lists v2.0.50727 in process $winpid, but none offers ICLRProfiling"
    expect_rec unload "unload outstanding=0"
    rm -f "$work/record.txt"
    CLRA_FAKE_RUNTIMES=v2.0.50727,v4.0.30319 clra attach "$winpid" 'C:\p\prof.dll'
    expect_rc 0
    expect_rec "^attach" "attach pid=$winpid"
    expect_rec unload "unload outstanding=0"
    ;;
deadline)
    # dwMillisecondsMax never outlasts the command's own deadline (--timeout).
    start_target "$FX" clr.dll || fail "fake target did not start: $(cat "$work/target.out")"
    clra attach --attach-timeout 60000 --timeout 5000 "$winpid" 'C:\p\prof.dll'
    expect_rc 0
    ms=$(rec "^attach" | sed -n 's/.*timeout=\([0-9]*\).*/\1/p')
    [ -n "$ms" ] && [ "$ms" -le 5000 ] && [ "$ms" -ge 2000 ] ||
        fail "dwMillisecondsMax $ms is not within the 5000 ms left (all: $(cat "$work/record.txt"))"
    ;;
*)
    fail "unknown case"
    ;;
esac
echo "PASS fx_$CASE"
cleanup
exit 0
