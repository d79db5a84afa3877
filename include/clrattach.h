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
    XX(ENOTDOTNET, -14, "the process is not a .NET process")

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
 * have run, CLRA_ERUNTIME with st->hresult when the runtime refused, or another CLRA_E* code. */
CLRA_EXTERN int clra_attach_profiler(int pid, const clra_guid_t *clsid, const char *profiler_path,
                                     const void *client_data, size_t client_data_len,
                                     uint32_t attach_timeout_ms, int timeout_ms,
                                     clra_status_t *st);
/* The same against an endpoint already found (or built from a path). */
CLRA_EXTERN int clra_attach_profiler_at(const clra_endpoint_t *ep, const clra_guid_t *clsid,
                                        const char *profiler_path, const void *client_data,
                                        size_t client_data_len, uint32_t attach_timeout_ms,
                                        int timeout_ms, clra_status_t *st);

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
/* Process information, environment and control                                               */
/* (ProcessInfo 1-3, ProcessEnvironment, SetEnvironmentVariable, ResumeRuntime)               */

/* ------------------------------------------------------------------------------------------ */
/* Perf maps and startup hooks                                                                 */
/* (EnablePerfMap, DisablePerfMap, ApplyStartupHook)                                           */

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
/* EventPipe traces                                                                            */
/* (CollectTracing 1-5, StopTracing, the nettrace stream)                                      */

/* ------------------------------------------------------------------------------------------ */
/* Process discovery                                                                           */
/* (every .NET process this user can see, across TMPDIRs and namespaces)                       */

#ifdef __cplusplus
}
#endif

#endif /* CLRATTACH_H */
