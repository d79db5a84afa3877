# lib.sh - what the win-e2e scripts share (e2e.sh, e2e_trace.sh, e2e_launch.sh, e2e_hold.sh,
# e2e_profile.sh), sourced first: their arguments, the sample app published for win-x64 once,
# the test hook built once, the app started under wine with stdin on a fifo, asked questions and
# stopped, and clrattach.exe run with its output kept. Each script defines cleanup.

# The arguments every script takes, BUILD_DIR SOURCE_DIR DOTNET CASE, into B, S, DOTNET and
# CASE; RUN and EXE in the build dir, a fresh work directory named for the script
# (clra-win-NAME.*), and no app started yet.
win_e2e_args() { # NAME BUILD_DIR SOURCE_DIR DOTNET CASE
    local name=$1
    B=${2:?build dir}
    S=${3:?source dir}
    DOTNET=${4:?dotnet}
    CASE=${5:?case}
    RUN="$B/wine-run.sh"
    EXE="$B/clrattach.exe"
    work=$(mktemp -d "${TMPDIR:-/tmp}/clra-win-$name.XXXXXX")
    app_pid=""
}

# Fails the case: says why, cleans up (the script's cleanup) and exits 1.
fail() { echo "FAIL $CASE: $*" >&2; cleanup; exit 1; }

# The Windows name of a Linux path, as wine maps / to drive Z:.
winpath() { echo "Z:$(echo "$1" | tr / '\\')"; }

# Publishes the sample app once (any of its inputs newer than the output makes it publish
# again). Every .cs file of tests/apps/sample goes in: the app is more than Program.cs.
publish_app() {
    local src="$B/winapp-src" out="$B/winapp" f fresh=1
    for f in "$S"/tests/apps/sample/*.cs "$S/tests/windows/sample-win.csproj"; do
        [ -x "$out/sample.exe" ] && [ "$out/sample.exe" -nt "$f" ] || fresh=0
    done
    [ "$fresh" = 1 ] && return 0
    rm -rf "$src"
    mkdir -p "$src"
    cp "$S/tests/windows/sample-win.csproj" "$S"/tests/apps/sample/*.cs "$src/"
    "$DOTNET" publish "$src/sample-win.csproj" -c Release -o "$out" --nologo -v q \
        >"$work/publish.log" 2>&1 || { cat "$work/publish.log" >&2; fail "dotnet publish -r win-x64 failed"; }
    touch "$out/sample.exe"
}

# Builds a .NET project (the hook assembly: IL only, so the same DLL serves Linux and Windows)
# once; it is rebuilt when its sources are newer.
dotnet_build() { # verb project output-dir marker-file sources...
    local verb=$1 proj=$2 out=$3 marker=$4 src=$5 fresh=1
    shift 5
    for f in "$@"; do [ "$out/$marker" -nt "$f" ] || fresh=0; done
    [ "$fresh" = 1 ] && return 0
    mkdir -p "$src"
    cp "$@" "$src/" # the project is one of the sources
    "$DOTNET" "$verb" "$src/$(basename "$proj")" -c Release -o "$out" --nologo -v q \
        >"$work/build.log" 2>&1 || { cat "$work/build.log" >&2; fail "dotnet $verb $proj failed"; }
    touch "$out/$marker"
}

# The test hook (tests/apps/hook), built once into BUILD_DIR/winhook.
build_hook() {
    dotnet_build build "$S/tests/apps/hook/hook.csproj" "$B/winhook" clra_hook.dll \
        "$B/winhook-src" "$S/tests/apps/hook/StartupHook.cs" "$S/tests/apps/hook/hook.csproj"
}

# Starts the app under wine with stdin on a fifo (fd 3); NAME=VALUE arguments go into its
# environment. app_pid is wine's (Linux) pid.
launch_app() {
    mkfifo "$work/in"
    env "$@" "$RUN" "$B/winapp/sample.exe" <"$work/in" >"$work/app.out" 2>&1 &
    app_pid=$!
    exec 3>"$work/in"
}

# Waits for the app's "ready pid=N" line; winpid is its Windows pid.
wait_ready() {
    for _ in $(seq 300); do
        grep -q '^ready pid=' "$work/app.out" && break
        sleep 0.1
    done
    winpid=$(sed -n 's/^ready pid=\([0-9]*\).*/\1/p' "$work/app.out")
    [ -n "$winpid" ] || fail "the app did not start: $(cat "$work/app.out")"
}

start_app() {
    launch_app "$@"
    wait_ready
}

# Sends a command and waits (up to 10 s) for a line of the app's output starting with want.
ask() {
    echo "$1" >&3
    for _ in $(seq 100); do
        grep -q "^$2" "$work/app.out" && return 0
        sleep 0.1
    done
    fail "the app did not answer '$1' with '$2': $(cat "$work/app.out")"
}

# Tells the app to exit, and kills it if it has not within 5 s.
stop_app() {
    [ -n "${app_pid:-}" ] || return 0
    echo "exit 0" >&3 2>/dev/null
    exec 3>&-
    for _ in $(seq 50); do kill -0 "$app_pid" 2>/dev/null || break; sleep 0.1; done
    kill "$app_pid" 2>/dev/null
    app_pid=""
}

# Runs clrattach.exe; its output in $work/out and $work/err, its exit code from rc.
clra() { "$RUN" "$EXE" "$@" >"$work/out" 2>"$work/err"; echo $? >"$work/rc"; }
rc() { cat "$work/rc"; }
expect_out() { grep -qF -- "$1" "$work/out" "$work/err" || fail "no '$1' in: $(cat "$work/out" "$work/err")"; }
