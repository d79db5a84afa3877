/* names.c - "Namespace.Type.Method" for a FunctionID, read from the function's metadata
 * (docs/profiling-api.md 4.3: GetTokenAndMetaDataFromFunction, GetMethodProps,
 * GetTypeDefProps, GetNestedClassProps). */
#include "clrprof/clrprof_profiler.h"
#include "clrprof/clrprof_signature.h"
#include "clrprof/clrprof_util.h"
#include "clrprof/cormeta.h"
#include "common/utf.h"

#include <stdio.h>
#include <string.h>

/* Enclosing types followed outwards; a deeper chain (or a cycle in corrupt metadata) keeps its
 * innermost levels and is reported as truncated. */
#define MAX_NESTING 16
/* UTF-16 units read for one name; the runtime caps type names at 1024 (MAX_CLASSNAME_LENGTH). */
#define NAME_UNITS 1024

/* The caller's buffer being filled; once something did not fit, nothing more is appended, so
 * a later short piece cannot make a cut name look whole. */
typedef struct name_buf {
    char *out;
    size_t cap;
    size_t len;
    int truncated;
} name_buf_t;

/* Appends one ASCII separator if it fits with the NUL. */
static void put_char(name_buf_t *b, char c)
{
    if (b->truncated || b->len + 1 >= b->cap) {
        b->truncated = 1;
        return;
    }
    b->out[b->len++] = c;
    b->out[b->len] = '\0';
}

/* Appends a metadata name (n units, stopping at a NUL) as UTF-8, cut at a character boundary. */
static void put_name(name_buf_t *b, const WCHAR *s, ULONG n)
{
    size_t units = 0;
    while (units < n && units < NAME_UNITS && s[units])
        units++;
    if (b->truncated)
        return;
    size_t need = utf__utf16_to_utf8(s, units, NULL, 0);
    size_t wrote = clrprof_utf16_to_utf8(s, units, b->out + b->len, b->cap - b->len);
    b->len += wrote;
    b->truncated = wrote < need;
}

/* Fills chain with td and its enclosing types, innermost first; returns how many. Top-level
 * types have no NestedClass row, so GetNestedClassProps fails for them: that ends the walk. */
static size_t type_chain(IMetaDataImport *md, mdTypeDef td, mdTypeDef chain[MAX_NESTING],
                         int *cut)
{
    size_t depth = 0;
    while (TypeFromToken(td) == mdtTypeDef && !IsNilToken(td)) {
        if (depth == MAX_NESTING) {
            *cut = 1;
            break;
        }
        chain[depth++] = td;
        mdTypeDef outer = mdTypeDefNil;
        if (FAILED(md->lpVtbl->GetNestedClassProps(md, td, &outer)))
            break;
        td = outer;
    }
    return depth;
}

/* Appends one type's name: the namespace-qualified one for the outermost type, the simple
 * one for a nested type (nested types have no namespace of their own). */
static HRESULT put_type(IMetaDataImport *md, mdTypeDef td, name_buf_t *b, int *cut)
{
    WCHAR name[NAME_UNITS];
    ULONG n = 0;
    DWORD flags = 0;
    mdToken base = mdTokenNil;
    HRESULT hr = md->lpVtbl->GetTypeDefProps(md, td, name, NAME_UNITS, &n, &flags, &base);
    if (FAILED(hr))
        return hr;
    *cut |= hr == CLDB_S_TRUNCATION;
    put_name(b, name, n);
    return S_OK;
}

/* Writes Outer+Inner.Method for a method token into b. */
static HRESULT put_method(IMetaDataImport *md, mdMethodDef method, name_buf_t *b)
{
    WCHAR name[NAME_UNITS];
    ULONG n = 0, sig_len = 0, rva = 0;
    DWORD attr = 0, impl = 0;
    PCCOR_SIGNATURE sig = NULL;
    mdTypeDef owner = mdTypeDefNil, chain[MAX_NESTING];
    int cut = 0;
    HRESULT hr = md->lpVtbl->GetMethodProps(md, method, &owner, name, NAME_UNITS, &n, &attr,
                                            &sig, &sig_len, &rva, &impl);
    if (FAILED(hr))
        return hr;
    cut = hr == CLDB_S_TRUNCATION;
    size_t depth = type_chain(md, owner, chain, &cut);
    for (size_t i = depth; i > 0; i--) {
        if (i < depth)
            put_char(b, '+');
        if (FAILED(hr = put_type(md, chain[i - 1], b, &cut)))
            return hr;
    }
    if (depth > 0)
        put_char(b, '.');
    put_name(b, name, n);
    return cut || b->truncated ? CLDB_S_TRUNCATION : S_OK;
}

/* clrprof_function_name on an explicit Info pointer, so unit tests can hand in a fake one.
 * A name cut to fit (or a chain deeper than MAX_NESTING) is a success: CLDB_S_TRUNCATION. */
HRESULT clrprof__function_name_with(ICorProfilerInfo15 *info, FunctionID fn, char *out,
                                     size_t cap)
{
    if (!out || cap == 0)
        return E_INVALIDARG;
    name_buf_t b = {out, cap, 0, 0};
    IUnknown *unk = NULL;
    mdToken token = mdTokenNil;
    out[0] = '\0';
    HRESULT hr = info ? info->lpVtbl->GetTokenAndMetaDataFromFunction(
                            info, fn, &IID_IMetaDataImport, &unk, &token)
                      : E_UNEXPECTED;
    if (SUCCEEDED(hr) && !unk)
        hr = E_UNEXPECTED; /* S_FALSE without an import: nothing to read names from */
    if (SUCCEEDED(hr))
        hr = put_method((IMetaDataImport *)unk, (mdMethodDef)token, &b);
    if (unk)
        unk->lpVtbl->Release(unk);
    if (FAILED(hr)) {
        out[0] = cap > 1 ? '?' : '\0';
        out[cap > 1 ? 1 : 0] = '\0';
    }
    return hr;
}

HRESULT clrprof_function_name(clrprof_profiler_t *p, FunctionID fn, char *out, size_t cap)
{
    return clrprof__function_name_with(p ? clrprof_info(p) : NULL, fn, out, cap);
}

/* Writes Namespace.Outer+Inner for a type definition of a module, through the module's
 * metadata; the same nesting rules as put_method. */
HRESULT clrprof_type_name(clrprof_profiler_t *p, ModuleID module, mdTypeDef td, char *out,
                          size_t cap)
{
    ICorProfilerInfo15 *info = p ? clrprof_info(p) : NULL;
    if (!out || cap == 0)
        return E_INVALIDARG;
    name_buf_t b = {out, cap, 0, 0};
    IUnknown *unk = NULL;
    mdTypeDef chain[MAX_NESTING];
    int cut = 0;
    out[0] = '\0';
    HRESULT hr = info ? info->lpVtbl->GetModuleMetaData(info, module, ofRead, &IID_IMetaDataImport,
                                                        &unk)
                      : E_UNEXPECTED;
    if (SUCCEEDED(hr) && !unk)
        hr = E_UNEXPECTED;
    if (SUCCEEDED(hr)) {
        IMetaDataImport *md = (IMetaDataImport *)unk;
        size_t depth = type_chain(md, td, chain, &cut);
        for (size_t i = depth; i > 0 && SUCCEEDED(hr); i--) {
            if (i < depth)
                put_char(&b, '+');
            hr = put_type(md, chain[i - 1], &b, &cut);
        }
        if (SUCCEEDED(hr) && depth == 0)
            hr = E_INVALIDARG;
    }
    if (unk)
        unk->lpVtbl->Release(unk);
    if (FAILED(hr)) {
        out[0] = cap > 1 ? '?' : '\0';
        out[cap > 1 ? 1 : 0] = '\0';
        return hr;
    }
    return cut || b.truncated ? CLDB_S_TRUNCATION : S_OK;
}

/* A signature's type token named through md: a TypeDef as clrprof_type_name names it, a
 * TypeRef by its namespace-qualified name, Outer+Inner for a TypeRef nested in another. */
static int token_name(void *ctx, uint32_t token, char *out, size_t cap)
{
    IMetaDataImport *md = ctx;
    name_buf_t b = {out, cap, 0, 0};
    mdTypeDef chain[MAX_NESTING];
    int cut = 0;
    out[0] = '\0';
    if (TypeFromToken(token) == mdtTypeDef) {
        size_t depth = type_chain(md, token, chain, &cut);
        for (size_t i = depth; i > 0; i--) {
            if (i < depth)
                put_char(&b, '+');
            if (FAILED(put_type(md, chain[i - 1], &b, &cut)))
                return -1;
        }
        return depth ? 0 : -1;
    }
    if (TypeFromToken(token) != mdtTypeRef)
        return -1;
    WCHAR name[NAME_UNITS];
    ULONG n = 0;
    mdToken scope = mdTokenNil;
    if (FAILED(md->lpVtbl->GetTypeRefProps(md, token, &scope, name, NAME_UNITS, &n)))
        return -1;
    if (TypeFromToken(scope) == mdtTypeRef && token_name(ctx, scope, out, cap) == 0) {
        b.len = strlen(out);
        put_char(&b, '+');
    }
    put_name(&b, name, n);
    return 0;
}

HRESULT clrprof_function_signature(clrprof_profiler_t *p, FunctionID fn, char *out, size_t cap)
{
    ICorProfilerInfo15 *info = p ? clrprof_info(p) : NULL;
    IUnknown *unk = NULL;
    mdToken token = mdTokenNil;
    if (!out || cap < 4)
        return E_INVALIDARG;
    HRESULT hr = info ? info->lpVtbl->GetTokenAndMetaDataFromFunction(
                            info, fn, &IID_IMetaDataImport, &unk, &token)
                      : E_UNEXPECTED;
    if (SUCCEEDED(hr) && !unk)
        hr = E_UNEXPECTED;
    PCCOR_SIGNATURE sig = NULL;
    ULONG sig_len = 0, n = 0, rva = 0;
    DWORD attr = 0, impl = 0;
    mdTypeDef owner = mdTypeDefNil;
    if (SUCCEEDED(hr))
        hr = ((IMetaDataImport *)unk)->lpVtbl->GetMethodProps((IMetaDataImport *)unk, token,
                                                               &owner, NULL, 0, &n, &attr, &sig,
                                                               &sig_len, &rva, &impl);
    if (SUCCEEDED(hr))
        clrprof__sig_params(sig, sig_len, token_name, unk, out, cap);
    else
        snprintf(out, cap, "(?)");
    if (unk)
        unk->lpVtbl->Release(unk);
    return FAILED(hr) ? hr : S_OK;
}
