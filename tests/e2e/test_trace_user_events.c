/* End-to-end: CollectTracing5 user_events sessions against the real runtime. This machine's
 * kernel has no user_events (CONFIG_USER_EVENTS unset), so no tracepoint can be registered:
 * the tests check what the runtime answers when the descriptor it is handed is not the
 * kernel's user_events_data, that the answer is explained, that the app is unharmed and a
 * normal trace still works afterwards; and that the CLI says clearly when this machine lacks
 * user_events. The bytes and the descriptor passing themselves are unit-tested against the
 * fake server (tests/unit/test_trace_user_events.c). */
#define _GNU_SOURCE
#include "harness.h"
#include "runtime.h"
#include "test.h"
#include "trace_counts.h"

#include "clrattach.h"

#include <fcntl.h>
#include <glob.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

/* A user_events session for the sample provider, handing the runtime descriptor data_fd. */
static int start_user_events(app_t *a, int data_fd, clra_trace_session_t *ts, clra_status_t *st)
{
    clra_trace_config_t cfg;
    clra_trace_config_init(&cfg);
    ASSERT_EQ(clra_trace_config_add_provider(&cfg, SAMPLE_PROVIDER, 0, 5, NULL, NULL), 0);
    ASSERT_EQ(clra_trace_config_set_user_events(&cfg, "clrattach_test", data_fd, st), 0);
    clra_target_t t = clra_target_pid(app_host_pid(a));
    int rc = clra_trace_start(&t, &cfg, 10000, ts, st);
    clra_trace_config_free(&cfg);
    return rc;
}

/* /dev/null instead of user_events_data: the runtime cannot register its tracepoints on it. */
TEST(trace_user_events_with_a_descriptor_that_is_not_user_events_data_is_refused)
{
    app_t a;
    clra_trace_session_t ts;
    clra_status_t st;
    const char *out;
    char path[300];
    app_start(&a, NULL);
    int null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
    ASSERT(null_fd >= 0);
    int rc = start_user_events(&a, null_fd, &ts, &st);
    close(null_fd);
    test_note("%s answered %d (%s), HRESULT 0x%08X: %s", e2e_runtime_version(), rc,
              clra_err_name(rc), (unsigned)st.hresult, st.detail);
    if (!e2e_runtime_at_least(10, 0)) {
        ASSERT_EQ(rc, CLRA_ERUNTIME);
        ASSERT_CONTAINS(st.detail, "does not know CollectTracing5, which an event-id filter or "
                                   "a user_events session needs");
    } else {
        ASSERT_EQ(rc, CLRA_ERUNTIME);
        ASSERT_EQ((uint32_t)st.hresult, 0x80004005u); /* DS_IPC_E_FAIL */
        ASSERT_CONTAINS(st.detail, "could not start the user_events session");
        ASSERT_CONTAINS(st.detail, "user_events_data");
    }
    app_assert_responsive(&a);
    /* The runtime is left fit for an ordinary streamed trace. */
    snprintf(path, sizeof path, "%s/after.nettrace", a.dir);
    ASSERT_EQ(run_cli(&out, "trace", "--providers", SAMPLE_PROVIDER, "--duration", "1",
                      "--output", path, app_pid_text(&a), NULL), 0);
    app_stop(&a);
}

/* The runtime's diagnostics socket for pid (the one /tmp/dotnet-diagnostic-PID-*-socket). */
static int connect_raw(pid_t pid)
{
    char pattern[96];
    glob_t g;
    snprintf(pattern, sizeof pattern, "/tmp/dotnet-diagnostic-%d-*-socket", (int)pid);
    ASSERT_EQ(glob(pattern, 0, NULL, &g), 0);
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    snprintf(sa.sun_path, sizeof sa.sun_path, "%s", g.gl_pathv[g.gl_pathc - 1]);
    globfree(&g);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    ASSERT(fd >= 0);
    ASSERT_EQ(connect(fd, (struct sockaddr *)&sa, sizeof sa), 0);
    return fd;
}

/* A runtime fact: the data byte arrives without SCM_RIGHTS. Bytes written out by hand: CT5,
 * session type 1, no rundown, "ClrAttach-Sample" at Verbose with default tracepoint "tp". */
TEST(trace_user_events_request_without_a_descriptor_is_bad_encoding)
{
    static const uint8_t head[] = {
        'D', 'O', 'T', 'N', 'E', 'T', '_', 'I', 'P', 'C', '_', 'V', '1', 0,
        0, 0, 0x02, 0x06, 0x00, 0x00, /* size filled below */
        1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, /* user_events, rundown 0, 1 provider */
        0, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 17, 0, 0, 0}; /* keywords 0, Verbose, 17 chars */
    static const char name[] = "ClrAttach-Sample";
    static const uint8_t tail[] = {0, 0, 0, 0,                   /* arguments: NULL */
                                   0, 0, 0, 0, 0,                /* no event filter */
                                   3, 0, 0, 0, 't', 0, 'p', 0, 0, 0, /* default "tp" */
                                   0, 0, 0, 0};                  /* no tracepoint sets */
    uint8_t msg[256], reply[64];
    size_t n = sizeof head;
    app_t a;
    memcpy(msg, head, n);
    for (size_t i = 0; i < sizeof name; i++, n += 2) { /* UTF-16LE with its NUL */
        msg[n] = (uint8_t)name[i];
        msg[n + 1] = 0;
    }
    memcpy(msg + n, tail, sizeof tail);
    n += sizeof tail;
    msg[14] = (uint8_t)n;
    e2e_require_runtime(10, 0, "CollectTracing5");
    app_start(&a, NULL);
    int fd = connect_raw(app_host_pid(&a));
    ASSERT_EQ(write(fd, msg, n), (ssize_t)n);
    ASSERT_EQ(write(fd, "", 1), 1); /* the byte a descriptor would ride on, alone */
    struct pollfd p = {fd, POLLIN, 0};
    ASSERT_EQ(poll(&p, 1, 10000), 1);
    ssize_t got = read(fd, reply, sizeof reply);
    close(fd);
    ASSERT_EQ(got, 24);
    ASSERT_EQ(reply[16], 0xFF); /* Server, Error */
    ASSERT_EQ(reply[17], 0xFF);
    uint32_t hr = (uint32_t)reply[20] | (uint32_t)reply[21] << 8 | (uint32_t)reply[22] << 16 |
                  (uint32_t)reply[23] << 24;
    ASSERT_EQ(hr, 0x80131384u); /* DS_IPC_E_BAD_ENCODING */
    app_assert_responsive(&a);
    app_stop(&a);
}

/* `clrattach trace --user-events` on a machine without user_events says so and what to do,
 * before the runtime is asked anything. */
TEST(trace_user_events_cli_says_when_this_kernel_lacks_user_events)
{
    app_t a;
    const char *out;
    struct stat sb;
    if (stat(CLRA_TRACE_USER_EVENTS_DATA, &sb) == 0)
        SKIP("this kernel has %s; the missing-file message cannot be seen here",
             CLRA_TRACE_USER_EVENTS_DATA);
    app_start(&a, NULL);
    int rc = run_cli(&out, "trace", "--providers", SAMPLE_PROVIDER, "--user-events", "clra_tp",
                     "--duration", "1", app_pid_text(&a), NULL);
    test_note("exit %d: %s", rc, out);
    ASSERT_EQ(rc, 1);
    ASSERT_CONTAINS(out, CLRA_TRACE_USER_EVENTS_DATA " does not exist: this kernel has no "
                         "user_events (CONFIG_USER_EVENTS");
    ASSERT_CONTAINS(out, "mount -t tracefs nodev /sys/kernel/tracing");
    rc = run_cli(&out, "trace", "--providers", SAMPLE_PROVIDER, "--user-events", "a b",
                 app_pid_text(&a), NULL);
    ASSERT_EQ(rc, 2);
    ASSERT_CONTAINS(out, "bad --user-events: tracepoint name 'a b'");
    rc = run_cli(&out, "trace", "--providers", SAMPLE_PROVIDER, "--tracepoint",
                 SAMPLE_PROVIDER ":tp=1", app_pid_text(&a), NULL);
    ASSERT_EQ(rc, 2);
    ASSERT_CONTAINS(out, "--tracepoint needs --user-events");
    app_assert_responsive(&a);
    app_stop(&a);
}
