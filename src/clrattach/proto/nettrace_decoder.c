/* nettrace_decoder.c - a push-style NetTrace reader: framing, blocks, events.
 *
 * The stream (docs/protocol.md 6, PerfView NetTraceFormat_v5.md) is the magic and
 * FastSerialization header, the Trace object, then objects 05 | 05 01 ver minver len name 06 |
 * uint32 size | padding to a 4-byte stream offset | size bytes | 06, and a final 01. Bytes are
 * decoded straight from the caller's buffer; only an object cut by the end of a feed is copied
 * to `pending` until it is whole, so memory is one block however large the trace.
 */
#include "proto/nettrace_internal.h"
#include "proto/nettrace_frame.h"
#include "util/status.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STACK_CACHE_MAX (64u << 20) /* stack bytes kept between sequence points */

enum { S_MAGIC, S_TRACE, S_OBJECTS, S_ENDED, S_BROKEN };

typedef struct stack_ref {
    uint32_t id, len;
    size_t at; /* in the stack arena */
} stack_ref_t;

typedef struct meta_slot {
    clra_nettrace_metadata_t *m;
    size_t len; /* the record's bytes in the stream, counted against CLRA_NETTRACE_MAX_METADATA */
} meta_slot_t;

struct clra_nettrace_decoder {
    clra_nettrace_callbacks_t cb;
    void *ctx;
    int state;
    uint64_t offset; /* stream offset of the first byte not yet consumed */
    uint8_t *pending;
    size_t pending_len, pending_cap;
    size_t need; /* bytes the current object needs from its start (0: unknown yet) */
    char expect[160]; /* what the current object still lacks, for an INCOMPLETE verdict */
    clra_nettrace_header_t header;
    meta_slot_t *metas; /* open addressing by id */
    size_t meta_cap, meta_count, meta_bytes;
    uint8_t *arena;
    size_t arena_len, arena_cap;
    stack_ref_t *stacks;
    size_t stack_count, stack_cap;
    uint32_t *stack_index; /* open addressing by id: index into stacks + 1, 0 empty; kept only
                            * once ids stop rising (until then they are searched by halves) */
    size_t stack_index_cap;
    int stacks_unordered;
    clra_nettrace_thread_seq_t *threads;
    size_t thread_cap;
    uint64_t events;
    clra_nettrace_info_t info; /* counts, version, and the verdict once broken */
    int stopped;               /* a callback said stop */
    int oom;
};

/* Marks the stream corrupt at off; always returns -1. */
static int corrupt(clra_nettrace_decoder_t *d, uint64_t off, const char *fmt, ...)
{
    va_list ap;
    d->state = S_BROKEN;
    d->info.state = CLRA_NETTRACE_INVALID;
    d->info.end_offset = off;
    va_start(ap, fmt);
    vsnprintf(d->info.problem, sizeof d->info.problem, fmt, ap);
    va_end(ap);
    return -1;
}

/* A cursor failure inside a whole block is corruption: the block said it held more. */
static int cursor_failed(clra_nettrace_decoder_t *d, const clra__ntcur_t *c, const char *block)
{
    if (d->oom)
        return -1;
    return corrupt(d, c->base + c->want_at, "corrupt %s at offset %llu: expected %s", block,
                   (unsigned long long)(c->base + c->want_at), c->want);
}

/* ---- metadata table ---------------------------------------------------------------------- */

static size_t slot_of(const clra_nettrace_decoder_t *d, uint32_t id)
{
    size_t i = (id * 2654435761u) & (d->meta_cap - 1);
    while (d->metas[i].m && d->metas[i].m->id != id)
        i = (i + 1) & (d->meta_cap - 1);
    return i;
}

static const clra_nettrace_metadata_t *find_meta(const clra_nettrace_decoder_t *d, uint32_t id)
{
    return d->meta_cap ? d->metas[slot_of(d, id)].m : NULL;
}

/* Doubles the metadata table; 0, or -1 out of memory. */
static int grow_metas(clra_nettrace_decoder_t *d)
{
    size_t cap = d->meta_cap ? 2 * d->meta_cap : 64, old = d->meta_cap;
    meta_slot_t *was = d->metas;
    d->metas = calloc(cap, sizeof *d->metas);
    if (!d->metas) {
        d->metas = was;
        return -1;
    }
    d->meta_cap = cap;
    for (size_t i = 0; i < old; i++)
        if (was[i].m)
            d->metas[slot_of(d, was[i].m->id)] = was[i];
    free(was);
    return 0;
}

/* Stores m, len bytes in the stream (replacing a record of the same id); 0, -1 out of memory,
 * 1 when the records held would pass CLRA_NETTRACE_MAX_METADATA bytes. */
static int store_meta(clra_nettrace_decoder_t *d, clra_nettrace_metadata_t *m, size_t len)
{
    if (2 * (d->meta_count + 1) > d->meta_cap && grow_metas(d))
        return -1;
    size_t i = slot_of(d, m->id);
    size_t held = d->meta_bytes - (d->metas[i].m ? d->metas[i].len : 0);
    if (held + len > CLRA_NETTRACE_MAX_METADATA)
        return 1;
    if (d->metas[i].m)
        clra__nt_meta_free(d->metas[i].m);
    else
        d->meta_count++;
    d->metas[i] = (meta_slot_t){m, len};
    d->meta_bytes = held + len;
    return 0;
}

/* ---- stacks ------------------------------------------------------------------------------ */

/* A sequence point: every stack so far is forgotten, the index emptied or let go. */
static void forget_stacks(clra_nettrace_decoder_t *d)
{
    d->arena_len = 0;
    d->stack_count = 0;
    d->stacks_unordered = 0;
    if (d->stack_index_cap > 4096) { /* a large index is rebuilt as stacks come, not cleared */
        free(d->stack_index);
        d->stack_index = NULL;
        d->stack_index_cap = 0;
    } else if (d->stack_index) {
        memset(d->stack_index, 0, d->stack_index_cap * sizeof *d->stack_index);
    }
}

/* Where stack id is or would go in the index (linear probing; the index is never full). */
static size_t stack_slot(const clra_nettrace_decoder_t *d, uint32_t id)
{
    size_t mask = d->stack_index_cap - 1, i = (id * 2654435761u) & mask;
    while (d->stack_index[i] && d->stacks[d->stack_index[i] - 1].id != id)
        i = (i + 1) & mask;
    return i;
}

/* Indexes stacks[n] by its id (a later stack of the same id wins); -1 out of memory. */
static int index_stack(clra_nettrace_decoder_t *d, size_t n)
{
    if (2 * (n + 1) > d->stack_index_cap) {
        size_t cap = d->stack_index_cap ? 2 * d->stack_index_cap : 1024;
        uint32_t *t = calloc(cap, sizeof *t);
        if (!t)
            return -1;
        free(d->stack_index);
        d->stack_index = t;
        d->stack_index_cap = cap;
        for (size_t i = 0; i < n; i++)
            d->stack_index[stack_slot(d, d->stacks[i].id)] = (uint32_t)i + 1;
    }
    d->stack_index[stack_slot(d, d->stacks[n].id)] = (uint32_t)n + 1;
    return 0;
}

/* Keeps a copy of one stack until the next sequence point; -1 out of memory. */
static int keep_stack(clra_nettrace_decoder_t *d, uint32_t id, const uint8_t *p, uint32_t len)
{
    /* A writer that never writes sequence points: bound the cache, its index included (empty
     * stacks are 4 bytes of stream but 24 of memory each). */
    if (d->arena_len + len + (d->stack_count + 1) * (sizeof *d->stacks + 8) > STACK_CACHE_MAX)
        forget_stacks(d);
    if (d->arena_len + len > d->arena_cap) {
        size_t cap = d->arena_cap ? d->arena_cap : 65536;
        while (cap < d->arena_len + len)
            cap *= 2;
        uint8_t *a = realloc(d->arena, cap);
        if (!a)
            return -1;
        d->arena = a;
        d->arena_cap = cap;
    }
    if (d->stack_count == d->stack_cap) {
        size_t cap = d->stack_cap ? 2 * d->stack_cap : 256;
        stack_ref_t *s = realloc(d->stacks, cap * sizeof *s);
        if (!s)
            return -1;
        d->stacks = s;
        d->stack_cap = cap;
    }
    if (len)
        memcpy(d->arena + d->arena_len, p, len);
    d->stacks[d->stack_count] = (stack_ref_t){id, len, d->arena_len};
    size_t n = d->stack_count;
    if (!d->stacks_unordered && n && id <= d->stacks[n - 1].id) { /* from now on: the index */
        d->stacks_unordered = 1;
        for (size_t i = 0; i < n; i++)
            if (index_stack(d, i))
                return -1;
    }
    if (d->stacks_unordered && index_stack(d, n))
        return -1;
    d->stack_count++;
    d->arena_len += len;
    return 0;
}

/* The stack with this id since the last sequence point: searched by halves while ids rise (as
 * the runtime writes them), through the hash index once they did not (a scan for out-of-order
 * ids made hostile traces quadratic). */
static const stack_ref_t *find_stack(const clra_nettrace_decoder_t *d, uint32_t id)
{
    if (d->stacks_unordered) {
        uint32_t at = d->stack_index[stack_slot(d, id)];
        return at ? &d->stacks[at - 1] : NULL;
    }
    size_t lo = 0, hi = d->stack_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (d->stacks[mid].id == id)
            return &d->stacks[mid];
        if (d->stacks[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

/* StackBlock: uint32 first id, uint32 count, count x (uint32 size, size bytes). */
static int stack_block(clra_nettrace_decoder_t *d, clra__ntcur_t *c)
{
    uint32_t id = clra__nt_u32(c, "the first stack id");
    uint32_t count = clra__nt_u32(c, "the stack count");
    for (uint32_t i = 0; i < count && !c->want; i++, id++) {
        uint32_t len = clra__nt_u32(c, "a stack's size");
        const uint8_t *ips = clra__nt_bytes(c, len, "the stack's bytes");
        if (!ips)
            break;
        if (keep_stack(d, id, ips, len))
            return d->oom = 1, -1;
        if (d->cb.stack && d->cb.stack(d->ctx, id, ips, len))
            return d->stopped = 1, -1;
    }
    return c->want ? cursor_failed(d, c, "StackBlock") : 0;
}

/* SPBlock: int64 timestamp, uint32 thread count, count x (uint64 thread, uint32 sequence). */
static int sequence_point(clra_nettrace_decoder_t *d, clra__ntcur_t *c)
{
    clra_nettrace_sequence_point_t sp = {0};
    sp.timestamp = (int64_t)clra__nt_u64(c, "the sequence point's timestamp");
    uint32_t n = clra__nt_u32(c, "the sequence point's thread count");
    if (!c->want && (uint64_t)n * 12 > c->end - c->pos) {
        c->want = "a thread count that fits the block";
        c->want_at = c->pos - 4;
    }
    if (c->want)
        return cursor_failed(d, c, "SPBlock");
    if (n > d->thread_cap) {
        clra_nettrace_thread_seq_t *t = realloc(d->threads, n * sizeof *t);
        if (!t)
            return d->oom = 1, -1;
        d->threads = t;
        d->thread_cap = n;
    }
    for (uint32_t i = 0; i < n; i++) {
        d->threads[i].thread_id = clra__nt_u64(c, "a thread id");
        d->threads[i].sequence = clra__nt_u32(c, "a sequence number");
    }
    sp.threads = d->threads;
    sp.thread_count = n;
    forget_stacks(d);
    if (d->cb.sequence_point && d->cb.sequence_point(d->ctx, &sp))
        return d->stopped = 1, -1;
    return 0;
}

/* ---- event and metadata blocks ----------------------------------------------------------- */

/* One compressed header (NetTraceFormat_v5.md "Header compression"): fields absent from the
 * flags repeat the previous event's; the timestamp and sequence number are deltas. */
static void compressed_header(clra__ntcur_t *c, clra_nettrace_event_t *ev)
{
    uint8_t f = clra__nt_u8(c, "an event's flags byte");
    if (f & 1)
        ev->metadata_id = (uint32_t)clra__nt_varint(c, 5, "the metadata id");
    if (f & 2) {
        ev->sequence += (uint32_t)clra__nt_varint(c, 5, "the sequence number delta");
        ev->capture_thread_id = clra__nt_varint(c, 10, "the capture thread id");
        ev->processor = (uint32_t)clra__nt_varint(c, 5, "the processor number");
    }
    if (ev->metadata_id != 0)
        ev->sequence++;
    if (f & 4)
        ev->thread_id = clra__nt_varint(c, 10, "the thread id");
    if (f & 8)
        ev->stack_id = (uint32_t)clra__nt_varint(c, 5, "the stack id");
    /* Wraps like the writer's unsigned arithmetic: a hostile delta must not overflow int64. */
    ev->timestamp = (int64_t)((uint64_t)ev->timestamp +
                              clra__nt_varint(c, 10, "the timestamp delta"));
    const uint8_t *g;
    if ((f & 16) && (g = clra__nt_bytes(c, 16, "the activity id")))
        memcpy(ev->activity_id, g, 16);
    if ((f & 32) && (g = clra__nt_bytes(c, 16, "the related activity id")))
        memcpy(ev->related_activity_id, g, 16);
    ev->sorted = (f & 64) != 0;
    if (f & 128)
        ev->payload_len = (uint32_t)clra__nt_varint(c, 5, "the payload size");
}

/* One uncompressed header (NetTraceFormat_v5.md "Uncompressed events"); returns where the
 * event ends (before its padding to a 4-byte stream offset). */
static size_t plain_header(clra__ntcur_t *c, clra_nettrace_event_t *ev)
{
    size_t start = c->pos;
    uint32_t size = clra__nt_u32(c, "an event's size");
    uint32_t id = clra__nt_u32(c, "the metadata id");
    ev->metadata_id = id & 0x7FFFFFFF;
    ev->sorted = (id >> 31) != 0;
    ev->sequence = clra__nt_u32(c, "the sequence number");
    ev->thread_id = clra__nt_u64(c, "the thread id");
    ev->capture_thread_id = clra__nt_u64(c, "the capture thread id");
    ev->processor = clra__nt_u32(c, "the processor number");
    ev->stack_id = clra__nt_u32(c, "the stack id");
    ev->timestamp = (int64_t)clra__nt_u64(c, "the timestamp");
    const uint8_t *g;
    if ((g = clra__nt_bytes(c, 16, "the activity id")))
        memcpy(ev->activity_id, g, 16);
    if ((g = clra__nt_bytes(c, 16, "the related activity id")))
        memcpy(ev->related_activity_id, g, 16);
    ev->payload_len = clra__nt_u32(c, "the payload size");
    return start + 4 + (size_t)size;
}

/* Hands one decoded event or metadata record on. */
static int deliver(clra_nettrace_decoder_t *d, clra_nettrace_event_t *ev, int metadata,
                   const clra__ntcur_t *c)
{
    if (metadata) {
        int oom;
        clra__ntcur_t mc = {ev->payload, 0, ev->payload_len, c->base + (ev->payload - c->p),
                            NULL, 0};
        clra_nettrace_metadata_t *m = clra__nt_meta_parse(&mc, &oom);
        if (!m && oom)
            return d->oom = 1, -1;
        if (!m)
            return cursor_failed(d, &mc, "metadata record");
        int kept = store_meta(d, m, ev->payload_len);
        if (kept) {
            clra__nt_meta_free(m);
            if (kept < 0)
                return d->oom = 1, -1;
            return corrupt(d, ev->offset, "too much metadata at offset %llu: the records would "
                           "pass CLRA_NETTRACE_MAX_METADATA (%u bytes); is this a trace?",
                           (unsigned long long)ev->offset, CLRA_NETTRACE_MAX_METADATA);
        }
        if (d->cb.metadata && d->cb.metadata(d->ctx, m))
            return d->stopped = 1, -1;
        return 0;
    }
    ev->meta = find_meta(d, ev->metadata_id);
    static const uint8_t no_ips[1];
    const stack_ref_t *s = find_stack(d, ev->stack_id);
    ev->stack = !s ? NULL : s->len ? d->arena + s->at : no_ips; /* an empty stack is not none */
    ev->stack_len = s ? s->len : 0;
    d->events++;
    if (d->cb.event && d->cb.event(d->ctx, ev))
        return d->stopped = 1, -1;
    return 0;
}

/* EventBlock / MetadataBlock body: uint16 header size, uint16 flags, (timestamps), events. */
static int event_block(clra_nettrace_decoder_t *d, clra__ntcur_t *c, int metadata)
{
    const char *what = metadata ? "MetadataBlock" : "EventBlock";
    uint16_t header_size = clra__nt_u16(c, "the block header's size");
    uint16_t flags = clra__nt_u16(c, "the block header's flags");
    if (!c->want && (header_size < 4 || header_size > c->end)) {
        c->want = "a block header size from 4 to the block's size";
        c->want_at = 0;
    }
    if (c->want)
        return cursor_failed(d, c, what);
    c->pos = header_size;
    clra_nettrace_event_t ev;
    memset(&ev, 0, sizeof ev);
    while (c->pos < c->end) {
        ev.offset = c->base + c->pos;
        size_t end = 0;
        if (flags & 1)
            compressed_header(c, &ev);
        else
            end = plain_header(c, &ev);
        ev.payload = clra__nt_bytes(c, ev.payload_len, "the event's payload");
        if (c->want)
            return cursor_failed(d, c, what);
        if (!(flags & 1)) {
            if (end < c->pos || end > c->end)
                return corrupt(d, ev.offset, "corrupt %s at offset %llu: an event size that "
                               "disagrees with its payload size", what,
                               (unsigned long long)ev.offset);
            c->pos = end + (size_t)clra__nt_pad4(c->base + end);
            c->pos = c->pos > c->end ? c->end : c->pos;
        }
        if (deliver(d, &ev, metadata, c))
            return -1;
    }
    return 0;
}

/* ---- objects ----------------------------------------------------------------------------- */

/* Parses a type header (05 01 ver minver len name 06) at p[*pos]; 1 when whole, 0 when more
 * bytes are needed (need set), -1 when corrupt. */
static int type_header(clra_nettrace_decoder_t *d, const uint8_t *p, size_t avail, size_t *pos,
                       char *name, int32_t *version, int32_t *min_version)
{
    size_t at = *pos;
    uint64_t off = d->offset + at;
    if (avail > at && p[at] != 0x05)
        return corrupt(d, off, "byte 0x%02X at offset %llu where a type header (05) belongs",
                       p[at], (unsigned long long)off);
    if (avail > at + 1 && p[at + 1] != 0x01)
        return corrupt(d, off + 1, "byte 0x%02X at offset %llu where a type header's null "
                       "type (01) belongs", p[at + 1], (unsigned long long)off + 1);
    const size_t fixed = CLRA__NT_TYPE_FIXED;
    if (avail < at + fixed) {
        d->need = at + fixed;
        snprintf(d->expect, sizeof d->expect, "a type header");
        return 0;
    }
    uint32_t len;
    clra__nt_type_fields(p + at + 2, version, min_version, &len);
    if (len == 0 || len > CLRA__NT_NAME_MAX)
        return corrupt(d, off + 10, "a type name of %u bytes at offset %llu (1 to %d expected)",
                       (unsigned)len, (unsigned long long)off + 10, CLRA__NT_NAME_MAX);
    if (avail < at + fixed + 1 + len) {
        d->need = at + fixed + 1 + len;
        snprintf(d->expect, sizeof d->expect, "a type name");
        return 0;
    }
    if (p[at + fixed + len] != 0x06)
        return corrupt(d, off + fixed + len, "byte 0x%02X at offset %llu where the end of a type "
                       "header (06) belongs", p[at + fixed + len],
                       (unsigned long long)off + fixed + len);
    memcpy(name, p + at + fixed, len);
    name[len] = '\0';
    *pos = at + fixed + 1 + len;
    return 1;
}

/* The magic and FastSerialization header; as many bytes as there are are compared. */
static long step_magic(clra_nettrace_decoder_t *d, const uint8_t *p, size_t avail)
{
    size_t n = avail < CLRA__NT_MAGIC_LEN ? avail : CLRA__NT_MAGIC_LEN;
    for (size_t i = 0; i < n; i++)
        if (p[i] != (uint8_t)CLRA__NT_MAGIC[i])
            return corrupt(d, i, "byte 0x%02X at offset %zu: expected the 'Nettrace' + "
                           "'!FastSerialization.1' header (is this a NetTrace file?)", p[i], i);
    if (avail < CLRA__NT_MAGIC_LEN) {
        d->need = CLRA__NT_MAGIC_LEN;
        snprintf(d->expect, sizeof d->expect, "the 'Nettrace' header");
        return 0;
    }
    d->state = S_TRACE;
    return CLRA__NT_MAGIC_LEN;
}

static void read_trace_fields(clra_nettrace_decoder_t *d, const uint8_t *p)
{
    clra__ntcur_t c = {p, 0, CLRA__NT_TRACE_FIELDS, 0, NULL, 0};
    for (int i = 0; i < 8; i++)
        d->header.sync_time[i] = clra__nt_u16(&c, "");
    d->header.sync_qpc = (int64_t)clra__nt_u64(&c, "");
    d->header.qpc_frequency = (int64_t)clra__nt_u64(&c, "");
    d->header.pointer_size = clra__nt_u32(&c, "");
    d->header.pid = clra__nt_u32(&c, "");
    d->header.processors = clra__nt_u32(&c, "");
    d->header.sampling_rate_ns = clra__nt_u32(&c, "");
}

/* The Trace object: 05, type header "Trace", 48 bytes of fields, 06. */
static long step_trace(clra_nettrace_decoder_t *d, const uint8_t *p, size_t avail)
{
    char name[CLRA__NT_NAME_MAX + 1];
    int32_t ver, min;
    size_t pos = 1;
    if (avail >= 1 && p[0] != 0x05)
        return corrupt(d, d->offset, "byte 0x%02X at offset %llu where the Trace object (05) "
                       "belongs", p[0], (unsigned long long)d->offset);
    int r = avail < 1 ? 0 : type_header(d, p, avail, &pos, name, &ver, &min);
    if (r <= 0) {
        d->need = r == 0 && d->need ? d->need : 1;
        return r;
    }
    if (strcmp(name, "Trace") != 0)
        return corrupt(d, d->offset + 15, "the first object is '%s', not 'Trace'", name);
    if (ver < 4 || ver > 5)
        return corrupt(d, d->offset + 3, "NetTrace version %d at offset %llu: this decoder "
                       "reads versions 4 and 5", (int)ver, (unsigned long long)d->offset + 3);
    if (avail < pos + CLRA__NT_TRACE_FIELDS + 1) {
        d->need = pos + CLRA__NT_TRACE_FIELDS + 1;
        snprintf(d->expect, sizeof d->expect, "the Trace object's fields");
        return 0;
    }
    if (p[pos + CLRA__NT_TRACE_FIELDS] != 0x06)
        return corrupt(d, d->offset + pos + CLRA__NT_TRACE_FIELDS, "byte 0x%02X at offset "
                       "%llu where the end of the Trace object (06) belongs",
                       p[pos + CLRA__NT_TRACE_FIELDS],
                       (unsigned long long)(d->offset + pos + CLRA__NT_TRACE_FIELDS));
    read_trace_fields(d, p + pos);
    d->header.version = d->info.version = ver;
    d->header.min_reader_version = d->info.min_reader_version = min;
    d->state = S_OBJECTS;
    if (d->cb.header && d->cb.header(d->ctx, &d->header))
        return d->stopped = 1, -1;
    return (long)(pos + CLRA__NT_TRACE_FIELDS + 1);
}

/* Runs one whole block's body through its reader. */
static int dispatch(clra_nettrace_decoder_t *d, const char *name, const uint8_t *body,
                    uint32_t size, uint64_t off)
{
    clra__ntcur_t c = {body, 0, size, off, NULL, 0};
    if (strcmp(name, "EventBlock") == 0)
        return d->info.event_blocks++, event_block(d, &c, 0);
    if (strcmp(name, "MetadataBlock") == 0)
        return d->info.metadata_blocks++, event_block(d, &c, 1);
    if (strcmp(name, "StackBlock") == 0)
        return d->info.stack_blocks++, stack_block(d, &c);
    if (strcmp(name, "SPBlock") == 0)
        return d->info.sequence_points++, sequence_point(d, &c);
    d->info.other_objects++; /* a newer writer's object: its framing is all we need */
    return 0;
}

/* One object: the end marker or a block. Consumed bytes, 0 for more, -1 broken or stopped. */
static long step_object(clra_nettrace_decoder_t *d, const uint8_t *p, size_t avail)
{
    char name[CLRA__NT_NAME_MAX + 1];
    int32_t ver, min;
    size_t pos = 1;
    if (avail < 1)
        return d->need = 1, snprintf(d->expect, sizeof d->expect, "a block or the end marker"),
               0;
    if (p[0] == 0x01) {
        d->state = S_ENDED;
        return 1;
    }
    if (p[0] != 0x05)
        return corrupt(d, d->offset, "byte 0x%02X at offset %llu where a block (05) or the end "
                       "marker (01) belongs", p[0], (unsigned long long)d->offset);
    int r = type_header(d, p, avail, &pos, name, &ver, &min);
    if (r <= 0)
        return r;
    if (avail < pos + 4) {
        d->need = pos + 4;
        snprintf(d->expect, sizeof d->expect, "the size of a %s", name);
        return 0;
    }
    uint32_t size = le__u32(p + pos);
    if (size > CLRA_NETTRACE_MAX_BLOCK)
        return corrupt(d, d->offset + pos, "a %s of %u bytes at offset %llu (at most %u "
                       "expected)", name, (unsigned)size, (unsigned long long)(d->offset + pos),
                       CLRA_NETTRACE_MAX_BLOCK);
    pos += 4;
    pos += (size_t)clra__nt_pad4(d->offset + pos);
    if (avail < pos + size + 1) {
        d->need = pos + size + 1;
        snprintf(d->expect, sizeof d->expect, "the rest of a %u-byte %s that starts at offset "
                 "%llu", (unsigned)size, name, (unsigned long long)d->offset);
        return 0;
    }
    if (p[pos + size] != 0x06)
        return corrupt(d, d->offset + pos + size, "byte 0x%02X at offset %llu where the end "
                       "of the %s (06) belongs", p[pos + size],
                       (unsigned long long)(d->offset + pos + size), name);
    if (dispatch(d, name, p + pos, size, d->offset + pos))
        return -1;
    return (long)(pos + size + 1);
}

/* Decodes what it can of p; the bytes consumed, or -1. */
static long step(clra_nettrace_decoder_t *d, const uint8_t *p, size_t avail)
{
    d->need = 0;
    switch (d->state) {
    case S_MAGIC: return step_magic(d, p, avail);
    case S_TRACE: return step_trace(d, p, avail);
    case S_OBJECTS: return step_object(d, p, avail);
    case S_ENDED:
        return avail ? corrupt(d, d->offset, "byte 0x%02X at offset %llu after the end marker",
                               p[0], (unsigned long long)d->offset)
                     : 0;
    default: return -1;
    }
}

/* ---- feeding ----------------------------------------------------------------------------- */

static int append(clra_nettrace_decoder_t *d, const uint8_t *p, size_t n)
{
    if (d->pending_len + n > d->pending_cap) {
        size_t cap = d->pending_cap ? d->pending_cap : 4096;
        while (cap < d->pending_len + n)
            cap *= 2;
        uint8_t *b = realloc(d->pending, cap);
        if (!b)
            return -1;
        d->pending = b;
        d->pending_cap = cap;
    }
    memcpy(d->pending + d->pending_len, p, n);
    d->pending_len += n;
    return 0;
}

/* Runs step over the buffer while it makes progress; returns bytes consumed or -1. */
static long run(clra_nettrace_decoder_t *d, const uint8_t *p, size_t n)
{
    size_t used = 0;
    while (used < n || d->state == S_ENDED) {
        long k = step(d, p + used, n - used);
        if (k < 0)
            return -1;
        if (k == 0)
            break;
        used += (size_t)k;
        d->offset += (uint64_t)k;
    }
    return (long)used;
}

static int feed_result(clra_nettrace_decoder_t *d, clra_status_t *st)
{
    if (d->oom)
        return clra__detail(st, "out of memory decoding the trace"), CLRA_ENOMEM;
    if (d->stopped)
        return clra__detail(st, "a callback stopped the decoder"), CLRA_EIO;
    clra__detail(st, "%s", d->info.problem);
    return CLRA_EPROTO;
}

int clra_nettrace_decoder_feed(clra_nettrace_decoder_t *d, const void *data, size_t len,
                               clra_status_t *st)
{
    clra_status_t local;
    st = clra__status_begin(st, &local);
    if (!d || (!data && len))
        return CLRA_EINVAL;
    if (d->state == S_BROKEN || d->stopped || d->oom)
        return feed_result(d, st);
    const uint8_t *p = data;
    while (d->pending_len && len) {
        size_t want = d->need > d->pending_len ? d->need - d->pending_len : 1;
        size_t take = want < len ? want : len;
        if (append(d, p, take))
            return d->oom = 1, feed_result(d, st);
        p += take;
        len -= take;
        long k = run(d, d->pending, d->pending_len);
        if (k < 0)
            return feed_result(d, st);
        memmove(d->pending, d->pending + k, d->pending_len - (size_t)k);
        d->pending_len -= (size_t)k;
    }
    if (len) {
        long k = run(d, p, len);
        if (k < 0)
            return feed_result(d, st);
        if ((size_t)k < len && append(d, p + k, len - (size_t)k))
            return d->oom = 1, feed_result(d, st);
    }
    return 0;
}

int clra_nettrace_decoder_end(clra_nettrace_decoder_t *d, clra_nettrace_info_t *info,
                              clra_status_t *st)
{
    clra_status_t local;
    st = clra__status_begin(st, &local);
    if (!d)
        return CLRA_EINVAL;
    clra_nettrace_info_t out = d->info;
    uint64_t total = d->offset + d->pending_len;
    out.size = total;
    if (d->state == S_ENDED) {
        out.state = CLRA_NETTRACE_VALID;
        out.end_offset = total;
        out.problem[0] = '\0';
    } else if (d->state != S_BROKEN && !d->stopped && !d->oom) {
        out.state = CLRA_NETTRACE_INCOMPLETE;
        out.end_offset = total;
        if (d->pending_len == 0 && d->state == S_OBJECTS)
            snprintf(out.problem, sizeof out.problem, "cut off at byte %llu, between blocks, "
                     "without the end marker", (unsigned long long)total);
        else
            snprintf(out.problem, sizeof out.problem, "cut off at byte %llu inside %.70s: %llu "
                     "more bytes expected", (unsigned long long)total,
                     d->expect[0] ? d->expect : "the header",
                     (unsigned long long)(d->need > d->pending_len ? d->need - d->pending_len
                                                                   : 1));
    }
    if (info)
        *info = out;
    if (out.state == CLRA_NETTRACE_VALID)
        return 0;
    clra__detail(st, "%s", out.problem);
    return d->oom ? CLRA_ENOMEM : d->stopped ? CLRA_EIO : CLRA_EPROTO;
}

int clra_nettrace_decoder_new(const clra_nettrace_callbacks_t *cb, void *ctx,
                              clra_nettrace_decoder_t **out)
{
    if (!cb || !out)
        return CLRA_EINVAL;
    clra_nettrace_decoder_t *d = calloc(1, sizeof *d);
    if (!d)
        return CLRA_ENOMEM;
    d->cb = *cb;
    d->ctx = ctx;
    d->info.state = CLRA_NETTRACE_INCOMPLETE;
    *out = d;
    return 0;
}

uint64_t clra_nettrace_decoder_event_count(const clra_nettrace_decoder_t *d)
{
    return d ? d->events : 0;
}

void clra_nettrace_decoder_free(clra_nettrace_decoder_t *d)
{
    if (!d)
        return;
    for (size_t i = 0; i < d->meta_cap; i++)
        clra__nt_meta_free(d->metas[i].m);
    free(d->metas);
    free(d->pending);
    free(d->arena);
    free(d->stacks);
    free(d->stack_index);
    free(d->threads);
    free(d);
}
