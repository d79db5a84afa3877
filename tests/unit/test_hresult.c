/* test_hresult.c - the HRESULT table: the codes attach and detach can produce are named and
 * explained, the table has no duplicates, and unknown codes get the generic sentences.
 *
 * Expected value/name pairs are written out by hand from docs/protocol.md 4.1-4.2
 * and docs/profiling-api.md 1.13 and 3.1, not taken from the table under test.
 */
#include "clrattach.h"
#include "test.h"

#define HR(v) ((int32_t)(uint32_t)(v))

typedef struct {
    int32_t value;
    const char *name;
} expected_t;

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* docs/protocol.md 4.2: the AttachProfiler table, the codes it mentions, and its related values. */
static const expected_t attach_codes[] = {
    {HR(0x8013135B), "DS_IPC_E_NOT_YET_AVAILABLE"},
    {HR(0x80131384), "DS_IPC_E_BAD_ENCODING"},
    {HR(0x80131371), "CORPROF_E_RUNTIME_UNINITIALIZED"},
    {HR(0x8007007E), "ERROR_MOD_NOT_FOUND"},
    {HR(0x8007007F), "ERROR_PROC_NOT_FOUND"},
    {HR(0x80004005), "E_FAIL"},
    {HR(0x80040111), "CLASS_E_CLASSNOTAVAILABLE"},
    {HR(0x80004002), "E_NOINTERFACE"},
    {HR(0x80131368), "CORPROF_E_PROFILER_NOT_ATTACHABLE"},
    {HR(0x80004001), "E_NOTIMPL"},
    {HR(0x8013136A), "CORPROF_E_PROFILER_ALREADY_ACTIVE"},
    {HR(0x80131375), "CORPROF_E_PROFILER_CANCEL_ACTIVATION"},
    {HR(0x80131379), "CORPROF_E_TIMEOUT_WAITING_FOR_CONCURRENT_GC"},
    {HR(0x8000FFFF), "E_UNEXPECTED"},
    {HR(0x8007000E), "E_OUTOFMEMORY"},
    {HR(0x80131367), "CORPROF_E_PROFILER_DETACHING"},
    {HR(0x80131369), "CORPROF_E_UNRECOGNIZED_PIPE_MSG_FORMAT"},
    {HR(0x8013136B), "CORPROF_E_PROFILEE_INCOMPATIBLE_WITH_TRIGGER"},
    {HR(0x8013136C), "CORPROF_E_IPC_FAILED"},
    {HR(0x8013136D), "CORPROF_E_PROFILEE_PROCESS_NOT_FOUND"},
    {HR(0x8013136E), "CORPROF_E_CALLBACK3_REQUIRED"},
    {HR(0x80131370), "CORPROF_E_IRREVERSIBLE_INSTRUMENTATION_PRESENT"},
    {HR(0x80131373), "CORPROF_E_PROFILER_NOT_YET_INITIALIZED"},
};

/* docs/profiling-api.md 3.1: RequestProfilerDetach's seven refusing checks (1, 2, 4, 5, 6, 7, 8);
 * checks 1, 4 and 6 share a code and check 8 has two, hence six values. */
static const expected_t detach_codes[] = {
    {HR(0x80131367), "CORPROF_E_PROFILER_DETACHING"},
    {HR(0x80131371), "CORPROF_E_RUNTIME_UNINITIALIZED"},
    {HR(0x80131373), "CORPROF_E_PROFILER_NOT_YET_INITIALIZED"},
    {HR(0x8013136E), "CORPROF_E_CALLBACK3_REQUIRED"},
    {HR(0x80131372), "CORPROF_E_IMMUTABLE_FLAGS_SET"},
    {HR(0x80131370), "CORPROF_E_IRREVERSIBLE_INSTRUMENTATION_PRESENT"},
};

/* Everything the table is meant to hold, in the name chosen where symbols share a value. */
static const expected_t all_codes[] = {
    {HR(0x00000000), "S_OK"},
    {HR(0x00000001), "S_FALSE"},
    {HR(0x800000CB), "DS_IPC_E_ENVVAR_NOT_FOUND"},
    {HR(0x80004001), "E_NOTIMPL"},
    {HR(0x80004002), "E_NOINTERFACE"},
    {HR(0x80004003), "E_POINTER"},
    {HR(0x80004004), "E_ABORT"}, /* a libclrprof profiler kept loaded refuses to detach */
    {HR(0x80004005), "E_FAIL"},
    {HR(0x8000FFFF), "E_UNEXPECTED"},
    {HR(0x80040110), "CLASS_E_NOAGGREGATION"},
    {HR(0x80040111), "CLASS_E_CLASSNOTAVAILABLE"},
    {HR(0x80070002), "ERROR_FILE_NOT_FOUND"},
    {HR(0x80070005), "E_ACCESSDENIED"},
    {HR(0x8007000E), "E_OUTOFMEMORY"},
    {HR(0x80070057), "E_INVALIDARG"},
    {HR(0x8007007A), "ERROR_INSUFFICIENT_BUFFER"},
    {HR(0x8007007E), "ERROR_MOD_NOT_FOUND"},
    {HR(0x8007007F), "ERROR_PROC_NOT_FOUND"},
    {HR(0x800700C1), "ERROR_BAD_EXE_FORMAT"},
#ifdef _WIN32 /* the .NET Framework attach API's own Win32 codes (Windows table only) */
    {HR(0x80070522), "ERROR_PRIVILEGE_NOT_HELD"},
    {HR(0x800705B4), "ERROR_TIMEOUT"},
#endif
    {HR(0x80131350), "CORPROF_E_FUNCTION_NOT_COMPILED"},
    {HR(0x80131351), "CORPROF_E_DATAINCOMPLETE"},
    {HR(0x80131354), "CORPROF_E_FUNCTION_NOT_IL"},
    {HR(0x80131355), "CORPROF_E_NOT_MANAGED_THREAD"},
    {HR(0x80131356), "CORPROF_E_CALL_ONLY_FROM_INIT"},
    {HR(0x8013135B), "DS_IPC_E_NOT_YET_AVAILABLE"},
    {HR(0x8013135C), "CORPROF_E_TYPE_IS_PARAMETERIZED"},
    {HR(0x8013135D), "CORPROF_E_FUNCTION_IS_PARAMETERIZED"},
    {HR(0x8013135E), "CORPROF_E_STACKSNAPSHOT_INVALID_TGT_THREAD"},
    {HR(0x8013135F), "CORPROF_E_STACKSNAPSHOT_UNMANAGED_CTX"},
    {HR(0x80131360), "CORPROF_E_STACKSNAPSHOT_UNSAFE"},
    {HR(0x80131361), "CORPROF_E_STACKSNAPSHOT_ABORTED"},
    {HR(0x80131362), "CORPROF_E_LITERALS_HAVE_NO_ADDRESS"},
    {HR(0x80131363), "CORPROF_E_UNSUPPORTED_CALL_SEQUENCE"},
    {HR(0x80131364), "CORPROF_E_ASYNCHRONOUS_UNSAFE"},
    {HR(0x80131365), "CORPROF_E_CLASSID_IS_ARRAY"},
    {HR(0x80131366), "CORPROF_E_CLASSID_IS_COMPOSITE"},
    {HR(0x80131367), "CORPROF_E_PROFILER_DETACHING"},
    {HR(0x80131368), "CORPROF_E_PROFILER_NOT_ATTACHABLE"},
    {HR(0x80131369), "CORPROF_E_UNRECOGNIZED_PIPE_MSG_FORMAT"},
    {HR(0x8013136A), "CORPROF_E_PROFILER_ALREADY_ACTIVE"},
    {HR(0x8013136B), "CORPROF_E_PROFILEE_INCOMPATIBLE_WITH_TRIGGER"},
    {HR(0x8013136C), "CORPROF_E_IPC_FAILED"},
    {HR(0x8013136D), "CORPROF_E_PROFILEE_PROCESS_NOT_FOUND"},
    {HR(0x8013136E), "CORPROF_E_CALLBACK3_REQUIRED"},
    {HR(0x8013136F), "CORPROF_E_UNSUPPORTED_FOR_ATTACHING_PROFILER"},
    {HR(0x80131370), "CORPROF_E_IRREVERSIBLE_INSTRUMENTATION_PRESENT"},
    {HR(0x80131371), "CORPROF_E_RUNTIME_UNINITIALIZED"},
    {HR(0x80131372), "CORPROF_E_IMMUTABLE_FLAGS_SET"},
    {HR(0x80131373), "CORPROF_E_PROFILER_NOT_YET_INITIALIZED"},
    {HR(0x80131374), "CORPROF_E_INCONSISTENT_WITH_FLAGS"},
    {HR(0x80131375), "CORPROF_E_PROFILER_CANCEL_ACTIVATION"},
    {HR(0x80131376), "CORPROF_E_CONCURRENT_GC_NOT_PROFILABLE"},
    {HR(0x80131378), "CORPROF_E_DEBUGGING_DISABLED"},
    {HR(0x80131379), "CORPROF_E_TIMEOUT_WAITING_FOR_CONCURRENT_GC"},
    {HR(0x8013137A), "CORPROF_E_MODULE_IS_DYNAMIC"},
    {HR(0x8013137B), "CORPROF_E_CALLBACK4_REQUIRED"},
    {HR(0x8013137C), "CORPROF_E_REJIT_NOT_ENABLED"},
    {HR(0x8013137E), "CORPROF_E_FUNCTION_IS_COLLECTIBLE"},
    {HR(0x80131380), "CORPROF_E_CALLBACK6_REQUIRED"},
    {HR(0x80131382), "CORPROF_E_CALLBACK7_REQUIRED"},
    {HR(0x80131383), "CORPROF_E_REJIT_INLINING_DISABLED"},
    {HR(0x80131384), "DS_IPC_E_BAD_ENCODING"},
    {HR(0x80131385), "DS_IPC_E_UNKNOWN_COMMAND"},
    {HR(0x80131386), "DS_IPC_E_UNKNOWN_MAGIC"},
    {HR(0x80131387), "CORDIAGIPC_E_UNKNOWN_ERROR"},
    {HR(0x80131388), "CORPROF_E_SUSPENSION_IN_PROGRESS"},
    {HR(0x80131389), "CORPROF_E_NOT_GC_OBJECT"},
    {HR(0x8013138A), "CORPROF_E_MODULE_IS_ENC"},
    {HR(0x80131515), "DS_IPC_E_NOTSUPPORTED"},
    {HR(0x80131604), "COR_E_TARGETINVOCATION"}, /* .NET 8 startup hook that threw */
};

#ifdef _WIN32
/* Seed 000 (ICLRProfiling::AttachProfiler): every HRESULT its table lists, by the name chosen
 * here where symbols share a value, and a word of what that table says it means. */
static const struct {
    int32_t value;
    const char *name;
    const char *says;
} framework_codes[] = {
    {HR(0x00000000), "S_OK", "Success"},
    {HR(0x8013136A), "CORPROF_E_PROFILER_ALREADY_ACTIVE", "already"},
    {HR(0x80131368), "CORPROF_E_PROFILER_NOT_ATTACHABLE", "E_NOTIMPL"},
    {HR(0x8013136B), "CORPROF_E_PROFILEE_INCOMPATIBLE_WITH_TRIGGER", "incompatible"},
    {HR(0x80070005), "E_ACCESSDENIED", "may not attach"},
    {HR(0x80070522), "ERROR_PRIVILEGE_NOT_HELD", "privilege"},
    {HR(0x8013136C), "CORPROF_E_IPC_FAILED", "shutting down"},
    {HR(0x80070002), "ERROR_FILE_NOT_FOUND", "does not run a CLR that supports attach"},
    {HR(0x800705B4), "ERROR_TIMEOUT", "before the profiler began to load"},
    {HR(0x80070057), "E_INVALIDARG", "rejected"},
    {HR(0x80004005), "E_FAIL", "nspecified"},
};
#endif

/* Checks that hr is in the table under the expected name with a meaning and a hint, and that
 * the name/describe/hint wrappers agree with the entry. */
static void expect_entry(const expected_t *e)
{
    const clra_hresult_info_t *info = clra_hresult_lookup(e->value);
    ASSERT_MSG(info != NULL, "0x%08" PRIx32 " (%s) is missing", (uint32_t)e->value, e->name);
    ASSERT_EQ(info->value, e->value);
    ASSERT_STREQ(info->name, e->name);
    ASSERT_MSG(info->meaning && strlen(info->meaning) > 10, "%s has no meaning", e->name);
    ASSERT_MSG(info->hint && strlen(info->hint) > 10, "%s has no hint", e->name);
    ASSERT_MSG(!strchr(info->meaning, '\n') && !strchr(info->hint, '\n'),
               "%s spans more than one line", e->name);
    ASSERT_STREQ(clra_hresult_name(e->value), e->name);
    ASSERT(clra_hresult_describe(e->value) == info->meaning);
    ASSERT(clra_hresult_hint(e->value) == info->hint);
}

TEST(every_attach_profiler_code_is_named_and_explained)
{
    for (size_t i = 0; i < COUNT(attach_codes); i++)
        expect_entry(&attach_codes[i]);
}

/* Registered on every platform (the runner finds tests by their TEST( lines), run on Windows. */
TEST(every_framework_attach_code_is_named_and_explained_as_the_api_documents)
{
#ifndef _WIN32
    SKIP("the .NET Framework's attach codes are explained in the Windows build only");
#else
    for (size_t i = 0; i < COUNT(framework_codes); i++) {
        expected_t e = {framework_codes[i].value, framework_codes[i].name};
        expect_entry(&e);
        ASSERT_MSG(strstr(clra_hresult_describe(e.value), framework_codes[i].says) != NULL,
                   "%s: the meaning does not say '%s'", e.name, framework_codes[i].says);
    }
#endif
}

TEST(every_detach_refusal_is_named_and_explained)
{
    for (size_t i = 0; i < COUNT(detach_codes); i++)
        expect_entry(&detach_codes[i]);
}

TEST(every_expected_code_is_in_the_table)
{
    for (size_t i = 0; i < COUNT(all_codes); i++)
        expect_entry(&all_codes[i]);
}

TEST(names_and_entries_are_unique)
{
    for (size_t i = 0; i < COUNT(all_codes); i++) {
        const clra_hresult_info_t *a = clra_hresult_lookup(all_codes[i].value);
        ASSERT(a != NULL);
        for (size_t j = i + 1; j < COUNT(all_codes); j++) {
            const clra_hresult_info_t *b = clra_hresult_lookup(all_codes[j].value);
            ASSERT(b != NULL);
            ASSERT_MSG(a != b, "0x%08" PRIx32 " and 0x%08" PRIx32 " share an entry",
                       (uint32_t)a->value, (uint32_t)b->value);
            ASSERT_MSG(a->value != b->value, "value 0x%08" PRIx32 " twice", (uint32_t)a->value);
            ASSERT_MSG(strcmp(a->name, b->name) != 0, "name %s twice", a->name);
        }
    }
}

/* Walks every value of the facilities the table uses: anything found must be on the list
 * above, so the table holds nothing unexpected there. */
TEST(table_holds_only_the_listed_codes)
{
    static const uint32_t bases[] = {0x00000000u, 0x80000000u, 0x80040000u, 0x80070000u,
                                     0x80130000u};
    size_t found = 0;
    for (size_t b = 0; b < COUNT(bases); b++) {
        for (uint32_t low = 0; low <= 0xFFFFu; low++) {
            int32_t hr = HR(bases[b] | low);
            const clra_hresult_info_t *info = clra_hresult_lookup(hr);
            if (!info)
                continue;
            ASSERT_EQ(info->value, hr);
            size_t i = 0;
            while (i < COUNT(all_codes) && all_codes[i].value != hr)
                i++;
            ASSERT_MSG(i < COUNT(all_codes), "unlisted entry 0x%08" PRIx32 " %s",
                       (uint32_t)hr, info->name);
            found++;
        }
    }
    ASSERT_EQ(found, COUNT(all_codes));
}

TEST(s_ok_is_found)
{
    const clra_hresult_info_t *info = clra_hresult_lookup(0);
    ASSERT(info != NULL);
    ASSERT_EQ(info->value, 0);
    ASSERT_STREQ(clra_hresult_name(0), "S_OK");
}

TEST(unknown_code_is_named_unknown)
{
    ASSERT(clra_hresult_lookup(HR(0x80131377)) == NULL);
    ASSERT_STREQ(clra_hresult_name(HR(0x80131377)), "UNKNOWN_HRESULT");
    ASSERT_STREQ(clra_hresult_name(HR(0x80070020)), "UNKNOWN_HRESULT");
    ASSERT_STREQ(clra_hresult_name(HR(0xDEADBEEF)), "UNKNOWN_HRESULT");
    ASSERT_STREQ(clra_hresult_name(2), "UNKNOWN_HRESULT");
}

TEST(unknown_win32_code_gets_the_os_sentence)
{
    const char *meaning = clra_hresult_describe(HR(0x80070020)); /* sharing violation */
    const char *hint = clra_hresult_hint(HR(0x80070020));
    ASSERT_CONTAINS(meaning, "Windows/PAL error code");
    ASSERT_CONTAINS(meaning, "0x8007");
    ASSERT_CONTAINS(meaning, "profiler");
    ASSERT(strlen(hint) > 10);
    ASSERT_STREQ(clra_hresult_describe(HR(0x80070079)), meaning); /* semaphore timeout */
    ASSERT_STREQ(clra_hresult_hint(HR(0x80070079)), hint);
}

TEST(unknown_failure_code_points_at_the_profiler)
{
    const char *meaning = clra_hresult_describe(HR(0x80041234));
    const char *hint = clra_hresult_hint(HR(0x80041234));
    ASSERT_CONTAINS(meaning, "InitializeForAttach");
    ASSERT_CONTAINS(hint, "profiler's log");
    ASSERT_STREQ(clra_hresult_describe(HR(0xDEADBEEF)), meaning);
    ASSERT_STREQ(clra_hresult_describe(HR(0x80131377)), meaning);
    ASSERT(strcmp(meaning, clra_hresult_describe(HR(0x80070020))) != 0);
    ASSERT(strcmp(hint, clra_hresult_hint(HR(0x80070020))) != 0);
}

TEST(unknown_success_code_is_not_called_a_failure)
{
    const char *meaning = clra_hresult_describe(2);
    ASSERT(meaning != NULL && strlen(meaning) > 10);
    ASSERT(strcmp(meaning, clra_hresult_describe(HR(0x80041234))) != 0);
    ASSERT(clra_hresult_hint(0x7FFFFFFF) != NULL);
}

TEST(mod_not_found_hint_says_the_path_is_resolved_in_the_target)
{
    const char *hint = clra_hresult_hint(HR(0x8007007E));
    ASSERT_CONTAINS(hint, "inside the target");
#ifdef _WIN32 /* LoadLibrary: no mount namespaces, missing imports instead of ldd */
    ASSERT_CONTAINS(hint, "imports");
    ASSERT_CONTAINS(clra_hresult_describe(HR(0x8007007E)), "LoadLibrary");
#else
    ASSERT_CONTAINS(hint, "mount namespace");
    ASSERT_CONTAINS(hint, "ldd");
#endif
}

TEST(already_active_hint_offers_notification_only)
{
    ASSERT_CONTAINS(clra_hresult_hint(HR(0x8013136A)), "LoadAsNotificationOnly");
}

TEST(not_yet_available_hint_offers_resume_and_launch_with_a_startup_profiler)
{
    const char *hint = clra_hresult_hint(HR(0x8013135B));
    ASSERT_CONTAINS(hint, "'clrattach resume PID'");
    ASSERT_CONTAINS(hint, "'clrattach launch --profiler PATH -- COMMAND'");
    ASSERT_CONTAINS(hint, "StartupProfiler");
}
