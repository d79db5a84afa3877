/* heap_events.c - GCStart, GCEnd, GCBulkNode and BulkType payloads, read byte by byte.
 *
 * GCStart: Count, Depth, Reason, Type (u32 each; V0 has Count and Reason). GCEnd: Count.
 * GCBulkNode: Index u32, Count u32, ClrInstanceID u16, then Count x {Address (pointer), Size
 * u64, TypeID u64, EdgeCount u64}. BulkType: Count u32, ClrInstanceID u16, then Count x
 * {TypeID u64, ModuleID u64, TypeNameID u32, Flags u32, CorElementType u8, TypeName (UTF-16,
 * NUL-terminated), TypeParameterCount u32, TypeParameters u64 x that count}.
 */
#include "proto/heap_events.h"
#include "proto/nettrace_internal.h"
#include "common/le_bytes.h"

#include <stdio.h>
#include <string.h>

int clra__heap_gc_start(const uint8_t *p, size_t len, uint32_t version, clra__gc_start_t *out)
{
    memset(out, 0, sizeof *out);
    if (version == 0) { /* Count, Reason */
        if (len < 8)
            return -1;
        out->count = le__u32(p);
        out->reason = le__u32(p + 4);
        out->depth = 2;
        return 0;
    }
    if (len < 16)
        return -1;
    out->count = le__u32(p);
    out->depth = le__u32(p + 4);
    out->reason = le__u32(p + 8);
    out->type = le__u32(p + 12);
    return 0;
}

int clra__heap_gc_end(const uint8_t *p, size_t len, uint32_t *count)
{
    if (len < 4)
        return -1;
    *count = le__u32(p);
    return 0;
}

int clra__heap_bulk_node(const uint8_t *p, size_t len, unsigned pointer_size, uint32_t *index,
                         clra__heap_node_fn fn, void *ctx, char *why, size_t why_cap)
{
    const size_t head = 10, each = (size_t)pointer_size + 24;
    if (pointer_size != 4 && pointer_size != 8) {
        snprintf(why, why_cap, "GCBulkNode with a pointer size of %u", pointer_size);
        return -1;
    }
    if (len < head) {
        snprintf(why, why_cap, "GCBulkNode of %zu bytes (its header needs %zu)", len, head);
        return -1;
    }
    *index = le__u32(p);
    uint32_t count = le__u32(p + 4);
    if ((len - head) / each < count) {
        snprintf(why, why_cap, "GCBulkNode of %u objects in %zu bytes (they need %zu each)",
                 count, len - head, each);
        return -1;
    }
    for (const uint8_t *o = p + head, *end = o + (size_t)count * each; o < end; o += each) {
        const uint8_t *f = o + pointer_size; /* past Address */
        if (fn(ctx, le__u64(f + 8), le__u64(f)))
            return 1;
    }
    return 0;
}

/* The UTF-16 name at *at (NUL-terminated within end) into out as UTF-8, cut past
 * CLRA__HEAP_NAME_UNITS; *at moves past its NUL. 0, or -1 when no NUL comes before end. */
static int take_name(const uint8_t **at, const uint8_t *end, char *out)
{
    const uint8_t *s = *at;
    size_t units = 0;
    while ((size_t)(end - s) / 2 > units && le__u16(s + 2 * units) != 0)
        units++;
    if ((size_t)(end - s) / 2 <= units)
        return -1;
    *at = s + 2 * (units + 1);
    size_t kept = units > CLRA__HEAP_NAME_UNITS ? CLRA__HEAP_NAME_UNITS : units;
    size_t n = clra__nt_utf16_to_utf8(s, kept, out);
    if (kept < units)
        memcpy(out + n, "...", 4);
    return 0;
}

int clra__heap_bulk_type(const uint8_t *p, size_t len, clra__heap_type_fn fn, void *ctx,
                         char *why, size_t why_cap)
{
    static const size_t fixed = 8 + 8 + 4 + 4 + 1; /* before the name */
    char name[3 * CLRA__HEAP_NAME_UNITS + 4];
    if (len < 6) {
        snprintf(why, why_cap, "BulkType of %zu bytes (its header needs 6)", len);
        return -1;
    }
    uint32_t count = le__u32(p);
    const uint8_t *at = p + 6, *end = p + len;
    for (uint32_t i = 0; i < count; i++) {
        if ((size_t)(end - at) < fixed + 2 + 4) {
            snprintf(why, why_cap, "BulkType's type %u of %u runs past its %zu bytes", i, count,
                     len);
            return -1;
        }
        uint64_t id = le__u64(at);
        at += fixed;
        if (take_name(&at, end, name) != 0 || (size_t)(end - at) < 4) {
            snprintf(why, why_cap, "BulkType's type %u of %u has no end to its name", i, count);
            return -1;
        }
        uint32_t params = le__u32(at);
        at += 4;
        if ((size_t)(end - at) / 8 < params) {
            snprintf(why, why_cap, "BulkType's type %u has %u type parameters in %zu bytes", i,
                     params, (size_t)(end - at));
            return -1;
        }
        at += (size_t)params * 8;
        if (fn(ctx, id, name))
            return 1;
    }
    return 0;
}
