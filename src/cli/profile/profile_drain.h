/* profile_drain.h - `clrattach profile` and `stack` talking to the sampler profiler
 * (profilers/sampler): attach it, hold it, drain its samples into a profile, detach it. */
#ifndef CLRA_CLI_PROFILE_DRAIN_H
#define CLRA_CLI_PROFILE_DRAIN_H

#include "clrattach.h"
#include "common/shared_names.h" /* CLSID_SAMPLER_TEXT, CLSID_SAMPLER_BESIDE_TEXT */
#include "render/profile.h"

/* How the sampler is loaded (sampler_session_t.load). */
enum { SAMPLER_LOAD_AUTO, SAMPLER_LOAD_MAIN, SAMPLER_LOAD_BESIDE };

/* The target's frame and thread indexes as the profile numbers them, across drains. */
typedef struct drain_map {
    uint32_t *frames;
    size_t nframes;
    int *threads;
    size_t nthreads;
    char info[512];    /* the sampler's last statistics line */
    uint64_t dropped;  /* samples the target's memory bound dropped */
    uint64_t samples;  /* samples received */
} drain_map_t;

/* Adds one drain's payload (the format of profilers/sampler/store.c) to p, cutting it into
 * lines in place: payload[len] must be writable, as in clra_profiler_request's NUL-terminated
 * buffers. 0, or -1 with a sentence in why when the payload is malformed. */
int drain_parse(profile_t *p, drain_map_t *m, char *payload, size_t len, char *why, size_t cap);
/* Frees the frame and thread maps; info, dropped and samples stay for the report. */
void drain_map_free(drain_map_t *m);

struct json_out;

/* Why profile and stack refuse a process where unsafe_beside is set, and what to do. */
#define UNSAFE_BESIDE "detaching a notification-only profiler crashes .NET 10 once a main " \
                      "profiler has detached, as one has here"
#define UNSAFE_BESIDE_HINT "profile it when no main profiler is loaded (the sampler then " \
                           "loads as the main one), or restart it"

/* One attached sampler. */
typedef struct sampler_session {
    int pid;
    clra_profiler_ref_t ref;
    int hold_fd;
    uint64_t inode;
    drain_map_t map;
    profile_t *profile;
    int exited; /* the target went away during the session */
    int detach_expected_ms; /* the sampler's expected-completion hint; -1 before the detach */
    int unload_ms;          /* from the detach request until the library left; -1 unknown */
    int load;               /* SAMPLER_LOAD_*: asked before session_start, then what was done */
    char beside_why[200];   /* loaded beside a main profiler: why ("" when loaded as main) */
    int refused_main;       /* the runtime refused it as the main profiler first (it keeps a
                             * reference to the library from that attempt) */
    int library_refs;       /* after the detach: references the runtime keeps to the library */
    char main_clsid[37];    /* the libclrprof main profiler it was loaded beside, "" none */
    int parked;             /* not detached: that main profiler detached meanwhile */
    int unsafe_beside;      /* not loaded: beside a main profiler after a main one detached */
    const struct cli_run *run; /* the command's run: its start is the deadline's origin */
    double budget_ms;       /* the one deadline, run start + budget_ms: --timeout, plus the
                             * time `profile` spent sampling (not waiting) */
} sampler_session_t;

/* Whether a libclrprof main profiler (the sampler included) has detached from process pid: the
 * mark main_detached.c leaves in the target's /dev/shm. After that a notification-only
 * profiler's detach crashes .NET 10. */
int sampler_main_detached_before(int pid);
/* Whether the libclrprof main profiler the sampler was loaded beside is still loaded (1 too
 * when the endpoints cannot be listed). */
int sampler_main_still_there(const sampler_session_t *s);

/* Finds the sampler library: --profiler, $CLRATTACH_SAMPLER, then beside the installed command,
 * then the build tree. NULL when none exists (after saying why on stderr). */
const char *sampler_path(const char *given);
/* Finds the control endpoint of the sampler loaded with CLSID clsid among process pid's
 * libclrprof profilers: 0, CLRA_ENOENDPOINT when it has none (yet), or the listing's error. */
int session_find_sampler(int pid, const char *clsid, clra_profiler_ref_t *out, clra_status_t *st);
/* Milliseconds left of the session's one deadline (s->run, s->budget_ms), at least 1. */
int session_left_ms(const sampler_session_t *s);
/* Whether a main profiler is loaded in s->pid, as far as can be told without an attach (a
 * libclrprof profiler's status, the environment of a startup profiler), within the session's
 * deadline; 1 with why. */
int sampler_main_taken(const sampler_session_t *s, char *why, size_t cap, char main_clsid[37]);
/* Attaches the sampler with options (client data), finds its endpoint and holds it: as s->load
 * says; SAMPLER_LOAD_AUTO loads it beside a main profiler found by sampler_main_taken, or beside
 * one that refuses it as the main profiler (s->refused_main). Every step within the session's
 * one deadline (s->run and s->budget_ms set before). */
int session_start(sampler_session_t *s, int pid, const char *path, const char *options,
                  int stage, clra_status_t *st);
/* Holds the sampler's control endpoint (it detaches should this command die), and learns the
 * library to watch leave. 0 or an error. */
int session_hold(sampler_session_t *s, int timeout_ms, clra_status_t *st);
/* Says how the sampler was loaded (and what the runtime keeps of it after the detach): fields
 * of j, or lines on stderr when j is NULL. */
void session_report_load(const sampler_session_t *s, struct json_out *j);
/* Drains the samples gathered since the last drain into s->profile, within timeout_ms. */
int session_drain(sampler_session_t *s, int timeout_ms, clra_status_t *st);
/* Last drain, detach, and wait until the library is unmapped, all within the session's one
 * deadline. */
int session_stop(sampler_session_t *s, clra_status_t *st);

/* The sampler refuses --method signal when every real-time signal it could take is handled, or
 * another instance samples by signal there (HRESULT_FROM_WIN32(ERROR_SIGNAL_REFUSED),
 * profilers/sampler/sampler.h). */
#define SAMPLER_E_NO_SIGNAL 0x8007009Cu
#define NO_SIGNAL "--method signal found no real-time signal to take in the target (none free, " \
                  "or another signal sampler runs there)"
#define NO_SIGNAL_HINT "the sampler found no real-time signal to take in the target (none free, " \
                       "or another signal sampler runs there): use --method walk, or leave " \
                       "--method out (signal, else walk)"
/* profile_method.c */
/* The client data's method= for --method given (NULL: not given, "auto": signal, else walk);
 * NULL after saying why on stderr when given is neither signal nor walk. */
const char *method_client(const char *given, const char *verb);
/* Says which method ran, from the sampler's statistics line info (method=, fallback=): the
 * fields "method" and "fallback_reason" of j, or when j is NULL a line on stderr if it fell back
 * to walk. given is --method as the user gave it (NULL: the default). */
void method_report(const char *info, const char *given, struct json_out *j);

#endif
