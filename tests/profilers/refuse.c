/* refuse.c - a test profiler whose InitializeForAttach fails on request, to check that each
 * refusal reaches the trigger. Client data options:
 *   hr=0x80004001          return this HRESULT from InitializeForAttach
 *   event_mask=0x00001000  call SetEventMask with this mask and return its HRESULT
 */
#include "clrprof/clrprof_com.h"
#include "clrprof/clrprof_util.h"

#include <stdlib.h>

/* {DE0204DD-4001-43A4-80E1-78A9D2F3B99F} */
static const CLSID CLSID_REFUSE = {0xDE0204DD, 0x4001, 0x43A4,
                                   {0x80, 0xE1, 0x78, 0xA9, 0xD2, 0xF3, 0xB9, 0x9F}};

static HRESULT refuse_initialize_for_attach(ICorProfilerCallback11 *This, IUnknown *info_unk,
                                            void *data, UINT len)
{
    unsigned long value;
    ICorProfilerInfo *info = NULL;
    (void)This;
    if (clrprof_option_ulong(data, len, "hr", &value) == 1)
        return (HRESULT)(uint32_t)value;
    if (clrprof_option_ulong(data, len, "event_mask", &value) != 1)
        return S_OK;
    HRESULT hr = info_unk->lpVtbl->QueryInterface(info_unk, &IID_ICorProfilerInfo, (void **)&info);
    if (SUCCEEDED(hr)) {
        hr = info->lpVtbl->SetEventMask(info, (DWORD)value);
        info->lpVtbl->Release(info);
    }
    return hr;
}

static void refuse_destroy(clrprof_object_t *obj)
{
    free(obj);
}

static HRESULT refuse_create(clrprof_object_t **out)
{
    clrprof_object_t *obj = calloc(1, sizeof *obj);
    if (!obj)
        return E_OUTOFMEMORY;
    clrprof_object_init(obj, 3, refuse_destroy);
    obj->vtbl.InitializeForAttach = refuse_initialize_for_attach;
    *out = obj;
    return S_OK;
}

CLRPROF_EXPORT HRESULT DllGetClassObject(REFCLSID rclsid, REFIID riid, void **ppv)
{
    return clrprof_get_class_object(rclsid, riid, ppv, &CLSID_REFUSE, refuse_create);
}
