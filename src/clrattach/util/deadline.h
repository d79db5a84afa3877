/* deadline.h - an absolute point on the monotonic clock (internal). Every blocking step of a
 * command (connect, send, receive, poll) takes the one deadline, so a command can never outlive
 * its timeout by the sum of its steps. */
#ifndef CLRA_UTIL_DEADLINE_H
#define CLRA_UTIL_DEADLINE_H

#include <stdint.h>

/* Infinite when built from a negative timeout. */
typedef struct clra__deadline {
    int64_t end_ns;
    int infinite;
} clra__deadline_t;

clra__deadline_t clra__deadline_in(int timeout_ms);
/* Milliseconds left, rounded up: -1 when infinite, 0 when passed. */
int clra__deadline_left_ms(const clra__deadline_t *d);
/* Sleeps ms milliseconds (the polling loops' pause), on Linux and Windows alike. */
void clra__sleep_ms(int ms);

#endif
