/* cli.h - shared pieces of the clrattach command: exit codes, output, argument helpers. */
#ifndef CLRA_CLI_H
#define CLRA_CLI_H

#include "clrattach.h"

#include <stdio.h>

/* Exit codes, documented in --help and the README. */
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

/* The hello profiler's CLSID: the default where a verb takes --clsid. */
#define HELLO_CLSID "5E3E0C65-3E00-442D-B0AD-7F2D7F8946DF"


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
int cli_parse_int(const char *what, const char *text, long long min, long long max,
                  long long *out);

/* Reports a failed verb: to stderr with what to do, or as fields of the JSON object j when j is
 * non-NULL. action completes "cannot ... process PID", e.g. "read the environment of". */
void cli_report_error(const char *action, int pid, int rc, const clra_status_t *st, json_out_t *j);
/* Parses a PID argument (1..INT_MAX); 0 or -1 after saying why on stderr. */
int cli_parse_pid(const char *text, int *pid);

/* What a verb accepts besides --json, --timeout and --help. */
typedef struct cli_verb_spec {
    const char *name;            /* "env" */
    const char *args;            /* the positional arguments after PID, for messages */
    int min_args, max_args;      /* how many may follow PID */
    long long default_timeout_ms;
    void (*usage)(FILE *f);
    const char *option;          /* the name of one more option taking a value, or NULL */
} cli_verb_spec_t;

typedef struct cli_common {
    int pid, json;
    long long timeout_ms;
    char **args; /* the positional arguments after PID */
    int nargs;
    const char *option; /* the value of the spec's extra option, NULL when not given */
} cli_common_t;

/* Parses "[--json] [--timeout MS] PID ARGS..." for verbs with no options of their own. 0 or -1
 * after saying why. */
int cli_parse_common(int argc, char **argv, const cli_verb_spec_t *spec, cli_common_t *o);

/* With --json, begins the verb's object with "ok" and "pid" and returns j; otherwise NULL. */
json_out_t *cli_json_start(const cli_common_t *o, json_out_t *j, int rc);
/* Reports rc when it is a failure (into j when non-NULL), closes j, returns the exit code. */
int cli_finish(json_out_t *j, const char *action, const cli_common_t *o, int rc,
               const clra_status_t *st);

/* Verbs. */
/* A CLSID as the control endpoints spell it: lowercase, without braces. */
void cli_clsid_lower(const clra_guid_t *g, char out[37]);
/* What to do about a local failure (a CLRA_E* code), in one sentence. */
const char *cli_local_hint(int err);

/* Options and positionals in any order: returns the next option as getopt_long does (-1 at
 * the end) and collects positionals into pos[0..max) while counting all of them in *npos.
 * Set optind = 1 before the first call. */
struct option;
int cli_getopt(int argc, char **argv, const struct option *longs, char **pos, int max, int *npos);
/* Makes a path absolute against our working directory (the target would use its own). 0/-1. */
int cli_absolute_path(const char *in, char *out, size_t cap);

int cmd_attach(int argc, char **argv);
int cmd_detach(int argc, char **argv);
int cmd_env(int argc, char **argv);
int cmd_setenv(int argc, char **argv);
int cmd_resume(int argc, char **argv);
int cmd_perfmap(int argc, char **argv);
int cmd_launch(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_ps(int argc, char **argv);
int cmd_trace(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_startup_hook(int argc, char **argv);
/* After a successful attach: holds the profiler's control endpoint until a signal, then lets
 * it detach and waits for the unload. Returns the exit code. */
int cli_hold(int pid, const clra_guid_t *clsid, int timeout_ms, int json);
/* After a detach: removes the process's staged profiler copies that are no longer mapped and
 * says so on stdout (unless quiet). Failures only matter to the next sweep, so none is fatal. */
void cli_sweep_stage(int pid, int quiet);

#endif
