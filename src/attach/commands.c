/* commands.c - one public function per diagnostics command: find, connect, send, read reply. */
#include "endpoint.h"
#include "transport.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Adds who owns the socket to an EACCES detail: the usual cause is a different user. */
static void explain_access(const char *path, clra_status_t *st)
{
    struct stat sb;
    if (st && stat(path, &sb) == 0)
        clra__detail(st, "permission denied connecting to %s (owned by uid %u, mode %03o); run as "
                     "that user or root", path, (unsigned)sb.st_uid, (unsigned)(sb.st_mode & 0777));
}

/* Sends one request and reads its int32-HRESULT reply, all before the deadline. */
static int exchange_hresult(const clra_endpoint_t *ep, const uint8_t *req, size_t req_len,
                            const clra__deadline_t *d, clra_status_t *st)
{
    clra__conn_t c;
    clra__header_t h;
    size_t len = 0, cap = CLRA__MAX_MESSAGE - CLRA__HEADER_SIZE;
    int rc = clra__connect(ep->path, d, &c, st);
    if (rc == CLRA_EACCES)
        explain_access(ep->path, st);
    if (rc)
        return rc;
    /* On the heap: callers may be agents' threads with small stacks. */
    uint8_t *payload = malloc(cap);
    rc = payload ? clra__send_all(&c, req, req_len, d) : CLRA_ENOMEM;
    if (rc == 0)
        rc = clra__recv_message(&c, &h, payload, cap, &len, d);
    clra__close(&c);
    if (rc == 0) {
        rc = clra__parse_hresult_reply(&h, payload, len, &st->hresult);
        if (rc == CLRA_EPROTO)
            clra__detail(st, "unexpected reply: command set 0x%02X id 0x%02X, %zu payload bytes",
                         h.command_set, h.command_id, len);
    } else if (rc == CLRA_EPROTO) {
        clra__detail(st, "the reply from %s does not start with a valid IPC header", ep->path);
    } else if (rc == CLRA_ETIMEDOUT) {
        clra__detail(st, "no complete reply from %s before the deadline; the runtime may still "
                     "finish the request", ep->path);
    } else if (rc == CLRA_ECONNLOST) {
        clra__detail(st, "%s closed the connection before replying (the process may have exited)",
                     ep->path);
    }
    free(payload);
    return rc;
}

int clra_attach_profiler_at(const clra_endpoint_t *ep, const clra_guid_t *clsid,
                            const char *profiler_path, const void *client_data,
                            size_t client_data_len, uint32_t attach_timeout_ms, int timeout_ms,
                            clra_status_t *st)
{
    clra_status_t local;
    uint8_t *req;
    clra__writer_t w;
    if (!st)
        st = &local;
    memset(st, 0, sizeof *st);
    if (!ep || !clsid || !profiler_path || !profiler_path[0] || (!client_data && client_data_len)) {
        clra__detail(st, "an endpoint, a CLSID and a non-empty profiler path are required");
        return CLRA_EINVAL;
    }
    req = malloc(CLRA__MAX_MESSAGE);
    if (!req)
        return CLRA_ENOMEM;
    clra__writer_init(&w, req, CLRA__MAX_MESSAGE);
    int rc = clra__build_attach_profiler(&w, attach_timeout_ms, clsid, profiler_path, client_data,
                                         client_data_len);
    if (rc == CLRA_ETOOBIG)
        clra__detail(st, "path and client data (%zu bytes) exceed the 65535-byte message",
                     client_data_len);
    else if (rc == CLRA_EENCODING)
        clra__detail(st, "the profiler path is not valid UTF-8");
    clra__deadline_t d = clra__deadline_in(timeout_ms);
    if (rc == 0)
        rc = exchange_hresult(ep, req, w.len, &d, st);
    free(req);
    return rc;
}

int clra_attach_profiler(int pid, const clra_guid_t *clsid, const char *profiler_path,
                         const void *client_data, size_t client_data_len,
                         uint32_t attach_timeout_ms, int timeout_ms, clra_status_t *st)
{
    clra_endpoint_t ep;
    clra_status_t local;
    if (!st)
        st = &local;
    clra__deadline_t d = clra__deadline_in(timeout_ms);
    int rc = clra_endpoint_find(pid, &ep, st);
    if (rc)
        return rc;
    int left = clra__deadline_left_ms(&d);
    if (left == 0) {
        clra__detail(st, "the deadline passed while looking for the endpoint");
        return CLRA_ETIMEDOUT;
    }
    return clra_attach_profiler_at(&ep, clsid, profiler_path, client_data, client_data_len,
                                   attach_timeout_ms, left, st);
}
