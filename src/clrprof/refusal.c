/* refusal.c - what each RequestProfilerDetach answer means, in words a profiler author can act on. */
#include "clrprof/clrprof_profiler.h"

typedef struct refusal {
    HRESULT hr;
    const char *text;
} refusal_t;

static const refusal_t refusals[] = {
    {S_OK, "detach requested; the runtime unloads the profiler once no callback is running"},
    {CORPROF_E_CALLBACK3_REQUIRED,
     "CORPROF_E_CALLBACK3_REQUIRED: the profiler does not implement ICorProfilerCallback3, "
     "which detaching needs"},
    {CORPROF_E_IMMUTABLE_FLAGS_SET,
     "CORPROF_E_IMMUTABLE_FLAGS_SET: the event mask holds a flag that can never be turned off "
     "(set at startup), so the profiler must stay until the process exits"},
    {CORPROF_E_IRREVERSIBLE_INSTRUMENTATION_PRESENT,
     "CORPROF_E_IRREVERSIBLE_INSTRUMENTATION_PRESENT: the profiler rewrote IL, used ReJIT or "
     "enter/leave hooks, so code it generated may still run; it cannot detach"},
    {CORPROF_E_RUNTIME_UNINITIALIZED,
     "CORPROF_E_RUNTIME_UNINITIALIZED: the runtime has not finished starting; ask again later"},
    {CORPROF_E_UNSUPPORTED_CALL_SEQUENCE,
     "CORPROF_E_UNSUPPORTED_CALL_SEQUENCE: called from a place the runtime forbids (an "
     "unmanaged-only context); call it from a profiler thread"},
    {CORPROF_E_PROFILER_NOT_YET_INITIALIZED,
     "CORPROF_E_PROFILER_NOT_YET_INITIALIZED: still inside Initialize/InitializeForAttach; "
     "request detach from ProfilerAttachComplete or later"},
    {CLRPROF_E_KEPT_LOADED,
     "the profiler stays loaded (clrprof_keep_loaded, or it is notification-only and a main "
     "profiler has detached from this process): such a detach crashes .NET 10"},
    {CORPROF_E_PROFILER_DETACHING,
     "CORPROF_E_PROFILER_DETACHING: a detach is already under way; wait for it to finish"},
};

const char *clrprof_detach_refusal(HRESULT hr)
{
    for (size_t i = 0; i < sizeof refusals / sizeof refusals[0]; i++)
        if (refusals[i].hr == hr)
            return refusals[i].text;
    return hr == CLRPROF_E_TIMEOUT
               ? "the SDK's service thread did not answer within 5 s"
               : "the runtime refused the detach with an HRESULT RequestProfilerDetach does not document";
}
