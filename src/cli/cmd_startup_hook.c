/* cmd_startup_hook.c - `clrattach startup-hook`: run a managed StartupHook.Initialize inside a
 * running process (ApplyStartupHook, .NET 8 and later). */
#define _GNU_SOURCE
#include "cli.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define DEFAULT_HOOK_TIMEOUT_MS 30000

static void hook_usage(FILE *f)
{
    fprintf(f,
            "usage: clrattach startup-hook [options] PID ASSEMBLY\n"
            "\n"
            "Asks the runtime in .NET process PID (.NET 8 or later) to load the managed assembly\n"
            "ASSEMBLY and call its StartupHook.Initialize() (a class named StartupHook outside\n"
            "any namespace, with public static void Initialize()); it returns once Initialize\n"
            "has returned. ASSEMBLY is made absolute here and opened by the target, inside its\n"
            "mount namespace. The runtime ends the process when a hook cannot be loaded, lacks\n"
            "Initialize or throws, so ASSEMBLY is checked first (exists, readable, an assembly\n"
            "with that method) and refused before the runtime is contacted. Applying the same\n"
            "hook again calls Initialize again.\n"
            "\n"
            "options:\n"
            "  --timeout MS   deadline for the whole command in milliseconds (default %d)\n"
            "  --json         print one JSON object instead of text\n"
            "  --help         show this help\n"
            "\n"
            "exit codes: 0 Initialize ran, 2 usage or ASSEMBLY is not a usable hook, 3 no such\n"
            "process, 5 no endpoint, 6 permission denied, 7 timed out, 8 connection lost (the\n"
            "hook threw and the process is ending) or protocol failure, 10 the runtime refused\n"
            "(the HRESULT is printed).\n",
            DEFAULT_HOOK_TIMEOUT_MS);
}

typedef struct hook_opts {
    int pid, json, other_ns;
    long long timeout_ms;
    char path[CLRA_PATH_MAX];
    char local[CLRA_PATH_MAX]; /* the same file as seen from here */
} hook_opts_t;

static int parse_options(int argc, char **argv, hook_opts_t *o)
{
    static const struct option longs[] = {{"timeout", required_argument, 0, 't'},
                                          {"json", no_argument, 0, 'j'},
                                          {"help", no_argument, 0, 'h'},
                                          {0, 0, 0, 0}};
    int c, bad = 0, npos = 0;
    char *pos[2];
    o->timeout_ms = DEFAULT_HOOK_TIMEOUT_MS;
    optind = 1;
    while (!bad && (c = cli_getopt(argc, argv, longs, pos, 2, &npos)) != -1) {
        if (c == 't') {
            bad = cli_parse_int("--timeout", optarg, 1, 86400000, &o->timeout_ms);
        } else if (c == 'j') {
            o->json = 1;
        } else if (c == 'h') {
            hook_usage(stdout);
            exit(EXIT_OK);
        } else {
            bad = 1;
        }
    }
    if (bad)
        return -1;
    if (npos != 2) {
        fprintf(stderr, "clrattach startup-hook: expected PID and ASSEMBLY (see --help)\n");
        return -1;
    }
    if (cli_parse_pid(pos[0], &o->pid) != 0)
        return -1;
    if (cli_absolute_path(pos[1], o->path, sizeof o->path) != 0) {
        fprintf(stderr, "clrattach: cannot make '%s' an absolute path\n", pos[1]);
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
                o->pid, st.detail, o->pid, o->other_ns ? ", inside its mount namespace" : "");
        return -1;
    }
    if (o->other_ns && !o->json)
        fprintf(stderr, "clrattach: note: process %d is in another mount namespace; the runtime "
                "opens %s there (seen from here as %s)\n", o->pid, o->path, o->local);
    return 0;
}

static double elapsed_ms(const struct timespec *t0)
{
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (t1.tv_sec - t0->tv_sec) * 1e3 + (t1.tv_nsec - t0->tv_nsec) / 1e6;
}

static void report(const hook_opts_t *o, int rc, const clra_status_t *st, double ms)
{
    if (o->json) {
        json_out_t j;
        json_begin(&j, stdout);
        json_bool(&j, "ok", rc == 0);
        json_int(&j, "pid", o->pid);
        json_str(&j, "assembly", o->path);
        json_bool(&j, "other_mount_ns", o->other_ns);
        json_double(&j, "elapsed_ms", ms);
        json_int(&j, "exit_code", cli_exit_code(rc));
        if (rc)
            cli_report_error("apply a startup hook in", o->pid, rc, st, &j);
        json_end(&j);
    } else if (rc == 0) {
        printf("applied startup hook %s in process %d in %.1f ms\n", o->path, o->pid, ms);
    } else {
        cli_report_error("apply a startup hook in", o->pid, rc, st, NULL);
    }
}

int cmd_startup_hook(int argc, char **argv)
{
    hook_opts_t o;
    clra_status_t st;
    struct timespec t0;
    memset(&o, 0, sizeof o);
    if (parse_options(argc, argv, &o) != 0 || check_assembly(&o) != 0)
        return EXIT_USAGE;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    clra_target_t target = clra_target_pid(o.pid);
    int rc = clra_startup_hook_apply(&target, o.path, (int)o.timeout_ms, &st);
    report(&o, rc, &st, elapsed_ms(&t0));
    return cli_exit_code(rc);
}
