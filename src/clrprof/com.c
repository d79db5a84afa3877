/* com.c - class factory, QueryInterface, reference counting for C profilers. */
#include "clrprof/clrprof.h"
#include "clrprof/clrprof_com.h"

#include <stdlib.h>
#include <string.h>

int clrprof_guid_equal(const GUID *a, const GUID *b)
{
    return memcmp(a, b, sizeof *a) == 0;
}

/* The callback IIDs by level, so QueryInterface can answer every level up to the chosen one. */
static const IID *callback_iid(int level)
{
    static const IID *const iids[] = {
        NULL, &IID_ICorProfilerCallback, &IID_ICorProfilerCallback2, &IID_ICorProfilerCallback3,
        &IID_ICorProfilerCallback4, &IID_ICorProfilerCallback5, &IID_ICorProfilerCallback6,
        &IID_ICorProfilerCallback7, &IID_ICorProfilerCallback8, &IID_ICorProfilerCallback9,
        &IID_ICorProfilerCallback10, &IID_ICorProfilerCallback11};
    return level >= 1 && level <= 11 ? iids[level] : NULL;
}

static ULONG object_add_ref(ICorProfilerCallback11 *This)
{
    clrprof_object_t *self = CLRPROF_SELF(clrprof_object_t, This);
    return (ULONG)__atomic_add_fetch(&self->refs, 1, __ATOMIC_RELAXED);
}

/* The runtime releases from its detach thread; the last release destroys the object. */
static ULONG object_release(ICorProfilerCallback11 *This)
{
    clrprof_object_t *self = CLRPROF_SELF(clrprof_object_t, This);
    long left = __atomic_sub_fetch(&self->refs, 1, __ATOMIC_ACQ_REL);
    if (left == 0 && self->destroy)
        self->destroy(self);
    return (ULONG)left;
}

/* One pointer for IUnknown and every callback level up to max_callback: the runtime derives
 * lower levels from the highest by static_cast, never by another QueryInterface. */
static HRESULT object_query_interface(ICorProfilerCallback11 *This, REFIID riid, void **ppv)
{
    clrprof_object_t *self = CLRPROF_SELF(clrprof_object_t, This);
    if (!ppv)
        return E_POINTER;
    *ppv = NULL;
    int match = clrprof_guid_equal(riid, &IID_IUnknown);
    for (int level = 1; !match && level <= self->max_callback; level++)
        match = clrprof_guid_equal(riid, callback_iid(level));
    if (!match)
        return E_NOINTERFACE;
    object_add_ref(This);
    *ppv = This;
    return S_OK;
}

void clrprof_object_init(clrprof_object_t *obj, int max_callback,
                         void (*destroy)(clrprof_object_t *self))
{
    clrprof_fill_default_callbacks(&obj->vtbl);
    obj->vtbl.QueryInterface = object_query_interface;
    obj->vtbl.AddRef = object_add_ref;
    obj->vtbl.Release = object_release;
    obj->iface.lpVtbl = &obj->vtbl;
    obj->refs = 1;
    obj->max_callback = max_callback < 2 ? 2 : (max_callback > 11 ? 11 : max_callback);
    obj->destroy = destroy;
}

/* A factory per DllGetClassObject call, freed by its last Release: no shared mutable state. */
typedef struct class_factory {
    IClassFactory iface;
    long refs;
    clrprof_create_fn create;
    clrprof_create_ctx_fn create_ctx;
    const void *ctx;
} class_factory_t;

static HRESULT factory_query_interface(IClassFactory *This, REFIID riid, void **ppv)
{
    class_factory_t *f = (class_factory_t *)(void *)This;
    if (!ppv)
        return E_POINTER;
    *ppv = NULL;
    if (!clrprof_guid_equal(riid, &IID_IUnknown) && !clrprof_guid_equal(riid, &IID_IClassFactory))
        return E_NOINTERFACE;
    __atomic_add_fetch(&f->refs, 1, __ATOMIC_RELAXED);
    *ppv = This;
    return S_OK;
}

static ULONG factory_add_ref(IClassFactory *This)
{
    class_factory_t *f = (class_factory_t *)(void *)This;
    return (ULONG)__atomic_add_fetch(&f->refs, 1, __ATOMIC_RELAXED);
}

static ULONG factory_release(IClassFactory *This)
{
    class_factory_t *f = (class_factory_t *)(void *)This;
    long left = __atomic_sub_fetch(&f->refs, 1, __ATOMIC_ACQ_REL);
    if (left == 0)
        free(f);
    return (ULONG)left;
}

static HRESULT factory_create_instance(IClassFactory *This, IUnknown *outer, REFIID riid, void **ppv)
{
    class_factory_t *f = (class_factory_t *)(void *)This;
    clrprof_object_t *obj = NULL;
    if (!ppv)
        return E_POINTER;
    *ppv = NULL;
    if (outer)
        return CLASS_E_NOAGGREGATION;
    HRESULT hr = f->create ? f->create(&obj) : f->create_ctx(f->ctx, &obj);
    if (FAILED(hr))
        return hr;
    hr = obj->vtbl.QueryInterface(&obj->iface, riid, ppv);
    obj->vtbl.Release(&obj->iface); /* the caller's reference is the one QueryInterface took */
    return hr;
}

static HRESULT factory_lock_server(IClassFactory *This, BOOL lock)
{
    (void)This, (void)lock;
    return S_OK;
}

static const IClassFactoryVtbl factory_vtbl = {factory_query_interface, factory_add_ref,
                                               factory_release, factory_create_instance,
                                               factory_lock_server};

/* Hands out a new factory when rclsid is ours; exactly one of create and create_ctx is set. */
static HRESULT new_factory(REFCLSID rclsid, REFIID riid, void **ppv, const CLSID *clsid,
                           clrprof_create_fn create, clrprof_create_ctx_fn create_ctx, const void *ctx)
{
    if (!ppv)
        return E_POINTER;
    *ppv = NULL;
    if (!rclsid || !clrprof_guid_equal(rclsid, clsid))
        return CLASS_E_CLASSNOTAVAILABLE;
    class_factory_t *f = calloc(1, sizeof *f);
    if (!f)
        return E_OUTOFMEMORY;
    f->iface.lpVtbl = &factory_vtbl;
    f->create = create;
    f->create_ctx = create_ctx;
    f->ctx = ctx;
    HRESULT hr = factory_query_interface(&f->iface, riid, ppv);
    if (FAILED(hr))
        free(f);
    return hr;
}

HRESULT clrprof_get_class_object(REFCLSID rclsid, REFIID riid, void **ppv, const CLSID *clsid,
                                 clrprof_create_fn create)
{
    return new_factory(rclsid, riid, ppv, clsid, create, NULL, NULL);
}

HRESULT clrprof_get_class_object_ctx(REFCLSID rclsid, REFIID riid, void **ppv, const CLSID *clsid,
                                     clrprof_create_ctx_fn create, const void *ctx)
{
    return new_factory(rclsid, riid, ppv, clsid, NULL, create, ctx);
}
