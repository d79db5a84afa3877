/* control_client.c - the trigger's side of the libclrprof control endpoint (see
 * src/sdk/control.c): find a process's SDK profilers, ask one to detach, hold one, and watch
 * its library leave the process. */
#define _GNU_SOURCE
#include "clrattach.h"
#include "common/mono_clock.h"
#include "common/shared_names.h" /* CONTROL_NAME_PREFIX, CONTROL_SOCKET_SUFFIX */
#include "util/small_libc.h"
#include "ipc/request.h"
#include "ipc/transport.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#define REPLY_MAX 512
#define POLL_MS 10

#ifdef _WIN32
/* Windows: listing, the unload wait and the module checks are in profiler_control_win.c. */
#include <windows.h>
#else
#include "target/procfs.h"

#include <dirent.h>
#include <unistd.h>


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

#endif

#ifndef _WIN32
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
#endif

/* Sends one command line and reads the one-line reply, all under d. The connect takes the same
 * checked path as the runtime's socket (owner, links, listener's pid), since a profiler's
 * endpoint sits in the same shared directory. */
static int request(const clra_profiler_ref_t *ref, const char *command, char *reply,
                   const clra__deadline_t *d, clra__conn_t *c, clra_status_t *st)
{
    char line[64];
    clra__endpoint_t *ep = calloc(1, sizeof *ep);
    if (!ep)
        return CLRA_ENOMEM;
    ep->fd = -1;
    ep->at.pid = ref->pid;
    snprintf(ep->at.path, sizeof ep->at.path, "%s", ref->path);
    int err = clra__open(ep, d, c, st);
    free(ep);
    if (err) {
        if (err == CLRA_ECONNREFUSED)
            clra__detail(st, "%s refuses connections: a stale endpoint left by a process that "
                         "died, or the profiler already detached", ref->path);
        return err;
    }
    int n = snprintf(line, sizeof line, "%s\n", command);
    err = clra__send_all(c, line, (size_t)n, d);
    size_t used = 0;
    while (!err && used + 1 < REPLY_MAX) {
        err = clra__recv_exact(c, reply + used, 1, d);
        if (!err && reply[used] == '\n')
            break;
        used += !err;
    }
    reply[used] = '\0';
    if (!err && used + 1 >= REPLY_MAX)
        err = CLRA_EPROTO;
    if (err) {
        clra__detail(st, "no answer to '%s' from the profiler at %s (%s)", command, ref->path,
                     clra_strerror(err));
        clra__close(c);
    } else if (strncmp(reply, "error ", 6) == 0) {
        clra__detail(st, "the profiler answered: %s", reply + 6);
        clra__close(c);
        err = clra__strfind(reply, "permission") ? CLRA_EACCES : CLRA_EPROTO;
    }
    return err;
}

/* The value after "key=" in a reply line, up to the next space (or the end for "message="). */
static int reply_field(const char *reply, const char *key, char *out, size_t cap)
{
    char want[32];
    snprintf(want, sizeof want, " %s=", key);
    const char *at = clra__strfind(reply, want);
    if (!at)
        return 0;
    at += strlen(want);
    size_t len = strcmp(key, "message") == 0 ? strlen(at) : strcspn(at, " ");
    snprintf(out, cap, "%.*s", (int)(len < cap ? len : cap - 1), at);
    return 1;
}

#ifndef _WIN32
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
#endif

/* A detach whose library the runtime keeps referenced (refs > 0) never unmaps: it is done once
 * the profiler's control endpoint is gone (ProfilerDetachSucceeded closes it). A short look at
 * the maps after that still catches a runtime that unloads after all. */
static int wait_detached_but_mapped(const clra_profiler_ref_t *ref, uint64_t inode,
                                    uint32_t *refs, const clra__deadline_t *d, clra_status_t *st)
{
    struct stat sb;
    while (stat(ref->path, &sb) == 0) {
        if (clra__deadline_left_ms(d) == 0) {
            clra__detail(st, "the profiler at %s has not finished detaching (its control "
                         "endpoint is still open): a callback may still be running or a "
                         "profiler thread has not stopped", ref->path);
            return CLRA_ETIMEDOUT;
        }
        clra__sleep_ms(POLL_MS);
    }
    int left = clra__deadline_left_ms(d);
    clra_status_t quiet;
    if (clra_library_wait_unmapped(ref->pid, inode, left < 200 ? left : 200, &quiet) == 0)
        *refs = 0;
    return 0;
}

int clra_profiler_detach(const clra_profiler_ref_t *ref, int timeout_ms, clra_detach_result_t *res,
                         clra_status_t *st)
{
    char reply[REPLY_MAX], field[32];
    clra__conn_t c;
    clra_detach_result_t lres;
    clra_status_t local;
    st = clra__status_begin(st, &local);
    if (!res)
        res = &lres;
    memset(res, 0, sizeof *res);
    long long t0 = mono__ms();
    clra__deadline_t d = clra__deadline_in(timeout_ms);
    int err = request(ref, "detach", reply, &d, &c, st);
    if (err)
        return err;
    clra__close(&c);
    if (strncmp(reply, "detach ", 7) != 0 || !reply_field(reply, "hr", field, sizeof field)) {
        clra__detail(st, "unexpected answer from the profiler: %s", reply);
        return CLRA_EPROTO;
    }
    res->hresult = (int32_t)strtoul(field, NULL, 16);
    if (reply_field(reply, "expected_ms", field, sizeof field))
        res->expected_ms = (uint32_t)strtoul(field, NULL, 10);
    if (reply_field(reply, "inode", field, sizeof field))
        res->library_inode = strtoull(field, NULL, 10);
    if (reply_field(reply, "refs_after", field, sizeof field))
        res->library_refs = (uint32_t)strtoul(field, NULL, 10);
    reply_field(reply, "name", res->name, sizeof res->name);
    reply_field(reply, "message", res->message, sizeof res->message);
    st->hresult = res->hresult;
    if (res->hresult < 0) {
        clra__detail(st, "the runtime refused to detach %s: %s", res->name, res->message);
        return CLRA_ERUNTIME;
    }
    if (res->library_inode && res->library_refs)
        err = wait_detached_but_mapped(ref, res->library_inode, &res->library_refs, &d, st);
    else
        err = res->library_inode ? clra_library_wait_unmapped(ref->pid, res->library_inode,
                                                              clra__deadline_left_ms(&d), st) : 0;
    res->elapsed_ms = (int)(mono__ms() - t0);
    return err;
}

int clra_profiler_hold(const clra_profiler_ref_t *ref, int timeout_ms, int *fd,
                       uint64_t *library_inode, clra_status_t *st)
{
    char reply[REPLY_MAX], field[32];
    clra__conn_t c;
    clra_status_t local;
    st = clra__status_begin(st, &local);
#ifdef _WIN32 /* the holder's descriptor is a Unix socket; the pipe twin is to do */
    (void)reply;
    (void)field;
    (void)c;
    (void)fd;
    (void)library_inode;
    (void)timeout_ms;
    (void)ref;
    clra__detail(st, "clra_profiler_hold is not supported on Windows yet (docs/windows.md)");
    return CLRA_EINVAL;
#endif
    clra__deadline_t d = clra__deadline_in(timeout_ms);
    int err = request(ref, "hold", reply, &d, &c, st);
    if (err)
        return err;
    if (strncmp(reply, "ok holding", 10) != 0) {
        clra__detail(st, "unexpected answer from the profiler: %s", reply);
        clra__close(&c);
        return CLRA_EPROTO;
    }
    if (library_inode)
        *library_inode =
            reply_field(reply, "inode", field, sizeof field) ? strtoull(field, NULL, 10) : 0;
    *fd = c.fd;
    return 0;
}

int clra_profiler_status(const clra_profiler_ref_t *ref, int timeout_ms, char *reply, size_t cap,
                         clra_status_t *st)
{
    char line[REPLY_MAX];
    clra__conn_t c;
    clra_status_t local;
    st = clra__status_begin(st, &local);
    clra__deadline_t d = clra__deadline_in(timeout_ms);
    int err = request(ref, "status", line, &d, &c, st);
    if (err)
        return err;
    clra__close(&c);
    snprintf(reply, cap, "%s", line);
    return 0;
}

#define PAYLOAD_MAX (1u << 30)

/* Reads the payload a reply line announced with " bytes=N" into a NUL-terminated buffer. */
static int read_payload(clra__conn_t *c, const char *line, const clra__deadline_t *d, char **data,
                        size_t *len, clra_status_t *st)
{
    char field[32];
    if (!reply_field(line, "bytes", field, sizeof field))
        return 0;
    char *end = NULL;
    unsigned long long n = strtoull(field, &end, 10);
    if (!field[0] || *end || n > PAYLOAD_MAX) {
        clra__detail(st, "the profiler announced a payload of '%s' bytes (at most %u)", field,
                     PAYLOAD_MAX);
        return CLRA_EPROTO;
    }
    char *buf = malloc((size_t)n + 1);
    if (!buf)
        return CLRA_ENOMEM;
    int err = clra__recv_exact(c, buf, (size_t)n, d);
    if (err) {
        clra__detail(st, "the profiler's %llu-byte answer ended early (%s)", n, clra_strerror(err));
        free(buf);
        return err;
    }
    buf[n] = '\0';
    if (data)
        *data = buf, *len = (size_t)n;
    else
        free(buf);
    return 0;
}

int clra_profiler_request(const clra_profiler_ref_t *ref, const char *command, int timeout_ms,
                          char *reply, size_t cap, char **data, size_t *len, clra_status_t *st)
{
    char line[REPLY_MAX];
    clra__conn_t c;
    clra_status_t local;
    st = clra__status_begin(st, &local);
    if (data)
        *data = NULL, *len = 0;
    if (!ref || !command || strlen(command) > 63 || strchr(command, '\n')) {
        clra__detail(st, "a profiler command is one line of at most 63 bytes");
        return CLRA_EINVAL;
    }
    clra__deadline_t d = clra__deadline_in(timeout_ms);
    int err = request(ref, command, line, &d, &c, st);
    if (err)
        return err;
    err = read_payload(&c, line, &d, data, len, st);
    clra__close(&c);
    if (reply && cap)
        snprintf(reply, cap, "%s", line);
    return err;
}

void clra_profiler_data_free(char *data)
{
    free(data);
}

#ifndef _WIN32
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
#endif
