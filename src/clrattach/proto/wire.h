/* wire.h - bounded byte writer and reader for the diagnostics IPC encoding (internal).
 *
 * Both keep a sticky error: once a write overflows or a read runs past the end, every later
 * call is a no-op and the caller checks the error once at the end. Integers are little-endian,
 * strings are uint32 count of UTF-16 code units (terminator included) + UTF-16LE, GUIDs are the
 * Windows memory layout, blobs are uint32 length + bytes.
 */
#ifndef CLRA_WIRE_H
#define CLRA_WIRE_H

#include "clrattach.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct clra__writer {
    uint8_t *data;
    size_t cap;
    size_t len;
    int err; /* 0, CLRA_ETOOBIG or CLRA_EENCODING */
} clra__writer_t;

typedef struct clra__reader {
    const uint8_t *data;
    size_t len;
    size_t pos;
    int err; /* 0 or CLRA_EPROTO */
} clra__reader_t;

void clra__writer_init(clra__writer_t *w, void *buf, size_t cap);
void clra__put_u8(clra__writer_t *w, uint8_t v);
void clra__put_u16(clra__writer_t *w, uint16_t v);
void clra__put_u32(clra__writer_t *w, uint32_t v);
void clra__put_u64(clra__writer_t *w, uint64_t v);
void clra__put_bytes(clra__writer_t *w, const void *p, size_t n);
void clra__put_guid(clra__writer_t *w, const clra_guid_t *g);
/* UTF-8 text (may be NULL: encodes the absent string, count 0). */
void clra__put_string(clra__writer_t *w, const char *utf8);
void clra__put_blob(clra__writer_t *w, const void *p, size_t n);

void clra__reader_init(clra__reader_t *r, const void *buf, size_t len);
uint8_t clra__get_u8(clra__reader_t *r);
uint16_t clra__get_u16(clra__reader_t *r);
uint32_t clra__get_u32(clra__reader_t *r);
uint64_t clra__get_u64(clra__reader_t *r);
void clra__get_guid(clra__reader_t *r, clra_guid_t *g);
/* A string as newly allocated UTF-8 (NULL for the absent string or on error: check r->err).
 * Rejects a count whose bytes run past the end and a last unit that is not NUL. */
char *clra__get_string(clra__reader_t *r);
size_t clra__reader_left(const clra__reader_t *r);

/* UTF-8 -> UTF-16 code units. Returns the number of units (no terminator added) or
 * CLRA_EENCODING for malformed input (overlong forms, surrogates, > U+10FFFF, truncation).
 * With out == NULL it only counts. */
long clra__utf8_to_utf16(const char *s, size_t n, uint16_t *out, size_t out_cap);
/* UTF-16 code units -> UTF-8 (lone surrogates become U+FFFD). Returns bytes written, not
 * counting the NUL it always adds when out_cap > 0; with out == NULL it only counts. */
size_t clra__utf16_to_utf8(const uint16_t *s, size_t n, char *out, size_t out_cap);

#endif
