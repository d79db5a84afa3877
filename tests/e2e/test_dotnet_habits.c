/* The dotnet tools' spellings of our options work against a real runtime: -p/--process-id,
 * -o/--output, --buffersize and --duration as a TimeSpan (issue 27: their users' habits). */
#define _GNU_SOURCE
#include "bg_cli.h"
#include "harness.h"
#include "hot_app.h" /* out_path: a->dir/NAME, removed with the app */
#include "test.h"
#include "trace_counts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

TEST(dotnet_trace_spelling_traces_a_real_process)
{
    app_t a;
    bg_t b;
    app_start(&a, NULL);
    char out[512];
    snprintf(out, sizeof out, "%s", out_path(&a, "habit.nettrace"));
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
}

TEST(dotnet_counters_and_stack_spellings_read_a_real_process)
{
    app_t a;
    const char *out_text;
    app_start(&a, NULL);
    char csv[512];
    snprintf(csv, sizeof csv, "%s", out_path(&a, "habit.csv"));
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
}
