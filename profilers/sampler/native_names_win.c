/* native_names_win.c - sw_native_name (suspend_walk.h): a native code address named from its
 * module's own tables, read in place from the loaded image: the unwind table gives the start of
 * the function holding it, the export table its name when it has one. */
#include "suspend_walk.h"

#include <stdio.h>
#include <windows.h>

/* The module's export at rva, or else the nearest below it; *found is that export's RVA. */
static const char *export_at(const unsigned char *image, DWORD rva, DWORD *found)
{
    const IMAGE_NT_HEADERS *nt = (const IMAGE_NT_HEADERS *)(image +
                                 ((const IMAGE_DOS_HEADER *)image)->e_lfanew);
    const IMAGE_DATA_DIRECTORY *dir =
        &nt->OptionalHeader.DataDirectory[IMAGE_DIRECTORY_ENTRY_EXPORT];
    if (!dir->VirtualAddress || !dir->Size)
        return NULL;
    const IMAGE_EXPORT_DIRECTORY *ex = (const void *)(image + dir->VirtualAddress);
    const DWORD *funcs = (const void *)(image + ex->AddressOfFunctions);
    const DWORD *names = (const void *)(image + ex->AddressOfNames);
    const WORD *ords = (const void *)(image + ex->AddressOfNameOrdinals);
    const char *best = NULL;
    *found = 0;
    for (DWORD i = 0; i < ex->NumberOfNames; i++) {
        DWORD f = ords[i] < ex->NumberOfFunctions ? funcs[ords[i]] : 0;
        if (f && f <= rva && f >= *found)
            *found = f, best = (const char *)(image + names[i]);
    }
    return best;
}

int sw_native_name(uintptr_t ip, char *out, size_t cap)
{
    HMODULE mod = NULL;
    wchar_t wpath[MAX_PATH];
    char path[MAX_PATH * 3];
    if (!GetModuleHandleExW(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS |
                            GET_MODULE_HANDLE_EX_FLAG_UNCHANGED_REFCOUNT, (LPCWSTR)ip, &mod) ||
        !GetModuleFileNameW(mod, wpath, MAX_PATH) ||
        !WideCharToMultiByte(CP_UTF8, 0, wpath, -1, path, sizeof path, NULL, NULL))
        return -1;
    const char *file = path;
    for (const char *c = path; *c; c++)
        if (*c == '\\' || *c == '/')
            file = c + 1;
    const unsigned char *image = (const unsigned char *)mod;
    DWORD rva = (DWORD)(ip - (uintptr_t)mod), start = rva, at = 0;
    DWORD64 base = 0;
    RUNTIME_FUNCTION *fn = RtlLookupFunctionEntry(ip, &base, NULL);
    if (fn && base == (DWORD64)(uintptr_t)mod)
        start = fn->BeginAddress;
    const char *name = export_at(image, start, &at);
    if (name && (at == start || !fn))
        snprintf(out, cap, "%s!%s", file, name);
    else
        snprintf(out, cap, "%s+0x%lx", file, (unsigned long)start);
    return 0;
}
