/* profile_load.c - how `profile` and `stack` load the sampler: as the main profiler, or as a
 * notification-only profiler beside a main one that already holds the runtime's single main
 * slot (an APM agent). The choice has to be made before the attach: an attach refused with
 * CORPROF_E_PROFILER_ALREADY_ACTIVE leaves the runtime holding a reference to the library, so
 * trying as the main profiler first would keep the sampler mapped for good. */
#define _GNU_SOURCE
#include "base/cli.h"
#include "profile/profile_drain.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define STATUS_WAIT_MS 2000
#define MAX_REFS 16

/* A libclrprof profiler in pid whose status says it is the main one; its name in why. */
static int sdk_main_profiler(const sampler_session_t *s, char *why, size_t cap, char clsid[37])
{
    clra_status_t st;
    clra_profiler_ref_t *refs = calloc(MAX_REFS, sizeof *refs);
    int n = refs ? clra_profiler_list(s->pid, refs, MAX_REFS, &st) : 0, found = 0;
    for (int i = 0; i < n && i < MAX_REFS && !found; i++) {
        char reply[512], name[64] = "?";
        int left = session_left_ms(s);
        if (clra_profiler_status(&refs[i], left < STATUS_WAIT_MS ? left : STATUS_WAIT_MS,
                                 reply, sizeof reply, &st) != 0 ||
            !strstr(reply, " notification_only=0"))
            continue;
        const char *at = strstr(reply, "name=");
        if (at)
            sscanf(at, "name=%63s", name);
        snprintf(why, cap, "the libclrprof profiler '%s' (%s) is the main profiler", name,
                 refs[i].clsid);
        snprintf(clsid, 37, "%s", refs[i].clsid);
        found = 1;
    }
    free(refs);
    return found;
}

/* A startup profiler the target's environment enables (how APM agents are loaded):
 * CORECLR_ENABLE_PROFILING=1 with CORECLR_PROFILER set. */
static int startup_profiler(int pid, int timeout_ms, char *why, size_t cap)
{
    clra_environment_t env;
    clra_status_t st;
    clra_target_t target = clra_target_pid(pid);
    const char *enabled = NULL, *clsid = NULL;
    if (clra_environment_get(&target, timeout_ms, &env, &st) != 0)
        return 0;
    for (size_t i = 0; i < env.count; i++) {
        if (strcmp(env.vars[i].name, "CORECLR_ENABLE_PROFILING") == 0)
            enabled = env.vars[i].value;
        else if (strcmp(env.vars[i].name, "CORECLR_PROFILER") == 0)
            clsid = env.vars[i].value;
    }
    int found = enabled && strcmp(enabled, "1") == 0 && clsid && clsid[0];
    if (found)
        snprintf(why, cap, "its environment loads the startup profiler %.60s "
                 "(CORECLR_ENABLE_PROFILING=1)", clsid);
    clra_environment_free(&env);
    return found;
}

int sampler_main_taken(const sampler_session_t *s, char *why, size_t cap, char main_clsid[37])
{
    main_clsid[0] = '\0';
    return sdk_main_profiler(s, why, cap, main_clsid) ||
           startup_profiler(s->pid, session_left_ms(s), why, cap);
}

/* The library reads the mark (procfs is its one reader of /proc); a process it cannot judge
 * counts as unmarked, as it always has. */
int sampler_main_detached_before(int pid)
{
    return clra_profiler_main_detached(pid) == 1;
}

int sampler_main_still_there(const sampler_session_t *s)
{
    clra_status_t st;
    clra_profiler_ref_t *refs = calloc(MAX_REFS, sizeof *refs);
    int n = refs ? clra_profiler_list(s->pid, refs, MAX_REFS, &st) : -1, found = n < 0;
    for (int i = 0; i < n && i < MAX_REFS; i++)
        found |= strcmp(refs[i].clsid, s->main_clsid) == 0;
    free(refs);
    return found;
}
