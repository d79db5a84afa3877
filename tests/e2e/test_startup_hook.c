/* `clrattach startup-hook` against a real .NET 10 process. The test hook (tests/apps/hook)
 * appends "begin/end pid=... call=N" to $CLRA_HOOK_OUT and sets CLRA_HOOK_RAN=<pid>:<N>, which
 * the sample app's `env` command prints: proof that Initialize ran inside the target. The last
 * two tests record what .NET 10 does with a hook it cannot run: it ends the process. */
#define _GNU_SOURCE
#include "clrattach.h"
#include "harness.h"
#include "runtime.h"
#include "test.h"

#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

typedef struct hook_app {
    app_t a;
    char dir[64];       /* holds the hook's output file */
    char out[128];      /* $CLRA_HOOK_OUT */
    char env_out[160];  /* "CLRA_HOOK_OUT=..." */
} hook_app_t;

/* Starts the sample app with the hook's output file in a fresh directory, plus one more
 * NAME=VALUE (or NULL). */
static void hook_app_start(hook_app_t *h, const char *extra)
{
    snprintf(h->dir, sizeof h->dir, "/tmp/clra-hook-XXXXXX");
    ASSERT(mkdtemp(h->dir) != NULL);
    snprintf(h->out, sizeof h->out, "%s/hook.out", h->dir);
    snprintf(h->env_out, sizeof h->env_out, "CLRA_HOOK_OUT=%s", h->out);
    const char *env[] = {h->env_out, extra, NULL};
    app_start(&h->a, env);
}

static void hook_app_stop(hook_app_t *h)
{
    app_stop(&h->a);
    unlink(h->out);
    rmdir(h->dir);
}

/* The hook's output so far (static buffer; "" when it never ran). */
static const char *hook_output(const hook_app_t *h)
{
    static char text[4096];
    text[0] = '\0';
    FILE *f = fopen(h->out, "r");
    if (f) {
        text[fread(text, 1, sizeof text - 1, f)] = '\0';
        fclose(f);
    }
    return text;
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* Waits until the app has died, without reaping it (app_stop still owns it), and returns the
 * signal that ended it (0 for a normal exit). */
static int wait_for_death(app_t *a, int timeout_ms)
{
    siginfo_t info;
    double end = now_ms() + timeout_ms;
    for (;;) {
        memset(&info, 0, sizeof info);
        ASSERT_EQ(waitid(P_PID, (id_t)a->pid, &info, WEXITED | WNOHANG | WNOWAIT), 0);
        if (info.si_pid == a->pid)
            return info.si_code == CLD_EXITED ? 0 : info.si_status;
        ASSERT_MSG(now_ms() < end, "process %d still runs after %d ms", (int)a->pid, timeout_ms);
        usleep(20000);
    }
}

TEST(startup_hook_runs_initialize_inside_the_target_before_replying)
{
    hook_app_t h;
    char expect[256];
    const char *out;
    hook_app_start(&h, "CLRA_HOOK_DELAY_MS=1000");
    int pid = (int)h.a.pid;
    double t0 = now_ms();
    int rc = run_cli(&out, "startup-hook", app_pid_text(&h.a), CLRA_HOOK_DLL, NULL);
    double took = now_ms() - t0;
    const char *ran = hook_output(&h); /* read at once: the reply came after Initialize */
    ASSERT_MSG(rc == 0, "exit %d: %s", rc, out);
    snprintf(expect, sizeof expect, "applied startup hook %s in process %d", CLRA_HOOK_DLL, pid);
    ASSERT_CONTAINS(out, expect);
    snprintf(expect, sizeof expect, "begin pid=%d call=1 ", pid);
    ASSERT_CONTAINS(ran, expect);
    snprintf(expect, sizeof expect, "end pid=%d call=1\n", pid);
    ASSERT_CONTAINS(ran, expect);
    ASSERT_MSG(took >= 1000, "the reply came after %.0f ms, before the hook's 1000 ms sleep", took);
    snprintf(expect, sizeof expect, "env CLRA_HOOK_RAN=%d:1", pid);
    ASSERT_STREQ(app_command(&h.a, "env CLRA_HOOK_RAN", 5000), expect);
    hook_app_stop(&h);
}

TEST(startup_hook_applied_twice_runs_initialize_twice)
{
    hook_app_t h;
    char expect[128];
    const char *out;
    hook_app_start(&h, NULL);
    for (int i = 1; i <= 2; i++) {
        int rc = run_cli(&out, "startup-hook", app_pid_text(&h.a), CLRA_HOOK_DLL, "--json", NULL);
        ASSERT_MSG(rc == 0, "apply %d: exit %d: %s", i, rc, out);
        ASSERT_CONTAINS(out, "\"ok\":true");
        ASSERT_CONTAINS(out, "\"exit_code\":0");
    }
    snprintf(expect, sizeof expect, "end pid=%d call=2\n", (int)h.a.pid);
    ASSERT_CONTAINS(hook_output(&h), expect);
    snprintf(expect, sizeof expect, "env CLRA_HOOK_RAN=%d:2", (int)h.a.pid);
    ASSERT_STREQ(app_command(&h.a, "env CLRA_HOOK_RAN", 5000), expect);
    hook_app_stop(&h);
}

TEST(startup_hook_missing_assembly_is_refused_locally_with_exit_2)
{
    hook_app_t h;
    char cwd[512], expect[640];
    const char *out;
    hook_app_start(&h, NULL);
    int rc = run_cli(&out, "startup-hook", app_pid_text(&h.a), "/nonexistent/hook.dll", NULL);
    ASSERT_MSG(rc == 2, "exit %d: %s", rc, out);
    ASSERT_CONTAINS(out, "/nonexistent/hook.dll: No such file or directory");
    ASSERT_CONTAINS(out, "was not contacted");
    /* A relative path is shown as the absolute one the target would have been given. */
    ASSERT(getcwd(cwd, sizeof cwd) != NULL);
    rc = run_cli(&out, "startup-hook", "no-such-hook.dll", app_pid_text(&h.a), NULL);
    ASSERT_EQ(rc, 2); /* PID must come first */
    rc = run_cli(&out, "startup-hook", app_pid_text(&h.a), "no-such-hook.dll", NULL);
    ASSERT_EQ(rc, 2);
    snprintf(expect, sizeof expect, "%s/no-such-hook.dll: No such file", cwd);
    ASSERT_CONTAINS(out, expect);
    app_assert_responsive(&h.a);
    ASSERT_STREQ(hook_output(&h), "");
    hook_app_stop(&h);
}

TEST(startup_hook_refuses_every_file_the_runtime_would_die_on)
{
    static const char *const bad[][2] = {
        {"garbage", "no MZ header"},
        {CLRA_SAMPLE_DLL, "has no class StartupHook"},
        {CLRA_BADHOOK_DIR "/badhook_instance.dll", "must be `static void Initialize()`"},
        {CLRA_BADHOOK_DIR "/badhook_params.dll", "must be `static void Initialize()`"},
        {CLRA_BADHOOK_DIR "/badhook_returns.dll", "must be `static void Initialize()`"},
        {CLRA_BADHOOK_DIR "/badhook_generic.dll", "must be `static void Initialize()`"},
        {CLRA_BADHOOK_DIR "/badhook_namespaced.dll", "declared inside Hooks"},
        {CLRA_BADHOOK_DIR "/badhook_nested.dll", "declared inside another class"},
    };
    hook_app_t h;
    char garbage[160];
    const char *out;
    hook_app_start(&h, NULL);
    snprintf(garbage, sizeof garbage, "%s/garbage.dll", h.dir);
    FILE *f = fopen(garbage, "w");
    ASSERT(f != NULL);
    fputs("not an assembly\n", f);
    fclose(f);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *path = i == 0 ? garbage : bad[i][0];
        int rc = run_cli(&out, "startup-hook", app_pid_text(&h.a), path, NULL);
        ASSERT_MSG(rc == 2, "%s: exit %d: %s", path, rc, out);
        ASSERT_CONTAINS(out, bad[i][1]);
        ASSERT_CONTAINS(out, "was not contacted");
    }
    unlink(garbage);
    app_assert_responsive(&h.a);
    hook_app_stop(&h);
}

/* What the check protects against: the runtime has no error reply for a hook it cannot load.
 * The library's endpoint-only call (no pid, so no check) sends it anyway. */
TEST(startup_hook_unloadable_assembly_ends_the_net10_target_without_a_reply)
{
    hook_app_t h;
    clra_endpoint_t ep;
    clra_status_t st;
    void (*old)(int) = signal(SIGPIPE, SIG_IGN); /* app_stop writes to the dead app */
    hook_app_start(&h, NULL);
    ASSERT_EQ(clra_endpoint_find((int)h.a.pid, &ep, &st), 0);
    clra_target_t unchecked = clra_target_socket(ep.path); /* a socket target skips the check */
    int rc = clra_startup_hook_apply(&unchecked, "/nonexistent/hook.dll", 10000, &st);
    if (!e2e_runtime_at_least(9, 0)) { /* 8.0 catches the failure and answers E_INVALIDARG */
        ASSERT_MSG(rc == CLRA_ERUNTIME && st.hresult == (int32_t)0x80070057,
                   "rc %d (%s), hresult 0x%08X on %s", rc, clra_err_name(rc),
                   (unsigned)st.hresult, e2e_runtime_version());
        app_assert_responsive(&h.a);
        hook_app_stop(&h);
        signal(SIGPIPE, old);
        return;
    }
    ASSERT_MSG(rc == CLRA_ECONNLOST, "rc %d (%s), hresult 0x%08X: the runtime answered", rc,
               clra_err_name(rc), (unsigned)st.hresult);
    int sig = wait_for_death(&h.a, 10000);
    ASSERT_MSG(sig == SIGABRT, "the target ended with signal %d, not SIGABRT", sig);
    hook_app_stop(&h);
    signal(SIGPIPE, old);
}

TEST(startup_hook_that_throws_ends_the_target_and_the_cli_says_so)
{
    hook_app_t h;
    char expect[128];
    const char *out;
    void (*old)(int) = signal(SIGPIPE, SIG_IGN);
    hook_app_start(&h, "CLRA_HOOK_THROW=1");
    int rc = run_cli(&out, "startup-hook", app_pid_text(&h.a), CLRA_HOOK_DLL, NULL);
    snprintf(expect, sizeof expect, "begin pid=%d call=1 ", (int)h.a.pid);
    if (!e2e_runtime_at_least(9, 0)) { /* 8.0 answers COR_E_TARGETINVOCATION and lives on */
        ASSERT_MSG(rc == 10, "exit %d on %s: %s", rc, e2e_runtime_version(), out);
        ASSERT_CONTAINS(out, "0x80131604");
        ASSERT_CONTAINS(hook_output(&h), expect);
        app_assert_responsive(&h.a);
        hook_app_stop(&h);
        signal(SIGPIPE, old);
        return;
    }
    ASSERT_MSG(rc == 8, "exit %d: %s", rc, out);
    ASSERT_CONTAINS(out, "the hook probably threw and the runtime ended the process");
    ASSERT_CONTAINS(hook_output(&h), expect);
    ASSERT_EQ(wait_for_death(&h.a, 10000), SIGABRT);
    hook_app_stop(&h);
    signal(SIGPIPE, old);
}
