/* test_sdk.c - libclrprof without a runtime: the class factory, slot wiring of the callbacks a
 * definition provides, the detach estimate and the refusal sentences. */
#include "test.h"

#include "clrprof/clrprof_profiler.h"
#include "clrprof/clrprof_util.h"

#include <string.h>

static int module_calls;
static ModuleID last_module;

static HRESULT on_module(ICorProfilerCallback11 *This, ModuleID id, HRESULT status)
{
    (void)This, (void)status;
    module_calls++;
    last_module = id;
    return (HRESULT)0x00000001; /* S_FALSE: proves the profiler's own answer comes back */
}

static HRESULT on_inlining(ICorProfilerCallback11 *This, FunctionID caller, FunctionID callee, BOOL *inline_it)
{
    (void)This, (void)caller, (void)callee;
    *inline_it = FALSE;
    return S_OK;
}

static const clrprof_def_t test_def = {
    .name = "unit",
    .clsid = {0x11111111, 0x2222, 0x3333, {0x44, 0x44, 0x55, 0x55, 0x55, 0x55, 0x55, 0x55}},
    .notification_only = 1,
    .state_size = 64,
    .callbacks = {.ModuleLoadFinished = on_module, .JITInlining = on_inlining},
};

/* A profiler object made the way the runtime makes one: factory, CreateInstance, QI. */
static ICorProfilerCallback11 *create(void)
{
    IClassFactory *factory = NULL;
    ICorProfilerCallback11 *cb = NULL;
    ASSERT_EQ(clrprof_class_object(&test_def, &test_def.clsid, &IID_IClassFactory, (void **)&factory), S_OK);
    ASSERT_EQ(factory->lpVtbl->CreateInstance(factory, NULL, &IID_ICorProfilerCallback11, (void **)&cb), S_OK);
    factory->lpVtbl->Release(factory);
    return cb;
}

TEST(sdk_factory_answers_only_its_clsid)
{
    void *out = (void *)1;
    CLSID other = test_def.clsid;
    other.Data1 ^= 1;
    ASSERT_EQ(clrprof_class_object(&test_def, &other, &IID_IClassFactory, &out), CLASS_E_CLASSNOTAVAILABLE);
    ASSERT(out == NULL);
}

TEST(sdk_provided_callbacks_are_called_through_their_slots_and_timed)
{
    ICorProfilerCallback11 *cb = create();
    clrprof_profiler_t *p = clrprof_of(cb);
    module_calls = 0;
    ASSERT_EQ(cb->lpVtbl->ModuleLoadFinished(cb, 0x1234, S_OK), (HRESULT)1);
    ASSERT_EQ(module_calls, 1);
    ASSERT_EQ(last_module, (ModuleID)0x1234);
    BOOL inline_it = TRUE;
    ASSERT_EQ(cb->lpVtbl->JITInlining(cb, 1, 2, &inline_it), S_OK);
    ASSERT_EQ(inline_it, FALSE);
    clrprof_callback_stats_t s;
    clrprof_callback_stats(p, &s);
    ASSERT_EQ(s.calls, 2u);
    ASSERT_EQ(s.in_flight, 0);
    /* A slot the definition left empty answers S_OK and is not counted. */
    ASSERT_EQ(cb->lpVtbl->ClassLoadFinished(cb, 1, S_OK), S_OK);
    clrprof_callback_stats(p, &s);
    ASSERT_EQ(s.calls, 2u);
    cb->lpVtbl->Release(cb);
}

TEST(sdk_answers_notification_only_from_the_definition_and_every_callback_iid)
{
    ICorProfilerCallback11 *cb = create();
    BOOL only = FALSE;
    ASSERT_EQ(cb->lpVtbl->LoadAsNotificationOnly(cb, &only), S_OK);
    ASSERT_EQ(only, TRUE);
    void *same = NULL;
    ASSERT_EQ(cb->lpVtbl->QueryInterface(cb, &IID_ICorProfilerCallback3, &same), S_OK);
    ASSERT(same == (void *)cb);
    cb->lpVtbl->Release(cb);
    ASSERT(clrprof_state(clrprof_of(cb)) != NULL);
    cb->lpVtbl->Release(cb);
}

TEST(sdk_detach_estimate_is_at_least_300_ms_and_covers_the_longest_callback)
{
    ICorProfilerCallback11 *cb = create();
    clrprof_profiler_t *p = clrprof_of(cb);
    ASSERT_EQ(clrprof_expected_detach_ms(p), 300u);
    module_calls = 0;
    cb->lpVtbl->ModuleLoadFinished(cb, 1, S_OK); /* microseconds: still the floor */
    ASSERT_EQ(clrprof_expected_detach_ms(p), 300u);
    cb->lpVtbl->Release(cb);
}

TEST(sdk_every_documented_detach_refusal_has_its_own_sentence)
{
    static const struct {
        HRESULT hr;
        const char *name;
    } codes[] = {
        {CORPROF_E_CALLBACK3_REQUIRED, "CORPROF_E_CALLBACK3_REQUIRED"},
        {CORPROF_E_IMMUTABLE_FLAGS_SET, "CORPROF_E_IMMUTABLE_FLAGS_SET"},
        {CORPROF_E_IRREVERSIBLE_INSTRUMENTATION_PRESENT, "CORPROF_E_IRREVERSIBLE_INSTRUMENTATION_PRESENT"},
        {CORPROF_E_RUNTIME_UNINITIALIZED, "CORPROF_E_RUNTIME_UNINITIALIZED"},
        {CORPROF_E_UNSUPPORTED_CALL_SEQUENCE, "CORPROF_E_UNSUPPORTED_CALL_SEQUENCE"},
        {CORPROF_E_PROFILER_NOT_YET_INITIALIZED, "CORPROF_E_PROFILER_NOT_YET_INITIALIZED"},
        {CORPROF_E_PROFILER_DETACHING, "CORPROF_E_PROFILER_DETACHING"},
    };
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
        ASSERT_CONTAINS(clrprof_detach_refusal(codes[i].hr), codes[i].name);
    ASSERT_CONTAINS(clrprof_detach_refusal((HRESULT)0x80004005), "does not document");
}

TEST(sdk_hex_truncates_to_whole_bytes_and_printable_rejects_control_bytes)
{
    char out[6];
    ASSERT_EQ(clrprof_hex("\x01\xab\xff", 3, out, sizeof out), 2u);
    ASSERT_STREQ(out, "01ab");
    ASSERT(clrprof_printable("a=b;c", 5));
    ASSERT(!clrprof_printable("a\nb", 3));
}
