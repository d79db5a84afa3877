/* End-to-end, registered once: perf as the anchor of the signal sampler's figure (issue 25).
 * tests/apps/hot --straight calls a 300-line straight-line method (Straight.Body) in a loop;
 * `perf record -e cpu-clock` on the process, with the runtime's perf map on (`clrattach perfmap
 * PID enable`), says what share of the "straight" thread's CPU samples are in Body; `clrattach
 * profile` (signal) must find Body as the leaf within 10 points of that. dotnet-trace's
 * sampled-thread-time figure is printed beside them (it cannot see Body: safe points only).
 * perf's IPs are named from /tmp/perf-PID.map by the test itself: the runtime's W^X double
 * mapping puts JIT code in a file mapping, which perf does not look up in the map. */
#define _GNU_SOURCE
#include "harness.h"
#include "hot_app.h"
#include "json_check.h"
#include "proc_status.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define BODY "ClrAttach.Hot.Straight.Body"
#define MAX_RANGES 4096

/* Runs a shell command line; its exit status (127: could not run). */
static int shell(const char *cmd)
{
    int st = system(cmd);
    return st == -1 || !WIFEXITED(st) ? 127 : WEXITSTATUS(st);
}

typedef struct range {
    unsigned long long lo, hi;
    int body;
} range_t;

/* The JIT code ranges of the perf map, each marked whether it is Straight::Body. */
static int read_map(int pid, range_t *r)
{
    char path[64], line[1024];
    int n = 0;
    snprintf(path, sizeof path, "/tmp/perf-%d.map", pid);
    FILE *f = fopen(path, "r");
    while (f && n < MAX_RANGES && fgets(line, sizeof line, f)) {
        unsigned long long at, size;
        int used = 0;
        if (sscanf(line, "%llx %llx %n", &at, &size, &used) != 2)
            continue;
        r[n++] = (range_t){at, at + size, strstr(line + used, "Straight::Body(") != NULL};
    }
    if (f)
        fclose(f);
    return n;
}

/* perf's share (percent) of the straight thread's samples inside Body; *n the samples. */
static double perf_share(const char *script, int pid, long long *n)
{
    static range_t r[MAX_RANGES];
    int nr = read_map(pid, r);
    long long body = 0;
    char line[256], comm[64];
    unsigned long long ip;
    FILE *f = fopen(script, "r");
    *n = 0;
    while (f && fgets(line, sizeof line, f)) {
        if (sscanf(line, "%63s %llx", comm, &ip) != 2 || strcmp(comm, "straight") != 0)
            continue;
        (*n)++;
        for (int i = 0; i < nr; i++)
            if (ip >= r[i].lo && ip < r[i].hi) {
                body += r[i].body;
                break;
            }
    }
    if (f)
        fclose(f);
    return *n ? 100.0 * (double)body / (double)*n : 0;
}

/* Of a folded file's lines under Straight.Run, the share (percent) whose leaf is Body. */
static double folded_share(const char *folded, long long *n)
{
    long long body = 0;
    *n = 0;
    for (const char *l = folded; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        const char *end = strchr(l, '\n') ? strchr(l, '\n') : l + strlen(l);
        char *line = strndupa(l, (size_t)(end - l));
        char *space = strrchr(line, ' ');
        if (!space || !strstr(line, "ClrAttach.Hot.Straight.Run"))
            continue;
        *space = '\0';
        long long c = atoll(space + 1);
        const char *leaf = strrchr(line, ';') ? strrchr(line, ';') + 1 : line;
        *n += c;
        body += strcmp(leaf, BODY) == 0 ? c : 0;
    }
    return *n ? 100.0 * (double)body / (double)*n : 0;
}

/* dotnet-trace's figure, or -1 when it is not installed or failed (only printed). */
static double dotnet_trace_share(const app_t *a, long long *n)
{
    char cmd[2048];
    *n = 0;
    if (access(CLRA_DOTNET_TRACE, X_OK) != 0)
        return -1;
    snprintf(cmd, sizeof cmd, "cd '%s' && '%s' collect -p %d --profile "
             "dotnet-sampled-thread-time --duration 00:00:00:03 -o dt.nettrace >/dev/null 2>&1 "
             "&& '%s' convert --format folded --output dt.folded dt.nettrace >/dev/null 2>&1",
             a->dir, CLRA_DOTNET_TRACE, a->pid, CLRA_CLI);
    if (shell(cmd) != 0)
        return -1;
    return folded_share(slurp(out_path(a, "dt.folded")), n);
}

/* The app's SigCgt mask (the signals it handles). */
static unsigned long long caught(const app_t *a)
{
    return proc_status_field(a->pid, "SigCgt", 16);
}

TEST(signal_profile_of_a_straight_line_method_is_within_10_points_of_perf)
{
    app_t a;
    const char *out;
    char cmd[1024];
    if (shell("perf --version >/dev/null 2>&1") != 0)
        SKIP("perf is not installed (Debian: linux-perf)");
    hot_start(&a, "--straight");
    ASSERT_EQ(run_cli(&out, "perfmap", app_pid_text(&a), "enable", NULL), 0);
    /* perf writes into the app's directory (a->dir: out_path keeps two paths at a time) */
    snprintf(cmd, sizeof cmd, "cd '%s' && perf record -q -e cpu-clock -F 999 -p %d -o perf.data "
             "-- sleep 3 >perf.log 2>&1 && perf script -i perf.data -F comm,ip >perf.txt "
             "2>/dev/null", a.dir, a.pid);
    int rc = shell(cmd);
    if (rc != 0) {
        char why[512];
        snprintf(why, sizeof why, "%s", slurp(out_path(&a, "perf.log")));
        app_stop(&a);
        SKIP("perf record -e cpu-clock does not work here (exit %d: %s)", rc, why);
    }
    long long perf_n, ours_n, dt_n;
    double perf = perf_share(out_path(&a, "perf.txt"), a.pid, &perf_n);
    unsigned long long before = caught(&a);
    rc = run_cli(&out, "profile", "--method", "signal", "--duration", "3", "--json",
                     "--format", "folded", "--output", out_path(&a, "ours.folded"),
                     app_pid_text(&a), NULL);
    ASSERT_MSG(rc == 0, "profile failed (%d):\n%s", rc, out);
    double ours = folded_share(slurp(out_path(&a, "ours.folded")), &ours_n);
    double dt = dotnet_trace_share(&a, &dt_n);
    test_note("Straight.Body's share of the straight thread: perf %.1f%% (%lld samples), "
              "clrattach signal %.1f%% (%lld), dotnet-trace %.1f%% (%lld%s)", perf, perf_n, ours,
              ours_n, dt, dt_n, dt < 0 ? ", not run: no build/tools/dotnet-trace" : "");
    ASSERT_MSG(perf_n >= 100, "perf recorded %lld samples of the straight thread", perf_n);
    ASSERT_MSG(ours_n >= 30, "clrattach recorded %lld samples of Straight.Run", ours_n);
    ASSERT_MSG(ours >= perf - 10 && ours <= perf + 10, "ours %.1f%%, perf %.1f%%", ours, perf);
    ASSERT_MSG(caught(&a) == before, "SigCgt %llx after the detach, %llx before", caught(&a),
               before);
    int pid = a.pid;
    app_stop(&a);
    char path[64]; /* the runtime leaves its perf map and jitdump in /tmp */
    snprintf(path, sizeof path, "/tmp/perf-%d.map", pid);
    unlink(path);
    snprintf(path, sizeof path, "/tmp/jit-%d.dump", pid);
    unlink(path);
}
