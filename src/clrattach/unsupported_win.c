/* unsupported_win.c - the public functions that have no Windows twin yet (docs/windows.md):
 * each fails with CLRA_EINVAL and a detail saying so, so a program built against the full API
 * links on Windows and learns at run time what is missing instead of crashing. */
#include "clrattach.h"
#include "target/process_win.h"
#include "util/status.h"


/* The one answer of every stub: CLRA_EINVAL, "FN is not supported on Windows (yet)". */
static int unsupported(clra_status_t *st, const char *fn)
{
    clra_status_t local;
    st = clra__status_begin(st, &local);
    clra__detail(st, "%s is not supported on Windows yet (docs/windows.md)", fn);
    return CLRA_EINVAL;
}

int clra_process_is_alive(int pid)
{
    return pid > 0 && clra__win_process_exists(pid);
}

int clra_process_owner_get(int pid, uint32_t *uid, clra_status_t *st)
{
    (void)pid, (void)uid;
    return unsupported(st, "clra_process_owner_get (Windows owners are SIDs, not uids)");
}

/* Staging copies a profiler into a container's file tree: Linux only by nature. */
int clra_stage_create(int pid, const char *library_path, clra_stage_t **out, clra_status_t *st)
{
    (void)pid, (void)library_path;
    if (out)
        *out = NULL;
    return unsupported(st, "clra_stage_create (staging is for Linux containers)");
}
const char *clra_stage_local_path(const clra_stage_t *s) { (void)s; return ""; }
const char *clra_stage_target_path(const clra_stage_t *s) { (void)s; return ""; }
void clra_stage_release(clra_stage_t *s) { (void)s; }
int clra_stage_remove(clra_stage_t *s, clra_status_t *st)
{
    (void)s;
    return unsupported(st, "clra_stage_remove");
}
int clra_stage_sweep(int pid, int *removed, clra_status_t *st)
{
    (void)pid;
    if (removed)
        *removed = 0;
    return unsupported(st, "clra_stage_sweep");
}

/* libclrprof leaves main-detached marks in /dev/shm, on Linux only: none to find here. */
int clra_profiler_main_detached(int pid)
{
    (void)pid;
    return 0;
}
