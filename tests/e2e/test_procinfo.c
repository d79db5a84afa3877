/* End-to-end: `clrattach info` against a real .NET 10 process; every field is held against what
 * the test knows independently (the command line it started, the app's own answers, uname). */
#define _GNU_SOURCE
#include "harness.h"
#include "runtime.h"
#include "test.h"

#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The ProcessInfo arch string and the RID for this machine, derived from uname and the libc. */
static void expected_platform(app_t *a, char *arch, size_t arch_cap, char *rid, size_t rid_cap)
{
    static const struct {
        const char *machine, *arch, *rid_arch;
    } map[] = {{"x86_64", "x64", "x64"},     {"aarch64", "arm64", "arm64"},
               {"armv7l", "arm32", "arm"},   {"armv6l", "arm32", "arm"},
               {"i686", "x86", "x86"},       {"s390x", "s390x", "s390x"},
               {"ppc64le", "ppc64le", "ppc64le"}};
    struct utsname u;
    ASSERT(uname(&u) == 0);
    /* The runtime's own loader, not the machine's files: musl may be installed beside glibc. */
    int musl = app_maps_contains(a, "ld-musl-");
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++) {
        if (strcmp(u.machine, map[i].machine) != 0)
            continue;
        snprintf(arch, arch_cap, "%s", map[i].arch);
        snprintf(rid, rid_cap, "linux-%s%s", musl ? "musl-" : "", map[i].rid_arch);
        return;
    }
    test_fail(__FILE__, __LINE__, "no expected arch for machine %s; add it to the table",
              u.machine);
}

/* What the app says its runtime version is ("version 10.0.x" -> "10.0.x"). */
static const char *app_version(app_t *a)
{
    static char v[64];
    const char *reply = app_command(a, "version", 5000);
    ASSERT_MSG(strncmp(reply, "version ", 8) == 0, "unexpected reply '%s'", reply);
    snprintf(v, sizeof v, "%s", reply + 8);
    return v;
}

TEST(procinfo_reports_what_the_app_itself_reports)
{
    app_t a;
    const char *out;
    char arch[32], rid[64], dotnet[PATH_MAX], cmdline[PATH_MAX * 2];
    ASSERT(realpath(e2e_dotnet(), dotnet) != NULL); /* the runtime reports its resolved exe */
    /* Without the host's own options (exec --fx-version X): the runtime never sees them. */
    snprintf(cmdline, sizeof cmdline, "%s %s --seconds 300", dotnet, CLRA_SAMPLE_DLL);
    app_start(&a, NULL);
    expected_platform(&a, arch, sizeof arch, rid, sizeof rid);
    char version[64];
    snprintf(version, sizeof version, "%s", app_version(&a));
    int rc = run_cli(&out, "info", "--json", app_pid_text(&a), NULL);
    ASSERT_MSG(rc == 0, "exit %d: %s", rc, out);
    ASSERT_STREQ(json_value(out, "ok"), "true");
    ASSERT_EQ(atoi(json_value(out, "pid")), a.pid);
    ASSERT_EQ(atoi(json_value(out, "process_id")), a.pid);
    ASSERT_EQ(atoi(json_value(out, "ns_pid")), a.pid);
    ASSERT_STREQ(json_value(out, "command_line"), cmdline);
    ASSERT_STREQ(json_value(out, "os"), "Linux");
    ASSERT_STREQ(json_value(out, "arch"), arch);
    ASSERT_STREQ(json_value(out, "rid"), rid);
    ASSERT_STREQ(json_value(out, "entry_assembly"), "sample");
    /* The informational version is Environment.Version, maybe with a -preview or +commit tail. */
    const char *clr = json_value(out, "clr_version");
    ASSERT_MSG(clr && strncmp(clr, version, strlen(version)) == 0 &&
                   strchr("+-", clr[strlen(version)]),
               "clr_version '%s' vs the app's Environment.Version '%s'", clr ? clr : "(null)",
               version);
    ASSERT_STREQ(json_value(out, "command"), "ProcessInfo3");
    ASSERT_STREQ(json_value(out, "version"), "1");
    ASSERT_CONTAINS(json_value(out, "endpoint"), "/dotnet-diagnostic-");
    app_stop(&a);
}

/* The value after "NAME=" on its own line of the managed client's answer (static buffer). */
static const char *crosscheck_field(const char *out, const char *name)
{
    static char value[4][1024];
    static int next;
    char want[64];
    snprintf(want, sizeof want, "%s=", name);
    for (const char *p = out; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
        if (strncmp(p, want, strlen(want)) != 0)
            continue;
        p += strlen(want);
        next = (next + 1) % 4;
        snprintf(value[next], sizeof value[next], "%.*s", (int)strcspn(p, "\n"), p);
        return value[next];
    }
    test_fail(__FILE__, __LINE__, "the managed client did not report %s:\n%s", name, out);
}

TEST(procinfo_matches_the_official_managed_client_field_for_field)
{
    app_t a;
    const char *out;
    char ours[8192], theirs[8192];
    app_start(&a, NULL);
    ASSERT_EQ(run_cli(&out, "info", "--json", app_pid_text(&a), NULL), 0);
    snprintf(ours, sizeof ours, "%s", out);
    int rc = run_crosscheck(&out, "info", &a);
    ASSERT_MSG(rc == 0, "the managed client failed (%d):\n%s", rc, out);
    snprintf(theirs, sizeof theirs, "%s", out);
    static const char *const pairs[][2] = {
        {"process_id", "ProcessId"},         {"command_line", "CommandLine"},
        {"os", "OperatingSystem"},           {"arch", "ProcessArchitecture"},
        {"entry_assembly", "ManagedEntrypointAssemblyName"},
        {"clr_version", "ClrProductVersionString"}, {"rid", "PortableRuntimeIdentifier"}};
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
        ASSERT_STREQ(json_value(ours, pairs[i][0]), crosscheck_field(theirs, pairs[i][1]));
    /* The same GUID; .NET prints it in lower case. */
    ASSERT_MSG(strcasecmp(json_value(ours, "runtime_cookie"),
                          crosscheck_field(theirs, "RuntimeInstanceCookie")) == 0,
               "cookie %s vs the managed client's %s", json_value(ours, "runtime_cookie"),
               crosscheck_field(theirs, "RuntimeInstanceCookie"));
    app_stop(&a);
}

TEST(procinfo_cookie_is_stable_per_process_and_differs_between_processes)
{
    app_t a, b;
    const char *out;
    char first[64], second[64];
    app_start(&a, NULL);
    app_start(&b, NULL);
    ASSERT_EQ(run_cli(&out, "info", "--json", app_pid_text(&a), NULL), 0);
    snprintf(first, sizeof first, "%s", json_value(out, "runtime_cookie"));
    ASSERT_EQ(strlen(first), 36);
    ASSERT_EQ(run_cli(&out, "info", app_pid_text(&a), NULL), 0);
    ASSERT_CONTAINS(out, first); /* the text form prints the same GUID */
    ASSERT_EQ(run_cli(&out, "info", "--json", app_pid_text(&b), NULL), 0);
    snprintf(second, sizeof second, "%s", json_value(out, "runtime_cookie"));
    ASSERT_MSG(strcmp(first, second) != 0, "two processes share cookie %s", first);
    app_stop(&a);
    app_stop(&b);
}

TEST(procinfo_text_output_names_every_field)
{
    app_t a;
    const char *out;
    char head[64];
    app_start(&a, NULL);
    ASSERT_EQ(run_cli(&out, "info", app_pid_text(&a), NULL), 0);
    snprintf(head, sizeof head, "process %d (pid %d in its own namespace)", a.pid, a.pid);
    ASSERT_CONTAINS(out, head);
    ASSERT_CONTAINS(out, "  command line    ");
    ASSERT_CONTAINS(out, CLRA_SAMPLE_DLL " --seconds 300");
    ASSERT_CONTAINS(out, "  os / arch       Linux / ");
    ASSERT_CONTAINS(out, "  entry assembly  sample\n");
    ASSERT_CONTAINS(out, "  answered by     ProcessInfo3 (version 1)\n");
    app_stop(&a);
}

TEST(procinfo_on_an_exited_process_says_no_such_process)
{
    app_t a;
    const char *out;
    char pid[16];
    char socket_path[512];
    app_start(&a, NULL);
    snprintf(pid, sizeof pid, "%d", a.pid);
    ASSERT_EQ(run_cli(&out, "info", "--json", pid, NULL), 0);
    snprintf(socket_path, sizeof socket_path, "%s", json_value(out, "endpoint"));
    kill(a.pid, SIGKILL);
    waitpid(a.pid, NULL, 0);
    int rc = run_cli(&out, "info", pid, NULL);
    unlink(socket_path); /* left behind by the SIGKILL; ours to remove */
    ASSERT_EQ(rc, 3);
    ASSERT_CONTAINS(out, "no such process");
    ASSERT_CONTAINS(out, "what to do:");
    app_stop(&a);
}

TEST(procinfo_on_a_process_without_runtime_says_not_dotnet)
{
    const char *out;
    char pid[16];
    pid_t child = fork();
    if (child == 0) {
        execl("/bin/sleep", "sleep", "30", (char *)NULL);
        _exit(127);
    }
    usleep(100000);
    snprintf(pid, sizeof pid, "%d", (int)child);
    int rc = run_cli(&out, "info", "--json", pid, NULL);
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
    ASSERT_MSG(rc == 4, "exit %d: %s", rc, out);
    ASSERT_STREQ(json_value(out, "ok"), "false");
    ASSERT_STREQ(json_value(out, "error"), "CLRA_ENOTDOTNET");
}

/* Leaves a bound socket named as a runtime's for pid in /tmp, last changed an hour ago: what a
 * SIGKILLed runtime leaves behind for the next process that gets its pid. */
static void plant_dead_runtime_socket(const char *path)
{
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    snprintf(sa.sun_path, sizeof sa.sun_path, "%s", path);
    unlink(path);
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    ASSERT(fd >= 0 && bind(fd, (struct sockaddr *)&sa, sizeof sa) == 0);
    close(fd);
    struct timespec t[2];
    clock_gettime(CLOCK_REALTIME, &t[0]);
    t[0].tv_sec -= 3600;
    t[1] = t[0];
    ASSERT(utimensat(AT_FDCWD, path, t, 0) == 0);
}

TEST(procinfo_ignores_the_socket_of_a_dead_runtime_that_had_the_same_pid)
{
    const char *out;
    char pid[16], sock[96];
    pid_t child = fork();
    if (child == 0) {
        execl("/bin/sleep", "sleep", "30", (char *)NULL);
        _exit(127);
    }
    usleep(100000);
    snprintf(pid, sizeof pid, "%d", (int)child);
    snprintf(sock, sizeof sock, "/tmp/dotnet-diagnostic-%d-1-socket", (int)child);
    plant_dead_runtime_socket(sock);
    int rc = run_cli(&out, "info", "--json", pid, NULL);
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
    unlink(sock);
    ASSERT_MSG(rc == 4, "exit %d: %s", rc, out);
    ASSERT_STREQ(json_value(out, "error"), "CLRA_ENOTDOTNET");
}

TEST(procinfo_usage_errors_exit_2_and_help_exits_0)
{
    const char *out;
    ASSERT_EQ(run_cli(&out, "info", NULL), 2);
    ASSERT_CONTAINS(out, "clrattach info: expected PID (see --help)");
    ASSERT_EQ(run_cli(&out, "info", "12x", NULL), 2);
    ASSERT_EQ(run_cli(&out, "info", "--timeout", "0", "1", NULL), 2);
    ASSERT_EQ(run_cli(&out, "info", "--help", NULL), 0);
    ASSERT_CONTAINS(out, "usage: clrattach info");
}
