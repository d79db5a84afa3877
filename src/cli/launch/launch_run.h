/* launch_run.h - one `clrattach launch` in progress, shared by the startup sequence
 * (cmd_launch.c) and its --json lines (launch_json.c). */
#ifndef CLRA_LAUNCH_RUN_H
#define CLRA_LAUNCH_RUN_H

#include "launch/launch.h"
#include "launch/launch_platform.h" /* launch_child_t */

/* One launch in progress. */
typedef struct launch {
    const launch_opts_t *o;
    cli_run_t run;       /* the reporter's view: its clock starts once the options are read */
    clra_reverse_server_t *srv;
    clra_advertise_t ad; /* the runtime's first advertise: its cookie picks its connections */
    launch_child_t child;
    int connected;       /* its runtime has advertised itself on the port */
    int started;         /* the runtime was resumed: COMMAND runs */
    int loaded;          /* the profiler is mapped: 1, 0 not by the deadline, -1 unknown */
    const char *refused; /* the step the runtime refused: "trace", "profiler", "startup_hook" */
    const char *refused_path;
    int tracing;
    int trace_done;      /* the trace was stopped and finished while the program runs on */
    launch_trace_t trace;
    int profiling;
    launch_profile_t prof;
    int convert_failed;  /* a --format file could not be written */
} launch_t;

/* --json (launch_json.c). JSON Lines on stdout, which is launch's alone then (COMMAND's stdout
 * goes to launch's stderr): the "started" object as soon as COMMAND runs, then one "result"
 * object, the shape every verb's result has. */
void launch_json_started(const launch_t *l);
/* The result after COMMAND ended (code: launch's exit code); returns code. */
int launch_json_result(launch_t *l, int code);
/* Reports a failure, as text on stderr or as the JSON result; returns the exit code. */
int launch_fail(launch_t *l, const cli_failure_t *f);
/* A failure already said on stderr by the code that met it: the JSON result only (rc a CLRA_E*
 * code, detail what failed, hint what to do). Returns the exit code (code, or cli_exit_code(rc)
 * when 0). */
int launch_fail_said(launch_t *l, int rc, int code, const char *detail, const char *hint);
/* What to do when COMMAND never connected or ended while paused. */
extern const char launch_command_hint[];

#endif
