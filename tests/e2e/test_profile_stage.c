/* End-to-end: `clrattach profile --stage` and `clrattach stack --stage` reach a .NET process in
 * its own PID and mount namespaces (as in a container), as an operator on the node would, and
 * leave neither the sampler mapped nor its staged copy in the target's /tmp. */
#define _GNU_SOURCE
#include "harness.h"
#include "hot_app.h"
#include "test.h"

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SAMPLER_SO "libsampler_profiler.so"

/* Field 22 of /proc/PID/stat (the start time in ticks), which stage names carry beside the pid:
 * copies left by earlier namespaced apps, also pid 1 in theirs, are not this app's. */
static unsigned long long start_ticks(int pid)
{
    char path[64], text[1024];
    unsigned long long start = 0;
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    FILE *f = fopen(path, "re");
    size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
    if (f)
        fclose(f);
    text[n] = '\0';
    const char *p = strrchr(text, ')');
    for (int field = 2; p && *p && field < 22; p++)
        field += *p == ' ';
    if (p)
        sscanf(p, "%llu", &start);
    return start;
}

/* How many staged copies for this very app its own /tmp holds, seen through its root. */
static int staged_copies(const app_t *a)
{
    char pattern[160];
    glob_t g;
    int host = app_host_pid((app_t *)a);
    snprintf(pattern, sizeof pattern, "/proc/%d/root/tmp/clrattach-stage-%d-%llu-*", host,
             a->ready_pid, start_ticks(host));
    int n = glob(pattern, 0, NULL, &g) == 0 ? (int)g.gl_pathc : 0;
    globfree(&g);
    return n;
}

TEST(profile_and_stack_with_stage_reach_a_namespaced_target_and_leave_nothing)
{
    app_t a;
    const char *out;
    char folded[600];
    app_start_namespaced(&a, 0);
    int rc = run_cli(&out, "stack", "--stage", app_pid_text(&a), NULL);
    ASSERT_MSG(rc == 0, "stack --stage failed (%d):\n%s", rc, out);
    ASSERT_CONTAINS(out, "System.Console.ReadLine");
    ASSERT(!app_maps_contains(&a, SAMPLER_SO));
    ASSERT_EQ(staged_copies(&a), 0);

    snprintf(folded, sizeof folded, "%s/staged.folded", a.dir);
    rc = run_cli(&out, "profile", "--stage", "--mode", "wall", "--duration", "1", "--format",
                 "folded", "--output", folded, "--json", app_pid_text(&a), NULL);
    ASSERT_MSG(rc == 0, "profile --stage failed (%d):\n%s", rc, out);
    ASSERT_MSG(atoll(json_value(out, "samples")) > 0, "no samples:\n%s", out);
    ASSERT_CONTAINS(slurp(folded), "System.Console.ReadLine");
    ASSERT(!app_maps_contains(&a, SAMPLER_SO));
    ASSERT_MSG(staged_copies(&a) == 0, "the staged sampler is still in the target's /tmp");
    app_assert_responsive(&a);
    app_stop(&a);
}
