/* options.c - the option parser every verb uses: long options with unambiguous prefixes and
 * "--name=value", short letters, options before or after the positionals, "--" to end them. */
#include "base/options.h"

#include "base/cli.h"
#include "base/usage.h"

#include <string.h>

/* An option found in one of the two tables, and the struct its value goes into. */
typedef struct found {
    const cli_opt_t *opt;
    void *base;
} found_t;

/* Table s (0 = the verb's own, 1 = the shared one), and where its values go. */
static const cli_opt_t *table(const cli_verb_t *v, int s, void *opts, cli_args_t *a, void **base)
{
    *base = s == 0 ? opts : (void *)a;
    return s == 0 ? v->opts : cli_common_opts;
}

/* Whether option o of table s is offered by verb v and its name starts with name[0..len). */
static int matches(const cli_verb_t *v, int s, const cli_opt_t *o, const char *name, size_t len)
{
    return (s == 0 || cli_common_taken(v, o)) && strncmp(o->name, name, len) == 0;
}

/* Says which options an ambiguous prefix could mean, as getopt_long did. */
static void say_ambiguous(const cli_verb_t *v, const char *name, size_t len, void *opts,
                          cli_args_t *a)
{
    void *base;
    fprintf(stderr, "clrattach %s: option '--%.*s' is ambiguous; possibilities:", v->name,
            (int)len, name);
    for (int s = 0; s < 2; s++)
        for (const cli_opt_t *o = table(v, s, opts, a, &base); o && o->kind; o++)
            if (matches(v, s, o, name, len))
                fprintf(stderr, " '--%s'", o->name);
    fputc('\n', stderr);
}

/* An exact name wins; otherwise a prefix must name exactly one option. 0 or -1 after saying. */
static int find_long(const cli_verb_t *v, const char *name, size_t len, void *opts,
                     cli_args_t *a, found_t *f)
{
    int n = 0;
    void *base;
    for (int s = 0; s < 2; s++) {
        for (const cli_opt_t *o = table(v, s, opts, a, &base); o && o->kind; o++) {
            if (!matches(v, s, o, name, len))
                continue;
            if (o->name[len] == '\0' || n++ == 0)
                *f = (found_t){o, base};
            if (o->name[len] == '\0')
                return 0;
        }
    }
    if (n == 1)
        return 0;
    if (n == 0)
        fprintf(stderr, "clrattach %s: unrecognized option '--%.*s' (see --help)\n", v->name,
                (int)len, name);
    else
        say_ambiguous(v, name, len, opts, a);
    return -1;
}

/* Looks a short letter up in both tables. 0 or -1 after saying. */
static int find_short(const cli_verb_t *v, char letter, void *opts, cli_args_t *a, found_t *f)
{
    void *base;
    for (int s = 0; s < 2; s++)
        for (const cli_opt_t *o = table(v, s, opts, a, &base); o && o->kind; o++)
            if (o->letter && o->letter == letter && (s == 0 || cli_common_taken(v, o))) {
                *f = (found_t){o, base};
                return 0;
            }
    fprintf(stderr, "clrattach %s: invalid option -- '%c' (see --help)\n", v->name, letter);
    return -1;
}

/* Stores arg as the option's kind says. 0, 1 after printing the help, -1 after saying why. */
static int apply(const cli_verb_t *v, const found_t *f, const char *arg)
{
    char *dest = (char *)f->base + f->opt->offset, label[64];
    snprintf(label, sizeof label, "--%s", f->opt->name);
    switch (f->opt->kind) {
    case CLI_OPT_FLAG:
        *(int *)dest = 1;
        return 0;
    case CLI_OPT_STRING:
        *(const char **)dest = arg;
        return 0;
    case CLI_OPT_INT:
        return cli_parse_int(label, arg, f->opt->min, f->opt->max, (long long *)dest);
    case CLI_OPT_GUID:
        if (clra_guid_parse(arg, (clra_guid_t *)dest) == 0)
            return 0;
        fprintf(stderr, "clrattach: %s wants a GUID like %s, not '%s'\n", label,
                CLSID_HELLO_TEXT, arg);
        return -1;
    case CLI_OPT_CALL:
        return f->opt->call(dest, arg);
    default:
        cli_usage(v, stdout);
        return 1;
    }
}

/* "--name", "--name=value" or "--name value" at argv[*i]; advances *i past what it used. */
static int take_long(const cli_verb_t *v, int argc, char **argv, int *i, void *opts,
                     cli_args_t *a)
{
    const char *name = argv[(*i)++] + 2, *eq = strchr(name, '=');
    size_t len = eq ? (size_t)(eq - name) : strlen(name);
    const char *arg = eq ? eq + 1 : NULL;
    found_t f;
    if (find_long(v, name, len, opts, a, &f) != 0)
        return -1;
    if (f.opt->arg == CLI_ARG_NONE && eq) {
        fprintf(stderr, "clrattach %s: option '--%s' doesn't allow an argument\n", v->name,
                f.opt->name);
        return -1;
    }
    if (f.opt->arg == CLI_ARG_REQUIRED && !eq) {
        if (*i >= argc) {
            fprintf(stderr, "clrattach %s: option '--%s' requires an argument\n", v->name,
                    f.opt->name);
            return -1;
        }
        arg = argv[(*i)++]; /* taken whatever it looks like: "--timeout -5" is a bad number */
    }
    return apply(v, &f, arg);
}

/* "-x", "-xVALUE", "-x VALUE" or flags bundled as "-xy" at argv[*i]. */
static int take_short(const cli_verb_t *v, int argc, char **argv, int *i, void *opts,
                      cli_args_t *a)
{
    found_t f;
    for (const char *p = argv[(*i)++] + 1; *p; p++) {
        if (find_short(v, *p, opts, a, &f) != 0)
            return -1;
        if (f.opt->arg == CLI_ARG_NONE) {
            int rc = apply(v, &f, NULL);
            if (rc)
                return rc;
            continue;
        }
        const char *arg = p[1] ? p + 1 : NULL;
        if (!arg && f.opt->arg == CLI_ARG_REQUIRED) {
            if (*i >= argc) {
                fprintf(stderr, "clrattach %s: option requires an argument -- '%c'\n", v->name,
                        *p);
                return -1;
            }
            arg = argv[(*i)++];
        }
        return apply(v, &f, arg);
    }
    return 0;
}

/* Checks how many positionals came and reads the PID; the messages name what is missing. */
static int take_positionals(const cli_verb_t *v, char **pos, int n, cli_args_t *a)
{
    int by_option = v->pid && (a->pid_opt || a->name_opt);
    int has_pid = v->pid && !by_option;
    int extra = n - (has_pid ? 1 : 0);
    if (!v->pid && v->max_args == 0 && n > 0) {
        fprintf(stderr, "clrattach %s: takes no arguments, got '%s' (see --help)\n", v->name,
                pos[0]);
        return -1;
    }
    if (extra < v->min_args || (v->max_args >= 0 && extra > v->max_args) || (has_pid && n < 1)) {
        fprintf(stderr, "clrattach %s: %s (see --help)\n", v->name, v->args_error);
        return -1;
    }
    if (has_pid && cli_parse_pid(pos[0], &a->pid) != 0)
        return -1;
    if (by_option && cli_pid_of_options(v->name, a) != 0)
        return -1;
    a->args = pos + (has_pid ? 1 : 0);
    a->nargs = extra;
    return 0;
}

/* Walks argv once, in order, so the first problem is the one reported, as getopt_long did. */
int cli_parse(const cli_verb_t *v, int argc, char **argv, void *opts, cli_args_t *a)
{
    int i = 1, n = 0, rest = 0, rc = 0;
    memset(a, 0, sizeof *a);
    a->timeout_ms = v->default_timeout_ms;
    a->fail_exit = EXIT_USAGE;
    while (rc == 0 && i < argc) {
        char *s = argv[i];
        if (rest || s[0] != '-' || s[1] == '\0') {
            argv[1 + n++] = s; /* positionals move to the front, in order */
            i++;
            rest |= v->stop_at_arg;
        } else if (strcmp(s, "--") == 0) {
            rest = 1;
            i++;
        } else {
            rc = s[1] == '-' ? take_long(v, argc, argv, &i, opts, a)
                             : take_short(v, argc, argv, &i, opts, a);
        }
    }
    return rc ? rc : take_positionals(v, argv + 1, n, a);
}
