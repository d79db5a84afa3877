/* profiler_control.c - the trigger's side of the libclrprof control endpoint (see
 * src/sdk/control.c): find a process's SDK profilers, ask one to detach, hold one, and watch
 * its library leave the process. Finding the endpoints, holding and the library's mappings
 * are per platform: profiler_control_unix.c, profiler_control_win.c (profiler_control.h). */
#define _GNU_SOURCE
#include "clrattach.h"
#include "common/mono_clock.h"
#include "common/shared_names.h" /* CONTROL_NAME_PREFIX, CONTROL_SOCKET_SUFFIX */
#include "util/small_libc.h"
#include "ipc/request.h"
#include "ipc/transport.h"
#include "profiler_control.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#define POLL_MS 10

/* Sends one command line and reads the one-line reply, all under d. The connect takes the same
 * checked path as the runtime's socket (owner, links, listener's pid), since a profiler's
 * endpoint sits in the same shared directory. */
int clra__control_request(const clra_profiler_ref_t *ref, const char *command, char *reply,
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
int clra__control_reply_field(const char *reply, const char *key, char *out, size_t cap)
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
    int err = clra__control_request(ref, "detach", reply, &d, &c, st);
    if (err)
        return err;
    clra__close(&c);
    if (strncmp(reply, "detach ", 7) != 0 ||
        !clra__control_reply_field(reply, "hr", field, sizeof field)) {
        clra__detail(st, "unexpected answer from the profiler: %s", reply);
        return CLRA_EPROTO;
    }
    res->hresult = (int32_t)strtoul(field, NULL, 16);
    if (clra__control_reply_field(reply, "expected_ms", field, sizeof field))
        res->expected_ms = (uint32_t)strtoul(field, NULL, 10);
    if (clra__control_reply_field(reply, "inode", field, sizeof field))
        res->library_inode = strtoull(field, NULL, 10);
    if (clra__control_reply_field(reply, "refs_after", field, sizeof field))
        res->library_refs = (uint32_t)strtoul(field, NULL, 10);
    clra__control_reply_field(reply, "name", res->name, sizeof res->name);
    clra__control_reply_field(reply, "message", res->message, sizeof res->message);
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

/* The held connection is the caller's from here: the profiler stays while it is open, and
 * closing it (or this process ending, however it ends) detaches it. */
int clra_profiler_hold(const clra_profiler_ref_t *ref, int timeout_ms, int *fd,
                       uint64_t *library_inode, clra_status_t *st)
{
    char reply[REPLY_MAX], field[32];
    clra__conn_t c;
    clra_status_t local;
    st = clra__status_begin(st, &local);
    clra__deadline_t d = clra__deadline_in(timeout_ms);
    int err = clra__control_request(ref, "hold", reply, &d, &c, st);
    if (err)
        return err;
    if (strncmp(reply, "ok holding", 10) != 0) {
        clra__detail(st, "unexpected answer from the profiler: %s", reply);
        clra__close(&c);
        return CLRA_EPROTO;
    }
    if (library_inode)
        *library_inode = clra__control_reply_field(reply, "inode", field, sizeof field)
                             ? strtoull(field, NULL, 10)
                             : 0;
    clra__control_keep(&c, fd);
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
    int err = clra__control_request(ref, "status", line, &d, &c, st);
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
    if (!clra__control_reply_field(line, "bytes", field, sizeof field))
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
    int err = clra__control_request(ref, command, line, &d, &c, st);
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

