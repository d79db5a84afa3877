/* nettrace_decode.c - the library's NetTrace decoder over one file, timed.
 *
 *   bench_nettrace_decode FILE           prints "BYTES EVENTS SECONDS" (decode and payload walk
 *                                         of every event, the work a converter does)
 *   bench_nettrace_decode FILE --counts  prints one line per provider/event: COUNT PROVIDER/ID/
 *                                         NAME, then the payloads the walk refused, if any
 *
 * bench/run compares the first form with TraceEvent's reading of the same file. */
#define _GNU_SOURCE
#include "clrattach.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct tally {
    const clra_nettrace_metadata_t *meta[4096]; /* valid while decoding only */
    char name[4096][200];
    unsigned long long count[4096], refused[4096];
    char first_refusal[4096][160];
    size_t n;
    int walk;
    unsigned long long values;
} tally_t;

static int count_value(void *ctx, const clra_nettrace_value_t *v)
{
    ((tally_t *)ctx)->values += v->kind == CLRA_NETTRACE_VALUE;
    return 0;
}

static int on_event(void *ctx, const clra_nettrace_event_t *ev)
{
    tally_t *t = ctx;
    size_t i = 0;
    while (i < t->n && t->meta[i] != ev->meta)
        i++;
    if (i == t->n && t->n < 4096) {
        const clra_nettrace_metadata_t *m = ev->meta;
        snprintf(t->name[t->n], sizeof t->name[0], "%.100s/%u/%.80s", m ? m->provider : "?",
                 m ? m->event_id : 0, m ? m->event_name : "?");
        t->meta[t->n++] = ev->meta;
    }
    if (i == t->n)
        return 0;
    t->count[i]++;
    if (ev->meta && t->walk) {
        clra_status_t st;
        if (clra_nettrace_payload_walk(ev->meta, ev->payload, ev->payload_len, count_value, t,
                                       &st) != 0 &&
            t->refused[i]++ == 0)
            snprintf(t->first_refusal[i], sizeof t->first_refusal[i], "%.150s", st.detail);
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2 || (argc == 3 && strcmp(argv[2], "--counts") != 0) || argc > 3) {
        fprintf(stderr, "usage: bench_nettrace_decode FILE [--counts]\n");
        return 2;
    }
    static tally_t t;
    t.walk = 1;
    clra_nettrace_callbacks_t cb = {0};
    cb.event = on_event;
    clra_nettrace_info_t info;
    clra_status_t st;
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    int rc = clra_nettrace_decode_file(argv[1], &cb, &t, &info, &st);
    clock_gettime(CLOCK_MONOTONIC, &b);
    unsigned long long events = 0;
    for (size_t i = 0; i < t.n; i++)
        events += t.count[i];
    if (rc != 0)
        fprintf(stderr, "bench_nettrace_decode: %s: %s\n", argv[1], st.detail);
    if (argc == 2) {
        printf("%llu %llu %.6f\n", (unsigned long long)info.size, events,
               (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9);
        return rc ? 1 : 0;
    }
    for (size_t i = 0; i < t.n; i++)
        printf("%llu %s\n", t.count[i], t.name[i]);
    for (size_t i = 0; i < t.n; i++)
        if (t.refused[i])
            printf("refused %llu: %s\n", t.refused[i], t.first_refusal[i]);
    return rc ? 1 : 0;
}
