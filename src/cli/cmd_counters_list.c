/* cmd_counters_list.c - `clrattach counters list`: the well-known counter providers and their
 * counters for one .NET version, from the table in counters_known.c. */
#include "verbs.h"
#include "base/cli.h"
#include "counters/counters_known.h"
#include "base/options.h"

#include <stdlib.h>
#include <string.h>

typedef struct list_opts {
    const char *runtime_version;
} list_opts_t;

static const cli_opt_t list_opts[] = {
    CLI_STRING("runtime-version", list_opts_t, runtime_version, "VERSION",
               "the .NET version whose counters to list: 6 to 10, as 8, 8.0 or 8.0.31 (default "
               "10)"),
    CLI_END,
};

static const cli_verb_t list_verb = {
    .name = "counters list",
    .synopsis = "",
    .description =
        "Lists the well-known counter providers (System.Runtime, ASP.NET Core, Kestrel,\n"
        "HttpClient, sockets, DNS) with each counter's name, units, how clrattach\n"
        "counters shows it (Rate, Metric or Percentiles) and what it measures. A provider\n"
        "per line; its counters follow, indented four spaces; columns are two or more\n"
        "spaces apart and only the last one holds spaces; '-' stands for no units; lines\n"
        "starting with '#' are comments.\n",
    .epilogue = "examples:\n"
                "  clrattach counters list\n"
                "  clrattach counters list --runtime-version 8.0\n"
                "\n"
                "exit codes: 0 listed, 2 usage.\n",
    .opts = list_opts,
    .max_args = 0,
    .args_error = "expected no arguments",
};

/* The major version of "8", "8.0" or "8.0.31"; 0 when it is none of those. */
static unsigned major_of(const char *v)
{
    char *end;
    unsigned long m = strtoul(v, &end, 10);
    if (end == v || (*end && *end != '.') || m > 1000)
        return 0;
    return (unsigned)m;
}

int cmd_counters_list(int argc, char **argv)
{
    list_opts_t o = {0};
    cli_args_t a;
    int p = cli_parse(&list_verb, argc, argv, &o, &a);
    if (p)
        return p > 0 ? EXIT_OK : EXIT_USAGE;
    unsigned major = o.runtime_version ? major_of(o.runtime_version) : COUNTERS_KNOWN_NEWEST;
    if (major < COUNTERS_KNOWN_OLDEST || major > COUNTERS_KNOWN_NEWEST) {
        fprintf(stderr, "clrattach counters list: --runtime-version %s: expected %d to %d (8, "
                "8.0 or 8.0.31)\n", cli_vis(o.runtime_version), COUNTERS_KNOWN_OLDEST,
                COUNTERS_KNOWN_NEWEST);
        return EXIT_USAGE;
    }
    counters_known_write(stdout, major);
    return fflush(stdout) == 0 ? EXIT_OK : EXIT_INTERNAL;
}
