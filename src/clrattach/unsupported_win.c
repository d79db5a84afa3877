/* unsupported_win.c - the public functions that have no Windows twin yet (docs/windows.md):
 * each fails with CLRA_EINVAL and a detail saying so, so a program built against the full API
 * links on Windows and learns at run time what is missing instead of crashing. */
#include "clrattach.h"
#include "target/process_win.h"
#include "util/status.h"

#include <string.h>

/* The one answer of every stub: CLRA_EINVAL, "FN is not supported on Windows (yet)". */
static int unsupported(clra_status_t *st, const char *fn)
{
    clra_status_t local;
    st = clra__status_begin(st, &local);
    clra__detail(st, "%s is not supported on Windows yet (docs/windows.md)", fn);
    return CLRA_EINVAL;
}

int clra_process_is_alive(int pid)
{
    return pid > 0 && clra__win_process_exists(pid);
}

int clra_dump_create(const clra_target_t *target, const char *path, clra_dump_type_t type,
                     uint32_t flags, int timeout_ms, clra_dump_result_t *res, clra_status_t *st)
{
    (void)target, (void)path, (void)type, (void)flags, (void)timeout_ms, (void)res;
    return unsupported(st, "clra_dump_create");
}

int clra_process_owner_get(int pid, uint32_t *uid, clra_status_t *st)
{
    (void)pid, (void)uid;
    return unsupported(st, "clra_process_owner_get (Windows owners are SIDs, not uids)");
}

/* Staging copies a profiler into a container's file tree: Linux only by nature. */
int clra_stage_create(int pid, const char *library_path, clra_stage_t **out, clra_status_t *st)
{
    (void)pid, (void)library_path;
    if (out)
        *out = NULL;
    return unsupported(st, "clra_stage_create (staging is for Linux containers)");
}
const char *clra_stage_local_path(const clra_stage_t *s) { (void)s; return ""; }
const char *clra_stage_target_path(const clra_stage_t *s) { (void)s; return ""; }
void clra_stage_release(clra_stage_t *s) { (void)s; }
int clra_stage_remove(clra_stage_t *s, clra_status_t *st)
{
    (void)s;
    return unsupported(st, "clra_stage_remove");
}
int clra_stage_sweep(int pid, int *removed, clra_status_t *st)
{
    (void)pid;
    if (removed)
        *removed = 0;
    return unsupported(st, "clra_stage_sweep");
}

int clra_startup_hook_check(const char *local_path, clra_status_t *st)
{
    (void)local_path;
    return unsupported(st, "clra_startup_hook_check");
}
int clra_startup_hook_apply(const clra_target_t *target, const char *assembly_path,
                            int timeout_ms, clra_status_t *st)
{
    (void)target, (void)assembly_path, (void)timeout_ms;
    return unsupported(st, "clra_startup_hook_apply");
}

int clra_trace_start(const clra_target_t *target, const clra_trace_config_t *cfg, int timeout_ms,
                     clra_trace_session_t *s, clra_status_t *st)
{
    (void)target, (void)cfg, (void)timeout_ms, (void)s;
    return unsupported(st, "clra_trace_start");
}
int clra_trace_pump(clra_trace_session_t *s, clra_trace_sink_fn sink, void *ctx, int wait_ms,
                    clra_status_t *st)
{
    (void)s, (void)sink, (void)ctx, (void)wait_ms;
    return unsupported(st, "clra_trace_pump");
}
int clra_trace_stop(clra_trace_session_t *s, const clra_target_t *target, clra_trace_sink_fn sink,
                    void *ctx, int timeout_ms, clra_status_t *st)
{
    (void)s, (void)target, (void)sink, (void)ctx, (void)timeout_ms;
    return unsupported(st, "clra_trace_stop");
}
void clra_trace_session_close(clra_trace_session_t *s) { (void)s; }

/* The .nettrace checker reads files with pread: its Windows twin comes with trace. */
int clra_nettrace_check(const void *data, size_t len, clra_nettrace_info_t *info)
{
    (void)data, (void)len, (void)info;
    return CLRA_EINVAL;
}
int clra_nettrace_check_file(const char *path, clra_nettrace_info_t *info, clra_status_t *st)
{
    (void)path, (void)info;
    return unsupported(st, "clra_nettrace_check_file");
}

/* Trace configuration comes with trace (its parsers use strndup, which mingw lacks). */
void clra_trace_config_init(clra_trace_config_t *cfg)
{
    if (cfg)
        memset(cfg, 0, sizeof *cfg);
}
void clra_trace_config_free(clra_trace_config_t *cfg) { (void)cfg; }
int clra_trace_config_add_provider(clra_trace_config_t *cfg, const char *name, uint64_t keywords,
                                   uint32_t level, const char *arguments, clra_status_t *st)
{
    (void)cfg, (void)name, (void)keywords, (void)level, (void)arguments;
    return unsupported(st, "clra_trace_config_add_provider");
}
int clra_trace_config_filter_events(clra_trace_config_t *cfg, const char *provider, int allow,
                                    const uint32_t *ids, size_t count, clra_status_t *st)
{
    (void)cfg, (void)provider, (void)allow, (void)ids, (void)count;
    return unsupported(st, "clra_trace_config_filter_events");
}
int clra_trace_config_parse_event_filter(clra_trace_config_t *cfg, const char *spec, int allow,
                                         clra_status_t *st)
{
    (void)cfg, (void)spec, (void)allow;
    return unsupported(st, "clra_trace_config_parse_event_filter");
}
int clra_trace_config_parse_providers(clra_trace_config_t *cfg, const char *spec,
                                      clra_status_t *st)
{
    (void)cfg, (void)spec;
    return unsupported(st, "clra_trace_config_parse_providers");
}
int clra_trace_config_set_buffering(clra_trace_config_t *cfg, clra_trace_buffering_t mode,
                                    clra_status_t *st)
{
    (void)cfg, (void)mode;
    return unsupported(st, "clra_trace_config_set_buffering");
}
int clra_trace_config_version(const clra_trace_config_t *cfg) { (void)cfg; return 0; }
const char *clra_trace_version_runtime(int version) { (void)version; return ""; }
