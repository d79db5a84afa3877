/* test_names.c - clrprof_function_name's formatting and bounds, against a fake Info and a fake
 * IMetaDataImport that follow the documented contracts (counts include the NUL, names cut to
 * the buffer with CLDB_S_TRUNCATION, GetNestedClassProps failing for top-level types). The
 * real metadata is exercised end to end in tests/e2e/test_callbacks.c. */
#include "test.h"

#include "clrprof/clrprof_profiler.h"
#include "clrprof/clrprof_util.h"
#include "clrprof/cormeta.h"

#include <string.h>

#include "profiler_internal.h" /* clrprof__function_name_with */

#define CLDB_E_RECORD_NOTFOUND ((HRESULT)0x80131130)
#define CORPROF_E_FUNCTION_NOT_IL ((HRESULT)0x80131354)

typedef struct fake_row {
    mdToken token;
    const char *name;  /* UTF-8 here; the fake hands it out as UTF-16 */
    mdToken parent;    /* a method's type, or a nested type's enclosing type (else nil) */
} fake_row_t;

typedef struct fake_md {
    IMetaDataImport iface; /* first: the pointer handed out is this struct */
    const fake_row_t *rows;
    int refs; /* references handed out and not yet released */
} fake_md_t;

static const fake_row_t *find_row(IMetaDataImport *This, mdToken tk)
{
    for (const fake_row_t *r = ((fake_md_t *)This)->rows; r->token; r++)
        if (r->token == tk)
            return r;
    return NULL;
}

/* Copies a name the way the metadata does: *pch gets the full count with the NUL, the buffer
 * gets what fits, and a cut name is CLDB_S_TRUNCATION. */
static HRESULT copy_name(const char *name, WCHAR *buf, ULONG cch, ULONG *pch)
{
    WCHAR full[256];
    long n = clrprof_utf8_to_utf16(name, full, 256);
    ASSERT(n >= 0);
    *pch = (ULONG)n + 1;
    ULONG keep = (ULONG)n < cch ? (ULONG)n : cch - 1;
    memcpy(buf, full, keep * sizeof(WCHAR));
    buf[keep] = 0;
    return keep < (ULONG)n ? CLDB_S_TRUNCATION : S_OK;
}

static ULONG fake_release(IMetaDataImport *This)
{
    return (ULONG)--((fake_md_t *)This)->refs;
}

static HRESULT fake_method_props(IMetaDataImport *This, mdMethodDef mb, mdTypeDef *pClass,
                                 WCHAR szMethod[], ULONG cchMethod, ULONG *pchMethod,
                                 DWORD *pdwAttr, PCCOR_SIGNATURE *ppvSigBlob, ULONG *pcbSigBlob,
                                 ULONG *pulCodeRVA, DWORD *pdwImplFlags)
{
    (void)pdwAttr, (void)ppvSigBlob, (void)pcbSigBlob, (void)pulCodeRVA, (void)pdwImplFlags;
    const fake_row_t *r = find_row(This, mb);
    if (!r || TypeFromToken(mb) != mdtMethodDef)
        return CLDB_E_RECORD_NOTFOUND;
    *pClass = r->parent;
    return copy_name(r->name, szMethod, cchMethod, pchMethod);
}

static HRESULT fake_type_props(IMetaDataImport *This, mdTypeDef td, WCHAR szTypeDef[],
                               ULONG cchTypeDef, ULONG *pchTypeDef, DWORD *pdwTypeDefFlags,
                               mdToken *ptkExtends)
{
    (void)pdwTypeDefFlags, (void)ptkExtends;
    const fake_row_t *r = find_row(This, td);
    if (!r || TypeFromToken(td) != mdtTypeDef)
        return CLDB_E_RECORD_NOTFOUND;
    return copy_name(r->name, szTypeDef, cchTypeDef, pchTypeDef);
}

static HRESULT fake_nested(IMetaDataImport *This, mdTypeDef td, mdTypeDef *outer)
{
    const fake_row_t *r = find_row(This, td);
    if (!r || IsNilToken(r->parent))
        return CLDB_E_RECORD_NOTFOUND;
    *outer = r->parent;
    return S_OK;
}

static const IMetaDataImportVtbl fake_md_vtbl = {
    .Release = fake_release,
    .GetMethodProps = fake_method_props,
    .GetTypeDefProps = fake_type_props,
    .GetNestedClassProps = fake_nested,
};

/* The Info hands out the fake import; FunctionID is the method token, or an HRESULT to fail
 * with when its top bit is set. */
static fake_md_t *current_md;

static HRESULT fake_token_and_metadata(ICorProfilerInfo15 *This, FunctionID fn, REFIID riid,
                                       IUnknown **ppImport, mdToken *pToken)
{
    (void)This;
    ASSERT(memcmp(riid, &IID_IMetaDataImport, sizeof(IID)) == 0);
    if (fn & 0x80000000u)
        return (HRESULT)(uint32_t)fn;
    current_md->refs++;
    *ppImport = (IUnknown *)&current_md->iface;
    *pToken = (mdToken)fn;
    return S_OK;
}

static ICorProfilerInfo15Vtbl fake_info_vtbl = {
    .GetTokenAndMetaDataFromFunction = fake_token_and_metadata,
};
static ICorProfilerInfo15 fake_info = {&fake_info_vtbl};

static const fake_row_t sample_rows[] = {
    {0x02000002, "ClrAttach.Sample.Outer", mdTypeDefNil},
    {0x02000003, "Inner", 0x02000002},
    {0x02000004, "Deep", 0x02000003},
    {0x02000005, "ClrAttach.Sample.Fresh", mdTypeDefNil},
    {0x02000006, "Caf\xC3\xA9\xF0\x9F\x98\x80", mdTypeDefNil}, /* 2- and 4-byte UTF-8 */
    {0x02000007, "Loop", 0x02000008},                          /* nested in each other */
    {0x02000008, "Pool", 0x02000007},
    {0x06000001, "M", 0x02000004},
    {0x06000002, "M3", 0x02000005},
    {0x06000003, "\xC3\xA9t\xC3\xA9", 0x02000006},
    {0x06000004, "Spin", 0x02000007},
    {0x06000005, "Global", mdTypeDefNil},
    {0x06000006, "Orphan", 0x02000042}, /* owner with no row: GetTypeDefProps fails */
    {0, NULL, 0},
};

/* Names fn with a fresh fake; returns the HRESULT and checks the import was released. */
static HRESULT name_of(FunctionID fn, char *out, size_t cap)
{
    static fake_md_t md;
    md = (fake_md_t){{&fake_md_vtbl}, sample_rows, 0};
    current_md = &md;
    HRESULT hr = clrprof__function_name_with(&fake_info, fn, out, cap);
    ASSERT_MSG(md.refs == 0, "%d references to the metadata import were not released", md.refs);
    return hr;
}

TEST(function_name_joins_namespace_nested_types_and_method)
{
    char out[128];
    ASSERT_EQ(name_of(0x06000001, out, sizeof out), S_OK);
    ASSERT_STREQ(out, "ClrAttach.Sample.Outer+Inner+Deep.M");
    ASSERT_EQ(name_of(0x06000002, out, sizeof out), S_OK);
    ASSERT_STREQ(out, "ClrAttach.Sample.Fresh.M3");
}

TEST(function_name_of_a_method_without_a_type_is_the_method_alone)
{
    char out[64];
    ASSERT_EQ(name_of(0x06000005, out, sizeof out), S_OK);
    ASSERT_STREQ(out, "Global");
}

TEST(function_name_converts_utf16_names_to_utf8)
{
    char out[64];
    ASSERT_EQ(name_of(0x06000003, out, sizeof out), S_OK);
    ASSERT_STREQ(out, "Caf\xC3\xA9\xF0\x9F\x98\x80.\xC3\xA9t\xC3\xA9");
}

/* Every capacity: nothing written past cap, the result is a prefix of the full name that
 * ends on a character boundary, and only the full name is reported as S_OK. */
TEST(function_name_never_overflows_or_splits_a_character)
{
    static const FunctionID fns[] = {0x06000001, 0x06000003};
    for (size_t f = 0; f < sizeof fns / sizeof fns[0]; f++) {
        char full[128], out[160];
        ASSERT_EQ(name_of(fns[f], full, sizeof full), S_OK);
        size_t full_len = strlen(full);
        for (size_t cap = 1; cap <= full_len + 2; cap++) {
            memset(out, 0x5A, sizeof out);
            HRESULT hr = name_of(fns[f], out, cap);
            const char *nul = memchr(out, '\0', cap);
            ASSERT_MSG(nul != NULL, "cap %zu: no NUL inside the buffer", cap);
            size_t len = (size_t)(nul - out);
            ASSERT_MSG(out[cap] == 0x5A, "cap %zu: wrote past the buffer", cap);
            ASSERT_MSG(memcmp(out, full, len) == 0, "cap %zu: \"%s\" is not a prefix", cap, out);
            ASSERT_MSG((full[len] & 0xC0) != 0x80, "cap %zu: split a character", cap);
            ASSERT_EQ(hr, len == full_len ? S_OK : CLDB_S_TRUNCATION);
        }
    }
}

TEST(function_name_refuses_a_zero_capacity_without_writing)
{
    char out[4] = "abc";
    ASSERT_EQ(clrprof__function_name_with(&fake_info, 0x06000001, out, 0), E_INVALIDARG);
    ASSERT_STREQ(out, "abc");
}

TEST(function_name_failure_writes_question_mark_and_returns_the_hresult)
{
    char out[32];
    ASSERT_EQ(name_of(CORPROF_E_FUNCTION_NOT_IL, out, sizeof out), CORPROF_E_FUNCTION_NOT_IL);
    ASSERT_STREQ(out, "?");
    ASSERT_EQ(name_of(0x06000099, out, sizeof out), CLDB_E_RECORD_NOTFOUND); /* no such method */
    ASSERT_STREQ(out, "?");
    ASSERT_EQ(name_of(0x06000006, out, sizeof out), CLDB_E_RECORD_NOTFOUND); /* no such type */
    ASSERT_STREQ(out, "?");
    ASSERT_EQ(name_of(CORPROF_E_FUNCTION_NOT_IL, out, 1), CORPROF_E_FUNCTION_NOT_IL);
    ASSERT_STREQ(out, "");
    ASSERT_EQ(clrprof__function_name_with(NULL, 0x06000001, out, sizeof out), E_UNEXPECTED);
    ASSERT_STREQ(out, "?");
}

TEST(function_name_stops_following_a_nesting_cycle)
{
    char out[512];
    ASSERT_EQ(name_of(0x06000004, out, sizeof out), CLDB_S_TRUNCATION);
    ASSERT_CONTAINS(out, "Loop.Spin");
    int levels = 1;
    for (const char *c = out; *c; c++)
        levels += *c == '+';
    ASSERT_EQ(levels, 16); /* MAX_NESTING in names.c */
}
