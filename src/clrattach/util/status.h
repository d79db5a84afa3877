/* status.h - filling a caller's clra_status_t (internal). Every layer reports through these, so
 * a detail reads the same whichever layer failed. */
#ifndef CLRA_UTIL_STATUS_H
#define CLRA_UTIL_STATUS_H

#include "clrattach.h"

/* Formats into st->detail (no-op when st is NULL). */
/* mingw's snprintf (with __USE_MINGW_ANSI_STDIO) takes %zu like glibc's: gnu_printf says so. */
#ifdef __MINGW32__
#define CLRA__PRINTF_FORMAT gnu_printf
#else
#define CLRA__PRINTF_FORMAT printf
#endif
void clra__detail(clra_status_t *st, const char *fmt, ...)
    __attribute__((format(CLRA__PRINTF_FORMAT, 2, 3)));

/* Clears *st (or points it at local storage when the caller passed NULL, which every public
 * function allows): the common start of a command. */
clra_status_t *clra__status_begin(clra_status_t *st, clra_status_t *local);

#endif
