#!/usr/bin/env bash
# The bash completion completes a verb, a verb's option, leaves an option's value to file
# completion and offers only pids in the PID position (called as bash-completion calls it:
# COMP_WORDS and COMP_CWORD set). Usage: check_completion.sh COMPLETIONS_DIR CLI_DIR
set -euo pipefail
export PATH=$2:$PATH
complete() { :; } # outside an interactive shell; the function is what is tested
# shellcheck source=/dev/null
source "$1/clrattach.bash"
fail=0

# Completes the words given (the last one is the word being completed) and compares.
expect() {
    local want=$1
    shift
    COMP_WORDS=("$@")
    COMP_CWORD=$(($# - 1))
    COMPREPLY=()
    _clrattach
    local got="${COMPREPLY[*]}"
    if [ "$got" != "$want" ]; then
        echo "completion: '$*' gave '$got', want '$want'"
        fail=1
    fi
}

expect "attach" clrattach att
expect "startup-hook" clrattach star
expect "--version" clrattach --vers
expect "--stage" clrattach attach --st
expect "--data --data-file --data-hex" clrattach attach --data
expect "--probe-timeout" clrattach ps --pro
expect "--json" clrattach detach 42 --js
expect "" clrattach attach --clsid ""
expect "" clrattach attach 42 ""
expect "gc-verbose gc-collect" clrattach trace --profile gc-
expect "gc+exception" clrattach trace --clrevents gc+exc
expect "Verbose" clrattach trace --clreventlevel Ve
expect "speedscope,chromium" clrattach trace --format speedscope,chr
expect "chromium" clrattach convert --format chr
expect "alloc" clrattach profile --mode al
expect "exception" clrattach profile --mode exc
expect "--stopping-event-provider-name" clrattach trace --stopping-event-pro
# The PID position offers only numbers (the .NET processes running now, maybe none).
COMP_WORDS=(clrattach attach "")
COMP_CWORD=2
_clrattach
for p in "${COMPREPLY[@]}"; do
    [[ $p =~ ^[0-9]+$ ]] || { echo "completion: '$p' offered as a pid"; fail=1; }
done
[ $fail = 0 ] && echo "completion: verbs, options, option values and pids complete as expected"
exit $fail
