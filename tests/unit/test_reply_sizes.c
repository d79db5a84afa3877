/* Replies whose size is not what their command defines (docs/protocol.md §2.2): an HRESULT reply
 * carries exactly 4 payload bytes, so a 19-, 21-, 25- or 65535-byte answer to attach,
 * startup-hook, setenv, perfmap or resume is a protocol error, never a success. */
#define _GNU_SOURCE
#include "fakesrv.h"
#include "test.h"
#include "clrattach.h"

#include <stdlib.h>
#include <string.h>

/* An OK(S_OK) reply announcing size bytes, padded with junk after the HRESULT (heap). */
static uint8_t *ok_reply_of_size(size_t size)
{
    uint8_t *r = calloc(1, size < 24 ? 24 : size);
    ASSERT(r != NULL);
    memcpy(r, "DOTNET_IPC_V1", 14);
    r[14] = (uint8_t)size;
    r[15] = (uint8_t)(size >> 8);
    r[16] = 0xFF;
    for (size_t i = 24; i < size; i++)
        r[i] = (uint8_t)('A' + i % 26);
    return r;
}

typedef int (*hresult_command_fn)(const clra_target_t *t, clra_status_t *st);

static int do_attach(const clra_target_t *t, clra_status_t *st)
{
    clra_guid_t clsid = {0x12345678, 0x9ABC, 0xDEF0, {1, 2, 3, 4, 5, 6, 7, 8}};
    return clra_profiler_attach(t, &clsid, "/opt/prof/libp.so", NULL, 0, 1000, 0, 3000, st);
}
static int do_setenv(const clra_target_t *t, clra_status_t *st)
{
    return clra_environment_set(t, "A", "b", 3000, st);
}
static int do_resume(const clra_target_t *t, clra_status_t *st)
{
    return clra_runtime_resume(t, 3000, st);
}
static int do_perfmap(const clra_target_t *t, clra_status_t *st)
{
    return clra_perfmap_enable(t, CLRA_PERFMAP_ALL, 3000, st);
}
static int do_hook(const clra_target_t *t, clra_status_t *st)
{
    return clra_startup_hook_apply(t, "/opt/hook.dll", 3000, st);
}

static const hresult_command_fn commands[] = {do_attach, do_setenv, do_resume, do_perfmap,
                                              do_hook};

/* Runs every HRESULT command against a server answering with a reply of the given size. */
static void assert_all_commands_get(size_t size, int want)
{
    uint8_t *reply = ok_reply_of_size(size);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        clra_status_t st;
        fakesrv_t *s = fakesrv_start(FAKESRV_REPLY, reply, size, 0);
        ASSERT(s != NULL);
        clra_target_t t = clra_target_socket(fakesrv_path(s));
        int rc = commands[i](&t, &st);
        fakesrv_stop(s);
        ASSERT_MSG(rc == want, "command %zu, %zu-byte reply: %s (%s), want %s", i, size,
                   clra_err_name(rc), rc ? st.detail : "", clra_err_name(want));
    }
    free(reply);
}

TEST(hresult_reply_of_exactly_24_bytes_is_success)
{
    assert_all_commands_get(24, 0);
}

TEST(hresult_reply_of_65535_bytes_is_a_protocol_error)
{
    assert_all_commands_get(65535, CLRA_EPROTO);
}

TEST(hresult_reply_of_25_bytes_is_a_protocol_error)
{
    assert_all_commands_get(25, CLRA_EPROTO);
}

TEST(hresult_reply_of_21_bytes_is_a_protocol_error)
{
    assert_all_commands_get(21, CLRA_EPROTO);
}

TEST(hresult_reply_of_20_bytes_is_a_protocol_error)
{
    assert_all_commands_get(20, CLRA_EPROTO);
}

TEST(oversized_reply_detail_says_how_many_bytes_were_expected)
{
    clra_status_t st;
    uint8_t *reply = ok_reply_of_size(65535);
    fakesrv_t *s = fakesrv_start(FAKESRV_REPLY, reply, 65535, 0);
    ASSERT(s != NULL);
    clra_target_t t = clra_target_socket(fakesrv_path(s));
    ASSERT_EQ(do_attach(&t, &st), CLRA_EPROTO);
    fakesrv_stop(s);
    free(reply);
    ASSERT_CONTAINS(st.detail, "65515");
    ASSERT_CONTAINS(st.detail, "exactly 4");
}
