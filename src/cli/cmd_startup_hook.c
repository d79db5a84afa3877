/* cmd_startup_hook.c - `clrattach startup-hook`: run a managed StartupHook.Initialize inside a
 * running process (ApplyStartupHook, .NET 8 and later). */
#define _GNU_SOURCE
#include "verbs.h"
#include "base/cli.h"
#include "base/options.h"

#include <stdlib.h>
#include <string.h>

#define DEFAULT_HOOK_TIMEOUT_MS 30000

static const cli_verb_t hook_verb = {
    .name = "startup-hook",
    .synopsis = "PID ASSEMBLY",
    .description =
        "Asks the runtime in .NET process PID (.NET 8 or later) to load the managed\n"
        "assembly ASSEMBLY and call its StartupHook.Initialize() (a class named\n"
        "StartupHook outside any namespace, with public static void Initialize()); it\n"
        "returns once Initialize has returned. ASSEMBLY is made absolute here and opened\n"
        "by the target, inside its mount namespace. The runtime ends the process when a\n"
        "hook cannot be loaded, lacks Initialize or throws, so ASSEMBLY is checked first\n"
        "(exists, readable, an assembly with that method) and refused before the runtime\n"
        "is contacted. Applying the same hook again calls Initialize again.\n",
    .epilogue =
        "exit codes: 0 Initialize ran, 2 usage or ASSEMBLY is not a usable hook, 3 no\n"
        "such process, 5 no endpoint, 6 permission denied, 7 timed out, 8 connection lost\n"
        "(the hook threw and the process is ending) or protocol failure, 10 the runtime\n"
        "refused (the HRESULT is printed).\n",
    .common = CLI_COMMON_JSON | CLI_COMMON_TIMEOUT,
    .default_timeout_ms = DEFAULT_HOOK_TIMEOUT_MS,
    .pid = 1,
    .min_args = 1,
    .max_args = 1,
    .args_error = "expected PID and ASSEMBLY",
};

typedef struct hook_opts {
    int pid, json, other_ns;
    int parse_exit; /* the exit code of a refused command line */
    long long timeout_ms;
    char path[CLRA_PATH_MAX];
    char local[CLRA_PATH_MAX]; /* the same file as seen from here */
} hook_opts_t;

/* The shared options and PID ASSEMBLY; 0, 1 after the help, -1 after saying why. */
static int parse_options(int argc, char **argv, hook_opts_t *o)
{
    cli_args_t a;
    int p = cli_parse(&hook_verb, argc, argv, NULL, &a);
    o->parse_exit = a.fail_exit;
    if (p != 0)
        return p;
    o->pid = a.pid;
    o->json = a.json;
    o->timeout_ms = a.timeout_ms;
    if (cli_absolute_path(a.args[0], o->path, sizeof o->path) != 0) {
        cli_say_path_problem("clrattach", a.args[0], sizeof o->path);
        return -1;
    }
    return 0;
}

/* A hook the runtime cannot run ends the target on .NET 10 (no error reply exists for it), so
 * the assembly is checked as the target will see it before the runtime is asked. */
static int check_assembly(hook_opts_t *o)
{
    clra_status_t st;
    if (clra_target_path_resolve(o->pid, o->path, o->local, sizeof o->local, &o->other_ns) != 0)
        snprintf(o->local, sizeof o->local, "%s", o->path); /* no such pid: reported later */
    if (clra_startup_hook_check(o->local, &st) != 0) {
        fprintf(stderr, "clrattach: refusing to apply a startup hook to process %d: %s\n"
                "  why: a hook the runtime cannot load or call ends the target process (no error "
                "reply exists for it), so the file is checked first; process %d was not "
                "contacted\n  what to do: pass a .dll (as the target sees it%s) with a class "
                "StartupHook outside any namespace declaring `public static void Initialize()`\n",
                o->pid, cli_vis(st.detail), o->pid, o->other_ns ? ", inside its mount namespace" : "");
        return -1;
    }
    if (o->other_ns && !o->json)
        fprintf(stderr, "clrattach: note: process %d is in another mount namespace; the runtime "
                "opens %s there (seen from here as %s)\n", o->pid, o->path, o->local);
    return 0;
}

/* The assembly is checked before the runtime is contacted: a bad hook kills the target. */
int cmd_startup_hook(int argc, char **argv)
{
    hook_opts_t o;
    clra_status_t st;
    cli_run_t run;
    memset(&o, 0, sizeof o);
    int p = parse_options(argc, argv, &o);
    if (p != 0)
        return p > 0 ? EXIT_OK : o.parse_exit;
    if (check_assembly(&o) != 0)
        return EXIT_USAGE;
    cli_run_begin(&run, o.pid, o.json);
    clra_target_t target = clra_target_pid(o.pid);
    int rc = clra_startup_hook_apply(&target, o.path, (int)o.timeout_ms, &st);
    json_out_t *j = cli_result_open(&run, rc == 0);
    if (j) {
        json_str(j, "assembly", o.path);
        json_bool(j, "other_mount_ns", o.other_ns);
    } else if (rc == 0) {
        printf("applied startup hook %s in process %d in %.1f ms\n", o.path, o.pid,
               cli_run_ms(&run));
    }
    cli_failure_t f = {.rc = rc, .st = &st, .action = "apply a startup hook in"};
    return cli_result_close(&run, rc ? &f : NULL);
}
