/* hold.c - `clrattach attach --hold`: keep a profiler loaded exactly as long as this command
 * runs. The profiler detaches when the connection closes (a Unix socket, or on Windows an
 * instance of its control pipe), so even kill -9 or TerminateProcess of this command detaches
 * it. The waits are per platform (base/hold_platform.h). */
#include "base/cli.h"
#include "base/hold_platform.h"

#include <string.h>

#define HOLD_CONNECT_TIMEOUT_MS 5000

/* Finds the attached profiler's control endpoint by CLSID. */
static int find_ref(int pid, const clra_guid_t *clsid, clra_profiler_ref_t *out, clra_status_t *st)
{
    char want[37];
    clra_profiler_ref_t refs[16];
    cli_clsid_lower(clsid, want);
    int n = clra_profiler_list(pid, refs, 16, st);
    for (int i = 0; i < n && i < 16; i++)
        if (strcmp(refs[i].clsid, want) == 0) {
            *out = refs[i];
            return 0;
        }
    if (n >= 0)
        snprintf(st->detail, sizeof st->detail, "the profiler {%s} opened no control endpoint in "
                 "process %d: it is not built on libclrprof, or runs with control=0", want, pid);
    return n < 0 ? n : CLRA_ENOENDPOINT;
}

int cli_control_check(int pid, clra_status_t *st)
{
    int rc = clra_profiler_control_check(pid, st);
    if (rc) {
        size_t used = strlen(st->detail);
        snprintf(st->detail + used, sizeof st->detail - used, " (nothing was loaded)");
    }
    return rc;
}

int cli_hold(int pid, const clra_guid_t *clsid, int timeout_ms, int json)
{
    FILE *out = json ? stderr : stdout; /* with --json, stdout holds the one JSON object */
    clra_profiler_ref_t ref;
    clra_status_t st;
    uint64_t inode = 0;
    int fd = -1;
    int rc = find_ref(pid, clsid, &ref, &st);
    if (!rc)
        rc = clra_profiler_hold(&ref, HOLD_CONNECT_TIMEOUT_MS, &fd, &inode, &st);
    if (rc) {
        fprintf(stderr, "clrattach: attached, but cannot hold the profiler: %s\n  detail: %s\n"
                "  note: with detach_on_disconnect it detaches by itself after hold_timeout_ms\n",
                clra_strerror(rc), cli_vis(st.detail));
        return cli_exit_code(rc);
    }
    if (hold_wait_prepare() != 0) { /* it said why */
        hold_release(fd);
        return EXIT_INTERNAL;
    }
    fprintf(out, "holding: the profiler stays loaded until this command ends (Ctrl-C to detach)\n");
    fflush(out);
    int by_profiler = hold_wait(fd);
    hold_release(fd); /* this hang-up is what makes the profiler detach */
    rc = clra_library_wait_unmapped(pid, inode, timeout_ms, &st);
    if (rc == 0) {
        fprintf(out, "detached: the profiler %s and the runtime unloaded it\n",
                by_profiler ? "ended the hold itself" : "was released");
        cli_sweep_stage(pid, json);
    } else
        fprintf(stderr, "clrattach: released the profiler, but: %s\n  detail: %s\n",
                clra_strerror(rc), cli_vis(st.detail));
    return cli_exit_code(rc);
}
