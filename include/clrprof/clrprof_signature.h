/* clrprof_signature.h - a method's parameters as text, "(int32,class System.String[])": the
 * spelling dotnet-stack and ILDasm use, decoded from the metadata signature blob. */
#ifndef CLRPROF_SIGNATURE_H
#define CLRPROF_SIGNATURE_H

#include "clrprof_profiler.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Names a TypeDef, TypeRef or TypeSpec token into out ("System.Threading.CancellationToken");
 * 0, or nonzero when it cannot (the type is then written "?"). */
typedef int (*clrprof_sig_namer_t)(void *ctx, uint32_t token, char *out, size_t cap);

/* The parameter list of method signature sig[0..len) into out (at least 4 bytes), parenthesised;
 * 0, 1 when the blob was corrupt or the text did not fit (the text then ends "?)"), -1 for bad
 * arguments. Pure: no runtime call, so it can be tested on hand-made blobs. */
int clrprof__sig_params(const uint8_t *sig, size_t len, clrprof_sig_namer_t namer, void *ctx,
                        char *out, size_t cap);

/* The parameter list of a FunctionID's method, as clrprof__sig_params writes it, with types
 * named through the method's module metadata. S_OK, or the failing HRESULT with "(?)" in out. */
HRESULT clrprof_function_signature(clrprof_profiler_t *p, FunctionID fn, char *out, size_t cap);

#ifdef __cplusplus
}
#endif

#endif
