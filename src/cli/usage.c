/* usage.c - every verb's --help, generated from its option tables, so the help cannot drift from
 * what the parser accepts. */
#include "options.h"

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
        return v->json_help ? v->json_help : "print one JSON object instead of text";
    if (o->common == CLI_COMMON_TIMEOUT) {
        snprintf(buf, cap, "%s (default %lld)",
                 v->timeout_help ? v->timeout_help : "deadline for the whole command in "
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

/* "[options]" when the verb has its own options, else the shared ones spelled out. */
static void synopsis_options(FILE *f, const cli_verb_t *v)
{
    char name[96];
    if (v->opts && v->opts[0].kind) {
        fputs(" [options]", f);
        return;
    }
    for (const cli_opt_t *o = cli_common_opts; o->kind; o++)
        if (cli_common_taken(v, o) && o->kind != CLI_OPT_HELP) {
            label(o, name, sizeof name);
            fprintf(f, " [%s]", name);
        }
}

/* The usage lines: one per form of the verb. */
static void synopsis(FILE *f, const cli_verb_t *v)
{
    fprintf(f, "usage: clrattach %s", v->name);
    synopsis_options(f, v);
    fprintf(f, "%s%s\n", v->synopsis[0] ? " " : "", v->synopsis);
    if (!v->synopsis2)
        return;
    fprintf(f, "       clrattach %s", v->name);
    synopsis_options(f, v);
    fprintf(f, " %s\n", v->synopsis2);
}

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
