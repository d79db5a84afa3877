/* clrprof.h - libclrprof, the SDK for writing CoreCLR profilers in C.
 *
 * Link the static library into the profiler's shared object. Names are clrprof_*.
 */
#ifndef CLRPROF_CLRPROF_H
#define CLRPROF_CLRPROF_H

#include "corprof.h"

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
