/* cmd_perfmap.c - `clrattach perfmap`: make a running process write perf maps (or stop), and
 * say where the files are, as seen from here. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define DEFAULT_TIMEOUT_MS 10000

static void perfmap_usage(FILE *f)
{
    fprintf(f,
            "usage: clrattach perfmap [--json] [--timeout MS] PID enable [--type all|jitdump|perfmap]\n"
            "       clrattach perfmap [--json] [--timeout MS] PID disable\n"
            "\n"
            "Makes .NET process PID (.NET 8 or later) write symbol maps for code it compiles from\n"
            "now on, so perf can name JIT-compiled frames: perf-<pid>.map (--type perfmap),\n"
            "jit-<pid>.dump for 'perf inject --jit' (--type jitdump), or both\n"
            "(--type all, the default). The files go to the target's DOTNET_PerfMapJitDumpPath, else\n"
            "/tmp (not TMPDIR); <pid> is the pid inside the target's namespace. 'disable' stops\n"
            "writing.\n"
            "\n"
            "options:\n"
            "  --json         one JSON object instead of text\n"
            "  --timeout MS   deadline for the whole exchange (default %d)\n",
            DEFAULT_TIMEOUT_MS);
}

static const cli_verb_spec_t perfmap_spec = {"perfmap", "enable [--type T] | disable", 1, 1,
                                             DEFAULT_TIMEOUT_MS, perfmap_usage, "type"};

/* "enable [--type T]" or "disable" after the PID: 1 enable, 0 disable, -1 bad. */
static int parse_action(const cli_common_t *o, clra_perfmap_type_t *type)
{
    static const char *const names[] = {NULL, "all", "jitdump", "perfmap"};
    int enable = strcmp(o->args[0], "enable") == 0;
    *type = CLRA_PERFMAP_ALL;
    if ((!enable && strcmp(o->args[0], "disable") != 0) || (!enable && o->option)) {
        fprintf(stderr, "clrattach perfmap: expected 'enable [--type all|jitdump|perfmap]' or "
                "'disable' after the PID\n");
        return -1;
    }
    if (!o->option)
        return enable;
    for (int t = CLRA_PERFMAP_ALL; t <= CLRA_PERFMAP_PERFMAP; t++)
        if (strcmp(o->option, names[t]) == 0) {
            *type = (clra_perfmap_type_t)t;
            return 1;
        }
    fprintf(stderr, "clrattach perfmap: --type is all, jitdump or perfmap, not '%s'\n",
            o->option);
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
    /* The endpoint's path tells whether the target's files are only reachable through root. */
    if (strncmp(ep->path, "/proc/", 6) == 0)
        snprintf(out, cap, "/proc/%d/root%s", ep->pid, dir);
    else
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
            printf("  %s (%lld bytes)\n", path, (long long)sb.st_size);
    }
    if (j)
        json_close(j);
}

int cmd_perfmap(int argc, char **argv)
{
    cli_common_t o;
    clra_endpoint_t ep;
    clra_status_t st;
    clra_perfmap_type_t type;
    json_out_t j;
    char dir[CLRA_PATH_MAX];
    if (cli_parse_common(argc, argv, &perfmap_spec, &o) != 0)
        return EXIT_USAGE;
    int enable = parse_action(&o, &type);
    if (enable < 0)
        return EXIT_USAGE;
    clra_target_t target = clra_target_pid(o.pid);
    int rc = clra_endpoint_find(o.pid, &ep, &st);
    if (rc == 0)
        rc = enable ? clra_perfmap_enable(&target, type, (int)o.timeout_ms, &st)
                    : clra_perfmap_disable(&target, (int)o.timeout_ms, &st);
    json_out_t *jp = cli_json_start(&o, &j, rc);
    if (rc == 0) {
        perfmap_dir(&ep, (int)o.timeout_ms, dir, sizeof dir);
        if (jp) {
            json_bool(jp, "enabled", enable);
            json_str(jp, "directory", dir);
        } else {
            printf(enable ? "process %d now writes perf maps to %s\n"
                          : "process %d stopped writing perf maps; the files stay in %s\n",
                   o.pid, dir);
        }
        report_files(&ep, dir, jp);
    }
    return cli_finish(jp, enable ? "enable perf maps in" : "disable perf maps in", &o, rc, &st);
}
