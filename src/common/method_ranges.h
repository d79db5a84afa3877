/* method_ranges.h - the one table of JIT-compiled methods' code ranges a trace names (method
 * load, unload and rundown events), sorted by start address, and the lookup of the method
 * covering an address: the library's CPU samples (cpu_samples.c) and the command's event
 * profiles (profile/profile_events_collect.c) both name raw stack addresses with it.
 *
 * Static inline like utf.h: the command reaches none of the library's internals, and the static
 * command keeps only what it calls.
 */
#ifndef CLRA_COMMON_METHOD_RANGES_H
#define CLRA_COMMON_METHOD_RANGES_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct method__range {
    uint64_t start, size;
    char *name; /* "Namespace.Name", malloc'd */
} method__range_t;

/* qsort's order for method__sort: by start address. */
static inline int method__by_start(const void *a, const void *b)
{
    const method__range_t *x = a, *y = b;
    return x->start < y->start ? -1 : x->start > y->start;
}

/* Sorts the n ranges for method__covering; n may be 0 with m NULL (qsort(NULL, 0) is undefined:
 * a trace cut before any method event). */
static inline void method__sort(method__range_t *m, size_t n)
{
    if (n)
        qsort(m, n, sizeof *m, method__by_start);
}

/* The method of the n sorted ranges whose code holds ip (the last starting at or below it), or
 * NULL. */
static inline const method__range_t *method__covering(const method__range_t *m, size_t n,
                                                       uint64_t ip)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (m[mid].start <= ip)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return NULL;
    const method__range_t *c = &m[lo - 1];
    return ip - c->start < c->size ? c : NULL;
}

#endif
