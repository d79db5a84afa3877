/* clrprof_com.h - the COM plumbing every profiler needs, done once.
 *
 * A profiler is a struct whose first member is a clrprof_object_t. The SDK answers
 * QueryInterface for IUnknown and every ICorProfilerCallbackN up to the level you choose with
 * the same pointer (the runtime static_casts between levels, so one flat vtable is required),
 * counts references atomically (the runtime releases from its detach thread), and calls your
 * destroy function when the last reference goes. Export DllGetClassObject with one line:
 *
 *     CLRPROF_EXPORT HRESULT DllGetClassObject(REFCLSID rclsid, REFIID riid, void **ppv)
 *     {
 *         return clrprof_get_class_object(rclsid, riid, ppv, &MY_CLSID, my_create);
 *     }
 */
#ifndef CLRPROF_COM_H
#define CLRPROF_COM_H

#include "corprof.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef _WIN32 /* a DLL exports what is marked so; an ELF library what is visible */
#define CLRPROF_EXPORT __declspec(dllexport)
#else
#define CLRPROF_EXPORT __attribute__((visibility("default")))
#endif

typedef struct clrprof_object clrprof_object_t;
struct clrprof_object {
    ICorProfilerCallback11 iface;    /* what the runtime holds; must stay first */
    ICorProfilerCallback11Vtbl vtbl; /* this object's own vtable */
    long refs;                       /* updated atomically */
    int max_callback;                /* highest ICorProfilerCallbackN answered (2..11) */
    void (*destroy)(clrprof_object_t *self);
};

/* Prepares obj with one reference: every callback slot answers S_OK until you override it in
 * obj->vtbl, and QueryInterface answers IUnknown and ICorProfilerCallback..max_callback. */
void clrprof_object_init(clrprof_object_t *obj, int max_callback,
                         void (*destroy)(clrprof_object_t *self));
/* The object behind an interface pointer the runtime passes back to a callback. */
#define CLRPROF_SELF(type, This) ((type *)(void *)(This))

/* Creates one profiler object (one reference) for the class factory. */
typedef HRESULT (*clrprof_create_fn)(clrprof_object_t **out);
/* The body of DllGetClassObject: hands out a class factory for clsid that calls create. */
HRESULT clrprof_get_class_object(REFCLSID rclsid, REFIID riid, void **ppv, const CLSID *clsid,
                                 clrprof_create_fn create);
/* The same for a create function that needs a context (clrprof_class_object passes its def). */
typedef HRESULT (*clrprof_create_ctx_fn)(const void *ctx, clrprof_object_t **out);
HRESULT clrprof_get_class_object_ctx(REFCLSID rclsid, REFIID riid, void **ppv, const CLSID *clsid,
                                     clrprof_create_ctx_fn create, const void *ctx);
/* Whether two GUIDs are equal (the runtime compares them byte for byte too). */
int clrprof_guid_equal(const GUID *a, const GUID *b);

#ifdef __cplusplus
}
#endif

#endif
