/* profiler_attach.c - AttachProfiler and StartupProfiler: the profiler-loading commands. */
#include "command_target.h"
#include "profiler_attach_platform.h"
#include "proto/profiler_codec.h"
#include "target/target_root.h"

#include <stdlib.h>
#include <string.h>

/* Encodes AttachProfiler and sends it; the detail names a path or data that cannot travel. */
static int send_attach(clra__endpoint_t *e, const clra_guid_t *clsid, const char *profiler_path,
                       const void *client_data, size_t client_data_len,
                       uint32_t attach_timeout_ms, const clra__deadline_t *d, clra_status_t *st)
{
    clra__writer_t w;
    uint8_t *req = malloc(CLRA__MAX_MESSAGE);
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
    if (rc == 0)
        rc = clra__request_hresult(e, req, w.len, d, st);
    free(req);
    return rc;
}

/* clra_profiler_attach (profiler_attach_unix.c, profiler_attach_win.c) through the target's
 * diagnostics endpoint. */
int clra__attach_through_endpoint(const clra_target_t *target, const clra_guid_t *clsid,
                                  const char *profiler_path, const void *client_data,
                                  size_t client_data_len, uint32_t attach_timeout_ms,
                                  unsigned flags, int timeout_ms, clra_status_t *st)
{
    clra_status_t local;
    clra__endpoint_t e;
    st = clra__status_begin(st, &local);
    clra__deadline_t d = clra__deadline_in(timeout_ms);
    int rc = clra__target_resolve(target, &d, &e, st);
    if (rc)
        return rc;
    rc = clra__check_attach_args(clsid, profiler_path, client_data, client_data_len, flags, st);
    /* In another mount namespace the runtime's answer to a missing file (ERROR_MOD_NOT_FOUND)
     * cannot say that the path was looked up in the container, so we say it first. */
    if (rc == 0 && e.at.pid > 0 && clra__target_file_check(e.at.pid, profiler_path, st) != 0)
        rc = CLRA_EINVAL;
    if (rc == 0)
        rc = send_attach(&e, clsid, profiler_path, client_data, client_data_len,
                         attach_timeout_ms, &d, st);
    clra__endpoint_done(&e);
    return rc;
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

int clra_profiler_startup_register(const clra_target_t *target, const clra_guid_t *clsid,
                                   const char *profiler_path, int timeout_ms, clra_status_t *st)
{
    clra_status_t local;
    clra__endpoint_t e;
    startup_args_t a = {clsid, profiler_path};
    st = clra__status_begin(st, &local);
    clra__deadline_t d = clra__deadline_in(timeout_ms);
    int rc = clra__target_resolve(target, &d, &e, st);
    if (rc)
        return rc;
    if (!clsid || !profiler_path || !profiler_path[0]) {
        clra__detail(st, "a target, a CLSID and a non-empty profiler path are required");
        rc = CLRA_EINVAL;
    } else {
        rc = clra__command_hresult(&e, build_startup_profiler, &a, clra__deadline_left_ms(&d),
                                   st);
    }
    clra__endpoint_done(&e);
    return rc;
}
