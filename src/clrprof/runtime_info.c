/* runtime_info.c - the runtime and module facts nearly every profiler logs first. */
#include "profiler_internal.h"
#include "clrprof/clrprof_util.h"

#include <string.h>

HRESULT clrprof_runtime_version(clrprof_profiler_t *p, char *out, size_t cap)
{
    USHORT id, major, minor, build, qfe;
    COR_PRF_RUNTIME_TYPE type;
    WCHAR wide[128];
    ULONG n = 0;
    char text[256];
    HRESULT hr = p->info ? p->info->lpVtbl->GetRuntimeInformation(p->info, &id, &type, &major, &minor,
                                                                  &build, &qfe, 128, &n, wide)
                         : E_POINTER;
    if (FAILED(hr)) {
        snprintf(out, cap, "error=0x%08X", (unsigned)hr);
        return hr;
    }
    clrprof_utf16_to_utf8(wide, n, text, sizeof text);
    snprintf(out, cap, "type=%s version=%u.%u.%u.%u string=%s",
             type == COR_PRF_CORE_CLR ? "CoreCLR" : "desktop", major, minor, build, qfe, text);
    return S_OK;
}

HRESULT clrprof_module_name(clrprof_profiler_t *p, ModuleID id, char *out, size_t cap)
{
    WCHAR wide[512];
    ULONG len = 0;
    char full[1024];
    HRESULT hr = p->info ? p->info->lpVtbl->GetModuleInfo(p->info, id, NULL, 512, &len, wide, NULL)
                         : E_POINTER;
    if (FAILED(hr)) {
        snprintf(out, cap, "?");
        return hr;
    }
    clrprof_utf16_to_utf8(wide, len, full, sizeof full);
    const char *base = NULL; /* after the last separator (Windows has two, gives backslashes) */
    for (const char *c = full; *c; c++)
        if (strchr(clrprof__path_separators, *c))
            base = c;
    snprintf(out, cap, "%s", base ? base + 1 : full);
    return S_OK;
}
