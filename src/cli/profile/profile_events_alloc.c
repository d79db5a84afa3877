/* profile_events_alloc.c - profile --mode alloc: who allocates, the allocated type as the top
 * frame, weighed in bytes. .NET 10's AllocationSampled events (AllocationSampling keyword) are
 * a random sample of the bytes allocated; each is scaled up by the estimate the runtime's
 * design documents (docs/design/features/RandomizedAllocationSampling.md, "weighted
 * samples"): an object of size s was sampled with probability 1 - q^s, q = 1 - 1/102400, so it
 * stands for s / (1 - q^s) bytes. Older runtimes have GCAllocationTick (GC keyword, verbose):
 * one event each time about 100 KB more were allocated, weighed by the bytes since the last. */
#include "profile/profile_events.h"

#include <string.h>

#define GC_KEYWORD 0x1ull
#define SAMPLING_KEYWORD 0x80000000000ull
#define SAMPLING_MEAN 102400.0 /* bytes between samples on average */

/* q^s by squaring: no libm for one power. */
static double power(double q, uint64_t s)
{
    double r = 1.0;
    for (; s; s >>= 1, q *= q)
        if (s & 1)
            r *= q;
    return r;
}

/* The bytes an AllocationSampled object of size stands for. */
static double upscaled(uint64_t size)
{
    double p = 1.0 - power(1.0 - 1.0 / SAMPLING_MEAN, size);
    return size && p > 0 ? (double)size / p : 0;
}

static int plan(pe_run_t *r, unsigned major)
{
    if (major >= 10) {
        r->keywords = SAMPLING_KEYWORD;
        r->source = "AllocationSampled";
        r->misses = "a random sample of the bytes allocated (one object in about every 100 KiB, "
                    "each scaled up to the bytes it stands for): rare allocations may be "
                    "missing and small shares are estimates";
        return 0;
    }
    r->keywords = GC_KEYWORD;
    r->source = "GCAllocationTick";
    r->misses = "one event each time about 100 KB more were allocated (on .NET 10, randomised "
                "AllocationSampled events replace it): the whole amount goes to the object and "
                "stack that crossed the mark, so types and methods that allocate little and "
                "rarely may be missing or over-weighed";
    return 0;
}

static int event(pe_run_t *r, const clra_nettrace_event_t *ev, const char *name)
{
    int sampled = strcmp(name, "AllocationSampled") == 0;
    if (!sampled && strcmp(name, "GCAllocationTick") != 0)
        return 0;
    pe_field_t f[4] = {{.name = "TypeName"}, {.name = "ObjectSize"},
                       {.name = "AllocationAmount64"}, {.name = "AllocationAmount"}};
    pe_fields(r, ev, f, 4);
    double up = sampled ? upscaled(f[1].u) + 0.5 : 0; /* a hostile size may pass 2^64 */
    uint64_t bytes = sampled ? (up >= 0x1p64 ? UINT64_MAX : (uint64_t)up)
                             : f[2].found ? f[2].u : f[3].u;
    r->events++;
    return pe_add(r, ev->thread_id, ev->stack, ev->stack_len,
                  f[0].text[0] ? f[0].text : "[type unknown]", bytes);
}

static void report(const pe_run_t *r, json_out_t *j, FILE *f)
{
    if (j)
        json_str(j, "can_miss", r->misses);
    else
        fprintf(f, "allocations from %s events: %s\n", r->source, r->misses);
}

const pe_mode_t pe_mode_alloc = {"alloc", "alloc_space", "bytes", plan, event, report, NULL};
