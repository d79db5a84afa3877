/* profiler_control_unix.c - the Unix side of profiler_control.c (profiler_control.h):
 * libclrprof's control sockets are clrprof-<ns_pid>-<clsid>.sock beside the runtime's socket,
 * a holder keeps one connected socket, and a library's presence is read from /proc/PID/maps. */
#define _GNU_SOURCE
#include "profiler_control.h"
#include "common/shared_names.h" /* CONTROL_NAME_PREFIX, CONTROL_SOCKET_SUFFIX */
#include "target/procfs.h"
#include "util/small_libc.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define POLL_MS 10

/* Whether name is clrprof-<ns_pid>-<36-char clsid>.sock; copies the clsid when it is. */
static int control_name_matches(const char *name, int ns_pid, char clsid[37])
{
    char prefix[32];
    size_t suffix = sizeof CONTROL_SOCKET_SUFFIX - 1;
    int n = snprintf(prefix, sizeof prefix, CONTROL_NAME_PREFIX "%d-", ns_pid);
    size_t len = strlen(name);
    if (strncmp(name, prefix, (size_t)n) != 0 || len != (size_t)n + CLSID_TEXT_LEN + suffix ||
        strcmp(name + len - suffix, CONTROL_SOCKET_SUFFIX) != 0)
        return 0;
    memcpy(clsid, name + n, CLSID_TEXT_LEN);
    clsid[CLSID_TEXT_LEN] = '\0';
    return 1;
}

int clra_profiler_list(int pid, clra_profiler_ref_t *out, int max, clra_status_t *st)
{
    clra_endpoint_t ep;
    clra_status_t local;
    st = clra__status_begin(st, &local);
    int err = clra_endpoint_find(pid, &ep, st);
    if (err)
        return err;
    char *slash = strrchr(ep.path, '/');
    if (!slash)
        return CLRA_ENOENDPOINT;
    *slash = '\0'; /* the directory holding the runtime's socket holds ours too */
    DIR *d = opendir(ep.path);
    if (!d) {
        clra__detail(st, "cannot list %s: %s", ep.path, strerror(errno));
        return CLRA_EIO;
    }
    int count = 0;
    struct dirent *e;
    char clsid[37];
    while ((e = readdir(d)) != NULL) {
        size_t dir_len = strlen(ep.path);
        if (!control_name_matches(e->d_name, ep.ns_pid, clsid) ||
            dir_len + 1 + strlen(e->d_name) >= sizeof out->path)
            continue;
        if (count < max && out) {
            out[count].pid = pid;
            memcpy(out[count].clsid, clsid, sizeof clsid);
            memcpy(out[count].path, ep.path, dir_len);
            out[count].path[dir_len] = '/';
            strcpy(out[count].path + dir_len + 1, e->d_name);
        }
        count++;
    }
    closedir(d);
    if (count == 0)
        clra__detail(st, "process %d has no libclrprof profiler with a control endpoint in %s "
                     "(only profilers built on libclrprof, without control=0, can be reached)",
                     pid, ep.path);
    return count;
}

int clra_library_wait_unmapped(int pid, uint64_t inode, int timeout_ms, clra_status_t *st)
{
    clra__deadline_t d = clra__deadline_in(timeout_ms);
    for (;;) {
        int mapped = clra__procfs_inode_mapped(CLRA__PROC, pid, inode);
        if (mapped < 0) {
            clra__detail(st, "process %d exited while its profiler was detaching", pid);
            return CLRA_ENOPROC;
        }
        if (!mapped)
            return 0;
        if (clra__deadline_left_ms(&d) == 0) {
            clra__detail(st, "the profiler library (inode %" PRIu64 ") is still mapped in process "
                         "%d after %d ms: a callback may still be running or a profiler thread "
                         "has not stopped", inode, pid, timeout_ms);
            return CLRA_ETIMEDOUT;
        }
        nanosleep(&(struct timespec){0, POLL_MS * 1000000L}, NULL);
    }
}

void clra__control_keep(clra__conn_t *c, int *fd)
{
    *fd = c->fd;
}

/* Stops at the first mapping whose text contains the path ctx points at. */
static int names_path(void *ctx, const clra__maps_line_t *line)
{
    return clra__strfind(line->text, (const char *)ctx) != NULL;
}

int clra_library_is_mapped(int pid, const char *path)
{
    if (pid <= 0 || !path || !path[0])
        return CLRA_EINVAL;
    int rc = clra__procfs_maps_each(CLRA__PROC, pid, names_path, (void *)path);
    return rc < 0 ? CLRA_ENOPROC : rc;
}
