/* End-to-end: runtime facts docs/runtime-behaviour.md records (Runtime facts) that clrattach
 * itself never provokes, checked on every runtime of the matrix so the table cannot go stale. The request is
 * written byte by byte here, not by the library, which never sends these. */
#define _GNU_SOURCE
#include "clrattach.h"
#include "harness.h"
#include "runtime.h"
#include "test.h"

#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* CollectTracing2 asking for serialization format 2: 1 MB, rundown off, one provider "P"
 * (keywords 1, level 4, no arguments); 57 bytes. */
static const uint8_t ct2_format2[57] = {
    'D', 'O', 'T', 'N', 'E', 'T', '_', 'I', 'P', 'C', '_', 'V', '1', 0, 57, 0, 0x02, 0x03, 0, 0,
    0x01, 0, 0, 0, 0x02, 0, 0, 0, 0x00, 0x01, 0, 0, 0,
    0x01, 0, 0, 0, 0, 0, 0, 0, 0x04, 0, 0, 0,
    0x02, 0, 0, 0, 'P', 0, 0, 0, 0, 0, 0, 0};

/* Sends req to the app's socket; returns the reply's bytes read (0: closed without a reply). */
static size_t ask_raw(app_t *a, const uint8_t *req, size_t len, uint8_t *reply, size_t cap)
{
    clra_endpoint_t ep;
    clra_status_t st;
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    ASSERT_EQ(clra_endpoint_find((int)a->pid, &ep, &st), 0);
    ASSERT(strlen(ep.path) < sizeof addr.sun_path);
    memcpy(addr.sun_path, ep.path, strlen(ep.path) + 1);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    ASSERT(fd >= 0);
    ASSERT(connect(fd, (struct sockaddr *)&addr, sizeof addr) == 0);
    ASSERT(write(fd, req, len) == (ssize_t)len);
    size_t got = 0;
    struct pollfd p = {fd, POLLIN, 0};
    while (got < cap && poll(&p, 1, 10000) == 1) {
        ssize_t k = read(fd, reply + got, cap - got);
        if (k <= 0)
            break;
        got += (size_t)k;
    }
    close(fd);
    return got;
}

/* Waits up to timeout_ms for the app to die without reaping it; the signal, or -1. */
static int death_signal(app_t *a, int timeout_ms)
{
    for (int waited = 0; waited < timeout_ms; waited += 20) {
        siginfo_t info = {0};
        ASSERT_EQ(waitid(P_PID, (id_t)a->pid, &info, WEXITED | WNOHANG | WNOWAIT), 0);
        if (info.si_pid == a->pid)
            return info.si_code == CLD_EXITED ? 0 : info.si_status;
        usleep(20000);
    }
    return -1;
}

/* .NET 8 and 9 crash on a trace format they do not know; 10 answers BAD_ENCODING. */
TEST(runtime_fact_trace_format_2_crashes_net8_and_9_and_is_refused_by_10)
{
    app_t a;
    uint8_t reply[64];
    void (*old)(int) = signal(SIGPIPE, SIG_IGN);
    app_start(&a, NULL);
    size_t n = ask_raw(&a, ct2_format2, sizeof ct2_format2, reply, 24);
    if (e2e_runtime_at_least(10, 0)) {
        ASSERT_EQ(n, 24);
        ASSERT_EQ(reply[16], 0xFF);
        ASSERT_EQ(reply[17], 0xFF);
        ASSERT_MEMEQ(reply + 20, "\x84\x13\x13\x80", 4); /* BAD_ENCODING */
        app_assert_responsive(&a);
    } else {
        ASSERT_EQ(n, 0);
        ASSERT_EQ(death_signal(&a, 10000), SIGSEGV);
    }
    app_stop(&a);
    signal(SIGPIPE, old);
}
