#!/usr/bin/env bash
# The static command's size budget (issue 16): the container build of scripts/build-static.sh
# (every verb but launch, trace, convert, counters, profile, stack, dump and heap) must be at most 150 KB (153,600 bytes) stripped.
# Fails over budget, on an unstripped binary, or on a binary that is not that verb set (the
# budget means nothing for another set). Prints the size and the margin. Usage:
# size_check.sh CLI [BUDGET_BYTES]
set -euo pipefail
cli=$1 budget=${2:-153600}
fail() { echo "size: FAIL: $*" >&2; exit 1; }
[ -x "$cli" ] || fail "$cli is not an executable"
file "$cli" | grep -q 'statically linked' || fail "$cli is not statically linked: $(file "$cli")"
file "$cli" | grep -q ', stripped' || fail "$cli is not stripped: $(file "$cli")"
"$cli" --version | grep -q '; verbs left out: launch trace convert counters profile stack dump heap$' ||
    fail "$cli is not the container verb set: $("$cli" --version | tail -1)"
size=$(stat -c %s "$cli")
if [ "$size" -gt "$budget" ]; then
    fail "$cli is $size bytes stripped, $((size - budget)) over the budget of $budget" \
         "(docs/packaging.md says where the bytes go and what was traded before)"
fi
echo "size: ok: $cli is $size bytes stripped, $((budget - size)) under the budget of $budget"
