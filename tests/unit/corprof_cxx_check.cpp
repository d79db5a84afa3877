// corprof_cxx_check.cpp - proves the C profiling headers are also valid C++ (compiled only).
#include "clrprof/corprof.h"
#include "clrprof/cormeta.h"
#include "clrprof/clrprof.h"

// Reads the event mask through a typed Info3 pointer, as a C++ profiler would.
extern "C" HRESULT clrprof_cxx_check_event_mask(ICorProfilerInfo3 *info, DWORD *mask)
{
    return info->lpVtbl->GetEventMask(info, mask);
}
