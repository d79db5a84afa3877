/* profiler_attach.c - AttachProfiler and StartupProfiler: the profiler-loading commands. */
#include "target/endpoint.h"
#include "ipc/request.h"
#include "proto/profiler_codec.h"
#include "target/target_root.h"

#include <stdlib.h>
#include <string.h>

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
    /* In another mount namespace the runtime's answer to a missing file (ERROR_MOD_NOT_FOUND)
     * cannot say that the path was looked up in the container, so we say it first. */
    if (ep->pid > 0 && clra__target_file_check(ep->pid, profiler_path, st) != 0)
        return CLRA_EINVAL;
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
        rc = clra__request_hresult(ep, req, w.len, &d, st);
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
    int left, rc = clra__find_within(pid, &d, &ep, &left, st);
    if (rc)
        return rc;
    return clra_attach_profiler_at(&ep, clsid, profiler_path, client_data, client_data_len,
                                   attach_timeout_ms, left, st);
}

typedef struct startup_args {
    const clra_guid_t *clsid;
    const char *path;
} startup_args_t;

/* Adapts the encoder to clra__command_hresult's one-argument builder. */
static int build_startup_profiler(clra__writer_t *w, const void *arg)
{
    const startup_args_t *a = arg;
    return clra__build_startup_profiler(w, a->clsid, a->path);
}

int clra_startup_profiler(const clra_endpoint_t *ep, const clra_guid_t *clsid,
                          const char *profiler_path, int timeout_ms, clra_status_t *st)
{
    clra_status_t local;
    startup_args_t a = {clsid, profiler_path};
    st = clra__status_begin(st, &local);
    if (!ep || !clsid || !profiler_path || !profiler_path[0]) {
        clra__detail(st, "an endpoint, a CLSID and a non-empty profiler path are required");
        return CLRA_EINVAL;
    }
    return clra__command_hresult(ep, build_startup_profiler, &a, timeout_ms, st);
}
