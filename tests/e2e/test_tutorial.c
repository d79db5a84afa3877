/* End-to-end: the profiler in docs/writing-a-profiler.md, compiled from the page, attached to a
 * real process, sees the collections the app makes, and detaches as the page says. */
#define _GNU_SOURCE
#include "harness.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GCWATCH_CLSID "8C2B5B1E-4A8F-4C55-9E0B-6E4F2C1D7A31"

TEST(tutorial_profiler_counts_forced_collections_and_detaches)
{
    app_t a;
    const char *out;
    char pid[16], data[400];
    app_start(&a, NULL);
    snprintf(pid, sizeof pid, "%d", (int)a.pid);
    snprintf(data, sizeof data, "log=%s", a.log_path);
    int rc = run_cli(&out, "attach", "--clsid", GCWATCH_CLSID, "--data", data, pid,
                     profiler_path("tutorial"), NULL);
    ASSERT_MSG(rc == 0, "attach failed with %d:\n%s", rc, out);
    app_wait_log(&a, "gcwatch: attached to type=CoreCLR", 5000);
    app_command(&a, "gc 4", 10000); /* four blocking gen2 collections */
    rc = run_cli(&out, "detach", pid, NULL);
    ASSERT_MSG(rc == 0, "detach failed with %d:\n%s", rc, out);
    const char *log = app_log(&a), *line = strstr(log, "gcwatch: gen0=");
    ASSERT_MSG(line != NULL, "no report in:\n%s", log);
    long gen2 = strtol(strstr(line, "gen2=") + 5, NULL, 10);
    /* Background GCs are off while a GC-monitoring profiler is attached, so the forced ones are
     * exactly visible; the runtime may add its own, never fewer. */
    ASSERT_MSG(gen2 >= 4, "four forced gen2 collections, profiler saw %ld:\n%s", gen2, log);
    ASSERT(!app_maps_contains(&a, "libtutorial_profiler.so"));
    app_assert_responsive(&a);
    app_stop(&a);
}
