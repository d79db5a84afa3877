/* test_corprof.c - the C profiling bindings: default callbacks, IID bytes, flag composites.
 *
 * Expected IID bytes and flag members are written out here from docs/profiling-api.md,
 * not taken from the headers, so a typo on either side shows up as a failure.
 */
#include "test.h"

#include "clrprof/clrprof.h"
#include "clrprof/cormeta.h"

#include <stdint.h>
#include <string.h>

typedef void (*any_fn)(void);

#define N_CALLBACK_SLOTS (sizeof(ICorProfilerCallback11Vtbl) / sizeof(any_fn))

/* Reads slot i of a vtable as raw pointer bytes, without calling through it. */
static any_fn slot_at(const void *vtbl, size_t i)
{
    any_fn fn;
    memcpy(&fn, (const unsigned char *)vtbl + i * sizeof(any_fn), sizeof fn);
    return fn;
}

/* A vtable filled by the SDK, inside an object the stubs can be called on. */
static ICorProfilerCallback11Vtbl defaults;
static ICorProfilerCallback11 object = {&defaults};

static void fill_defaults(void)
{
    memset(&defaults, 0, sizeof defaults);
    clrprof_fill_default_callbacks(&defaults);
}

TEST(default_vtable_has_98_slots)
{
    ASSERT_EQ(N_CALLBACK_SLOTS, 98);
}

TEST(default_callbacks_fill_every_slot_from_3_to_97)
{
    fill_defaults();
    for (size_t i = 3; i < N_CALLBACK_SLOTS; i++)
        ASSERT_MSG(slot_at(&defaults, i) != NULL, "callback slot %zu is NULL", i);
}

static HRESULT fake_query_interface(ICorProfilerCallback11 *This, REFIID riid, void **ppv)
{
    (void)This, (void)riid, (void)ppv;
    return E_NOINTERFACE;
}

static ULONG fake_refcount(ICorProfilerCallback11 *This)
{
    (void)This;
    return 7;
}

TEST(default_callbacks_leave_iunknown_slots_alone)
{
    ICorProfilerCallback11Vtbl vt;
    memset(&vt, 0, sizeof vt);
    vt.QueryInterface = fake_query_interface;
    vt.AddRef = fake_refcount;
    vt.Release = fake_refcount;
    clrprof_fill_default_callbacks(&vt);
    ASSERT(vt.QueryInterface == fake_query_interface);
    ASSERT(vt.AddRef == fake_refcount);
    ASSERT(vt.Release == fake_refcount);

    memset(&vt, 0, sizeof vt);
    clrprof_fill_default_callbacks(&vt);
    for (size_t i = 0; i < 3; i++)
        ASSERT(slot_at(&vt, i) == NULL);
}

TEST(default_callbacks_accept_null_vtable)
{
    clrprof_fill_default_callbacks(NULL);
}

TEST(default_stubs_return_s_ok)
{
    fill_defaults();
    ICorProfilerCallback11 *cb = &object;
    ASSERT_EQ(cb->lpVtbl->Initialize(cb, NULL), S_OK);
    ASSERT_EQ(cb->lpVtbl->Shutdown(cb), S_OK);
    ASSERT_EQ(cb->lpVtbl->InitializeForAttach(cb, NULL, NULL, 0), S_OK);
    ASSERT_EQ(cb->lpVtbl->ProfilerAttachComplete(cb), S_OK);
    ASSERT_EQ(cb->lpVtbl->ProfilerDetachSucceeded(cb), S_OK);
    ASSERT_EQ(cb->lpVtbl->ModuleLoadFinished(cb, 0x1234, E_FAIL), S_OK);
    ASSERT_EQ(cb->lpVtbl->ExceptionThrown(cb, 0x42), S_OK);
    ObjectID roots[2] = {1, 2};
    COR_PRF_GC_ROOT_KIND kinds[2] = {COR_PRF_GC_ROOT_STACK, COR_PRF_GC_ROOT_HANDLE};
    COR_PRF_GC_ROOT_FLAGS flags[2] = {0, COR_PRF_GC_ROOT_PINNING};
    UINT_PTR ids[2] = {0, 0};
    ASSERT_EQ(cb->lpVtbl->RootReferences2(cb, 2, roots, kinds, flags, ids), S_OK);
    UINT_PTR frames[1] = {0};
    ASSERT_EQ(cb->lpVtbl->EventPipeEventDelivered(cb, 1, 2, 3, 0, NULL, 0, NULL, NULL, NULL,
                                                  4, 1, frames),
              S_OK);
}

TEST(default_load_as_notification_only_says_false)
{
    fill_defaults();
    BOOL notification_only = TRUE;
    ASSERT_EQ(object.lpVtbl->LoadAsNotificationOnly(&object, &notification_only), S_OK);
    ASSERT_EQ(notification_only, FALSE);
    ASSERT_EQ(object.lpVtbl->LoadAsNotificationOnly(&object, NULL), S_OK);
}

TEST(default_jit_cached_search_says_use_cache)
{
    fill_defaults();
    BOOL use_cached = FALSE;
    ASSERT_EQ(object.lpVtbl->JITCachedFunctionSearchStarted(&object, 9, &use_cached), S_OK);
    ASSERT_EQ(use_cached, TRUE);
    ASSERT_EQ(object.lpVtbl->JITCachedFunctionSearchStarted(&object, 9, NULL), S_OK);
}

TEST(default_jit_inlining_allows_inline)
{
    fill_defaults();
    BOOL should_inline = FALSE;
    ASSERT_EQ(object.lpVtbl->JITInlining(&object, 1, 2, &should_inline), S_OK);
    ASSERT_EQ(should_inline, TRUE);
    ASSERT_EQ(object.lpVtbl->JITInlining(&object, 1, 2, NULL), S_OK);
}

/* IIDs: the 16 bytes as they lie in memory (Data1..3 little-endian), from section 1.1. */

TEST(iid_callback3_bytes_match_reference)
{
    /* 4FD2ED52-7731-4B8D-9469-03D2CC3086C5 */
    static const uint8_t want[16] = {0x52, 0xED, 0xD2, 0x4F, 0x31, 0x77, 0x8D, 0x4B,
                                     0x94, 0x69, 0x03, 0xD2, 0xCC, 0x30, 0x86, 0xC5};
    ASSERT_MEMEQ(&IID_ICorProfilerCallback3, want, 16);
}

TEST(iid_callback11_bytes_match_reference)
{
    /* 42350846-AAED-47F7-B128-FD0C98881CDE */
    static const uint8_t want[16] = {0x46, 0x08, 0x35, 0x42, 0xED, 0xAA, 0xF7, 0x47,
                                     0xB1, 0x28, 0xFD, 0x0C, 0x98, 0x88, 0x1C, 0xDE};
    ASSERT_MEMEQ(&IID_ICorProfilerCallback11, want, 16);
}

TEST(iid_info3_bytes_match_reference)
{
    /* B555ED4F-452A-4E54-8B39-B5360BAD32A0 */
    static const uint8_t want[16] = {0x4F, 0xED, 0x55, 0xB5, 0x2A, 0x45, 0x54, 0x4E,
                                     0x8B, 0x39, 0xB5, 0x36, 0x0B, 0xAD, 0x32, 0xA0};
    ASSERT_MEMEQ(&IID_ICorProfilerInfo3, want, 16);
}

TEST(iid_info9_bytes_match_reference)
{
    /* 008170DB-F8CC-4796-9A51-DC8AA0B47012 */
    static const uint8_t want[16] = {0xDB, 0x70, 0x81, 0x00, 0xCC, 0xF8, 0x96, 0x47,
                                     0x9A, 0x51, 0xDC, 0x8A, 0xA0, 0xB4, 0x70, 0x12};
    ASSERT_MEMEQ(&IID_ICorProfilerInfo9, want, 16);
}

TEST(iid_iunknown_and_iclassfactory_bytes_match_reference)
{
    /* 00000000-0000-0000-C000-000000000046 and 00000001-0000-0000-C000-000000000046 */
    static const uint8_t unknown[16] = {0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
                                        0xC0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x46};
    static const uint8_t factory[16] = {0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
                                        0xC0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x46};
    ASSERT_MEMEQ(&IID_IUnknown, unknown, 16);
    ASSERT_MEMEQ(&IID_IClassFactory, factory, 16);
}

TEST(iid_metadata_import_bytes_match_reference)
{
    /* 7DAC8207-D3AE-4C75-9B67-92801A497D44 */
    static const uint8_t want[16] = {0x07, 0x82, 0xAC, 0x7D, 0xAE, 0xD3, 0x75, 0x4C,
                                     0x9B, 0x67, 0x92, 0x80, 0x1A, 0x49, 0x7D, 0x44};
    ASSERT_MEMEQ(&IID_IMetaDataImport, want, 16);
}

/* Flag composites: the header states the numbers, the reference (section 1.12) the members. */

TEST(allowable_after_attach_is_or_of_its_members)
{
    uint32_t members = COR_PRF_MONITOR_THREADS | COR_PRF_MONITOR_MODULE_LOADS |
                       COR_PRF_MONITOR_ASSEMBLY_LOADS | COR_PRF_MONITOR_APPDOMAIN_LOADS |
                       COR_PRF_ENABLE_STACK_SNAPSHOT | COR_PRF_MONITOR_GC |
                       COR_PRF_MONITOR_SUSPENDS | COR_PRF_MONITOR_CLASS_LOADS |
                       COR_PRF_MONITOR_EXCEPTIONS | COR_PRF_MONITOR_JIT_COMPILATION |
                       COR_PRF_DISABLE_INLINING | COR_PRF_DISABLE_OPTIMIZATIONS |
                       COR_PRF_ENABLE_REJIT;
    ASSERT_EQ(COR_PRF_ALLOWABLE_AFTER_ATTACH, members);
    ASSERT_EQ(COR_PRF_ALLOWABLE_AFTER_ATTACH, 0x106502FEu);
}

TEST(monitor_immutable_is_or_of_its_members)
{
    uint32_t members = COR_PRF_MONITOR_CODE_TRANSITIONS | COR_PRF_MONITOR_REMOTING |
                       COR_PRF_MONITOR_REMOTING_COOKIE | COR_PRF_MONITOR_REMOTING_ASYNC |
                       COR_PRF_ENABLE_INPROC_DEBUGGING | COR_PRF_ENABLE_JIT_MAPS |
                       COR_PRF_ENABLE_OBJECT_ALLOCATED | COR_PRF_ENABLE_FUNCTION_ARGS |
                       COR_PRF_ENABLE_FUNCTION_RETVAL | COR_PRF_ENABLE_FRAME_INFO |
                       COR_PRF_USE_PROFILE_IMAGES |
                       COR_PRF_DISABLE_TRANSPARENCY_CHECKS_UNDER_FULL_TRUST |
                       COR_PRF_DISABLE_ALL_NGEN_IMAGES;
    ASSERT_EQ(COR_PRF_MONITOR_IMMUTABLE, members);
    ASSERT_EQ(COR_PRF_MONITOR_IMMUTABLE, 0xEE98CC00u);
}

TEST(allowable_notification_profiler_is_or_of_its_members)
{
    uint32_t members = COR_PRF_MONITOR_FUNCTION_UNLOADS | COR_PRF_MONITOR_CLASS_LOADS |
                       COR_PRF_MONITOR_MODULE_LOADS | COR_PRF_MONITOR_ASSEMBLY_LOADS |
                       COR_PRF_MONITOR_APPDOMAIN_LOADS | COR_PRF_MONITOR_JIT_COMPILATION |
                       COR_PRF_MONITOR_EXCEPTIONS | COR_PRF_MONITOR_OBJECT_ALLOCATED |
                       COR_PRF_MONITOR_THREADS | COR_PRF_MONITOR_CODE_TRANSITIONS |
                       COR_PRF_MONITOR_CCW | COR_PRF_MONITOR_SUSPENDS |
                       COR_PRF_MONITOR_CACHE_SEARCHES | COR_PRF_DISABLE_INLINING |
                       COR_PRF_DISABLE_OPTIMIZATIONS | COR_PRF_ENABLE_OBJECT_ALLOCATED |
                       COR_PRF_MONITOR_CLR_EXCEPTIONS | COR_PRF_ENABLE_STACK_SNAPSHOT |
                       COR_PRF_USE_PROFILE_IMAGES | COR_PRF_DISABLE_ALL_NGEN_IMAGES;
    ASSERT_EQ(COR_PRF_ALLOWABLE_NOTIFICATION_PROFILER, members);
}

TEST(require_profile_image_is_or_of_its_members)
{
    ASSERT_EQ(COR_PRF_REQUIRE_PROFILE_IMAGE, COR_PRF_USE_PROFILE_IMAGES |
                                                 COR_PRF_MONITOR_CODE_TRANSITIONS |
                                                 COR_PRF_MONITOR_ENTERLEAVE);
}

TEST(monitor_all_covers_every_monitor_flag_and_rejit)
{
    /* The runtime states MONITOR_ALL as a number: bits 0..15 (REMOTING_COOKIE/ASYNC
     * supply 0x4000/0x8000), SUSPENDS, CACHE_SEARCHES, ENABLE_REJIT and CLR_EXCEPTIONS. */
    uint32_t members = COR_PRF_MONITOR_FUNCTION_UNLOADS | COR_PRF_MONITOR_CLASS_LOADS |
                       COR_PRF_MONITOR_MODULE_LOADS | COR_PRF_MONITOR_ASSEMBLY_LOADS |
                       COR_PRF_MONITOR_APPDOMAIN_LOADS | COR_PRF_MONITOR_JIT_COMPILATION |
                       COR_PRF_MONITOR_EXCEPTIONS | COR_PRF_MONITOR_GC |
                       COR_PRF_MONITOR_OBJECT_ALLOCATED | COR_PRF_MONITOR_THREADS |
                       COR_PRF_MONITOR_REMOTING | COR_PRF_MONITOR_CODE_TRANSITIONS |
                       COR_PRF_MONITOR_ENTERLEAVE | COR_PRF_MONITOR_CCW |
                       COR_PRF_MONITOR_REMOTING_COOKIE | COR_PRF_MONITOR_REMOTING_ASYNC |
                       COR_PRF_MONITOR_SUSPENDS | COR_PRF_MONITOR_CACHE_SEARCHES |
                       COR_PRF_ENABLE_REJIT | COR_PRF_MONITOR_CLR_EXCEPTIONS;
    ASSERT_EQ(COR_PRF_MONITOR_ALL, members);
    ASSERT_EQ(COR_PRF_ALL & COR_PRF_MONITOR_ALL, COR_PRF_MONITOR_ALL);
}

TEST(high_composites_are_or_of_their_members)
{
    uint32_t after_attach = COR_PRF_HIGH_IN_MEMORY_SYMBOLS_UPDATED |
                            COR_PRF_HIGH_MONITOR_DYNAMIC_FUNCTION_UNLOADS |
                            COR_PRF_HIGH_BASIC_GC | COR_PRF_HIGH_MONITOR_GC_MOVED_OBJECTS |
                            COR_PRF_HIGH_MONITOR_LARGEOBJECT_ALLOCATED |
                            COR_PRF_HIGH_MONITOR_EVENT_PIPE;
    ASSERT_EQ(COR_PRF_HIGH_ALLOWABLE_AFTER_ATTACH, after_attach);
    ASSERT_EQ(COR_PRF_HIGH_ALLOWABLE_NOTIFICATION_PROFILER,
              after_attach | COR_PRF_HIGH_DISABLE_TIERED_COMPILATION);
    ASSERT_EQ(COR_PRF_HIGH_MONITOR_IMMUTABLE, COR_PRF_HIGH_DISABLE_TIERED_COMPILATION);
    ASSERT_EQ(COR_PRF_HIGH_ALLOWABLE_AFTER_ATTACH & COR_PRF_HIGH_MONITOR_PINNEDOBJECT_ALLOCATED,
              0);
}

TEST(hresults_keep_their_bit_patterns)
{
    ASSERT_EQ((uint32_t)CORPROF_E_PROFILER_NOT_ATTACHABLE, 0x80131368u);
    ASSERT_EQ((uint32_t)CORPROF_E_PROFILER_ALREADY_ACTIVE, 0x8013136Au);
    ASSERT_EQ((uint32_t)CORDIAGIPC_E_UNKNOWN_COMMAND, 0x80131385u);
    ASSERT_EQ((uint32_t)HRESULT_FROM_WIN32(ERROR_MOD_NOT_FOUND), 0x8007007Eu);
    ASSERT(FAILED(CORPROF_E_NOT_GC_OBJECT));
    ASSERT(SUCCEEDED(CLDB_S_TRUNCATION));
    ASSERT(SUCCEEDED(S_FALSE));
}

TEST(token_helpers_split_table_and_row)
{
    mdMethodDef md = TokenFromRid(0x1234, mdtMethodDef);
    ASSERT_EQ(md, 0x06001234u);
    ASSERT_EQ(TypeFromToken(md), mdtMethodDef);
    ASSERT_EQ(RidFromToken(md), 0x1234);
    ASSERT(IsNilToken(mdTypeDefNil));
    ASSERT(!IsNilToken(md));
}
