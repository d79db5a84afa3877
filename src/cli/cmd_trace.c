/* cmd_trace.c - `clrattach trace`: record an EventPipe trace of a running process into a
 * .nettrace file. Options here; the recording itself is in trace_record.c. */
#define _GNU_SOURCE
#include "verbs.h"
#include "base/cli.h"
#include "trace/trace_options.h"
#include "trace/trace_record.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#define DEFAULT_TRACE_TIMEOUT_MS 30000

static const cli_opt_t trace_opts[] = {
    TRACE_PROVIDERS_OPTION("providers", 0, trace_opts_t, tr,
                           "providers as dotnet-trace writes them, comma-separated:"
                           TRACE_SPEC_HELP),
    CLI_STRING("profile", trace_opts_t, profiles, "NAMES",
               "dotnet-trace's named provider sets, comma-separated: dotnet-common, "
               "dotnet-sampled-thread-time, gc-verbose, gc-collect, database (see "
               "--list-profiles); --providers wins for a provider both name. With none of "
               "--providers, --profile, --clrevents: dotnet-common,dotnet-sampled-thread-time"),
    CLI_STRING("clrevents", trace_opts_t, clrevents, "KEYWORDS",
               "the runtime provider's keywords by name, joined by '+': gc+exception (see "
               "--list-clrevents); ignored when --providers or --profile name that provider"),
    CLI_STRING("clreventlevel", trace_opts_t, clreventlevel, "LEVEL",
               "the level of --clrevents: 0-5 or a level name (default Informational)"),
    CLI_FLAG("list-profiles", trace_opts_t, list_profiles,
             "print the profiles and what each enables, then exit"),
    CLI_FLAG("list-clrevents", trace_opts_t, list_clrevents,
             "print the keyword names --clrevents takes, then exit"),
    CLI_DURATION_YEAR("duration", trace_opts_t, duration_s,
                 "stop after S seconds, or dd:hh:mm:ss (default: trace until Ctrl-C)"),
    CLI_INT("max-size", trace_opts_t, max_size, "BYTES", 4096, 1LL << 50,
            "stop the trace once the file holds BYTES (the rundown after the stop may add as "
            "much again, at least 16 MiB; a target streaming past that is cut off)"),
    CLI_OUTPUT(trace_opts_t, output_arg, "FILE",
               "where to write (default trace-PID-YYYYMMDD-HHMMSS.nettrace)"),
    TRACE_FORMAT_OPTION(trace_opts_t, formats, "FILE"),
    TRACE_STOP_EVENT_OPTIONS(trace_opts_t, stop_event),
    TRACE_SETTING_OPTIONS(trace_opts_t, tr),
    CLI_CALL("buffersize", CLI_ARG_REQUIRED, trace_opts_t, tr, "N", trace_opt_buffer_mb,
             "--buffer-mb as dotnet-trace spells it"),
    CLI_STRING("diagnostic-port", trace_opts_t, dport_spec, "PATH",
               "instead of a PID: listen at PATH for a runtime started with "
               "DOTNET_DiagnosticPorts=PATH, trace it and let it run (it waits at startup); "
               "PATH,connect: connect to a runtime's listening socket at PATH (its "
               "dotnet-diagnostic-PID-...-socket, or dotnet-dsrouter's)"),
    CLI_STRING("dport", trace_opts_t, dport_spec, "PATH", "--diagnostic-port as "
               "dotnet-trace also spells it"),
    CLI_STRING("user-events", trace_opts_t, user_events, "TRACEPOINT",
               "no file: the runtime writes the events to the Linux user_events tracepoint "
               "TRACEPOINT (read it with perf or ftrace; CollectTracing5, .NET 10 or later, a "
               "kernel with user_events, root)"),
    CLI_CALL("tracepoint", CLI_ARG_REQUIRED, trace_opts_t, tracepoints, "SPEC",
             trace_opt_tracepoint,
             "with --user-events: SPEC is Provider:Tracepoint=ID[,ID...]; those event ids "
             "(decimal) of the provider go to that tracepoint instead. May repeat"),
    CLI_END,
};

static const cli_verb_t trace_verb = {
    .name = "trace",
    .synopsis = "PID | --name NAME | --diagnostic-port PATH",
    .description =
        "Records an EventPipe trace of .NET process PID into a .nettrace file (PerfView,\n"
        "TraceEvent, dotnet-trace convert and Visual Studio read it) until --duration\n"
        "ends, the stopping event arrives, or Ctrl-C (SIGINT) or SIGTERM; a second Ctrl-C\n"
        "aborts and leaves the file incomplete. Stopping sends StopTracing and keeps\n"
        "saving the rundown the runtime writes, so the file ends cleanly; the last line\n"
        "says whether it does. --format also writes the trace's CPU samples in other\n"
        "formats beside it.\n",
    .epilogue =
        "The oldest CollectTracing command that expresses the options is used: 1 by\n"
        "default, 2 for --no-rundown, 3 for --no-stackwalk, 4 for a custom rundown\n"
        "keyword, 5 for event-id filters and --user-events (a session whose events go to\n"
        "kernel tracepoints, read with perf or ftrace, instead of a file).\n"
        "\n"
        "examples:\n"
        "  clrattach trace --providers Microsoft-Windows-DotNETRuntime:0x1:4\n"
        "      --duration 10 PID\n"
        "  clrattach trace --providers 'System.Runtime:::EventCounterIntervalSec=1' PID\n"
        "  clrattach trace --profile gc-collect --duration 30 --name myservice\n"
        "  clrattach trace --clrevents gc+exception --clreventlevel verbose PID\n"
        "  clrattach trace --profile dotnet-sampled-thread-time\n"
        "      --format speedscope,chromium --duration 10 PID\n"
        "  clrattach trace --providers MyCompany-MyApp --stopping-event-provider-name\n"
        "      MyCompany-MyApp --stopping-event-event-name RequestFailed\n"
        "      --stopping-event-payload-filter statusCode:500 --duration 600 PID\n"
        "  clrattach trace --providers Microsoft-Windows-DotNETRuntime:0x1:4\n"
        "      --user-events dotnet_gc --duration 10 PID\n"
        "\n"
        "dotnet-trace's spellings are aliases: -p/--process-id and -n/--name name the\n"
        "PID, --buffersize is --buffer-mb, --dport is --diagnostic-port, --duration\n"
        "takes dd:hh:mm:ss, --format NetTrace|Speedscope|Chromium and --buffering-mode\n"
        "Drop|Block|0|1 in any case.\n"
        "\n"
        "exit codes: 0 a complete trace was written (and each --format), 1 the file (or,\n"
        "with --user-events, user_events_data) could not be opened or written, or a\n"
        "--format conversion failed (e.g. no CPU samples), 2 usage or bad provider spec,\n"
        "3 no such process, 5 no endpoint, 6 permission denied, 7 the stop timed out, 8\n"
        "the stream ended early (e.g. the process exited; the file is incomplete) or a\n"
        "connection/protocol failure, 10 the runtime refused.\n",
    .opts = trace_opts,
    .common = CLI_COMMON_JSON | CLI_COMMON_TIMEOUT | CLI_COMMON_PID,
    .json_help = "print one JSON object at the end, no progress",
    .timeout_help = "deadline for starting, and again for stopping, in milliseconds",
    .default_timeout_ms = DEFAULT_TRACE_TIMEOUT_MS,
    .max_args = 1,
    .args_error = "expected one PID, or --name NAME, or --diagnostic-port PATH",
};

/* The default output name: trace-PID-YYYYMMDD-HHMMSS.nettrace in the current directory. */
static void default_output(trace_opts_t *o)
{
    char stamp[32];
    cli_time_stamp(stamp, sizeof stamp, '-');
    snprintf(o->output, sizeof o->output, "trace-%d-%s.nettrace", o->pid, stamp);
}

/* --diagnostic-port: reaches the runtime, so its pid names the default output. */
static int open_port(trace_opts_t *o)
{
    clra_status_t st;
    int rc = diagnostic_port_open(o->dport, o->timeout_ms, &st);
    if (rc) {
        fprintf(stderr, "clrattach trace: --diagnostic-port %s: %s\n", cli_vis(o->dport->spec),
                cli_vis(st.detail));
        return cli_exit_code(rc);
    }
    o->pid = o->dport->pid;
    return EXIT_OK;
}

/* The options and the PID; 0, 1 after the help or a list, -1 after saying why (exit code
 * in *code when the target could not be found by name). */
static int parse_options(int argc, char **argv, trace_opts_t *o, int *code)
{
    cli_args_t a;
    o->tr = (trace_option_state_t){.cfg = &o->cfg, .providers_flag = "--providers"};
    int p = cli_parse(&trace_verb, argc, argv, o, &a);
    if (p != 0)
        return p;
    if (o->list_profiles || o->list_clrevents) {
        if (o->list_profiles)
            trace_list_profiles(stdout);
        if (o->list_clrevents)
            trace_list_clrevents(stdout);
        return 1;
    }
    o->json = a.json;
    o->name = a.name_opt;
    if (a.pid_opt && (a.nargs > 0 || o->name)) {
        fprintf(stderr, "clrattach trace: give the PID once: as an argument, -p/--process-id "
                "or -n/--name\n");
        return -1;
    }
    if (a.pid_opt) { /* -p PID stands for the PID argument */
        a.args = (char **)&a.pid_opt;
        a.nargs = 1;
    }
    o->dport->spec = o->dport_spec;
    if (o->dport_spec && (a.nargs > 0 || o->name || o->user_events)) {
        fprintf(stderr, "clrattach trace: --diagnostic-port names the target: no PID, "
                "-p/--process-id, -n/--name or --user-events with it\n");
        return -1;
    }
    if (o->dport_spec && diagnostic_port_parse(o->dport, "trace") != 0)
        return -1;
    if (!o->name && a.nargs == 0 && !o->dport_spec) { /* said before the default profiles */
        fprintf(stderr, "clrattach trace: %s (see --help)\n", trace_verb.args_error);
        return -1;
    }
    if (trace_presets_apply(o) != 0 || trace_option_settle(&o->tr) != 0 ||
        trace_user_events_settle(o) != 0 || trace_stop_event_settle(&o->stop_event) != 0)
        return -1;
    if (o->user_events && (o->stop_event.provider || (o->formats & ~1u))) {
        fprintf(stderr, "clrattach trace: --user-events writes no stream: no --format other "
                "than nettrace, no --stopping-event-*\n");
        return -1;
    }
    o->timeout_ms = a.timeout_ms;
    *code = o->dport_spec ? open_port(o) : cli_target_pid(o->name, a.args, a.nargs,
                                                           a.timeout_ms, &o->pid);
    if (*code != EXIT_OK)
        return -1;
    if (o->output_arg &&
        snprintf(o->output, sizeof o->output, "%s", o->output_arg) >= (int)sizeof o->output) {
        fprintf(stderr, "clrattach: --output path is too long\n");
        return -1;
    }
    if (!o->output[0] && !o->user_events)
        default_output(o);
    return 0;
}

/* The configuration is freed on every path, parsed or not. */
int cmd_trace(int argc, char **argv)
{
    trace_opts_t o;
    cli_run_t run;
    diagnostic_port_t dport = {0};
    memset(&o, 0, sizeof o);
    o.dport = &dport;
    clra_trace_config_init(&o.cfg);
    int code = EXIT_USAGE, p = parse_options(argc, argv, &o, &code);
    if (p > 0)
        code = EXIT_OK;
    else if (p < 0 && code == EXIT_OK)
        code = EXIT_USAGE;
    if (p == 0) {
        cli_run_begin(&run, o.pid, o.json);
        o.run = &run;
        code = o.user_events ? trace_user_events_record(&o) : trace_record(&o);
    }
    diagnostic_port_close(&dport);
    clra_trace_config_free(&o.cfg);
    trace_stop_event_free(&o.stop_event);
    return code;
}
