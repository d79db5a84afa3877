/* launch_platform.h - what `clrattach launch` does differently per platform, behind the one
 * option table (launch_args.c) and the one startup sequence (cmd_launch.c): the names and
 * texts (launch_platform_unix.c, launch_platform_win.c) and COMMAND's process, its port and
 * its signals (launch_spawn_unix.c, launch_spawn_win.c). docs/platforms.md has the rule. */
#ifndef CLRA_CLI_LAUNCH_PLATFORM_H
#define CLRA_CLI_LAUNCH_PLATFORM_H

#include "launch/launch.h"

/* What the launch port is called in messages: "port" (a Unix socket) or "pipe". */
extern const char launch_port_word[];
/* The verb's help: what it does and its closing text. */
extern const char launch_description[], launch_epilogue[];
/* What "nothing to do" asks for: the startup actions this platform has. */
extern const char launch_nothing_to_do[];
/* Whether two file names are the same (Windows ignores case). */
int launch_same_name(const char *a, const char *b);
/* COMMAND's file name without its directories (Windows has three separators). */
const char *launch_base_name(const char *command);
/* Whether base (a file name) is the dotnet host: "dotnet", or "dotnet.exe" on Windows. */
int launch_is_dotnet_host(const char *base);
/* Why the profiler at path cannot be read (a static or strerror text), NULL when it can. */
const char *launch_profiler_problem(const char *path);

/* The port COMMAND's runtime connects to: a socket in a private directory, or a named pipe. */
typedef struct launch_port {
    char dir[64];     /* Unix: the private directory (the sampler's last samples go there) */
    char listen[128]; /* what clra_reverse_server_listen takes */
    char name[128];   /* what DOTNET_DiagnosticPorts names */
} launch_port_t;
/* The failure's action and hint for cli_fail when the listen fails (hint NULL: none). */
extern const char launch_port_action[];
extern const char *const launch_port_hint;
/* Chooses (and on Unix creates the directory of) a fresh port; 0, or an exit code after
 * saying why. */
int launch_port_make(launch_port_t *p);
/* Removes what launch_port_make created. */
void launch_port_remove(launch_port_t *p);

/* COMMAND's process. Unix uses pid and status (a wait status); Windows pid (its process id),
 * code (its exit code) and the two handles. */
typedef struct launch_child {
    int pid;
    int status;
    unsigned long code;
    void *process, *thread;
    int ended; /* it ended and was reaped: status or code is set */
    const char *command; /* COMMAND's name, for messages */
} launch_child_t;

/* Starts COMMAND with port in DOTNET_DiagnosticPorts, o->data in CLRPROF_OPTIONS and the --env
 * settings, its signals (Unix) or console events (Windows) handled from here on; with --json
 * its stdout is our stderr, so our stdout holds JSON only. 0 started; > 0 an exit code after
 * saying why (st's detail says what failed); < 0 a CLRA_E* code with st's detail. */
int launch_child_start(launch_child_t *c, const launch_opts_t *o, const launch_port_t *port,
                       clra_status_t *st);
/* Waits for COMMAND to end (block) or looks (not block): 1 it ended (c->ended set), 0 not yet,
 * -1 the wait failed. */
int launch_child_wait(launch_child_t *c, int block);
/* Whether a Ctrl-C came while COMMAND had not been resumed (Windows; never on Unix). */
int launch_child_interrupted(void);
/* The runtime was resumed: from here COMMAND decides what Ctrl-C means (Windows). */
void launch_child_resumed(void);
/* Stops COMMAND before it ran managed code (interrupted: by Ctrl-C) and reaps it. */
void launch_child_stop(launch_child_t *c, int interrupted);
/* Why COMMAND ended before it was resumed (rc 1) or that launch was interrupted (rc 2),
 * connected: its runtime had connected: one sentence into st->detail and the CLRA_E* code that
 * names it into *err; returns launch's exit code. */
int launch_child_explain(const launch_child_t *c, int rc, int connected, clra_status_t *st,
                         int *err);
/* Whether the runtime mapped path within timeout_ms: 1, 0 not, -1 the program ended (or a
 * held signal wants out). */
int launch_child_wait_loaded(launch_child_t *c, const char *path, int timeout_ms);
/* COMMAND's exit code, shell style on Unix (128+N when killed by signal N). */
int launch_child_exit_code(const launch_child_t *c);
/* The signal that killed COMMAND and its name (Unix); 0 and NULL when none did. */
int launch_child_signal(const launch_child_t *c, const char **name);
/* Releases what launch_child_start kept (handles). */
void launch_child_release(launch_child_t *c);
/* Pauses the calling thread. */
void launch_sleep_ms(int ms);
/* Starts a helper thread (the trace's drain) that never takes the signals launch passes on to
 * COMMAND (Unix: they stay the main thread's); 0 or an errno. */
int launch_thread_start(pthread_t *t, void *(*fn)(void *), void *arg);
/* Whether a wait status says COMMAND was killed (Unix: by signal N): 1 with "signal N (NAME)"
 * in text, else 0 (always on Windows, whose exit codes say nothing of the kind). */
int launch_status_killed(int status, char *text, size_t cap);

/* Signals while a trace or a profile must end cleanly: hold the first one (on), whether one is
 * held, its name, and passing it on to COMMAND (hold ends). Windows has no signal to hold, but
 * "holding" still makes the launcher watch the trace's --duration and stopping event. */
void launch_signals_hold(int on);
int launch_signals_holding(void);
int launch_signal_held(void);
const char *launch_signal_name(void);
void launch_signal_forward(launch_child_t *c);

#endif
