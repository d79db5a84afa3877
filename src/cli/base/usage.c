/* usage.c - every verb's --help, generated from its option tables, so the help cannot drift from
 * what the parser accepts. */
#include "base/usage.h"

#include <string.h>

/* The width help lines are wrapped to: a terminal's 80 columns. */
#define USAGE_WIDTH 80
/* A longer option label goes on a line of its own, its help on the next lines (as git and curl
 * do), so one long name does not push every description into a narrow column. */
#define USAGE_LABEL_MAX 22
/* At most this many words in one option's help. */
#define USAGE_WORDS 160

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

/* The words of a help text, split at spaces and line breaks: the generator fills the lines, so
 * a break written for some other width cannot strand a word. Returns how many. */
static int split_words(const char *text, const char **word, int *len, int cap)
{
    int n = 0;
    for (const char *p = text + strspn(text, " \n"); *p && n < cap; p += strspn(p, " \n")) {
        word[n] = p;
        len[n] = (int)strcspn(p, " \n");
        p += len[n++];
    }
    return n;
}

/* The first word of each line, filling lines of room columns greedily; a last line that would
 * hold one word alone takes the word before it too, when the line it leaves keeps two.
 * Returns the number of lines. */
static int break_lines(const int *len, int n, int room, int *start)
{
    int lines = 0, used = 0;
    for (int i = 0; i < n; i++) {
        if (i == 0 || used + 1 + len[i] > room) {
            start[lines++] = i;
            used = len[i];
        } else {
            used += 1 + len[i];
        }
    }
    if (lines > 1 && start[lines - 1] == n - 1 &&
        start[lines - 1] - start[lines - 2] >= (lines == 2 ? 2 : 3) &&
        len[n - 2] + 1 + len[n - 1] <= room)
        start[lines - 1] = n - 2;
    return lines;
}

/* Writes text's words from column col (the cursor is there), in lines of at most USAGE_WIDTH. */
static void wrap(FILE *f, const char *text, int col)
{
    const char *word[USAGE_WORDS];
    int len[USAGE_WORDS], start[USAGE_WORDS + 1];
    int n = split_words(text, word, len, USAGE_WORDS);
    int lines = break_lines(len, n, USAGE_WIDTH - col, start);
    start[lines] = n;
    for (int l = 0; l < lines; l++) {
        if (l)
            fprintf(f, "\n%*s", col, "");
        for (int i = start[l]; i < start[l + 1]; i++)
            fprintf(f, "%s%.*s", i > start[l] ? " " : "", len[i], word[i]);
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

/* One option's entry: its label, then its help from column col; a label too wide for the
 * column stands on its own line. */
static void option_entry(FILE *f, const cli_verb_t *v, const cli_opt_t *o, int col)
{
    char name[96], buf[512];
    int n = label(o, name, sizeof name);
    if (2 + n + 2 > col)
        fprintf(f, "  %s\n%*s", name, col, "");
    else
        fprintf(f, "  %s%*s", name, col - 2 - n, "");
    wrap(f, help_of(v, o, buf, sizeof buf), col);
}

/* The help column: three spaces after the longest label that stays beside its help. */
static int column(const cli_verb_t *v)
{
    char name[96];
    int widest = 0;
    for (const cli_opt_t *o = v->opts; o && o->kind; o++) {
        int n = label(o, name, sizeof name);
        if (n > widest && n <= USAGE_LABEL_MAX)
            widest = n;
    }
    for (const cli_opt_t *o = cli_common_opts; o->kind; o++) {
        int n = label(o, name, sizeof name);
        if (cli_common_taken(v, o) && n > widest && n <= USAGE_LABEL_MAX)
            widest = n;
    }
    return 2 + widest + 3;
}

/* The most words one usage line holds: a verb's options, the shared ones and the positionals. */
#define USAGE_SYNOPSIS_WORDS 64
#define USAGE_SYNOPSIS_WORD 100

/* Option o as a synopsis word, "[--name PH]" (bare when the verb requires it), as word n;
 * returns n + 1. */
static int synopsis_word(char (*words)[USAGE_SYNOPSIS_WORD], int *len, int n,
                         const cli_opt_t *o, int bare)
{
    char name[96];
    label(o, name, sizeof name);
    len[n] = snprintf(words[n], USAGE_SYNOPSIS_WORD, bare ? "%s" : "[%s]", name);
    return n + 1;
}

/* One usage line: the verb, every option it takes (own ones only when own), the positionals;
 * broken as option help is, so the positionals never stand alone on the last line. */
static void synopsis_line(FILE *f, const cli_verb_t *v, const char *lead, int own,
                          const char *tail)
{
    char words[USAGE_SYNOPSIS_WORDS][USAGE_SYNOPSIS_WORD];
    int len[USAGE_SYNOPSIS_WORDS], start[USAGE_SYNOPSIS_WORDS + 1], n = 0;
    for (const cli_opt_t *o = own ? v->opts : NULL; o && o->kind; o++)
        if (n < USAGE_SYNOPSIS_WORDS - 3)
            n = synopsis_word(words, len, n, o, o->required);
    for (const cli_opt_t *o = cli_common_opts; o->kind; o++)
        if (cli_common_taken(v, o) && o->kind != CLI_OPT_HELP && o->common != CLI_COMMON_PID)
            n = synopsis_word(words, len, n, o, 0);
    if (tail[0])
        len[n] = snprintf(words[n], USAGE_SYNOPSIS_WORD, "%s", tail), n++;
    int indent = fprintf(f, "%sclrattach %s", lead, v->name) + 1;
    int lines = break_lines(len, n, USAGE_WIDTH - indent, start);
    start[lines] = n;
    for (int l = 0; l < lines; l++) {
        if (l)
            fprintf(f, "\n%*s", indent - 1, "");
        for (int i = start[l]; i < start[l + 1]; i++)
            fprintf(f, " %s", words[i]);
    }
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
