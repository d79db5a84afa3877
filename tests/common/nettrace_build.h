/* nettrace_build.h - NetTrace streams built byte by byte for tests (PerfView's
 * NetTraceFormat_v5.md and docs/protocol.md 6), independent of the decoder under test.
 *
 * Test code only: static functions in a header. A nb_t grows as needed; nb_block wraps a body
 * built in another nb_t into a block object with its padding to a 4-byte stream offset.
 */
#ifndef CLRA_NETTRACE_BUILD_H
#define CLRA_NETTRACE_BUILD_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NB_UNUSED __attribute__((unused))

typedef struct nb {
    uint8_t *b;
    size_t n, cap;
} nb_t;

static NB_UNUSED void nb_put(nb_t *s, const void *p, size_t n)
{
    if (s->n + n > s->cap) {
        s->cap = (s->n + n) * 2 + 64;
        s->b = realloc(s->b, s->cap);
    }
    if (n)
        memcpy(s->b + s->n, p, n);
    s->n += n;
}

static NB_UNUSED void nb_u8(nb_t *s, uint8_t v) { nb_put(s, &v, 1); }
static NB_UNUSED void nb_u16(nb_t *s, uint16_t v)
{
    uint8_t b[2] = {(uint8_t)v, (uint8_t)(v >> 8)};
    nb_put(s, b, 2);
}
static NB_UNUSED void nb_u32(nb_t *s, uint32_t v)
{
    nb_u16(s, (uint16_t)v);
    nb_u16(s, (uint16_t)(v >> 16));
}
static NB_UNUSED void nb_u64(nb_t *s, uint64_t v)
{
    nb_u32(s, (uint32_t)v);
    nb_u32(s, (uint32_t)(v >> 32));
}

static NB_UNUSED void nb_varint(nb_t *s, uint64_t v)
{
    do {
        uint8_t b = v & 0x7F;
        v >>= 7;
        nb_u8(s, (uint8_t)(b | (v ? 0x80 : 0)));
    } while (v);
}

/* ASCII (or \uXXXX-free UTF-8 below U+0800) as NUL-terminated UTF-16LE. */
static NB_UNUSED void nb_utf16(nb_t *s, const char *text)
{
    const unsigned char *t = (const unsigned char *)text;
    while (*t) {
        unsigned u = *t++;
        if (u >= 0xC0 && *t) /* two-byte UTF-8 */
            u = (u & 0x1F) << 6 | (*t++ & 0x3F);
        nb_u16(s, (uint16_t)u);
    }
    nb_u16(s, 0);
}

/* "Nettrace", "!FastSerialization.1", the Trace object (version ver) and its 48 fields. */
static NB_UNUSED void nb_header(nb_t *s, uint32_t ver)
{
    nb_put(s, "Nettrace\x14\0\0\0!FastSerialization.1", 32);
    nb_put(s, "\x05\x05\x01", 3);
    nb_u32(s, ver);
    nb_u32(s, ver);
    nb_u32(s, 5);
    nb_put(s, "Trace\x06", 6);
    static const uint16_t when[8] = {2026, 11, 1, 23, 22, 9, 43, 500};
    for (int i = 0; i < 8; i++)
        nb_u16(s, when[i]);
    nb_u64(s, 1000);    /* sync QPC */
    nb_u64(s, 1000000); /* QPC frequency */
    nb_u32(s, 8);       /* pointer size */
    nb_u32(s, 4242);    /* pid */
    nb_u32(s, 2);       /* processors */
    nb_u32(s, 1000000); /* sampling rate ns */
    nb_u8(s, 0x06);
}

/* One block object around body. */
static NB_UNUSED void nb_block(nb_t *s, const char *name, const nb_t *body)
{
    nb_put(s, "\x05\x05\x01", 3);
    nb_u32(s, 2);
    nb_u32(s, 2);
    nb_u32(s, (uint32_t)strlen(name));
    nb_put(s, name, strlen(name));
    nb_u8(s, 0x06);
    nb_u32(s, (uint32_t)body->n);
    while (s->n % 4)
        nb_u8(s, 0);
    nb_put(s, body->b, body->n);
    nb_u8(s, 0x06);
}

/* The 20-byte EventBlock/MetadataBlock header: size, flags (1 = compressed), timestamps. */
static NB_UNUSED void nb_block_header(nb_t *s, uint16_t flags)
{
    nb_u16(s, 20);
    nb_u16(s, flags);
    nb_u64(s, 0);
    nb_u64(s, 0);
}

/* A metadata record's fixed part; the field list follows (nb_u32 count, ...). */
static NB_UNUSED void nb_meta_head(nb_t *s, uint32_t id, const char *provider, uint32_t event_id,
                                   const char *name, uint64_t keywords, uint32_t version,
                                   uint32_t level)
{
    nb_u32(s, id);
    nb_utf16(s, provider);
    nb_u32(s, event_id);
    nb_utf16(s, name);
    nb_u64(s, keywords);
    nb_u32(s, version);
    nb_u32(s, level);
}

/* A compressed event blob with every header field present (flags 0xFF but activity ids and
 * sorted as asked): metadata id, sequence delta, capture thread, processor, thread, stack,
 * timestamp delta, payload. */
static NB_UNUSED void nb_event_full(nb_t *s, uint32_t meta_id, uint32_t seq_delta, uint64_t thread,
                                    uint32_t stack_id, uint64_t ts_delta, const nb_t *payload)
{
    nb_u8(s, 1 | 2 | 4 | 8 | 128);
    nb_varint(s, meta_id);
    nb_varint(s, seq_delta);
    nb_varint(s, thread);
    nb_varint(s, 1); /* processor */
    nb_varint(s, thread);
    nb_varint(s, stack_id);
    nb_varint(s, ts_delta);
    nb_varint(s, payload->n);
    nb_put(s, payload->b, payload->n);
}

static NB_UNUSED void nb_free(nb_t *s)
{
    free(s->b);
    memset(s, 0, sizeof *s);
}

#endif
