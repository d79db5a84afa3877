/* deadline.c - one monotonic deadline shared by every blocking step of a command. */
#define _GNU_SOURCE
#include "util/deadline.h"
#include "common/mono_clock.h"

#include <stdint.h>
#ifdef _WIN32 /* what clra__sleep_ms below calls on each platform */
#include <windows.h> /* Sleep */
#else
#include <time.h> /* nanosleep */
#endif

clra__deadline_t clra__deadline_in(int timeout_ms)
{
    clra__deadline_t d = {0, timeout_ms < 0};
    if (!d.infinite)
        d.end_ns = (int64_t)mono__ns() + (int64_t)timeout_ms * 1000000;
    return d;
}

int clra__deadline_left_ms(const clra__deadline_t *d)
{
    if (d->infinite)
        return -1;
    int64_t left = d->end_ns - (int64_t)mono__ns();
    if (left <= 0)
        return 0;
    int64_t ms = (left + 999999) / 1000000;
    return ms > INT32_MAX ? INT32_MAX : (int)ms;
}

/* One pause for every polling loop, so shared code needs no platform #ifdef of its own. */
void clra__sleep_ms(int ms)
{
#ifdef _WIN32 /* the pause; its seam belongs with the clock helper */
    Sleep((DWORD)ms);
#else
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
#endif
}
