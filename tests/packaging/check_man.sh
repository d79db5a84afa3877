#!/usr/bin/env bash
# The man pages and --help agree: each verb's page lists, in its OPTIONS section, exactly the
# options (with their placeholders) that `clrattach VERB --help` lists, and has an EXIT STATUS
# section; the top-level page lists every verb of `clrattach --help`. Catches a generator that
# loses an option and a page left behind by a changed table.
# Usage: check_man.sh CLI MAN_DIR VERB...
set -euo pipefail
cli=$1 man=$2
shift 2
fail=0

# Option labels ("--clsid GUID", "-h, --help") of a --help text on stdin.
help_labels() {
    awk '/^options:/ { o = 1; next } o && /^$/ { o = 0 }
         o && /^  -/ { match($0, /^  [^ ]+( [A-Z_]+| [a-z]+(\|[a-z]+)+|\[=[A-Z_]+\])?(, --[^ ]+( [A-Z_]+)?)?/)
                       s = substr($0, 3, RLENGTH - 2); print s }' | sort
}

# The bold labels of the OPTIONS section of a roff page.
page_labels() {
    sed -n '/^\.SH OPTIONS/,/^\.SH /p' "$1" | sed -n 's/^\\fB\(.*\)\\fR$/\1/p' |
        sed 's/\\(\*/*/g; s/\\&//g' | sort
}

for verb in "$@"; do
    page=$man/clrattach-$verb.1
    [ -s "$page" ] || { echo "man: $page is missing"; fail=1; continue; }
    want=$("$cli" "$verb" --help | help_labels)
    got=$(page_labels "$page")
    [ -n "$want" ] || { echo "man: no options read from '$verb --help'"; fail=1; }
    if [ "$want" != "$got" ]; then
        echo "man: clrattach-$verb(1) and '$verb --help' differ (< help, > page):"
        diff <(echo "$want") <(echo "$got") | grep '^[<>]' || true
        fail=1
    fi
    grep -q '^\.SH EXIT STATUS' "$page" || { echo "man: clrattach-$verb(1) has no EXIT STATUS"; fail=1; }
done
verbs=$("$cli" --help | awk '/^verbs:/ { v = 1; next } v && /^$/ { v = 0 } v && /^  [a-z]/ { print $1 }')
for verb in $verbs; do
    grep -q "^\\\\fB$verb\\\\fR\$" "$man/clrattach.1" || { echo "man: clrattach(1) lacks verb $verb"; fail=1; }
    case " $* " in *" $verb "*) ;; *) echo "man: verb $verb has no page"; fail=1 ;; esac
done
[ $fail = 0 ] && echo "man: $# pages agree with --help; clrattach(1) lists all $(echo $verbs | wc -w) verbs"
exit $fail
