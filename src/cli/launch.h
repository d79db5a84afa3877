/* launch.h - `clrattach launch`: its options (launch_args.c), the trace it records from the
 * first instruction (launch_trace.c) and the startup sequence (cmd_launch.c). */
#ifndef CLRA_LAUNCH_H
#define CLRA_LAUNCH_H

#include "cli.h"
#include "trace_options.h"

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
    long long timeout_ms;
    char **command;
} launch_opts_t;

/* Parses the options and checks every startup hook; 0, 1 after the help, or -1 after saying
 * what is wrong (nothing has been started). Release o->cfg with clra_trace_config_free. */
int launch_parse(int argc, char **argv, launch_opts_t *o);

/* A trace recorded while the program runs: a thread drains the stream into the file from the
 * moment the session starts, so the runtime never blocks on a full socket. */
typedef struct launch_trace {
    clra_trace_session_t s;
    int fd; /* the output file, -1 when closed */
    int created; /* we made the file (so a launch that fails may remove it) */
    const char *path;
    pthread_t thread;
    int thread_started;
    atomic_int done; /* the drain has ended: stream end, failure, or asked to stop */
    atomic_int stop;
    int rc; /* the drain's failure, 0 if none */
    clra_status_t st;
    double t0;
} launch_trace_t;

/* Creates the output file; -1 after saying what to do. */
int launch_trace_open(launch_trace_t *t, const char *path);
/* Starts the session on target (a reverse connection of the paused runtime) and the drain. */
int launch_trace_start(launch_trace_t *t, const clra_target_t *target,
                       const clra_trace_config_t *cfg, int timeout_ms, int pid,
                       clra_status_t *st);
/* Stops the session on target (the runtime's next reverse connection) and saves the rundown the
 * runtime writes before it answers: for a signal that would kill the program before its
 * runtime could end the trace itself. After a failure the stream is closed. */
int launch_trace_stop(launch_trace_t *t, const clra_target_t *target, int timeout_ms,
                      clra_status_t *st);
/* The launch failed before the program ran: ends the drain, closes and removes the file. */
void launch_trace_abandon(launch_trace_t *t);
/* After the program ended (wait status): lets the drain reach the end of the stream within
 * timeout_ms, closes the file, checks it and says on stderr what it holds. */
void launch_trace_finish(launch_trace_t *t, int timeout_ms, int pid, int status);

#endif
