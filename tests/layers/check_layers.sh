#!/usr/bin/env bash
# Checks the layering: the library's includes run one way (a layer includes only its own and
# lower layers), /proc is named only in target/procfs*, the SDK, the CLI and the profilers reach
# none of the library's internals and no include climbs out with ../, the CLI's families include
# only the families below them, every source file is in an explicit list. Prints every
# violation; exits 1 when there is one.
set -u
src=$(cd "${1:?usage: check_layers.sh SOURCE_DIR}" && pwd)/src
fail=0

cd "$src/clrattach" || exit 2
# Lowest first: util < proto, assembly < target < ipc < stage < the commands (top level).
grep -rno --include='*.[ch]' '^#include "[a-z_]*/[a-z_]*\.h"' . | awk -F: '
    function rank(l) {
        if (l == "util") return 0
        if (l == "proto" || l == "assembly") return 1
        if (l == "target") return 2
        if (l == "ipc") return 3
        if (l == "stage") return 4
        return 5
    }
    {
        file = substr($1, 3); inc = $3
        sub(/^#include "/, "", inc); sub(/"$/, "", inc)
        own = index(file, "/") ? substr(file, 1, index(file, "/") - 1) : "commands"
        dep = substr(inc, 1, index(inc, "/") - 1)
        if (dep != "common" && rank(dep) > rank(own))
            printf "layering: src/clrattach/%s (%s) includes %s (%s, a higher layer)\n", file, own, inc, dep
    }' >"${TMPDIR:-/tmp}/clra-layers.$$"
if [ -s "${TMPDIR:-/tmp}/clra-layers.$$" ]; then cat "${TMPDIR:-/tmp}/clra-layers.$$"; fail=1; fi
rm -f "${TMPDIR:-/tmp}/clra-layers.$$"

# Code lines only: comments and the text of hints (/proc/PID/...) may name /proc. The CLI asks
# the library (public functions) instead of reading /proc itself.
named=$(grep -rn --include='*.[ch]' '"/proc' . ../cli | grep -v '^\./target/procfs' |
    grep -v '^[^:]*:[0-9]*:\s*\(/\*\|\*\)' | grep -v 'clra__detail\|"/proc/PID')
if [ -n "$named" ]; then
    echo "$named" | sed 's|^\(\./\)\{0,1\}\([^:]*\):.*|layering: \2 names /proc: read it through target/procfs.h|'
    fail=1
fi

cd "$src" || exit 2
top_dir=${src%/src}
if grep -rln '^#include "\(util\|proto\|ipc\|target\|stage\|assembly\|framework\)/' \
    clrprof cli ../profilers; then
    echo "layering: the files above include libclrattach internals (use include/clrattach.h)"
    fail=1
fi
# The CLI and the profilers have src/ on their include path for common/: from there they could
# reach the libraries' private files by folder ("clrattach/util/...", "clrprof/profiler_internal.h").
bad=$(grep -rn --include='*.[ch]' '^#include "\(clrattach\|clrprof\|cli\)/' cli ../profilers |
    while IFS= read -r hit; do
        inc=${hit#*#include \"}; inc=${inc%%\"*}
        [ -f "$top_dir/include/$inc" ] || echo "$hit"
    done)
if [ -n "$bad" ]; then
    echo "$bad"
    echo "layering: the includes above reach private files through src/ (use include/)"
    fail=1
fi
# A "../" spelling reaches past the include path (the CLI once read target/procfs.h so).
if grep -rn --include='*.[ch]' '^#include "[^"]*\.\./' \
    clrattach clrprof cli common ../profilers; then
    echo "layering: the includes above climb out with ../ (name them from an include root)"
    fail=1
fi

# The command's families (src/cli/<family>/) include base/, the public headers, src/common/
# (names and helpers every program shares) and only the families below them; the verbs at the top of src/cli may include any family. Measured graph:
# render uses base; counters and heap use base; convert and profile use render; trace writes its CPU
# samples through convert; launch starts a program with a trace (trace/) or a profile
# (profile/) in place. No family includes one above it, so there are no circles.
grep -rno --include='*.[ch]' '^#include "[a-z_]*/[a-z_]*\.h"' cli | awk -F: '
    BEGIN {
        ok["base"] = " "
        ok["render"] = " base "
        ok["counters"] = " base "
        ok["heap"] = " base "
        ok["convert"] = " base render "
        ok["profile"] = " base render "
        ok["trace"] = " base render convert "
        ok["launch"] = " base render trace profile "
    }
    {
        file = substr($1, 5); inc = $3
        sub(/^#include "/, "", inc); sub(/"$/, "", inc)
        if (!index(file, "/")) next
        own = substr(file, 1, index(file, "/") - 1)
        dep = substr(inc, 1, index(inc, "/") - 1)
        if (dep == own || dep == "clrprof" || dep == "common") next
        if (!(own in ok))
            printf "layering: src/cli/%s: the family rule does not know %s/\n", file, own
        else if (!index(ok[own], " " dep " "))
            printf "layering: src/cli/%s includes %s: %s/ may include only%s\n", file, inc,
                   own, ok[own]
    }' >"${TMPDIR:-/tmp}/clra-families.$$"
if [ -s "${TMPDIR:-/tmp}/clra-families.$$" ]; then cat "${TMPDIR:-/tmp}/clra-families.$$"; fail=1; fi
rm -f "${TMPDIR:-/tmp}/clra-families.$$"
# The source lists are explicit: a file on disk that no list names would silently not build.
top=${src%/src}
for f in $(cd "$top" && ls src/clrattach/*.c src/clrattach/*/*.c src/clrprof/*.c src/cli/*.c src/cli/*/*.c \
    tests/unit/test_*.c tests/e2e/test_*.c tests/profilers/*.c); do
    grep -q "$f)\?$" "$top/cmake/sources.cmake" "$top/cmake/test_sources.cmake" ||
        { echo "layering: $f is in no list of cmake/sources.cmake or cmake/test_sources.cmake"; fail=1; }
done
[ $fail = 0 ] && echo "layering: every include runs one way; /proc is read in target/procfs only;" \
    "the CLI's families include only those below them"
exit $fail
