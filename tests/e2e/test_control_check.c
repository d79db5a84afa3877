/* test_control_check.c - profile and stack load nothing they could not then control: the
 * sampler's control endpoint is checked before the attach (issue 29 #5). */
#define _GNU_SOURCE
#include "harness.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A TMPDIR of 64 bytes: the runtime's socket path (~104 bytes) still fits a socket address
 * (108), the SDK's <TMPDIR>/clrprof-<pid>-<clsid>.sock (~120) does not, so a profiler loaded
 * there opens no control endpoint. */
TEST(profile_and_stack_refuse_before_loading_when_the_control_socket_path_cannot_fit)
{
    char base[64] = "/tmp/clra-e2e-XXXXXX", tmpdir[128], env[160];
    const char *out;
    app_t a;
    ASSERT(mkdtemp(base) != NULL);
    chmod(base, 0755);
    int n = snprintf(tmpdir, sizeof tmpdir, "%s/", base);
    memset(tmpdir + n, 'd', 64 - (size_t)n);
    tmpdir[64] = '\0';
    ASSERT(mkdir(tmpdir, 0755) == 0);
    snprintf(env, sizeof env, "TMPDIR=%s", tmpdir);
    const char *extra[] = {env, NULL};
    app_start(&a, extra);
    int rc = run_cli(&out, "profile", "--duration", "1", app_pid_text(&a), NULL);
    ASSERT_MSG(!app_maps_contains(&a, "libsampler_profiler"), "profile loaded the sampler "
               "(exit %d): %s", rc, out);
    ASSERT_MSG(rc == 5, "profile: exit %d (want 5): %s", rc, out);
    ASSERT_CONTAINS(out, "shorter TMPDIR");
    ASSERT_CONTAINS(out, "nothing was loaded");
    rc = run_cli(&out, "stack", app_pid_text(&a), NULL);
    ASSERT_MSG(rc == 5, "stack: exit %d (want 5): %s", rc, out);
    ASSERT_MSG(!app_maps_contains(&a, "libsampler_profiler"), "stack loaded the sampler");
    rc = run_cli(&out, "info", app_pid_text(&a), NULL); /* the runtime's own socket works */
    ASSERT_MSG(rc == 0, "info: exit %d: %s", rc, out);
    app_stop(&a);
    remove_dir(base);
}
