/* writers.h - one writer per profile format (write_*.c): each renders the model of profile.h
 * and needs nothing but it (and base/json_escape.h for the strings it writes). */
#ifndef CLRA_CLI_RENDER_WRITERS_H
#define CLRA_CLI_RENDER_WRITERS_H

#include "render/profile.h"

#include <stdio.h>

/* Writer options. */
typedef struct profile_write_opts {
    int threads; /* a root frame per thread ("[thread NAME tid]") */
    int top_n;   /* rows of the top table (default 20) */
} profile_write_opts_t;

/* Writers; each returns 0 or -1 when writing failed (errno says why). */
int profile_write_folded(const profile_t *p, const profile_write_opts_t *o, FILE *f);
int profile_write_top(const profile_t *p, const profile_write_opts_t *o, FILE *f);
int profile_write_speedscope(const profile_t *p, const profile_write_opts_t *o, FILE *f);
int profile_write_pprof(const profile_t *p, const profile_write_opts_t *o, int gzip, FILE *f);
int profile_write_flamegraph(const profile_t *p, const profile_write_opts_t *o, FILE *f);
/* The Chrome trace-event format from the timeline (empty without one). */
int profile_write_chromium(const profile_t *p, const profile_write_opts_t *o, FILE *f);

#endif
