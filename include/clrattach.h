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

/* ------------------------------------------------------------------------------------------ */
/* Dumps                                                                                       */
/* (GenerateCoreDump 1-3)                                                                      */

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

#ifdef __cplusplus
}
#endif

#endif /* CLRATTACH_H */
