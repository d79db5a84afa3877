/* clrattach.h - attach profilers to running .NET processes over the diagnostics IPC port.
 *
 * The whole public API of libclrattach. Conventions (libuv-like):
 *   - functions return 0 on success or a negative CLRA_E* code for a failure;
 *   - when the runtime itself answered with an error, the function returns CLRA_ERUNTIME and
 *     the runtime's HRESULT is in clra_status_t.hresult, so "could not reach the runtime" and
 *     "the runtime said no" are never confused;
 *   - no global state, every function is re-entrant, nothing is printed;
 *   - every operation that talks to a process takes a timeout in milliseconds that bounds the
 *     whole operation (discovery, connect, send, receive); a negative timeout means "wait forever";
 *   - every diagnostics command names its process with one clra_target_t (a pid, a socket path or
 *     a reverse connection; see Targets);
 *   - every clra_status_t * argument may be NULL when the caller does not want the details;
 *   - names are clra_<noun>_<verb> (clra_profiler_attach, clra_dump_create), types clra_..._t,
 *     macros CLRA_; names with two underscores (clra__) are internal and not exported.
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

/* ABI and API policy
 *
 * 0.x (now): the API is still settling. A minor release (0.1 -> 0.2) may rename functions or
 *   change their arguments and structs; each such change is listed in README.md's Changelog
 *   (with a sed script, scripts/api-renames.sed, for the pure renames). The shared library's
 *   SONAME is libclrattach.so.0.MINOR, so a program built against 0.1 never loads 0.2 unnoticed.
 * From 1.0: within one major version only additions. No function changes its signature or
 *   meaning, no function or macro is removed, enum and CLRA_E* values never change. Structs the
 *   caller allocates (or indexes in arrays) never change size: new fields take the place of their
 *   reserved members, which callers must leave zero (clear the struct with memset or "= {0}").
 *   Objects that may grow freely are opaque and allocated by the library (clra_stage_t,
 *   clra_connection_t, clra_reverse_server_t). Flags arguments reject bits they do not know with
 *   CLRA_EINVAL, so a program asking for a newer behaviour learns it is missing instead of being
 *   silently ignored. The SONAME is libclrattach.so.MAJOR and changes only with the major
 *   version; a program may check clra_version() >= the CLRA_VERSION_HEX it needs at run time.
 */

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
    void *reserved[4]; /* room to grow (see the ABI policy); the library clears it */
} clra_status_t;

/* ------------------------------------------------------------------------------------------ */
/* GUIDs                                                                                       */

/* A GUID/CLSID in the Windows memory layout that the runtime copies raw from the wire: fixed by
 * that layout, it never grows. */
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

/* What an HRESULT means to someone attaching a profiler. Only the library allocates these (a
 * static table read through pointers), so fields may be added at the end without reserve. */
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
/* Endpoints (discovery)                                                                       */

#define CLRA_PATH_MAX 4096

/* Where a process's diagnostics server listens, as reachable from this process: what discovery
 * found, for display (commands take a clra_target_t). Caller-allocated, so it keeps reserved
 * room for what later discovery may report. */
typedef struct clra_endpoint {
    int pid;                  /* pid as this process sees it */
    int ns_pid;               /* pid inside the target's own PID namespace */
    char path[CLRA_PATH_MAX]; /* socket path, through /proc/PID/root when namespaces differ */
    void *reserved[4];
} clra_endpoint_t;

/* Finds pid's diagnostics socket: the target's TMPDIR (from /proc/PID/environ when readable),
 * our own TMPDIR and /tmp; the pid as the target sees it (NSpid); /proc/PID/root when its mount
 * namespace differs; the exact start-time key first, else the newest match. Fails with
 * CLRA_ENOPROC, CLRA_ENOENDPOINT or CLRA_EACCES; st->detail lists the places searched. */
CLRA_EXTERN int clra_endpoint_find(int pid, clra_endpoint_t *ep, clra_status_t *st);

/* ------------------------------------------------------------------------------------------ */
/* Targets                                                                                     */

/* A connection a runtime made to our reverse server (clra_reverse_server_accept) or one the
 * caller connected itself (clra_connection_from_fd): opaque, it carries exactly one command. */
typedef struct clra_connection clra_connection_t;

/* The process a diagnostics command goes to. Exactly one of the three is set; build it with
 * clra_target_pid, clra_target_socket or clra_target_connection (the reserved members must stay
 * NULL; see the ABI policy):
 *   - pid: its socket is found as clra_endpoint_find does, within the command's timeout (the
 *     time left after finding is the command's), and checked to be really that process's
 *     (owner, links, the listener's pid); files the command names (a profiler, a dump, a hook)
 *     are checked inside its file tree;
 *   - socket_path: that socket, taken as given (a test server, a port known by other means);
 *     paths are taken to be in our own file tree;
 *   - connection: the connection is spent by the command, whatever its outcome: the call closes
 *     and frees it, and the caller must not use it again. */
typedef struct clra_target {
    int pid;
    const char *socket_path;
    clra_connection_t *connection;
    void *reserved[4];
} clra_target_t;

static inline clra_target_t clra_target_pid(int pid)
{
    clra_target_t t = {0, NULL, NULL, {NULL, NULL, NULL, NULL}};
    t.pid = pid;
    return t;
}

static inline clra_target_t clra_target_socket(const char *socket_path)
{
    clra_target_t t = {0, NULL, NULL, {NULL, NULL, NULL, NULL}};
    t.socket_path = socket_path;
    return t;
}

static inline clra_target_t clra_target_connection(clra_connection_t *connection)
{
    clra_target_t t = {0, NULL, NULL, {NULL, NULL, NULL, NULL}};
    t.connection = connection;
    return t;
}

/* Wraps a connected diagnostics descriptor (e.g. one end of a transport the caller set up) as a
 * connection for one command; the connection owns fd from here on. 0, CLRA_EINVAL (fd < 0) or
 * CLRA_ENOMEM (fd is then still the caller's). */
CLRA_EXTERN int clra_connection_from_fd(int fd, clra_connection_t **out);
/* The descriptor inside (to poll it); the connection still owns it. -1 for NULL. */
CLRA_EXTERN int clra_connection_fd(const clra_connection_t *c);
/* Closes and frees a connection no command was given (NULL is a no-op). */
CLRA_EXTERN void clra_connection_close(clra_connection_t *c);

/* ------------------------------------------------------------------------------------------ */
/* Profiler attach                                                                             */

/* Largest client data that fits one message next to a one-character path. */
#define CLRA_MAX_CLIENT_DATA (65535 - 20 - 4 - 16 - 4 - 4 - 4)
/* attach_timeout_ms value meaning "wait as long as it takes" (INFINITE on the runtime side). */
#define CLRA_ATTACH_TIMEOUT_INFINITE 0xFFFFFFFFu

/* Asks the runtime of target to load the profiler at profiler_path (UTF-8, as the target sees
 * it, i.e. inside its mount namespace) with class clsid, handing it client_data in
 * ICorProfilerCallback3::InitializeForAttach. attach_timeout_ms travels on the wire in
 * milliseconds (the runtime uses it to bound its wait for a background GC). flags must be 0
 * (none is defined yet; others are CLRA_EINVAL). timeout_ms bounds this whole call. Returns 0
 * once the profiler's InitializeForAttach and ProfilerAttachComplete have run, CLRA_ERUNTIME
 * with st->hresult when the runtime refused, or another CLRA_E* code. For a pid target that
 * lives in another mount namespace (a container) where profiler_path does not exist, nothing
 * is sent: CLRA_EINVAL with st->sys_errno ENOENT and st->detail saying so (see Staging). */
CLRA_EXTERN int clra_profiler_attach(const clra_target_t *target, const clra_guid_t *clsid,
                                     const char *profiler_path, const void *client_data,
                                     size_t client_data_len, uint32_t attach_timeout_ms,
                                     unsigned flags, int timeout_ms, clra_status_t *st);

/* Registers a profiler to load at startup (StartupProfiler, .NET 6+). Only valid while the
 * runtime is paused at startup: it loads with ICorProfilerCallback::Initialize (every event
 * allowed) once the runtime resumes. There is no client data: pass settings through the
 * environment (clra_environment_set). A running runtime answers E_INVALIDARG. */
CLRA_EXTERN int clra_profiler_startup_register(const clra_target_t *target,
                                               const clra_guid_t *clsid,
                                               const char *profiler_path, int timeout_ms,
                                               clra_status_t *st);

/* ---- Profilers built on libclrprof, reached through their owner-only control endpoint ---- */

/* One SDK profiler loaded in a process. */
typedef struct clra_profiler_ref {
    int pid;
    char clsid[37];           /* lowercase, without braces */
    char path[CLRA_PATH_MAX]; /* its control socket, as seen from this process */
    void *reserved[2];        /* filled in arrays by the caller's count: reserved room */
} clra_profiler_ref_t;

/* Finds the SDK profilers loaded in pid (their sockets sit beside the diagnostics socket).
 * Fills up to max entries and returns how many exist, or a negative CLRA_E* code. */
CLRA_EXTERN int clra_profiler_list(int pid, clra_profiler_ref_t *out, int max, clra_status_t *st);

typedef struct clra_detach_result {
    int32_t hresult;         /* RequestProfilerDetach's answer */
    uint32_t expected_ms;    /* the expected-completion time the profiler passed */
    uint64_t library_inode;  /* the profiler's .so, watched in /proc/PID/maps */
    int elapsed_ms;          /* from the request until the library was unmapped */
    char name[64];           /* the profiler's name */
    char message[256];       /* the profiler's explanation of hresult */
    void *reserved[4];
} clra_detach_result_t;

/* Asks the profiler to detach, then waits until the runtime has unloaded it (its library gone
 * from /proc/PID/maps), all within timeout_ms. 0 when unloaded; CLRA_ERUNTIME when the runtime
 * refused (res->hresult says why); CLRA_ETIMEDOUT when requested but still mapped. res may
 * be NULL. */
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
CLRA_EXTERN int clra_library_wait_unmapped(int pid, uint64_t inode, int timeout_ms,
                                           clra_status_t *st);

/* ------------------------------------------------------------------------------------------ */
/* Reverse connections (DOTNET_DiagnosticPorts=PATH,connect[,suspend])                         */

/* A socket we listen on; runtimes told to connect there advertise themselves, and each
 * advertised connection carries one command, after which the runtime connects again. */
typedef struct clra_reverse_server clra_reverse_server_t;

/* What a runtime says when it connects: its instance cookie (the same as ProcessInfo's) and its
 * pid inside its own namespace. Caller-allocated: reserved room for a later advertise version. */
typedef struct clra_advertise {
    clra_guid_t cookie;
    uint64_t pid;
    void *reserved[2];
} clra_advertise_t;

/* Creates the socket at path (mode 0600; an existing file is an error, never replaced) and
 * listens. */
CLRA_EXTERN int clra_reverse_server_listen(const char *path, clra_reverse_server_t **out,
                                           clra_status_t *st);
/* Accepts connections until one from the runtime with this cookie (any runtime when cookie is
 * NULL) is held and alive, within timeout_ms. Reads each advertise under a 1 s bound, rejects
 * bad magic, and keeps only the latest connection per cookie. */
CLRA_EXTERN int clra_reverse_server_wait(clra_reverse_server_t *s, const clra_guid_t *cookie,
                                         int timeout_ms, clra_advertise_t *ad,
                                         clra_status_t *st);
/* Hands the held connection for cookie (any, when NULL) to *out for one command: it leaves the
 * server, and a command given clra_target_connection(*out) spends it. Call
 * clra_reverse_server_wait first; CLRA_ENOENDPOINT when none is held, CLRA_EINVAL, CLRA_ENOMEM. */
CLRA_EXTERN int clra_reverse_server_accept(clra_reverse_server_t *s, const clra_guid_t *cookie,
                                           clra_connection_t **out);
/* Closes every held connection and the listener, and removes the socket file. */
CLRA_EXTERN void clra_reverse_server_close(clra_reverse_server_t *s);

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
    void *reserved[4];       /* room for what a later ProcessInfo adds */
} clra_process_info_t;

/* Asks the runtime of target who it is: ProcessInfo3, falling back to ProcessInfo2 and then
 * ProcessInfo only when the runtime does not know the newer command (0x80131385); any other
 * refusal is returned as CLRA_ERUNTIME. timeout_ms bounds all attempts together. On success
 * release out with clra_process_info_free; on failure out holds nothing to free. */
CLRA_EXTERN int clra_process_info_get(const clra_target_t *target, int timeout_ms,
                                      clra_process_info_t *out, clra_status_t *st);
CLRA_EXTERN void clra_process_info_free(clra_process_info_t *info);

/* ProcessEnvironment, SetEnvironmentVariable, ResumeRuntime */

/* Largest environment block accepted from a runtime (the wire allows 4 GiB; no real process
 * comes near this, and a lying length must not make us allocate it). */
#define CLRA_MAX_ENVIRONMENT_BYTES (64u << 20)

/* One variable, split at the first '=' that is not the first character, so Windows' hidden
 * "=C:=C:\dir" entries keep their name. value is "" when the entry has no '='. Name/value
 * pairs as the wire has them: these two structs are not expected to grow. */
typedef struct clra_env_var {
    char *name;
    char *value;
} clra_env_var_t;

typedef struct clra_environment {
    clra_env_var_t *vars; /* in the order the runtime sent them */
    size_t count;
} clra_environment_t;

/* Reads the target's environment as the runtime sees it now (including changes made by the
 * app or by clra_environment_set). Release with clra_environment_free. */
CLRA_EXTERN int clra_environment_get(const clra_target_t *target, int timeout_ms,
                                     clra_environment_t *out, clra_status_t *st);
CLRA_EXTERN void clra_environment_free(clra_environment_t *env);

/* Sets name=value in the target (value NULL removes the variable). The name must be non-empty
 * and contain no '='. The runtime answers with a Win32-style HRESULT on failure. */
CLRA_EXTERN int clra_environment_set(const clra_target_t *target, const char *name,
                                     const char *value, int timeout_ms, clra_status_t *st);

/* Lets a runtime paused at startup (DOTNET_DefaultDiagnosticPortSuspend=1 or a suspending
 * diagnostic port) continue. The runtime answers OK whether or not it was paused. */
CLRA_EXTERN int clra_runtime_resume(const clra_target_t *target, int timeout_ms,
                                    clra_status_t *st);

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
CLRA_EXTERN int clra_perfmap_enable(const clra_target_t *target, clra_perfmap_type_t type,
                                    int timeout_ms, clra_status_t *st);
/* Stops writing them; the files stay. */
CLRA_EXTERN int clra_perfmap_disable(const clra_target_t *target, int timeout_ms,
                                     clra_status_t *st);
/* Asks the runtime of target (.NET 8 or later) to load the managed assembly at assembly_path
 * (UTF-8, absolute, as the target sees it: inside its mount namespace) and call its
 * StartupHook.Initialize(). The runtime runs the hook before it replies, so this returns once
 * Initialize has returned. Beware: on .NET 10 a hook that cannot be loaded, lacks the method or
 * throws is an unhandled exception that ends the target, with no reply. So for a pid target the
 * file is first checked with clra_startup_hook_check (through /proc/PID/root when namespaces
 * differ); a failed check is CLRA_EINVAL or CLRA_EACCES and nothing is sent (other targets
 * cannot be checked: their file tree is unknown). 0 when the hook ran, CLRA_ERUNTIME with
 * st->hresult when the runtime refused, CLRA_ECONNLOST when the target closed the connection
 * (typically: the hook threw and the process is ending). */
CLRA_EXTERN int clra_startup_hook_apply(const clra_target_t *target, const char *assembly_path,
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

/* What the target's createdump writes (reference/ipc-protocol.md 3.1). */
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
    void *reserved[4];
} clra_dump_result_t;

/* Asks the runtime of target to write a core dump to path, an absolute path as the target
 * sees it (createdump runs as the target's user, inside its mount namespace). Tries
 * GenerateCoreDump3, then 2, then 1 while the runtime answers "unknown command" (a connection
 * target carries one command, so only GenerateCoreDump3 there). Blocks until createdump has
 * finished, so give dumps a generous timeout_ms (seconds to minutes); a timeout does not stop a
 * dump in progress. Because some runtimes answered OK after a failed dump, the answer is
 * trusted only when the file exists afterwards (and changed, if it existed before): otherwise
 * CLRA_EIO. The file is looked for through /proc/PID/root for a pid target, in our own file
 * tree otherwise. CLRA_ERUNTIME with st->hresult and res->message when the runtime refused.
 * Unknown flags, a type outside 1..4 and a relative path are CLRA_EINVAL. res may be NULL. */
CLRA_EXTERN int clra_dump_create(const clra_target_t *target, const char *path,
                                 clra_dump_type_t type, uint32_t flags, int timeout_ms,
                                 clra_dump_result_t *res, clra_status_t *st);

/* Maps target_path (absolute, as process pid sees it) to a path reachable from this process:
 * unchanged when pid shares our mount namespace and root, else through /proc/PID/root, and
 * says which in *other_ns. 0, CLRA_ENOPROC, or CLRA_EINVAL (relative path, or out too small).
 * Used to check files the target is asked to read or write (dumps, startup hooks, profilers). */
CLRA_EXTERN int clra_target_path_resolve(int pid, const char *target_path, char *out,
                                         size_t cap, int *other_ns);

/* ------------------------------------------------------------------------------------------ */
/* Staging                                                                                     */
/* (a profiler library copied into the target's file tree, for targets in containers)         */

/* The runtime opens a profiler path inside its own mount namespace, so a library that exists
 * only on the host cannot be attached to a containerised process by path. Staging copies it
 * into the target's temp directory (its TMPDIR, else /tmp), reached through /proc/PID/root:
 *   <tmp>/clrattach-stage-<ns_pid>-XXXXXX/   mode 0700, a fresh private directory
 *   <tmp>/clrattach-stage-<ns_pid>-XXXXXX/<basename of the library>   mode 0500
 * both owned by the target's user (as root, they are created with its file-system ids).
 * Attach with clra_stage_target_path. A copy the runtime has mapped must stay until the
 * profiler has detached; clra_stage_sweep removes every stage directory of the process whose
 * library is no longer mapped, so copies left behind by a profiler that detached by itself (or
 * by a killed trigger) do not pile up. clra_stage_create sweeps first. The stage is opaque: it
 * holds descriptors and a lock whose shape is the library's business. */
typedef struct clra_stage clra_stage_t;

/* Copies the regular file library_path (as seen from here) into pid's file tree as above.
 * 0 with *out set (end it with clra_stage_release or clra_stage_remove, which free it);
 * CLRA_EINVAL (not a regular file, no such file), CLRA_EACCES, CLRA_ENOPROC, CLRA_ENOMEM or
 * CLRA_EIO (e.g. the target's disk is full) with st->detail naming the path that failed;
 * nothing is left behind on failure (*out is then NULL). */
CLRA_EXTERN int clra_stage_create(int pid, const char *library_path, clra_stage_t **out,
                                  clra_status_t *st);
/* The copy as the target sees it: pass this to clra_profiler_attach. Valid until s ends. */
CLRA_EXTERN const char *clra_stage_target_path(const clra_stage_t *s);
/* The same file as reachable from here (through /proc/PID/root). Valid until s ends. */
CLRA_EXTERN const char *clra_stage_local_path(const clra_stage_t *s);
/* Keeps the copy (the runtime has it mapped now), lets later sweeps judge it, and frees s. */
CLRA_EXTERN void clra_stage_release(clra_stage_t *s);
/* Removes the copy and its directory (after a failed attach) and frees s (also on failure). */
CLRA_EXTERN int clra_stage_remove(clra_stage_t *s, clra_status_t *st);
/* Removes pid's stage directories whose library is no longer mapped in it (skipping those a
 * clra_stage_create in progress holds). 0 with *removed (may be NULL) counting them, or the
 * failure to reach the process's file tree or its maps. */
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
    void *reserved[2]; /* an array the caller indexes: its stride must not change */
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
    void *reserved[4];        /* cleared by init */
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
CLRA_EXTERN int clra_trace_config_version(const clra_trace_config_t *cfg);
/* The oldest runtime that understands CollectTracing version v, e.g. ".NET 9". */
CLRA_EXTERN const char *clra_trace_version_runtime(int version);

/* A running session. fd carries the NetTrace stream; nothing else is allocated. */
typedef struct clra_trace_session {
    uint64_t id;         /* the runtime's session id (opaque; never 0) */
    int fd;              /* the stream connection; -1 once closed */
    int command_version; /* the CollectTracing version that started it */
    int eof;             /* the stream has ended (stopped, or the target went away) */
    uint64_t bytes;      /* stream bytes delivered to sinks so far */
    void *reserved[4];   /* cleared by clra_trace_start */
} clra_trace_session_t;

/* Receives stream bytes in order; returns 0 to continue, non-zero to fail the call. */
typedef int (*clra_trace_sink_fn)(void *ctx, const void *data, size_t len);

/* Starts a session in target. On success the session owns the stream connection (a connection
 * target's becomes it). CLRA_ERUNTIME with st->hresult when the runtime refused; for
 * UNKNOWN_COMMAND the detail names the runtime version the requested options need. */
CLRA_EXTERN int clra_trace_start(const clra_target_t *target, const clra_trace_config_t *cfg,
                                 int timeout_ms, clra_trace_session_t *s, clra_status_t *st);
/* Delivers the stream bytes that arrive within wait_ms (up to about 1 MiB per call) to sink.
 * 0 with s->eof set when the stream has ended; CLRA_EIO when sink failed. */
CLRA_EXTERN int clra_trace_pump(clra_trace_session_t *s, clra_trace_sink_fn sink, void *ctx,
                                int wait_ms, clra_status_t *st);
/* Sends StopTracing on a second connection to target (the same process the session runs in;
 * with a reverse server, its next connection) while draining the stream into sink, then reads
 * the stream to its end; timeout_ms bounds it all (rundown can take seconds). 0 when the
 * runtime confirmed the stop and the stream ended. */
CLRA_EXTERN int clra_trace_stop(clra_trace_session_t *s, const clra_target_t *target,
                                clra_trace_sink_fn sink, void *ctx, int timeout_ms,
                                clra_status_t *st);
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
    void *reserved[4];
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
    void *reserved[4];        /* an array the caller indexes: its stride must not change */
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
    void *reserved[4];
} clra_process_list_t;

/* Scans /proc for .NET processes: those with a diagnostics socket (in their own TMPDIR, ours,
 * /tmp, or under /proc/PID/root in another mount namespace) and those mapping libcoreclr.so
 * without one. Each reachable one is asked ProcessInfo within probe_timeout_ms; timeout_ms
 * bounds the whole scan (processes left when it passes are listed as CLRA_ETIMEDOUT, not
 * asked). Stale sockets and kernel threads are never listed. Release with
 * clra_process_list_free. */
CLRA_EXTERN int clra_process_list(int timeout_ms, int probe_timeout_ms,
                                  clra_process_list_t *out, clra_status_t *st);
CLRA_EXTERN void clra_process_list_free(clra_process_list_t *list);

#ifdef __cplusplus
}
#endif

#endif /* CLRATTACH_H */
