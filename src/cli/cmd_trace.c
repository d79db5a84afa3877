/* cmd_trace.c - `clrattach trace`: record an EventPipe trace of a running process into a
 * .nettrace file. Options here; the recording itself is in trace_record.c. */
#define _GNU_SOURCE
#include "cli.h"
#include "trace_options.h"
#include "trace_record.h"

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
            TRACE_SPEC_USAGE
            "  --duration S          stop after S seconds (default: trace until Ctrl-C)\n"
            "  --output FILE         where to write (default trace-PID-YYYYMMDD-HHMMSS.nettrace)\n"
            TRACE_OPTION_USAGE
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
            DEFAULT_TRACE_TIMEOUT_MS);
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

/* One option of trace's own, or a shared one; 0, or -1 after saying what is wrong. */
static int take_option(trace_opts_t *o, int c, const char *arg, trace_option_state_t *r)
{
    long long v = 0;
    int bad = trace_option_take(&o->cfg, r, c, arg);
    if (bad <= 0)
        return bad;
    switch (c) {
    case 'd':
        bad = cli_parse_int("--duration", arg, 1, 86400 * 365, &v);
        o->duration_s = (int)v;
        return bad;
    case 'o':
        if (snprintf(o->output, sizeof o->output, "%s", arg) < (int)sizeof o->output)
            return 0;
        fprintf(stderr, "clrattach: --output path is too long\n");
        return -1;
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
        TRACE_OPTION_ENTRIES("providers"),      {"duration", required_argument, 0, 'd'},
        {"output", required_argument, 0, 'o'},  {"timeout", required_argument, 0, 't'},
        {"json", no_argument, 0, 'j'},          {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0}};
    trace_option_state_t r = {.providers_flag = "--providers"};
    int c, bad = 0;
    optind = 1;
    while (!bad && (c = getopt_long(argc, argv, "", longs, NULL)) != -1)
        bad = take_option(o, c, optarg, &r) != 0;
    if (bad || trace_option_settle(&o->cfg, &r) != 0)
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
