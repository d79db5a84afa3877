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
# It also fails on a citation of the old research notes (reference/*.md or a bare
# ipc-protocol.md / profiling-api.md), which are not in the repository.
set -u
export LC_ALL=C

root=${1:-.}
cd "$root" || { echo "check_citations: no directory $root" >&2; exit 2; }

paths=()
for p in src include profilers tests docs README.md; do
    [ -e "$p" ] && paths+=("$p")
done

page_of() { # protocol | profiling-api -> file
    echo "docs/$1.md"
}

fail=0
checked=0

# has_section FILE NUM: FILE has a heading for NUM.
has_section() {
    local re=${2//./\\.}
    grep -qE "^#{1,6} ${re}(\. | )" "$1"
}

# check_numbers WHERE FILE LIST: LIST is what follows the file name ("§3.2, §3.3", "1.1-1.10").
check_numbers() {
    local where=$1 file=$2 list=$3 tok a b pa pb la lb i
    list=$(printf '%s' "$list" | sed -E 's/§//g; s/sections?//g; s/[`()]//g; s/–/-/g; s/ *- */-/g;
                                           s/,/ /g; s/ and / /g')
    for tok in $list; do
        if [[ $tok == *-* ]]; then
            a=${tok%%-*} b=${tok#*-}
            pa=${a%.*} pb=${b%.*} la=${a##*.} lb=${b##*.}
            if [[ $a == *.* && $b == *.* && $pa == "$pb" ]] && ((la <= lb)); then
                for ((i = la; i <= lb; i++)); do
                    check_one "$where" "$file" "$pa.$i"
                done
            else
                check_one "$where" "$file" "$a"
                check_one "$where" "$file" "$b"
            fi
        else
            check_one "$where" "$file" "$tok"
        fi
    done
}

check_one() {
    checked=$((checked + 1))
    if [ ! -f "$2" ]; then
        echo "$1: cites $2, which does not exist"
        fail=1
    elif ! has_section "$2" "$3"; then
        echo "$1: cites $2 §$3, which has no such section heading"
        fail=1
    fi
}

num='[0-9]+(\.[0-9]+)*'
sep='( *, *(and +)?| +and +| *(-|–) *)'
cite="docs/(protocol|profiling-api)\.md\`?[ (]*(§ ?|sections? +)?${num}(${sep}(§ ?)?${num})*"
cite_before="sections? +${num} +of +\`?docs/(protocol|profiling-api)\.md"

# 1. "docs/X.md N..." citations.
while IFS= read -r hit; do
    where=${hit%%:*}:$(cut -d: -f2 <<<"$hit")
    text=${hit#*:*:}
    name=$(sed -E 's#^docs/([a-z-]+)\.md.*#\1#' <<<"$text")
    check_numbers "$where" "$(page_of "$name")" "${text#docs/"$name".md}"
done < <(grep -rnoE "$cite" "${paths[@]}" 2>/dev/null | grep -v '^tests/docs/')

# 2. "section N of docs/X.md".
while IFS= read -r hit; do
    where=${hit%%:*}:$(cut -d: -f2 <<<"$hit")
    text=${hit#*:*:}
    name=$(sed -E 's#.*docs/([a-z-]+)\.md$#\1#' <<<"$text")
    n=$(grep -oE "$num" <<<"$text" | head -1)
    check_one "$where" "$(page_of "$name")" "$n"
done < <(grep -rnoE "$cite_before" "${paths[@]}" 2>/dev/null | grep -v '^tests/docs/')

# 3. Bare §N inside each page refers to that page.
for page in docs/protocol.md docs/profiling-api.md; do
    [ -f "$page" ] || continue
    while IFS= read -r hit; do
        line=${hit%%:*}
        text=${hit#*:}
        # Drop citations of either page first; what is left is a self-reference.
        text=$(sed -E "s#${cite}##g" <<<"$text")
        for ref in $(grep -oE "§ ?${num}((-|–)${num})?" <<<"$text" | tr -d ' '); do
            check_numbers "$page:$line" "$page" "$ref"
        done
    done < <(grep -nE '§' "$page")
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
