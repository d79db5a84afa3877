#!/usr/bin/env bash
# check_links.sh ROOT - every relative link in README.md, CHANGELOG.md and docs/*.md resolves.
#
# A link is [text](target) or ![alt](target) outside fenced code blocks and inline code. Links
# with a scheme (https:, mailto:) are not followed. A relative target must name an existing file
# or folder, relative to the page; its #anchor, when the target is a Markdown page (or the page
# itself, for a bare #anchor), must be one of that page's headings as GitHub spells anchors:
# lower case, punctuation other than '-' and '_' dropped, spaces turned into '-', a repeated
# heading suffixed -1, -2, ...
set -u
export LC_ALL=C

root=${1:-.}
cd "$root" || { echo "check_links: no directory $root" >&2; exit 2; }

pages=()
for p in README.md CHANGELOG.md docs/*.md; do
    [ -f "$p" ] && pages+=("$p")
done

# The anchors of a page, one per line.
anchors() {
    awk '/^ *```/ { code = !code; next }
         !code && /^#+ / {
             h = $0; sub(/^#+ +/, "", h); sub(/ +#* *$/, "", h)
             h = tolower(h)
             gsub(/[^a-z0-9 _-]/, "", h)
             gsub(/ /, "-", h)
             if (h in seen) { n = seen[h]++; print h "-" n } else { seen[h] = 1; print h }
         }' "$1"
}

# The link targets of a page: "LINE TARGET" per link.
links() {
    awk '/^ *```/ { code = !code; next }
         code { next }
         {
             line = $0
             gsub(/`[^`]*`/, "", line)
             while (match(line, /\]\([^) ]+\)/)) {
                 print NR " " substr(line, RSTART + 2, RLENGTH - 3)
                 line = substr(line, RSTART + RLENGTH)
             }
         }' "$1"
}

fail=0
checked=0
for page in "${pages[@]}"; do
    dir=$(dirname "$page")
    while read -r line target; do
        case $target in
        *://* | mailto:*) continue ;;
        esac
        checked=$((checked + 1))
        file=${target%%#*}
        anchor=
        [ "$file" != "$target" ] && anchor=${target#*#}
        if [ -z "$file" ]; then
            dest=$page
        else
            dest=$dir/$file
            if [ ! -e "$dest" ]; then
                echo "$page:$line: $target: no such file ($dest)"
                fail=1
                continue
            fi
        fi
        if [ -n "$anchor" ] && [ "${dest##*.}" = md ] && [ -f "$dest" ]; then
            if ! anchors "$dest" | grep -qxF -- "$anchor"; then
                echo "$page:$line: $target: $dest has no heading with the anchor #$anchor"
                fail=1
            fi
        fi
    done < <(links "$page")
done

if [ "$fail" != 0 ]; then
    echo "check_links: some relative links do not resolve (see above)" >&2
    exit 1
fi
echo "check_links: $checked relative links in ${#pages[@]} pages resolve"
