/* launch.h - `clrattach launch`: its options (launch_args.c) and the checks of the files they
 * name (launch_check.c), the trace it records from the first instruction (launch_trace.c), the
 * profile it samples from startup (launch_profile.c); the startup sequence (cmd_launch.c) and
 * its --json lines (launch_json.c) share launch/launch_run.h; what differs per platform is
 * behind launch/launch_platform.h. */
#ifndef CLRA_LAUNCH_H
#define CLRA_LAUNCH_H

#include "base/cli.h"
#include "base/output_file.h"
#include "profile/profile_drain.h"
#include "trace/trace_options.h"
#include "trace/trace_stop_event.h"

#include <pthread.h>
#include <stdatomic.h>

#define LAUNCH_DEFAULT_TIMEOUT_MS 30000
#define LAUNCH_MAX_ENV 64
#define LAUNCH_MAX_HOOKS 8

typedef struct launch_opts {
    clra_guid_t clsid;
    char profiler[CLRA_PATH_MAX];                 /* "" when no --profiler */
    const char *data;
    char *env[LAUNCH_MAX_ENV];
    int nenv;
    char hooks[LAUNCH_MAX_HOOKS][CLRA_PATH_MAX]; /* absolute, checked */
    int nhooks;
    clra_trace_config_t cfg;                      /* providers: --trace given */
    trace_option_state_t tr;                      /* the shared trace options, while parsing */
    char trace_output[CLRA_PATH_MAX];             /* "" until chosen */
    unsigned formats;                             /* --format, as trace's (bit 0 nettrace) */
    trace_stop_event_t stop_event;                /* the --stopping-event-* options */
    long long trace_duration_s;                   /* --duration: 0 until COMMAND exits */
    const char *profile_output;                   /* --profile FILE, NULL when none */
    const char *profile_mode;                     /* cpu (default) or wall */
    int profile_mode_given;
    const char *profile_method;                   /* --profile-method, NULL: the default */
    const char *profile_client_method;            /* method= for the sampler (auto default) */
    long long profile_hz;                         /* 0: the default, 99 */
    int profile_fmt;                              /* from FILE's extension */
    long long timeout_ms;
    int json;                                     /* --json: JSON Lines on stdout */
    char **command;
} launch_opts_t;

/* Parses the options; 0, 1 after the help, or -1 after saying what is wrong (nothing has been
 * started). Release o->cfg with clra_trace_config_free. */
int launch_parse(int argc, char **argv, launch_opts_t *o);
/* Checks the files the runtime would be given, before COMMAND starts: the profiler must be
 * readable, and each startup hook one the runtime can run (a bad one would end the program:
 * no error reply exists for it). 0, or CLRA_EINVAL with f filled for the reporter (st holds
 * its detail). */
int launch_check_inputs(const launch_opts_t *o, cli_failure_t *f, clra_status_t *st);
/* A failure's text as launch always said it: "clrattach launch: DETAIL". */
void launch_say_detail(const cli_failure_t *f, const void *ctx);

/* A trace recorded while the program runs: a thread drains the stream into the file from the
 * moment the session starts, so the runtime never blocks on a full socket. */
typedef struct launch_trace {
    clra_trace_session_t s;
    out_file_t file; /* a launch that fails removes it when we created it */
    const char *path;
    pthread_t thread;
    int thread_started;
    atomic_int done; /* the drain has ended: stream end, failure, or asked to stop */
    atomic_int stop;
    int rc; /* the drain's failure, 0 if none */
    clra_status_t st;
    double t0;
    trace_stop_monitor_t watch; /* the stopping event, fed by the drain */
    atomic_int matched;         /* it came */
    int finished;               /* launch_trace_finish has run */
    int quiet;                  /* --json: no progress on stderr */
    /* What the report (launch_json.c) needs once it has finished: */
    const char *stopped_by;     /* "program-exit", "duration", "stopping-event", "signal" */
    double seconds;
    clra_nettrace_info_t info;  /* the file, checked */
    char why[640];              /* why it is not complete, "" when it is */
    trace_converted_t converted; /* the --format files */
} launch_trace_t;

/* Creates the output file and the stopping event's watch (e: the options), quiet with --json;
 * -1 after saying what to do (errno: why the file could not be made). */
int launch_trace_open(launch_trace_t *t, const char *path, const trace_stop_event_t *e,
                      int quiet);
/* Whether the trace should stop now while COMMAND runs on: "stopping-event" when it came,
 * "duration" when duration_s (0: none) passed since it started, with a sentence in why; NULL
 * while neither. */
const char *launch_trace_due(launch_trace_t *t, long long duration_s, char *why, size_t cap);
/* Starts the session on target (a reverse connection of the paused runtime) and the drain. */
int launch_trace_start(launch_trace_t *t, const clra_target_t *target,
                       const clra_trace_config_t *cfg, int timeout_ms, int pid,
                       clra_status_t *st);
/* Stops the session on target (the runtime's next reverse connection) and saves the rundown the
 * runtime writes before it answers, noting why (t->stopped_by: "signal", "duration",
 * "stopping-event"): for a signal that would kill the program before its runtime could end
 * the trace itself, or an early stop. After a
 * failure the stream is closed. */
int launch_trace_stop(launch_trace_t *t, const clra_target_t *target, int timeout_ms,
                      const char *why, clra_status_t *st);
/* The launch failed before the program ran: ends the drain, closes and removes the file. */
void launch_trace_abandon(launch_trace_t *t);
/* After the program ended (wait status): lets the drain reach the end of the stream within
 * timeout_ms, closes the file, checks it (t->info, t->why) and says on stderr what it holds. */
void launch_trace_finish(launch_trace_t *t, int timeout_ms, int pid, int status);
/* Writes the formats (trace's --format mask) beside the finished file (t->converted), saying
 * so on stderr; 0, or -1 when one failed. */
int launch_trace_convert(launch_trace_t *t, unsigned formats);
/* The trace's members of launch's --json result: those of `trace --json` and why. */
void launch_trace_json(json_out_t *j, const launch_trace_t *t);

/* A profile sampled from startup (--profile): the sampler is COMMAND's startup profiler. */
typedef struct launch_profile {
    const launch_opts_t *o;
    out_file_t file; /* FILE, open from before COMMAND starts; its fd -1 once written */
    char final_path[300]; /* where the sampler writes its last samples at Shutdown */
    char data[512];      /* COMMAND's CLRPROF_OPTIONS */
    char title[128];
    profile_t prof;
    sampler_session_t s; /* the held control endpoint and the drains */
    int connected;       /* draining over the endpoint */
    long long t0_ms, last_drain_ms;
    /* What the report (launch_json.c) needs once FILE is written: */
    unsigned long long samples;
    size_t stacks;
    int written;         /* FILE holds the profile */
    int write_errno;     /* why not */
    int last_samples;    /* the runtime's Shutdown handed the sampler's last samples over */
} launch_profile_t;

/* With --profile FILE: checks FILE's format and makes the sampler the startup profiler
 * (o->profiler, o->clsid). 0, or -1 after saying why. */
int launch_profile_choose(launch_opts_t *o);
/* Creates FILE and the sampler's options (lp->data), the last samples going into dir. */
int launch_profile_open(launch_profile_t *lp, const launch_opts_t *o, const char *dir);
/* Once the runtime mapped the sampler: finds its control endpoint and holds it. */
void launch_profile_connect(launch_profile_t *lp, int pid, int timeout_ms);
/* Drains when a second has passed since the last drain (or at once with force). */
void launch_profile_poll(launch_profile_t *lp, int force, int timeout_ms);
/* After the program ended (wait status): adds the last samples, writes FILE, says so on
 * stderr (text mode). 0, or -1 when FILE could not be written. */
int launch_profile_finish(launch_profile_t *lp, int status);
/* The launch failed before the program ran: removes FILE if we made it. */
void launch_profile_abandon(launch_profile_t *lp);
/* The profile's members of launch's --json result (after launch_profile_finish). */
void launch_profile_json(json_out_t *j, const launch_profile_t *lp);

#endif
