/* launch_win.c - `clrattach launch` on Windows: COMMAND starts with its runtime told to connect
 * to a named pipe of ours and wait (DOTNET_DiagnosticPorts=NAME,connect,suspend); while it
 * waits we register the startup profiler, then resume it and wait for COMMAND's exit code.
 * The Linux twin is cmd_launch.c (fork, signals); the sequence on the pipe is the same. */
#include "launch/launch_win.h"
#include "verbs.h"

#include <stdlib.h>
#include <string.h>
#include <windows.h>

#define SLICE_MS 200
#define EXIT_INTERRUPTED 130

/* Set by the console handler: Ctrl-C or Ctrl-Break came while COMMAND was still paused. */
static volatile LONG interrupted;
/* 1 once the runtime is resumed: from then on COMMAND decides what Ctrl-C means. */
static volatile LONG resumed;
static HANDLE child; /* COMMAND's process, for the handler of a closing console */

/* Ctrl-C reaches every process of the console: COMMAND gets its own. While it is paused
 * the main thread stops it; a closing console leaves no time, so it is stopped here. */
static BOOL WINAPI on_console(DWORD event)
{
    if (event == CTRL_C_EVENT || event == CTRL_BREAK_EVENT) {
        if (!resumed)
            InterlockedExchange(&interrupted, 1);
        return TRUE;
    }
    if (!resumed && child)
        TerminateProcess(child, EXIT_INTERRUPTED);
    return FALSE;
}

/* One launch in progress. */
typedef struct launch {
    const launch_win_opts_t *o;
    clra_reverse_server_t *srv;
    clra_advertise_t ad; /* the runtime's first advertise: its cookie picks its connections */
    PROCESS_INFORMATION pi;
    int connected;       /* its runtime advertised itself on the pipe */
    DWORD code;          /* COMMAND's exit code once it ended */
} launch_t;

/* Whether COMMAND ended (1, l->code set) or not (0). */
static int ended(launch_t *l)
{
    if (WaitForSingleObject(l->pi.hProcess, 0) != WAIT_OBJECT_0)
        return 0;
    GetExitCodeProcess(l->pi.hProcess, &l->code);
    return 1;
}

/* Waits for the runtime's next advertise in short slices, so a program that exits (or never
 * was .NET) or a Ctrl-C is noticed at once. 0, a CLRA_E* code, 1 when COMMAND ended, 2 when
 * interrupted. */
static int wait_advertise(launch_t *l, const clra_guid_t *cookie, clra_advertise_t *ad,
                          clra_status_t *st)
{
    int timeout_ms = (int)l->o->timeout_ms;
    for (int waited = 0;; waited += SLICE_MS) {
        int rc = clra_reverse_server_wait(l->srv, cookie, SLICE_MS, ad, st);
        if (rc != CLRA_ETIMEDOUT)
            return rc;
        if (interrupted)
            return 2;
        if (ended(l))
            return 1;
        if (waited >= timeout_ms) {
            snprintf(st->detail, sizeof st->detail, "the runtime did not connect to the launch "
                     "pipe within %d ms", timeout_ms);
            return CLRA_ETIMEDOUT;
        }
    }
}

/* One command on the runtime's next advertised connection: StartupProfiler (resume 0) or
 * ResumeRuntime (resume 1). */
static int on_pipe(launch_t *l, int resume, clra_status_t *st)
{
    clra_advertise_t again;
    clra_connection_t *conn;
    int rc = wait_advertise(l, &l->ad.cookie, &again, st);
    if (rc)
        return rc;
    rc = clra_reverse_server_accept(l->srv, &l->ad.cookie, &conn);
    if (rc)
        return rc;
    clra_target_t t = clra_target_connection(conn);
    int ms = (int)l->o->timeout_ms;
    return resume ? clra_runtime_resume(&t, ms, st)
                  : clra_profiler_startup_register(&t, &l->o->clsid, l->o->profiler, ms, st);
}

/* The runtime advertises before it marks itself paused, so the first StartupProfiler can meet
 * E_INVALIDARG ("not paused") although the pause is certain to come: retry until it does. */
static int startup_profiler_when_paused(launch_t *l, clra_status_t *st)
{
    for (int waited = 0;; waited += 20) {
        int rc = on_pipe(l, 0, st);
        if (rc != CLRA_ERUNTIME || (uint32_t)st->hresult != 0x80070057u ||
            waited >= l->o->timeout_ms)
            return rc;
        Sleep(20);
    }
}

/* The runtime accepts StartupProfiler for any path and fails silently at load time, so the
 * DLL among the process's modules is the only proof it worked. 1, 0 not within timeout_ms,
 * -1 when the program ended. */
static int wait_loaded(launch_t *l, int timeout_ms)
{
    /* By the clock: listing another process's modules takes a while under wine. */
    ULONGLONG end = GetTickCount64() + (ULONGLONG)timeout_ms;
    for (;;) {
        int loaded = clra_library_is_mapped((int)l->ad.pid, l->o->profiler);
        if (loaded == 1)
            return 1;
        if (WaitForSingleObject(l->pi.hProcess, 50) == WAIT_OBJECT_0)
            return -1; /* its modules cannot be read any more */
        if (GetTickCount64() >= end)
            return 0;
    }
}

/* Connects, registers the profiler, resumes. 0 once resumed, 1 COMMAND ended first, 2
 * interrupted, or a CLRA_E* code. */
static int prepare_and_resume(launch_t *l, clra_status_t *st)
{
    int rc = wait_advertise(l, NULL, &l->ad, st);
    l->connected = rc == 0;
    if (rc == 0) {
        rc = startup_profiler_when_paused(l, st);
        if (rc == CLRA_ERUNTIME)
            fprintf(stderr, "clrattach launch: the runtime refused the startup profiler %s\n",
                    l->o->profiler);
    }
    if (rc == 0)
        rc = on_pipe(l, 1, st);
    if (rc == 0)
        InterlockedExchange(&resumed, 1);
    return rc;
}

/* Says why COMMAND ended or was stopped before it ran managed code; returns our exit code. */
static int give_up(launch_t *l, int rc, clra_status_t *st)
{
    const char *cmd = l->o->command[0];
    if (rc != 1 && !ended(l)) { /* never leave it paused: nothing of it has run yet */
        TerminateProcess(l->pi.hProcess, rc == 2 ? EXIT_INTERRUPTED : 1);
        WaitForSingleObject(l->pi.hProcess, 5000);
        fprintf(stderr, "clrattach launch: stopped %s (process %lu) before it ran any managed "
                "code\n", cmd, (unsigned long)l->pi.dwProcessId);
    }
    if (rc == 2) {
        fprintf(stderr, "clrattach launch: interrupted (Ctrl-C) %s %s\n",
                l->connected ? "while paused:" : "before the runtime connected:", cmd);
        return EXIT_INTERRUPTED;
    }
    if (rc == 1 && l->connected) {
        fprintf(stderr, "clrattach launch: %s ended (code %lu) while its runtime was paused on "
                "the launch pipe, before it was resumed\n", cmd, (unsigned long)l->code);
        return EXIT_CONNECTION;
    }
    if (rc == 1 && l->code >= 0xC0000000u) { /* an NTSTATUS: a crash is not "not .NET" */
        fprintf(stderr, "clrattach launch: %s crashed (exception 0x%08lX) before its runtime "
                "connected to the launch pipe; run it without clrattach to see why\n", cmd,
                (unsigned long)l->code);
        return EXIT_NOTDOTNET;
    }
    if (rc == 1) {
        fprintf(stderr, "clrattach launch: %s exited (code %lu) before its runtime connected to "
                "the launch pipe: not a .NET program, or diagnostics disabled "
                "(DOTNET_EnableDiagnostics=0)\n", cmd, (unsigned long)l->code);
        return EXIT_NOTDOTNET;
    }
    cli_run_t run;
    cli_run_begin(&run, (int)l->pi.dwProcessId, 0);
    return cli_fail(&run, &(cli_failure_t){.rc = rc, .st = st, .action = "launch"});
}

/* Sets NAME to VALUE (UTF-8) in our environment, which COMMAND inherits; 0 or -1. */
static int set_env(const char *name, const char *value)
{
    wchar_t *wn = launch_win_wide(name), *wv = launch_win_wide(value);
    int ok = wn && wv && SetEnvironmentVariableW(wn, wv);
    free(wn);
    free(wv);
    return ok ? 0 : -1;
}

/* COMMAND's environment: our port first, so a port the user configured still works after it;
 * CLRPROF_OPTIONS from --data; then each --env. 0 or -1 after saying why. */
static int prepare_env(const launch_win_opts_t *o, const char *pipe_name)
{
    char ports[4096];
    wchar_t theirs[2048];
    char theirs8[3 * 2048];
    DWORD n = GetEnvironmentVariableW(L"DOTNET_DiagnosticPorts", theirs, 2048);
    theirs8[0] = '\0';
    if (n > 0 && n < 2048)
        WideCharToMultiByte(CP_UTF8, 0, theirs, -1, theirs8, sizeof theirs8, NULL, NULL);
    snprintf(ports, sizeof ports, "%s,connect,suspend%s%s", pipe_name, theirs8[0] ? ";" : "",
             theirs8);
    int rc = set_env("DOTNET_DiagnosticPorts", ports);
    if (rc == 0 && o->data)
        rc = set_env("CLRPROF_OPTIONS", o->data);
    for (int i = 0; rc == 0 && i < o->nenv; i++) {
        char name[256];
        const char *eq = strchr(o->env[i], '=');
        snprintf(name, sizeof name, "%.*s", (int)(eq - o->env[i]), o->env[i]);
        rc = set_env(name, eq + 1);
    }
    if (rc)
        fprintf(stderr, "clrattach launch: cannot set COMMAND's environment (not UTF-8?)\n");
    return rc;
}

/* Starts COMMAND with our console and standard handles; 0, or -1 after saying why. */
static int start_command(launch_t *l)
{
    STARTUPINFOW si;
    memset(&si, 0, sizeof si);
    si.cb = sizeof si;
    si.dwFlags = STARTF_USESTDHANDLES;
    HANDLE std[3] = {GetStdHandle(STD_INPUT_HANDLE), GetStdHandle(STD_OUTPUT_HANDLE),
                     GetStdHandle(STD_ERROR_HANDLE)};
    for (int i = 0; i < 3; i++) /* inheritable, or COMMAND would get none of them */
        if (std[i] && std[i] != INVALID_HANDLE_VALUE)
            SetHandleInformation(std[i], HANDLE_FLAG_INHERIT, HANDLE_FLAG_INHERIT);
    si.hStdInput = std[0];
    si.hStdOutput = std[1];
    si.hStdError = std[2];
    wchar_t *line = launch_win_command_line(l->o->command);
    if (!line) {
        fprintf(stderr, "clrattach launch: COMMAND's arguments are not valid UTF-8\n");
        return -1;
    }
    BOOL ok = CreateProcessW(NULL, line, NULL, NULL, TRUE, 0, NULL, NULL, &si, &l->pi);
    DWORD err = GetLastError();
    free(line);
    if (ok) {
        child = l->pi.hProcess;
        return 0;
    }
    char msg[200] = "";
    DWORD n = FormatMessageA(FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS, NULL,
                             err, 0, msg, sizeof msg, NULL);
    while (n > 0 && (msg[n - 1] == '\n' || msg[n - 1] == '\r' || msg[n - 1] == '.'))
        msg[--n] = '\0';
    fprintf(stderr, "clrattach launch: cannot run '%s': %s (Windows error %lu)\n",
            cli_vis(l->o->command[0]), n ? msg : "CreateProcess failed", (unsigned long)err);
    return -1;
}

/* Starts COMMAND on the pipe and sees it through; returns the exit code. */
static int run(const launch_win_opts_t *o, clra_reverse_server_t *srv, const char *pipe_name)
{
    launch_t l;
    clra_status_t st;
    memset(&l, 0, sizeof l);
    memset(&st, 0, sizeof st);
    l.o = o;
    l.srv = srv;
    if (prepare_env(o, pipe_name) != 0)
        return EXIT_USAGE;
    SetConsoleCtrlHandler(on_console, TRUE);
    if (start_command(&l) != 0)
        return EXIT_NOTDOTNET; /* as on Linux, where the exec fails in the child */
    int rc = prepare_and_resume(&l, &st);
    int code;
    if (rc != 0) {
        code = give_up(&l, rc, &st);
    } else {
        int loaded = wait_loaded(&l, o->timeout_ms < 10000 ? (int)o->timeout_ms : 10000);
        if (loaded == 1)
            fprintf(stderr, "clrattach launch: process %lu runs with startup profiler %s\n",
                    (unsigned long)l.ad.pid, o->profiler);
        else if (loaded == 0)
            fprintf(stderr, "clrattach launch: warning: process %lu runs, but its runtime did "
                    "not load %s (wrong CLSID, missing DllGetClassObject, or Initialize failed; "
                    "the runtime logs why only to its event log)\n", (unsigned long)l.ad.pid,
                    o->profiler);
        /* The pipe stays open: the runtime's next connection waits there quietly. */
        WaitForSingleObject(l.pi.hProcess, INFINITE);
        GetExitCodeProcess(l.pi.hProcess, &l.code);
        code = (int)l.code;
    }
    child = NULL;
    CloseHandle(l.pi.hThread);
    CloseHandle(l.pi.hProcess);
    return code;
}

int cmd_launch(int argc, char **argv)
{
    static launch_win_opts_t o; /* the profiler path makes it large for a stack */
    clra_status_t st;
    clra_reverse_server_t *srv = NULL;
    char name[96], path[128];
    LARGE_INTEGER now;
    memset(&o, 0, sizeof o);
    int p = launch_win_parse(argc, argv, &o);
    if (p != 0)
        return p > 0 ? EXIT_OK : EXIT_USAGE;
    /* Unique per launch; the pipe's first instance is ours or the listen fails. */
    QueryPerformanceCounter(&now);
    snprintf(name, sizeof name, "clrattach-launch-%lu-%llx", (unsigned long)GetCurrentProcessId(),
             (unsigned long long)now.QuadPart);
    snprintf(path, sizeof path, "\\\\.\\pipe\\%s", name);
    int rc = clra_reverse_server_listen(path, &srv, &st);
    if (rc) {
        cli_run_t run_;
        cli_run_begin(&run_, 0, 0);
        return cli_fail(&run_, &(cli_failure_t){.rc = rc, .st = &st,
                                                .action = "open the launch pipe"});
    }
    int code = run(&o, srv, name);
    clra_reverse_server_close(srv);
    return code;
}
