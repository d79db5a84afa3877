# bash completion for clrattach: the verbs, each verb's options and the pids of .NET processes.
# Verbs and options are read from `clrattach --help` and `clrattach VERB --help` (generated from
# the option tables), pids from `clrattach ps --json`, so nothing here can fall behind the
# command. Installed as share/bash-completion/completions/clrattach.

# The verbs of the top-level --help.
_clrattach_verbs() {
    "$1" --help 2>/dev/null |
        awk '/^verbs:/ { v = 1; next } v && /^$/ { v = 0 } v && /^  [a-z]/ { print $1 }'
}

# The long options of VERB's --help; with "values", only those that take a value.
_clrattach_options() {
    "$1" "$2" --help 2>/dev/null | awk -v values="${3:-}" '
        /^options:/ { o = 1; next } o && /^$/ { o = 0 }
        o && /^  -/ { for (i = 1; i <= NF; i++) {
            if ($i !~ /^-/ && $i !~ /^[A-Z][A-Z_:.,]*$/) break # the help text begins
            if ($i !~ /^--/) continue
            name = $i; sub(/,$/, "", name); plain = name; sub(/\[=.*/, "", plain)
            taking = (i < NF && $(i + 1) ~ /^[A-Z_]+$/)
            if (values == "" || taking) print plain } }'
}

# The pids `clrattach ps --json` lists.
_clrattach_pids() {
    "$1" ps --json 2>/dev/null | grep -o '"pid": *[0-9]*' | grep -o '[0-9]*$'
}

# The values trace's --profile, --clrevents, --clreventlevel and --format take, the first two
# from the command's own lists (--list-profiles, --list-clrevents). A --clrevents word completes
# after its last '+', a --format word after its last ','.
_clrattach_trace_values() {
    local cmd=$1 prev=$2 cur=$3 head=""
    case $prev in
    --profile)
        mapfile -t COMPREPLY < <(compgen -W "$("$cmd" trace --list-profiles 2>/dev/null |
            awk '/^[a-z]/ && !/collect-linux/ { print $1 }')" -- "$cur") ;;
    --clrevents)
        [[ $cur == *+* ]] && head=${cur%+*}+
        mapfile -t COMPREPLY < <(compgen -P "$head" -W "$("$cmd" trace --list-clrevents \
            2>/dev/null | awk '{ print $1 }')" -- "${cur##*+}") ;;
    --clreventlevel)
        mapfile -t COMPREPLY < <(compgen -W "LogAlways Critical Error Warning Informational
            Verbose" -- "$cur") ;;
    --format) # comma-separated: the word after the last ','
        [[ $cur == *,* ]] && head=${cur%,*},
        mapfile -t COMPREPLY < <(compgen -P "$head" -W "nettrace speedscope chromium flamegraph
            folded pprof" -- "${cur##*,}") ;;
    *) return 1 ;;
    esac
}

# The formats counters' --format takes (dotnet-counters' csv and json, and our table).
_clrattach_counters_values() {
    [ "$2" = --format ] || return 1
    mapfile -t COMPREPLY < <(compgen -W "table json csv" -- "$3")
}

# The formats convert's --format takes.
_clrattach_convert_values() {
    [ "$2" = --format ] || return 1
    mapfile -t COMPREPLY < <(compgen -W "json flamegraph folded speedscope pprof top chromium" \
        -- "$3")
}

# The values profile's --mode, --method and --format take.
_clrattach_profile_values() {
    local words
    case $2 in
    --mode) words="cpu wall alloc lock exception wait" ;;
    --method) words="signal walk" ;;
    --format) words="flamegraph folded speedscope pprof top" ;;
    *) return 1 ;;
    esac
    mapfile -t COMPREPLY < <(compgen -W "$words" -- "$3")
}

_clrattach() {
    local cmd=${COMP_WORDS[0]} cur=${COMP_WORDS[COMP_CWORD]} verb="" i w has_pid=0
    local prev=${COMP_WORDS[COMP_CWORD - 1]}
    for ((i = 1; i < COMP_CWORD; i++)); do
        w=${COMP_WORDS[i]}
        if [ -z "$verb" ]; then
            case $w in -*) ;; *) verb=$w ;; esac
        elif [[ $w =~ ^[0-9]+$ ]] || [ "$verb $w" = "heap diff" ]; then
            has_pid=1 # heap diff takes two files, no pid
        fi
    done
    COMPREPLY=()
    if [ -z "$verb" ]; then
        mapfile -t COMPREPLY < <(compgen -W "$(_clrattach_verbs "$cmd") --help --version" -- "$cur")
    elif [[ $cur == -* ]]; then
        mapfile -t COMPREPLY < <(compgen -W "$(_clrattach_options "$cmd" "$verb") --help" -- "$cur")
    elif [ "$verb" = trace ] && _clrattach_trace_values "$cmd" "$prev" "$cur"; then
        return 0
    elif [ "$verb" = convert ] && _clrattach_convert_values "$cmd" "$prev" "$cur"; then
        return 0
    elif [ "$verb" = counters ] && _clrattach_counters_values "$cmd" "$prev" "$cur"; then
        return 0
    elif [ "$verb" = counters ] && [ "$prev" = counters ]; then # dotnet-counters' words too
        mapfile -t COMPREPLY < <(compgen -W "list monitor collect $(_clrattach_pids "$cmd")" \
            -- "$cur")
    elif [ "$verb" = profile ] && _clrattach_profile_values "$cmd" "$prev" "$cur"; then
        return 0
    elif [[ $prev == --* ]] && _clrattach_options "$cmd" "$verb" values | grep -qx -- "$prev"; then
        return 0 # an option's value: a file name or text (complete -o default)
    elif [ $has_pid = 0 ] && [ "$verb" != launch ]; then
        mapfile -t COMPREPLY < <(compgen -W "$(_clrattach_pids "$cmd")" -- "$cur")
        if [ "$verb" = heap ]; then
            mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -W diff -- "$cur")
        fi
    fi
}
complete -o default -F _clrattach clrattach
