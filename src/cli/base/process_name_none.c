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

/* Only cli_target_pid refers to it, with --name's text, which this option table never fills. */
int cli_pid_by_name(const char *name, long long timeout_ms, int *pid)
{
    (void)name, (void)timeout_ms, (void)pid;
    fprintf(stderr, "clrattach: this build has no --name; give the PID\n");
    return EXIT_USAGE;
}
