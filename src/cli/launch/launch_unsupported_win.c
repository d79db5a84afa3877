/* launch_unsupported_win.c - launch's trace (launch_trace.c) on Windows, which has none yet:
 * --trace is refused while the options are parsed (launch_refuses_option), so cmd_launch.c
 * never calls these; each fails if it ever is. */
#include "launch/launch.h"

int launch_trace_open(launch_trace_t *t, const char *path, const trace_stop_event_t *e)
{
    (void)t, (void)path, (void)e;
    return -1;
}

const char *launch_trace_due(launch_trace_t *t, long long duration_s, char *why, size_t cap)
{
    (void)t, (void)duration_s, (void)why, (void)cap;
    return NULL;
}

int launch_trace_start(launch_trace_t *t, const clra_target_t *target,
                       const clra_trace_config_t *cfg, int timeout_ms, int pid,
                       clra_status_t *st)
{
    (void)t, (void)target, (void)cfg, (void)timeout_ms, (void)pid, (void)st;
    return CLRA_EINVAL;
}

int launch_trace_stop(launch_trace_t *t, const clra_target_t *target, int timeout_ms,
                      clra_status_t *st)
{
    (void)t, (void)target, (void)timeout_ms, (void)st;
    return CLRA_EINVAL;
}

void launch_trace_abandon(launch_trace_t *t)
{
    (void)t;
}

void launch_trace_finish(launch_trace_t *t, int timeout_ms, int pid, int status)
{
    (void)t, (void)timeout_ms, (void)pid, (void)status;
}

int launch_trace_convert(const launch_trace_t *t, unsigned formats)
{
    (void)t, (void)formats;
    return -1;
}
