/* corprof.h - the CoreCLR unmanaged profiling API in plain C (C11 or C++), for Linux x64.
 *
 * Include this one header. It pulls in, in dependency order:
 *   corprof_types.h     scalar types, GUIDs, HRESULTs, COR_PRF_* flags and enums, structs,
 *                       callback function types
 *   corprof_misc.h      IUnknown, IClassFactory, the enumerators, IMethodMalloc,
 *                       ICorProfilerFunctionControl, ICorProfilerAssemblyReferenceProvider,
 *                       ICLRProfiling
 *   corprof_callback.h  ICorProfilerCallback .. ICorProfilerCallback11 (profiler implements)
 *   corprof_info.h      ICorProfilerInfo .. ICorProfilerInfo15 (runtime implements)
 *   corprof_checks.h    compile-time layout checks
 * The metadata interface used to name functions is separate: clrprof/cormeta.h.
 *
 * Using it:
 *   - A profiler object is any struct whose first member is
 *     `const ICorProfilerCallback11Vtbl *lpVtbl` (or a lower level). Fill one static vtable
 *     with clrprof_fill_default_callbacks() (clrprof/clrprof.h), then override the slots
 *     you care about and supply QueryInterface/AddRef/Release.
 *   - Call the runtime through the interface: `info->lpVtbl->SetEventMask2(info, lo, hi)`.
 *   - IIDs are `static const IID IID_<Interface>`; pass their address where the C++ API
 *     takes REFIID.
 *   - Strings are UTF-16 (WCHAR, 2 bytes); never use wchar_t with this API on Linux.
 */
#ifndef CLRPROF_CORPROF_H
#define CLRPROF_CORPROF_H

#include "corprof_types.h"
#include "corprof_misc.h"
#include "corprof_callback.h"
#include "corprof_info.h"

#include "corprof_checks.h"

#endif
