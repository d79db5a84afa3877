/* Unit tests of the CLI's option parser (src/cli/base/options.c) and its generated help
 * (base/usage.c). */
#define _GNU_SOURCE
#include "base/cli.h"
#include "base/options.h"
#include "base/usage.h"
#include "test.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct demo_opts {
    int hold, stage, calls;
    const char *data;
    long long attach_ms, duration_s;
    clra_guid_t clsid;
    const char *level; /* the optional argument of --log */
} demo_opts_t;

/* --log[=LEVEL]: records the value, "on" when none was given. */
static int take_log(void *dest, const char *arg)
{
    *(const char **)dest = arg ? arg : "on";
    CLI_CONTAINER(dest, demo_opts_t, level)->calls++;
    return 0;
}

static const cli_opt_t demo_opts[] = {
    CLI_FLAG("hold", demo_opts_t, hold, "stay running"),
    CLI_FLAG("stage", demo_opts_t, stage, "copy it first"),
    CLI_STRING("data", demo_opts_t, data, "TEXT", "client data"),
    CLI_STRING("data-file", demo_opts_t, data, "FILE", "client data from a file"),
    CLI_INT("attach-timeout", demo_opts_t, attach_ms, "MS", 0, 5000, "wait for a GC"),
    CLI_GUID("clsid", demo_opts_t, clsid, "the class"),
    CLI_DURATION_DAY("duration", demo_opts_t, duration_s, "for S seconds"),
    CLI_CALL("log", CLI_ARG_OPTIONAL, demo_opts_t, level, "LEVEL", take_log, "log it"),
    CLI_END,
};

static const cli_verb_t demo = {
    .name = "demo",
    .synopsis = "PID PATH",
    .description = "Does a demo.\n",
    .epilogue = "exit codes: 0 fine.\n",
    .opts = demo_opts,
    .common = CLI_COMMON_JSON | CLI_COMMON_TIMEOUT,
    .timeout_help = "how long it may take",
    .default_timeout_ms = 1234,
    .pid = 1,
    .min_args = 1,
    .max_args = 1,
    .args_error = "expected PID and PATH",
};

/* What the last parse wrote on stderr. */
static char err_text[4096];

/* Parses a NULL-terminated list after the verb, capturing stderr into err_text. */
static int parse(demo_opts_t *o, cli_args_t *a, const char *first, ...)
{
    char *argv[32];
    int argc = 0;
    va_list ap;
    argv[argc++] = (char *)"demo";
    va_start(ap, first);
    for (const char *s = first; s && argc < 31; s = va_arg(ap, const char *))
        argv[argc++] = (char *)s;
    va_end(ap);
    argv[argc] = NULL;
    memset(o, 0, sizeof *o);
    FILE *tmp = tmpfile();
    int saved = dup(2);
    fflush(stderr);
    dup2(fileno(tmp), 2);
    int rc = cli_parse(&demo, argc, argv, o, a);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    rewind(tmp);
    size_t n = fread(err_text, 1, sizeof err_text - 1, tmp);
    err_text[n] = '\0';
    fclose(tmp);
    return rc;
}

TEST(cli_options_mix_with_positionals_in_any_order)
{
    demo_opts_t o;
    cli_args_t a;
    ASSERT_EQ(parse(&o, &a, "--hold", "42", "--data", "x y", "lib.so", "--json", NULL), 0);
    ASSERT_EQ(o.hold, 1);
    ASSERT_STREQ(o.data, "x y");
    ASSERT_EQ(a.json, 1);
    ASSERT_EQ(a.pid, 42);
    ASSERT_EQ(a.nargs, 1);
    ASSERT_STREQ(a.args[0], "lib.so");
    ASSERT_EQ(a.timeout_ms, 1234); /* the verb's default */
    ASSERT_EQ(parse(&o, &a, "42", "lib.so", "--timeout=99", "--attach-timeout", "0", NULL), 0);
    ASSERT_EQ(a.timeout_ms, 99);
    ASSERT_EQ(o.attach_ms, 0);
    ASSERT_STREQ(err_text, "");
}

TEST(cli_options_accept_unambiguous_prefixes_and_prefer_exact_names)
{
    demo_opts_t o;
    cli_args_t a;
    ASSERT_EQ(parse(&o, &a, "--ho", "--st", "--js", "--time", "7", "1", "p", NULL), 0);
    ASSERT_EQ(o.hold, 1);
    ASSERT_EQ(o.stage, 1);
    ASSERT_EQ(a.json, 1);
    ASSERT_EQ(a.timeout_ms, 7);
    /* "--data" is a name of its own although "--data-file" starts with it. */
    ASSERT_EQ(parse(&o, &a, "--data", "d", "1", "p", NULL), 0);
    ASSERT_STREQ(o.data, "d");
    ASSERT_EQ(parse(&o, &a, "--data-f", "f", "1", "p", NULL), 0);
    ASSERT_STREQ(o.data, "f");
}

TEST(cli_options_refuse_an_ambiguous_prefix_naming_the_candidates)
{
    demo_opts_t o;
    cli_args_t a;
    ASSERT_EQ(parse(&o, &a, "--h", "1", "p", NULL), -1);
    ASSERT_CONTAINS(err_text, "option '--h' is ambiguous");
    ASSERT_CONTAINS(err_text, "'--hold'");
    ASSERT_CONTAINS(err_text, "'--help'");
    ASSERT_EQ(parse(&o, &a, "--dat", "x", "1", "p", NULL), -1);
    ASSERT_CONTAINS(err_text, "'--data' '--data-file'");
    ASSERT_EQ(parse(&o, &a, "--bogus", "1", "p", NULL), -1);
    ASSERT_CONTAINS(err_text, "unrecognized option '--bogus'");
    ASSERT_EQ(parse(&o, &a, "-q", "1", "p", NULL), -1);
    ASSERT_CONTAINS(err_text, "invalid option -- 'q'");
}

TEST(cli_options_say_when_an_argument_is_missing_or_unwanted)
{
    demo_opts_t o;
    cli_args_t a;
    ASSERT_EQ(parse(&o, &a, "1", "p", "--data", NULL), -1);
    ASSERT_CONTAINS(err_text, "option '--data' requires an argument");
    ASSERT_EQ(parse(&o, &a, "--hold=1", "1", "p", NULL), -1);
    ASSERT_CONTAINS(err_text, "option '--hold' doesn't allow an argument");
    /* A required argument is the next word whatever it looks like, as with getopt_long. */
    ASSERT_EQ(parse(&o, &a, "--data", "--json", "1", "p", NULL), 0);
    ASSERT_STREQ(o.data, "--json");
    ASSERT_EQ(a.json, 0);
}

TEST(cli_options_check_numbers_guids_and_pids)
{
    demo_opts_t o;
    cli_args_t a;
    ASSERT_EQ(parse(&o, &a, "--timeout", "0", "1", "p", NULL), -1);
    ASSERT_CONTAINS(err_text, "--timeout must be a whole number from 1 to 86400000, not '0'");
    ASSERT_EQ(parse(&o, &a, "--attach-timeout", "12ms", "1", "p", NULL), -1);
    ASSERT_CONTAINS(err_text, "--attach-timeout must be a whole number from 0 to 5000");
    ASSERT_EQ(parse(&o, &a, "--attach-timeout", "-5", "1", "p", NULL), -1);
    ASSERT_EQ(parse(&o, &a, "--clsid", "not-a-guid", "1", "p", NULL), -1);
    ASSERT_CONTAINS(err_text, "--clsid wants a GUID");
    ASSERT_EQ(parse(&o, &a, "--clsid", "{5E3E0C65-3E00-442D-B0AD-7F2D7F8946DF}", "1", "p", NULL),
              0);
    ASSERT_EQ(o.clsid.data1, 0x5E3E0C65u);
    ASSERT_EQ(parse(&o, &a, "12x", "p", NULL), -1);
    ASSERT_CONTAINS(err_text, "PID must be a whole number");
}

TEST(cli_options_take_the_dotnet_tools_spellings_of_the_target)
{
    demo_opts_t o;
    cli_args_t a;
    ASSERT_EQ(parse(&o, &a, "-p", "42", "lib.so", NULL), 0);
    ASSERT_EQ(a.pid, 42);
    ASSERT_EQ(a.nargs, 1);
    ASSERT_STREQ(a.args[0], "lib.so");
    ASSERT_EQ(parse(&o, &a, "lib.so", "--process-id=43", NULL), 0);
    ASSERT_EQ(a.pid, 43);
    ASSERT_STREQ(a.args[0], "lib.so");
    ASSERT_EQ(parse(&o, &a, "-p", "42", "43", "lib.so", NULL), -1); /* the PID twice */
    ASSERT_CONTAINS(err_text, "expected PID and PATH");
    ASSERT_EQ(parse(&o, &a, "-p", "42", "-n", "app", "lib.so", NULL), -1);
    ASSERT_CONTAINS(err_text, "not both");
    ASSERT_EQ(parse(&o, &a, "-p", "4x", "lib.so", NULL), -1);
    ASSERT_CONTAINS(err_text, "PID must be a whole number");
    ASSERT_EQ(a.fail_exit, EXIT_USAGE);
    ASSERT_EQ(parse(&o, &a, "-n", "clra-no-such-process-name", "lib.so", "--timeout", "2000",
                    NULL), -1);
    ASSERT_CONTAINS(err_text, "no .NET process named 'clra-no-such-process-name'");
    ASSERT_EQ(a.fail_exit, EXIT_NOPROC);
}

TEST(cli_options_read_a_duration_as_seconds_or_as_a_dotnet_timespan)
{
    static const struct { const char *text; long long want; } cases[] = {
        {"5", 5}, {"00:00:00:05", 5}, {"01:02:03", 3723}, {"1:00:00:00", 86400},
        {"00:01:00", 60}, {"0", -1}, {"00:00:00:00", -1}, {"00:60:00", -1}, {"1:24:00:00", -1},
        {"2:00:00:00", -1}, {"5s", -1}, {"00:00:05.5", -1}, {"1:2:3:4:5", -1}, {"", -1},
        {"::", -1}, {"00:05", -1}, {"99999999999", -1}, {"-5", -1}, {" 5", -1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        demo_opts_t o;
        cli_args_t a;
        int rc = parse(&o, &a, "--duration", cases[i].text, "1", "p", NULL);
        if (cases[i].want < 0) {
            ASSERT_EQ(rc, -1);
            ASSERT_CONTAINS(err_text, "--duration must be whole seconds (5) or [dd:]hh:mm:ss");
        } else {
            ASSERT_EQ(rc, 0);
            ASSERT_EQ(o.duration_s, cases[i].want);
        }
    }
}

TEST(cli_options_count_positionals)
{
    demo_opts_t o;
    cli_args_t a;
    ASSERT_EQ(parse(&o, &a, "1", NULL), -1);
    ASSERT_CONTAINS(err_text, "clrattach demo: expected PID and PATH (see --help)");
    ASSERT_EQ(parse(&o, &a, "1", "p", "q", NULL), -1);
    ASSERT_EQ(parse(&o, &a, NULL), -1);
}

TEST(cli_options_end_at_double_dash)
{
    demo_opts_t o;
    cli_args_t a;
    ASSERT_EQ(parse(&o, &a, "--hold", "--", "1", "--json", NULL), 0);
    ASSERT_EQ(o.hold, 1);
    ASSERT_EQ(a.json, 0);
    ASSERT_STREQ(a.args[0], "--json");
    /* A lone "-" is a positional, as getopt_long has it. */
    ASSERT_EQ(parse(&o, &a, "1", "-", NULL), 0);
    ASSERT_STREQ(a.args[0], "-");
}

TEST(cli_options_take_optional_arguments_only_after_equals)
{
    demo_opts_t o;
    cli_args_t a;
    ASSERT_EQ(parse(&o, &a, "--log", "1", "p", NULL), 0);
    ASSERT_STREQ(o.level, "on");
    ASSERT_EQ(o.calls, 1);
    ASSERT_EQ(parse(&o, &a, "--log=verbose", "1", "p", NULL), 0);
    ASSERT_STREQ(o.level, "verbose");
}

TEST(cli_options_stop_at_the_first_positional_when_the_verb_says_so)
{
    static const cli_verb_t runner = {.name = "run", .synopsis = "COMMAND", .description = "R.\n",
                                      .opts = demo_opts, .common = CLI_COMMON_TIMEOUT,
                                      .default_timeout_ms = 5, .min_args = 1, .max_args = -1,
                                      .stop_at_arg = 1, .args_error = "expected COMMAND"};
    char *argv[] = {"run", "--hold", "prog", "--json", "--hold", NULL};
    demo_opts_t o;
    cli_args_t a;
    memset(&o, 0, sizeof o);
    ASSERT_EQ(cli_parse(&runner, 5, argv, &o, &a), 0);
    ASSERT_EQ(o.hold, 1);
    ASSERT_EQ(a.nargs, 3);
    ASSERT_STREQ(a.args[0], "prog");
    ASSERT_STREQ(a.args[1], "--json");
    ASSERT_STREQ(a.args[2], "--hold");
}

TEST(cli_options_help_is_generated_with_every_option)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ASSERT(f != NULL);
    cli_usage(&demo, f);
    fclose(f);
    ASSERT_CONTAINS(text, "usage: clrattach demo [--hold] [--stage] [--data TEXT] "
                          "[--data-file FILE]\n"
                          "                      [--attach-timeout MS] [--clsid GUID]");
    ASSERT_CONTAINS(text, "[--timeout MS] PID PATH\n");
    for (const cli_opt_t *o = demo_opts; o->kind; o++) {
        char name[64];
        snprintf(name, sizeof name, "  --%s", o->name);
        ASSERT_CONTAINS(text, name);
        ASSERT_CONTAINS(text, o->help);
    }
    ASSERT_CONTAINS(text, "--log[=LEVEL]");
    ASSERT_CONTAINS(text, "--attach-timeout MS");
    ASSERT_CONTAINS(text, "--json");
    ASSERT_CONTAINS(text, "--timeout MS");
    ASSERT_CONTAINS(text, "how long it may take (default 1234)");
    ASSERT_CONTAINS(text, "-h, --help");
    ASSERT_CONTAINS(text, "exit codes: 0 fine.");
    for (char *line = text; *line; line = strchr(line, '\n') + 1)
        ASSERT_MSG(strcspn(line, "\n") <= 92, "a help line is too wide: %.100s", line);
    free(text);
}

TEST(cli_options_help_prints_and_reports_it)
{
    demo_opts_t o;
    cli_args_t a;
    fflush(stdout);
    int saved = dup(1);
    FILE *tmp = tmpfile();
    dup2(fileno(tmp), 1);
    int rc = parse(&o, &a, "--hel", NULL);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    fclose(tmp);
    ASSERT_EQ(rc, 1); /* before the missing PID is noticed, as getopt_long's callers did */
}

/* Options shaped like trace's and profile's: one very long name, hand breaks written for
 * another width, help long enough to wrap several times. */
typedef struct wide_opts {
    const char *filter, *format, *out;
    int all;
} wide_opts_t;

static const cli_opt_t wide_opts[] = {
    CLI_STRING("format", wide_opts_t, format, "FORMAT",
               "flamegraph|folded|speedscope|pprof|top (default: from the extension of\n"
               "FILE: .html, .folded/.txt, .json, .pb/.pb.gz)"),
    CLI_STRING("stopping-event-payload-filter", wide_opts_t, filter, "FILTER",
               "with --stopping-event-event-name: FIELD:VALUE[,FIELD:VALUE...], only an event "
               "whose payload fields have these values (compared as text; bools True/False)"),
    CLI_STRING("output", wide_opts_t, out, "FILE", "write the profile to FILE (default: the "
               "top table on stdout)"),
    CLI_FLAG("all", wide_opts_t, all, "every one of them, whichever way they were written down"),
    CLI_FLAG("stage", wide_opts_t, all, "copy it first"), /* fills the synopsis up to the PID */
    CLI_END,
};

static const cli_verb_t wide = {
    .name = "wide", .synopsis = "PID", .description = "Wide.\n", .opts = wide_opts,
    .common = CLI_COMMON_JSON | CLI_COMMON_TIMEOUT, .default_timeout_ms = 30000, .pid = 1,
};

/* The help of verb v, generated into a string the caller frees. */
static char *help_text(const cli_verb_t *v)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return NULL;
    cli_usage(v, f);
    fclose(f);
    return text;
}

/* The column an option's help starts at on its label's line, -1 when it has none there. */
static int help_column(const char *line, size_t n)
{
    if (n < 3 || line[0] != ' ' || line[2] != '-')
        return -1; /* blank lines and text: no option label */
    const char *gap = memmem(line + 2, n - 2, "  ", 2);
    if (!gap)
        return -1;
    size_t col = (size_t)(gap - line) + strspn(gap, " ");
    return col < n ? (int)col : -1;
}

TEST(cli_usage_keeps_every_line_within_80_columns)
{
    char *text = help_text(&wide);
    ASSERT(text != NULL);
    for (char *line = text; *line; line = strchr(line, '\n') + 1)
        ASSERT_MSG(strcspn(line, "\n") <= 80, "a help line is too wide: %.100s", line);
    free(text);
}

TEST(cli_usage_strands_no_single_word_on_a_continuation_line)
{
    char *text = help_text(&wide);
    ASSERT(text != NULL);
    for (char *line = text; *line; line = strchr(line, '\n') + 1) {
        size_t n = strcspn(line, "\n"), lead = strspn(line, " ");
        if (lead > 2 && lead < n)
            ASSERT_MSG(memchr(line + lead, ' ', n - lead) != NULL,
                       "one word alone on a line: %.*s", (int)n, line);
    }
    ASSERT_CONTAINS(text, "extension of FILE:"); /* the break after "of" is not kept */
    free(text);
}

TEST(cli_usage_puts_a_long_option_name_on_its_own_line_and_keeps_the_column_narrow)
{
    char *text = help_text(&wide);
    ASSERT(text != NULL);
    ASSERT_CONTAINS(text, "\n  --stopping-event-payload-filter FILTER\n");
    int col = -1;
    for (char *line = text; *line; line = strchr(line, '\n') + 1) {
        int c = help_column(line, strcspn(line, "\n"));
        ASSERT_MSG(c < 0 || col < 0 || c == col, "help starts at %d and at %d", col, c);
        if (c >= 0)
            col = c;
    }
    ASSERT(col >= 0 && col <= 28);
    char want[64];
    snprintf(want, sizeof want, "FILTER\n%*swith --stopping", col, "");
    ASSERT_CONTAINS(text, want);
    free(text);
}
