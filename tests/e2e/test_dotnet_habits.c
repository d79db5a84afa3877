/* The dotnet tools' spellings of our options work against a real runtime: -p/--process-id,
 * -o/--output, --buffersize and --duration as a TimeSpan (issue 27: their users' habits). */
#define _GNU_SOURCE
#include "bg_cli.h"
#include "harness.h"
#include "test.h"
#include "trace_counts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A private directory for the outputs, removed when the test passed. */
static char habit_dir[64];

static const char *habit_path(const char *name)
{
    static char path[128];
    if (!habit_dir[0]) {
        snprintf(habit_dir, sizeof habit_dir, "/tmp/clra-habits-XXXXXX");
        ASSERT(mkdtemp(habit_dir) != NULL);
    }
    snprintf(path, sizeof path, "%s/%s", habit_dir, name);
    return path;
}

static void habit_cleanup(void)
{
    char cmd[96];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", habit_dir);
    if (system(cmd) != 0)
        test_note("could not remove %s", habit_dir);
    habit_dir[0] = '\0';
}

TEST(dotnet_trace_spelling_traces_a_real_process)
{
    app_t a;
    bg_t b;
    const char *out = habit_path("habit.nettrace");
    app_start(&a, NULL);
    bg_start(&b, "trace", "-p", app_pid_text(&a), "-o", out, "--buffersize", "8", "--duration",
             "00:00:00:03", "--providers", SAMPLE_PROVIDER, NULL);
    bg_wait_for(&b, "tracing process", 15000);
    ASSERT_STREQ(app_command(&a, "events 200", 10000), "events-done 200");
    ASSERT_EQ(bg_finish(&b, 60000), 0);
    const char *took = strstr(b.out, " bytes in "); /* 00:00:00:03 was read as 3 s */
    ASSERT_MSG(took && strtod(took + 10, NULL) >= 2.5 && strtod(took + 10, NULL) < 10,
               "not a 3 s trace: %s", b.out);
    trace_counts_t c;
    read_trace_counts(out, &c);
    assert_ticks(&c, 200);
    app_stop(&a);
    habit_cleanup();
}

TEST(dotnet_counters_and_stack_spellings_read_a_real_process)
{
    app_t a;
    const char *out_text, *csv = habit_path("habit.csv");
    app_start(&a, NULL);
    int rc = run_cli(&out_text, "counters", "-p", app_pid_text(&a), "--duration", "00:00:02",
                     "-o", csv, "--format", "csv", NULL);
    ASSERT_MSG(rc == 0, "counters: exit %d: %s", rc, out_text);
    FILE *f = fopen(csv, "r");
    ASSERT_MSG(f != NULL, "counters wrote no %s", csv);
    char line[256] = "", row[256] = "";
    ASSERT(fgets(line, sizeof line, f) != NULL);
    ASSERT_STREQ(line, "Timestamp,Provider,Counter Name,Counter Type,Mean/Increment\n");
    ASSERT_MSG(fgets(row, sizeof row, f) != NULL, "no counter row after the header");
    ASSERT_CONTAINS(row, ",System.Runtime,");
    fclose(f);
    rc = run_cli(&out_text, "stack", "--process-id", app_pid_text(&a), NULL);
    ASSERT_MSG(rc == 0, "stack -p: exit %d: %s", rc, out_text);
    ASSERT_CONTAINS(out_text, "Thread");
    app_stop(&a);
    habit_cleanup();
}
