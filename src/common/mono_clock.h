/* mono_clock.h - the one monotonic clock of the command, the library, the SDK and the
 * profilers: never set back, so deadlines, elapsed times and sample timestamps survive a
 * change of the wall clock.
 *
 * On POSIX it is a plain clock_gettime(CLOCK_MONOTONIC), which POSIX lists as
 * async-signal-safe: the sampler's signal handler may call mono__ns. On Windows it is
 * QueryPerformanceCounter, which counts across sleep like CLOCK_MONOTONIC does not, but
 * neither ever goes back.
 *
 * Static inline like utf.h: the libraries and the profilers are linked separately, and the
 * static command keeps only what it calls.
 */
#ifndef CLRA_COMMON_MONO_CLOCK_H
#define CLRA_COMMON_MONO_CLOCK_H

#include <stdint.h>
#ifdef _WIN32 /* the clock is per platform; header-only, so it cannot be a platform file */
/* The two calls as <windows.h> declares them, without it: the SDK's files must not see
 * windows.h (its corprof types define GUID and HRESULT themselves). The same declarations
 * again when a file includes windows.h too are compatible ones. */
union _LARGE_INTEGER;
__declspec(dllimport) int __stdcall QueryPerformanceCounter(union _LARGE_INTEGER *count);
__declspec(dllimport) int __stdcall QueryPerformanceFrequency(union _LARGE_INTEGER *freq);
#else
#include <time.h>
#endif

/* Nanoseconds on the monotonic clock, from an arbitrary start. */
static inline uint64_t mono__ns(void)
{
#ifdef _WIN32 /* QueryPerformanceCounter; POSIX: CLOCK_MONOTONIC (see the top) */
    int64_t f = 1, c = 0; /* a LARGE_INTEGER is one 64-bit integer */
    QueryPerformanceFrequency((union _LARGE_INTEGER *)&f);
    QueryPerformanceCounter((union _LARGE_INTEGER *)&c);
    return (uint64_t)((double)c * 1e9 / (double)f);
#else
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
#endif
}

/* Milliseconds on the same clock. */
static inline long long mono__ms(void)
{
    return (long long)(mono__ns() / 1000000u);
}

/* Seconds on the same clock, for rates and progress. */
static inline double mono__s(void)
{
    return (double)mono__ns() / 1e9;
}

#endif
