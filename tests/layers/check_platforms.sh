#!/usr/bin/env bash
# Checks the platform seam (docs/platforms.md): every .c file of src/ and profilers/ is named in
# exactly one source list; *_win.c files are named only in the _WIN lists and those lists hold
# nothing else; the shared lists hold no platform file (*_win, *_unix, *_linux); and the shared
# files (every other .c and .h of src/, include/ and profilers/) hold at most MAX_CONDITIONALS
# platform conditionals (#if/#ifdef/#ifndef/#elif naming _WIN32, _WIN64 or __linux__), each
# with a comment on its line or the line above. Prints every violation; exits 1 when there is one.
set -u
top=$(cd "${1:?usage: check_platforms.sh SOURCE_DIR}" && pwd)
MAX_CONDITIONALS=10
fail=0
cd "$top" || exit 2

# "LIST FILE" for every file a list of cmake/sources.cmake names (the list its set( opened);
# CMakeLists.txt names the example profiler directly.
lists=$(awk '/^ *set\(/ { name = $1; sub(/^ *set\(/, "", name) }
             { for (i = 1; i <= NF; i++) if ($i ~ /^(src|profilers)\/.*\.c\)?$/) {
                   f = $i; sub(/\)$/, "", f); print name, f } }' cmake/sources.cmake)
lists="$lists
$(grep -o 'profilers/[a-z_/]*\.c' CMakeLists.txt | sed 's/^/CMakeLists /')"

for f in $(find src profilers -name '*.c' | sort); do
    n=$(printf '%s\n' "$lists" | awk -v f="$f" '$2 == f' | wc -l)
    if [ "$n" = 0 ]; then
        echo "platforms: $f is in no list of cmake/sources.cmake: it would build nowhere"
        fail=1
    elif [ "$n" -gt 1 ] && ! printf '%s\n' "$lists" | awk -v f="$f" '$2 == f' |
            grep -q '^CLRA_\(USER\|PROCESS\)_NAME_SOURCE '; then
        echo "platforms: $f is named in $n lists (name it once: the shared list builds it on both)"
        fail=1
    fi
done
# CLRA_USER_NAME_SOURCE and CLRA_PROCESS_NAME_SOURCE are set in both arms of an if(); each of
# their files once per arm.
bad=$(printf '%s\n' "$lists" | awk '
    $1 ~ /_WIN$/ && $2 !~ /_win\.c$/ { print "platforms: " $2 " is in " $1 " but not named *_win.c" }
    $1 !~ /_WIN$/ && $2 ~ /_win\.c$/ { print "platforms: " $2 " is a Windows file outside a _WIN list (" $1 ")" }
    ($1 == "CLRATTACH_SOURCES" || $1 == "CLRPROF_SOURCES" || $1 == "CLI_SOURCES" ||
     $1 == "RENDER_SOURCES") && $2 ~ /_(win|unix|linux)\.c$/ {
        print "platforms: " $2 " is a platform file in the shared list " $1 }')
if [ -n "$bad" ]; then echo "$bad"; fail=1; fi

# Platform conditionals outside platform files: the seam's rule allows a few, each documented.
found=$(find src include profilers -name '*.[ch]' ! -name '*_win.[ch]' ! -name '*_unix.[ch]' \
            ! -name '*_linux.[ch]' | sort | xargs awk '
    FNR == 1 { prev = "" }
    /^[ \t]*#[ \t]*(if|ifdef|ifndef|elif)([ \t(]|$)/ && /(^|[^A-Za-z0-9_])(_WIN32|_WIN64|__linux__)([^A-Za-z0-9_]|$)/ {
        doc = ($0 ~ /\/\*/ || prev ~ /^[ \t]*(\/\*|\*)/) ? "" : " (undocumented: say why on the line or above)"
        print FILENAME ":" FNR ": " $0 doc
    }
    { prev = $0 }')
count=$(printf '%s' "$found" | grep -c '' || true)
if [ "$count" -gt "$MAX_CONDITIONALS" ]; then
    printf '%s\n' "$found"
    echo "platforms: $count platform conditionals in shared files, at most $MAX_CONDITIONALS:" \
        "move the code into *_unix.c / *_win.c files behind a seam header (docs/platforms.md)"
    fail=1
fi
if printf '%s\n' "$found" | grep -q 'undocumented'; then
    printf '%s\n' "$found" | grep 'undocumented'
    fail=1
fi
[ $fail = 0 ] && echo "platforms: every source is in one list; $count documented platform" \
    "conditionals in shared files (at most $MAX_CONDITIONALS)"
exit $fail
