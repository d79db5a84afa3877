#!/usr/bin/env bash
# check_citations.sh ROOT - every section the sources cite in docs/protocol.md or
# docs/profiling-api.md exists there as a heading.
#
# Citations are found in src/, include/, profilers/, tests/, docs/ and README.md in these forms:
#   docs/protocol.md 3.2           docs/protocol.md §3.2, §3.3      docs/protocol.md section 3
#   docs/protocol.md 4.1-4.2       docs/profiling-api.md 1.13, 2, 3.1 and 4.3
#   docs/profiling-api.md (sections 1.1-1.10)                       section 2 of docs/protocol.md
# and inside the two pages themselves a bare §N means a section of the same page. A cited N
# must be a heading "## N. Title" or "### N Title" of that page. A range A-B whose ends share a
# parent (1.1-1.10) needs every section in between; other ranges need both ends.
#
# It also fails on a citation of the old research notes (under reference/, or their bare file
# names), which are not in the repository.
set -u
export LC_ALL=C

root=${1:-.}
cd "$root" || { echo "check_citations: no directory $root" >&2; exit 2; }

paths=()
for p in src include profilers tests docs README.md; do
    [ -e "$p" ] && paths+=("$p")
done

# The section numbers of each page, read once: sections[docs/x.md:N]=1.
declare -A sections=()
for page in docs/protocol.md docs/profiling-api.md; do
    [ -f "$page" ] || continue
    while IFS= read -r n; do
        sections["$page:$n"]=1
    done < <(sed -nE 's/^#{1,6} ([0-9]+(\.[0-9]+)*)\.? .*/\1/p' "$page")
done

fail=0
checked=0

check_one() { # WHERE PAGE NUM
    checked=$((checked + 1))
    if [ ! -f "$2" ]; then
        echo "$1: cites $2, which does not exist"
        fail=1
    elif [ -z "${sections["$2:$3"]+x}" ]; then
        echo "$1: cites $2 §$3, which has no such section heading"
        fail=1
    fi
}

# check_list WHERE PAGE LIST: LIST is what follows the page name ("§3.2, §3.3", "1.1-1.10").
check_list() {
    local where=$1 page=$2 list=$3 tok a b pa pb la lb i
    list=${list//§/}
    list=${list//–/-}
    list=${list// -/-}
    list=${list//- /-}
    list=${list//,/ }
    for tok in $list; do
        [[ $tok =~ ^[0-9] ]] || continue # "and", "sections", "(" ...
        tok=${tok%%[!0-9.-]*}
        if [[ $tok == *-* ]]; then
            a=${tok%%-*} b=${tok#*-}
            pa=${a%.*} pb=${b%.*} la=${a##*.} lb=${b##*.}
            if [[ $a == *.* && $b == *.* && $pa == "$pb" ]] && ((la <= lb)); then
                for ((i = la; i <= lb; i++)); do
                    check_one "$where" "$page" "$pa.$i"
                done
            else
                check_one "$where" "$page" "$a"
                check_one "$where" "$page" "$b"
            fi
        else
            check_one "$where" "$page" "$tok"
        fi
    done
}

num='[0-9]+(\.[0-9]+)*'
sep='( *, *(and +)?| +and +| *(-|–) *)'
cite="docs/(protocol|profiling-api)\.md\`?[ (]*(§ ?|sections? +)?${num}(${sep}(§ ?)?${num})*"
cite_before="sections? +${num} +of +\`?docs/(protocol|profiling-api)\.md"

# 1. "docs/X.md N..." citations.
while IFS= read -r hit; do
    [[ $hit =~ ^([^:]*):([0-9]+):docs/([a-z-]+)\.md(.*)$ ]] || continue
    check_list "${BASH_REMATCH[1]}:${BASH_REMATCH[2]}" "docs/${BASH_REMATCH[3]}.md" "${BASH_REMATCH[4]}"
done < <(grep -rnoE "$cite" "${paths[@]}" 2>/dev/null | grep -v '^tests/docs/')

# 2. "section N of docs/X.md".
while IFS= read -r hit; do
    [[ $hit =~ ^([^:]*):([0-9]+):sections?\ +([0-9.]+)\ .*docs/([a-z-]+)\.md$ ]] || continue
    check_one "${BASH_REMATCH[1]}:${BASH_REMATCH[2]}" "docs/${BASH_REMATCH[4]}.md" "${BASH_REMATCH[3]%.}"
done < <(grep -rnoE "$cite_before" "${paths[@]}" 2>/dev/null | grep -v '^tests/docs/')

# 3. A bare §N inside each page refers to that page (citations of either page removed first).
for page in docs/protocol.md docs/profiling-api.md; do
    [ -f "$page" ] || continue
    while IFS= read -r hit; do
        [[ $hit =~ ^([0-9]+):(.*)$ ]] || continue
        check_list "$page:${BASH_REMATCH[1]}" "$page" "${BASH_REMATCH[2]}"
    done < <(sed -E "s#${cite}##g" "$page" | grep -noE "§ ?${num}((-|–)${num})?")
done

# 4. Nothing still cites the old notes.
old=$(grep -rnE "reference/(ipc-protocol|profiling-api)\.md|(^|[^/A-Za-z0-9_.-])(ipc-protocol|profiling-api)\.md" \
           "${paths[@]}" 2>/dev/null | grep -v '^tests/docs/')
if [ -n "$old" ]; then
    echo "citations of the old reference notes (cite docs/protocol.md or docs/profiling-api.md):"
    echo "$old"
    fail=1
fi

if [ "$checked" -eq 0 ]; then
    echo "check_citations: found no citations under $root; wrong directory?"
    exit 1
fi
if [ "$fail" -ne 0 ]; then
    exit 1
fi
echo "check_citations: $checked cited sections found"
