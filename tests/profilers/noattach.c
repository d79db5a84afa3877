/* noattach.c - a test profiler that stops at ICorProfilerCallback2, so it cannot be attached:
 * the runtime must answer CORPROF_E_PROFILER_NOT_ATTACHABLE. */
#include "clrprof/clrprof_com.h"

#include <stdlib.h>

/* {1F9B3DD9-810F-4B96-851E-34FCE44ABDC6} */
static const CLSID CLSID_NOATTACH = {0x1F9B3DD9, 0x810F, 0x4B96,
                                     {0x85, 0x1E, 0x34, 0xFC, 0xE4, 0x4A, 0xBD, 0xC6}};

static void noattach_destroy(clrprof_object_t *obj)
{
    free(obj);
}

static HRESULT noattach_create(clrprof_object_t **out)
{
    clrprof_object_t *obj = calloc(1, sizeof *obj);
    if (!obj)
        return E_OUTOFMEMORY;
    clrprof_object_init(obj, 2, noattach_destroy);
    *out = obj;
    return S_OK;
}

CLRPROF_EXPORT HRESULT DllGetClassObject(REFCLSID rclsid, REFIID riid, void **ppv)
{
    return clrprof_get_class_object(rclsid, riid, ppv, &CLSID_NOATTACH, noattach_create);
}
