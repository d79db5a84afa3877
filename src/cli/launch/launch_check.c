/* launch_check.c - the files `clrattach launch` would hand the runtime, checked before COMMAND
 * starts: once the options are read, so a failure reads as text or as the --json result. */
#include "launch/launch.h"
#include "launch/launch_platform.h"

#include <string.h>

void launch_say_detail(const cli_failure_t *f, const void *ctx)
{
    (void)ctx;
    fprintf(stderr, "clrattach launch: %s\n", f->st->detail);
}

/* A bad hook: what, why it is refused here, and what to do. */
static void say_hook(const cli_failure_t *f, const void *ctx)
{
    (void)ctx;
    fprintf(stderr, "clrattach launch: refusing the startup hook %s\n"
            "  why: a hook the runtime cannot load or call ends the program (no error reply "
            "exists for it), so it is checked first; COMMAND was not started\n"
            "  what to do: %s\n", cli_vis(f->st->detail), f->hint);
}

/* The runtime accepts any profiler path and fails silently later; a hook it cannot run ends
 * the program. Launch runs COMMAND in our own mount namespace, so both are checked here. */
int launch_check_inputs(const launch_opts_t *o, cli_failure_t *f, clra_status_t *st)
{
    memset(st, 0, sizeof *st);
    *f = (cli_failure_t){.rc = CLRA_EINVAL, .st = st, .action = "launch",
                         .exit_code = EXIT_USAGE};
    const char *problem = o->profiler[0] ? launch_profiler_problem(o->profiler) : NULL;
    if (problem) {
        snprintf(st->detail, sizeof st->detail, "cannot read the profiler %.400s: %s", o->profiler,
                 problem);
        f->hint = "pass a readable profiler library with --profiler";
        f->say = launch_say_detail;
        return CLRA_EINVAL;
    }
    for (int i = 0; i < o->nhooks; i++) {
        int rc = clra_startup_hook_check(o->hooks[i], st);
        if (rc == 0)
            continue;
        f->rc = rc;
        f->hint = "pass a .dll with a class StartupHook outside any namespace declaring "
                  "`public static void Initialize()`";
        f->say = say_hook;
        return rc;
    }
    return 0;
}
