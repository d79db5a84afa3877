/* End-to-end: clrattach's NetTrace decoder against Microsoft's TraceEvent (EventPipeEventSource,
 * tests/apps/tracecheck) on the same trace, written by `clrattach trace` from the sample app on
 * the runtime under test: the same events per provider and event id, the same payload values
 * of every self-describing event (the app's EventSource, EventCounters). */
#define _GNU_SOURCE
#include "bg_cli.h"
#include "chromium_check.h"
#include "harness.h"
#include "json_check.h"
#include "nettrace_lines.h"
#include "test.h"

#include "clrattach.h"

#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

/* The sample's EventSource, System.Runtime's counters every second, and the runtime's default
 * dotnet-trace keywords (GC, loader, JIT, exceptions, contention, thread pool...) verbosely. */
#define CROSSCHECK_PROVIDERS                                                                 \
    "ClrAttach-Sample,System.Runtime:0:4:EventCounterIntervalSec=1,"                        \
    "Microsoft-Windows-DotNETRuntime:0x4c14fccbd:5"

/* Runs `clrattach trace` (or with dotnet_trace, `dotnet-trace collect`) for 4 s in a child,
 * output to /dev/null; its pid. */
static pid_t trace_in_background(const app_t *a, const char *out, int dotnet_trace)
{
    pid_t pid = fork();
    ASSERT(pid >= 0);
    if (pid == 0) {
        if (!freopen("/dev/null", "w", stdout))
            _exit(126);
        if (dotnet_trace)
            execl(CLRA_DOTNET_TRACE, "dotnet-trace", "collect", "-p", app_pid_text(a),
                  "--providers", CROSSCHECK_PROVIDERS ",Microsoft-DotNETCore-SampleProfiler",
                  "--duration", "00:00:00:04", "-o", out, (char *)NULL);
        else
            execl(CLRA_CLI, "clrattach", "trace", "--providers", CROSSCHECK_PROVIDERS,
                  "--duration", "4", "--output", out, app_pid_text(a), (char *)NULL);
        _exit(127);
    }
    return pid;
}

/* The first line where a and b differ, for the failure message. */
static const char *first_difference(const char *a, const char *b, char *buf, size_t cap)
{
    size_t line = 1;
    while (*a && *a == *b) {
        line += *a == '\n';
        a++, b++;
    }
    while (line > 1 && a[-1] != '\n')
        a--, b--;
    snprintf(buf, cap, "line %zu: decoder '%.200s' vs TraceEvent '%.200s'", line, a, b);
    for (char *p = buf; *p; p++)
        if (*p == '\n')
            *p = '|';
    return buf;
}

/* `clrattach convert` of the trace: every line one JSON value, the Ticks with their decoded
 * payloads; a truncated copy converts up to the cut and says so (exit 8). */
static void check_convert(const char *trace, const char *dir)
{
    char jsonl[600], cut[600], cmd[1400];
    snprintf(jsonl, sizeof jsonl, "%s/trace.jsonl", dir);
    const char *out;
    ASSERT_EQ(run_cli(&out, "convert", "--output", jsonl, trace, NULL), 0);
    FILE *f = fopen(jsonl, "r");
    ASSERT(f != NULL);
    char *line = NULL; /* a heap snapshot batch, named and in hex, runs past 64 KiB */
    size_t cap = 0;
    int lines = 0, ticks = 0;
    while (getline(&line, &cap, f) > 0) {
        ASSERT_MSG(json_is_valid(line), "line %d is not JSON: %.300s", lines + 1, line);
        char want[64];
        snprintf(want, sizeof want, "\"payload\":{\"Sequence\":%d,\"Text\":\"tick %d\"}", ticks,
                 ticks);
        if (strstr(line, "\"provider\":\"ClrAttach-Sample\"")) {
            ASSERT_MSG(strstr(line, want), "Tick %d: %.400s", ticks, line);
            ticks++;
        }
        lines++;
    }
    free(line);
    fclose(f);
    ASSERT_EQ(ticks, 200);
    snprintf(cut, sizeof cut, "%s/cut.nettrace", dir);
    snprintf(cmd, sizeof cmd, "head -c 300000 '%s' > '%s'", trace, cut);
    ASSERT_EQ(system(cmd), 0);
    ASSERT_EQ(run_cli(&out, "convert", "--output", jsonl, cut, NULL), 8);
    ASSERT_CONTAINS(out, "is truncated: cut off at byte 300000 inside");
}

/* Traces the sample app doing known work, then compares both readings of the file. */
static void crosscheck(int dotnet_trace)
{
    app_t a;
    char out[512], why[512], diff[600];
    int status;
    app_start(&a, NULL);
    snprintf(out, sizeof out, "%s/crosscheck.nettrace", a.dir);
    pid_t tracer = trace_in_background(&a, out, dotnet_trace);
    wait_for_stream(out, dotnet_trace ? "dotnet-trace" : "clrattach trace");
    ASSERT_STREQ(app_command(&a, "events 200", 10000), "events-done 200");
    ASSERT_STREQ(app_command(&a, "gc 2", 10000), "gc-done 2");
    ASSERT_STREQ(app_command(&a, "throw 3", 10000), "thrown 3");
    ASSERT_EQ(waitpid(tracer, &status, 0), tracer);
    ASSERT_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the tracer failed (%d)", status);
    char *ours = nettrace_lines(out, why, sizeof why);
    ASSERT_MSG(ours, "the decoder refused %s: %s", out, why);
    const char *theirs;
    ASSERT_EQ(run_tracecheck(&theirs, out), 0);
    ASSERT_CONTAINS(ours, "count ClrAttach-Sample 1 200\n");
    ASSERT_CONTAINS(ours, ".Payload.Name=gc-heap-size");
    ASSERT_MSG(strcmp(ours, theirs) == 0, "%s", first_difference(ours, theirs, diff, sizeof diff));
    ASSERT_EQ(strstr(ours, "REFUSED"), NULL);
    free(ours);
    if (!dotnet_trace)
        check_convert(out, a.dir);
    app_stop(&a);
}

TEST(nettrace_decoder_reads_what_traceevent_reads_in_a_clrattach_trace)
{
    crosscheck(0);
}

TEST(nettrace_decoder_reads_what_traceevent_reads_in_a_dotnet_trace_file)
{
    crosscheck(1);
}

/* How many samples hold frame, how many of those have it within two frames of the leaf (the
 * sampler stops a spinning thread where it can: in the method or a call it makes), and how many
 * reach root further from the leaf. */
static void count_frame(const clra_cpu_samples_t *s, const char *frame, const char *root,
                        size_t *held, size_t *near_leaf, size_t *rooted)
{
    *held = *near_leaf = *rooted = 0;
    for (size_t i = 0; i < s->count; i++) {
        const clra_cpu_sample_t *x = &s->samples[i];
        size_t at = 0;
        while (at < x->frame_count && strcmp(x->frames[at], frame) != 0)
            at++;
        if (at == x->frame_count)
            continue;
        (*held)++;
        *near_leaf += at <= 2;
        for (size_t f = at + 1; f < x->frame_count; f++)
            if (strcmp(x->frames[f], root) == 0) {
                (*rooted)++;
                break;
            }
    }
}

/* Whether the folded stack line[0..len) has frame as one of its ';'-separated frames. */
static int folded_has_frame(const char *line, size_t len, const char *frame)
{
    size_t n = strlen(frame);
    for (const char *p = line; p < line + len;) {
        const char *end = memchr(p, ';', (size_t)(line + len - p));
        size_t k = end ? (size_t)(end - p) : (size_t)(line + len - p);
        if (k == n && memcmp(p, frame, n) == 0)
            return 1;
        p += k + 1;
    }
    return 0;
}

/* convert --format folded of the same file: every sample with a stack is on exactly one line,
 * counts summing to the samples the library read, and the hot method's stacks are there. */
static void check_folded(const char *trace, const char *dir, const clra_cpu_samples_t *s,
                         size_t held)
{
    char path[512], line[16384];
    snprintf(path, sizeof path, "%s/samples.folded", dir);
    const char *out;
    int rc = run_cli(&out, "convert", "--format", "folded", "--output", path, trace,
                     (const char *)NULL);
    ASSERT_MSG(rc == 0, "convert --format folded exited %d: %s", rc, out);
    size_t with_stack = 0, total = 0, spin = 0;
    for (size_t i = 0; i < s->count; i++)
        with_stack += s->samples[i].frame_count > 0;
    FILE *f = fopen(path, "r");
    ASSERT_MSG(f != NULL, "convert wrote no %s", path);
    while (fgets(line, sizeof line, f)) {
        char *sp = strrchr(line, ' ');
        ASSERT_MSG(sp && strchr(line, '\n'), "a folded line without a count: %.80s", line);
        size_t n = strtoull(sp + 1, NULL, 10);
        total += n;
        if (folded_has_frame(line, (size_t)(sp - line), "ClrAttach.Sample.Hot.Spin"))
            spin += n;
    }
    fclose(f);
    ASSERT_MSG(total == with_stack, "folded counts sum to %zu, the trace has %zu samples with "
               "a stack", total, with_stack);
    ASSERT_MSG(spin == held, "folded lines through Hot.Spin count %zu, the samples %zu", spin, held);
}

/* convert --format chromium of the same file: one JSON value whose B and E events nest on each
 * thread, the hot method's durations there, together no longer than the 1.5 s it spun (plus a
 * sampling period) and covering most of the samples that hold it (1 ms each). */
static void check_chromium(const char *trace, const char *dir, size_t held)
{
    char path[512];
    snprintf(path, sizeof path, "%s/samples.chromium.json", dir);
    const char *out;
    int rc = run_cli(&out, "convert", "--format", "chromium", "--output", path, trace,
                     (const char *)NULL);
    ASSERT_MSG(rc == 0, "convert --format chromium exited %d: %s", rc, out);
    chromium_summary_t c;
    chromium_check_file(path, "ClrAttach.Sample.Hot.Spin", &c);
    ASSERT_MSG(c.begins == c.ends && c.begins > 0, "%zu B and %zu E events", c.begins, c.ends);
    ASSERT_MSG(c.frame_begins > 0, "no duration of Hot.Spin in %s", path);
    ASSERT_MSG(c.frame_ms <= 1500 + 2 && c.frame_ms >= 0.8 * (double)held,
               "Hot.Spin open %.1f ms in all, for %zu samples of a 1500 ms spin", c.frame_ms,
               held);
}

/* The spinning thread's view of the spin: the first and last samples holding frame (their span
 * in ms) and how many of that thread's samples fall between them, held or not. */
typedef struct spin_view {
    double span_ms;
    size_t thread_samples;
} spin_view_t;

static spin_view_t spin_view(const clra_cpu_samples_t *s, const char *frame)
{
    spin_view_t v = {0, 0};
    int64_t first = 0, last = 0;
    uint64_t tid = 0;
    int seen = 0;
    for (size_t i = 0; i < s->count; i++) {
        const clra_cpu_sample_t *x = &s->samples[i];
        for (size_t f = 0; f < x->frame_count; f++)
            if (strcmp(x->frames[f], frame) == 0) {
                first = seen ? first : x->timestamp;
                last = x->timestamp;
                tid = x->thread_id;
                seen = 1;
                break;
            }
    }
    if (!seen || s->qpc_frequency <= 0)
        return v;
    for (size_t i = 0; i < s->count; i++)
        v.thread_samples += s->samples[i].thread_id == tid && s->samples[i].timestamp >= first &&
                            s->samples[i].timestamp <= last;
    v.span_ms = (double)(last - first) * 1000.0 / (double)s->qpc_frequency;
    return v;
}

/* The session is up before the spin starts and is stopped after it ends, so the whole 1.5 s
 * spin is inside the trace. How many samples it gets depends on the runtime's sampling tick,
 * which stretches on a loaded machine (a CI run got 136 of a nominal 1,500 when the spin was
 * not synchronised with the session), so the count is judged against the spinning thread's own
 * samples over the spin, not against a fixed floor. */
TEST(cpu_samples_of_a_trace_put_the_hot_method_near_the_leaf_under_main_and_convert_folds_them)
{
    app_t a;
    bg_t b;
    char out[512];
    app_start(&a, NULL);
    snprintf(out, sizeof out, "%s/samples.nettrace", a.dir);
    bg_start(&b, "trace", "--providers", "Microsoft-DotNETCore-SampleProfiler", "--duration",
             "60", "--output", out, app_pid_text(&a), NULL);
    bg_wait_for(&b, "tracing process", 15000);
    ASSERT_STREQ(app_command(&a, "spin 1500", 30000), "spun 1500");
    kill(b.pid, SIGINT);
    ASSERT_EQ(bg_finish(&b, 60000), 0);
    clra_cpu_samples_t s;
    clra_nettrace_info_t info;
    clra_status_t st;
    ASSERT_MSG(clra_cpu_samples_read_file(out, &s, &info, &st) == 0, "%s", st.detail);
    ASSERT_MSG(s.methods > 100, "only %zu methods named by the rundown", s.methods);
    size_t held, near_leaf, rooted;
    count_frame(&s, "ClrAttach.Sample.Hot.Spin", "ClrAttach.Sample.Program.Main", &held,
                &near_leaf, &rooted);
    spin_view_t v = spin_view(&s, "ClrAttach.Sample.Hot.Spin");
    /* the spin lasts 1.5 s of CPU: at least that long in wall time, seen from end to end */
    ASSERT_MSG(v.span_ms >= 1200, "Hot.Spin's samples span %.0f ms of a 1500 ms spin (%zu of "
               "%zu samples)", v.span_ms, held, s.count);
    ASSERT_MSG(held >= 0.9 * (double)v.thread_samples, "the spinning thread is in Hot.Spin in "
               "%zu of its %zu samples over the spin", held, v.thread_samples);
    /* a tick stretched past 15 ms (nominal 1) is a sampler that stalls, not load */
    ASSERT_MSG((double)held >= v.span_ms / 15, "Hot.Spin is in %zu samples over %.0f ms", held,
               v.span_ms);
    ASSERT_MSG(near_leaf == held, "Hot.Spin is deeper than two frames from the leaf in %zu of "
               "%zu samples", held - near_leaf, held);
    ASSERT_MSG(rooted == held, "%zu of %zu Hot.Spin samples do not reach Program.Main",
               held - rooted, held);
    check_folded(out, a.dir, &s, held);
    check_chromium(out, a.dir, held);
    clra_cpu_samples_free(&s);
    app_stop(&a);
}
