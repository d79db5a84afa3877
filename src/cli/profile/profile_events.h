/* profile_events.h - `clrattach profile --mode alloc|lock|exception|wait`: no profiler in the
 * target, only an EventPipe session over the diagnostics port for the runtime's own events
 * (allocation ticks or samples, contention, exceptions, wait-handle waits) with a stack each,
 * named through the method-load and rundown events of the same session, written by the
 * profile writers (render/) in the mode's unit. One file per job: the verb's side
 * (profile_events_cmd.c), the session (profile_events_session.c), the stream's events
 * (profile_events_decode.c), the stacks and their names (profile_events_collect.c), named
 * fields (profile_events_fields.c), paired start/stop events (profile_events_pair.c), and one
 * file per mode. */
#ifndef CLRA_CLI_PROFILE_EVENTS_H
#define CLRA_CLI_PROFILE_EVENTS_H

#include "base/cli.h"
#include "common/method_ranges.h"
#include "render/profile.h"

#include <stdint.h>

typedef struct pe_run pe_run_t;

/* One mode: what to enable, what its events weigh. */
typedef struct pe_mode {
    const char *name;        /* the --mode word */
    const char *weight_name; /* pprof's sample type: what the weight measures */
    const char *unit;        /* "bytes", "nanoseconds" or "count" */
    /* Chooses keywords, source and misses for the runtime's major version (0 unknown); 0, or
     * -1 with why and hint set when the mode cannot run there. No level: the session is
     * verbose for every mode (profile_events_session.c). */
    int (*plan)(pe_run_t *r, unsigned major);
    /* One event of the runtime's provider (name from its layout); 0, or -1 out of memory. */
    int (*event)(pe_run_t *r, const clra_nettrace_event_t *ev, const char *name);
    /* The mode's own result fields (JSON) or lines (text, on f). */
    void (*report)(const pe_run_t *r, json_out_t *j, FILE *f);
    void (*release)(pe_run_t *r);
} pe_mode_t;

extern const pe_mode_t pe_mode_alloc, pe_mode_lock, pe_mode_exception, pe_mode_wait;

/* Events aggregated by (thread, stack, leaf): the stack as raw addresses until the rundown
 * has named every method. */
typedef struct pe_entry {
    uint64_t tid, count, weight;
    size_t ips, nips; /* addresses at ipbuf[ips..ips+nips), leaf first */
    uint32_t leaf;    /* 1 + index into leaves, 0 none */
} pe_entry_t;

/* A start not yet stopped, per thread (lock, wait). */
typedef struct pe_pending {
    uint64_t tid;
    int64_t timestamp;
    uint8_t *stack; /* a copy of the start's stack */
    uint32_t stack_len;
} pe_pending_t;

struct pe_run {
    const pe_mode_t *mode;
    uint64_t keywords;     /* the runtime provider's keywords besides method loads */
    const char *source;    /* the events used, for the output */
    const char *misses;    /* what they can miss, one sentence */
    const char *why, *hint; /* plan: why the mode cannot run here, and what to do */
    unsigned major;        /* the runtime's major version, 0 unknown */
    unsigned pointer_size;
    int64_t qpc_frequency;
    method__range_t *methods; /* sorted by pe_resolve */
    size_t nmethods, cap_methods;
    pe_entry_t *entries;
    size_t nentries, cap_entries;
    size_t *index; /* open addressing: entry + 1, 0 empty */
    size_t cap_index;
    uint64_t *ipbuf;
    size_t nipbuf, cap_ipbuf;
    char **leaves; /* interned leaf names */
    size_t nleaves, cap_leaves;
    size_t *leaf_index; /* open addressing over leaves: leaf number (1 + index), 0 empty */
    size_t cap_leaf_index;
    uint64_t events;    /* the mode's events counted */
    uint64_t unpaired;  /* stops without a start (lock, wait): begun before the session */
    pe_pending_t *pending;
    size_t npending, cap_pending;
    void *state;        /* the mode's own */
    int oom;
};

/* The mode of that --mode word, NULL when it is not one of these. */
const pe_mode_t *pe_mode_find(const char *word);

/* Adds weight (count 1) on the stack ev carries (or stack/stack_len when given), with leaf
 * (may be NULL) as its top frame; 0 or -1 out of memory. */
int pe_add(pe_run_t *r, uint64_t tid, const uint8_t *stack, uint32_t stack_len, const char *leaf,
           uint64_t weight);
/* A method load/unload or rundown event: its code range and name remembered. */
void pe_method(pe_run_t *r, const clra_nettrace_event_t *ev);
/* Makes room for need elements of each bytes at *p (capacity *cap, doubled); 0 or -1. */
int pe_grow(void **p, size_t *cap, size_t need, size_t each);
/* Names every address and fills p; 0 or -1 out of memory. */
int pe_resolve(pe_run_t *r, profile_t *p);
void pe_free(pe_run_t *r);

/* Top-level fields of a runtime event by name: u (integers), f (doubles), text (strings, cut
 * to its buffer). */
typedef struct pe_field {
    const char *name;
    int found;
    uint64_t u;
    double f;
    char text[512];
} pe_field_t;
/* Fills the n fields of ev's payload; the number found. */
int pe_fields(const pe_run_t *r, const clra_nettrace_event_t *ev, pe_field_t *fs, int n);

/* Lock and wait: a start on a thread remembers its time and stack; the stop on the same
 * thread adds the nanoseconds between them on that stack. 0 or -1 out of memory. */
int pe_pair_start(pe_run_t *r, const clra_nettrace_event_t *ev);
int pe_pair_stop(pe_run_t *r, const clra_nettrace_event_t *ev);
/* A waiting mode's event callback: an event named start opens the thread's wait, one named
 * stop closes it; others are ignored. */
int pe_pair_event(pe_run_t *r, const clra_nettrace_event_t *ev, const char *name,
                  const char *start, const char *stop);
/* A waiting mode's report: what it can miss, and in --json the unpaired and unfinished waits;
 * what names the waits in the text line ("lock waits"). */
void pe_pair_report(const pe_run_t *r, json_out_t *j, FILE *f, const char *what);

/* The decoder's callbacks for r (its ctx): header, method names, the mode's events. */
void pe_callbacks(clra_nettrace_callbacks_t *cb);
/* A whole stream in memory through them (the fuzz target); the decoder's code. */
int pe_decode_buffer(pe_run_t *r, const void *data, size_t len);

/* What one run of the session needs and gives. */
typedef struct pe_session_opts {
    int pid;
    long long duration_s;
    long long timeout_ms;
    int json;
} pe_session_opts_t;

typedef struct pe_session_result {
    double seconds;      /* from the session's start to the stop */
    uint64_t bytes;      /* stream bytes */
    int exited;          /* the stream ended before the stop (the target went away) */
    const char *runtime; /* the runtime's version as it says it, or NULL */
    char runtime_buf[64];
} pe_session_result_t;

/* Runs r's mode: finds the runtime's version, plans, records the session for the duration (or
 * until Ctrl-C), decoding as it streams, and stops it with rundown. 0, or a CLRA_E* code with
 * st; 1 when the mode cannot run there (r->why says why). */
int pe_session_run(pe_run_t *r, const pe_session_opts_t *o, cli_run_t *run,
                   pe_session_result_t *res, clra_status_t *st);

/* What the verb hands an event mode: its options, already checked. */
typedef struct pe_cmd {
    int pid, json, threads, fmt;
    long long duration_s, timeout_ms;
    const char *output;
    const pe_mode_t *mode;
} pe_cmd_t;

/* Runs an event mode from start to report (profile_events_cmd.c); the exit code. */
int profile_events_cmd(const pe_cmd_t *c);
/* cmd_profile.c's writer: the profile where output says, or stdout; with json and no output
 * into *text (malloc'd). 0 or -1. */
int profile_write_output(const profile_t *p, const char *output, int threads, int fmt, int json,
                         char **text);

#endif
