/* profile_drain.h - `clrattach profile` and `stack` talking to the sampler profiler
 * (profilers/sampler): attach it, hold it, drain its samples into a profile, detach it. */
#ifndef CLRA_CLI_PROFILE_DRAIN_H
#define CLRA_CLI_PROFILE_DRAIN_H

#include "clrattach.h"
#include "render/profile.h"

/* The sampler's CLSID, {8A3C5B1E-6F0D-4C2A-9E57-2D4F1B3A6C90}. */
#define SAMPLER_CLSID "8A3C5B1E-6F0D-4C2A-9E57-2D4F1B3A6C90"

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
} sampler_session_t;

/* Finds the sampler library: --profiler, $CLRATTACH_SAMPLER, then beside the installed command,
 * then the build tree. NULL when none exists (after saying why on stderr). */
const char *sampler_path(const char *given);
/* Finds the sampler's control endpoint among process pid's libclrprof profilers: 0,
 * CLRA_ENOENDPOINT when it has none (yet), or the listing's error. */
int session_find_sampler(int pid, clra_profiler_ref_t *out, clra_status_t *st);
/* Attaches the sampler with options (client data), finds its endpoint and holds it. */
int session_start(sampler_session_t *s, int pid, const char *path, const char *options,
                  int stage, int timeout_ms, clra_status_t *st);
/* Drains the samples gathered since the last drain into s->profile. */
int session_drain(sampler_session_t *s, int timeout_ms, clra_status_t *st);
/* Last drain, detach, and wait until the library is unmapped. */
int session_stop(sampler_session_t *s, int timeout_ms, clra_status_t *st);

#endif
