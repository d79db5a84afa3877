/* profiler_control_win.c - the Windows side of profiler_control.c: libclrprof's control pipes
 * are \\.\pipe\clrprof-<pid>-<slot> (slot 0..7, src/clrprof/service_win.c), found by probing
 * each slot (wine cannot list \\.\pipe\) and asked their CLSID; a detached DLL is gone when no
 * module of the process sits at its base address any more; a holder keeps one connected
 * instance of the pipe. */
#include "profiler_control.h"
#include "common/shared_names.h" /* CONTROL_PIPE_FORMAT, CONTROL_SLOTS */
#include "target/process_win.h"
#include "util/deadline.h"
#include "util/status.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>

#define PROBE_TIMEOUT_MS 2000
#define POLL_MS 10

/* Fills ref from the profiler's status line ("ok name=... clsid=C ..."); 0 or -1. */
static int ref_from_status(int pid, const char *path, clra_profiler_ref_t *ref)
{
    char reply[512];
    memset(ref, 0, sizeof *ref);
    ref->pid = pid;
    snprintf(ref->path, sizeof ref->path, "%s", path);
    if (clra_profiler_status(ref, PROBE_TIMEOUT_MS, reply, sizeof reply, NULL) != 0)
        return -1;
    const char *at = strstr(reply, " clsid=");
    if (!at || strlen(at + 7) < 36)
        return -1;
    memcpy(ref->clsid, at + 7, 36);
    ref->clsid[36] = '\0';
    return 0;
}

int clra_profiler_list(int pid, clra_profiler_ref_t *out, int max, clra_status_t *st)
{
    clra_status_t local;
    st = clra__status_begin(st, &local);
    if (!clra__win_process_exists(pid)) {
        clra__detail(st, "no process %d", pid);
        return CLRA_ENOPROC;
    }
    int count = 0;
    for (int slot = 0; slot < CONTROL_SLOTS; slot++) {
        char path[64];
        wchar_t wpath[64];
        clra_profiler_ref_t ref;
        snprintf(path, sizeof path, CONTROL_PIPE_FORMAT, pid, slot);
        swprintf(wpath, 64, L"" CONTROL_PIPE_FORMAT, pid, slot);
        if (!WaitNamedPipeW(wpath, PROBE_TIMEOUT_MS) || ref_from_status(pid, path, &ref) != 0)
            continue;
        if (out && count < max)
            out[count] = ref;
        count++;
    }
    if (count == 0)
        clra__detail(st, "process %d has no libclrprof profiler with a control pipe "
                     "(" CONTROL_PIPE_FORMAT "..%d; only profilers built on libclrprof, without "
                     "control=0, can be reached)", pid, pid, 0, CONTROL_SLOTS - 1);
    return count;
}

int clra_library_wait_unmapped(int pid, uint64_t inode, int timeout_ms, clra_status_t *st)
{
    clra__deadline_t d = clra__deadline_in(timeout_ms);
    for (;;) {
        /* The module list is read from the target's memory and can fail while the loader
         * changes it (ERROR_PARTIAL_COPY, often under wine): only a gone process is final. */
        int loaded = clra__win_module_loaded(pid, inode, NULL);
        if (loaded < 0 && !clra__win_process_exists(pid)) {
            clra__detail(st, "process %d exited while its profiler was detaching", pid);
            return CLRA_ENOPROC;
        }
        if (loaded == 0)
            return 0;
        if (clra__deadline_left_ms(&d) == 0) {
            clra__detail(st, "the profiler DLL (base 0x%llx) is still loaded in process %d after "
                         "%d ms: a callback may still be running or a profiler thread has not "
                         "stopped", (unsigned long long)inode, pid, timeout_ms);
            return CLRA_ETIMEDOUT;
        }
        Sleep(POLL_MS);
    }
}

int clra_library_is_mapped(int pid, const char *path)
{
    if (pid <= 0 || !path || !path[0])
        return CLRA_EINVAL;
    int rc = clra__win_module_loaded(pid, 0, path);
    return rc < 0 ? CLRA_ENOPROC : rc;
}

/* The control pipe admits its process's user and administrators, the attach's own rule, so an
 * attach that works leaves a profiler this process can control. */
int clra_profiler_control_check(int pid, clra_status_t *st)
{
    (void)pid;
    if (st)
        memset(st, 0, sizeof *st);
    return 0;
}

/* The caller only waits for the pipe's hang-up and closes it: the connection's event goes. */
void clra__control_keep(clra__conn_t *c, int *fd)
{
    void *event;
    clra__conn_store(c, fd, &event);
    if (event)
        CloseHandle(event);
}
