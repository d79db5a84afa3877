/* process_control.c - the Process commands answered with a plain HRESULT: SetEnvironmentVariable,
 * ResumeRuntime, EnablePerfMap, DisablePerfMap. */
#include "command_target.h"
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

/* A plain-reply request: its builder and the builder's argument. */
typedef struct plain_request {
    clra__build_fn build;
    const void *arg;
} plain_request_t;

/* Sends one plain-reply command within what is left of the deadline. */
static int send_plain(clra__endpoint_t *e, const clra__deadline_t *d, void *ctx,
                      clra_status_t *st)
{
    const plain_request_t *r = ctx;
    return clra__command_hresult(e, r->build, r->arg, clra__deadline_left_ms(d), st);
}

/* Resolves target and runs one plain-reply command there: the common body of this file. */
static int run(const clra_target_t *target, clra__build_fn build, const void *arg,
               int timeout_ms, clra_status_t *st)
{
    plain_request_t r = {build, arg};
    return clra__target_run(target, timeout_ms, send_plain, &r, st);
}

/* A bad argument still spends a connection target, as every command does. */
static int refuse(const clra_target_t *target)
{
    clra__target_discard(target);
    return CLRA_EINVAL;
}

int clra_environment_set(const clra_target_t *target, const char *name, const char *value,
                         int timeout_ms, clra_status_t *st)
{
    clra_status_t local;
    set_env_args_t a = {name, value};
    st = clra__status_begin(st, &local);
    /* The runtime would accept "A=B" as a name and set something nobody asked for. */
    if (!name || !name[0] || strchr(name, '=')) {
        clra__detail(st, "a variable name must be non-empty and contain no '='");
        return refuse(target);
    }
    return run(target, build_set_env, &a, timeout_ms, st);
}

int clra_runtime_resume(const clra_target_t *target, int timeout_ms, clra_status_t *st)
{
    clra_status_t local;
    uint8_t id = CLRA__PROCESS_RESUME;
    st = clra__status_begin(st, &local);
    return run(target, build_process_empty, &id, timeout_ms, st);
}

int clra_perfmap_enable(const clra_target_t *target, clra_perfmap_type_t type, int timeout_ms,
                        clra_status_t *st)
{
    clra_status_t local;
    uint32_t t = (uint32_t)type;
    st = clra__status_begin(st, &local);
    if (t < CLRA_PERFMAP_ALL || t > CLRA_PERFMAP_PERFMAP) {
        clra__detail(st, "perf map type must be all (1), jitdump (2) or perfmap (3)");
        return refuse(target);
    }
    return run(target, build_enable_perfmap, &t, timeout_ms, st);
}

int clra_perfmap_disable(const clra_target_t *target, int timeout_ms, clra_status_t *st)
{
    clra_status_t local;
    uint8_t id = CLRA__PROCESS_DISABLE_PERFMAP;
    st = clra__status_begin(st, &local);
    return run(target, build_process_empty, &id, timeout_ms, st);
}
