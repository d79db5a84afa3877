/* clrattach.h - attach profilers to running .NET processes over the diagnostics IPC port.
 *
 * The whole public API of libclrattach. Conventions (libuv-like):
 *   - functions return 0 on success or a negative CLRA_E* code for a failure;
 *   - when the runtime itself answered with an error, the function returns CLRA_ERUNTIME and
 *     the runtime's HRESULT is in clra_status_t.hresult, so "could not reach the runtime" and
 *     "the runtime said no" are never confused;
 *   - no global state, every function is re-entrant, nothing is printed;
 *   - every operation that talks to a process takes a timeout in milliseconds that bounds the
 *     whole operation (discovery, connect, send, receive); a negative timeout means "wait forever".
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CLRATTACH_H
#define CLRATTACH_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define CLRA_EXTERN __declspec(dllexport)
#elif defined(__GNUC__)
#define CLRA_EXTERN __attribute__((visibility("default")))
#else
#define CLRA_EXTERN
#endif

#define CLRA_VERSION_MAJOR 0
#define CLRA_VERSION_MINOR 1
#define CLRA_VERSION_PATCH 0
#define CLRA_VERSION_HEX \
    ((CLRA_VERSION_MAJOR << 16) | (CLRA_VERSION_MINOR << 8) | CLRA_VERSION_PATCH)

/* Version of the library actually linked, as CLRA_VERSION_HEX and as "major.minor.patch". */
CLRA_EXTERN unsigned clra_version(void);
CLRA_EXTERN const char *clra_version_string(void);

/* Local failure codes. XX(name, message). Values are stable. */
#define CLRA_ERRNO_MAP(XX)                                                                     \
    XX(EINVAL, -1, "invalid argument")                                                         \
    XX(ENOPROC, -2, "no such process")                                                         \
    XX(ENOENDPOINT, -3, "no diagnostics endpoint for the process (not .NET, or diagnostics "  \
                        "disabled)")                                                           \
    XX(EACCES, -4, "permission denied")                                                        \
    XX(ETIMEDOUT, -5, "timed out")                                                             \
    XX(ECONNREFUSED, -6, "connection refused (stale diagnostics socket?)")                     \
    XX(ECONNLOST, -7, "connection closed before the reply was complete")                       \
    XX(EPROTO, -8, "malformed reply from the diagnostics server")                              \
    XX(ENOMEM, -9, "out of memory")                                                            \
    XX(ETOOBIG, -10, "request larger than the protocol's 65535-byte message limit")            \
    XX(EIO, -11, "input/output error")                                                         \
    XX(ERUNTIME, -12, "the runtime refused the request (see the HRESULT)")                     \
    XX(EENCODING, -13, "text is not valid UTF-8")                                             \
    XX(ENOTDOTNET, -14, "the process is not a .NET process")                                 \
    XX(EUNSAFE, -15, "refused a socket that is not safely the target's (see the detail)")

typedef enum {
#define CLRA__ERRNO_ENUM(name, value, msg) CLRA_##name = (value),
    CLRA_ERRNO_MAP(CLRA__ERRNO_ENUM)
#undef CLRA__ERRNO_ENUM
} clra_errno_t;

/* Message for a CLRA_E* code (or "unknown error"); never NULL. */
CLRA_EXTERN const char *clra_strerror(int err);
/* "CLRA_ETIMEDOUT" etc. for a CLRA_E* code (or "CLRA_EUNKNOWN"); never NULL. */
CLRA_EXTERN const char *clra_err_name(int err);

/* What a failed (or successful) operation learnt: the runtime's HRESULT when it answered, the
 * errno behind a local failure, and one line of detail naming what was tried (paths, owners). */
typedef struct clra_status {
    int32_t hresult;  /* the runtime's answer; 0 (S_OK) when it accepted or never answered */
    int sys_errno;    /* errno behind a local failure, 0 if none */
    char detail[512]; /* NUL-terminated; empty when there is nothing to add */
} clra_status_t;

/* ------------------------------------------------------------------------------------------ */
/* GUIDs                                                                                       */

/* A GUID/CLSID in the Windows memory layout that the runtime copies raw from the wire. */
typedef struct clra_guid {
    uint32_t data1;
    uint16_t data2;
    uint16_t data3;
    uint8_t data4[8];
} clra_guid_t;

/* Parses "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", with or without braces. 0 or CLRA_EINVAL. */
CLRA_EXTERN int clra_guid_parse(const char *text, clra_guid_t *out);
/* Writes the canonical upper-case form without braces (37 bytes with the NUL). */
CLRA_EXTERN void clra_guid_format(const clra_guid_t *guid, char out[37]);

/* ------------------------------------------------------------------------------------------ */
/* HRESULTs                                                                                    */

/* What an HRESULT means to someone attaching a profiler. */
typedef struct clra_hresult_info {
    int32_t value;
    const char *name;    /* "CORPROF_E_PROFILER_ALREADY_ACTIVE" */
    const char *meaning; /* one line: what happened */
    const char *hint;    /* one line: what to do about it */
} clra_hresult_info_t;

/* The table entry for hr, or NULL when the code is not one attach can produce. */
CLRA_EXTERN const clra_hresult_info_t *clra_hresult_lookup(int32_t hr);
/* Symbolic name of hr, or "UNKNOWN_HRESULT"; never NULL. */
CLRA_EXTERN const char *clra_hresult_name(int32_t hr);
/* One-line meaning of hr (a generic sentence for unknown codes); never NULL. */
CLRA_EXTERN const char *clra_hresult_describe(int32_t hr);
/* One-line advice for hr (a generic sentence for unknown codes); never NULL. */
CLRA_EXTERN const char *clra_hresult_hint(int32_t hr);

/* ------------------------------------------------------------------------------------------ */
/* Endpoints                                                                                   */

#define CLRA_PATH_MAX 4096

/* Where a process's diagnostics server listens, as reachable from this process. */
typedef struct clra_endpoint {
    int pid;                  /* pid as this process sees it (0 when built from a path) */
    int ns_pid;               /* pid inside the target's own PID namespace */
    char path[CLRA_PATH_MAX]; /* socket path, through /proc/PID/root when namespaces differ */
    int reverse_fd;           /* with an empty path: a connection the runtime made to our
                                 reverse server, used (and closed) by exactly one command */
} clra_endpoint_t;

/* Finds pid's diagnostics socket: the target's TMPDIR (from /proc/PID/environ when readable),
 * our own TMPDIR and /tmp; the pid as the target sees it (NSpid); /proc/PID/root when its mount
 * namespace differs; the exact start-time key first, else the newest match. Fails with
 * CLRA_ENOPROC, CLRA_ENOENDPOINT or CLRA_EACCES; st->detail lists the places searched. */
CLRA_EXTERN int clra_endpoint_find(int pid, clra_endpoint_t *ep, clra_status_t *st);
/* An endpoint for an explicit socket path (a reverse port, a test server). */
CLRA_EXTERN int clra_endpoint_from_path(const char *path, clra_endpoint_t *ep);

/* ------------------------------------------------------------------------------------------ */
/* Profiler attach                                                                             */

/* Largest client data that fits one message next to a one-character path. */
#define CLRA_MAX_CLIENT_DATA (65535 - 20 - 4 - 16 - 4 - 4 - 4)
/* attach_timeout_ms value meaning "wait as long as it takes" (INFINITE on the runtime side). */
#define CLRA_ATTACH_TIMEOUT_INFINITE 0xFFFFFFFFu

/* Asks the runtime in process pid to load the profiler at profiler_path (UTF-8, as the target
 * sees it, i.e. inside its mount namespace) with class clsid, handing it client_data in
 * ICorProfilerCallback3::InitializeForAttach. attach_timeout_ms travels on the wire in
 * milliseconds (the runtime uses it to bound its wait for a background GC). timeout_ms bounds
 * this whole call. Returns 0 once the profiler's InitializeForAttach and ProfilerAttachComplete
 * have run, CLRA_ERUNTIME with st->hresult when the runtime refused, or another CLRA_E* code.
 * When the target lives in another mount namespace (a container) and profiler_path does not
 * exist inside it, nothing is sent: CLRA_EINVAL with st->sys_errno ENOENT and st->detail
 * saying so (see Staging). */
CLRA_EXTERN int clra_attach_profiler(int pid, const clra_guid_t *clsid, const char *profiler_path,
                                     const void *client_data, size_t client_data_len,
                                     uint32_t attach_timeout_ms, int timeout_ms,
                                     clra_status_t *st);
/* The same against an endpoint already found (or built from a path). */
CLRA_EXTERN int clra_attach_profiler_at(const clra_endpoint_t *ep, const clra_guid_t *clsid,
                                        const char *profiler_path, const void *client_data,
                                        size_t client_data_len, uint32_t attach_timeout_ms,
                                        int timeout_ms, clra_status_t *st);

/* Registers a profiler to load at startup (StartupProfiler, .NET 6+). Only valid while the
 * runtime is paused at startup: it loads with ICorProfilerCallback::Initialize (every event
 * allowed) once the runtime resumes. There is no client data: pass settings through the
 * environment (clra_set_environment). A running runtime answers E_INVALIDARG. */
CLRA_EXTERN int clra_startup_profiler(const clra_endpoint_t *ep, const clra_guid_t *clsid,
                                      const char *profiler_path, int timeout_ms,
                                      clra_status_t *st);

/* ---- Profilers built on libclrprof, reached through their owner-only control endpoint ---- */

/* One SDK profiler loaded in a process. */
typedef struct clra_profiler_ref {
    int pid;
    char clsid[37];           /* lowercase, without braces */
    char path[CLRA_PATH_MAX]; /* its control socket, as seen from this process */
} clra_profiler_ref_t;

/* Finds the SDK profilers loaded in pid (their sockets sit beside the diagnostics socket).
 * Fills up to max entries and returns how many exist, or a negative CLRA_E* code. */
CLRA_EXTERN int clra_profilers_find(int pid, clra_profiler_ref_t *out, int max, clra_status_t *st);

typedef struct clra_detach_result {
    int32_t hresult;         /* RequestProfilerDetach's answer */
    uint32_t expected_ms;    /* the expected-completion time the profiler passed */
    uint64_t library_inode;  /* the profiler's .so, watched in /proc/PID/maps */
    int elapsed_ms;          /* from the request until the library was unmapped */
    char name[64];           /* the profiler's name */
    char message[256];       /* the profiler's explanation of hresult */
} clra_detach_result_t;

/* Asks the profiler to detach, then waits until the runtime has unloaded it (its library gone
 * from /proc/PID/maps), all within timeout_ms. 0 when unloaded; CLRA_ERUNTIME when the runtime
 * refused (res->hresult says why); CLRA_ETIMEDOUT when requested but still mapped. */
CLRA_EXTERN int clra_profiler_detach(const clra_profiler_ref_t *ref, int timeout_ms,
                                     clra_detach_result_t *res, clra_status_t *st);
/* Connects as the profiler's holder: it detaches when the returned descriptor is closed (or this
 * process dies). Returns 0 and *fd, or a negative CLRA_E* code. */
CLRA_EXTERN int clra_profiler_hold(const clra_profiler_ref_t *ref, int timeout_ms, int *fd,
                                   uint64_t *library_inode, clra_status_t *st);
/* Asks the profiler for its one-line status ("ok name=... notification_only=0|1 ..."). */
CLRA_EXTERN int clra_profiler_status(const clra_profiler_ref_t *ref, int timeout_ms, char *reply,
                                     size_t cap, clra_status_t *st);
/* Waits until no mapping of pid has this inode. 0, CLRA_ETIMEDOUT, or CLRA_ENOPROC (it exited). */
CLRA_EXTERN int clra_wait_unmapped(int pid, uint64_t inode, int timeout_ms, clra_status_t *st);

/* ------------------------------------------------------------------------------------------ */
/* Reverse connections (DOTNET_DiagnosticPorts=PATH,connect[,suspend])                         */

/* A socket we listen on; runtimes told to connect there advertise themselves, and each
 * advertised connection carries one command, after which the runtime connects again. */
typedef struct clra_reverse_server clra_reverse_server_t;

/* What a runtime says when it connects: its instance cookie (the same as ProcessInfo's) and its
 * pid inside its own namespace. */
typedef struct clra_advertise {
    clra_guid_t cookie;
    uint64_t pid;
} clra_advertise_t;

/* Creates the socket at path (mode 0600; an existing file is an error, never replaced) and
 * listens. */
CLRA_EXTERN int clra_reverse_listen(const char *path, clra_reverse_server_t **out,
                                    clra_status_t *st);
/* Accepts connections until one from the runtime with this cookie (any runtime when cookie is
 * NULL) is held and alive, within timeout_ms. Reads each advertise under a 1 s bound, rejects
 * bad magic, and keeps only the latest connection per cookie. */
CLRA_EXTERN int clra_reverse_wait(clra_reverse_server_t *s, const clra_guid_t *cookie,
                                  int timeout_ms, clra_advertise_t *ad, clra_status_t *st);
/* Hands the held connection for cookie to *ep for one command (it leaves the server). Call
 * clra_reverse_wait first; CLRA_ENOENDPOINT when none is held. */
CLRA_EXTERN int clra_reverse_endpoint(clra_reverse_server_t *s, const clra_guid_t *cookie,
                                      clra_endpoint_t *ep);
/* Closes every held connection and the listener, and removes the socket file. */
CLRA_EXTERN void clra_reverse_close(clra_reverse_server_t *s);

/* ------------------------------------------------------------------------------------------ */
/* Process information, environment and control                                               */
/* (ProcessInfo 1-3, ProcessEnvironment, SetEnvironmentVariable, ResumeRuntime)               */

/* ProcessInfo */

/* What the runtime says about its process (ProcessInfo3, else 2, else 1). A string is NULL
 * when the runtime sent the absent string or the command that answered has no such field. */
typedef struct clra_process_info {
    int command;             /* which command answered: 3, 2 or 1 (ProcessInfo3/2/1) */
    uint32_t version;        /* ProcessInfo3's payload version; 0 for the older commands */
    uint64_t pid;            /* the pid as the target sees it (inside its PID namespace) */
    clra_guid_t cookie;      /* the runtime instance cookie (same as in reverse-port adverts) */
    char *command_line;      /* the executable path and arguments, UTF-8 */
    char *os;                /* "Linux", "Windows", "macOS", ... */
    char *arch;              /* "x64", "arm64", ... */
    char *entry_assembly;    /* ProcessInfo2+: the entry assembly's simple name */
    char *clr_version;       /* ProcessInfo2+: the runtime's informational version */
    char *rid;               /* ProcessInfo3 version >= 1: the portable RID, e.g. linux-x64 */
} clra_process_info_t;

/* Asks the runtime at ep who it is: ProcessInfo3, falling back to ProcessInfo2 and then
 * ProcessInfo only when the runtime does not know the newer command (0x80131385); any other
 * refusal is returned as CLRA_ERUNTIME. timeout_ms bounds all attempts together. On success
 * release out with clra_process_info_free; on failure out holds nothing to free. */
CLRA_EXTERN int clra_process_info(const clra_endpoint_t *ep, int timeout_ms,
                                  clra_process_info_t *out, clra_status_t *st);
CLRA_EXTERN void clra_process_info_free(clra_process_info_t *info);

/* ProcessEnvironment, SetEnvironmentVariable, ResumeRuntime */

/* Largest environment block accepted from a runtime (the wire allows 4 GiB; no real process
 * comes near this, and a lying length must not make us allocate it). */
#define CLRA_MAX_ENVIRONMENT_BYTES (64u << 20)

/* One variable, split at the first '=' that is not the first character, so Windows' hidden
 * "=C:=C:\dir" entries keep their name. value is "" when the entry has no '='. */
typedef struct clra_env_var {
    char *name;
    char *value;
} clra_env_var_t;

typedef struct clra_environment {
    clra_env_var_t *vars; /* in the order the runtime sent them */
    size_t count;
} clra_environment_t;

/* Reads the target's environment as the runtime sees it now (including changes made by the
 * app or by clra_set_environment). Release with clra_environment_free. */
CLRA_EXTERN int clra_process_environment(const clra_endpoint_t *ep, int timeout_ms,
                                         clra_environment_t *out, clra_status_t *st);
CLRA_EXTERN void clra_environment_free(clra_environment_t *env);

/* Sets name=value in the target (value NULL removes the variable). The name must be non-empty
 * and contain no '='. The runtime answers with a Win32-style HRESULT on failure. */
CLRA_EXTERN int clra_set_environment(const clra_endpoint_t *ep, const char *name,
                                     const char *value, int timeout_ms, clra_status_t *st);

/* Lets a runtime paused at startup (DOTNET_DefaultDiagnosticPortSuspend=1 or a suspending
 * diagnostic port) continue. The runtime answers OK whether or not it was paused. */
CLRA_EXTERN int clra_resume_runtime(const clra_endpoint_t *ep, int timeout_ms, clra_status_t *st);

/* ------------------------------------------------------------------------------------------ */
/* Perf maps and startup hooks                                                                 */
/* (EnablePerfMap, DisablePerfMap, ApplyStartupHook)                                           */

/* EnablePerfMap, DisablePerfMap */

/* What EnablePerfMap writes (in DOTNET_PerfMapJitDumpPath, else /tmp; .NET 10 ignores TMPDIR):
 * perf-PID.map for perf's symbol lookup, jit-PID.dump for perf inject (no perfinfo-PID.map when
 * enabled this way on .NET 10). */
typedef enum {
    CLRA_PERFMAP_ALL = 1,     /* perf map and jitdump */
    CLRA_PERFMAP_JITDUMP = 2, /* jit-PID.dump only */
    CLRA_PERFMAP_PERFMAP = 3, /* perf-PID.map only */
} clra_perfmap_type_t;

/* Starts writing perf maps for code jitted from now on (.NET 8+). */
CLRA_EXTERN int clra_perfmap_enable(const clra_endpoint_t *ep, clra_perfmap_type_t type,
                                    int timeout_ms, clra_status_t *st);
/* Stops writing them; the files stay. */
CLRA_EXTERN int clra_perfmap_disable(const clra_endpoint_t *ep, int timeout_ms, clra_status_t *st);
/* Asks the runtime in process pid (.NET 8 or later) to load the managed assembly at
 * assembly_path (UTF-8, absolute, as the target sees it: inside its mount namespace) and call
 * its StartupHook.Initialize(). The runtime runs the hook before it replies, so this returns
 * once Initialize has returned. Beware: on .NET 10 a hook that cannot be loaded, lacks the
 * method or throws is an unhandled exception that ends the target, with no reply. So the file
 * is first checked with clra_startup_hook_check (through /proc/PID/root when namespaces
 * differ); a failed check is CLRA_EINVAL or CLRA_EACCES and nothing is sent. 0 when the hook
 * ran, CLRA_ERUNTIME with st->hresult when the runtime refused, CLRA_ECONNLOST when the
 * target closed the connection (typically: the hook threw and the process is ending). */
CLRA_EXTERN int clra_apply_startup_hook(int pid, const char *assembly_path, int timeout_ms,
                                        clra_status_t *st);
/* The same against an endpoint; the file is checked only when ep->pid is known. */
CLRA_EXTERN int clra_apply_startup_hook_at(const clra_endpoint_t *ep, const char *assembly_path,
                                           int timeout_ms, clra_status_t *st);
/* Whether the file at local_path (as seen from here) can serve as a startup hook: a managed
 * assembly defining a class StartupHook outside any namespace with a static, parameterless
 * void Initialize(). 0; CLRA_EINVAL (missing, not an assembly, no such method) or CLRA_EACCES,
 * with st->detail saying which. It cannot see whether Initialize will throw, nor whether the
 * hook targets a newer .NET than the process runs. */
CLRA_EXTERN int clra_startup_hook_check(const char *local_path, clra_status_t *st);

/* ------------------------------------------------------------------------------------------ */
/* Dumps                                                                                       */
/* (GenerateCoreDump 1-3)                                                                      */

/* What the target's createdump writes (docs/protocol.md 3.1). */
typedef enum clra_dump_type {
    CLRA_DUMP_NORMAL = 1, /* a minidump: stacks, modules, the runtime's own data */
    CLRA_DUMP_HEAP = 2,   /* normal plus the managed heap: what most analyses need */
    CLRA_DUMP_TRIAGE = 3, /* small and with personal data stripped, for sharing */
    CLRA_DUMP_FULL = 4,   /* every mapping of the process: as big as its memory */
} clra_dump_type_t;

/* Dump flags; GenerateCoreDump (1), for runtimes before .NET 6, can carry only the first. */
#define CLRA_DUMP_LOGGING 0x1u      /* createdump logs its progress on the target's stdout */
#define CLRA_DUMP_VERBOSE 0x2u      /* ... in detail */
#define CLRA_DUMP_CRASH_REPORT 0x4u /* also write PATH.crashreport.json */

/* What a dump request did. */
typedef struct clra_dump_result {
    int command;         /* the GenerateCoreDump version the runtime answered: 3, 2 or 1 */
    uint32_t flags_sent; /* the flags that version carried (a subset of those asked for) */
    int other_mount_ns;  /* 1 when the target resolved the path in another mount namespace */
    int verified;        /* 1 when the file was seen after the runtime's OK */
    long long size;      /* the file's size in bytes, -1 when not verified */
    char local_path[CLRA_PATH_MAX]; /* the dump as reachable from here (via /proc/PID/root) */
    char message[1024];  /* createdump's own error text (GenerateCoreDump3), "" when none */
} clra_dump_result_t;

/* Asks the runtime in process pid to write a core dump to path, an absolute path as the target
 * sees it (createdump runs as the target's user, inside its mount namespace). Tries
 * GenerateCoreDump3, then 2, then 1 while the runtime answers "unknown command". Blocks until
 * createdump has finished, so give dumps a generous timeout_ms (seconds to minutes); a timeout
 * does not stop a dump in progress. Because some runtimes answered OK after a failed dump, the
 * answer is trusted only when the file exists afterwards (and changed, if it existed before):
 * otherwise CLRA_EIO. CLRA_ERUNTIME with st->hresult and res->message when the runtime refused.
 * Unknown flags, a type outside 1..4 and a relative path are CLRA_EINVAL. */
CLRA_EXTERN int clra_dump(int pid, const char *path, clra_dump_type_t type, uint32_t flags,
                          int timeout_ms, clra_dump_result_t *res, clra_status_t *st);
/* The same against an endpoint; with ep->pid 0 the file is looked for in our own namespace. */
CLRA_EXTERN int clra_dump_at(const clra_endpoint_t *ep, const char *path, clra_dump_type_t type,
                             uint32_t flags, int timeout_ms, clra_dump_result_t *res,
                             clra_status_t *st);

/* Maps target_path (absolute, as process pid sees it) to a path reachable from this process:
 * unchanged when pid shares our mount namespace and root, else through /proc/PID/root, and
 * says which in *other_ns. 0, CLRA_ENOPROC, or CLRA_EINVAL (relative path, or out too small).
 * Used to check files the target is asked to read or write (dumps, startup hooks, profilers). */
CLRA_EXTERN int clra_target_path(int pid, const char *target_path, char *out, size_t cap,
                                 int *other_ns);

/* ------------------------------------------------------------------------------------------ */
/* Staging                                                                                     */
/* (a profiler library copied into the target's file tree, for targets in containers)         */

/* The runtime opens a profiler path inside its own mount namespace, so a library that exists
 * only on the host cannot be attached to a containerised process by path. Staging copies it
 * into the target's temp directory (its TMPDIR, else /tmp), reached through /proc/PID/root:
 *   <tmp>/clrattach-stage-<ns_pid>-XXXXXX/   mode 0700, a fresh private directory
 *   <tmp>/clrattach-stage-<ns_pid>-XXXXXX/<basename of the library>   mode 0500
 * both owned by the target's user (as root, they are created with its file-system ids).
 * Attach with target_path. A copy the runtime has mapped must stay until the profiler has
 * detached; clra_stage_sweep removes every stage directory of the process whose library is no
 * longer mapped, so copies left behind by a profiler that detached by itself (or by a killed
 * trigger) do not pile up. clra_stage sweeps first. */
typedef struct clra_stage {
    int pid;                         /* the target, as this process sees it */
    char target_path[CLRA_PATH_MAX]; /* the copy as the target sees it: pass this to attach */
    char local_path[CLRA_PATH_MAX];  /* the same file as reachable from here */
    /* private: the directory, held and locked against sweeps until released or unstaged */
    int dir_fd, parent_fd;
    char dir_name[48];
    char file_name[256];
} clra_stage_t;

/* Copies the regular file library_path (as seen from here) into pid's file tree as above.
 * 0 with s filled (release it with clra_stage_release or clra_unstage); CLRA_EINVAL (not a
 * regular file, no such file), CLRA_EACCES, CLRA_ENOPROC or CLRA_EIO (e.g. the target's disk is
 * full) with st->detail naming the path that failed; nothing is left behind on failure. */
CLRA_EXTERN int clra_stage(int pid, const char *library_path, clra_stage_t *s,
                           clra_status_t *st);
/* Keeps the copy (the runtime has it mapped now) and lets later sweeps judge it. */
CLRA_EXTERN void clra_stage_release(clra_stage_t *s);
/* Removes the copy and its directory (after a failed attach) and releases s. */
CLRA_EXTERN int clra_unstage(clra_stage_t *s, clra_status_t *st);
/* Removes pid's stage directories whose library is no longer mapped in it (skipping those a
 * clra_stage in progress holds). 0 with *removed (may be NULL) counting them, or the failure
 * to reach the process's file tree or its maps. */
CLRA_EXTERN int clra_stage_sweep(int pid, int *removed, clra_status_t *st);

/* ------------------------------------------------------------------------------------------ */
/* EventPipe traces                                                                            */
/* (CollectTracing 1-5, StopTracing, the nettrace stream)                                      */

/* A trace is configured (providers, buffer, rundown, stacks), started with CollectTracing,
 * which answers with a session id and then streams NetTrace bytes on the same connection,
 * pumped into a caller's sink, and stopped with StopTracing on a second connection while the
 * stream is still drained (the runtime writes rundown during the stop and would block on a
 * full socket). A cleanly stopped stream ends with an end marker; clra_nettrace_check says
 * whether a file or buffer has it. */

#define CLRA_TRACE_MAX_PROVIDERS 1000         /* the runtime rejects more (BAD_ENCODING) */
#define CLRA_TRACE_LEVEL_MAX 5                /* LogAlways 0 .. Verbose 5 */
#define CLRA_TRACE_DEFAULT_BUFFER_MB 256      /* the runtime's circular buffer per session */
#define CLRA_TRACE_RUNDOWN_DEFAULT 0x80020139ull /* the keyword "rundown on" means */
#define CLRA_TRACE_ALL_KEYWORDS 0xFFFFFFFFFFFFFFFFull

/* One provider to enable. Strings are UTF-8 and owned by the configuration. */
typedef struct clra_trace_provider {
    char *name;        /* non-empty */
    uint64_t keywords; /* match-any keyword mask */
    uint32_t level;    /* 0 LogAlways, 1 Critical, 2 Error, 3 Warning, 4 Informational, 5 Verbose */
    char *arguments;   /* "key=value;key2=value2" handed to the provider, or NULL */
} clra_trace_provider_t;

/* What to trace. Initialise with clra_trace_config_init, add providers with
 * clra_trace_config_add_provider or clra_trace_config_parse_providers, release with
 * clra_trace_config_free; the scalar fields may be set directly. */
typedef struct clra_trace_config {
    clra_trace_provider_t *providers;
    size_t provider_count;
    size_t provider_cap;
    uint32_t buffer_mb;       /* > 0; CLRA_TRACE_DEFAULT_BUFFER_MB after init */
    uint64_t rundown_keyword; /* 0 = no rundown; CLRA_TRACE_RUNDOWN_DEFAULT after init */
    int stackwalk;            /* collect a stack with each event; 1 after init */
} clra_trace_config_t;

CLRA_EXTERN void clra_trace_config_init(clra_trace_config_t *cfg);
CLRA_EXTERN void clra_trace_config_free(clra_trace_config_t *cfg);
/* Copies one provider in. CLRA_EINVAL (detail says why) for an empty name, a level above 5 or
 * more than CLRA_TRACE_MAX_PROVIDERS providers; CLRA_EENCODING for text that is not UTF-8. */
CLRA_EXTERN int clra_trace_config_add_provider(clra_trace_config_t *cfg, const char *name,
                                               uint64_t keywords, uint32_t level,
                                               const char *arguments, clra_status_t *st);
/* Adds the providers of a dotnet-trace style list: comma-separated
 * Name[:Keywords[:Level[:Arguments]]] where Keywords is hex (0x optional; empty = 0, which
 * EventSources read as "every keyword"; "*" = all 64 bits), Level is 0-5 or Critical, Error,
 * Warning, Informational, Verbose, LogAlways (any case; empty = Informational) and Arguments is
 * key=value;key2=value2 with double quotes around values holding ';', '=' or ','. On a bad
 * spec returns CLRA_EINVAL with st->detail naming the provider and the bad part, and adds
 * nothing. */
CLRA_EXTERN int clra_trace_config_parse_providers(clra_trace_config_t *cfg, const char *spec,
                                                  clra_status_t *st);
/* The CollectTracing version (1-4) a configuration needs: the oldest that expresses it. */
CLRA_EXTERN int clra_trace_command_version(const clra_trace_config_t *cfg);
/* The oldest runtime that understands CollectTracing version v, e.g. ".NET 9". */
CLRA_EXTERN const char *clra_trace_command_runtime(int version);

/* A running session. fd carries the NetTrace stream; nothing else is allocated. */
typedef struct clra_trace_session {
    uint64_t id;         /* the runtime's session id (opaque; never 0) */
    int fd;              /* the stream connection; -1 once closed */
    int command_version; /* the CollectTracing version that started it */
    int eof;             /* the stream has ended (stopped, or the target went away) */
    uint64_t bytes;      /* stream bytes delivered to sinks so far */
} clra_trace_session_t;

/* Receives stream bytes in order; returns 0 to continue, non-zero to fail the call. */
typedef int (*clra_trace_sink_fn)(void *ctx, const void *data, size_t len);

/* Starts a session in pid (or at ep, or over an already-connected diagnostics connection fd,
 * e.g. a reverse-port connection; on success the session owns fd, on failure the caller still
 * does). CLRA_ERUNTIME with st->hresult when the runtime refused; for UNKNOWN_COMMAND the
 * detail names the runtime version the requested options need. */
CLRA_EXTERN int clra_trace_start(int pid, const clra_trace_config_t *cfg, int timeout_ms,
                                 clra_trace_session_t *s, clra_status_t *st);
CLRA_EXTERN int clra_trace_start_at(const clra_endpoint_t *ep, const clra_trace_config_t *cfg,
                                    int timeout_ms, clra_trace_session_t *s, clra_status_t *st);
CLRA_EXTERN int clra_trace_start_on(int fd, const clra_trace_config_t *cfg, int timeout_ms,
                                    clra_trace_session_t *s, clra_status_t *st);
/* Delivers the stream bytes that arrive within wait_ms (up to about 1 MiB per call) to sink.
 * 0 with s->eof set when the stream has ended; CLRA_EIO when sink failed. */
CLRA_EXTERN int clra_trace_pump(clra_trace_session_t *s, clra_trace_sink_fn sink, void *ctx,
                                int wait_ms, clra_status_t *st);
/* Sends StopTracing on a second connection to ep while draining the stream into sink, then
 * reads the stream to its end; timeout_ms bounds it all (rundown can take seconds). 0 when the
 * runtime confirmed the stop and the stream ended. */
CLRA_EXTERN int clra_trace_stop(clra_trace_session_t *s, const clra_endpoint_t *ep,
                                clra_trace_sink_fn sink, void *ctx, int timeout_ms,
                                clra_status_t *st);
/* The same with a diagnostics connection the caller opened (it is closed here). */
CLRA_EXTERN int clra_trace_stop_on(clra_trace_session_t *s, int stop_fd, clra_trace_sink_fn sink,
                                   void *ctx, int timeout_ms, clra_status_t *st);
/* Closes the stream; a runtime still streaming ends the session (without rundown). */
CLRA_EXTERN void clra_trace_session_close(clra_trace_session_t *s);

/* What a NetTrace file or buffer holds. */
typedef enum {
    CLRA_NETTRACE_VALID = 0,      /* header, whole objects, end marker, nothing after it */
    CLRA_NETTRACE_INCOMPLETE = 1, /* a good beginning that stops early: no end marker */
    CLRA_NETTRACE_INVALID = 2,    /* not NetTrace V4/V5, or broken structure */
} clra_nettrace_state_t;

typedef struct clra_nettrace_info {
    clra_nettrace_state_t state;
    int32_t version;            /* the Trace object's version (offset 35), 0 if unread */
    int32_t min_reader_version; /* the oldest reader version that can read it */
    uint64_t size;              /* bytes examined */
    uint64_t end_offset;        /* where the walk stopped (size when valid) */
    uint32_t event_blocks, metadata_blocks, stack_blocks, sequence_points, other_objects;
    char problem[160];          /* what is wrong; empty when valid */
} clra_nettrace_info_t;

/* Walks the object structure (skipping block contents, so gigabyte files are cheap): the
 * "Nettrace" + "!FastSerialization.1" header, the Trace object, each block, and the final
 * NullReference (01) end marker. 0 with info filled, or CLRA_EINVAL / CLRA_EIO (file). */
CLRA_EXTERN int clra_nettrace_check(const void *data, size_t len, clra_nettrace_info_t *info);
CLRA_EXTERN int clra_nettrace_check_file(const char *path, clra_nettrace_info_t *info,
                                         clra_status_t *st);

/* ------------------------------------------------------------------------------------------ */
/* Process discovery                                                                           */
/* (every .NET process this user can see, across TMPDIRs and namespaces)                       */

/* One .NET process found by clra_process_list. */
typedef struct clra_process_entry {
    int pid;                  /* as this process sees it */
    int ns_pid;               /* inside its own PID namespace (NSpid); == pid when shared */
    int other_mount_ns;       /* its mount namespace differs (socket reached via /proc/PID/root) */
    uint32_t uid;             /* its owner (real uid) */
    char user[64];            /* the owner's name, or the uid in decimal when it has none */
    char *command_line;       /* from the runtime when reachable, else /proc/PID/cmdline */
    char *endpoint;           /* its diagnostics socket as seen from here, NULL if none found */
    int reach;                /* 0 when ProcessInfo answered, else the CLRA_E* code why not */
    int32_t hresult;          /* the runtime's refusal when reach == CLRA_ERUNTIME */
    char reason[512];         /* one line: why it could not be reached ("" when it could) */
    clra_process_info_t info; /* the runtime's answer when reach == 0 (all NULL otherwise) */
} clra_process_entry_t;

/* Every .NET process this user can see, and what was passed over. */
typedef struct clra_process_list {
    clra_process_entry_t *entries; /* by ascending pid */
    size_t count;
    int unreadable;           /* processes whose /proc entries we may not read (another user's,
                               * another mount namespace): they may be .NET, we cannot tell */
    char **stale;             /* socket files in the searched directories that belong to no
                               * process listed here (their process exited, or is unreadable) */
    size_t stale_count;
} clra_process_list_t;

/* Scans /proc for .NET processes: those with a diagnostics socket (in their own TMPDIR, ours,
 * /tmp, or under /proc/PID/root in another mount namespace) and those mapping libcoreclr.so
 * without one. Each reachable one is asked ProcessInfo within probe_timeout_ms; timeout_ms
 * bounds the whole scan (processes left when it passes are listed as CLRA_ETIMEDOUT, not
 * asked). Stale sockets and kernel threads are never listed. Release with
 * clra_process_list_free. */
CLRA_EXTERN int clra_process_list(int timeout_ms, int probe_timeout_ms, clra_process_list_t *out,
                                  clra_status_t *st);
CLRA_EXTERN void clra_process_list_free(clra_process_list_t *list);

#ifdef __cplusplus
}
#endif

#endif /* CLRATTACH_H */
