#!/usr/bin/env bash
# Renders one man page: the scdoc source TEMPLATE with its @HELP@ line replaced by sections
# generated from `CLI [VERB] --help` (SYNOPSIS, DESCRIPTION, OPTIONS or VERBS, NOTES, EXAMPLES,
# EXIT STATUS), so the options, their help and the exit codes are written once, in the CLI's
# option tables, and the page cannot drift from them. Then scdoc makes the roff page OUT.
# Usage: render.sh CLI VERB|- TEMPLATE OUT   (VERB "-": the top-level page)
set -euo pipefail
cli=$1 verb=$2 template=$3 out=$4
if [ "$verb" = - ]; then help=$("$cli" --help); else help=$("$cli" "$verb" --help); fi

# scdoc reads * and _ as emphasis, a leading - as a list, [ | or : as a table, a leading `
# as a literal block, and a leading space as an error: escape, strip.
sections=$(printf '%s\n' "$help" | awk '
    function esc(s) { gsub(/\\/, "\\\\", s); gsub(/\*/, "\\*", s); gsub(/_/, "\\_", s)
                 if (s ~ /^[-[|:`]/) s = "\\" s  # - starts a list; [, | and : a table; ` a literal block
                 return s }
    function strip(s) { sub(/^[ \t]+/, "", s); return s }
    function head(name) { if (sec != name) { printf "\n# %s\n\n", name; sec = name } }
    NR == 1 || (sec == "SYNOPSIS" && /^       /) {
        sub(/^usage: /, ""); if (sec != "SYNOPSIS") head("SYNOPSIS"); else if (/^       [a-z]/) print "";
        print esc(strip($0)); next }
    /^$/ { if (sec == "SYNOPSIS") head("DESCRIPTION"); else if (para) print ""; para = 0; block = ""; next }
    /^options:$/ { head("OPTIONS"); block = "opt"; next }
    /^verbs:$/ { head("VERBS"); block = "verb"; next }
    /^examples:$/ { head("EXAMPLES"); block = "ex"; next }
    /^exit codes:/ { head("EXIT STATUS"); block = "exit"; sub(/^exit codes: */, "") }
    block == "opt" && /^  -/ { # the label: as tests/packaging/check_man.sh reads it
        match($0, /^  [^ ]+( [A-Z_]+| [a-z]+(\|[a-z]+)+|\[=[A-Z_]+\])?(, --[^ ]+( [A-Z_]+)?)?/)
        label = strip(substr($0, 1, RLENGTH)); rest = strip(substr($0, RLENGTH + 1))
        printf "%s*%s*\n\t%s\n", (n++ ? "\n" : ""), esc(label), esc(rest); next }
    block == "verb" && /^  [a-z]/ {
        name = $1; rest = strip(substr($0, length(name) + 3))
        printf "%s*%s*\n\t%s\n", (n++ ? "\n" : ""), name, esc(rest); next }
    block == "opt" || block == "verb" { printf "\t%s\n", esc(strip($0)); next }
    block == "ex" { printf "\t%s\n", esc(strip($0)); next }
    block == "exit" && /^  [0-9]/ {  # a table of codes: one list entry per code
        n = split(strip($0), cell, /   */); for (i = 1; i <= n; i++) print "- " esc(cell[i])
        next }
    block == "exit" { if (strip($0) != "") print esc(strip($0)); para = 1; next }
    sec == "OPTIONS" || sec == "VERBS" || sec == "EXAMPLES" || sec == "EXIT STATUS" || sec == "NOTES" {
        head("NOTES"); print esc(strip($0)); para = 1; next }
    { print esc(strip($0)); para = 1 }
' | awk '
    # scdoc drops the dot that starts a line (".html" comes out "html"): such a line joins the
    # line before it, which scdoc would have joined anyway.
    NR > 1 && /^\t*\./ && prev != "" { sub(/^\t*/, ""); prev = prev " " $0; next }
    NR > 1 { print prev }
    { prev = $0 }
    END { if (NR) print prev }
')
awk -v gen="$sections" '$0 == "@HELP@" { print gen; next } { print }' "$template" >"$out.scd"; scdoc <"$out.scd" >"$out.tmp"
mv "$out.tmp" "$out"
