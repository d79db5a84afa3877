/* trace_record.h - the recording half of `clrattach trace`. */
#ifndef CLRA_TRACE_RECORD_H
#define CLRA_TRACE_RECORD_H

#include "base/cli.h"
#include "base/diagnostic_port.h"
#include "trace/trace_options.h"

#define TRACE_FORMATS 6 /* nettrace, speedscope, chromium, flamegraph, folded, pprof */
#define TRACE_STOP_FILTERS 16

/* --stopping-event-*: the event that ends the recording, as dotnet-trace collect takes it. */
typedef struct trace_stop_event {
    const char *provider, *event; /* NULL: not given */
    const char *filter;           /* "name:value,..." as given, or NULL */
    char *names[TRACE_STOP_FILTERS], *values[TRACE_STOP_FILTERS]; /* the filter, parsed */
    int count;
} trace_stop_event_t;

typedef struct trace_opts {
    int pid;
    clra_trace_config_t cfg;
    trace_option_state_t tr; /* the shared trace options, while parsing */
    long long duration_s;    /* 0: until a signal */
    long long max_size;      /* 0: no cap; else stop once the file holds this many bytes */
    long long timeout_ms;
    int json;
    const char *output_arg;  /* --output as given, or NULL */
    char output[CLRA_PATH_MAX];
    cli_run_t *run;          /* the reporter's view of this run */
    const char *user_events; /* --user-events TRACEPOINT, or NULL */
    const char *name;        /* --name NAME: the target by name instead of PID */
    diagnostic_port_t *dport; /* --diagnostic-port: the target by its port instead of PID
                               * (dport->spec NULL when not given) */
    const char *dport_spec;  /* --diagnostic-port / --dport as given */
    const char *profiles;    /* --profile NAMES, or NULL */
    const char *clrevents;   /* --clrevents KEYWORDS, or NULL */
    const char *clreventlevel; /* --clreventlevel LEVEL, or NULL */
    int list_profiles;       /* --list-profiles */
    int list_clrevents;      /* --list-clrevents */
    int rundown_fallback;    /* the rundown keyword is a profile's own (gc-collect's): dropped
                              * on a runtime that does not know CollectTracing4 */
    unsigned formats;        /* --format: bit i for trace_formats.c's format i (0 nettrace) */
    trace_stop_event_t stop_event; /* the --stopping-event-* options */
    struct trace_tracepoints {
        const char *spec[TRACE_MAX_FILTER_OPTIONS]; /* --tracepoint specs in order */
        int count;
    } tracepoints;
} trace_opts_t;

/* How a recording ended, for the report. */
typedef struct trace_result {
    uint64_t session_id;
    int command_version;
    uint64_t bytes;
    double seconds;
    const char *stopped_by; /* "duration", "signal", "max-size", "stream-end" or "error" */
    int rc;                 /* the first failure, 0 if none */
    const clra_status_t *st;
} trace_result_t;

/* Starts the session, streams it into o->output until the duration ends, a signal comes or
 * the stream ends, stops it, checks the file and reports. Returns the exit code. */
int trace_record(const trace_opts_t *o);

/* --tracepoint: noted (dest is the struct trace_tracepoints), applied once the providers are
 * known. */
int trace_opt_tracepoint(void *dest, const char *arg);
/* A user_events session (--user-events): no file; started, held until the duration ends or a
 * signal comes, stopped, reported. Returns the exit code. */
int trace_user_events_record(const trace_opts_t *o);
/* Applies --user-events and --tracepoint to o->cfg; 0, or -1 after saying why. */
int trace_user_events_settle(trace_opts_t *o);

/* --profile, --clrevents and --clreventlevel into o->cfg (trace_presets.c); 0, or -1 after
 * saying why. */
int trace_presets_apply(trace_opts_t *o);
/* clra_trace_start, then, when a profile's own rundown keyword needed a command the runtime
 * does not know (before .NET 9), once more without rundown, as dotnet-trace does. */
int trace_start_session(const trace_opts_t *o, const clra_target_t *target,
                        clra_trace_session_t *s, clra_status_t *st);
/* What --list-profiles and --list-clrevents print. */
void trace_list_profiles(FILE *f);
void trace_list_clrevents(FILE *f);

/* --format: the words into o->formats (dest); 0 or -1 after saying why. */
int trace_opt_format(void *dest, const char *arg);

/* The --format option of trace and launch (file: what the help calls the .nettrace). */
#define TRACE_FORMAT_OPTION(type, field, file)                                                     \
    CLI_CALL("format", CLI_ARG_REQUIRED, type, field, "FORMATS", trace_opt_format,                \
             "nettrace (default; always written), speedscope, chromium, flamegraph, folded, "    \
             "pprof: comma-separated or repeated; each but nettrace is converted from the "      \
             "trace's CPU samples when it ends (as clrattach convert does), into " file " with " \
             "its extension replaced: .speedscope.json, .chromium.json, .html, .folded, .pb.gz")

/* The --stopping-event-* options of trace and launch, into a trace_stop_event_t field. */
#define TRACE_STOP_EVENT_OPTIONS(type, field)                                                    \
    CLI_STRING("stopping-event-provider-name", type, field.provider, "NAME",                    \
               "stop the trace at the first event of provider NAME (as written, case "          \
               "sensitive); the stream is decoded as it is saved"),                             \
    CLI_STRING("stopping-event-event-name", type, field.event, "NAME",                          \
               "with --stopping-event-provider-name: only an event named NAME (the name its "   \
               "metadata gives, e.g. an EventSource method's)"),                                \
    CLI_STRING("stopping-event-payload-filter", type, field.filter, "FILTER",                   \
               "with --stopping-event-event-name: FIELD:VALUE[,FIELD:VALUE...], only an event " \
               "whose payload fields have these values (compared as text; bools True/False, "   \
               "numbers in decimal)")

/* One conversion done at the end of a recording. */
typedef struct trace_conversion {
    const char *format;
    char path[CLRA_PATH_MAX];
    int ok;
} trace_conversion_t;

typedef struct trace_converted {
    trace_conversion_t items[TRACE_FORMATS];
    int count;
} trace_converted_t;

/* Converts o->output into each format o->formats asks for besides nettrace, beside it; says
 * what it wrote (text mode). 0, or -1 when any conversion failed (each said why). */
int trace_convert_formats(const trace_opts_t *o, trace_converted_t *done);
/* The same for any .nettrace file and formats mask; says what it wrote on say (NULL: nothing;
 * on stderr after "who: "), and why a conversion failed on stderr (flag: the option that named
 * the .nettrace, hence the files beside it). */
int trace_convert_file(const char *nettrace, unsigned formats, FILE *say, const char *flag,
                       const char *who, trace_converted_t *done);

/* Checks and parses the --stopping-event-* options (dotnet-trace's rules); 0 or -1 after saying
 * why. */
int trace_stop_event_settle(trace_stop_event_t *e);
void trace_stop_event_free(trace_stop_event_t *e);

/* Reports a failure before any byte was recorded (text or JSON). */
void trace_report_failure(const trace_opts_t *o, int rc, const clra_status_t *st);
/* Checks the written file and reports the outcome; returns the exit code: 0 only when the
 * file is a complete trace. */
int trace_report(const trace_opts_t *o, const trace_result_t *res);
/* The JSON members of a recorded trace (output, bytes, duration_s, session_id,
 * command_version, stopped_by, valid, status, problem, nettrace_version, event_blocks,
 * converted): trace's result and the "trace" member of launch's. */
void trace_json_fields(json_out_t *j, const char *output, const trace_result_t *res,
                       const clra_nettrace_info_t *info, const trace_converted_t *done);

#endif
