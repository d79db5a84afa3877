/* status.c - filling a caller's clra_status_t: every layer explains its failures here. */
#include "util/status.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void clra__detail(clra_status_t *st, const char *fmt, ...)
{
    if (!st)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(st->detail, sizeof st->detail, fmt, ap);
    va_end(ap);
}

clra_status_t *clra__status_begin(clra_status_t *st, clra_status_t *local)
{
    if (!st)
        st = local;
    memset(st, 0, sizeof *st);
    return st;
}
