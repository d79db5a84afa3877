/* reliability.h - shared by the stress and faults tests (ctest labels stress, faults): the
 * counts CI runs and the full ones scripts/reliability.sh asks for (CLRA_RELIABILITY_FULL=1),
 * and one figure line per measurement for docs/RELIABILITY.md. */
#ifndef CLRA_RELIABILITY_H
#define CLRA_RELIABILITY_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* full when CLRA_RELIABILITY_FULL=1, else the reduced count CI runs. */
static inline int rel_count(int reduced, int full)
{
    const char *v = getenv("CLRA_RELIABILITY_FULL");
    return v && v[0] == '1' ? full : reduced;
}

static inline double rel_now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* "FIGURE key=value ..." on stdout: scripts/reliability.sh collects these lines. */
#define REL_FIGURE(...) (printf("FIGURE " __VA_ARGS__), printf("\n"), fflush(stdout))

#endif
