/* runtime_version.c - which runtime a verb talks to, for the verbs whose session depends on it
 * (counters: the runtime's Meter or its EventCounters; profile's event modes: which events). */
#include "base/cli.h"

#include <stdlib.h>

int cli_runtime_version(const clra_target_t *t, int timeout_ms, char *buf, size_t cap,
                        unsigned *major)
{
    clra_process_info_t info;
    clra_status_t st;
    *major = 0;
    if (buf && cap)
        buf[0] = '\0';
    if (clra_process_info_get(t, timeout_ms, &info, &st) != 0)
        return -1;
    const char *v = info.clr_version;
    if (v && buf && cap)
        snprintf(buf, cap, "%s", v);
    if (v && v[0] >= '0' && v[0] <= '9') /* "8.0.31", "10.0.0-rc.1...", "9.0.20+abc" */
        *major = (unsigned)strtoul(v, NULL, 10);
    int rc = v ? 0 : -1; /* decided before the free that v points into */
    clra_process_info_free(&info);
    return rc;
}
