/* metahost_win.h - the few COM interfaces of mscoree.dll (the .NET Framework 4 shim) that attach
 * a profiler to a running .NET Framework process, declared in C (internal, Windows only).
 *
 * Slot order and GUIDs are the public facts of metahost.h (ICLRMetaHost, ICLRRuntimeInfo,
 * ICLRProfiling) and objidl.h (IEnumUnknown); only the slots clrattach calls have real
 * prototypes, the others are placeholders of the same size so the called ones sit where the
 * shim puts them. The static asserts at the end pin every slot we use. */
#ifndef CLRA_FRAMEWORK_METAHOST_WIN_H
#define CLRA_FRAMEWORK_METAHOST_WIN_H

#include <stddef.h>
#include <windows.h>

/* CLRCreateInstance, the shim's one entry point (exported by mscoree.dll). */
typedef HRESULT(WINAPI *clra__clr_create_instance_fn)(const GUID *clsid, const GUID *riid,
                                                       void **out);

/* A slot clrattach never calls: only its size matters. */
typedef void (*clra__unused_slot)(void);

typedef struct clra__unknown clra__unknown_t;
typedef struct clra__unknown_vtbl {
    HRESULT(WINAPI *QueryInterface)(clra__unknown_t *self, const GUID *riid, void **out);
    ULONG(WINAPI *AddRef)(clra__unknown_t *self);
    ULONG(WINAPI *Release)(clra__unknown_t *self);
} clra__unknown_vtbl_t;
struct clra__unknown {
    const clra__unknown_vtbl_t *vtbl;
};

/* IEnumUnknown: what EnumerateLoadedRuntimes hands back. */
typedef struct clra__enum_unknown clra__enum_unknown_t;
typedef struct clra__enum_unknown_vtbl {
    HRESULT(WINAPI *QueryInterface)(clra__enum_unknown_t *self, const GUID *riid, void **out);
    ULONG(WINAPI *AddRef)(clra__enum_unknown_t *self);
    ULONG(WINAPI *Release)(clra__enum_unknown_t *self);
    HRESULT(WINAPI *Next)(clra__enum_unknown_t *self, ULONG celt, clra__unknown_t **items,
                          ULONG *fetched);
    HRESULT(WINAPI *Skip)(clra__enum_unknown_t *self, ULONG celt);
    HRESULT(WINAPI *Reset)(clra__enum_unknown_t *self);
    clra__unused_slot Clone;
} clra__enum_unknown_vtbl_t;
struct clra__enum_unknown {
    const clra__enum_unknown_vtbl_t *vtbl;
};

/* ICLRMetaHost: from CLRCreateInstance(CLSID_CLRMetaHost). */
typedef struct clra__clr_meta_host clra__clr_meta_host_t;
typedef struct clra__clr_meta_host_vtbl {
    HRESULT(WINAPI *QueryInterface)(clra__clr_meta_host_t *self, const GUID *riid, void **out);
    ULONG(WINAPI *AddRef)(clra__clr_meta_host_t *self);
    ULONG(WINAPI *Release)(clra__clr_meta_host_t *self);
    clra__unused_slot GetRuntime;
    clra__unused_slot GetVersionFromFile;
    clra__unused_slot EnumerateInstalledRuntimes;
    HRESULT(WINAPI *EnumerateLoadedRuntimes)(clra__clr_meta_host_t *self, HANDLE process,
                                             clra__enum_unknown_t **out);
    clra__unused_slot RequestRuntimeLoadedNotification;
    clra__unused_slot QueryLegacyV2RuntimeBinding;
    clra__unused_slot ExitProcess;
} clra__clr_meta_host_vtbl_t;
struct clra__clr_meta_host {
    const clra__clr_meta_host_vtbl_t *vtbl;
};

/* ICLRRuntimeInfo: one runtime loaded in the target. */
typedef struct clra__clr_runtime_info clra__clr_runtime_info_t;
typedef struct clra__clr_runtime_info_vtbl {
    HRESULT(WINAPI *QueryInterface)(clra__clr_runtime_info_t *self, const GUID *riid, void **out);
    ULONG(WINAPI *AddRef)(clra__clr_runtime_info_t *self);
    ULONG(WINAPI *Release)(clra__clr_runtime_info_t *self);
    HRESULT(WINAPI *GetVersionString)(clra__clr_runtime_info_t *self, WCHAR *buffer,
                                      DWORD *chars);
    clra__unused_slot GetRuntimeDirectory;
    clra__unused_slot IsLoaded;
    clra__unused_slot LoadErrorString;
    clra__unused_slot LoadLibrary;
    clra__unused_slot GetProcAddress;
    HRESULT(WINAPI *GetInterface)(clra__clr_runtime_info_t *self, const GUID *clsid,
                                  const GUID *riid, void **out);
    clra__unused_slot IsLoadable;
    clra__unused_slot SetDefaultStartupFlags;
    clra__unused_slot GetDefaultStartupFlags;
    clra__unused_slot BindAsLegacyV2Runtime;
    clra__unused_slot IsStarted;
} clra__clr_runtime_info_vtbl_t;
struct clra__clr_runtime_info {
    const clra__clr_runtime_info_vtbl_t *vtbl;
};

/* ICLRProfiling: the .NET Framework's attach trigger (AttachProfiler, seed 000). */
typedef struct clra__clr_profiling clra__clr_profiling_t;
typedef struct clra__clr_profiling_vtbl {
    HRESULT(WINAPI *QueryInterface)(clra__clr_profiling_t *self, const GUID *riid, void **out);
    ULONG(WINAPI *AddRef)(clra__clr_profiling_t *self);
    ULONG(WINAPI *Release)(clra__clr_profiling_t *self);
    HRESULT(WINAPI *AttachProfiler)(clra__clr_profiling_t *self, DWORD pid, DWORD max_ms,
                                    const GUID *clsid, const WCHAR *path, void *client_data,
                                    UINT client_data_size);
} clra__clr_profiling_vtbl_t;
struct clra__clr_profiling {
    const clra__clr_profiling_vtbl_t *vtbl;
};

/* AttachProfiler's limit on the profiler path, the terminating NUL included (seed 000). */
#define CLRA__FRAMEWORK_PATH_MAX 260

/* The GUIDs, as metahost.h and objidl.h give them. */
static const GUID clra__clsid_clr_meta_host = {
    0x9280188d, 0x0e8e, 0x4867, {0xb3, 0x0c, 0x7f, 0xa8, 0x38, 0x84, 0xe8, 0xde}};
static const GUID clra__iid_clr_meta_host = {
    0xd332db9e, 0xb9b3, 0x4125, {0x82, 0x07, 0xa1, 0x48, 0x84, 0xf5, 0x32, 0x16}};
static const GUID clra__iid_clr_runtime_info = {
    0xbd39d1d2, 0xba2f, 0x486a, {0x89, 0xb0, 0xb4, 0xb0, 0xcb, 0x46, 0x68, 0x91}};
static const GUID clra__clsid_clr_profiling = {
    0xbd097ed8, 0x733e, 0x43fe, {0x8e, 0xd7, 0xa9, 0x5f, 0xf9, 0xa8, 0x44, 0x8c}};
static const GUID clra__iid_clr_profiling = {
    0xb349abe3, 0xb56f, 0x4689, {0xbf, 0xcd, 0x76, 0xbf, 0x39, 0xd8, 0x88, 0xea}};
static const GUID clra__iid_unknown = {
    0x00000000, 0x0000, 0x0000, {0xc0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x46}};

/* ---- slot checks (metahost.h / objidl.h order) ------------------------------------------ */

#define CLRA__FX_SLOT(vt, m, n)                                                                   \
    _Static_assert(offsetof(vt, m) == (n) * sizeof(void *), #vt "::" #m " is slot " #n)

CLRA__FX_SLOT(clra__enum_unknown_vtbl_t, Next, 3);
CLRA__FX_SLOT(clra__enum_unknown_vtbl_t, Clone, 6);
_Static_assert(sizeof(clra__enum_unknown_vtbl_t) == 7 * sizeof(void *), "IEnumUnknown: 7 slots");
CLRA__FX_SLOT(clra__clr_meta_host_vtbl_t, Release, 2);
CLRA__FX_SLOT(clra__clr_meta_host_vtbl_t, GetRuntime, 3);
CLRA__FX_SLOT(clra__clr_meta_host_vtbl_t, EnumerateLoadedRuntimes, 6);
CLRA__FX_SLOT(clra__clr_meta_host_vtbl_t, ExitProcess, 9);
_Static_assert(sizeof(clra__clr_meta_host_vtbl_t) == 10 * sizeof(void *), "ICLRMetaHost: 10");
CLRA__FX_SLOT(clra__clr_runtime_info_vtbl_t, GetVersionString, 3);
CLRA__FX_SLOT(clra__clr_runtime_info_vtbl_t, GetInterface, 9);
CLRA__FX_SLOT(clra__clr_runtime_info_vtbl_t, IsStarted, 14);
_Static_assert(sizeof(clra__clr_runtime_info_vtbl_t) == 15 * sizeof(void *),
               "ICLRRuntimeInfo: 15 slots");
CLRA__FX_SLOT(clra__clr_profiling_vtbl_t, AttachProfiler, 3);
_Static_assert(sizeof(clra__clr_profiling_vtbl_t) == 4 * sizeof(void *), "ICLRProfiling: 4");
_Static_assert(sizeof(GUID) == 16, "a GUID is 16 bytes");

#endif
