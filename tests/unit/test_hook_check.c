/* The startup-hook assembly check against real compiler output: the test hook, the sample app
 * (no StartupHook) and one assembly per mistake (tests/apps/badhook), plus files that are not
 * assemblies and every truncation and byte flip of a good one. A hook this check lets through
 * wrongly ends the target process, so each rejection names its reason. */
#define _GNU_SOURCE
#include "assembly/assembly.h"
#include "clrattach.h"
#include "test.h"
#include "test_apps.h"

#include <stdlib.h>
#include <unistd.h>

/* Reads a whole file into an exactly sized heap buffer (so ASan sees any overread). */
static uint8_t *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    ASSERT_MSG(f != NULL, "cannot open %s (built by the test_apps target)", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    uint8_t *buf = malloc((size_t)n);
    ASSERT(buf != NULL && fread(buf, 1, (size_t)n, f) == (size_t)n);
    fclose(f);
    *len = (size_t)n;
    return buf;
}

static void expect_rejected(const char *path, const char *reason)
{
    clra_status_t st;
    ASSERT_EQ(clra_startup_hook_check(path, &st), CLRA_EINVAL);
    ASSERT_CONTAINS(st.detail, path);
    ASSERT_CONTAINS(st.detail, reason);
}

TEST(hook_check_accepts_the_test_hook)
{
    NEED_TEST_APPS();
    clra_status_t st;
    ASSERT_EQ(clra_startup_hook_check(CLRA_HOOK_DLL, &st), 0);
    ASSERT_STREQ(st.detail, "");
}

TEST(hook_check_names_each_wrong_initialize)
{
    NEED_TEST_APPS();
    static const char *const variants[] = {"instance", "params", "returns", "generic"};
    char path[512];
    for (size_t i = 0; i < sizeof variants / sizeof variants[0]; i++) {
        snprintf(path, sizeof path, "%s/badhook_%s.dll", CLRA_BADHOOK_DIR, variants[i]);
        expect_rejected(path, "must be `static void Initialize()`");
    }
}

TEST(hook_check_names_a_startuphook_in_a_namespace_or_class)
{
    NEED_TEST_APPS();
    expect_rejected(CLRA_BADHOOK_DIR "/badhook_namespaced.dll", "declared inside Hooks");
    expect_rejected(CLRA_BADHOOK_DIR "/badhook_nested.dll", "declared inside another class");
}

TEST(hook_check_rejects_an_assembly_without_startuphook)
{
    NEED_TEST_APPS();
    expect_rejected(CLRA_SAMPLE_DLL, "has no class StartupHook");
}

TEST(hook_check_rejects_files_that_are_not_assemblies)
{
    char dir[] = "/tmp/clra-hookcheck-XXXXXX", path[64];
    ASSERT(mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/text.dll", dir);
    FILE *f = fopen(path, "w");
    ASSERT(f != NULL);
    fputs("this is not an assembly\n", f);
    fclose(f);
    expect_rejected(path, "no MZ header");
    ASSERT_EQ(truncate(path, 0), 0);
    expect_rejected(path, "not a regular file of 1 byte to 256 MiB");
    unlink(path);
    expect_rejected(path, "No such file or directory");
    expect_rejected(dir, "not a regular file");
    expect_rejected("/proc/self/exe", "no MZ header"); /* an ELF program */
    rmdir(dir);
}

TEST(hook_check_rejects_a_native_pe_without_cli_header)
{
    NEED_TEST_APPS();
    size_t len;
    uint8_t *img = slurp(CLRA_HOOK_DLL, &len);
    char why[256];
    /* Zero the CLI header's data directory entry (PE32: optional header + 96 + 8 * 14). */
    uint32_t pe = (uint32_t)(img[0x3C] | img[0x3D] << 8 | img[0x3E] << 16) |
                  (uint32_t)img[0x3F] << 24;
    ASSERT_EQ(img[pe + 24] | img[pe + 25] << 8, 0x10B); /* dotnet writes PE32 for AnyCPU */
    memset(img + pe + 24 + 96 + 8 * 14, 0, 8);
    ASSERT_EQ(clra__hook_check_image(img, len, why, sizeof why), -1);
    ASSERT_CONTAINS(why, "no CLI header");
    free(img);
}

TEST(hook_check_fails_cleanly_on_every_truncation_of_a_good_hook)
{
    NEED_TEST_APPS();
    size_t len;
    uint8_t *img = slurp(CLRA_HOOK_DLL, &len);
    char why[256];
    int accepted = 0;
    for (size_t n = 0; n < len; n++) {
        uint8_t *cut = malloc(n ? n : 1); /* exact size: ASan sees every overread */
        memcpy(cut, img, n);
        why[0] = '\0';
        int rc = clra__hook_check_image(cut, n, why, sizeof why);
        ASSERT_MSG(rc == 0 || why[0], "truncation at %zu failed without a reason", n);
        accepted += rc == 0;
        free(cut);
    }
    /* Every section's bytes are checked to be in the file, so no cut passes. */
    ASSERT_MSG(accepted == 0, "%d of %zu truncations accepted", accepted, len);
    ASSERT_EQ(clra__hook_check_image(img, len, why, sizeof why), 0);
    free(img);
}

TEST(hook_check_names_a_file_cut_short)
{
    NEED_TEST_APPS();
    size_t len;
    uint8_t *img = slurp(CLRA_HOOK_DLL, &len);
    char why[256];
    ASSERT_EQ(clra__hook_check_image(img, len - 1, why, sizeof why), -1);
    ASSERT_CONTAINS(why, "the file is cut short");
    free(img);
}

TEST(hook_check_survives_every_single_byte_corruption_of_a_good_hook)
{
    NEED_TEST_APPS();
    size_t len;
    uint8_t *img = slurp(CLRA_HOOK_DLL, &len);
    char why[256];
    for (size_t i = 0; i < len; i++) {
        static const uint8_t values[] = {0x00, 0xFF, 0x80};
        uint8_t keep = img[i];
        for (size_t v = 0; v < sizeof values; v++) {
            img[i] = values[v];
            why[0] = '\0';
            int rc = clra__hook_check_image(img, len, why, sizeof why);
            ASSERT_MSG(rc == 0 || why[0], "corruption at %zu failed without a reason", i);
        }
        img[i] = keep;
    }
    free(img);
}
