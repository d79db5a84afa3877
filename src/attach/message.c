/* message.c - IPC framing (section 2 of docs/protocol.md) and per-command encoders. */
#include "message.h"

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

/* Client data must be exactly clientDataLen bytes with nothing after it: older runtimes
 * reject extra bytes, newer ones reject missing bytes (reference 3.3). */
int clra__build_attach_profiler(clra__writer_t *w, uint32_t attach_timeout_ms,
                                const clra_guid_t *clsid, const char *profiler_path,
                                const void *client_data, size_t client_data_len)
{
    clra__begin_message(w, CLRA__SET_PROFILER, CLRA__PROFILER_ATTACH);
    clra__put_u32(w, attach_timeout_ms);
    clra__put_guid(w, clsid);
    clra__put_string(w, profiler_path);
    clra__put_blob(w, client_data, client_data_len);
    return clra__end_message(w);
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
    out->size = (uint16_t)(bytes[14] | (bytes[15] << 8));
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
