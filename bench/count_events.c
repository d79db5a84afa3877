/* count_events.c - how many events of one provider a .nettrace file holds.
 *
 *   bench_count_events FILE PROVIDER    prints "EVENTS COMPLETE" (COMPLETE 1 when the file
 *                                        parses to its end marker)
 *
 * bench/run counts what each tracer kept with this one reader (the e2e tests' NetTrace
 * reader), so neither tool's own report is trusted. */
#include "nettrace_reader.h"

typedef struct count {
    const char *provider;
    unsigned long long events;
} count_t;

static void count_one(void *ctx, const nt_event_t *ev)
{
    count_t *c = ctx;
    c->events += ev->meta && strcmp(ev->meta->provider, c->provider) == 0;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: bench_count_events FILE PROVIDER\n");
        return 2;
    }
    size_t len;
    uint8_t *data = nt_load(argv[1], &len);
    if (!data) {
        fprintf(stderr, "bench_count_events: cannot read %s\n", argv[1]);
        return 1;
    }
    count_t c = {argv[2], 0};
    nt_trace_t t;
    int complete = nt_read(data, len, &t, count_one, &c) == 0;
    if (!complete)
        fprintf(stderr, "bench_count_events: %s: %s\n", argv[1], t.error);
    printf("%llu %d\n", c.events, complete);
    nt_free(&t);
    free(data);
    return 0;
}
