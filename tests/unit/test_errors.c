/* Unit tests of error names and messages, the version and GUID text. */
#include "clrattach.h"
#include "test.h"

TEST(errors_every_code_has_a_name_and_message)
{
#define CHECK_CODE(name, value, msg)                                  \
    ASSERT_STREQ(clra_err_name(value), "CLRA_" #name);                \
    ASSERT_STREQ(clra_strerror(value), msg);
    CLRA_ERRNO_MAP(CHECK_CODE)
#undef CHECK_CODE
    ASSERT_STREQ(clra_err_name(-999), "CLRA_EUNKNOWN");
    ASSERT_STREQ(clra_strerror(-999), "unknown error");
}

TEST(errors_version_matches_macros)
{
    ASSERT_EQ(clra_version(), CLRA_VERSION_HEX);
    char want[32];
    snprintf(want, sizeof want, "%d.%d.%d", CLRA_VERSION_MAJOR, CLRA_VERSION_MINOR, CLRA_VERSION_PATCH);
    ASSERT_STREQ(clra_version_string(), want);
}

/* The version is written once, in CMake's project(): the generated header, the library and
 * the build (CLRA_CMAKE_VERSION, passed by tests.cmake) must all say the same. */
TEST(errors_version_follows_cmake)
{
    char built[32];
    snprintf(built, sizeof built, "%d.%d.%d", CLRA_VERSION_MAJOR, CLRA_VERSION_MINOR, CLRA_VERSION_PATCH);
    ASSERT_STREQ(built, CLRA_CMAKE_VERSION);
    ASSERT_STREQ(CLRA_VERSION_STRING, CLRA_CMAKE_VERSION);
    ASSERT_STREQ(clra_version_string(), CLRA_CMAKE_VERSION);
    ASSERT_EQ(clra_version(), (unsigned)(CLRA_VERSION_MAJOR << 16 | CLRA_VERSION_MINOR << 8 |
                                         CLRA_VERSION_PATCH));
}

TEST(guid_round_trips_with_and_without_braces)
{
    clra_guid_t a, b;
    char text[37];
    ASSERT_EQ(clra_guid_parse("5e3e0c65-3e00-442d-b0ad-7f2d7f8946df", &a), 0);
    ASSERT_EQ(a.data1, 0x5E3E0C65u);
    ASSERT_EQ(a.data2, 0x3E00);
    ASSERT_EQ(a.data3, 0x442D);
    ASSERT_EQ(a.data4[0], 0xB0);
    ASSERT_EQ(a.data4[7], 0xDF);
    clra_guid_format(&a, text);
    ASSERT_STREQ(text, "5E3E0C65-3E00-442D-B0AD-7F2D7F8946DF");
    ASSERT_EQ(clra_guid_parse("{5E3E0C65-3E00-442D-B0AD-7F2D7F8946DF}", &b), 0);
    ASSERT_MEMEQ(&a, &b, sizeof a);
}

TEST(guid_rejects_malformed_text)
{
    static const char *const bad[] = {
        "", "5E3E0C65-3E00-442D-B0AD-7F2D7F8946D", "5E3E0C65-3E00-442D-B0AD-7F2D7F8946DFF",
        "5E3E0C65 3E00-442D-B0AD-7F2D7F8946DF", "5E3E0C6G-3E00-442D-B0AD-7F2D7F8946DF",
        "{5E3E0C65-3E00-442D-B0AD-7F2D7F8946DF", "5E3E0C65-3E00-442D-B0AD-7F2D7F89-6DF",
        "+E3E0C65-3E00-442D-B0AD-7F2D7F8946DF",
    };
    clra_guid_t g;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ASSERT_MSG(clra_guid_parse(bad[i], &g) == CLRA_EINVAL, "accepted '%s'", bad[i]);
    ASSERT_EQ(clra_guid_parse(NULL, &g), CLRA_EINVAL);
}
