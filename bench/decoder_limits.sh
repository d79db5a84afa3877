#!/bin/sh
# bench/decoder_limits.sh - issue 29's hostile traces through `clrattach convert`, each case
# also run by an anchor binary in the same invocation (an older clrattach, to show the change),
# as "case  peak-RSS-MiB  seconds  exit" rows and the ratio new/anchor.
#
#   bench/decoder_limits.sh [--build DIR] [--anchor OLD_CLRATTACH] [--big MIB]
#
# Traces are generated under DIR/hostile by bench_hostile_trace and removed at the end; --big
# adds the large realistic trace (1024 for the 1 GiB case; it needs that much free disk).
# Each run is capped at 120 s and 8 GiB of address space so an anchor that hangs or balloons
# ends as a row with exit 124 (timeout) or a failure, not a stuck machine.
set -eu
build=build anchor="" big=0
while [ $# -gt 0 ]; do
    case $1 in
    --build) build=$2; shift 2 ;;
    --anchor) anchor=$2; shift 2 ;;
    --big) big=$2; shift 2 ;;
    *) echo "usage: $0 [--build DIR] [--anchor OLD_CLRATTACH] [--big MIB]" >&2; exit 2 ;;
    esac
done
cli=$build/clrattach gen=$build/bench/bench_hostile_trace dir=$build/hostile
mkdir -p "$dir"
trap 'rm -rf "$dir"' EXIT

# One run: peak RSS (MiB) and wall seconds from GNU time, the exit status.
measure() {
    label=$1; shift
    status=0
    ( ulimit -v 8388608; /usr/bin/time -f '%M %e' -o "$dir/time" timeout 120 "$@" \
        >/dev/null 2>"$dir/err" ) || status=$?
    set -- $(tail -n 1 "$dir/time" 2>/dev/null) 0 0
    printf '%-34s %9.1f %8.2f %5d\n' "$label" "$(echo "$1 / 1024" | bc -l)" "$2" "$status"
}

# A case run by clrattach and, when given, the anchor.
case_row() {
    label=$1; shift
    measure "$label" "$cli" "$@"
    [ -z "$anchor" ] || measure "$label (anchor)" "$anchor" "$@"
}

"$gen" empty-structs "$dir/empty.nettrace"
"$gen" deep-stack "$dir/deep.nettrace"
"$gen" falling-ids 31000 "$dir/fall-1.8MB.nettrace"
"$gen" falling-ids 275000 "$dir/fall-16MB.nettrace"
"$gen" many-fields 4 "$dir/fields.nettrace"
"$gen" max-fields 2700 "$dir/max-fields.nettrace"
printf '%-34s %9s %8s %5s\n' case peak-MiB seconds exit
case_row "empty structs: convert json" convert "$dir/empty.nettrace"
for f in flamegraph folded speedscope pprof top chromium; do
    case_row "deep stack: convert $f" convert --format "$f" "$dir/deep.nettrace"
done
case_row "falling ids 1.8 MB: folded" convert --format folded "$dir/fall-1.8MB.nettrace"
case_row "falling ids 16 MB: folded" convert --format folded "$dir/fall-16MB.nettrace"
case_row "10M-field records: json" convert "$dir/fields.nettrace"
case_row "2700 1024-field records: json" convert "$dir/max-fields.nettrace"
if [ "$big" -gt 0 ]; then
    "$gen" big "$big" "$dir/big.nettrace"
    measure "${big} MiB: convert folded" "$cli" convert --format folded "$dir/big.nettrace"
    measure "${big} MiB: convert json" "$cli" convert --output /dev/null "$dir/big.nettrace"
fi
