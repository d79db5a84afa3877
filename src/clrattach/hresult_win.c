/* hresult_win.c - clra_hresult_lookup on Windows, with its own sentences (hresult_platform.h). */
#include "hresult_platform.h"

#define HR(v) ((int32_t)(uint32_t)(v))

/* On Windows the runtime loads a profiler with LoadLibrary, not dlopen, and paths have no
 * mount namespace: the loader's codes get Windows sentences (looked up before the table).
 * The .NET Framework's attach API (ICLRProfiling::AttachProfiler, seed 000) answers with codes
 * of its own or gives common ones another sense: those entries say what each means there, and
 * what it means from a .NET (Core) runtime's pipe where it can come from both. */
static const clra_hresult_info_t windows_table[] = {
    {HR(0x80004005), "E_FAIL",
     "Unspecified failure: from the .NET Framework attach API some step failed without a "
     "better code; from a profiler's InitializeForAttach, it refused for a reason of its own.",
     "Read the profiler's own log and the Windows Application event log (the .NET Runtime "
     "source writes attach failures there), fix the cause and attach again."},
    {HR(0x80070002), "ERROR_FILE_NOT_FOUND",
     "From the .NET Framework attach API: the target process does not exist or does not run a "
     "CLR that supports attach (it may have unloaded since it was listed); from a profiler: a "
     "file it needs is missing.",
     "Check the process still runs and has clr.dll (.NET Framework 4) loaded (`clrattach ps`); "
     "else find the missing file in the profiler's log (paths are the target's)."},
    {HR(0x80070005), "E_ACCESSDENIED",
     "Access denied: this user may not attach to the target process (the .NET Framework "
     "attach API allows only the process's own user, or an administrator), or the target was "
     "denied a file it opened for the profiler.",
     "Run clrattach as the target's user or from an elevated prompt; check that the target's "
     "user may read the profiler DLL and its directory."},
    {HR(0x80070057), "E_INVALIDARG",
     "An argument was rejected: by the .NET Framework attach API (a CLSID, path or client data "
     "it will not take), by a runtime's StartupProfiler outside a startup pause, or by the "
     "profiler for client data it does not accept.",
     "Check --clsid, the path (clrattach already refuses one over 260 characters for the .NET "
     "Framework) and the client data format the profiler documents."},
    {HR(0x80070522), "ERROR_PRIVILEGE_NOT_HELD",
     "The .NET Framework attach API found that this user lacks a privilege needed to attach a "
     "profiler to the target (the Application event log may say which).",
     "Run clrattach from an elevated prompt, or as the target's own user; read the Windows "
     "Application event log for the .NET Runtime's entry about the attach."},
    {HR(0x800705B4), "ERROR_TIMEOUT",
     "The .NET Framework attach API's timeout (dwMillisecondsMax: --attach-timeout, cut to what "
     "is left of --timeout) passed before the profiler began to load, for instance while a "
     "finalizer in the target ran long.",
     "Attach again, with a longer --attach-timeout and --timeout; the target was left "
     "unchanged."},
    {HR(0x8007007E), "ERROR_MOD_NOT_FOUND",
     "The runtime's LoadLibrary of the profiler failed: no file at that path, or a DLL it "
     "imports was not found on the target's DLL search path.",
     "The path is resolved inside the target process (its working directory, its drive "
     "mappings): check it from there, list the DLL's imports (`objdump -p LIB.dll | grep 'DLL Name'` or dumpbin "
     "/dependents) and put the missing DLLs beside it or link them statically."},
    {HR(0x8007007F), "ERROR_PROC_NOT_FOUND",
     "The DLL was loaded but GetProcAddress found no exported DllGetClassObject in it.",
     "Export it (__declspec(dllexport) or a .def file) with C linkage and check with `objdump "
     "-p LIB.dll` that DllGetClassObject is in its export table."},
    {HR(0x800700C1), "ERROR_BAD_EXE_FORMAT",
     "The file is not a DLL this process can load: built for another CPU or word size (a "
     "32-bit DLL in a 64-bit process, or the reverse), or not a PE file at all.",
     "Use the profiler build that matches the target's bitness (x64 for a 64-bit .NET)."},
    {HR(0x80131368), "CORPROF_E_PROFILER_NOT_ATTACHABLE",
     "The profiler cannot be attached: it does not implement ICorProfilerCallback3, or its "
     "InitializeForAttach returned E_NOTIMPL (or this code), which the attach API reports as "
     "this code.",
     "Use a profiler build that supports attach (InitializeForAttach, ICorProfilerCallback3), "
     "or load it at startup: COR_ENABLE_PROFILING=1, COR_PROFILER and COR_PROFILER_PATH for "
     "the .NET Framework, the CORECLR_ variables for .NET (Core)."},
    {HR(0x8013136B), "CORPROF_E_PROFILEE_INCOMPATIBLE_WITH_TRIGGER",
     "The .NET Framework attach API found the target process incompatible with this trigger "
     "process (clrattach): a runtime version or bitness the trigger cannot attach to.",
     "Run a clrattach build of the target's bitness (x86 for a 32-bit process) on the same "
     "machine; the target must run the .NET Framework 4 or later."},
    {HR(0x8013136C), "CORPROF_E_IPC_FAILED",
     "The .NET Framework attach API could not communicate with the target process; this "
     "commonly happens when the process is shutting down.",
     "Check that the process still runs and is not exiting, then attach again."},
    {HR(0x8013136D), "CORPROF_E_PROFILEE_PROCESS_NOT_FOUND",
     "The .NET Framework attach API could not find the target process.",
     "Check the pid (`clrattach ps`, Task Manager): the process may have exited."},
};

/* The Windows table first: its entries say what a code means on Windows. */
const clra_hresult_info_t *clra_hresult_lookup(int32_t hr)
{
    for (size_t i = 0; i < sizeof windows_table / sizeof windows_table[0]; i++) {
        if (windows_table[i].value == hr)
            return &windows_table[i];
    }
    return clra__hresult_table_lookup(hr);
}
