/* frame_names.c - a frame's name: Namespace.Outer+Inner.Method from the SDK, then the generic
 * arguments the runtime knows for this FunctionID: the class's (Type[int]) and the method's
 * (Method[string]). Code shared by reference-type instantiations is one FunctionID, so those
 * arguments read System.__Canon: the walk has no exact instantiation without frame info. */
#include "sampler.h"

#include "clrprof/clrprof_signature.h"

#include <stdio.h>
#include <string.h>

#define MAX_TYPE_ARGS 8

/* Appends "[A,B]" naming each ClassID (depth-limited: an argument's own arguments are not
 * written). */
static void append_args(clrprof_profiler_t *p, const ClassID *args, ULONG32 n, char *out,
                        size_t cap)
{
    size_t len = strlen(out);
    char name[512];
    if (n == 0 || len + 2 >= cap)
        return;
    out[len++] = '[';
    for (ULONG32 i = 0; i < n && i < MAX_TYPE_ARGS; i++) {
        ModuleID module = 0;
        mdTypeDef td = 0;
        ICorProfilerInfo15 *info = clrprof_info(p);
        HRESULT hr = info->lpVtbl->GetClassIDInfo2(info, args[i], &module, &td, NULL, 0, NULL,
                                                   NULL);
        if (FAILED(hr) || FAILED(clrprof_type_name(p, module, td, name, sizeof name)))
            snprintf(name, sizeof name, "?");
        len += (size_t)snprintf(out + len, cap - len, "%s%s", i ? "," : "", name);
        if (len >= cap)
            return;
    }
    snprintf(out + len, cap - len, "]");
}

/* The '.' that separates the method from its type ("Type..ctor" separates at the first). */
static char *method_dot(char *name)
{
    char *dot = strrchr(name, '.');
    if (dot && dot > name && dot[-1] == '.')
        dot--;
    return dot;
}

HRESULT sampler_frame_name(clrprof_profiler_t *p, FunctionID id, char *out, size_t cap)
{
    HRESULT hr = clrprof_function_name(p, id, out, cap);
    if (FAILED(hr))
        return hr;
    ICorProfilerInfo15 *info = clrprof_info(p);
    ClassID klass = 0, margs[MAX_TYPE_ARGS], cargs[MAX_TYPE_ARGS];
    ModuleID module = 0;
    mdToken token = 0;
    ULONG32 nm = 0, nc = 0;
    if (FAILED(info->lpVtbl->GetFunctionInfo2(info, id, 0, &klass, &module, &token,
                                              MAX_TYPE_ARGS, &nm, margs)))
        nm = 0;
    if (!klass || FAILED(info->lpVtbl->GetClassIDInfo2(info, klass, NULL, NULL, NULL,
                                                       MAX_TYPE_ARGS, &nc, cargs)))
        nc = 0;
    if (nm > MAX_TYPE_ARGS)
        nm = MAX_TYPE_ARGS;
    if (nc > MAX_TYPE_ARGS)
        nc = MAX_TYPE_ARGS;
    if (nc) {
        char method[1024], *dot = method_dot(out);
        if (dot) {
            snprintf(method, sizeof method, "%s", dot);
            *dot = '\0';
            append_args(p, cargs, nc, out, cap);
            size_t len = strlen(out);
            snprintf(out + len, cap - len, "%s", method);
        }
    }
    append_args(p, margs, nm, out, cap);
    return hr;
}

/* The module's file name without ".dll"/".exe", as dotnet-stack names it. */
static void module_of(clrprof_profiler_t *p, FunctionID id, char *out, size_t cap)
{
    ICorProfilerInfo15 *info = clrprof_info(p);
    ModuleID module = 0;
    ClassID klass = 0;
    mdToken token = 0;
    if (FAILED(info->lpVtbl->GetFunctionInfo(info, id, &klass, &module, &token)) ||
        FAILED(clrprof_module_name(p, module, out, cap))) {
        snprintf(out, cap, "?");
        return;
    }
    size_t n = strlen(out);
    if (n > 4 && (strcmp(out + n - 4, ".dll") == 0 || strcmp(out + n - 4, ".exe") == 0))
        out[n - 4] = '\0';
}

HRESULT sampler_frame_signed_name(clrprof_profiler_t *p, FunctionID id, char *out, size_t cap)
{
    char module[256], sig[1024];
    module_of(p, id, module, sizeof module);
    size_t len = (size_t)snprintf(out, cap, "%s!", module);
    if (len >= cap)
        return E_OUTOFMEMORY;
    HRESULT hr = sampler_frame_name(p, id, out + len, cap - len);
    if (FAILED(hr))
        return hr;
    clrprof_function_signature(p, id, sig, sizeof sig);
    len = strlen(out);
    snprintf(out + len, cap - len, "%s", sig);
    return hr;
}
