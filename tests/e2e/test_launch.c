/* End-to-end: clrattach launch starts a real .NET program paused on its own diagnostic port and
 * loads a startup profiler before any managed code runs. */
#define _GNU_SOURCE
#include "harness.h"
#include "test.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

TEST(launch_loads_the_profiler_through_initialize_before_main_and_passes_the_exit_code)
{
    app_t a;
    const char *args[] = {"--profiler", profiler_path("hello"), NULL};
    app_spawn_launched(&a, NULL, args);
    ASSERT_MSG(app_wait_ready(&a, 30000) == 0, "the launched app did not start within 30 s");
    ASSERT_NE(a.pid, a.launcher);
    /* Main printed "ready", so whatever the profiler logged by now came before Main. */
    const char *log = app_log(&a);
    ASSERT_CONTAINS(log, "Initialize;");
    ASSERT(strstr(log, "InitializeForAttach") == NULL);
    /* CoreLib is the first module the runtime loads: a startup profiler sees even that one. */
    ASSERT_CONTAINS(log, "ModuleLoadFinished n=1 name=System.Private.CoreLib.dll");
    ASSERT(app_maps_contains(&a, "libhello_profiler.so"));
    app_assert_responsive(&a);
    int status = app_stop_with(&a, "exit 42");
    ASSERT(WIFEXITED(status));
    ASSERT_EQ(WEXITSTATUS(status), 42);
}

TEST(launch_without_a_profiler_just_runs_the_program)
{
    app_t a;
    const char *args[] = {NULL};
    app_spawn_launched(&a, NULL, args);
    ASSERT_MSG(app_wait_ready(&a, 30000) == 0, "the launched app did not start within 30 s");
    ASSERT_STREQ(app_log(&a), "");
    int status = app_stop(&a);
    ASSERT(WIFEXITED(status));
    ASSERT_EQ(WEXITSTATUS(status), 0);
}

TEST(launch_passes_sigterm_on_and_reports_how_the_program_ended)
{
    app_t a;
    const char *args[] = {"--profiler", profiler_path("hello"), NULL};
    int status;
    app_spawn_launched(&a, NULL, args);
    ASSERT_MSG(app_wait_ready(&a, 30000) == 0, "the launched app did not start within 30 s");
    pid_t app = a.pid;
    ASSERT_EQ(kill(a.launcher, SIGTERM), 0);
    ASSERT_EQ(waitpid(a.launcher, &status, 0), a.launcher);
    ASSERT(WIFEXITED(status)); /* the launcher itself was not killed: it passed the signal on */
    ASSERT_EQ(WEXITSTATUS(status), 128 + SIGTERM);
    ASSERT(kill(app, 0) != 0);
    app_stop(&a); /* both are gone already: this only cleans up */
}

TEST(launch_of_a_program_that_is_not_dotnet_says_so)
{
    const char *out;
    ASSERT_EQ(run_cli(&out, "launch", "--timeout", "5000", "--", "/bin/true", NULL), 4);
    ASSERT_CONTAINS(out, "before its runtime connected");
    ASSERT_EQ(run_cli(&out, "launch", "--profiler", "/nonexistent/libx.so", "--", "/bin/true",
                      NULL), 2);
    ASSERT_CONTAINS(out, "cannot read the profiler /nonexistent/libx.so");
    ASSERT_EQ(run_cli(&out, "launch", NULL), 2);
    ASSERT_CONTAINS(out, "expected -- COMMAND");
}
