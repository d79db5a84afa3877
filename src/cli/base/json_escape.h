/* json_escape.h - the command's one JSON string escaper (json_escape.c): the JSON writer of
 * --json, counters' json format, convert's JSON lines and the profile writers all call it, each
 * with the few flags its output has always had. */
#ifndef CLRA_CLI_JSON_ESCAPE_H
#define CLRA_CLI_JSON_ESCAPE_H

#include <stdio.h>

enum {
    CLI_JSON_NEWLINE_SHORT = 1, /* a newline as \n rather than \u000a */
    CLI_JSON_SCRIPT_SAFE = 2,   /* < > & as \u003c \u003e \u0026: the text may sit in <script> */
};

/* Writes s as a JSON string body (no quotes): '"' and '\\' escaped, control characters as
 * \u00XX, other bytes as they are (UTF-8 passes through). */
void cli_json_escape(FILE *f, const char *s, unsigned flags);

#endif
