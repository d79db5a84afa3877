/* clrprof.h - libclrprof, the SDK for writing CoreCLR profilers in C: the one header to include.
 *
 * Link the static library (libclrprof.a) into the profiler's shared object; every SDK name is
 * clrprof_* / CLRPROF_*. The SDK has three layers, included below from the bottom up:
 *
 *   1. Raw profiling API: clrprof/corprof.h (+ clrprof/cormeta.h). The CoreCLR interfaces
 *      themselves in C, with no library code behind them.
 *   2. COM plumbing: clrprof/clrprof_com.h. A refcounted profiler object, QueryInterface for
 *      IUnknown and ICorProfilerCallback..N, the class factory behind DllGetClassObject.
 *   3. Profiler definition: clrprof/clrprof_profiler.h. A clrprof_def_t (name, CLSID, event
 *      masks, lifecycle hooks, the callbacks you care about) exported with CLRPROF_DEFINE.
 *
 * Start with layer 3 (docs/writing-a-profiler.md walks through it; profilers/hello/hello.c is
 * an example). The SDK then owns Initialize, InitializeForAttach, ProfilerAttachComplete,
 * ProfilerDetachSucceeded, Shutdown and LoadAsNotificationOnly, sets the event mask, and joins
 * the profiler's threads before the runtime unloads it; inside callbacks you still call the
 * runtime through the layer-1 interfaces (clrprof_info(p), CLRPROF_INFO(p, N)).
 *
 * Drop to layer 2 when you must own those lifecycle callbacks yourself, or admit fewer
 * callback levels than 11 (tests/profilers/noattach.c stops at Callback2, refuse.c writes its
 * own InitializeForAttach). Drop to layer 1 alone, with clrprof_fill_default_callbacks()
 * below, for a profiler that keeps its own vtable, QueryInterface and reference count and links
 * no SDK code but that function. Either way you take on what layer 3 did: every slot filled,
 * one flat vtable for all levels, atomic AddRef/Release, and no thread of yours left running
 * once ProfilerDetachSucceeded returns (docs/profiling-api.md §0, §3.3, §4.1).
 *
 * The headers, one line each:
 *   corprof.h           the profiling API in C; includes the five below in order
 *   corprof_types.h     scalars (LP64 PAL sizes), GUIDs, HRESULTs, COR_PRF_* flags, structs
 *   corprof_misc.h      IUnknown, IClassFactory, the enumerators and the other small interfaces
 *   corprof_callback.h  ICorProfilerCallback..11, the interface a profiler implements
 *   corprof_info.h      ICorProfilerInfo..15, the interface the runtime implements
 *   corprof_checks.h    compile-time checks of every slot number and struct size
 *   cormeta.h           IMetaDataImport and token helpers, for naming functions and types
 *   clrprof_util.h      UTF-16 <-> UTF-8, hex, and "key=value;..." option parsing
 *   clrprof_com.h       layer 2: clrprof_object_t, QueryInterface, class factory
 *   clrprof_profiler.h  layer 3: clrprof_def_t, CLRPROF_DEFINE, logging, threads, detach
 *   clrprof.h           this umbrella, plus clrprof_fill_default_callbacks()
 *
 * Valid C11 and C++. Facts behind the interfaces: docs/profiling-api.md.
 */
#ifndef CLRPROF_CLRPROF_H
#define CLRPROF_CLRPROF_H

/* Layer 1: the raw profiling API and the metadata interface. */
#include "corprof.h"
#include "cormeta.h"
/* Helpers any layer may use. */
#include "clrprof_util.h"
/* Layer 2: COM plumbing. */
#include "clrprof_com.h"
/* Layer 3: a profiler as one struct of callbacks. */
#include "clrprof_profiler.h"
#include "clrprof_signature.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Fills callback slots 3..97 of vtbl with stubs that do nothing and return S_OK, so a
 * profiler only writes the callbacks it cares about and no slot the runtime may call is
 * NULL. A few stubs also answer their out-parameter (each only when the pointer is non-NULL):
 *   LoadAsNotificationOnly          *pbNotificationOnly = FALSE  (load as the main profiler)
 *   JITCachedFunctionSearchStarted  *pbUseCachedFunction = TRUE  (keep precompiled code)
 *   JITInlining                     *pfShouldInline = TRUE       (do not block inlining)
 * Slots 0..2 (QueryInterface, AddRef, Release) are left untouched: the profiler provides
 * them. Call it first, then override. Does nothing if vtbl is NULL. */
void clrprof_fill_default_callbacks(ICorProfilerCallback11Vtbl *vtbl);

#ifdef __cplusplus
}
#endif

#endif
