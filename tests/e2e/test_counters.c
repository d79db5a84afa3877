/* End-to-end: `clrattach counters` on the sample app, which the tests make force GCs, throw
 * exceptions and allocate in a burst; the values, labels and units read back from the JSON,
 * CSV and plain-line outputs, and every way the command stops. */
#define _GNU_SOURCE
#include "harness.h"
#include "json_check.h"
#include "runtime.h"
#include "test.h"

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define KEEP_ARRAYS 20000 /* "keep N" allocates N byte[7777] */
#define KEEP_TEXT "20000"
#define KEEP_BYTES (KEEP_ARRAYS * 7777.0)

/* `clrattach counters ARGS... PID` in the background, stdout to out, stderr to err. */
static pid_t counters_start(const app_t *a, const char *out, const char *err, const char *arg0,
                            ...)
{
    const char *argv[24] = {"clrattach", "counters", arg0};
    int n = 3;
    va_list ap;
    va_start(ap, arg0);
    while (n < 22 && (argv[n] = va_arg(ap, const char *)) != NULL)
        n++;
    va_end(ap);
    argv[n++] = app_pid_text(a);
    argv[n] = NULL;
    pid_t pid = fork();
    ASSERT(pid >= 0);
    if (pid == 0) {
        if (!freopen(out, "w", stdout) || !freopen(err, "w", stderr))
            _exit(126);
        execv(CLRA_CLI, (char *const *)argv);
        _exit(127);
    }
    return pid;
}

/* Waits for the command (up to timeout_ms); its exit code. */
static int counters_wait(pid_t pid, int timeout_ms)
{
    int status;
    for (int waited = 0; waitpid(pid, &status, WNOHANG) == 0; waited += 50) {
        ASSERT_MSG(waited < timeout_ms, "clrattach counters still runs after %d ms", timeout_ms);
        usleep(50000);
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    ASSERT_MSG(f, "cannot read %s", path);
    char *buf = calloc(1, 1 << 20);
    size_t n = fread(buf, 1, (1 << 20) - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/* Starts the sample app and names the session's files in its directory: out_name for the
 * counters, the same with .err for clrattach's stderr. */
static void start_app(app_t *a, char out[512], char err[512], const char *out_name)
{
    app_start(a, NULL);
    snprintf(out, 512, "%s/%s", a->dir, out_name);
    snprintf(err, 512, "%s/%s.err", a->dir, out_name);
}

/* The default session (no --counters), its JSON on stdout into out; duration NULL runs until
 * stopped. */
static pid_t default_session(const app_t *a, const char *out, const char *err,
                             const char *duration)
{
    return counters_start(a, out, err, "--format", "json", duration ? "--duration" : NULL,
                          duration, NULL);
}

/* Over the JSON events of one counter (the writer puts each on a line of its own): how many,
 * their sum and maximum, and the line of the last one (for its label and units). */
typedef struct series {
    int n;
    double sum, max;
    double v[256];
    char line[512];
} series_t;

/* The values of one counter (of one tag set when tags is not NULL), one event per line. */
static series_t json_series_tagged(const char *json, const char *counter, const char *tags)
{
    series_t s = {0};
    char key[160], tag_key[160];
    snprintf(key, sizeof key, "\"counter\": \"%s\"", counter);
    snprintf(tag_key, sizeof tag_key, "\"tags\": \"%s\"", tags ? tags : "");
    for (const char *p = json; (p = strstr(p, key)) != NULL; p++) {
        const char *start = p, *end = strchr(p, '\n'); /* one event per line */
        while (start > json && start[-1] != '\n')
            start--;
        const char *tag = tags ? strstr(start, tag_key) : NULL;
        if (tags && (!tag || tag > end))
            continue;
        const char *v = strstr(start, "\"value\": ");
        ASSERT(v && end && v < end);
        double x = strtod(v + 9, NULL);
        if (s.n < 256)
            s.v[s.n] = x;
        s.n++;
        s.sum += x;
        s.max = x > s.max ? x : s.max;
        snprintf(s.line, sizeof s.line, "%.*s", (int)(end - start), start);
    }
    return s;
}

static series_t json_series(const char *json, const char *counter)
{
    return json_series_tagged(json, counter, NULL);
}

/* The work the counters must show, two seconds into the session. */
static void make_work(app_t *a)
{
    usleep(2500 * 1000);
    ASSERT_STREQ(app_command(a, "gc 3", 10000), "gc-done 3");
    ASSERT_STREQ(app_command(a, "throw 7", 10000), "thrown 7");
    ASSERT_STREQ(app_command(a, "keep " KEEP_TEXT, 20000), "kept " KEEP_TEXT " len=7777");
}

TEST(counters_json_shows_forced_gcs_exceptions_and_an_allocation_burst_with_units)
{
    app_t a;
    char out[512], err[512];
    start_app(&a, out, err, "counters.json");
    /* the EventCounters by name: on .NET 9 and later the default is the Meter (below) */
    pid_t c = counters_start(&a, "/dev/null", err, "--format", "json", "--output", out,
                             "--duration", "7", "--counters",
                             "System.Runtime[gen-2-gc-count,exception-count,alloc-rate,"
                             "gc-heap-size,cpu-usage]", NULL);
    make_work(&a);
    ASSERT_EQ(counters_wait(c, 30000), 0);
    char *json = slurp(out), *log = slurp(err);
    ASSERT_MSG(json_is_valid(json), "not JSON:\n%s", json);
    ASSERT_CONTAINS(json, "{\"TargetProcess\": \"");
    ASSERT_MSG(!strstr(json, "\"counter\": \"dotnet."), "EventCounters by name brought the "
               "Meter's instruments too");
    ASSERT_CONTAINS(log, "stopped (duration)");
    series_t gc2 = json_series(json, "gen-2-gc-count");
    ASSERT_MSG(gc2.sum >= 3, "gen-2-gc-count adds up to %g after 3 forced GCs", gc2.sum);
    ASSERT_CONTAINS(gc2.line, "\"name\": \"Gen 2 GC Count (Count / 1 sec)\", \"counterType\": "
                              "\"Rate\"");
    series_t ex = json_series(json, "exception-count");
    ASSERT_MSG(ex.sum == 7, "exception-count adds up to %g after 7 exceptions", ex.sum);
    ASSERT_CONTAINS(ex.line, "\"name\": \"Exception Count (Count / 1 sec)\"");
    series_t alloc = json_series(json, "alloc-rate");
    ASSERT_MSG(alloc.sum >= KEEP_BYTES, "alloc-rate adds up to %g B, %g allocated", alloc.sum,
               KEEP_BYTES);
    /* a burst: at most three intervals carry it (a loaded CI machine spreads the allocation
     * over three seconds, seen on 8.0.0), at least three are quiet */
    int loud = 0, quiet = 0;
    for (int i = 0; i < alloc.n && i < 256; i++) {
        loud += alloc.v[i] >= KEEP_BYTES / 4;
        quiet += alloc.v[i] < KEEP_BYTES / 50;
    }
    ASSERT_MSG(alloc.max >= KEEP_BYTES / 4 && loud <= 3 && quiet >= 3,
               "no burst: max %g B/s of %g over %d intervals, %d loud, %d quiet", alloc.max,
               alloc.sum, alloc.n, loud, quiet);
    ASSERT_CONTAINS(alloc.line, "\"name\": \"Allocation Rate (B / 1 sec)\"");
    ASSERT_CONTAINS(alloc.line, "\"units\": \"B\"");
    series_t heap = json_series(json, "gc-heap-size");
    ASSERT(heap.n >= 3);
    ASSERT_CONTAINS(heap.line, "\"name\": \"GC Heap Size (MB)\", \"counterType\": \"Metric\"");
    series_t cpu = json_series(json, "cpu-usage");
    ASSERT_CONTAINS(cpu.line, "\"units\": \"%\"");
    free(json);
    free(log);
    app_stop(&a);
}

/* As dotnet-counters 10: by default System.Runtime's Meter on .NET 9 and later (instrument
 * names, units, tags), its EventCounters on .NET 8. */
TEST(counters_default_is_the_runtime_meter_on_9_and_the_event_counters_on_8)
{
    app_t a;
    char out[512], err[512];
    start_app(&a, out, err, "counters.json");
    pid_t c = default_session(&a, out, err, "7");
    make_work(&a);
    ASSERT_EQ(counters_wait(c, 30000), 0);
    char *json = slurp(out);
    ASSERT_MSG(json_is_valid(json), "not JSON:\n%s", json);
    if (!e2e_runtime_at_least(9, 0)) {
        ASSERT_MSG(json_series(json, "cpu-usage").n > 0, "no cpu-usage on .NET 8:\n%.2000s", json);
        ASSERT_MSG(!strstr(json, "\"counter\": \"dotnet."), "a Meter instrument on .NET 8");
    } else {
        series_t gc2 = json_series_tagged(json, "dotnet.gc.collections", "gc.heap.generation=gen2");
        ASSERT_MSG(gc2.sum >= 3, "gen2 collections add up to %g after 3 forced GCs", gc2.sum);
        ASSERT_CONTAINS(gc2.line, "\"units\": \"{collection}\"");
        series_t ex = json_series(json, "dotnet.exceptions");
        ASSERT_MSG(ex.sum == 7, "dotnet.exceptions adds up to %g after 7 exceptions", ex.sum);
        series_t alloc = json_series(json, "dotnet.gc.heap.total_allocated");
        ASSERT_MSG(alloc.sum >= KEEP_BYTES, "total_allocated adds up to %g B, %g allocated",
                   alloc.sum, KEEP_BYTES);
        ASSERT_CONTAINS(alloc.line, "\"units\": \"By\"");
        ASSERT_MSG(json_series(json, "cpu-usage").n == 0, "EventCounters beside the Meter");
    }
    free(json);
    app_stop(&a);
}

/* CSV fields in one line, quotes honoured. */
static int csv_fields(const char *line)
{
    int n = 1, quoted = 0;
    for (; *line && *line != '\n'; line++) {
        if (*line == '"')
            quoted = !quoted;
        n += *line == ',' && !quoted;
    }
    return n;
}

TEST(counters_csv_lists_only_the_asked_counters_in_dotnet_counters_columns)
{
    app_t a;
    char out[512], err[512];
    start_app(&a, out, err, "counters.csv");
    pid_t c = counters_start(&a, out, err, "--format", "csv", "--counters",
                             "System.Runtime[exception-count,gen-2-gc-count]", "--duration", "6",
                             NULL);
    make_work(&a);
    ASSERT_EQ(counters_wait(c, 30000), 0);
    char *csv = slurp(out);
    static const char header[] = "Timestamp,Provider,Counter Name,Counter Type,"
                                 "Mean/Increment\n";
    ASSERT_MSG(strncmp(csv, header, sizeof header - 1) == 0, "header:\n%s", csv);
    int rows = 0;
    double exceptions = 0;
    for (char *line = strchr(csv, '\n') + 1, *eol; *line; line = eol + 1) {
        eol = strchr(line, '\n');
        ASSERT(eol != NULL);
        *eol = '\0';
        ASSERT_EQ(csv_fields(line), 5);
        ASSERT_MSG(strstr(line, ",System.Runtime,Exception Count (Count / 1 sec),Rate,") ||
                       strstr(line, ",System.Runtime,Gen 2 GC Count (Count / 1 sec),Rate,"),
                   "unexpected row: %s", line);
        if (strstr(line, "Exception Count"))
            exceptions += strtod(strrchr(line, ',') + 1, NULL);
        rows++;
    }
    ASSERT_MSG(rows >= 6, "%d rows in 6 s of two counters", rows);
    ASSERT_EQ(exceptions, 7);
    free(csv);
    app_stop(&a);
}

TEST(counters_plain_lines_when_not_a_terminal_and_stop_when_the_target_exits)
{
    app_t a;
    char dir[] = "/tmp/clra-counters-XXXXXX", out[64], err[64];
    ASSERT(mkdtemp(dir) != NULL); /* the app's directory goes with the app */
    snprintf(out, sizeof out, "%s/counters.txt", dir);
    snprintf(err, sizeof err, "%s/counters.err", dir);
    app_start(&a, NULL);
    pid_t c = counters_start(&a, out, err, "--counters", "System.Runtime[cpu-usage,gc-heap-size]",
                             NULL);
    usleep(3000 * 1000);
    app_stop(&a);
    ASSERT_EQ(counters_wait(c, 20000), 0);
    char *text = slurp(out), *log = slurp(err);
    ASSERT_CONTAINS(text, "Z [System.Runtime] CPU Usage (%) ");
    ASSERT_CONTAINS(text, "Z [System.Runtime] GC Heap Size (MB) ");
    ASSERT_EQ(strstr(text, "Working Set"), NULL);
    ASSERT_CONTAINS(log, "stopped (the process exited)");
    free(text);
    free(log);
    unlink(out);
    unlink(err);
    rmdir(dir);
}

TEST(counters_ctrl_c_stops_the_session_and_closes_the_json)
{
    app_t a;
    char out[512], err[512];
    start_app(&a, out, err, "counters.json");
    pid_t c = default_session(&a, out, err, NULL);
    usleep(2500 * 1000);
    kill(c, SIGINT);
    ASSERT_EQ(counters_wait(c, 20000), 0);
    char *json = slurp(out), *log = slurp(err);
    ASSERT_MSG(json_is_valid(json), "not JSON after Ctrl-C:\n%s", json);
    ASSERT_CONTAINS(json, e2e_runtime_at_least(9, 0)
                              ? "\"counter\": \"dotnet.process.memory.working_set\""
                              : "\"counter\": \"cpu-usage\"");
    ASSERT_CONTAINS(log, "stopped (interrupted)");
    /* the session is gone: a second one starts and the app still answers */
    c = counters_start(&a, out, err, "--duration", "2", NULL);
    ASSERT_EQ(counters_wait(c, 20000), 0);
    app_assert_responsive(&a);
    free(json);
    free(log);
    app_stop(&a);
}

TEST(counters_bad_format_or_list_is_a_usage_error)
{
    const char *out;
    ASSERT_EQ(run_cli(&out, "counters", "--format", "xml", "1", NULL), 2);
    ASSERT_CONTAINS(out, "--format xml: expected table, json or csv");
    ASSERT_EQ(run_cli(&out, "counters", "--counters", "System.Runtime[cpu-usage", "1", NULL), 2);
    ASSERT_CONTAINS(out, "bad --counters entry 'System.Runtime[cpu-usage'");
    ASSERT_EQ(run_cli(&out, "counters", "--counters", "A[x,]", "1", NULL), 2);
    ASSERT_CONTAINS(out, "empty counter name");
}

TEST(counters_reads_a_meters_counter_and_gauge_by_name)
{
    app_t a;
    char out[512], err[512];
    start_app(&a, out, err, "meter.json");
    pid_t c = counters_start(&a, "/dev/null", err, "--format", "json", "--output", out,
                             "--counters", "ClrAttach.Sample", "--duration", "6", NULL);
    usleep(2500 * 1000);
    ASSERT_STREQ(app_command(&a, "meter 17", 10000), "metered 17");
    ASSERT_EQ(counters_wait(c, 30000), 0);
    char *json = slurp(out), *log = slurp(err);
    ASSERT_MSG(json_is_valid(json), "not JSON:\n%s", json);
    series_t req = json_series(json, "sample.requests");
    ASSERT_MSG(req.sum == 17, "sample.requests adds up to %g after 17 (%d values)\n%s", req.sum,
               req.n, log);
    ASSERT_CONTAINS(req.line, "\"provider\": \"ClrAttach.Sample\", \"name\": \"sample.requests "
                              "({request} / 1 sec)\", \"counterType\": \"Rate\"");
    series_t queue = json_series(json, "sample.queue");
    ASSERT_MSG(queue.n >= 2 && queue.max == 42 && queue.sum == 42 * queue.n,
               "sample.queue: %d values, max %g", queue.n, queue.max);
    ASSERT_CONTAINS(queue.line, "\"name\": \"sample.queue ({item})\", \"counterType\": "
                                "\"Metric\"");
    free(json);
    free(log);
    app_stop(&a);
}

/* The value of the one JSON event of counter whose tags are tags; -1 when there is none. */
static double json_tagged(const char *json, const char *counter, const char *tags)
{
    char key[160], tag[160];
    snprintf(key, sizeof key, "\"counter\": \"%s\"", counter);
    snprintf(tag, sizeof tag, "\"tags\": \"%s\"}", tags);
    for (const char *p = json; (p = strstr(p, key)) != NULL; p++) {
        const char *start = p, *end = strchr(p, '\n');
        while (start > json && start[-1] != '\n')
            start--;
        const char *t = strstr(start, tag), *v = strstr(start, "\"value\": ");
        if (t && end && t < end && v && v < end)
            return strtod(v + 9, NULL);
    }
    return -1;
}

/* The recorded values are 1..1000 ms: the runtime's quantile estimate (an exponential
 * histogram) is within a fraction of a percent of the true ones; 1% is asked. */
static void assert_near(double got, double want, const char *what)
{
    ASSERT_MSG(got >= want * 0.99 && got <= want * 1.01, "%s is %g, recorded %g", what, got,
               want);
}

TEST(counters_shows_a_histograms_percentiles_and_an_up_down_counters_value)
{
    app_t a;
    char out[512], err[512];
    start_app(&a, out, err, "hist.json");
    pid_t c = counters_start(&a, "/dev/null", err, "--format", "json", "--output", out,
                             "--counters", "ClrAttach.Sample[sample.latency,sample.inflight]",
                             "--duration", "6", NULL);
    usleep(2500 * 1000);
    ASSERT_STREQ(app_command(&a, "record 1000", 10000), "recorded 1000");
    ASSERT_STREQ(app_command(&a, "inflight 5", 10000), "inflight 5");
    ASSERT_STREQ(app_command(&a, "inflight -2", 10000), "inflight 3");
    ASSERT_EQ(counters_wait(c, 30000), 0);
    char *json = slurp(out);
    ASSERT_MSG(json_is_valid(json), "not JSON:\n%s", json);
    assert_near(json_tagged(json, "sample.latency", "Percentile=50"), 500, "p50");
    assert_near(json_tagged(json, "sample.latency", "Percentile=95"), 950, "p95");
    assert_near(json_tagged(json, "sample.latency", "Percentile=99"), 990, "p99");
    ASSERT_CONTAINS(json, "\"name\": \"sample.latency (ms)\", \"counterType\": \"Metric\"");
    series_t inflight = json_series(json, "sample.inflight");
    ASSERT_MSG(inflight.n >= 2 && inflight.max == 3 && inflight.v[inflight.n - 1] == 3,
               "sample.inflight: %d values, max %g, last %s", inflight.n, inflight.max,
               inflight.line);
    ASSERT_CONTAINS(inflight.line, "\"name\": \"sample.inflight ({request})\", \"counterType\": "
                                   "\"Metric\"");
    ASSERT_EQ(strstr(json, "sample.queue"), NULL); /* not asked for */
    free(json);

    /* the same percentiles as CSV rows named as dotnet-counters names them */
    snprintf(out, sizeof out, "%s/hist.csv", a.dir);
    c = counters_start(&a, out, err, "--format", "csv", "--counters",
                       "ClrAttach.Sample[sample.latency]", "--duration", "5", NULL);
    usleep(2500 * 1000);
    ASSERT_STREQ(app_command(&a, "record 200", 10000), "recorded 200");
    ASSERT_EQ(counters_wait(c, 30000), 0);
    char *csv = slurp(out);
    const char *row = strstr(csv, ",ClrAttach.Sample,sample.latency (ms)[Percentile=95],Metric,");
    ASSERT_MSG(row, "no p95 row:\n%s", csv);
    assert_near(strtod(strrchr(strtok((char *)row, "\n"), ',') + 1, NULL), 190, "CSV p95");
    free(csv);
    app_stop(&a);
}

TEST(counters_reports_a_throwing_gauge_and_a_second_metrics_session_on_stderr)
{
    app_t a;
    char err1[512], err2[512];
    app_start(&a, NULL);
    snprintf(err1, sizeof err1, "%s/first.err", a.dir);
    snprintf(err2, sizeof err2, "%s/second.err", a.dir);
    ASSERT_STREQ(app_command(&a, "gauge-fail", 10000), "gauge-failing");
    pid_t first = counters_start(&a, "/dev/null", err1, "--counters", "ClrAttach.Sample",
                                 "--duration", "6", NULL);
    usleep(2500 * 1000);
    pid_t second = counters_start(&a, "/dev/null", err2, "--counters",
                                  "ClrAttach.Sample,System.Runtime[cpu-usage]", "--duration",
                                  "3", NULL);
    ASSERT_EQ(counters_wait(second, 30000), 0);
    ASSERT_EQ(counters_wait(first, 30000), 0);
    char *log1 = slurp(err1), *log2 = slurp(err2);
    ASSERT_CONTAINS(log1, "clrattach counters: an observable instrument's callback threw in the "
                          "process: System.AggregateException: ");
    ASSERT_CONTAINS(log1, "(sample gauge failed)");
    ASSERT_EQ(strstr(log1, "another metrics session"), NULL);
    const char *said = strstr(log1, "callback threw");
    ASSERT_MSG(strstr(said + 1, "callback threw") == NULL, "said twice:\n%s", log1);
    ASSERT_CONTAINS(log2, "clrattach counters: another metrics session (");
    ASSERT_CONTAINS(log2, "stopped (duration)");
    free(log1);
    free(log2);
    app_stop(&a);
}

TEST(counters_list_names_every_counter_a_default_session_shows_on_this_runtime)
{
    app_t a;
    char out[512], err[512];
    start_app(&a, out, err, "default.json");
    pid_t c = default_session(&a, out, err, "3");
    ASSERT_EQ(counters_wait(c, 30000), 0);
    char *json = slurp(out);
    app_stop(&a); /* the app's directory goes with it */
    const char *list;
    ASSERT_EQ(run_cli(&list, "counters", "list", "--runtime-version", e2e_runtime_version(),
                      NULL), 0);
    int seen = 0;
    for (const char *p = json; (p = strstr(p, "\"counter\": \"")) != NULL; p++) {
        char name[128], line[140];
        const char *start = p + 12, *end = strchr(start, '"');
        ASSERT(end && end - start < (long)sizeof name);
        snprintf(name, sizeof name, "%.*s", (int)(end - start), start);
        snprintf(line, sizeof line, "\n    %s ", name);
        ASSERT_MSG(strstr(list, line), "%s (runtime %s) is not in counters list", name,
                   e2e_runtime_version());
        seen++;
    }
    ASSERT_MSG(seen >= 40, "%d values in 3 s of the default counters", seen);
    free(json);
}
