/* nettrace_reader.h - just enough of a NetTrace V4/V5 reader for tests to count events.
 *
 * Test code only (static functions in a header so each test binary takes what it uses). It
 * walks the objects, remembers every metadata record (id -> provider, event id, name) and
 * hands each event of every EventBlock to a callback with its metadata, stack id and payload.
 * Event headers use the "header compression" the runtime writes (format notes: PerfView's
 * NetTraceFormat_v5.md): a flags byte says which fields follow as LEB128 varints; absent
 * fields repeat the previous event's value; each block starts from zero. Stack ids refer to
 * StackBlocks since the last sequence point (SPBlock). Uncompressed blocks
 * are refused rather than guessed at, since no runtime we test writes them.
 */
#ifndef CLRA_NETTRACE_READER_H
#define CLRA_NETTRACE_READER_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NT_UNUSED __attribute__((unused))

typedef struct nt_meta {
    uint32_t id;
    char provider[128]; /* ASCII subset of the UTF-16 name */
    uint32_t event_id;
    char name[128];
} nt_meta_t;

typedef struct nt_event {
    const nt_meta_t *meta; /* NULL when the id was never defined */
    uint32_t metadata_id;
    uint32_t stack_id;
    int stack_bytes; /* size of that stack (0 = empty: no stack walked), -1 if not seen */
    const uint8_t *payload;
    uint32_t payload_len;
} nt_event_t;

typedef void (*nt_event_fn)(void *ctx, const nt_event_t *ev);

typedef struct nt_trace {
    int32_t version;
    nt_meta_t *metas;
    size_t meta_count, meta_cap;
    uint64_t events;
    uint32_t (*stacks)[2]; /* (id, byte size) of the stacks since the last sequence point */
    size_t stack_count, stack_cap;
    int ended; /* the 01 end marker was reached */
    char error[200];
} nt_trace_t;

typedef struct nt_cursor {
    const uint8_t *p;
    size_t pos, end;
    int bad;
} nt_cursor_t;

static NT_UNUSED uint32_t nt_u32(nt_cursor_t *c)
{
    if (c->bad || c->end - c->pos < 4) {
        c->bad = 1;
        return 0;
    }
    const uint8_t *b = c->p + c->pos;
    c->pos += 4;
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static NT_UNUSED uint64_t nt_varint(nt_cursor_t *c)
{
    uint64_t v = 0;
    for (int shift = 0; !c->bad && shift < 64; shift += 7) {
        if (c->pos >= c->end)
            break;
        uint8_t b = c->p[c->pos++];
        v |= (uint64_t)(b & 0x7F) << shift;
        if (!(b & 0x80))
            return v;
    }
    c->bad = 1;
    return 0;
}

static NT_UNUSED void nt_skip(nt_cursor_t *c, size_t n)
{
    if (c->bad || c->end - c->pos < n)
        c->bad = 1;
    else
        c->pos += n;
}

/* A NUL-terminated UTF-16 string, kept as its ASCII subset. */
static NT_UNUSED void nt_utf16(nt_cursor_t *c, char *out, size_t cap)
{
    size_t n = 0;
    for (;;) {
        if (c->bad || c->end - c->pos < 2) {
            c->bad = 1;
            break;
        }
        uint16_t u = (uint16_t)(c->p[c->pos] | c->p[c->pos + 1] << 8);
        c->pos += 2;
        if (!u)
            break;
        if (n + 1 < cap)
            out[n++] = u < 0x80 ? (char)u : '?';
    }
    out[n] = '\0';
}

static NT_UNUSED const nt_meta_t *nt_find_meta(const nt_trace_t *t, uint32_t id)
{
    for (size_t i = 0; i < t->meta_count; i++)
        if (t->metas[i].id == id)
            return &t->metas[i];
    return NULL;
}

static NT_UNUSED int nt_stack_bytes(const nt_trace_t *t, uint32_t id)
{
    for (size_t i = 0; i < t->stack_count; i++)
        if (t->stacks[i][0] == id)
            return (int)t->stacks[i][1];
    return -1;
}

/* A StackBlock body: first id, count, then count (uint32 size, size bytes) stacks. */
static NT_UNUSED int nt_stack_block(nt_trace_t *t, nt_cursor_t *c)
{
    uint32_t id = nt_u32(c), count = nt_u32(c);
    for (uint32_t i = 0; i < count && !c->bad; i++, id++) {
        uint32_t size = nt_u32(c);
        nt_skip(c, size);
        if (t->stack_count == t->stack_cap) {
            t->stack_cap = t->stack_cap ? 2 * t->stack_cap : 256;
            t->stacks = realloc(t->stacks, t->stack_cap * sizeof *t->stacks);
        }
        t->stacks[t->stack_count][0] = id;
        t->stacks[t->stack_count++][1] = size;
    }
    if (c->bad)
        snprintf(t->error, sizeof t->error, "a malformed StackBlock");
    return c->bad ? -1 : 0;
}

/* A metadata record's payload: id, provider, event id, event name (the rest is ignored). */
static NT_UNUSED int nt_add_meta(nt_trace_t *t, const uint8_t *p, uint32_t len)
{
    nt_cursor_t c = {p, 0, len, 0};
    nt_meta_t m;
    m.id = nt_u32(&c);
    nt_utf16(&c, m.provider, sizeof m.provider);
    m.event_id = nt_u32(&c);
    nt_utf16(&c, m.name, sizeof m.name);
    if (c.bad)
        return -1;
    if (t->meta_count == t->meta_cap) {
        t->meta_cap = t->meta_cap ? 2 * t->meta_cap : 64;
        t->metas = realloc(t->metas, t->meta_cap * sizeof *t->metas);
    }
    t->metas[t->meta_count++] = m;
    return 0;
}

/* The events (or metadata records) of one EventBlock/MetadataBlock body. */
static NT_UNUSED int nt_block(nt_trace_t *t, nt_cursor_t *c, int metadata, nt_event_fn fn,
                              void *ctx)
{
    size_t start = c->pos;
    uint32_t word = nt_u32(c); /* uint16 header size, uint16 flags */
    uint16_t header_size = (uint16_t)word, flags = (uint16_t)(word >> 16);
    if (c->bad || header_size < 4 || !(flags & 1)) {
        snprintf(t->error, sizeof t->error, "block at %zu: header size %u, flags 0x%x "
                 "(only compressed headers are read)", start, header_size, flags);
        return -1;
    }
    c->pos = start + header_size;
    nt_event_t ev = {0};
    while (!c->bad && c->pos < c->end) {
        uint8_t f = c->p[c->pos++];
        if (f & 1)
            ev.metadata_id = (uint32_t)nt_varint(c);
        if (f & 2) {
            nt_varint(c); /* sequence number delta */
            nt_varint(c); /* capture thread */
            nt_varint(c); /* processor */
        }
        if (f & 4)
            nt_varint(c); /* thread */
        if (f & 8)
            ev.stack_id = (uint32_t)nt_varint(c);
        nt_varint(c); /* timestamp delta */
        nt_skip(c, (f & 16) ? 16 : 0);
        nt_skip(c, (f & 32) ? 16 : 0);
        if (f & 128)
            ev.payload_len = (uint32_t)nt_varint(c);
        ev.payload = c->p + c->pos;
        nt_skip(c, ev.payload_len);
        if (c->bad)
            break;
        if (metadata && nt_add_meta(t, ev.payload, ev.payload_len) != 0)
            c->bad = 1;
        if (!metadata) {
            ev.meta = nt_find_meta(t, ev.metadata_id);
            ev.stack_bytes = nt_stack_bytes(t, ev.stack_id);
            t->events++;
            if (fn)
                fn(ctx, &ev);
        }
    }
    if (c->bad)
        snprintf(t->error, sizeof t->error, "a malformed event in the block at %zu", start);
    return c->bad ? -1 : 0;
}

/* Type header at c->pos (after its 05): 05 01 version minVersion nameLen name 06. */
static NT_UNUSED int nt_type(nt_cursor_t *c, char name[64], int32_t *version)
{
    if (c->end - c->pos < 2 || c->p[c->pos] != 5 || c->p[c->pos + 1] != 1)
        return -1;
    c->pos += 2;
    *version = (int32_t)nt_u32(c);
    nt_u32(c);
    uint32_t n = nt_u32(c);
    if (c->bad || n >= 64 || c->end - c->pos < n + 1u || c->p[c->pos + n] != 6)
        return -1;
    memcpy(name, c->p + c->pos, n);
    name[n] = '\0';
    c->pos += n + 1;
    return 0;
}

/* Reads a whole stream; 0, or -1 with t->error set. nt_free(t) when done. */
static NT_UNUSED int nt_read(const uint8_t *data, size_t len, nt_trace_t *t, nt_event_fn fn,
                             void *ctx)
{
    char name[64];
    int32_t version;
    memset(t, 0, sizeof *t);
    nt_cursor_t c = {data, 33, len, 0};
    if (len < 33 || memcmp(data, "Nettrace\x14\0\0\0!FastSerialization.1\x05", 33) != 0 ||
        nt_type(&c, name, &t->version) != 0 || strcmp(name, "Trace") != 0) {
        snprintf(t->error, sizeof t->error, "no NetTrace header and Trace object");
        return -1;
    }
    nt_skip(&c, 48 + 1); /* the Trace payload and its EndObject */
    while (!c.bad && c.pos < len && data[c.pos] == 5) {
        c.pos++;
        if (nt_type(&c, name, &version) != 0)
            break;
        uint32_t size = nt_u32(&c);
        c.pos += (4 - c.pos % 4) % 4;
        if (c.bad || len - c.pos < (size_t)size + 1)
            break;
        nt_cursor_t body = {data, c.pos, c.pos + size, 0};
        int meta = strcmp(name, "MetadataBlock") == 0;
        if ((meta || strcmp(name, "EventBlock") == 0) && nt_block(t, &body, meta, fn, ctx) != 0)
            return -1;
        if (strcmp(name, "StackBlock") == 0 && nt_stack_block(t, &body) != 0)
            return -1;
        if (strcmp(name, "SPBlock") == 0)
            t->stack_count = 0;
        c.pos += size + 1; /* the block and its EndObject */
    }
    t->ended = c.pos + 1 == len && data[c.pos] == 1;
    if (!t->ended && !t->error[0])
        snprintf(t->error, sizeof t->error, "the objects stop at offset %zu of %zu without the "
                 "end marker", c.pos, len);
    return t->ended ? 0 : -1;
}

static NT_UNUSED void nt_free(nt_trace_t *t)
{
    free(t->metas);
    free(t->stacks);
    t->metas = NULL;
    t->stacks = NULL;
}

/* Reads a whole file into memory (tests only; traces here are small). */
static NT_UNUSED uint8_t *nt_load(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    *len = 0;
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *buf = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    *len = buf ? (size_t)n : 0;
    return buf;
}

#endif
