/* hresult.c - what each HRESULT an AttachProfiler request can come back with means, and what to
 * do about it (docs/protocol.md 4.1-4.2, docs/profiling-api.md 1.13, 2, 3.1).
 *
 * Values come from the runtime's corerror.h and ds-types.h; every sentence here is our own.
 * Where two symbols share a value, the name is the one an attach caller is most likely to meet.
 */
#include "clrattach.h"
#include "hresult_platform.h"

/* HRESULTs are written as the unsigned hex everyone quotes; the conversion to int32_t is the
 * two's-complement wrap that every compiler we support performs. */
#define HR(v) ((int32_t)(uint32_t)(v))

/* Ordered by unsigned value: success, COM generic (0x8000/0x8004), Win32 (0x8007), then the
 * runtime's facility (0x8013), where the CORPROF_E_ and diagnostics-server codes live. */
static const clra_hresult_info_t hresult_table[] = {
    /* ---- success --------------------------------------------------------------------- */
    {HR(0x00000000), "S_OK",
     "Success: the runtime loaded the profiler and its InitializeForAttach accepted the attach.",
     "Nothing to fix; confirm in the profiler's own output that it is collecting what you "
     "expect."},
    {HR(0x00000001), "S_FALSE",
     "A success code meaning 'nothing to do'; the runtime folds it into S_OK, so an attach "
     "reply never carries it.",
     "Treat it as success; if you saw it, it came from a profiler or helper call, not from the "
     "runtime's answer to the attach request."},

    /* ---- generic COM codes (facility 0 and ITF) -------------------------------------- */
    {HR(0x800000CB), "DS_IPC_E_ENVVAR_NOT_FOUND",
     "The diagnostics server's 'no such environment variable' code (Win32 error 203 without "
     "the Win32 facility bits); no attach step is known to send it.",
     "Not an attach failure: check the variable exists in the target's environment with "
     "`tr '\\0' '\\n' < /proc/PID/environ`."},
    {HR(0x80004001), "E_NOTIMPL",
     "Something in the profiler is a stub; when InitializeForAttach itself returns it the "
     "runtime reports CORPROF_E_PROFILER_NOT_ATTACHABLE instead, so this came from elsewhere.",
     "Check the profiler's class factory (DllGetClassObject, CreateInstance) and log; use a "
     "build of the profiler that supports attach."},
    {HR(0x80004002), "E_NOINTERFACE",
     "The object made from the CLSID does not answer QueryInterface for ICorProfilerCallback2, "
     "the oldest callback interface the runtime will load.",
     "Make the profiler's QueryInterface hand out the same object for IUnknown and every "
     "ICorProfilerCallback IID it implements (at least 2 and 3); check the IIDs' byte order."},
    {HR(0x80004003), "E_POINTER",
     "A NULL pointer reached code that needed a real one, normally inside the profiler's "
     "DllGetClassObject, CreateInstance or InitializeForAttach.",
     "A defect in the profiler: read its log or run `gdb -p PID` on the target to find the "
     "call; if the profiler expects client data, pass some."},
    {HR(0x80004004), "E_ABORT",
     "A libclrprof profiler refused to detach itself (CLRPROF_E_KEPT_LOADED): it was kept "
     "loaded, or it is notification-only in a process a main profiler has detached from, "
     "where .NET 10 crashes in such a detach.",
     "Leave it loaded; it stops when the process exits. Only a restart of the process "
     "removes it safely."},
    {HR(0x80004005), "E_FAIL",
     "Unspecified failure: the runtime sends it for an empty profiler path on Linux, and many "
     "profilers return it from InitializeForAttach for any problem.",
     "Pass a non-empty absolute path as the target sees it, then read the profiler's own log "
     "for the reason it refused."},
    {HR(0x8000FFFF), "E_UNEXPECTED",
     "An exception escaped the profiler while it was being created (or the runtime could not "
     "format the CLSID) and was turned into this code.",
     "Look at the profiler's constructor, DllGetClassObject and CreateInstance for a throw: "
     "its log, or `gdb -p PID` with `catch throw` before attaching again."},
    {HR(0x80040110), "CLASS_E_NOAGGREGATION",
     "The profiler's class factory refused to build its object because it believed COM "
     "aggregation was requested.",
     "The runtime always passes a NULL outer object, so the profiler's CreateInstance checks "
     "that argument wrongly; fix or update the profiler."},
    {HR(0x80040111), "CLASS_E_CLASSNOTAVAILABLE",
     "The library's DllGetClassObject does not serve the CLSID that was sent.",
     "Check --clsid against the CLSID the profiler documents (or compares in DllGetClassObject); "
     "case does not matter but every hex digit does."},

    /* ---- Win32 errors from the OS layer (facility 7) --------------------------------- */
    {HR(0x80070002), "ERROR_FILE_NOT_FOUND",
     "Win32 'file not found': usually a file the profiler needs at attach (configuration, "
     "output directory, helper library) is missing.",
     "Find the file in the profiler's log; its paths are resolved in the target's filesystem "
     "and working directory, not yours (look under /proc/PID/root and /proc/PID/cwd)."},
    {HR(0x80070005), "E_ACCESSDENIED",
     "Access denied: the target process was not allowed to open or map a file, or the profiler "
     "refused for a permission reason.",
     "The target's user must be able to read the library and traverse its directories (`ls -l` "
     "as that user); also check SELinux/AppArmor and noexec mounts on the target's side."},
    {HR(0x8007000E), "E_OUTOFMEMORY",
     "An allocation failed in the runtime or in the profiler during the attach.",
     "Check the target's limits and usage (cgroup memory.max, `ulimit -v`, /proc/PID/status); "
     "attach again when it has headroom or raise the limit."},
    {HR(0x80070057), "E_INVALIDARG",
     "An argument was rejected: the diagnostics server sends it for StartupProfiler when the "
     "runtime is not paused at startup, and profilers return it for client data they reject.",
     "For attach, check the client data format the profiler documents; StartupProfiler only "
     "works while the runtime is suspended at startup, otherwise attach instead."},
    {HR(0x8007007A), "ERROR_INSUFFICIENT_BUFFER",
     "A buffer was too small (Win32 error 122, also named DS_IPC_E_INSUFFICIENT_BUFFER); the "
     "attach command itself does not send it, so the profiler most likely did.",
     "Look in the profiler's log for the value that did not fit (often a path or client data "
     "longer than it allows) and shorten it."},
    {HR(0x8007007E), "ERROR_MOD_NOT_FOUND",
     "The runtime could not dlopen the profiler: no file at that path, or one of its "
     "dependencies or load-time symbols did not resolve.",
     "The path is resolved inside the target process (its mount namespace, its working "
     "directory): check `ls /proc/PID/root/PATH`, run `ldd` on it in the target's environment, "
     "and copy the library in if the target runs in a container."},
    {HR(0x8007007F), "ERROR_PROC_NOT_FOUND",
     "The library was loaded but the runtime found no exported DllGetClassObject in it.",
     "Check `nm -D --defined-only LIB | grep DllGetClassObject`; export it with C linkage and "
     "default visibility (extern \"C\", -fvisibility or a version script may hide it)."},
    {HR(0x800700C1), "ERROR_BAD_EXE_FORMAT",
     "The file is not a shared library this process can load: built for another CPU "
     "architecture or word size, or not an ELF shared object at all.",
     "Compare `file LIB` with `file /proc/PID/exe` and use the profiler build for the target's "
     "architecture (and libc: musl for Alpine, glibc otherwise)."},

    /* ---- runtime facility (0x8013): profiling API and diagnostics server -------------- */
    {HR(0x80131350), "CORPROF_E_FUNCTION_NOT_COMPILED",
     "A profiler Info call asked for native code of a function the JIT has not compiled yet.",
     "The profiler passed an Info-call failure out of InitializeForAttach; it should skip such "
     "functions, so report it to the profiler's authors."},
    {HR(0x80131351), "CORPROF_E_DATAINCOMPLETE",
     "A profiler Info call asked about a type, module or function that is still loading.",
     "Usually transient: attach again; if it persists, the profiler should wait for the "
     "matching load-finished callback before asking."},
    {HR(0x80131354), "CORPROF_E_FUNCTION_NOT_IL",
     "A profiler Info call asked for the IL of a method that has none (native, abstract or "
     "implemented by the runtime).",
     "A profiler bug surfaced through InitializeForAttach: it should skip methods without IL; "
     "report it to its authors."},
    {HR(0x80131355), "CORPROF_E_NOT_MANAGED_THREAD",
     "A call that needs a managed thread was made on a native one; InitializeForAttach itself "
     "runs on the diagnostics server's native thread.",
     "The profiler must move thread-bound work out of InitializeForAttach into a later "
     "callback on a managed thread; report it to its authors."},
    {HR(0x80131356), "CORPROF_E_CALL_ONLY_FROM_INIT",
     "The profiler made a call that is only allowed inside its initialization callback after "
     "that callback had returned.",
     "Profiler bug: the call belongs in InitializeForAttach; report it to the profiler's "
     "authors or update the profiler."},
    {HR(0x8013135B), "DS_IPC_E_NOT_YET_AVAILABLE",
     "The runtime is paused at startup by a suspending diagnostic port and does not accept "
     "attach yet (same value as CORPROF_E_NOT_YET_AVAILABLE).",
     "Let it run with 'clrattach resume PID' (that resumes the default port; each suspending "
     "port of DOTNET_DiagnosticPorts needs its own ResumeRuntime), then attach again; or, to "
     "profile from startup, start the program with 'clrattach launch --profiler PATH -- "
     "COMMAND', which registers it with StartupProfiler before any managed code runs."},
    {HR(0x8013135C), "CORPROF_E_TYPE_IS_PARAMETERIZED",
     "A profiler Info call that only handles plain types was given a generic instantiation.",
     "Profiler bug passed out of InitializeForAttach: it should use the generic-aware variant "
     "(e.g. GetClassIDInfo2); report it to its authors."},
    {HR(0x8013135D), "CORPROF_E_FUNCTION_IS_PARAMETERIZED",
     "A profiler Info call that only handles plain functions was given a generic instantiation.",
     "Profiler bug passed out of InitializeForAttach: it should use the generic-aware variant "
     "(e.g. GetFunctionInfo2); report it to its authors."},
    {HR(0x8013135E), "CORPROF_E_STACKSNAPSHOT_INVALID_TGT_THREAD",
     "DoStackSnapshot was aimed at a thread that is dead or cannot be walked.",
     "Profiler-side: stack walks belong after ProfilerAttachComplete and must tolerate dying "
     "threads; report it to the profiler's authors."},
    {HR(0x8013135F), "CORPROF_E_STACKSNAPSHOT_UNMANAGED_CTX",
     "DoStackSnapshot was seeded with a register context that points into native code.",
     "Profiler-side: it must seed the walk with a managed frame or none; report it to the "
     "profiler's authors."},
    {HR(0x80131360), "CORPROF_E_STACKSNAPSHOT_UNSAFE",
     "The runtime declined a stack walk because at that moment it could deadlock or crash.",
     "Profiler-side: the walk should be retried later (on Linux, while the runtime is "
     "suspended via SuspendRuntime); attach again."},
    {HR(0x80131361), "CORPROF_E_STACKSNAPSHOT_ABORTED",
     "A stack walk was stopped early by the profiler's own per-frame callback.",
     "Only an attach problem if the profiler returned it from InitializeForAttach; its log "
     "should say why it stopped."},
    {HR(0x80131362), "CORPROF_E_LITERALS_HAVE_NO_ADDRESS",
     "A profiler Info call asked for the address of a literal (const) static field, which has "
     "no storage.",
     "Profiler bug: it should skip literal fields; report it to the profiler's authors."},
    {HR(0x80131363), "CORPROF_E_UNSUPPORTED_CALL_SEQUENCE",
     "A profiler Info call was made at a point where the runtime cannot serve it (from a "
     "hijacked or otherwise unsafe context).",
     "Profiler bug: the call must move to another callback or thread; report it to the "
     "profiler's authors."},
    {HR(0x80131364), "CORPROF_E_ASYNCHRONOUS_UNSAFE",
     "A non-async-safe Info call was made from a thread the runtime had not called into, such "
     "as a sampler thread the profiler started itself.",
     "Profiler bug: that call must be made from inside a runtime callback; report it to the "
     "profiler's authors."},
    {HR(0x80131365), "CORPROF_E_CLASSID_IS_ARRAY",
     "A profiler Info call that does not handle arrays was given an array ClassID.",
     "Profiler bug: it should test with IsArrayClass first; report it to the profiler's "
     "authors."},
    {HR(0x80131366), "CORPROF_E_CLASSID_IS_COMPOSITE",
     "A profiler Info call was given a composite ClassID (array, pointer, by-ref) it cannot "
     "describe.",
     "Profiler bug: it should unwrap composite types first; report it to the profiler's "
     "authors."},
    {HR(0x80131367), "CORPROF_E_PROFILER_DETACHING",
     "The profiler is detaching or a detach is already queued, so the runtime refuses its "
     "calls and any second detach request.",
     "Wait until the detach completes (ProfilerDetachSucceeded, library unloaded) before "
     "attaching again; an attach meanwhile gets CORPROF_E_PROFILER_ALREADY_ACTIVE."},
    {HR(0x80131368), "CORPROF_E_PROFILER_NOT_ATTACHABLE",
     "The profiler cannot be attached: it does not implement ICorProfilerCallback3, or its "
     "InitializeForAttach returned E_NOTIMPL (or this code); a library without "
     "ICorProfilerCallback3 stays loaded in the process until it exits.",
     "Use a profiler build that implements InitializeForAttach and answers QueryInterface for "
     "ICorProfilerCallback3, or load it at startup via CORECLR_ENABLE_PROFILING=1, "
     "CORECLR_PROFILER and CORECLR_PROFILER_PATH."},
    {HR(0x80131369), "CORPROF_E_UNRECOGNIZED_PIPE_MSG_FORMAT",
     "The .NET Framework's pipe-based attach could not parse a message; CoreCLR's IPC attach "
     "never sends it.",
     "Not expected from a .NET Core or .NET 5+ target, so the profiler returned it: check its "
     "log."},
    {HR(0x8013136A), "CORPROF_E_PROFILER_ALREADY_ACTIVE",
     "A main profiler is already loaded (at startup via CORECLR_PROFILER, or by an earlier "
     "attach, possibly still detaching), or all notification-profiler slots are taken.",
     "Detach the loaded profiler first and wait for it to unload, or make yours "
     "notification-only (ICorProfilerCallback11::LoadAsNotificationOnly returning TRUE)."},
    {HR(0x8013136B), "CORPROF_E_PROFILEE_INCOMPATIBLE_WITH_TRIGGER",
     "The .NET Framework attach API found the trigger and target runtimes incompatible; "
     "CoreCLR's IPC attach never sends it.",
     "Not expected from a .NET Core or .NET 5+ target, so the profiler returned it: check its "
     "log."},
    {HR(0x8013136C), "CORPROF_E_IPC_FAILED",
     "The .NET Framework attach pipe failed; with CoreCLR, transport failures appear as socket "
     "errors instead.",
     "Look at the local error and detail clrattach reported; if the runtime really answered "
     "with this, the profiler returned it, so check its log."},
    {HR(0x8013136D), "CORPROF_E_PROFILEE_PROCESS_NOT_FOUND",
     "The .NET Framework attach API could not find the target process; CoreCLR never sends it.",
     "Check the pid is alive (`kill -0 PID`) and runs .NET; if the runtime answered with this, "
     "the profiler returned it, so check its log."},
    {HR(0x8013136E), "CORPROF_E_CALLBACK3_REQUIRED",
     "The operation (for instance RequestProfilerDetach) needs the profiler to implement "
     "ICorProfilerCallback3.",
     "The profiler must answer QueryInterface for ICorProfilerCallback3 and implement its "
     "attach/detach methods; update or rebuild it."},
    {HR(0x8013136F), "CORPROF_E_UNSUPPORTED_FOR_ATTACHING_PROFILER",
     "The profiler asked for something only a startup profiler may use: an event-mask flag "
     "outside the after-attach set (enter/leave hooks, allocation tracking...) or a "
     "startup-only Info call.",
     "Configure the profiler to leave those features off when attaching, or load it at startup "
     "with CORECLR_ENABLE_PROFILING=1, CORECLR_PROFILER and CORECLR_PROFILER_PATH."},
    {HR(0x80131370), "CORPROF_E_IRREVERSIBLE_INSTRUMENTATION_PRESENT",
     "Detach refused: the profiler installed enter/leave hooks, rewrote IL or used ReJIT, none "
     "of which can be undone.",
     "This profiler stays loaded until the process exits; restart the target to remove it, or "
     "run the profiler in a mode without IL rewriting if it must detach."},
    {HR(0x80131371), "CORPROF_E_RUNTIME_UNINITIALIZED",
     "The runtime's profiling support is not set up yet, or the runtime is already shutting "
     "down (same value as DS_IPC_E_RUNTIME_UNINITIALIZED).",
     "If the process is starting, retry in a moment; if it is exiting there is nothing to "
     "attach to; on .NET 8+ also check DOTNET_EnableDiagnostics_Profiler is not 0."},
    {HR(0x80131372), "CORPROF_E_IMMUTABLE_FLAGS_SET",
     "Detach refused: the profiler set event-mask flags that can only be chosen at startup "
     "and never cleared.",
     "Only a startup-loaded profiler gets here; restart the target without "
     "CORECLR_ENABLE_PROFILING to remove it, or configure it to avoid immutable flags."},
    {HR(0x80131373), "CORPROF_E_PROFILER_NOT_YET_INITIALIZED",
     "The profiler made a call that needs it fully initialized (such as RequestProfilerDetach) "
     "while still inside Initialize or InitializeForAttach.",
     "Profiler bug: that call belongs in ProfilerAttachComplete or later; report it to the "
     "profiler's authors."},
    {HR(0x80131374), "CORPROF_E_INCONSISTENT_WITH_FLAGS",
     "A profiler call needs event-mask flags it has not set, or conflicts with flags it has "
     "set.",
     "Enable the profiler feature that sets the missing flag (its configuration), or report "
     "the mismatch to its authors."},
    {HR(0x80131375), "CORPROF_E_PROFILER_CANCEL_ACTIVATION",
     "The profiler deliberately declined to load into this process (from its class factory or "
     "InitializeForAttach).",
     "Read the profiler's configuration (environment, config file, client data filters such "
     "as process-name lists) to see why it skipped this target."},
    {HR(0x80131376), "CORPROF_E_CONCURRENT_GC_NOT_PROFILABLE",
     "The profiler asked for GC events while background GC was on, outside the attach thread "
     "where the runtime is able to switch background GC off.",
     "The profiler must set COR_PRF_MONITOR_GC inside InitializeForAttach, not later; or "
     "restart the target with DOTNET_gcConcurrent=0."},
    {HR(0x80131378), "CORPROF_E_DEBUGGING_DISABLED",
     "The requested feature needs the runtime's debugging support, which is turned off in "
     "this process.",
     "Check DOTNET_EnableDiagnostics and DOTNET_EnableDiagnostics_Debugger in "
     "/proc/PID/environ; restart the target with debugging allowed."},
    {HR(0x80131379), "CORPROF_E_TIMEOUT_WAITING_FOR_CONCURRENT_GC",
     "The profiler enabled GC monitoring during attach and a background GC did not finish "
     "within the attach timeout sent with the request.",
     "Attach again with a longer attach timeout (milliseconds; CLRA_ATTACH_TIMEOUT_INFINITE "
     "waits as long as needed), or at a quieter moment."},
    {HR(0x8013137A), "CORPROF_E_MODULE_IS_DYNAMIC",
     "A profiler Info call does not support modules generated at run time (Reflection.Emit).",
     "Profiler bug: it should skip dynamic modules; report it to the profiler's authors."},
    {HR(0x8013137B), "CORPROF_E_CALLBACK4_REQUIRED",
     "The call needs the profiler to implement ICorProfilerCallback4 (ReJIT and related "
     "features).",
     "The profiler's QueryInterface must answer ICorProfilerCallback4 (and every lower level) "
     "with the same object; update or rebuild it."},
    {HR(0x8013137C), "CORPROF_E_REJIT_NOT_ENABLED",
     "ReJIT was requested without being enabled first (COR_PRF_ENABLE_REJIT not set, or ReJIT "
     "off in the runtime).",
     "The profiler must set COR_PRF_ENABLE_REJIT in InitializeForAttach before requesting "
     "ReJIT (which also makes it impossible to detach)."},
    {HR(0x8013137E), "CORPROF_E_FUNCTION_IS_COLLECTIBLE",
     "A profiler Info call does not support functions in collectible (unloadable) assemblies.",
     "Profiler bug: it should skip collectible code; report it to the profiler's authors."},
    {HR(0x80131380), "CORPROF_E_CALLBACK6_REQUIRED",
     "The profiler asked for assembly-reference events without implementing "
     "ICorProfilerCallback6.",
     "Drop COR_PRF_HIGH_ADD_ASSEMBLY_REFERENCES from the profiler's mask or implement "
     "ICorProfilerCallback6 (and answer its IID in QueryInterface)."},
    {HR(0x80131382), "CORPROF_E_CALLBACK7_REQUIRED",
     "The profiler asked for in-memory symbol notifications without implementing "
     "ICorProfilerCallback7.",
     "Drop COR_PRF_HIGH_IN_MEMORY_SYMBOLS_UPDATED from the profiler's mask or implement "
     "ICorProfilerCallback7 (and answer its IID in QueryInterface)."},
    {HR(0x80131383), "CORPROF_E_REJIT_INLINING_DISABLED",
     "An inliner-aware ReJIT call was made but the runtime is not tracking inlining for ReJIT.",
     "Profiler-side: it used RequestReJITWithInliners without the setup it needs; report it "
     "to the profiler's authors."},
    {HR(0x80131384), "DS_IPC_E_BAD_ENCODING",
     "The diagnostics server could not parse the request: sizes, strings or the client-data "
     "length did not match the bytes sent.",
     "Usually a client bug or a runtime that reads the payload differently (the client-data "
     "length must equal the bytes sent); report it with the target's runtime version."},
    {HR(0x80131385), "DS_IPC_E_UNKNOWN_COMMAND",
     "The runtime does not know the command sent: it is older than that command (attach "
     "needs .NET Core 3.0+, CollectTracing3/4 .NET 9+, CollectTracing5 .NET 10+), or it was "
     "built without it.",
     "Upgrade the target's runtime or use an option its version knows (README: Runtime "
     "compatibility); for attach, load the profiler at startup with CORECLR_PROFILER_PATH."},
    {HR(0x80131386), "DS_IPC_E_UNKNOWN_MAGIC",
     "The request did not start with the DOTNET_IPC_V1 magic, so the server rejected it.",
     "Something other than a diagnostics client wrote to this socket, or it is not a .NET "
     "diagnostics port; check the endpoint path."},
    {HR(0x80131387), "CORDIAGIPC_E_UNKNOWN_ERROR",
     "A catch-all diagnostics IPC error; current runtimes are not known to send it.",
     "Retry once and check the target's stderr or journal for runtime errors; if it repeats, "
     "report it with the runtime version (the libcoreclr.so path in /proc/PID/maps)."},
    {HR(0x80131388), "CORPROF_E_SUSPENSION_IN_PROGRESS",
     "The profiler's SuspendRuntime call found a runtime suspension already under way.",
     "Transient: attach again when the target is less busy; a profiler should retry the "
     "suspension instead of failing."},
    {HR(0x80131389), "CORPROF_E_NOT_GC_OBJECT",
     "A profiler Info call was given an object that does not live on the GC heap.",
     "Profiler bug: it should skip objects from non-GC (frozen) heaps; report it to the "
     "profiler's authors."},
    {HR(0x8013138A), "CORPROF_E_MODULE_IS_ENC",
     "A profiler Info call does not support modules loaded with Edit and Continue enabled.",
     "Run the target without Edit and Continue (no DOTNET_MODIFIABLE_ASSEMBLIES=debug, no "
     "hot reload), or report it to the profiler's authors."},
    {HR(0x80131515), "DS_IPC_E_NOTSUPPORTED",
     "This runtime was built without profiler support (NativeAOT, some Mono builds), so it "
     "refuses every profiler command (same value as COR_E_NOTSUPPORTED).",
     "No profiler can attach to this process; use EventPipe (dotnet-trace) instead, or a "
     "CoreCLR (JIT) build of the application."},
    {HR(0x80131604), "COR_E_TARGETINVOCATION",
     "Code the runtime ran for the request threw: on .NET 8 the startup hook's Initialize "
     "threw, and the runtime answered this instead of ending the process (9+ ends it).",
     "Check the hook's exception (run the app with the hook in DOTNET_STARTUP_HOOKS to see it); "
     "the target keeps running without the hook."},
};

/* Fixed sentences, not formatted ones: the header promises no global state, so there is no
 * buffer to print the code into; callers show the hex value next to these. */
static const char win32_meaning[] =
    "A Windows/PAL error code this table does not know: in 0x8007xxxx the low 16 bits xxxx "
    "are a Win32 error number, set by the runtime's OS layer or returned by the profiler.";
static const char win32_hint[] =
    "Look up the low 16 bits as a Win32 error number, then check the profiler's log and the "
    "target's stderr for the file or call that failed.";
static const char failure_meaning[] =
    "A failure code this table does not know; it was probably returned by the profiler's own "
    "InitializeForAttach and passed back unchanged.";
static const char failure_hint[] =
    "Look the code up in the profiler's log or documentation; the runtime has already "
    "unloaded the profiler, so fix the cause and attach again.";
static const char success_meaning[] =
    "A success code this table does not know; the runtime only answers a completed attach "
    "with S_OK.";
static const char success_hint[] = "Nothing failed; no action is needed.";

/* Linear search: about seventy entries, looked up once per failed attach, so no index. */
const clra_hresult_info_t *clra__hresult_table_lookup(int32_t hr)
{
    for (size_t i = 0; i < sizeof hresult_table / sizeof hresult_table[0]; i++) {
        if (hresult_table[i].value == hr)
            return &hresult_table[i];
    }
    return NULL;
}

/* Severity bit plus FACILITY_WIN32, the form HRESULT_FROM_WIN32 produces. */
static int is_win32_failure(int32_t hr)
{
    return ((uint32_t)hr & 0xFFFF0000u) == 0x80070000u;
}

/* Never NULL, so callers can print it without a check. */
const char *clra_hresult_name(int32_t hr)
{
    const clra_hresult_info_t *info = clra_hresult_lookup(hr);
    return info ? info->name : "UNKNOWN_HRESULT";
}

/* Unknown codes still get a sentence that says where such a code most likely came from. */
const char *clra_hresult_describe(int32_t hr)
{
    const clra_hresult_info_t *info = clra_hresult_lookup(hr);
    if (info)
        return info->meaning;
    if (hr >= 0)
        return success_meaning;
    return is_win32_failure(hr) ? win32_meaning : failure_meaning;
}

/* Same fallbacks as clra_hresult_describe, so meaning and hint always pair up. */
const char *clra_hresult_hint(int32_t hr)
{
    const clra_hresult_info_t *info = clra_hresult_lookup(hr);
    if (info)
        return info->hint;
    if (hr >= 0)
        return success_hint;
    return is_win32_failure(hr) ? win32_hint : failure_hint;
}
