/* process_control.c - the Process commands answered with a plain HRESULT: SetEnvironmentVariable,
 * ResumeRuntime, EnablePerfMap, DisablePerfMap. */
#include "ipc/request.h"
#include "proto/process_codec.h"

#include <string.h>

typedef struct set_env_args {
    const char *name, *value;
} set_env_args_t;

static int build_set_env(clra__writer_t *w, const void *arg)
{
    const set_env_args_t *a = arg;
    return clra__build_set_env(w, a->name, a->value);
}

static int build_enable_perfmap(clra__writer_t *w, const void *arg)
{
    return clra__build_enable_perfmap(w, *(const uint32_t *)arg);
}

/* The id travels as the argument so one builder serves every header-only command. */
static int build_process_empty(clra__writer_t *w, const void *arg)
{
    return clra__build_empty(w, CLRA__SET_PROCESS, *(const uint8_t *)arg);
}

int clra_set_environment(const clra_endpoint_t *ep, const char *name, const char *value,
                         int timeout_ms, clra_status_t *st)
{
    clra_status_t local;
    set_env_args_t a = {name, value};
    st = clra__status_begin(st, &local);
    /* The runtime would accept "A=B" as a name and set something nobody asked for. */
    if (!ep || !name || !name[0] || strchr(name, '=')) {
        clra__detail(st, "a variable name must be non-empty and contain no '='");
        return CLRA_EINVAL;
    }
    return clra__command_hresult(ep, build_set_env, &a, timeout_ms, st);
}

int clra_resume_runtime(const clra_endpoint_t *ep, int timeout_ms, clra_status_t *st)
{
    clra_status_t local;
    uint8_t id = CLRA__PROCESS_RESUME;
    st = clra__status_begin(st, &local);
    if (!ep)
        return CLRA_EINVAL;
    return clra__command_hresult(ep, build_process_empty, &id, timeout_ms, st);
}

int clra_perfmap_enable(const clra_endpoint_t *ep, clra_perfmap_type_t type, int timeout_ms,
                        clra_status_t *st)
{
    clra_status_t local;
    uint32_t t = (uint32_t)type;
    st = clra__status_begin(st, &local);
    if (!ep || t < CLRA_PERFMAP_ALL || t > CLRA_PERFMAP_PERFMAP) {
        clra__detail(st, "perf map type must be all (1), jitdump (2) or perfmap (3)");
        return CLRA_EINVAL;
    }
    return clra__command_hresult(ep, build_enable_perfmap, &t, timeout_ms, st);
}

int clra_perfmap_disable(const clra_endpoint_t *ep, int timeout_ms, clra_status_t *st)
{
    clra_status_t local;
    uint8_t id = CLRA__PROCESS_DISABLE_PERFMAP;
    st = clra__status_begin(st, &local);
    if (!ep)
        return CLRA_EINVAL;
    return clra__command_hresult(ep, build_process_empty, &id, timeout_ms, st);
}
