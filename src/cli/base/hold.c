/* hold.c - `clrattach attach --hold`: keep a profiler loaded exactly as long as this command
 * runs. The profiler detaches when the connection closes, so even kill -9 of this command
 * detaches it. */
#define _GNU_SOURCE
#include "base/cli.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#define HOLD_CONNECT_TIMEOUT_MS 5000

static int signal_pipe[2] = {-1, -1};

static void on_signal(int sig)
{
    char c = (char)sig;
    ssize_t n = write(signal_pipe[1], &c, 1);
    (void)n;
}

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
    if (pipe2(signal_pipe, O_CLOEXEC) != 0) {
        fprintf(stderr, "clrattach: attached, but cannot wait for signals (pipe: %s); the "
                "profiler detaches as this command exits now\n", strerror(errno));
        close(fd);
        return EXIT_INTERNAL;
    }
    struct sigaction sa = {.sa_handler = on_signal};
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    fprintf(out, "holding: the profiler stays loaded until this command ends (Ctrl-C to detach)\n");
    fflush(out);
    struct pollfd fds[2] = {{signal_pipe[0], POLLIN, 0}, {fd, POLLIN, 0}};
    while (poll(fds, 2, -1) < 0 && errno == EINTR)
        ;
    int by_profiler = fds[1].revents != 0 && !fds[0].revents;
    close(fd); /* this hang-up is what makes the profiler detach */
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
