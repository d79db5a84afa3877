/* process_name_none.c - the static container command has no -n/--name (its option table leaves
 * it out: the lookup and its case-blind compares cost 1.3 KB of the 150 KB budget, and in a
 * container `clrattach ps` lists the few pids there are): -p only, and trace's PID. */
#include "base/cli.h"
#include "base/option_table.h"

int cli_pid_of_options(const char *verb, struct cli_args *a)
{
    (void)verb;
    return cli_parse_pid(a->pid_opt, &a->pid);
}

int cli_target_pid(const char *name, char **args, int nargs, long long timeout_ms, int *pid)
{
    (void)name, (void)timeout_ms;
    if (nargs != 1) {
        fprintf(stderr, "clrattach: expected one PID (see --help)\n");
        return EXIT_USAGE;
    }
    return cli_parse_pid(args[0], pid) == 0 ? EXIT_OK : EXIT_USAGE;
}
