/* stage_place.c - where a target keeps temporary files, for staging profiler copies. */
#include "target/endpoint.h"
#include "stage/stage.h"
#include "util/status.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int clra__stage_errno(int e)
{
    if (e == EACCES || e == EPERM)
        return CLRA_EACCES;
    if (e == ENOMEM)
        return CLRA_ENOMEM;
    if (e == ESRCH)
        return CLRA_ENOPROC;
    return CLRA_EIO;
}

int clra__stage_place(int pid, clra__stage_place_t *pl, clra_status_t *st)
{
    if (!clra__procfs_exists(CLRA__PROC, pid)) {
        clra__detail(st, "no process %d (/proc/%d missing)", pid, pid);
        return CLRA_ENOPROC;
    }
    clra__discovery_t *v = malloc(sizeof *v);
    if (!v)
        return CLRA_ENOMEM;
    clra__discovery_view(CLRA__PROC, pid, v);
    int e = v->environ_errno, rc = 0;
    if (e) {
        if (st)
            st->sys_errno = e;
        clra__detail(st, "cannot read /proc/%d/environ (%s), so the temp directory of process %d "
                     "is unknown; run as its owner or root", pid, strerror(e), pid);
        rc = e == ENOENT ? CLRA_ENOPROC : clra__stage_errno(e);
    } else {
        pl->ns_pid = v->ns_pid;
        clra__stage_owner(pl->owner, v->ns_pid, v->key);
        snprintf(pl->tmpdir, sizeof pl->tmpdir, "%s", v->tmpdir[0] == '/' ? v->tmpdir : "/tmp");
        for (size_t n = strlen(pl->tmpdir); n > 0 && pl->tmpdir[n - 1] == '/';)
            pl->tmpdir[--n] = '\0';
    }
    free(v);
    return rc;
}
