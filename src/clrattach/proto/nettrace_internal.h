/* nettrace_internal.h - the pieces of the NetTrace decoder shared by its files (internal).
 *
 * nettrace_decoder.c frames the stream and walks blocks, nettrace_metadata.c turns metadata
 * records into field trees, nettrace_payload.c walks payloads by them, nettrace_text.c turns
 * UTF-16 into UTF-8 and values into text. Bytes only: nothing here reads files or sockets.
 */
#ifndef CLRA_PROTO_NETTRACE_INTERNAL_H
#define CLRA_PROTO_NETTRACE_INTERNAL_H

#include "clrattach.h"

#include <stddef.h>
#include <stdint.h>

/* A bounded little-endian reader over one block; the first failure sticks. */
typedef struct clra__ntcur {
    const uint8_t *p;
    size_t pos, end;
    uint64_t base;    /* stream offset of p[0] */
    const char *want; /* what was being read when it failed (NULL while fine) */
    size_t want_at;   /* where */
} clra__ntcur_t;

uint8_t clra__nt_u8(clra__ntcur_t *c, const char *what);
uint16_t clra__nt_u16(clra__ntcur_t *c, const char *what);
uint32_t clra__nt_u32(clra__ntcur_t *c, const char *what);
uint64_t clra__nt_u64(clra__ntcur_t *c, const char *what);
/* LEB128 of at most max_bytes bytes (5 for 32-bit fields, 10 for 64-bit ones). */
uint64_t clra__nt_varint(clra__ntcur_t *c, int max_bytes, const char *what);
const uint8_t *clra__nt_bytes(clra__ntcur_t *c, size_t n, const char *what);
/* A NUL-terminated UTF-16 string, returned as malloc'ed UTF-8 (NULL on failure or no memory). */
char *clra__nt_utf16z(clra__ntcur_t *c, const char *what);

/* UTF-16LE units (n of them) to UTF-8 in out (cap >= 3 * n + 1); lone surrogates become U+FFFD.
 * Returns the length written. */
size_t clra__nt_utf16_to_utf8(const uint8_t *units, size_t n, char *out);

/* Parses one metadata record (a MetadataBlock event's payload) into a heap record; NULL with
 * c->want set when it is malformed, or with *oom set. Free with clra__nt_meta_free. */
clra_nettrace_metadata_t *clra__nt_meta_parse(clra__ntcur_t *c, int *oom);
void clra__nt_meta_free(clra_nettrace_metadata_t *m);

#endif
