/* launch_unsupported_win.c - launch's profile (launch_profile.c) on Windows, which has no
 * sampler yet: --profile is refused while the options are parsed (launch_refuses_option), so
 * cmd_launch.c never calls these; each fails if it ever is. */
#include "launch/launch.h"

int launch_profile_choose(launch_opts_t *o)
{
    (void)o;
    return -1;
}

int launch_profile_open(launch_profile_t *lp, const launch_opts_t *o, const char *dir)
{
    (void)lp, (void)o, (void)dir;
    return -1;
}

void launch_profile_connect(launch_profile_t *lp, int pid, int timeout_ms)
{
    (void)lp, (void)pid, (void)timeout_ms;
}

void launch_profile_poll(launch_profile_t *lp, int force, int timeout_ms)
{
    (void)lp, (void)force, (void)timeout_ms;
}

int launch_profile_finish(launch_profile_t *lp, int status)
{
    (void)lp, (void)status;
    return -1;
}

void launch_profile_abandon(launch_profile_t *lp)
{
    (void)lp;
}
