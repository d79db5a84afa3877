/* fake_mscoree.c - a stand-in for mscoree.dll in the .NET Framework attach tests
 * (tests/windows/framework.sh): CLRCreateInstance hands out a metahost whose loaded runtimes
 * are CLRA_FAKE_RUNTIMES (comma-separated versions, default v4.0.30319; only a v4 one offers
 * ICLRProfiling), and ICLRProfiling::AttachProfiler writes every argument it received, in hex,
 * to the file CLRA_FAKE_RECORD and returns the HRESULT CLRA_FAKE_HRESULT (hex, default S_OK).
 * Each object counts its references; unloading the DLL records how many were never released. */
#include "framework/metahost_win.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_RUNTIMES 4

static LONG outstanding; /* references handed out and not yet released, all objects */

/* Appends one line to the record file (nothing when CLRA_FAKE_RECORD is unset). */
static void record(const char *fmt, ...)
{
    char path[MAX_PATH];
    DWORD n = GetEnvironmentVariableA("CLRA_FAKE_RECORD", path, sizeof path);
    if (n == 0 || n >= sizeof path)
        return;
    FILE *f = fopen(path, "ab");
    if (!f)
        return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
    fputc('\n', f);
    fclose(f);
}

/* Lower-case hex of n bytes into out (2n+1 bytes). */
static void to_hex(char *out, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        sprintf(out + 2 * i, "%02x", b[i]);
    out[2 * n] = '\0';
}

/* The reference counting every object shares. */
static ULONG add_ref(void)
{
    return (ULONG)InterlockedIncrement(&outstanding);
}
static ULONG release(void)
{
    return (ULONG)InterlockedDecrement(&outstanding);
}

/* ---- ICLRProfiling ---------------------------------------------------------------------- */

static HRESULT WINAPI prof_qi(clra__clr_profiling_t *self, const GUID *riid, void **out)
{
    (void)self, (void)riid;
    *out = NULL;
    return E_NOINTERFACE;
}
static ULONG WINAPI prof_add_ref(clra__clr_profiling_t *self) { (void)self; return add_ref(); }
static ULONG WINAPI prof_release(clra__clr_profiling_t *self) { (void)self; return release(); }

/* Records the six arguments as received, then answers as scripted. */
static HRESULT WINAPI prof_attach(clra__clr_profiling_t *self, DWORD pid, DWORD max_ms,
                                  const GUID *clsid, const WCHAR *path, void *data, UINT size)
{
    (void)self;
    static char hex[2 * 70000];
    record("attach pid=%lu timeout=%lu", (unsigned long)pid, (unsigned long)max_ms);
    to_hex(hex, clsid, sizeof *clsid);
    record("clsid=%s", hex);
    size_t units = path ? wcslen(path) : 0;
    to_hex(hex, path ? (const void *)path : "", units * 2 < 4000 ? units * 2 : 4000);
    record("path_units=%u path=%s", (unsigned)units, hex);
    to_hex(hex, data ? data : "", data && size < 65536 ? size : 0);
    record("size=%u data_null=%d data=%s", size, data == NULL, hex);
    char want[32];
    DWORD n = GetEnvironmentVariableA("CLRA_FAKE_HRESULT", want, sizeof want);
    return n && n < sizeof want ? (HRESULT)strtoul(want, NULL, 16) : S_OK;
}

static const clra__clr_profiling_vtbl_t prof_vtbl = {prof_qi, prof_add_ref, prof_release,
                                                     prof_attach};
static clra__clr_profiling_t profiling = {&prof_vtbl};

/* ---- ICLRRuntimeInfo -------------------------------------------------------------------- */

typedef struct fake_runtime {
    clra__clr_runtime_info_t com; /* first: the interface pointer is the object's */
    WCHAR version[32];
} fake_runtime_t;

static fake_runtime_t runtimes[MAX_RUNTIMES];
static int runtime_count;

static HRESULT WINAPI info_qi(clra__clr_runtime_info_t *self, const GUID *riid, void **out)
{
    if (IsEqualGUID(riid, &clra__iid_clr_runtime_info) || IsEqualGUID(riid, &clra__iid_unknown)) {
        add_ref();
        *out = self;
        return S_OK;
    }
    *out = NULL;
    return E_NOINTERFACE;
}
static ULONG WINAPI info_add_ref(clra__clr_runtime_info_t *self) { (void)self; return add_ref(); }
static ULONG WINAPI info_release(clra__clr_runtime_info_t *self) { (void)self; return release(); }

static HRESULT WINAPI info_version(clra__clr_runtime_info_t *self, WCHAR *buf, DWORD *chars)
{
    const fake_runtime_t *r = (const fake_runtime_t *)self;
    DWORD need = (DWORD)wcslen(r->version) + 1;
    if (!buf || *chars < need) {
        *chars = need;
        return HRESULT_FROM_WIN32(ERROR_INSUFFICIENT_BUFFER);
    }
    memcpy(buf, r->version, need * sizeof(WCHAR));
    *chars = need;
    return S_OK;
}

/* Only a v4 runtime has ICLRProfiling, as with the real shim. */
static HRESULT WINAPI info_get_interface(clra__clr_runtime_info_t *self, const GUID *clsid,
                                         const GUID *riid, void **out)
{
    const fake_runtime_t *r = (const fake_runtime_t *)self;
    *out = NULL;
    if (wcsncmp(r->version, L"v4", 2) != 0)
        return E_NOINTERFACE;
    if (!IsEqualGUID(clsid, &clra__clsid_clr_profiling) ||
        !IsEqualGUID(riid, &clra__iid_clr_profiling)) {
        record("get_interface bad-guid");
        return E_NOINTERFACE;
    }
    add_ref();
    *out = &profiling;
    return S_OK;
}

static const clra__clr_runtime_info_vtbl_t info_vtbl = {
    info_qi, info_add_ref, info_release, info_version, NULL, NULL, NULL, NULL, NULL,
    info_get_interface, NULL, NULL, NULL, NULL, NULL};

/* ---- IEnumUnknown ----------------------------------------------------------------------- */

typedef struct fake_enum {
    clra__enum_unknown_t com;
    int next;
} fake_enum_t;

static fake_enum_t enumerator;

static HRESULT WINAPI enum_qi(clra__enum_unknown_t *self, const GUID *riid, void **out)
{
    (void)self, (void)riid;
    *out = NULL;
    return E_NOINTERFACE;
}
static ULONG WINAPI enum_add_ref(clra__enum_unknown_t *self) { (void)self; return add_ref(); }
static ULONG WINAPI enum_release(clra__enum_unknown_t *self) { (void)self; return release(); }

static HRESULT WINAPI enum_next(clra__enum_unknown_t *self, ULONG celt, clra__unknown_t **items,
                                ULONG *fetched)
{
    fake_enum_t *e = (fake_enum_t *)self;
    ULONG got = 0;
    while (got < celt && e->next < runtime_count) {
        add_ref();
        items[got++] = (clra__unknown_t *)&runtimes[e->next++].com;
    }
    if (fetched)
        *fetched = got;
    return got == celt ? S_OK : S_FALSE;
}
static HRESULT WINAPI enum_skip(clra__enum_unknown_t *self, ULONG celt)
{
    ((fake_enum_t *)self)->next += (int)celt;
    return S_OK;
}
static HRESULT WINAPI enum_reset(clra__enum_unknown_t *self)
{
    ((fake_enum_t *)self)->next = 0;
    return S_OK;
}

static const clra__enum_unknown_vtbl_t enum_vtbl = {enum_qi, enum_add_ref, enum_release,
                                                    enum_next, enum_skip, enum_reset, NULL};

/* ---- ICLRMetaHost ----------------------------------------------------------------------- */

static HRESULT WINAPI host_qi(clra__clr_meta_host_t *self, const GUID *riid, void **out)
{
    (void)self, (void)riid;
    *out = NULL;
    return E_NOINTERFACE;
}
static ULONG WINAPI host_add_ref(clra__clr_meta_host_t *self) { (void)self; return add_ref(); }
static ULONG WINAPI host_release(clra__clr_meta_host_t *self) { (void)self; return release(); }

/* Lists CLRA_FAKE_RUNTIMES; records which process it was asked about. */
static HRESULT WINAPI host_enumerate(clra__clr_meta_host_t *self, HANDLE process,
                                     clra__enum_unknown_t **out)
{
    (void)self;
    char list[128] = "v4.0.30319";
    DWORD n = GetEnvironmentVariableA("CLRA_FAKE_RUNTIMES", list, sizeof list);
    if (n >= sizeof list)
        list[0] = '\0';
    record("enumerate pid=%lu", (unsigned long)GetProcessId(process));
    runtime_count = 0;
    for (char *v = strtok(list, ","); v && runtime_count < MAX_RUNTIMES; v = strtok(NULL, ",")) {
        fake_runtime_t *r = &runtimes[runtime_count++];
        r->com.vtbl = &info_vtbl;
        MultiByteToWideChar(CP_UTF8, 0, v, -1, r->version, 32);
    }
    enumerator.com.vtbl = &enum_vtbl;
    enumerator.next = 0;
    add_ref();
    *out = &enumerator.com;
    return S_OK;
}

static const clra__clr_meta_host_vtbl_t host_vtbl = {
    host_qi, host_add_ref, host_release, NULL, NULL, NULL, host_enumerate, NULL, NULL, NULL};
static clra__clr_meta_host_t meta_host = {&host_vtbl};

/* The shim's entry point: only the metahost, asked for by its CLSID and IID. */
__declspec(dllexport) HRESULT WINAPI CLRCreateInstance(const GUID *clsid, const GUID *riid,
                                                       void **out)
{
    *out = NULL;
    if (!IsEqualGUID(clsid, &clra__clsid_clr_meta_host) ||
        !IsEqualGUID(riid, &clra__iid_clr_meta_host)) {
        record("create bad-guid");
        return CLASS_E_CLASSNOTAVAILABLE;
    }
    add_ref();
    *out = &meta_host;
    return S_OK;
}

/* On unload, how many references the caller never gave back (0 when it released all). */
BOOL WINAPI DllMain(HINSTANCE self, DWORD reason, LPVOID reserved)
{
    (void)self, (void)reserved;
    if (reason == DLL_PROCESS_DETACH)
        record("unload outstanding=%ld", (long)outstanding);
    return TRUE;
}
