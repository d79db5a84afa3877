/* cli.h - shared pieces of the clrattach command: exit codes, output, argument helpers. */
#ifndef CLRA_CLI_H
#define CLRA_CLI_H

#include "clrattach.h"
#include "common/shared_names.h" /* CLSID_HELLO_TEXT, the sampler's CLSIDs */

#include <stdio.h>
#include <time.h>

/* Exit codes, documented in --help and docs/attach.md. */
enum {
    EXIT_OK = 0,
    EXIT_INTERNAL = 1,   /* unexpected local failure (I/O, memory) */
    EXIT_USAGE = 2,      /* bad command line or unreadable input file */
    EXIT_NOPROC = 3,     /* no such process */
    EXIT_NOTDOTNET = 4,  /* the process is not a .NET process */
    EXIT_NOENDPOINT = 5, /* .NET process without a reachable diagnostics endpoint */
    EXIT_ACCESS = 6,     /* permission denied */
    EXIT_TIMEOUT = 7,    /* the deadline passed */
    EXIT_CONNECTION = 8, /* connection refused or lost, or a malformed reply */
    EXIT_REFUSED = 10,   /* the runtime answered with a failure HRESULT */
};


/* Maps a CLRA_E* code to one of the exit codes above. */
int cli_exit_code(int err);

/* A minimal streaming JSON object writer (one object per command, as --json promises). */
typedef struct json_out {
    FILE *f;
    int depth;         /* 0 = the top object */
    int fields[8];     /* members written so far at each depth */
    char closers[8];   /* '}' or ']' for each open nested value */
} json_out_t;
void json_begin(json_out_t *j, FILE *f);
void json_str(json_out_t *j, const char *key, const char *value);
void json_int(json_out_t *j, const char *key, long long value);
void json_bool(json_out_t *j, const char *key, int value);
void json_double(json_out_t *j, const char *key, double value);
void json_end(json_out_t *j);
/* Nested values: key names the member (NULL inside an array). Closed by json_close. */
void json_object(json_out_t *j, const char *key);
void json_array(json_out_t *j, const char *key);
void json_close(json_out_t *j);

/* Parses a decimal int in [min, max]; 0 or -1 (and prints why to stderr). */
/* Seconds from `--duration`: whole seconds, or [dd:]hh:mm:ss as the dotnet tools take it, in
 * [min, max]; 0, or -1 after saying why. */
int cli_parse_duration(const char *what, const char *text, long long min, long long max,
                       long long *out);
int cli_parse_int(const char *what, const char *text, long long min, long long max,
                  long long *out);

/* Parses a PID argument (1..INT_MAX); 0 or -1 after saying why on stderr. */
int cli_parse_pid(const char *text, int *pid);

/* The pid of the one .NET process named name (its program's file name, its entry assembly,
 * or app for `dotnet app.dll`; any case), listed within timeout_ms. EXIT_OK, or the exit code
 * after saying why: none (EXIT_NOPROC) or several, each listed with its pid (EXIT_USAGE). */
int cli_pid_by_name(const char *name, long long timeout_ms, int *pid);
/* The PID of -p/--process-id or -n/--name (the dotnet tools' spellings of the PID argument)
 * into a->pid; 0, or -1 after saying why (a->fail_exit then says how to exit). */
struct cli_args;
int cli_pid_of_options(const char *verb, struct cli_args *a);
/* A verb's target from its --name (NULL when not given) or its one positional PID. */
int cli_target_pid(const char *name, char **args, int nargs, long long timeout_ms, int *pid);

/* Asks the runtime at t (ProcessInfo, a connection of its own) for its version: the text as
 * it says it into buf (cap bytes; buf may be NULL) and its major version into *major (0 when
 * that text starts with no number). 0, or -1 when it could not say (buf "", *major 0). */
int cli_runtime_version(const clra_target_t *t, int timeout_ms, char *buf, size_t cap,
                        unsigned *major);

/* One run of a verb, as the reporter sees it: where results go and when the run began. */
typedef struct cli_run {
    int pid; /* the target, 0 when there is none (ps) */
    int json;
    uint64_t t0_ns; /* mono__ns() at cli_run_begin */
    json_out_t j;
} cli_run_t;

/* What went wrong, for the reporter. Only rc and st are needed; the rest reword the text. */
typedef struct cli_failure {
    int rc;                  /* a CLRA_E* code; 0 when only exit_code says it failed */
    const clra_status_t *st;
    const char *action;      /* completes "cannot ... process PID", e.g. "attach to" */
    const char *refusal;     /* for CLRA_ERUNTIME: "refused the profiler"; else "refused to
                                ACTION" */
    const char *reason;      /* the text's reason instead of clra_strerror(rc) */
    const char *hint;        /* what to do, instead of the usual hint */
    int exit_code;           /* instead of cli_exit_code(rc), when non-zero or exit_code_set */
    int exit_code_set;       /* exit_code stands even when 0 (a trace whose file is whole) */
    /* Writes the text report instead of the usual one (ctx is the verb's). */
    void (*say)(const struct cli_failure *f, const void *ctx);
    const void *ctx;
} cli_failure_t;

/* What to do about f: the verb's hint, the HRESULT's (a refused profiler), or a general one. */
const char *cli_hint_of(const cli_failure_t *f);

/* Starts the clock of a run; its elapsed_ms counts from here. */
void cli_run_begin(cli_run_t *r, int pid, int json);
/* Milliseconds since cli_run_begin. */
double cli_run_ms(const cli_run_t *r);
/* What is left of budget_ms counted from cli_run_begin: the command's one deadline, which its
 * steps share instead of each taking the whole --timeout. At least 1 ms, so a step given a
 * spent deadline times out at once. */
int cli_run_left_ms(const cli_run_t *r, double budget_ms);
/* With --json, opens the one result object with "ok" (and "pid") and returns it; NULL in
 * text mode. The verb adds its own fields, then calls cli_result_close. */
json_out_t *cli_result_open(cli_run_t *r, int ok);
/* Ends the run: reports f (NULL = success) as text on stderr or as the JSON error fields, adds
 * exit_code and elapsed_ms and closes the JSON object. Returns the exit code. */
int cli_result_close(cli_run_t *r, const cli_failure_t *f);
/* A failure with no result fields of the verb's own: cli_result_open, then close. */
int cli_fail(cli_run_t *r, const cli_failure_t *f);

/* A CLSID as the control endpoints spell it: lowercase, without braces. */
void cli_clsid_lower(const clra_guid_t *g, char out[37]);
/* What to do about a local failure (a CLRA_E* code), in one sentence. */
const char *cli_local_hint(int err);
/* The permission hint for a user with effective uid euid (root is not told to become root). */
const char *cli_access_hint(unsigned euid);

/* text with its control characters made visible (\e, \n, \xHH, \u0085...) for a terminal: every
 * string a target or server could have chosen goes through it in text output. A static buffer,
 * one of 8 in rotation (cut with "..." past 8 KiB); NULL gives "(none)". */
const char *cli_vis(const char *text);
/* Whether text contains part (strstr without its size in the static build). */
int cli_contains(const char *text, const char *part);

/* Makes a path absolute against our working directory (the target would use its own). 0/-1. */
int cli_absolute_path(const char *in, char *out, size_t cap);
/* Why cli_absolute_path failed for in (too long, with the limit; or an unreadable working
 * directory), into why. */
void cli_path_problem(const char *in, size_t cap, char *why, size_t why_cap);
/* Prints "WHO: " and that reason to stderr. */
void cli_say_path_problem(const char *who, const char *in, size_t cap);
/* The local time now as YYYYMMDD<between>HHMMSS, for default file names. */
void cli_time_stamp(char *out, size_t cap, char between);

/* After a successful attach: holds the profiler's control endpoint until a signal, then lets
 * it detach and waits for the unload. Returns the exit code. */
int cli_hold(int pid, const clra_guid_t *clsid, int timeout_ms, int json);
/* Before loading a profiler the command must then control (profile, stack, attach --hold):
 * clra_profiler_control_check, its detail ending in "(nothing was loaded)" when it fails. */
int cli_control_check(int pid, clra_status_t *st);
/* After a detach: removes the process's staged profiler copies that are no longer mapped and
 * says so on stdout (unless quiet). Failures only matter to the next sweep, so none is fatal. */
void cli_sweep_stage(int pid, int quiet);

#endif
