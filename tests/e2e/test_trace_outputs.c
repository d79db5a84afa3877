/* End-to-end: what `clrattach trace` does beyond the .nettrace on a real runtime: --format
 * converts the trace's CPU samples into files beside it when the recording ends, and the
 * --stopping-event-* options end the recording when the event arrives (dotnet-trace collect's
 * options). The sample app spins a known method and writes Tick events with known payloads. */
#define _GNU_SOURCE
#include "bg_cli.h"
#include "chromium_check.h"
#include "harness.h"
#include "json_check.h"
#include "test.h"
#include "trace_counts.h"

#include "clrattach.h"

#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* The counts of the folded lines, summed, and those through frame. */
static void folded_counts(const char *text, const char *frame, size_t *total, size_t *with)
{
    *total = *with = 0;
    for (const char *line = text; *line;) {
        const char *nl = strchr(line, '\n');
        ASSERT_MSG(nl != NULL, "a folded line without its newline");
        const char *sp = memrchr(line, ' ', (size_t)(nl - line));
        ASSERT_MSG(sp != NULL, "a folded line without a count: %.80s", line);
        size_t n = strtoull(sp + 1, NULL, 10);
        *total += n;
        if (memmem(line, (size_t)(sp - line), frame, strlen(frame)))
            *with += n;
        line = nl + 1;
    }
}

TEST(trace_format_keeps_the_nettrace_and_writes_each_conversion_beside_it)
{
    app_t a;
    bg_t b;
    char out[512], path[600];
    app_start(&a, NULL);
    snprintf(out, sizeof out, "%s/cpu.nettrace", a.dir);
    bg_start(&b, "trace", "--providers", "Microsoft-DotNETCore-SampleProfiler", "--format",
             "speedscope,chromium", "--format", "folded", "--format", "pprof", "--duration", "4",
             "--output", out, "--json", app_pid_text(&a), NULL);
    wait_for_stream(out, "clrattach trace");
    ASSERT_STREQ(app_command(&a, "spin 1000", 10000), "spun 1000");
    int code = bg_finish(&b, 60000);
    ASSERT_MSG(code == 0, "trace --format exited %d:\n%s", code, b.out);
    const char *json = strchr(b.out, '{');
    ASSERT_MSG(json && json_is_valid(json), "not one JSON object:\n%s", b.out);
    ASSERT_CONTAINS(json, "\"format\":\"chromium\"");
    ASSERT_EQ(strstr(json, "\"ok\":false"), NULL);

    clra_cpu_samples_t s;
    clra_nettrace_info_t info;
    clra_status_t st;
    ASSERT_MSG(clra_cpu_samples_read_file(out, &s, &info, &st) == 0, "the kept .nettrace: %s",
               st.detail);
    size_t with_stack = 0;
    for (size_t i = 0; i < s.count; i++)
        with_stack += s.samples[i].frame_count > 0;
    clra_cpu_samples_free(&s);

    snprintf(path, sizeof path, "%s/cpu.folded", a.dir);
    char *text = whole_file(path);
    size_t total, spin;
    folded_counts(text, "ClrAttach.Sample.Hot.Spin", &total, &spin);
    free(text);
    ASSERT_MSG(total == with_stack, "cpu.folded counts %zu samples, the .nettrace %zu", total,
               with_stack);
    ASSERT_MSG(spin >= 200, "only %zu samples through Hot.Spin in a 1000 ms spin", spin);

    snprintf(path, sizeof path, "%s/cpu.speedscope.json", a.dir);
    text = whole_file(path);
    ASSERT_MSG(json_is_valid(text), "%s is not JSON", path);
    ASSERT_CONTAINS(text, "{\"name\":\"ClrAttach.Sample.Hot.Spin\"}");
    free(text);

    chromium_summary_t c;
    snprintf(path, sizeof path, "%s/cpu.chromium.json", a.dir);
    chromium_check_file(path, "ClrAttach.Sample.Hot.Spin", &c);
    ASSERT_MSG(c.frame_begins > 0 && c.frame_ms <= 1000 + 2, "Hot.Spin: %zu durations, %.1f ms",
               c.frame_begins, c.frame_ms);

    struct stat sb;
    snprintf(path, sizeof path, "%s/cpu.pb.gz", a.dir);
    ASSERT_MSG(stat(path, &sb) == 0 && sb.st_size > 100, "no pprof file %s", path);
    text = whole_file(path);
    ASSERT_MSG((unsigned char)text[0] == 0x1f && (unsigned char)text[1] == 0x8b,
               "%s is not gzip", path);
    free(text);
    app_stop(&a);
}

TEST(trace_format_without_cpu_samples_keeps_the_nettrace_and_exits_1)
{
    app_t a;
    const char *out;
    char path[512];
    app_start(&a, NULL);
    snprintf(path, sizeof path, "%s/nosamples.nettrace", a.dir);
    int code = run_cli(&out, "trace", "--providers", "ClrAttach-Sample", "--format", "speedscope",
                       "--duration", "2", "--output", path, app_pid_text(&a), NULL);
    ASSERT_MSG(code == 1, "exit %d:\n%s", code, out);
    ASSERT_CONTAINS(out, "has no CPU samples");
    clra_nettrace_info_t info;
    clra_status_t st;
    ASSERT_EQ(clra_nettrace_check_file(path, &info, &st), 0);
    ASSERT_EQ(info.state, CLRA_NETTRACE_VALID);
    app_stop(&a);
}

/* Runs convert --format folded of trace under an address-space limit of kib KiB; its exit
 * code (127: it could not even start), its stderr into err. */
static int convert_limited(const char *trace, const char *out, long kib, char *err, size_t cap)
{
    int p[2];
    ASSERT(pipe(p) == 0);
    pid_t pid = fork();
    ASSERT(pid >= 0);
    if (pid == 0) {
        struct rlimit r = {(rlim_t)kib * 1024, (rlim_t)kib * 1024};
        dup2(p[1], 2);
        if (setrlimit(RLIMIT_AS, &r) == 0)
            execl(CLRA_CLI, "clrattach", "convert", "--format", "folded", "--output", out, trace,
                  (char *)NULL);
        _exit(127);
    }
    close(p[1]);
    size_t n = 0;
    for (ssize_t k; n + 1 < cap && (k = read(p[0], err + n, cap - 1 - n)) > 0;)
        n += (size_t)k;
    err[n] = '\0';
    close(p[0]);
    int status;
    ASSERT(waitpid(pid, &status, 0) == pid);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

/* Each limit from 8 MiB down, until the command cannot start: a convert that runs out of memory
 * says so and what to do (it ended with an empty reason before), and exits 1. */
TEST(convert_out_of_memory_says_so_and_what_to_do)
{
#if defined(__SANITIZE_ADDRESS__)
    SKIP("AddressSanitizer reserves more address space than any limit here leaves");
#endif
    app_t a;
    const char *out;
    char dir[] = "/tmp/clra-e2e-oom-XXXXXX", trace[512], folded[512], err[2048];
    ASSERT(mkdtemp(dir) != NULL); /* a.dir goes with the app */
    app_start(&a, NULL);
    snprintf(trace, sizeof trace, "%s/cpu.nettrace", dir);
    snprintf(folded, sizeof folded, "%s/cpu.folded", dir);
    int rc = run_cli(&out, "trace", "--providers", "Microsoft-DotNETCore-SampleProfiler",
                     "--duration", "2", "--output", trace, app_pid_text(&a), NULL);
    app_stop(&a);
    ASSERT_MSG(rc == 0, "trace exit %d:\n%s", rc, out);
    int oom = 0;
    for (long kib = 8192; kib > 0; kib -= 128) {
        rc = convert_limited(trace, folded, kib, err, sizeof err);
        if (rc == 127 && !strstr(err, "clrattach convert"))
            break; /* too little to load the program itself */
        if (rc == 0)
            continue;
        ASSERT_MSG(rc == 1, "exit %d at %ld KiB: %s", rc, kib, err);
        ASSERT_MSG(strstr(err, "out of memory while converting") &&
                   strstr(err, "what to do: convert a smaller trace"),
                   "at %ld KiB: %s", kib, err);
        oom++;
    }
    remove_dir(dir);
    ASSERT_MSG(oom > 0, "no limit made the conversion run out of memory");
}

/* The Tick whose Sequence is 7 ends the trace: the first 5 Ticks (0-4) do not, the next 10 do,
 * seconds into a 60 s --duration. */
TEST(trace_stops_on_the_stopping_event_and_its_payload_long_before_the_duration)
{
    app_t a;
    bg_t b;
    char out[512];
    int status;
    app_start(&a, NULL);
    snprintf(out, sizeof out, "%s/stop.nettrace", a.dir);
    double t0 = now_ms();
    bg_start(&b, "trace", "--providers", SAMPLE_PROVIDER, "--stopping-event-provider-name",
             SAMPLE_PROVIDER, "--stopping-event-event-name", "Tick",
             "--stopping-event-payload-filter", "Sequence:7,Text:tick 7", "--duration", "60",
             "--output", out, "--json", app_pid_text(&a), NULL);
    wait_for_stream(out, "clrattach trace");
    ASSERT_STREQ(app_command(&a, "events 5", 10000), "events-done 5");
    usleep(2000 * 1000); /* the runtime flushes its buffers well within this */
    ASSERT_MSG(waitpid(b.pid, &status, WNOHANG) == 0, "the trace ended on Ticks 0-4");
    ASSERT_STREQ(app_command(&a, "events 10", 10000), "events-done 10");
    int code = bg_finish(&b, 30000);
    double took = now_ms() - t0;
    ASSERT_MSG(code == 0, "trace exited %d:\n%s", code, b.out);
    ASSERT_CONTAINS(b.out, "\"stopped_by\":\"stopping-event\"");
    ASSERT_MSG(took < 20000, "the trace took %.0f ms of its 60 s", took);
    trace_counts_t c;
    read_trace_counts(out, &c);
    ASSERT_MSG(c.ticks >= 5 + 8, "the file holds %d Ticks, not the 5 and the 8 up to Sequence 7",
               c.ticks);
    test_note("stopped %.0f ms after starting; %d Ticks saved", took, c.ticks);
    app_stop(&a);
}

/* A filter naming a field the event does not have can never match: said once, and the trace
 * runs to its --duration. */
TEST(trace_stopping_event_filter_on_a_missing_field_says_so_and_runs_to_the_duration)
{
    app_t a;
    const char *out;
    char path[512];
    app_start(&a, NULL);
    snprintf(path, sizeof path, "%s/mismatch.nettrace", a.dir);
    bg_t b;
    bg_start(&b, "trace", "--providers", SAMPLE_PROVIDER, "--stopping-event-provider-name",
             SAMPLE_PROVIDER, "--stopping-event-event-name", "Tick",
             "--stopping-event-payload-filter", "Nope:1", "--duration", "4", "--output", path,
             app_pid_text(&a), NULL);
    bg_wait_for(&b, "tracing process", 15000);
    ASSERT_STREQ(app_command(&a, "events 3", 10000), "events-done 3");
    int code = bg_finish(&b, 30000);
    ASSERT_MSG(code == 0, "exit %d:\n%s", code, b.out);
    ASSERT_CONTAINS(b.out, "has no payload field 'Nope'");
    ASSERT_EQ(run_cli(&out, "trace", "--stopping-event-payload-filter", "a:1",
                      "--stopping-event-provider-name", "P", app_pid_text(&a), NULL), 2);
    ASSERT_CONTAINS(out, "needs --stopping-event-event-name");
    ASSERT_EQ(run_cli(&out, "trace", "--stopping-event-event-name", "E", app_pid_text(&a), NULL),
              2);
    ASSERT_EQ(run_cli(&out, "trace", "--stopping-event-provider-name", "P",
                      "--stopping-event-event-name", "E", "--stopping-event-payload-filter",
                      "a:1:2", app_pid_text(&a), NULL), 2);
    ASSERT_CONTAINS(out, "name:value pairs");
    app_stop(&a);
}
