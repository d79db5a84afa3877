/* launch_spawn_win.c - COMMAND's process on Windows (launch/launch_platform.h): a named pipe of
 * ours as the port, CreateProcessW with our console and standard handles, and Ctrl-C: while
 * COMMAND is paused, launch stops it (exit 130); once it runs, COMMAND decides. */
#include "launch/launch_platform.h"
#include "launch/launch_win.h"
#include "common/mono_clock.h"

#include <stdlib.h>
#include <string.h>
#include <windows.h>

#define EXIT_INTERRUPTED 130

/* Set by the console handler: Ctrl-C or Ctrl-Break came while COMMAND was still paused. */
static volatile LONG interrupted;
/* 1 once the runtime is resumed: from then on COMMAND decides what Ctrl-C means. */
static volatile LONG resumed;
static HANDLE child; /* COMMAND's process, for the handler of a closing console */

const char launch_port_action[] = "open the launch pipe";
const char *const launch_port_hint = NULL;

/* Unique per launch; the pipe's first instance is ours or the listen fails. */
int launch_port_make(launch_port_t *p)
{
    LARGE_INTEGER now;
    QueryPerformanceCounter(&now);
    p->dir[0] = '\0';
    snprintf(p->name, sizeof p->name, "clrattach-launch-%lu-%llx",
             (unsigned long)GetCurrentProcessId(), (unsigned long long)now.QuadPart);
    snprintf(p->listen, sizeof p->listen, "\\\\.\\pipe\\%s", p->name);
    return 0;
}

void launch_port_remove(launch_port_t *p)
{
    (void)p;
}

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
static int prepare_env(const launch_opts_t *o, const char *pipe_name)
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

/* Says why CreateProcessW failed, in the system's words. */
static void say_cannot_run(const char *command, DWORD err)
{
    char msg[200] = "";
    DWORD n = FormatMessageA(FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS, NULL,
                             err, 0, msg, sizeof msg, NULL);
    while (n > 0 && (msg[n - 1] == '\n' || msg[n - 1] == '\r' || msg[n - 1] == '.'))
        msg[--n] = '\0';
    fprintf(stderr, "clrattach launch: cannot run '%s': %s (Windows error %lu)\n",
            cli_vis(command), n ? msg : "CreateProcess failed", (unsigned long)err);
}

/* Starts COMMAND with our console and standard handles (inheritable, or COMMAND would get
 * none of them), its stdout our stderr with --json (our stdout holds the JSON lines); 0, or -1
 * after saying why. */
static int create_process(launch_child_t *c, char *const *command, int json)
{
    STARTUPINFOW si;
    PROCESS_INFORMATION pi;
    memset(&si, 0, sizeof si);
    si.cb = sizeof si;
    si.dwFlags = STARTF_USESTDHANDLES;
    HANDLE std[3] = {GetStdHandle(STD_INPUT_HANDLE), GetStdHandle(STD_OUTPUT_HANDLE),
                     GetStdHandle(STD_ERROR_HANDLE)};
    for (int i = 0; i < 3; i++)
        if (std[i] && std[i] != INVALID_HANDLE_VALUE)
            SetHandleInformation(std[i], HANDLE_FLAG_INHERIT, HANDLE_FLAG_INHERIT);
    si.hStdInput = std[0];
    si.hStdOutput = json ? std[2] : std[1];
    si.hStdError = std[2];
    wchar_t *line = launch_win_command_line(command);
    if (!line) {
        fprintf(stderr, "clrattach launch: COMMAND's arguments are not valid UTF-8\n");
        return -1;
    }
    BOOL ok = CreateProcessW(NULL, line, NULL, NULL, TRUE, 0, NULL, NULL, &si, &pi);
    DWORD err = GetLastError();
    free(line);
    if (!ok) {
        say_cannot_run(command[0], err);
        return -1;
    }
    c->process = pi.hProcess;
    c->thread = pi.hThread;
    c->pid = (int)pi.dwProcessId;
    child = pi.hProcess;
    return 0;
}

/* A COMMAND that cannot be started exits 4, as on Linux, where the exec fails in the child. */
int launch_child_start(launch_child_t *c, const launch_opts_t *o, const launch_port_t *port,
                       clra_status_t *st)
{
    memset(c, 0, sizeof *c);
    if (prepare_env(o, port->name) != 0) {
        snprintf(st->detail, sizeof st->detail, "cannot set COMMAND's environment (not UTF-8?)");
        return EXIT_USAGE;
    }
    c->command = o->command[0];
    SetConsoleCtrlHandler(on_console, TRUE);
    if (create_process(c, o->command, o->json) == 0)
        return 0;
    snprintf(st->detail, sizeof st->detail, "cannot run '%s' (the reason is on stderr)",
             o->command[0]);
    return EXIT_NOTDOTNET;
}

int launch_child_wait(launch_child_t *c, int block)
{
    if (c->ended)
        return 1;
    if (WaitForSingleObject(c->process, block ? INFINITE : 0) != WAIT_OBJECT_0)
        return 0;
    DWORD code = 0;
    GetExitCodeProcess(c->process, &code);
    c->code = code;
    c->ended = 1;
    return 1;
}

int launch_child_interrupted(void)
{
    return interrupted != 0;
}

void launch_child_resumed(void)
{
    InterlockedExchange(&resumed, 1);
}

/* Never left paused: nothing of it has run yet. */
void launch_child_stop(launch_child_t *c, int interrupted_)
{
    if (!c->process || launch_child_wait(c, 0) == 1)
        return;
    TerminateProcess(c->process, interrupted_ ? EXIT_INTERRUPTED : 1);
    WaitForSingleObject(c->process, 5000);
    fprintf(stderr, "clrattach launch: stopped %s (process %lu) before it ran any managed "
            "code\n", c->command, (unsigned long)c->pid);
}

int launch_child_exit_code(const launch_child_t *c)
{
    return (int)c->code;
}

/* Windows exit codes say nothing of signals. */
int launch_child_signal(const launch_child_t *c, const char **name)
{
    (void)c;
    *name = NULL;
    return 0;
}

/* An NTSTATUS exit code (0xC0000000 and up) is a crash, not "not .NET". Ctrl-C while paused is
 * the user's own stop: 130, as a shell says, under the code heap gives an interrupt. */
int launch_child_explain(const launch_child_t *c, int rc, int connected, clra_status_t *st,
                         int *err)
{
    *err = rc == 2 ? CLRA_ETIMEDOUT : connected ? CLRA_ECONNLOST : CLRA_ENOTDOTNET;
    if (rc == 2)
        snprintf(st->detail, sizeof st->detail, "interrupted (Ctrl-C) %s %s",
                 connected ? "while paused:" : "before the runtime connected:", c->command);
    else if (connected)
        snprintf(st->detail, sizeof st->detail, "%s ended (code %lu) while its runtime was "
                 "paused on the launch pipe, before it was resumed", c->command, c->code);
    else if (c->code >= 0xC0000000u)
        snprintf(st->detail, sizeof st->detail, "%s crashed (exception 0x%08lX) before its "
                 "runtime connected to the launch pipe; run it without clrattach to see why",
                 c->command, c->code);
    else
        snprintf(st->detail, sizeof st->detail, "%s exited (code %lu) before its runtime "
                 "connected to the launch pipe: not a .NET program, or diagnostics disabled "
                 "(DOTNET_EnableDiagnostics=0)", c->command, c->code);
    return rc == 2 ? EXIT_INTERRUPTED : connected ? EXIT_CONNECTION : EXIT_NOTDOTNET;
}

/* The DLL among the process's modules is the only proof; by the command's monotonic clock
 * (the one every deadline of the CLI uses), since listing another process's modules takes a
 * while under wine. */
int launch_child_wait_loaded(launch_child_t *c, const char *path, int timeout_ms)
{
    long long end = mono__ms() + timeout_ms;
    for (;;) {
        if (clra_library_is_mapped(c->pid, path) == 1)
            return 1;
        if (WaitForSingleObject(c->process, 50) == WAIT_OBJECT_0)
            return -1; /* its modules cannot be read any more */
        if (mono__ms() >= end)
            return 0;
    }
}

void launch_child_release(launch_child_t *c)
{
    child = NULL;
    if (c->thread)
        CloseHandle(c->thread);
    if (c->process)
        CloseHandle(c->process);
    c->thread = c->process = NULL;
}

void launch_sleep_ms(int ms)
{
    Sleep((DWORD)ms);
}

/* No signals: Ctrl-C reaches COMMAND from the console itself. A plain thread. */
int launch_thread_start(pthread_t *t, void *(*fn)(void *), void *arg)
{
    return pthread_create(t, NULL, fn, arg);
}

int launch_status_killed(int status, char *text, size_t cap)
{
    (void)status, (void)text, (void)cap;
    return 0;
}

/* No signal is ever held; "holding" only keeps the launcher polling while a trace runs, so its
 * --duration and stopping event are seen (cmd_launch.c's wait_program). */
static volatile LONG holding;

void launch_signals_hold(int on)
{
    InterlockedExchange(&holding, on);
}

int launch_signals_holding(void)
{
    return holding != 0;
}

int launch_signal_held(void)
{
    return 0;
}

const char *launch_signal_name(void)
{
    return "";
}

void launch_signal_forward(launch_child_t *c)
{
    (void)c;
}

wchar_t *launch_win_wide(const char *s)
{
    int n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s, -1, NULL, 0);
    wchar_t *w = n > 0 ? malloc((size_t)n * sizeof *w) : NULL;
    if (w && MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s, -1, w, n) <= 0) {
        free(w);
        w = NULL;
    }
    return w;
}

/* Appends one argument, quoted when it must be: inside quotes, backslashes count only before a
 * quote (2n+1 of them make n and a literal quote) and before the closing quote (doubled). */
static wchar_t *append_arg(wchar_t *p, const wchar_t *arg)
{
    if (arg[0] && !wcspbrk(arg, L" \t\n\v\"")) {
        wcscpy(p, arg);
        return p + wcslen(arg);
    }
    *p++ = L'"';
    for (const wchar_t *s = arg;; s++) {
        size_t slashes = 0;
        while (*s == L'\\') {
            slashes++;
            s++;
        }
        size_t times = *s == L'"' || !*s ? slashes * 2 : slashes;
        for (size_t i = 0; i < times; i++)
            *p++ = L'\\';
        if (!*s)
            break;
        if (*s == L'"')
            *p++ = L'\\';
        *p++ = *s;
    }
    *p++ = L'"';
    return p;
}

wchar_t *launch_win_command_line(char *const *argv)
{
    size_t cap = 1;
    int n = 0;
    while (argv[n])
        n++;
    wchar_t **w = calloc((size_t)n + 1, sizeof *w);
    for (int i = 0; w && i < n; i++) {
        if (!(w[i] = launch_win_wide(argv[i]))) {
            while (i-- > 0)
                free(w[i]);
            free(w);
            return NULL;
        }
        cap += wcslen(w[i]) * 2 + 3; /* every character escaped, two quotes, a space */
    }
    wchar_t *line = w ? malloc(cap * sizeof *line) : NULL;
    wchar_t *p = line;
    for (int i = 0; line && i < n; i++) {
        if (i)
            *p++ = L' ';
        p = append_arg(p, w[i]);
    }
    if (p)
        *p = L'\0';
    for (int i = 0; w && i < n; i++)
        free(w[i]);
    free(w);
    return line;
}
