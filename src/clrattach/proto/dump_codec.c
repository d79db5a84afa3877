/* dump_codec.c - the encoder of the dump requests and the decoder of the dump
 * reply, whose GenerateCoreDump3 error form carries createdump's text (docs/protocol.md 3.1). */
#include "proto/dump_codec.h"
#include "common/le_bytes.h"

#include <stdlib.h>

int clra__build_dump(clra__writer_t *w, uint8_t command_id, const char *path, uint32_t type,
                     uint32_t x)
{
    clra__begin_message(w, CLRA__SET_DUMP, command_id);
    clra__put_string(w, path);
    clra__put_u32(w, type);
    clra__put_u32(w, x);
    return clra__end_message(w);
}

/* Decodes the error text that follows Dump3's HRESULT. Its count must account for every byte
 * left: the reply's size is the only framing, so a count that disagrees means a broken reply. */
static int read_text(const uint8_t *p, size_t n, char *text, size_t cap, clra_status_t *st)
{
    if (n < 4) {
        clra__detail(st, "the dump error reply's text length is cut short: %zu of 4 bytes", n);
        return CLRA_EPROTO;
    }
    uint32_t units = le__u32(p);
    size_t left = n - 4;
    if ((units == 0 && left) || (size_t)units * 2 < left) {
        clra__detail(st, "the dump error reply has %zu bytes after its text of %u UTF-16 units",
                     left - (size_t)units * 2, (unsigned)units);
        return CLRA_EPROTO;
    }
    if (units == 0)
        return 0; /* the absent string: allowed by the spec, though the runtime sends "" */
    if (units > left / 2) {
        clra__detail(st, "the dump error reply's text announces %u UTF-16 units (%zu bytes) but "
                     "only %zu bytes follow", (unsigned)units, (size_t)units * 2, left);
        return CLRA_EPROTO;
    }
    uint16_t *u = malloc((size_t)units * sizeof *u);
    if (!u)
        return CLRA_ENOMEM;
    for (uint32_t i = 0; i < units; i++) /* the text may sit at an odd address */
        u[i] = le__u16(p + 4 + 2 * i);
    int rc = 0;
    if (u[units - 1] != 0) {
        clra__detail(st, "the dump error reply's text does not end in a NUL");
        rc = CLRA_EPROTO;
    } else if (cap) {
        clra__utf16_to_utf8(u, units - 1, text, cap);
    }
    free(u);
    return rc;
}

int clra__parse_dump_reply(const clra__header_t *h, const uint8_t *payload, size_t len,
                           int with_text, int32_t *hr, char *text, size_t cap,
                           clra_status_t *st)
{
    *hr = 0;
    if (cap)
        text[0] = '\0';
    int ok = h->command_id == CLRA__SERVER_OK, err = h->command_id == CLRA__SERVER_ERROR;
    if (h->command_set != CLRA__SET_SERVER || (!ok && !err)) {
        clra__detail(st, "unexpected reply to a dump request: command set 0x%02X id 0x%02X",
                     h->command_set, h->command_id);
        return CLRA_EPROTO;
    }
    if (len < 4) {
        clra__detail(st, "the dump reply has %zu payload bytes, fewer than its 4-byte HRESULT",
                     len);
        return CLRA_EPROTO;
    }
    *hr = (int32_t)le__u32(payload);
    if (ok && len != 4) {
        clra__detail(st, "the dump OK reply has %zu payload bytes instead of 4", len);
        return CLRA_EPROTO;
    }
    if (ok)
        return *hr < 0 ? CLRA_ERUNTIME : 0;
    if (*hr >= 0) {
        clra__detail(st, "the dump reply is an Error carrying a success code 0x%08X",
                     (unsigned)*hr);
        return CLRA_EPROTO;
    }
    if (len > 4 && !with_text) {
        clra__detail(st, "the dump error reply has %zu bytes after its HRESULT; only "
                     "GenerateCoreDump3 adds a text", len - 4);
        return CLRA_EPROTO;
    }
    int rc = len > 4 ? read_text(payload + 4, len - 4, text, cap, st) : 0;
    return rc ? rc : CLRA_ERUNTIME;
}
