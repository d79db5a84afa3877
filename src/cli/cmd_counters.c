/* cmd_counters.c - `clrattach counters`: a live view of a process's EventCounters and Meter
 * instruments, read from an EventPipe session through the library's NetTrace decoder, until
 * Ctrl-C, --duration or the process's exit; every way out sends StopTracing. */
#define _GNU_SOURCE
#include "verbs.h"
#include "base/cli.h"
#include "base/diagnostic_port.h"
#include "common/mono_clock.h"
#include "base/interrupt.h"
#include "counters/counters_view.h"
#include "base/options.h"
#include "base/output_file.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#define PUMP_WAIT_MS 200
#define REDRAW_S 0.25
#define DEFAULT_COUNTERS_TIMEOUT_MS 30000
#define MAX_FILTERS 256

typedef struct counters_opts {
    const char *counters;
    long long interval_s, duration_s;
    const char *format, *output;
    const char *dport_spec; /* --diagnostic-port / --dport as given */
} counters_opts_t;

typedef struct filter {
    char provider[128], name[128]; /* name "" = every counter of the provider */
} filter_t;

typedef struct counters_run {
    counters_opts_t o;
    char providers[4096];
    filter_t filters[MAX_FILTERS];
    int nfilters;
    char session_id[40];
    counters_view_t view;
    clra_nettrace_decoder_t *decoder;
    uint64_t readings;
    double end;      /* when --duration ends (0: never) */
    diagnostic_port_t dport; /* --diagnostic-port: the target by its port (spec NULL: by pid) */
    int eventcounters_only;  /* "EventCounters\System.Runtime": never its Meter */
    const char *cut; /* why decoding stopped mid-stream ("interrupted", "duration"), or NULL */
} counters_run_t;

static const cli_opt_t counters_opts[] = {
    CLI_STRING("counters", counters_opts_t, counters, "LIST",
               "providers (EventSources or Meters) and optionally their counters, as "
               "dotnet-counters takes them: System.Runtime[cpu-usage,gc-heap-size],MyMeter "
               "(default System.Runtime); EventCounters\\System.Runtime: its EventCounters "
               "even where its Meter is the default, as dotnet-counters reads that prefix"),
    CLI_INT("refresh-interval", counters_opts_t, interval_s, "S", 1, 3600,
            "seconds between the values the runtime publishes (default 1)"),
    CLI_DURATION_YEAR("duration", counters_opts_t, duration_s,
                 "stop after S seconds, or dd:hh:mm:ss (default: until Ctrl-C or the process "
                 "exits)"),
    CLI_STRING("format", counters_opts_t, format, "FORMAT",
               "table (default; redrawn in place on a terminal, one line per value "
               "otherwise), json or csv (dotnet-counters' collect files; any case)"),
    CLI_OUTPUT(counters_opts_t, output, "FILE", "write there instead of stdout"),
    CLI_STRING("diagnostic-port", counters_opts_t, dport_spec, "PATH",
               "instead of a PID: listen at PATH for a runtime started with "
               "DOTNET_DiagnosticPorts=PATH, read it and let it run (it waits at startup); "
               "PATH,connect: connect to a runtime's listening socket at PATH (its "
               "dotnet-diagnostic-PID-...-socket, or dotnet-dsrouter's)"),
    CLI_STRING("dport", counters_opts_t, dport_spec, "PATH",
               "--diagnostic-port as dotnet-counters also spells it"),
    CLI_END,
};

static const cli_verb_t counters_verb = {
    .name = "counters",
    .synopsis = "PID | --diagnostic-port PATH",
    .description =
        "Shows the counters .NET process PID publishes: by default System.Runtime's\n"
        "instruments (CPU time, GC heap, allocations, exceptions, thread pool, lock\n"
        "contention...): on .NET 9 and later its Meter (dotnet.gc.collections...), as\n"
        "dotnet-counters 10 shows them, on .NET 8 its EventCounters (cpu-usage...); a\n"
        "System.Runtime[...] list naming EventCounters reads those on every version. Also\n"
        "any EventSource's counters and, on .NET 8 and later, any\n"
        "System.Diagnostics.Metrics Meter's counters, up-down counters, gauges and\n"
        "histograms (their 50th, 95th and 99th percentiles), by name. Names, labels and\n"
        "units are dotnet-counters'; what the runtime reports about the session (a\n"
        "callback that threw, a limit reached, another tool's metrics session) goes to\n"
        "stderr. Runs until --duration ends, Ctrl-C (SIGINT) or SIGTERM, or the process\n"
        "exits, and always ends its session with StopTracing. Those are checked between\n"
        "events too, so a flood of events still ends on time; the stream is decoded\n"
        "within convert's limits (clrattach convert --help, docs/nettrace.md).\n",
    .epilogue =
        "examples:\n"
        "  clrattach counters PID\n"
        "  clrattach counters --counters 'System.Runtime[cpu-usage,exception-count]' PID\n"
        "  clrattach counters --format csv --output counters.csv --duration 60 PID\n"
        "  clrattach counters list        (the well-known providers and counters)\n"
        "\n"
        "dotnet-counters' spellings are aliases: `counters monitor ...` is `counters ...`,\n"
        "`counters collect ...` writes a file (--format csv and -o counter.csv unless\n"
        "given), -p/--process-id and -n/--name name the PID, --dport is\n"
        "--diagnostic-port, --duration takes dd:hh:mm:ss.\n"
        "\n"
        "exit codes: 0 stopped (Ctrl-C, --duration or the process exited), 1 the output\n"
        "could not be written, 2 usage, 3 no such process, 5 no endpoint, 6 permission\n"
        "denied, 7 timed out, 8 connection or protocol failure, 10 the runtime refused.\n",
    .opts = counters_opts,
    .common = CLI_COMMON_TIMEOUT | CLI_COMMON_PID,
    .timeout_help = "deadline for starting, and again for stopping, in milliseconds",
    .default_timeout_ms = DEFAULT_COUNTERS_TIMEOUT_MS,
    .max_args = 1,
    .args_error = "expected one PID, or --diagnostic-port PATH",
};

/* One "Provider[a,b]" or "Provider" of the list into providers and filters; dotnet-counters'
 * "EventCounters\Provider" (that provider's EventCounters, not a Meter of its name) too. */
static int add_spec(counters_run_t *c, const char *spec, size_t len)
{
    static const char prefix[] = "EventCounters\\";
    int ec = len > sizeof prefix - 1 && strncmp(spec, prefix, sizeof prefix - 1) == 0;
    if (ec) {
        spec += sizeof prefix - 1;
        len -= sizeof prefix - 1;
    }
    const char *open = memchr(spec, '[', len);
    size_t plen = open ? (size_t)(open - spec) : len;
    c->eventcounters_only |= ec && plen == strlen(CLRA_COUNTERS_DEFAULT) &&
                             strncmp(spec, CLRA_COUNTERS_DEFAULT, plen) == 0;
    if (plen == 0 || plen >= sizeof c->filters[0].provider ||
        (open && spec[len - 1] != ']')) {
        fprintf(stderr, "clrattach counters: bad --counters entry '%.*s': expected Provider or "
                "Provider[counter,counter]\n", (int)len, spec);
        return -1;
    }
    size_t used = strlen(c->providers);
    snprintf(c->providers + used, sizeof c->providers - used, "%s%.*s", used ? "," : "",
             (int)plen, spec);
    const char *p = open ? open + 1 : NULL, *end = spec + len - 1;
    do {
        size_t n = p ? strcspn(p, ",]") : 0;
        if (p && (n == 0 || p + n > end)) {
            fprintf(stderr, "clrattach counters: empty counter name in '%.*s'\n", (int)len,
                    spec);
            return -1;
        }
        if (c->nfilters == MAX_FILTERS)
            return fprintf(stderr, "clrattach counters: more than %d counters\n", MAX_FILTERS),
                   -1;
        filter_t *f = &c->filters[c->nfilters++];
        snprintf(f->provider, sizeof f->provider, "%.*s", (int)plen, spec);
        snprintf(f->name, sizeof f->name, "%.*s", (int)n, p ? p : "");
        p = p && p + n < end ? p + n + 1 : NULL;
    } while (p);
    return 0;
}

/* Splits --counters at the commas outside brackets. */
static int parse_counters(counters_run_t *c)
{
    const char *s = c->o.counters ? c->o.counters : CLRA_COUNTERS_DEFAULT;
    while (*s) {
        size_t n = 0;
        int depth = 0;
        while (s[n] && (s[n] != ',' || depth)) {
            depth += s[n] == '[' ? 1 : s[n] == ']' ? -1 : 0;
            n++;
        }
        if (add_spec(c, s, n))
            return -1;
        s += n + (s[n] == ',');
    }
    return c->providers[0] ? 0 : (fprintf(stderr, "clrattach counters: --counters is empty\n"),
                                  -1);
}

static int wanted(const counters_run_t *c, const clra_counter_reading_t *r)
{
    for (int i = 0; i < c->nfilters; i++)
        if (strcmp(c->filters[i].provider, r->provider) == 0 &&
            (!c->filters[i].name[0] || strcmp(c->filters[i].name, r->name) == 0))
            return 1;
    return 0;
}

/* Ctrl-C, SIGTERM or the end of --duration, seen between events: one pump can hand the
 * decoder a whole block of events, which must not outlast them. */
static int time_to_stop(counters_run_t *c)
{
    if (!c->cut && cli_interrupted())
        c->cut = "interrupted";
    if (!c->cut && c->end && mono__s() >= c->end)
        c->cut = "duration";
    return c->cut != NULL;
}

/* Every decoded event: readings of this session that the list asks for go to the view. */
static int on_event(void *ctx, const clra_nettrace_event_t *ev)
{
    counters_run_t *c = ctx;
    if (time_to_stop(c))
        return 1;
    clra_counter_reading_t r[CLRA_COUNTER_READINGS_MAX];
    char notice[512];
    if (clra_counter_notice_get(ev, c->session_id, notice, sizeof notice) == 1)
        counters_view_notice(&c->view, notice);
    int n = clra_counter_readings_get(ev, (double)c->o.interval_s, r, CLRA_COUNTER_READINGS_MAX);
    for (int i = 0; i < n; i++) {
        if ((r[i].session[0] && strcmp(r[i].session, c->session_id) != 0) || !wanted(c, &r[i]))
            continue;
        c->readings++;
        counters_view_add(&c->view, &r[i]);
    }
    return 0;
}

/* The trace sink: bytes to the decoder, dropped once it was cut short (the stop drains on). */
static int feed(void *ctx, const void *data, size_t len)
{
    counters_run_t *c = ctx;
    if (c->cut)
        return 0;
    return clra_nettrace_decoder_feed(c->decoder, data, len, NULL) != 0 && !c->cut;
}

/* A SessionId no other listener of the process shares (Meter readings carry it). */
static void new_session_id(char out[40])
{
    unsigned char b[16] = {0};
    FILE *f = fopen("/dev/urandom", "rb");
    if (!f || fread(b, 1, sizeof b, f) != sizeof b) {
        unsigned long long t = (unsigned long long)time(NULL) ^ ((unsigned long long)getpid() << 32);
        memcpy(b, &t, sizeof t);
    }
    if (f)
        fclose(f);
    snprintf(out, 40, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
             b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12],
             b[13], b[14], b[15]);
}

/* The options, the format and the output; 0, 1 after the help, -1 after saying why. collect:
 * the command line began with dotnet-counters' "collect" (a file, csv by default). */
static int parse_options(int argc, char **argv, counters_run_t *c, cli_args_t *a, int collect)
{
    c->o.interval_s = 1;
    int p = cli_parse(&counters_verb, argc, argv, &c->o, a);
    if (p != 0)
        return p;
    const char *fmt = c->o.format ? c->o.format : collect ? "csv" : "table";
    c->view.format = strcasecmp(fmt, "table") == 0  ? COUNTERS_TABLE
                     : strcasecmp(fmt, "json") == 0 ? COUNTERS_JSON
                     : strcasecmp(fmt, "csv") == 0  ? COUNTERS_CSV
                                                    : -1;
    if (c->view.format < 0) {
        fprintf(stderr, "clrattach counters: --format %s: expected table, json or csv\n",
                cli_vis(fmt));
        return -1;
    }
    if (collect && !c->o.output) /* dotnet-counters collect's default file */
        c->o.output = c->view.format == COUNTERS_JSON ? "counter.json" : "counter.csv";
    return parse_counters(c);
}

/* Pumps until Ctrl-C, the duration or the end of the stream; "why" says which. */
static int watch(counters_run_t *c, clra_trace_session_t *s, const char **why, clra_status_t *st)
{
    double drawn = 0;
    c->end = c->o.duration_s ? mono__s() + (double)c->o.duration_s : 0;
    for (;;) {
        int rc = clra_trace_pump(s, feed, c, PUMP_WAIT_MS, st);
        if (mono__s() - drawn >= REDRAW_S) {
            counters_view_refresh(&c->view);
            drawn = mono__s();
        }
        if (rc)
            return *why = "error", rc;
        if (s->eof)
            return *why = "the process exited", 0;
        if (time_to_stop(c))
            return *why = c->cut, 0;
    }
}

/* The runtime's major version, 0 when not known. Its own connection: the session's providers
 * depend on it, so it is needed before the session's request, and the endpoint lookup before
 * learns nothing of the version (a socket path). */
static unsigned runtime_major(counters_run_t *c, int pid, long long timeout_ms)
{
    clra_target_t target;
    clra_status_t st;
    unsigned major = 0;
    if (diagnostic_port_next_target(&c->dport, pid, timeout_ms, &target, &st) == 0)
        cli_runtime_version(&target, (int)timeout_ms, NULL, 0, &major);
    return major;
}

/* How System.Runtime is read, as dotnet-counters 10 does: its Meter on .NET 9 and later, its
 * EventCounters before; a list naming EventCounters (no dot: cpu-usage) gets those too. */
static unsigned runtime_flags(counters_run_t *c, int pid, long long timeout_ms)
{
    int counter_names = 0, meter_names = 0, all = 0;
    for (int i = 0; i < c->nfilters; i++) {
        if (strcmp(c->filters[i].provider, CLRA_COUNTERS_DEFAULT) != 0)
            continue;
        const char *n = c->filters[i].name;
        all |= !n[0];
        meter_names |= n[0] && strchr(n, '.') != NULL;
        counter_names |= n[0] && !strchr(n, '.');
    }
    if (!all && !meter_names && !counter_names)
        return 0; /* System.Runtime is not asked for */
    if (c->eventcounters_only || runtime_major(c, pid, timeout_ms) < 9)
        return CLRA_COUNTERS_RUNTIME_EVENTCOUNTERS;
    return (all || meter_names ? CLRA_COUNTERS_RUNTIME_METER : 0u) |
           (counter_names ? CLRA_COUNTERS_RUNTIME_EVENTCOUNTERS : 0u);
}

/* Starts the session, watches, stops it: the exit code. */
static int run(counters_run_t *c, int pid, long long timeout_ms, cli_run_t *cr)
{
    clra_trace_config_t cfg;
    clra_trace_session_t s;
    clra_status_t st;
    const char *why = "";
    clra_nettrace_callbacks_t cb = {0};
    cb.event = on_event;
    clra_trace_config_init(&cfg);
    new_session_id(c->session_id);
    int rc = clra_counters_config2(&cfg, c->providers, (unsigned)c->o.interval_s,
                                   c->session_id, runtime_flags(c, pid, timeout_ms), &st);
    clra_target_t target;
    if (rc == 0)
        rc = clra_nettrace_decoder_new(&cb, c, &c->decoder);
    if (rc == 0)
        rc = diagnostic_port_next_target(&c->dport, pid, timeout_ms, &target, &st);
    if (rc == 0)
        rc = clra_trace_start(&target, &cfg, (int)timeout_ms, &s, &st);
    clra_trace_config_free(&cfg);
    if (rc == 0 && (rc = diagnostic_port_resume(&c->dport, timeout_ms, &st)) != 0)
        clra_trace_session_close(&s);
    if (rc) {
        clra_nettrace_decoder_free(c->decoder);
        return cli_fail(cr, &(cli_failure_t){.rc = rc, .st = &st, .action = "read counters of"});
    }
    if (c->view.format == COUNTERS_TABLE && !c->view.tty)
        fprintf(stderr, "reading counters of process %d every %lld s; Ctrl-C to stop\n", pid,
                c->o.interval_s);
    counters_view_begin(&c->view);
    rc = watch(c, &s, &why, &st);
    if (rc == 0 && !s.eof)
        rc = diagnostic_port_next_target(&c->dport, pid, timeout_ms, &target, &st);
    if (rc == 0 && !s.eof)
        rc = clra_trace_stop(&s, &target, feed, c, (int)timeout_ms, &st);
    clra_trace_session_close(&s);
    counters_view_end(&c->view);
    clra_nettrace_decoder_free(c->decoder);
    if (rc && strcmp(why, "the process exited") != 0)
        return cli_fail(cr, &(cli_failure_t){.rc = rc, .st = &st, .action = "read counters of"});
    fprintf(stderr, "stopped (%s) after %llu values\n", why, (unsigned long long)c->readings);
    return EXIT_OK;
}

/* --output is opened only once the process is known to exist and reachable: a mistyped pid
 * leaves the file alone. Stdout without it. 0, or the exit code after saying why. */
static int open_output(counters_run_t *c, int pid, cli_run_t *cr)
{
    clra_endpoint_t ep;
    clra_status_t st;
    c->view.f = stdout;
    if (!c->o.output)
        return 0;
    int rc = c->dport.spec ? 0 : clra_endpoint_find(pid, &ep, &st);
    if (rc)
        return cli_fail(cr, &(cli_failure_t){.rc = rc, .st = &st, .action = "read counters of"});
    c->view.f = out_file_fopen(c->o.output, "--output", "clrattach counters");
    return c->view.f ? 0 : EXIT_INTERNAL;
}

/* The PID (an argument, -p, -n) or the runtime behind --diagnostic-port into a->pid: EXIT_OK,
 * or the exit code after saying why. */
static int target_of(counters_run_t *c, cli_args_t *a)
{
    int given = (a->nargs > 0) + (a->pid_opt != NULL) + (a->name_opt != NULL);
    c->dport.spec = c->o.dport_spec;
    if (given + (c->dport.spec != NULL) != 1) {
        fprintf(stderr, "clrattach counters: give the target once: a PID, -p/--process-id, "
                "-n/--name or --diagnostic-port\n");
        return EXIT_USAGE;
    }
    if (a->pid_opt) /* -p PID stands for the PID argument */
        return cli_parse_pid(a->pid_opt, &a->pid) == 0 ? EXIT_OK : EXIT_USAGE;
    if (!c->dport.spec)
        return cli_target_pid(a->name_opt, a->args, a->nargs, a->timeout_ms, &a->pid);
    if (diagnostic_port_parse(&c->dport, "counters") != 0)
        return EXIT_USAGE;
    clra_status_t st;
    int rc = diagnostic_port_open(&c->dport, a->timeout_ms, &st);
    if (rc) {
        fprintf(stderr, "clrattach counters: --diagnostic-port %s: %s\n",
                cli_vis(c->dport.spec), cli_vis(st.detail));
        return cli_exit_code(rc);
    }
    a->pid = c->dport.pid;
    return EXIT_OK;
}

int cmd_counters(int argc, char **argv)
{
    static counters_run_t c;
    cli_args_t a;
    cli_run_t cr;
    memset(&c, 0, sizeof c);
    if (argc > 1 && strcmp(argv[1], "list") == 0)
        return cmd_counters_list(argc - 1, argv + 1);
    int collect = argc > 1 && strcmp(argv[1], "collect") == 0;
    if (collect || (argc > 1 && strcmp(argv[1], "monitor") == 0)) { /* dotnet-counters' verbs */
        argv[1] = argv[0];
        argc--, argv++;
    }
    int p = parse_options(argc, argv, &c, &a, collect);
    if (p)
        return p > 0 ? EXIT_OK : a.fail_exit;
    int code = target_of(&c, &a);
    if (code != EXIT_OK) {
        diagnostic_port_close(&c.dport);
        return code;
    }
    cli_run_begin(&cr, a.pid, 0);
    int opened = open_output(&c, a.pid, &cr);
    if (opened) {
        diagnostic_port_close(&c.dport);
        return opened;
    }
    c.view.tty = isatty(fileno(c.view.f));
    c.view.pid = a.pid;
    c.view.interval_s = (unsigned)c.o.interval_s;
    cli_catch_interrupt(); /* ends the session cleanly (StopTracing) at the next wake */
    code = run(&c, a.pid, a.timeout_ms, &cr);
    diagnostic_port_close(&c.dport);
    if (c.view.f != stdout && fclose(c.view.f) != 0 && code == EXIT_OK) {
        fprintf(stderr, "clrattach counters: writing %s failed\n", cli_vis(c.o.output));
        code = EXIT_INTERNAL;
    }
    return code;
}
