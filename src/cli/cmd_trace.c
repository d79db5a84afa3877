/* cmd_trace.c - `clrattach trace`: record an EventPipe trace of a running process into a
 * .nettrace file. Options here; the recording itself is in trace_record.c. */
#define _GNU_SOURCE
#include "cli.h"
#include "trace_record.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define DEFAULT_TRACE_TIMEOUT_MS 30000

static void trace_usage(FILE *f)
{
    fprintf(f,
            "usage: clrattach trace [options] --providers SPEC PID\n"
            "\n"
            "Records an EventPipe trace of .NET process PID into a .nettrace file (PerfView,\n"
            "TraceEvent, dotnet-trace convert and Visual Studio read it) until --duration ends\n"
            "or Ctrl-C (SIGINT) or SIGTERM; a second Ctrl-C aborts and leaves the file\n"
            "incomplete. Stopping sends StopTracing and keeps saving the rundown the runtime\n"
            "writes, so the file ends cleanly; the last line says whether it does.\n"
            "\n"
            "options:\n"
            "  --providers SPEC      providers as dotnet-trace writes them, comma-separated:\n"
            "                        Name[:Keywords[:Level[:key=value;key2=value2]]]\n"
            "                        Keywords hex (0x optional; empty = 0, which an EventSource\n"
            "                        reads as all; * = all 64 bits). Level 0-5 or LogAlways,\n"
            "                        Critical, Error, Warning, Informational (default), Verbose.\n"
            "                        Double-quote a value holding ';', '=' or ','. May repeat.\n"
            "  --duration S          stop after S seconds (default: trace until Ctrl-C)\n"
            "  --output FILE         where to write (default trace-PID-YYYYMMDD-HHMMSS.nettrace)\n"
            "  --rundown             end with rundown events (method and module maps; default)\n"
            "  --no-rundown          no rundown: smaller, but stacks cannot be resolved\n"
            "  --rundown-keyword K   rundown with keyword mask K (hex; .NET 9 or later)\n"
            "  --no-stackwalk        no stack with each event (.NET 9 or later)\n"
            "  --buffer-mb N         the runtime's circular buffer in MB (default %d)\n"
            "  --timeout MS          deadline for starting, and again for stopping, in\n"
            "                        milliseconds (default %d)\n"
            "  --json                print one JSON object at the end, no progress\n"
            "  --help                show this help\n"
            "\n"
            "The oldest CollectTracing command that expresses the options is used: 1 by default,\n"
            "2 for --no-rundown, 3 for --no-stackwalk, 4 for a custom rundown keyword.\n"
            "\n"
            "examples:\n"
            "  clrattach trace --providers Microsoft-Windows-DotNETRuntime:0x1:4 "
            "--duration 10 PID\n"
            "  clrattach trace --providers 'System.Runtime:::EventCounterIntervalSec=1' PID\n"
            "\n"
            "exit codes: 0 a complete trace was written, 1 the file could not be written, 2 usage\n"
            "or bad provider spec, 3 no such process, 5 no endpoint, 6 permission denied, 7 the\n"
            "stop timed out, 8 the stream ended early (e.g. the process exited; the file is\n"
            "incomplete) or a connection/protocol failure, 10 the runtime refused.\n",
            CLRA_TRACE_DEFAULT_BUFFER_MB, DEFAULT_TRACE_TIMEOUT_MS);
}

/* --rundown-keyword: hex, "0x" optional. */
static int parse_hex64(const char *text, uint64_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 16);
    if (errno || end == text || *end || text[0] == '-') {
        fprintf(stderr, "clrattach: --rundown-keyword wants a hex mask such as 0x80020139, not "
                "'%s'\n", text);
        return -1;
    }
    *out = v;
    return 0;
}

static int take_providers(trace_opts_t *o, const char *spec)
{
    clra_status_t st;
    int rc = clra_trace_config_parse_providers(&o->cfg, spec, &st);
    if (rc)
        fprintf(stderr, "clrattach: bad --providers: %s\n", st.detail);
    return rc ? -1 : 0;
}

/* The default output name: trace-PID-YYYYMMDD-HHMMSS.nettrace in the current directory. */
static void default_output(trace_opts_t *o)
{
    time_t now = time(NULL);
    struct tm tm;
    char stamp[32];
    localtime_r(&now, &tm);
    strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
    snprintf(o->output, sizeof o->output, "trace-%d-%s.nettrace", o->pid, stamp);
}

/* What the rundown options said; they are settled once all are read. */
typedef struct rundown_opts {
    int on, off, have_keyword;
    uint64_t keyword;
} rundown_opts_t;

/* Rundown options must not contradict each other. */
static int settle_rundown(trace_opts_t *o, const rundown_opts_t *r)
{
    if (r->on + r->off > 1 || (r->off && r->have_keyword)) {
        fprintf(stderr, "clrattach: give only one of --rundown, --no-rundown, "
                "--rundown-keyword\n");
        return -1;
    }
    if (r->off)
        o->cfg.rundown_keyword = 0;
    if (r->have_keyword)
        o->cfg.rundown_keyword = r->keyword;
    return 0;
}

/* One option; 0, or -1 after saying what is wrong. */
static int take_option(trace_opts_t *o, int c, const char *arg, rundown_opts_t *r)
{
    long long v = 0;
    int bad = 0;
    switch (c) {
    case 'p':
        return take_providers(o, arg);
    case 'd':
        bad = cli_parse_int("--duration", arg, 1, 86400 * 365, &v);
        o->duration_s = (int)v;
        return bad;
    case 'o':
        if (snprintf(o->output, sizeof o->output, "%s", arg) < (int)sizeof o->output)
            return 0;
        fprintf(stderr, "clrattach: --output path is too long\n");
        return -1;
    case 'r':
        r->on = 1;
        return 0;
    case 'R':
        r->off = 1;
        return 0;
    case 'k':
        r->have_keyword = 1;
        return parse_hex64(arg, &r->keyword);
    case 'S':
        o->cfg.stackwalk = 0;
        return 0;
    case 'b':
        bad = cli_parse_int("--buffer-mb", arg, 1, 1048576, &v);
        o->cfg.buffer_mb = (uint32_t)v;
        return bad;
    case 't':
        bad = cli_parse_int("--timeout", arg, 1, 86400000, &v);
        o->timeout_ms = (int)v;
        return bad;
    case 'j':
        o->json = 1;
        return 0;
    case 'h':
        trace_usage(stdout);
        exit(EXIT_OK);
    default:
        return -1;
    }
}

static int parse_options(int argc, char **argv, trace_opts_t *o)
{
    static const struct option longs[] = {
        {"providers", required_argument, 0, 'p'}, {"duration", required_argument, 0, 'd'},
        {"output", required_argument, 0, 'o'},    {"rundown", no_argument, 0, 'r'},
        {"no-rundown", no_argument, 0, 'R'},      {"rundown-keyword", required_argument, 0, 'k'},
        {"no-stackwalk", no_argument, 0, 'S'},    {"buffer-mb", required_argument, 0, 'b'},
        {"timeout", required_argument, 0, 't'},   {"json", no_argument, 0, 'j'},
        {"help", no_argument, 0, 'h'},            {0, 0, 0, 0}};
    rundown_opts_t r = {0};
    int c, bad = 0;
    optind = 1;
    while (!bad && (c = getopt_long(argc, argv, "", longs, NULL)) != -1)
        bad = take_option(o, c, optarg, &r) != 0;
    if (bad || settle_rundown(o, &r) != 0)
        return -1;
    if (argc - optind != 1) {
        fprintf(stderr, "clrattach trace: expected one PID (see --help)\n");
        return -1;
    }
    if (o->cfg.provider_count == 0) {
        fprintf(stderr, "clrattach trace: --providers is required, e.g. --providers "
                "Microsoft-Windows-DotNETRuntime:0x1:4 (see --help)\n");
        return -1;
    }
    if (cli_parse_pid(argv[optind], &o->pid) != 0)
        return -1;
    if (!o->output[0])
        default_output(o);
    return 0;
}

int cmd_trace(int argc, char **argv)
{
    trace_opts_t o;
    memset(&o, 0, sizeof o);
    clra_trace_config_init(&o.cfg);
    o.timeout_ms = DEFAULT_TRACE_TIMEOUT_MS;
    int code = parse_options(argc, argv, &o) == 0 ? trace_record(&o) : EXIT_USAGE;
    clra_trace_config_free(&o.cfg);
    return code;
}
