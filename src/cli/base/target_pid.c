/* target_pid.c - a verb's target as trace takes it: one positional PID or --name NAME (the
 * static container command's option table has no --name, so there it is always the PID). */
#include "base/cli.h"

/* One check for both builds: name stays NULL where --name is left out. */
int cli_target_pid(const char *name, char **args, int nargs, long long timeout_ms, int *pid)
{
    if (name && nargs > 0) {
        fprintf(stderr, "clrattach: give a PID or --name, not both\n");
        return EXIT_USAGE;
    }
    if (name)
        return cli_pid_by_name(name, timeout_ms, pid);
    if (nargs != 1) {
        fprintf(stderr, "clrattach: expected one PID, or --name NAME (see --help)\n");
        return EXIT_USAGE;
    }
    return cli_parse_pid(args[0], pid) == 0 ? EXIT_OK : EXIT_USAGE;
}
