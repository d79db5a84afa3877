#!/usr/bin/env bash
# Checks that the names two programs must agree on are spelled once, in
# src/common/shared_names.h: no file of src/ or profilers/ may spell a CLSID the header lists
# (its first group of digits, in any case, code or comment), a control endpoint name (a format
# or literal starting "clrprof-", the pipe's \\.\pipe\clrprof) or the main-detached mark's
# prefix. Tests keep their own spellings on purpose: they check the programs against the
# names as documented, not against the header. Prints every violation; exits 1 when there is one.
set -u
top=$(cd "${1:?usage: check_shared_names.sh SOURCE_DIR}" && pwd)
header=src/common/shared_names.h
cd "$top" || exit 2
fail=0

# Every CLSID the header lists, found from its X lists so a new one is covered at once.
ids=$(sed -n 's/^#define CLSID_[A-Z_]*(X) X(\([0-9A-Fa-f]\{8\}\),.*/\1/p' "$header" | sort -u)
if [ "$(echo "$ids" | wc -w)" -lt 2 ]; then
    echo "shared names: found no CLSID lists in $header (the check is out of date)"
    exit 2
fi
for id in $ids; do
    hits=$(grep -rniI -- "$id" src profilers | grep -v "^$header:")
    [ -z "$hits" ] && continue
    echo "$hits" | sed "s|^\([^:]*:[0-9]*\):.*|shared names: \1 spells the CLSID $id: use $header|"
    fail=1
done

# Endpoint names and the mark's prefix, as code spells them: a format ("clrprof-%d"), a bare
# literal prefix ("clrprof-"), the pipe's path, the mark's literal. Thread names such as
# "clrprof-service" are no endpoint and stay where they are.
hits=$(grep -rnI -e 'clrprof-%' -e '"clrprof-"' -e 'pipe\\\\clrprof' -e '"clrprof-main-detached' \
    src profilers | grep -v "^$header:")
if [ -n "$hits" ]; then
    echo "$hits" |
        sed "s|^\([^:]*:[0-9]*\):.*|shared names: \1 spells an endpoint or mark name: use $header|"
    fail=1
fi
[ $fail = 0 ] && echo "shared names: the CLSIDs ($(echo $ids)), endpoint and mark names are" \
    "spelled only in $header"
exit $fail
