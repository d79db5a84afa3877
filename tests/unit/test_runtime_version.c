/* The runtime's version as the verbs that depend on it read it (src/cli/base/runtime_version.c),
 * from a fake diagnostics server answering ProcessInfo3 (docs/protocol.md 3.4). */
#define _GNU_SOURCE
#include "base/cli.h"
#include "fakesrv.h"
#include "test.h"

#include <string.h>

/* A string of the reply: uint32 units (NUL included), then UTF-16LE of ascii; its length. */
static size_t put_string(uint8_t *p, const char *ascii)
{
    uint32_t units = (uint32_t)strlen(ascii) + 1;
    memcpy(p, &units, 4);
    for (uint32_t i = 0; i < units; i++)
        p[4 + 2 * i] = (uint8_t)ascii[i], p[5 + 2 * i] = 0;
    return 4 + 2 * (size_t)units;
}

/* A whole ProcessInfo3 (version 1) OK message naming clr as the runtime's version. */
static size_t info3_message(uint8_t *out, const char *clr)
{
    static const uint8_t magic[14] = "DOTNET_IPC_V1";
    uint8_t *p = out + 20;
    uint32_t version = 1;
    uint64_t pid = 4242;
    memcpy(p, &version, 4), p += 4;
    memcpy(p, &pid, 8), p += 8;
    memset(p, 0x5A, 16), p += 16; /* the runtime's cookie */
    const char *fields[] = {"app", "Linux", "x64", "app", clr, "linux-x64"};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        p += put_string(p, fields[i]);
    uint16_t size = (uint16_t)(p - out);
    memcpy(out, magic, 14);
    memcpy(out + 14, &size, 2);
    out[16] = 0xFF, out[17] = 0x00, out[18] = out[19] = 0; /* server, OK */
    return size;
}

/* cli_runtime_version against a server whose runtime says it is clr. */
static int version_of(const char *clr, char *buf, size_t cap, unsigned *major)
{
    uint8_t reply[512];
    fakesrv_t *s = fakesrv_start(FAKESRV_REPLY, reply, info3_message(reply, clr), 0);
    ASSERT(s != NULL);
    clra_target_t t = clra_target_socket(fakesrv_path(s));
    int rc = cli_runtime_version(&t, 5000, buf, cap, major);
    fakesrv_stop(s);
    return rc;
}

TEST(runtime_version_is_the_text_the_runtime_says_and_its_leading_number)
{
    static const struct {
        const char *clr;
        unsigned major;
    } cases[] = {{"8.0.31", 8}, {"10.0.0-rc.1.25451.107", 10}, {"9.0.20+abc", 9},
                 {"preview", 0}, {"", 0}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char buf[64];
        unsigned major = 99;
        ASSERT_EQ(version_of(cases[i].clr, buf, sizeof buf, &major), 0);
        ASSERT_STREQ(buf, cases[i].clr);
        ASSERT_MSG(major == cases[i].major, "'%s' gave %u", cases[i].clr, major);
    }
    unsigned major = 0;
    ASSERT_EQ(version_of("9.0.20", NULL, 0, &major), 0); /* the number only */
    ASSERT_EQ(major, 9u);
}

TEST(runtime_version_unknown_when_no_runtime_answers)
{
    fakesrv_t *s = fakesrv_start(FAKESRV_CLOSE, NULL, 0, 0);
    ASSERT(s != NULL);
    clra_target_t t = clra_target_socket(fakesrv_path(s));
    char buf[64] = "stale";
    unsigned major = 99;
    ASSERT_EQ(cli_runtime_version(&t, 2000, buf, sizeof buf, &major), -1);
    ASSERT_STREQ(buf, "");
    ASSERT_EQ(major, 0u);
    fakesrv_stop(s);
}
