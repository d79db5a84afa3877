/* usage.c - every verb's --help, generated from its option tables, so the help cannot drift from
 * what the parser accepts. */
#include "base/usage.h"

#include <string.h>

/* The width help lines are wrapped to. */
#define USAGE_WIDTH 92

/* The left column of an option: "--name PH", "--name[=PH]", "-h, --help". */
static int label(const cli_opt_t *o, char *out, size_t cap)
{
    int n = o->letter ? snprintf(out, cap, "-%c, --%s", o->letter, o->name)
                      : snprintf(out, cap, "--%s", o->name);
    if (o->placeholder && o->arg == CLI_ARG_OPTIONAL)
        n += snprintf(out + n, cap - (size_t)n, "[=%s]", o->placeholder);
    else if (o->placeholder)
        n += snprintf(out + n, cap - (size_t)n, " %s", o->placeholder);
    return n;
}

/* Writes text from column pos on, wrapping at USAGE_WIDTH to column col; '\n' breaks a line. */
static void wrap(FILE *f, const char *text, int col, int pos)
{
    int first = 1;
    for (const char *p = text; *p;) {
        if (*p == '\n' || (*p != ' ' && !first &&
                           pos + 1 + (int)strcspn(p, " \n") > USAGE_WIDTH)) {
            fprintf(f, "\n%*s", col, "");
            pos = col;
            first = 1;
            p += *p == '\n';
            continue;
        }
        if (*p == ' ') {
            p++;
            continue;
        }
        int len = (int)strcspn(p, " \n");
        pos += fprintf(f, "%s%.*s", first ? "" : " ", len, p);
        p += len;
        first = 0;
    }
    fputc('\n', f);
}

/* The help of a shared option: each verb words --timeout and --json for what it does. */
static const char *help_of(const cli_verb_t *v, const cli_opt_t *o, char *buf, size_t cap)
{
    if (o->kind == CLI_OPT_FLAG && o->common == CLI_COMMON_JSON)
        return v->json_help ? v->json_help : "one JSON object instead of text";
    if (o->common == CLI_COMMON_TIMEOUT) {
        snprintf(buf, cap, "%s (default %lld)",
                 v->timeout_help ? v->timeout_help : "deadline for the whole exchange in "
                 "milliseconds", v->default_timeout_ms);
        return buf;
    }
    return o->help;
}

/* One option's entry: its label, then its help from column col. */
static void option_entry(FILE *f, const cli_verb_t *v, const cli_opt_t *o, int col)
{
    char name[96], buf[512];
    int n = label(o, name, sizeof name);
    fprintf(f, "  %s%*s", name, col - 2 - n, "");
    wrap(f, help_of(v, o, buf, sizeof buf), col, col);
}

/* The help column: two spaces after the longest label. */
static int column(const cli_verb_t *v)
{
    char name[96];
    int widest = 0;
    for (const cli_opt_t *o = v->opts; o && o->kind; o++)
        if (label(o, name, sizeof name) > widest)
            widest = label(o, name, sizeof name);
    for (const cli_opt_t *o = cli_common_opts; o->kind; o++)
        if (cli_common_taken(v, o) && label(o, name, sizeof name) > widest)
            widest = label(o, name, sizeof name);
    return 2 + widest + 3;
}

/* Writes one word of a synopsis, first breaking the line when it would pass the width. */
static int put_word(FILE *f, const char *word, int pos, int indent)
{
    if (pos + 1 + (int)strlen(word) > USAGE_WIDTH) {
        fprintf(f, "\n%*s", indent - 1, "");
        pos = indent - 1;
    }
    return pos + fprintf(f, " %s", word);
}

/* One usage line: the verb, every option it takes (own ones only when own), the positionals. */
static void synopsis_line(FILE *f, const cli_verb_t *v, const char *lead, int own,
                          const char *tail)
{
    char name[96], word[100];
    int pos = fprintf(f, "%sclrattach %s", lead, v->name), indent = pos + 1;
    for (const cli_opt_t *o = own ? v->opts : NULL; o && o->kind; o++) {
        label(o, name, sizeof name);
        snprintf(word, sizeof word, o->required ? "%s" : "[%s]", name);
        pos = put_word(f, word, pos, indent);
    }
    for (const cli_opt_t *o = cli_common_opts; o->kind; o++) {
        if (!cli_common_taken(v, o) || o->kind == CLI_OPT_HELP)
            continue;
        label(o, name, sizeof name);
        snprintf(word, sizeof word, "[%s]", name);
        pos = put_word(f, word, pos, indent);
    }
    if (tail[0])
        put_word(f, tail, pos, indent);
    fputc('\n', f);
}

/* The usage lines: one per form of the verb; a second form shows only the shared options. */
static void synopsis(FILE *f, const cli_verb_t *v)
{
    synopsis_line(f, v, "usage: ", 1, v->synopsis);
    if (v->synopsis2)
        synopsis_line(f, v, "       ", 0, v->synopsis2);
}

/* Synopsis, description, one entry per option, epilogue: the order every verb used by hand. */
void cli_usage(const cli_verb_t *v, FILE *f)
{
    int col = column(v);
    synopsis(f, v);
    fprintf(f, "\n%s\noptions:\n", v->description);
    for (const cli_opt_t *o = v->opts; o && o->kind; o++)
        option_entry(f, v, o, col);
    for (const cli_opt_t *o = cli_common_opts; o->kind; o++)
        if (cli_common_taken(v, o))
            option_entry(f, v, o, col);
    if (v->epilogue)
        fprintf(f, "\n%s", v->epilogue);
}
