/* cmd_perfmap.c - `clrattach perfmap`: make a running process write perf maps (or stop), and
 * say where the files are, as seen from here. */
#include "verbs.h"
#include "base/cli.h"
#include "base/options.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define DEFAULT_TIMEOUT_MS 10000

typedef struct perfmap_opts {
    const char *type; /* --type as given, NULL when not */
} perfmap_opts_t;

static const cli_opt_t perfmap_opts[] = {
    CLI_STRING("type", perfmap_opts_t, type, "TYPE",
               "with enable: perfmap, jitdump or all (the default)"),
    CLI_END,
};

static const cli_verb_t perfmap_verb = {
    .name = "perfmap",
    .synopsis = "PID enable",
    .synopsis2 = "PID disable",
    .description =
        "Makes .NET process PID (.NET 8 or later) write symbol maps for code it compiles\n"
        "from now on, so perf can name JIT-compiled frames: perf-<pid>.map (--type\n"
        "perfmap), jit-<pid>.dump for 'perf inject --jit' (--type jitdump), or both\n"
        "(--type all, the default). The files go to the target's\n"
        "DOTNET_PerfMapJitDumpPath, else /tmp (not TMPDIR); <pid> is the pid inside the\n"
        "target's namespace. 'disable' stops writing.\n",
    .opts = perfmap_opts,
    .epilogue =
        "exit codes: 0 enabled or disabled, 2 usage, 3 no such process, 4 not .NET, 5 no\n"
        "endpoint, 6 permission denied, 7 timed out, 8 connection/protocol failure, 10\n"
        "the runtime refused (the HRESULT is printed).\n",
    .common = CLI_COMMON_JSON | CLI_COMMON_TIMEOUT,
    .default_timeout_ms = DEFAULT_TIMEOUT_MS,
    .pid = 1,
    .min_args = 1,
    .max_args = 1,
    .args_error = "expected PID enable [--type T] | disable",
};

/* "enable [--type T]" or "disable" after the PID: 1 enable, 0 disable, -1 bad. */
static int parse_action(const cli_args_t *a, const perfmap_opts_t *o, clra_perfmap_type_t *type)
{
    static const char *const names[] = {NULL, "all", "jitdump", "perfmap"};
    int enable = strcmp(a->args[0], "enable") == 0;
    *type = CLRA_PERFMAP_ALL;
    if ((!enable && strcmp(a->args[0], "disable") != 0) || (!enable && o->type)) {
        fprintf(stderr, "clrattach perfmap: expected 'enable [--type all|jitdump|perfmap]' or "
                "'disable' after the PID\n");
        return -1;
    }
    if (!o->type)
        return enable;
    for (int t = CLRA_PERFMAP_ALL; t <= CLRA_PERFMAP_PERFMAP; t++)
        if (strcmp(o->type, names[t]) == 0) {
            *type = (clra_perfmap_type_t)t;
            return 1;
        }
    fprintf(stderr, "clrattach perfmap: --type is all, jitdump or perfmap, not '%s'\n", o->type);
    return -1;
}

/* The directory the runtime writes to: DOTNET_PerfMapJitDumpPath (or its COMPlus_ spelling) from
 * the runtime's own environment, else /tmp. Not TMPDIR: .NET 10 ignores it here (observed, and
 * perfmap.cpp uses a fixed TEMP_DIRECTORY_PATH). Seen through /proc/PID/root when the target is
 * in another mount namespace. */
static void perfmap_dir(const clra_endpoint_t *ep, int timeout_ms, char *out, size_t cap)
{
    clra_environment_t env;
    const char *dir = "/tmp";
    clra_target_t target = clra_target_pid(ep->pid);
    int have_env = clra_environment_get(&target, timeout_ms, &env, NULL) == 0;
    for (size_t i = 0; have_env && i < env.count; i++)
        if ((strcmp(env.vars[i].name, "DOTNET_PerfMapJitDumpPath") == 0 ||
             strcmp(env.vars[i].name, "COMPlus_PerfMapJitDumpPath") == 0) &&
            env.vars[i].value[0])
            dir = env.vars[i].value;
    /* In another file tree (a container) the directory is reached through its root. */
    int other;
    if (dir[0] != '/' || clra_target_path_resolve(ep->pid, dir, out, cap, &other) != 0)
        snprintf(out, cap, "%s", dir);
    if (have_env)
        clra_environment_free(&env);
}

/* Lists the map files that exist now, in text or JSON. */
static void report_files(const clra_endpoint_t *ep, const char *dir, json_out_t *j)
{
    static const char *const patterns[] = {"perf-%d.map", "perfinfo-%d.map", "jit-%d.dump"};
    char path[CLRA_PATH_MAX + 64];
    struct stat sb;
    if (j)
        json_array(j, "files");
    for (size_t i = 0; i < sizeof patterns / sizeof patterns[0]; i++) {
        int n = snprintf(path, sizeof path, "%s/", dir);
        snprintf(path + n, sizeof path - (size_t)n, patterns[i], ep->ns_pid);
        if (stat(path, &sb) != 0)
            continue;
        if (j)
            json_str(j, NULL, path);
        else
            printf("  %s (%lld bytes)\n", cli_vis(path), (long long)sb.st_size);
    }
    if (j)
        json_close(j);
}

/* Says where the maps go as seen from here, since the target may be in a container. */
int cmd_perfmap(int argc, char **argv)
{
    cli_args_t a;
    cli_run_t run;
    perfmap_opts_t o = {NULL};
    clra_endpoint_t ep;
    clra_status_t st;
    clra_perfmap_type_t type;
    char dir[CLRA_PATH_MAX];
    int p = cli_parse(&perfmap_verb, argc, argv, &o, &a);
    if (p != 0)
        return p > 0 ? EXIT_OK : a.fail_exit;
    int enable = parse_action(&a, &o, &type);
    if (enable < 0)
        return EXIT_USAGE;
    cli_run_begin(&run, a.pid, a.json);
    clra_target_t target = clra_target_pid(a.pid);
    int rc = clra_endpoint_find(a.pid, &ep, &st);
    if (rc == 0)
        rc = enable ? clra_perfmap_enable(&target, type, (int)a.timeout_ms, &st)
                    : clra_perfmap_disable(&target, (int)a.timeout_ms, &st);
    json_out_t *j = cli_result_open(&run, rc == 0);
    if (rc == 0) {
        perfmap_dir(&ep, (int)a.timeout_ms, dir, sizeof dir);
        if (j) {
            json_bool(j, "enabled", enable);
            json_str(j, "directory", dir);
        } else {
            printf(enable ? "process %d now writes perf maps to %s\n"
                          : "process %d stopped writing perf maps; the files stay in %s\n",
                   a.pid, cli_vis(dir));
        }
        report_files(&ep, dir, j);
    }
    cli_failure_t f = {.rc = rc, .st = &st,
                       .action = enable ? "enable perf maps in" : "disable perf maps in"};
    return cli_result_close(&run, rc ? &f : NULL);
}
