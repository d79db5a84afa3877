/* wire.c - bounded little-endian writer/reader and UTF-8 <-> UTF-16 conversion. */
#include "proto/wire.h"
#include "common/le_bytes.h"
#include "common/utf.h"

#include <stdlib.h>
#include <string.h>

void clra__writer_init(clra__writer_t *w, void *buf, size_t cap)
{
    w->data = buf;
    w->cap = cap;
    w->len = 0;
    w->err = 0;
}

/* Reserves n bytes; on overflow sets the sticky error so callers check once at the end. */
static uint8_t *reserve(clra__writer_t *w, size_t n)
{
    if (w->err)
        return NULL;
    if (n > w->cap - w->len) {
        w->err = CLRA_ETOOBIG;
        return NULL;
    }
    uint8_t *p = w->data + w->len;
    w->len += n;
    return p;
}

void clra__put_u8(clra__writer_t *w, uint8_t v)
{
    uint8_t *p = reserve(w, 1);
    if (p)
        p[0] = v;
}

void clra__put_u16(clra__writer_t *w, uint16_t v)
{
    uint8_t *p = reserve(w, 2);
    if (p) {
        p[0] = (uint8_t)v;
        p[1] = (uint8_t)(v >> 8);
    }
}

void clra__put_u32(clra__writer_t *w, uint32_t v)
{
    uint8_t *p = reserve(w, 4);
    for (int i = 0; p && i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

void clra__put_u64(clra__writer_t *w, uint64_t v)
{
    uint8_t *p = reserve(w, 8);
    for (int i = 0; p && i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

void clra__put_bytes(clra__writer_t *w, const void *src, size_t n)
{
    uint8_t *p = reserve(w, n);
    if (p && n)
        memcpy(p, src, n);
}

/* The runtime copies these 16 bytes raw into a CLSID: Data1..3 little-endian, Data4 as-is. */
void clra__put_guid(clra__writer_t *w, const clra_guid_t *g)
{
    clra__put_u32(w, g->data1);
    clra__put_u16(w, g->data2);
    clra__put_u16(w, g->data3);
    clra__put_bytes(w, g->data4, 8);
}

/* Encodes straight into the buffer so no temporary UTF-16 copy is needed. */
void clra__put_string(clra__writer_t *w, const char *utf8)
{
    if (!utf8) {
        clra__put_u32(w, 0);
        return;
    }
    size_t n8 = strlen(utf8);
    long units = clra__utf8_to_utf16(utf8, n8, NULL, 0);
    if (units < 0) {
        if (!w->err)
            w->err = CLRA_EENCODING;
        return;
    }
    if ((size_t)units + 1 > UINT32_MAX / 2) {
        if (!w->err)
            w->err = CLRA_ETOOBIG;
        return;
    }
    clra__put_u32(w, (uint32_t)units + 1);
    uint8_t *p = reserve(w, ((size_t)units + 1) * 2);
    if (!p)
        return;
    uint16_t *tmp = malloc(((size_t)units + 1) * sizeof(uint16_t));
    if (!tmp) {
        w->err = CLRA_ENOMEM;
        return;
    }
    clra__utf8_to_utf16(utf8, n8, tmp, (size_t)units);
    tmp[units] = 0;
    for (long i = 0; i <= units; i++) {
        p[2 * i] = (uint8_t)tmp[i];
        p[2 * i + 1] = (uint8_t)(tmp[i] >> 8);
    }
    free(tmp);
}

void clra__put_blob(clra__writer_t *w, const void *p, size_t n)
{
    if (n > UINT32_MAX) {
        if (!w->err)
            w->err = CLRA_ETOOBIG;
        return;
    }
    clra__put_u32(w, (uint32_t)n);
    clra__put_bytes(w, p, n);
}

void clra__reader_init(clra__reader_t *r, const void *buf, size_t len)
{
    r->data = buf;
    r->len = len;
    r->pos = 0;
    r->err = 0;
}

size_t clra__reader_left(const clra__reader_t *r)
{
    return r->err ? 0 : r->len - r->pos;
}

/* Consumes n bytes or sets the sticky error: every wire length is checked here. */
static const uint8_t *take(clra__reader_t *r, size_t n)
{
    if (r->err)
        return NULL;
    if (n > r->len - r->pos) {
        r->err = CLRA_EPROTO;
        return NULL;
    }
    const uint8_t *p = r->data + r->pos;
    r->pos += n;
    return p;
}

uint8_t clra__get_u8(clra__reader_t *r)
{
    const uint8_t *p = take(r, 1);
    return p ? p[0] : 0;
}

uint16_t clra__get_u16(clra__reader_t *r)
{
    const uint8_t *p = take(r, 2);
    return p ? le__u16(p) : 0;
}

uint32_t clra__get_u32(clra__reader_t *r)
{
    const uint8_t *p = take(r, 4);
    return p ? le__u32(p) : 0;
}

uint64_t clra__get_u64(clra__reader_t *r)
{
    const uint8_t *p = take(r, 8);
    return p ? le__u64(p) : 0;
}

void clra__get_guid(clra__reader_t *r, clra_guid_t *g)
{
    g->data1 = clra__get_u32(r);
    g->data2 = clra__get_u16(r);
    g->data3 = clra__get_u16(r);
    const uint8_t *p = take(r, 8);
    if (p)
        memcpy(g->data4, p, 8);
    else
        memset(g->data4, 0, 8);
}

/* Strings may sit at odd offsets, so units are assembled byte by byte. */
char *clra__get_string(clra__reader_t *r)
{
    uint32_t count = clra__get_u32(r);
    if (r->err || count == 0)
        return NULL;
    if ((size_t)count > clra__reader_left(r) / 2) {
        r->err = CLRA_EPROTO;
        return NULL;
    }
    const uint8_t *p = take(r, (size_t)count * 2);
    uint16_t *units = malloc((size_t)count * sizeof(uint16_t));
    if (!units) {
        r->err = CLRA_ENOMEM;
        return NULL;
    }
    for (uint32_t i = 0; i < count; i++)
        units[i] = le__u16(p + 2 * i);
    if (units[count - 1] != 0) {
        free(units);
        r->err = CLRA_EPROTO;
        return NULL;
    }
    size_t n8 = clra__utf16_to_utf8(units, count - 1, NULL, 0);
    char *out = malloc(n8 + 1);
    if (out)
        clra__utf16_to_utf8(units, count - 1, out, n8 + 1);
    else
        r->err = CLRA_ENOMEM;
    free(units);
    return out;
}

long clra__utf8_to_utf16(const char *s, size_t n, uint16_t *out, size_t out_cap)
{
    long units = utf__utf8_to_utf16(s, n, out, out_cap);
    return units < 0 ? CLRA_EENCODING : units;
}

size_t clra__utf16_to_utf8(const uint16_t *s, size_t n, char *out, size_t out_cap)
{
    return utf__utf16_to_utf8(s, n, out, out_cap);
}
