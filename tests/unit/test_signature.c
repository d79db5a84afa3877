/* Unit tests of the method signature decoder (src/clrprof/signature.c) on blobs made by hand
 * from ECMA-335 II.23.2, with the spellings dotnet-stack prints for the same methods. */
#include "clrprof/clrprof_signature.h"
#include "test.h"

#include <stdio.h>
#include <string.h>

/* Names every token "T<hex token>", except TypeRef row 5, a real name, and row 9, a failure. */
static int fake_namer(void *ctx, uint32_t token, char *out, size_t cap)
{
    (void)ctx;
    if (token == 0x01000005u)
        return snprintf(out, cap, "System.Threading.CancellationToken"), 0;
    if (token == 0x01000009u)
        return -1;
    snprintf(out, cap, "T%08x", token);
    return 0;
}

static const char *params(const uint8_t *sig, size_t len, size_t cap, int *rc)
{
    static char out[512];
    *rc = clrprof__sig_params(sig, len, fake_namer, NULL, out, cap);
    return out;
}

TEST(signature_reads_what_dotnet_stack_prints)
{
    static const struct { uint8_t sig[16]; size_t len; const char *want; } cases[] = {
        /* static void Main(string[]) */
        {{0x00, 0x01, 0x01, 0x1D, 0x0E}, 5, "(class System.String[])"},
        /* instance bool Wait(int32, valuetype CancellationToken): TypeRef row 5 = 5<<2|1 */
        {{0x20, 0x02, 0x02, 0x08, 0x11, 0x15}, 6,
         "(int32,value class System.Threading.CancellationToken)"},
        /* void M<T>(!!0) */
        {{0x10, 0x01, 0x01, 0x01, 0x1E, 0x00}, 6, "(!!0)"},
        /* void M(class TypeRef3<int32, !0>) */
        {{0x00, 0x01, 0x01, 0x15, 0x12, 0x0D, 0x02, 0x08, 0x13, 0x00}, 10,
         "(class T01000003<int32,!0>)"},
        /* void M(int32[,], float64) */
        {{0x00, 0x02, 0x01, 0x14, 0x08, 0x02, 0x00, 0x00, 0x0D}, 9, "(int32[,],float64)"},
        /* void M(int32&, uint8*, object, native int) */
        {{0x00, 0x04, 0x01, 0x10, 0x08, 0x0F, 0x05, 0x1C, 0x18}, 9,
         "(int32&,uint8*,class System.Object,native int)"},
        /* class TypeDef2 M(!128): a two-byte compressed number; the return type is not shown */
        {{0x00, 0x01, 0x12, 0x08, 0x13, 0x80, 0x80}, 7, "(!128)"},
        /* void M(modreq(TypeRef1) int32) */
        {{0x00, 0x01, 0x01, 0x1F, 0x05, 0x08}, 6, "(int32)"},
        /* instance void M() */
        {{0x20, 0x00, 0x01}, 3, "()"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int rc;
        const char *got = params(cases[i].sig, cases[i].len, 512, &rc);
        ASSERT_MSG(rc == 0 && strcmp(got, cases[i].want) == 0, "case %zu: rc %d, '%s' (want "
                   "'%s')", i, rc, got, cases[i].want);
    }
}

TEST(signature_of_a_corrupt_or_cut_blob_ends_in_a_question_mark)
{
    int rc;
    static const uint8_t missing_param[] = {0x00, 0x02, 0x01, 0x08};
    ASSERT_STREQ(params(missing_param, sizeof missing_param, 512, &rc), "(int32,?)");
    ASSERT_EQ(rc, 1);
    ASSERT_STREQ(params(missing_param, 0, 512, &rc), "(?)");
    static const uint8_t bad_number[] = {0x00, 0x01, 0x01, 0x13, 0xFF};
    ASSERT_STREQ(params(bad_number, sizeof bad_number, 512, &rc), "(?)");
    uint8_t deep[40] = {0x00, 0x01, 0x01};
    memset(deep + 3, 0x1D, 30); /* 30 nested arrays: more than the nesting allowed */
    deep[33] = 0x08;
    ASSERT_STREQ(params(deep, 34, 512, &rc), "(?)");
    ASSERT_EQ(rc, 1);
    static const uint8_t too_many[] = {0x00, 0x7F, 0x01, 0x08};
    ASSERT_STREQ(params(too_many, sizeof too_many, 512, &rc), "(?)");
    static const uint8_t unnamed[] = {0x00, 0x01, 0x01, 0x12, 0x25}; /* TypeRef row 9 */
    ASSERT_STREQ(params(unnamed, sizeof unnamed, 512, &rc), "(class ?)");
    static const uint8_t spec_bad[] = {0x00, 0x01, 0x01, 0x12, 0x07}; /* coded tag 3 */
    ASSERT_STREQ(params(spec_bad, sizeof spec_bad, 512, &rc), "(class ?)");
    static const uint8_t two[] = {0x20, 0x02, 0x02, 0x08, 0x11, 0x15};
    const char *cut = params(two, sizeof two, 12, &rc); /* "(int32,valu" does not fit */
    ASSERT_EQ(rc, 1);
    ASSERT_MSG(strlen(cut) < 12 && strcmp(cut + strlen(cut) - 2, "?)") == 0, "cut: '%s'", cut);
    char small[3];
    ASSERT_EQ(clrprof__sig_params(two, sizeof two, fake_namer, NULL, small, sizeof small), -1);
}
