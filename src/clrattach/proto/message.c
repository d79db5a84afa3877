/* message.c - IPC framing (docs/protocol.md 2): the header, and replies that carry an HRESULT. */
#include "proto/message.h"
#include "common/le_bytes.h"

#include <stdlib.h>
#include <string.h>

static const uint8_t ipc_magic[14] = "DOTNET_IPC_V1"; /* 13 characters and the NUL */

void clra__begin_message(clra__writer_t *w, uint8_t command_set, uint8_t command_id)
{
    clra__put_bytes(w, ipc_magic, sizeof ipc_magic);
    clra__put_u16(w, 0);
    clra__put_u8(w, command_set);
    clra__put_u8(w, command_id);
    clra__put_u16(w, 0);
}

/* The size goes in last because strings and blobs make the payload length known only now. */
int clra__end_message(clra__writer_t *w)
{
    if (w->err)
        return w->err;
    if (w->len > CLRA__MAX_MESSAGE || w->len < CLRA__HEADER_SIZE)
        return CLRA_ETOOBIG;
    w->data[14] = (uint8_t)w->len;
    w->data[15] = (uint8_t)(w->len >> 8);
    return 0;
}

int clra__build_empty(clra__writer_t *w, uint8_t command_set, uint8_t command_id)
{
    clra__begin_message(w, command_set, command_id);
    return clra__end_message(w);
}

int clra__parse_header(const uint8_t bytes[CLRA__HEADER_SIZE], clra__header_t *out)
{
    if (memcmp(bytes, ipc_magic, sizeof ipc_magic) != 0)
        return CLRA_EPROTO;
    out->size = le__u16(bytes + 14);
    out->command_set = bytes[16];
    out->command_id = bytes[17];
    return out->size < CLRA__HEADER_SIZE ? CLRA_EPROTO : 0;
}

/* Trusts the header's size (replies are 24 bytes, not the 28 the spec shows) and ignores
 * bytes after the HRESULT, which Dump3's error text uses. */
int clra__parse_hresult_reply(const clra__header_t *h, const uint8_t *payload, size_t len,
                              int32_t *hr)
{
    clra__reader_t r;
    *hr = 0;
    if (h->command_set != CLRA__SET_SERVER)
        return CLRA_EPROTO;
    if (h->command_id != CLRA__SERVER_OK && h->command_id != CLRA__SERVER_ERROR)
        return CLRA_EPROTO;
    clra__reader_init(&r, payload, len);
    uint32_t code = clra__get_u32(&r);
    if (r.err)
        return CLRA_EPROTO;
    *hr = (int32_t)code;
    if (h->command_id == CLRA__SERVER_ERROR)
        return *hr < 0 ? CLRA_ERUNTIME : CLRA_EPROTO; /* an Error must carry a failure code */
    return *hr < 0 ? CLRA_ERUNTIME : 0;
}

/* A reply longer than its command defines would otherwise pass as success with junk after it:
 * a hostile or confused server must not be able to make us report what it did not say. */
int clra__parse_hresult_exact(const clra__header_t *h, const uint8_t *payload, size_t len,
                              int32_t *hr, clra_status_t *st)
{
    *hr = 0;
    if (len != 4 && h->command_set == CLRA__SET_SERVER) {
        clra__detail(st, "the reply has %zu payload bytes (message size %zu); this command's "
                     "replies carry exactly 4 (the HRESULT)", len, len + CLRA__HEADER_SIZE);
        return CLRA_EPROTO;
    }
    int rc = clra__parse_hresult_reply(h, payload, len, hr);
    if (rc == CLRA_EPROTO)
        clra__detail(st, "unexpected reply: command set 0x%02X id 0x%02X, %zu payload bytes",
                     h->command_set, h->command_id, len);
    return rc;
}

void clra__reply_free(clra__reply_t *reply)
{
    free(reply->payload);
    reply->payload = NULL;
    reply->len = 0;
}

int clra__reply_check(const clra__reply_t *reply, clra_status_t *st)
{
    const clra__header_t *h = &reply->h;
    if (h->command_set == CLRA__SET_SERVER && h->command_id == CLRA__SERVER_OK)
        return 0;
    if (h->command_set == CLRA__SET_SERVER && h->command_id == CLRA__SERVER_ERROR) {
        int32_t hr;
        if (clra__parse_hresult_reply(h, reply->payload, reply->len, &hr) == CLRA_ERUNTIME) {
            st->hresult = hr;
            return CLRA_ERUNTIME;
        }
    }
    clra__detail(st, "unexpected reply: command set 0x%02X id 0x%02X, %zu payload bytes",
                 h->command_set, h->command_id, reply->len);
    return CLRA_EPROTO;
}
