/* verb_args.c - the options every diagnostics verb shares (--json, --timeout, --help), so each
 * verb file only handles what is its own. */
#define _GNU_SOURCE
#include "cli.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

int cli_parse_common(int argc, char **argv, const cli_verb_spec_t *spec, cli_common_t *o)
{
    struct option longs[] = {{"json", no_argument, 0, 'j'},
                             {"timeout", required_argument, 0, 't'},
                             {"help", no_argument, 0, 'h'},
                             {spec->option, required_argument, 0, 'o'},
                             {0, 0, 0, 0}};
    int c;
    if (!spec->option) /* no extra option: end the table there, not with a second "help" */
        memset(&longs[3], 0, sizeof longs[3]);
    memset(o, 0, sizeof *o);
    o->timeout_ms = spec->default_timeout_ms;
    optind = 1;
    opterr = 1;
    /* Options may come before or after the PID; '--' ends them (e.g. for a value like "-1"). */
    while ((c = getopt_long(argc, argv, "", longs, NULL)) != -1) {
        if (c == 'j') {
            o->json = 1;
        } else if (c == 'o') {
            o->option = optarg;
        } else if (c == 't') {
            if (cli_parse_int("--timeout", optarg, 1, 86400000, &o->timeout_ms) != 0)
                return -1;
        } else if (c == 'h') {
            spec->usage(stdout);
            exit(EXIT_OK);
        } else {
            return -1;
        }
    }
    int n = argc - optind;
    if (n < 1 + spec->min_args || n > 1 + spec->max_args) {
        fprintf(stderr, "clrattach %s: expected PID%s%s (see --help)\n", spec->name,
                spec->args[0] ? " " : "", spec->args);
        return -1;
    }
    if (cli_parse_pid(argv[optind], &o->pid) != 0)
        return -1;
    o->args = argv + optind + 1;
    o->nargs = n - 1;
    return 0;
}
