#!/usr/bin/env bash
# The CLI checks against one clrattach binary (the static musl one from scripts/build-static.sh,
# or any other) and the container case: the binary alone in an otherwise empty root (only /proc
# and /tmp mounted from the host, as a distroless debug container has them) lists and attaches
# to a .NET process outside it, and with --stage to one in its own PID and mount namespace.
# Needs root (chroot, namespaces). Usage: run.sh CLI DOTNET SAMPLE_DLL HELLO_PROFILER_SO
set -euo pipefail
cli=$(realpath "$1") dotnet=$2 sample=$(realpath "$3") hello=$(realpath "$4")
[ "$(id -u)" = 0 ] || { echo "static: needs root (chroot, unshare)" >&2; exit 1; }
work=$(mktemp -d /tmp/clra-static-XXXXXX)
chmod 755 "$work"
pids=()
cleanup() {
    for p in "${pids[@]}"; do { kill -9 "$p" && wait "$p"; } 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "static: FAIL: $*" >&2; exit 1; }
pass=0
ok() { pass=$((pass + 1)); echo "static: ok: $*"; }

# Waits for a whole "ready pid=N" line in the app's output file ($1), up to 30 s.
wait_ready() {
    for _ in $(seq 300); do grep -q '^ready pid=[0-9][0-9]*$' "$1" 2>/dev/null && return 0; sleep 0.1; done
    fail "the sample app did not print ready ($1): $(cat "$1")"
}

# The verbs from --help's list, each of whose --help must work.
check_help() {
    "$cli" --version | grep -q "^clrattach [0-9]" || fail "--version: $("$cli" --version)"
    "$cli" --version | grep -q "^git: ." || fail "--version has no git revision"
    "$cli" --help >"$work/help" || fail "--help exited $?"
    local verbs
    verbs=$(sed -n '/^verbs:/,/^$/p' "$work/help" | awk '/^  [a-z]/ {print $1}')
    # 16 verbs in a full build, 9 in the container set (no launch, trace, convert, counters,
    # profile, stack, dump).
    [ "$(echo "$verbs" | wc -l)" -ge 9 ] || fail "--help lists too few verbs: $verbs"
    # Into a file first: grep -q stops reading at the first line, and a help longer than musl's
    # 1 KB stdio buffer then dies of SIGPIPE on its next write, failing the pipe under pipefail.
    for v in $verbs; do
        "$cli" "$v" --help >"$work/verb-help" || fail "$v --help exited $?"
        grep -q "^usage: clrattach $v" "$work/verb-help" || fail "$v --help"
    done
    ok "--version, --help and --help of $(echo $verbs | wc -w) verbs"
    local rc=0
    "$cli" nosuchverb 2>/dev/null || rc=$?
    [ $rc = 2 ] || fail "an unknown verb exited $rc, not 2"
}

# attach, then detach: the hello profiler's log shows both. $1..: how to run the CLI.
attach_detach() {
    local pid=$1 lib=$2 log=$3 stage=$4
    shift 4
    rm -f "$log"
    "$@" attach $stage --timeout 10000 "$pid" "$lib" >"$work/attach.out" 2>&1 ||
        fail "attach $stage $pid $lib: $(cat "$work/attach.out")"
    grep -q "^attached " "$work/attach.out" || fail "attach said: $(cat "$work/attach.out")"
    "$@" detach --timeout 15000 "$pid" >"$work/detach.out" 2>&1 ||
        fail "detach $pid: $(cat "$work/detach.out")"
    grep -q "^detached hello" "$work/detach.out" || fail "detach said: $(cat "$work/detach.out")"
    grep -q "ProfilerDetachSucceeded" "$log" || fail "the profiler log lacks the detach: $(cat "$log")"
}

# A plain sample app on the host; its pid in $app.
start_host_app() {
    CLRPROF_HELLO_LOG=$work/host.log CLRPROF_LOG=$work/host.log DOTNET_CLI_TELEMETRY_OPTOUT=1 \
        "$dotnet" "$sample" --seconds 300 </dev/null >"$work/host.out" 2>&1 &
    app=$!
    pids+=("$app")
    wait_ready "$work/host.out"
}

# A private /tmp for the command after $0, keeping the directory below /tmp that holds $0 (the
# sample app, when the checkout itself lives under /tmp) reachable in the new mount namespace.
private_tmp='mount --rbind /tmp /mnt && mount -t tmpfs -o mode=1777 tmpfs /tmp &&
    case $0 in /tmp/*) r=${0#/tmp/}; r=${r%%/*}; mkdir -p "/tmp/$r" &&
        mount --rbind "/mnt/$r" "/tmp/$r" ;; esac && exec "$@"'

# A sample app in its own PID and mount namespace with a private /tmp, as uid $1 (0: root);
# host pid in $nsapp.
start_namespaced_app() {
    local drop=()
    [ "$1" = 0 ] || drop=(setpriv "--reuid=$1" "--regid=$1" --clear-groups)
    CLRPROF_HELLO_LOG=/tmp/ns.log CLRPROF_LOG=/tmp/ns.log DOTNET_CLI_TELEMETRY_OPTOUT=1 \
        HOME=/tmp unshare --pid --mount --fork --kill-child sh -c "$private_tmp" "$sample" \
        "${drop[@]}" "$dotnet" "$sample" --seconds 300 </dev/null >"$work/ns.out" 2>&1 &
    pids+=("$!")
    wait_ready "$work/ns.out"
    nsapp=$(cat "/proc/$!/task/$!/children" | awk '{print $1}')
    [ -n "$nsapp" ] || fail "no child of unshare $!"
    # Killed by pid too: setpriv's change of uid clears the parent-death signal --kill-child set.
    pids+=("$nsapp")
    grep -q '^ready pid=1$' "$work/ns.out" ||
        fail "the namespaced app is not pid 1 in its namespace: $(cat "$work/ns.out")"
}

# The empty root: the binary, the profiler (for --stage, which copies it from here), /proc, /tmp.
make_root() {
    root=$work/root
    mkdir -p "$root/proc" "$root/tmp" "$root/profilers"
    cp "$cli" "$root/clrattach"
    cp "$hello" "$root/profilers/"
    [ "$(find "$root" -type f | wc -l)" = 2 ] || fail "the root holds more than two files"
}

# Runs the binary inside the empty root, in a mount namespace of its own (the mounts die with
# it), as $as_user (uid:gid; root when empty).
as_user=
in_root() {
    unshare --mount sh -c 'u=$1 && shift && mount --rbind /proc "$0/proc" &&
        mount --rbind /tmp "$0/tmp" && exec chroot ${u:+--userspec=$u} "$0" /clrattach "$@"' \
        "$root" "$as_user" "$@"
}

check_help
start_host_app
# Each output into a file before grep -q reads it (see check_help: SIGPIPE under pipefail).
"$cli" ps >"$work/ps" || fail "ps exited $?"
grep -q "^ *$app " "$work/ps" || fail "ps does not list $app: $(cat "$work/ps")"
# The static command names users from /etc/passwd by hand (src/clrattach/target/user_name.h).
grep "^ *$app " "$work/ps" | grep -qw "$(id -un)" ||
    fail "ps does not name $app's user $(id -un): $(cat "$work/ps")"
"$cli" ps --json >"$work/ps.json" || fail "ps --json exited $?"
grep -q "\"pid\": *$app[,}]" "$work/ps.json" || fail "ps --json does not list $app"
"$cli" info "$app" >"$work/info" || fail "info $app exited $?"
grep -q "sample" "$work/info" || fail "info $app: $(cat "$work/info")"
ok "ps, ps --json and info see the host app $app"
cp "$hello" "$work/libhello_profiler.so"
attach_detach "$app" "$work/libhello_profiler.so" "$work/host.log" "" "$cli"
ok "attach and detach of the hello profiler in $app"
# Figures, not checks: peak RSS of ps and attach when bench/peak_rss is given ($CLRA_PEAK_RSS).
if [ -n "${CLRA_PEAK_RSS:-}" ]; then
    # peak_rss's last line is "KIB USER_MS SYS_MS".
    figures() { awk 'END { printf "%s KiB (user %s ms, sys %s ms)", $1, $2, $3 }'; }
    echo "static: peak RSS of ps: $("$CLRA_PEAK_RSS" "$cli" ps 2>/dev/null | figures)"
    rss=$("$CLRA_PEAK_RSS" "$cli" attach "$app" "$work/libhello_profiler.so" | figures)
    echo "static: peak RSS of attach: $rss"
    "$cli" detach "$app" >/dev/null
fi

make_root
in_root ps >"$work/root-ps.out" 2>&1 || fail "ps in the empty root: $(cat "$work/root-ps.out")"
grep -q "^ *$app " "$work/root-ps.out" || fail "ps in the empty root misses $app: $(cat "$work/root-ps.out")"
: >"$work/host.log"
attach_detach "$app" "$work/libhello_profiler.so" "$work/host.log" "" in_root
ok "from the empty root: ps lists and attach/detach reach the host app $app"

start_namespaced_app 0
in_root ps >"$work/root-ps.out" 2>&1 || fail "ps in the empty root: $(cat "$work/root-ps.out")"
grep -q "^ *$nsapp " "$work/root-ps.out" || fail "ps in the empty root misses $nsapp: $(cat "$work/root-ps.out")"
attach_detach "$nsapp" /profilers/libhello_profiler.so "/proc/$nsapp/root/tmp/ns.log" --stage in_root
ok "from the empty root: attach --stage and detach reach $nsapp in its own PID and mount namespace"
# A non-root user (the app's own uid, as a sidecar running as the app's user would be), from
# the empty root, to an app of that uid in its own PID and mount namespace.
kill -9 "$nsapp"
start_namespaced_app 4242
as_user=4242:4242
in_root ps >"$work/root-ps.out" 2>&1 || fail "ps as uid 4242: $(cat "$work/root-ps.out")"
grep -q "^ *$nsapp " "$work/root-ps.out" || fail "ps as uid 4242 misses $nsapp: $(cat "$work/root-ps.out")"
attach_detach "$nsapp" /profilers/libhello_profiler.so "/proc/$nsapp/root/tmp/ns.log" --stage in_root
ok "as uid 4242 from the empty root: ps, attach --stage and detach reach $nsapp (uid 4242, own namespaces)"
echo "static: $pass checks passed with $cli"
