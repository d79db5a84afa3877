/* startup_hook.c - clra_startup_hook_apply: ApplyStartupHook (0x0407), .NET 8 and later. */
#include "command_target.h"
#include "proto/dump_codec.h"
#include "proto/process_codec.h"
#include "util/file_io.h"

#include <string.h>

static int build_hook(clra__writer_t *w, const void *arg)
{
    return clra__build_startup_hook(w, arg);
}

/* Checks the assembly as the target will see it. The runtime has no error reply for a hook it
 * cannot run: on .NET 10 the failure is an unhandled exception that ends the process. */
static int check_hook(int pid, const char *path, clra_status_t *st)
{
    char local[CLRA_PATH_MAX], why[sizeof st->detail];
    int other;
    if (!clra__path_is_absolute(path)) {
        clra__detail(st, "the assembly path must be absolute (the runtime treats anything else "
                     "as an assembly name, and fails)");
        return CLRA_EINVAL;
    }
    int rc = clra_target_path_resolve(pid, path, local, sizeof local, &other);
    if (rc == CLRA_ENOPROC)
        clra__detail(st, "process %d does not exist", pid);
    else if (rc)
        clra__detail(st, "the assembly path is longer than %d bytes", CLRA_PATH_MAX - 1);
    if (rc == 0 && (rc = clra_startup_hook_check(local, st)) != 0) {
        memcpy(why, st->detail, sizeof why);
        clra__detail(st, "%s; not sent, because a hook the runtime cannot run ends the process",
                     why);
    }
    return rc;
}

/* The exchange itself, once the assembly has passed (or cannot be) checked. */
static int send_hook(clra__endpoint_t *ep, const char *path, int timeout_ms,
                     clra_status_t *st)
{
    int rc = clra__command_hresult(ep, build_hook, path, timeout_ms, st);
    if (rc == CLRA_ERUNTIME && st->hresult == CLRA__HR_UNKNOWN_COMMAND)
        clra__detail(st, "the runtime does not know ApplyStartupHook (it came with .NET 8)");
    else if (rc == CLRA_ECONNLOST)
        clra__detail(st, "the connection closed without a reply: the hook probably threw and "
                     "the runtime ended the process (its stderr shows the exception)");
    return rc;
}

int clra_startup_hook_apply(const clra_target_t *target, const char *assembly_path,
                            int timeout_ms, clra_status_t *st)
{
    clra_status_t local;
    clra__endpoint_t e;
    st = clra__status_begin(st, &local);
    clra__deadline_t d = clra__deadline_in(timeout_ms);
    /* A pid's file is checked before its socket is looked for, as it always was. */
    int rc = target && target->pid > 0 ? check_hook(target->pid, assembly_path, st) : 0;
    if (rc) {
        clra__target_discard(target);
        return rc;
    }
    rc = clra__target_resolve(target, &d, &e, st);
    if (rc)
        return rc;
    if (!clra__path_is_absolute(assembly_path)) {
        clra__detail(st, "a target and an absolute assembly path are required (the target "
                     "would take a relative path for an assembly name)");
        rc = CLRA_EINVAL;
    } else {
        rc = send_hook(&e, assembly_path, clra__deadline_left_ms(&d), st);
    }
    clra__endpoint_done(&e);
    return rc;
}
