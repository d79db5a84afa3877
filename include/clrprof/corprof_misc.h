/* corprof_misc.h - the small COM interfaces around the profiling API: IUnknown, IClassFactory,
 * the five enumerators, IMethodMalloc, ICorProfilerFunctionControl,
 * ICorProfilerAssemblyReferenceProvider and ICLRProfiling.
 *
 * Include clrprof/corprof.h rather than this file directly.
 *
 * Binding shape (used by every interface of clrprof): `struct IFoo { const IFooVtbl *lpVtbl; }`;
 * the vtable is a flat struct of function pointers starting with IUnknown's three, each
 * taking the interface pointer (`This`) first. Call as `p->lpVtbl->Method(p, ...)`.
 */
#ifndef CLRPROF_CORPROF_MISC_H
#define CLRPROF_CORPROF_MISC_H

#include "corprof_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* IUnknown's slots 0..2, declared for interface type T. Every vtable starts with these. */
#define CLRPROF_IUNKNOWN_METHODS(T)                                                               \
    HRESULT (*QueryInterface)(T *This, REFIID riid, void **ppvObject);                            \
    ULONG (*AddRef)(T *This);                                                                     \
    ULONG (*Release)(T *This);

/* Declares interface I: the struct holding lpVtbl, which points at a `struct IVtbl`. */
#define CLRPROF_DECLARE_INTERFACE(I)                                                              \
    typedef struct I I;                                                                           \
    struct I {                                                                                    \
        const struct I##Vtbl *lpVtbl;                                                             \
    };

/* ---- IUnknown -------------------------------------------------------------------------- */

CLRPROF_UNUSED static const IID IID_IUnknown =
    {0x00000000, 0x0000, 0x0000, {0xC0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x46}};

CLRPROF_DECLARE_INTERFACE(IUnknown)
typedef struct IUnknownVtbl {
    CLRPROF_IUNKNOWN_METHODS(IUnknown)
} IUnknownVtbl;

/* ---- IClassFactory (what DllGetClassObject hands out) ----------------------------------- */

CLRPROF_UNUSED static const IID IID_IClassFactory =
    {0x00000001, 0x0000, 0x0000, {0xC0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x46}};

CLRPROF_DECLARE_INTERFACE(IClassFactory)
typedef struct IClassFactoryVtbl {
    CLRPROF_IUNKNOWN_METHODS(IClassFactory)
    HRESULT (*CreateInstance)(IClassFactory *This, IUnknown *pUnkOuter, REFIID riid,
                              void **ppvObject);
    HRESULT (*LockServer)(IClassFactory *This, BOOL fLock);
} IClassFactoryVtbl;

/* ---- Enumerators --------------------------------------------------------------------------
 * All five have the same shape; only the element type differs. The runtime hands them out
 * with one reference: Release them when done. */

#define CLRPROF_ENUM_METHODS(T, ELEM)                                                             \
    HRESULT (*Skip)(T *This, ULONG celt);                                                         \
    HRESULT (*Reset)(T *This);                                                                    \
    HRESULT (*Clone)(T *This, T **ppEnum);                                                        \
    HRESULT (*GetCount)(T *This, ULONG *pcelt);                                                   \
    HRESULT (*Next)(T *This, ULONG celt, ELEM elements[], ULONG *pceltFetched);

CLRPROF_UNUSED static const IID IID_ICorProfilerObjectEnum =
    {0x2C6269BD, 0x2D13, 0x4321, {0xAE, 0x12, 0x66, 0x86, 0x36, 0x5F, 0xD6, 0xAF}};

CLRPROF_DECLARE_INTERFACE(ICorProfilerObjectEnum)
typedef struct ICorProfilerObjectEnumVtbl {
    CLRPROF_IUNKNOWN_METHODS(ICorProfilerObjectEnum)
    CLRPROF_ENUM_METHODS(ICorProfilerObjectEnum, ObjectID)
} ICorProfilerObjectEnumVtbl;

CLRPROF_UNUSED static const IID IID_ICorProfilerFunctionEnum =
    {0xFF71301A, 0xB994, 0x429D, {0xA1, 0x0B, 0xB3, 0x45, 0xA6, 0x52, 0x80, 0xEF}};

CLRPROF_DECLARE_INTERFACE(ICorProfilerFunctionEnum)
typedef struct ICorProfilerFunctionEnumVtbl {
    CLRPROF_IUNKNOWN_METHODS(ICorProfilerFunctionEnum)
    CLRPROF_ENUM_METHODS(ICorProfilerFunctionEnum, COR_PRF_FUNCTION)
} ICorProfilerFunctionEnumVtbl;

CLRPROF_UNUSED static const IID IID_ICorProfilerModuleEnum =
    {0xB0266D75, 0x2081, 0x4493, {0xAF, 0x7F, 0x02, 0x8B, 0xA3, 0x4D, 0xB8, 0x91}};

CLRPROF_DECLARE_INTERFACE(ICorProfilerModuleEnum)
typedef struct ICorProfilerModuleEnumVtbl {
    CLRPROF_IUNKNOWN_METHODS(ICorProfilerModuleEnum)
    CLRPROF_ENUM_METHODS(ICorProfilerModuleEnum, ModuleID)
} ICorProfilerModuleEnumVtbl;

CLRPROF_UNUSED static const IID IID_ICorProfilerThreadEnum =
    {0x571194F7, 0x25ED, 0x419F, {0xAA, 0x8B, 0x70, 0x16, 0xB3, 0x15, 0x97, 0x01}};

CLRPROF_DECLARE_INTERFACE(ICorProfilerThreadEnum)
typedef struct ICorProfilerThreadEnumVtbl {
    CLRPROF_IUNKNOWN_METHODS(ICorProfilerThreadEnum)
    CLRPROF_ENUM_METHODS(ICorProfilerThreadEnum, ThreadID)
} ICorProfilerThreadEnumVtbl;

CLRPROF_UNUSED static const IID IID_ICorProfilerMethodEnum =
    {0xFCCEE788, 0x0088, 0x454B, {0xA8, 0x11, 0xC9, 0x9F, 0x29, 0x8D, 0x19, 0x42}};

CLRPROF_DECLARE_INTERFACE(ICorProfilerMethodEnum)
typedef struct ICorProfilerMethodEnumVtbl {
    CLRPROF_IUNKNOWN_METHODS(ICorProfilerMethodEnum)
    CLRPROF_ENUM_METHODS(ICorProfilerMethodEnum, COR_PRF_METHOD)
} ICorProfilerMethodEnumVtbl;

/* ---- IMethodMalloc (Info::GetILFunctionBodyAllocator) ------------------------------------
 * Alloc returns the memory itself, not an HRESULT; NULL means out of memory. */

CLRPROF_UNUSED static const IID IID_IMethodMalloc =
    {0xA0EFB28B, 0x6EE2, 0x4D7B, {0xB9, 0x83, 0xA7, 0x5E, 0xF7, 0xBE, 0xED, 0xB8}};

CLRPROF_DECLARE_INTERFACE(IMethodMalloc)
typedef struct IMethodMallocVtbl {
    CLRPROF_IUNKNOWN_METHODS(IMethodMalloc)
    void *(*Alloc)(IMethodMalloc *This, ULONG cb);
} IMethodMallocVtbl;

/* ---- ICorProfilerFunctionControl (handed to Callback4::GetReJITParameters) -------------- */

CLRPROF_UNUSED static const IID IID_ICorProfilerFunctionControl =
    {0xF0963021, 0xE1EA, 0x4732, {0x85, 0x81, 0xE0, 0x1B, 0x0B, 0xD3, 0xC0, 0xC6}};

CLRPROF_DECLARE_INTERFACE(ICorProfilerFunctionControl)
typedef struct ICorProfilerFunctionControlVtbl {
    CLRPROF_IUNKNOWN_METHODS(ICorProfilerFunctionControl)
    HRESULT (*SetCodegenFlags)(ICorProfilerFunctionControl *This, DWORD flags);
    HRESULT (*SetILFunctionBody)(ICorProfilerFunctionControl *This, ULONG cbNewILMethodHeader,
                                 LPCBYTE pbNewILMethodHeader);
    /* E_NOTIMPL in CoreCLR. */
    HRESULT (*SetILInstrumentedCodeMap)(ICorProfilerFunctionControl *This, ULONG cILMapEntries,
                                        COR_IL_MAP rgILMapEntries[]);
} ICorProfilerFunctionControlVtbl;

/* ---- ICorProfilerAssemblyReferenceProvider (Callback6::GetAssemblyReferences) ----------- */

CLRPROF_UNUSED static const IID IID_ICorProfilerAssemblyReferenceProvider =
    {0x66A78C24, 0x2EEF, 0x4F65, {0xB4, 0x5F, 0xDD, 0x1D, 0x80, 0x38, 0xBF, 0x3C}};

CLRPROF_DECLARE_INTERFACE(ICorProfilerAssemblyReferenceProvider)
typedef struct ICorProfilerAssemblyReferenceProviderVtbl {
    CLRPROF_IUNKNOWN_METHODS(ICorProfilerAssemblyReferenceProvider)
    HRESULT (*AddAssemblyReference)(ICorProfilerAssemblyReferenceProvider *This,
                                    const COR_PRF_ASSEMBLY_REFERENCE_INFO *pAssemblyRefInfo);
} ICorProfilerAssemblyReferenceProviderVtbl;

/* ---- ICLRProfiling ------------------------------------------------------------------------
 * The .NET Framework attach trigger (from ICLRRuntimeInfo). CoreCLR has no implementation;
 * on Linux attach goes through the diagnostics IPC AttachProfiler command instead. Declared
 * for completeness only. */

CLRPROF_UNUSED static const IID IID_ICLRProfiling =
    {0xB349ABE3, 0xB56F, 0x4689, {0xBF, 0xCD, 0x76, 0xBF, 0x39, 0xD8, 0x88, 0xEA}};

CLRPROF_DECLARE_INTERFACE(ICLRProfiling)
typedef struct ICLRProfilingVtbl {
    CLRPROF_IUNKNOWN_METHODS(ICLRProfiling)
    HRESULT (*AttachProfiler)(ICLRProfiling *This, DWORD dwProfileeProcessID,
                              DWORD dwMillisecondsMax, const CLSID *pClsidProfiler,
                              LPCWSTR wszProfilerPath, void *pvClientData, UINT cbClientData);
} ICLRProfilingVtbl;

#ifdef __cplusplus
}
#endif

#endif
