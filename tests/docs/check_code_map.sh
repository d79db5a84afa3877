#!/usr/bin/env bash
# check_code_map.sh ROOT - the code map in docs/README.md ("## Code map") matches the tree.
#
# The map is the table under that heading; the first cell of each row names one or more paths in
# backticks. A path ending in "/" is a folder, anything else a file (one with `*` or `<...>` in it
# is a pattern and is not looked up). The check fails when
#   - a folder or file the map names does not exist, or
#   - a folder under src/, include/ or profilers/ (find -type d) is not named in the map,
# so the map can neither go stale nor forget a folder: add a row with the folder, or remove one.
set -u
export LC_ALL=C

root=${1:-.}
cd "$root" || { echo "check_code_map: no directory $root" >&2; exit 2; }
page=docs/README.md
[ -f "$page" ] || { echo "check_code_map: no $page" >&2; exit 2; }

# The first cells of the table rows between "## Code map" and the next "## " heading.
cells=$(awk '/^## Code map/ { on = 1; next }
             on && /^## / { exit }
             on && /^\|/ { split($0, c, "|"); print c[2] }' "$page")
if [ -z "$cells" ]; then
    echo "check_code_map: $page has no table under '## Code map'" >&2
    exit 1
fi

declare -A named=()
fail=0
folders=0
while IFS= read -r path; do
    [ -n "$path" ] || continue
    case $path in
    */)
        folders=$((folders + 1))
        named["${path%/}"]=1
        if [ ! -d "$path" ]; then
            echo "$page: the code map names $path, which is not a folder of the tree"
            fail=1
        fi
        ;;
    *'*'* | *'<'*) ;;
    *)
        if [ ! -e "$path" ]; then
            echo "$page: the code map names $path, which does not exist"
            fail=1
        fi
        ;;
    esac
done < <(printf '%s\n' "$cells" | grep -o '`[^`]*`' | tr -d '`')

missing=0
while IFS= read -r dir; do
    if [ -z "${named[$dir]:-}" ]; then
        echo "$page: $dir/ is a folder of the tree but the code map does not name it"
        missing=$((missing + 1))
        fail=1
    fi
done < <(find src include profilers -mindepth 1 -type d 2>/dev/null | sort)

if [ "$fail" != 0 ]; then
    echo "check_code_map: the code map in $page and the tree disagree (see above)" >&2
    exit 1
fi
echo "check_code_map: the $folders folders the code map names exist, and it names every folder of src/, include/ and profilers/"
