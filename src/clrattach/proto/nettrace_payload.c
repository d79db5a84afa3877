/* nettrace_payload.c - an event's payload read by its metadata, and values as text.
 *
 * Payload encoding (NetTraceFormat_v5.md, EventSource's EventPipe writer): fields packed in
 * order, little-endian, no alignment; BOOL is 4 bytes; strings are NUL-terminated UTF-16;
 * structs are their members in order; arrays are a uint16 element count, then the elements.
 */
#include "proto/nettrace_internal.h"
#include "common/le_bytes.h"
#include "util/status.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct walk {
    clra__ntcur_t c;
    clra_nettrace_value_fn fn;
    void *ctx;
    char *text; /* room for the longest string the payload can hold, as UTF-8 */
    int stopped;
    const clra_nettrace_field_t *bad; /* the field that did not fit */
    const char *why;                  /* a limit it broke (NULL: it did not fit) */
    uint64_t left;                    /* values it may still visit (CLRA_NETTRACE_VALUES_PER_BYTE) */
} walk_t;

/* Fixed sizes by type code; 0 for strings, structs, arrays and unknown codes. */
static size_t fixed_size(clra_nettrace_type_t t)
{
    switch (t) {
    case CLRA_NETTRACE_INT8: case CLRA_NETTRACE_UINT8: return 1;
    case CLRA_NETTRACE_CHAR: case CLRA_NETTRACE_INT16: case CLRA_NETTRACE_UINT16: return 2;
    case CLRA_NETTRACE_BOOL: case CLRA_NETTRACE_INT32: case CLRA_NETTRACE_UINT32:
    case CLRA_NETTRACE_FLOAT: return 4;
    case CLRA_NETTRACE_INT64: case CLRA_NETTRACE_UINT64: case CLRA_NETTRACE_DOUBLE:
    case CLRA_NETTRACE_DATETIME: return 8;
    case CLRA_NETTRACE_DECIMAL: case CLRA_NETTRACE_GUID: return 16;
    default: return 0;
    }
}

/* Fills the numeric members from raw bytes. */
static void scalar(clra_nettrace_value_t *v, clra_nettrace_type_t t, const uint8_t *p, size_t n)
{
    uint64_t u = le__uint(p, n < 8 ? n : 8);
    v->u = u;
    switch (t) {
    case CLRA_NETTRACE_INT8: v->i = (int8_t)u; break;
    case CLRA_NETTRACE_INT16: v->i = (int16_t)u; break;
    case CLRA_NETTRACE_INT32: v->i = (int32_t)u; break;
    case CLRA_NETTRACE_BOOL: v->i = u != 0; break;
    case CLRA_NETTRACE_FLOAT: {
        float f;
        uint32_t w = (uint32_t)u;
        memcpy(&f, &w, 4);
        v->f = f;
        break;
    }
    case CLRA_NETTRACE_DOUBLE: memcpy(&v->f, &u, 8); break;
    default: v->i = (int64_t)u; break;
    }
}

static int one(walk_t *w, const clra_nettrace_field_t *f, int depth, uint32_t index);

/* Takes n visits from the walk's budget; -1 (the walk fails on f) when it runs out, so a
 * payload's cost follows its size whatever its metadata repeats. */
static int spend(walk_t *w, const clra_nettrace_field_t *f, uint64_t n)
{
    if (w->left >= n) {
        w->left -= n;
        return 0;
    }
    w->why = "more values than CLRA_NETTRACE_VALUES_PER_BYTE (16) per payload byte";
    w->bad = f;
    return -1;
}

/* The fewest bytes a value of f can take (strings their terminator, arrays their count); the
 * nodes looked at are spent from the budget, so this is never the walk's hidden cost. */
static uint64_t min_size(walk_t *w, const clra_nettrace_field_t *f, int *out_of_budget)
{
    if (*out_of_budget || spend(w, f, 1))
        return *out_of_budget = 1, 0;
    if (f->type == CLRA_NETTRACE_STRING)
        return 2;
    if (f->type == CLRA_NETTRACE_ARRAY)
        return 2;
    if (f->type != CLRA_NETTRACE_STRUCT)
        return fixed_size(f->type) ? fixed_size(f->type) : 1;
    uint64_t sum = 0;
    for (size_t i = 0; i < f->field_count && !*out_of_budget; i++)
        sum += min_size(w, &f->fields[i], out_of_budget);
    return sum;
}

/* An array's count must fit what is left: count x its element's smallest size, and an element
 * of zero bytes (empty structs) is refused: 65535 of them, nested, were 2^31 values from a
 * few bytes. 0 or -1 with why set. */
static int array_fits(walk_t *w, const clra_nettrace_field_t *f, uint32_t count)
{
    int out = 0;
    uint64_t each = min_size(w, f->fields, &out);
    if (out)
        return -1;
    if (each == 0 && count)
        w->why = "an array whose elements take no bytes (empty structs): refused";
    else if (count * each > w->c.end - w->c.pos)
        w->why = "an array count larger than the bytes left";
    if (!w->why)
        return 0;
    w->bad = f;
    return -1;
}

static int emit(walk_t *w, clra_nettrace_value_t *v)
{
    if (w->fn && w->fn(w->ctx, v)) {
        w->stopped = 1;
        return -1;
    }
    return 0;
}

/* A struct's members or an array's elements, between BEGIN and END. */
static int group(walk_t *w, const clra_nettrace_field_t *f, int depth, uint32_t index)
{
    clra_nettrace_value_t v = {0};
    v.field = f;
    v.name = f->name;
    v.depth = depth;
    v.index = index;
    v.raw = w->c.p + w->c.pos;
    uint32_t count = (uint32_t)f->field_count;
    if (spend(w, f, 1))
        return -1;
    if (f->type == CLRA_NETTRACE_ARRAY) {
        count = clra__nt_u16(&w->c, "an array's element count");
        if (w->c.want || f->field_count != 1)
            return w->bad = f, -1;
        if (array_fits(w, f, count))
            return -1;
    }
    v.kind = CLRA_NETTRACE_BEGIN;
    v.count = count;
    if (emit(w, &v))
        return -1;
    for (uint32_t i = 0; i < count; i++) {
        const clra_nettrace_field_t *m = f->type == CLRA_NETTRACE_ARRAY ? f->fields
                                                                         : &f->fields[i];
        if (one(w, m, depth + 1, f->type == CLRA_NETTRACE_ARRAY ? i : 0))
            return -1;
    }
    v.kind = CLRA_NETTRACE_END;
    v.raw_len = (size_t)(w->c.p + w->c.pos - v.raw);
    return emit(w, &v);
}

/* A NUL-terminated UTF-16 string (or the rest of the payload when the NUL is missing). */
static void string(walk_t *w, clra_nettrace_value_t *v)
{
    size_t start = w->c.pos, n = 0;
    int terminated = 0;
    while (!terminated && w->c.end - w->c.pos >= 2) {
        const uint8_t *u = w->c.p + w->c.pos;
        w->c.pos += 2;
        terminated = !u[0] && !u[1];
        n += !terminated;
    }
    if (!terminated)
        w->c.pos = w->c.end; /* an odd last byte goes with the unterminated string */
    clra__nt_utf16_to_utf8(w->c.p + start, n, w->text);
    v->text = w->text;
    v->raw = w->c.p + start;
    v->raw_len = w->c.pos - start;
}

/* One value of field f. */
static int one(walk_t *w, const clra_nettrace_field_t *f, int depth, uint32_t index)
{
    if (f->type == CLRA_NETTRACE_STRUCT || f->type == CLRA_NETTRACE_ARRAY)
        return group(w, f, depth, index);
    clra_nettrace_value_t v = {0};
    v.kind = CLRA_NETTRACE_VALUE;
    v.field = f;
    v.name = f->name;
    v.depth = depth;
    v.index = index;
    if (spend(w, f, 1))
        return -1;
    if (f->type == CLRA_NETTRACE_STRING) {
        string(w, &v);
        return emit(w, &v);
    }
    size_t n = fixed_size(f->type);
    const uint8_t *p = n ? clra__nt_bytes(&w->c, n, "a field's value") : NULL;
    if (!p)
        return w->bad = f, -1;
    v.raw = p;
    v.raw_len = n;
    scalar(&v, f->type, p, n);
    return emit(w, &v);
}

int clra_nettrace_payload_walk(const clra_nettrace_metadata_t *meta, const void *payload,
                               size_t len, clra_nettrace_value_fn fn, void *ctx,
                               clra_status_t *st)
{
    clra_status_t local;
    char small[512];
    st = clra__status_begin(st, &local);
    if (!meta || (!payload && len))
        return CLRA_EINVAL;
    walk_t w = {{payload, 0, len, 0, NULL, 0}, fn, ctx, small, 0, NULL, NULL,
                (uint64_t)len * CLRA_NETTRACE_VALUES_PER_BYTE + CLRA_NETTRACE_MAX_FIELDS};
    if (3 * (len / 2) + 1 > sizeof small && !(w.text = malloc(3 * (len / 2) + 1)))
        return CLRA_ENOMEM;
    int rc = 0;
    for (size_t i = 0; i < meta->field_count && !rc; i++)
        rc = one(&w, &meta->fields[i], 0, 0);
    if (w.text != small)
        free(w.text);
    if (rc && w.stopped)
        return clra__detail(st, "the callback stopped the walk"), CLRA_EIO;
    if (rc && w.why)
        clra__detail(st, "%s/%s: field '%s' at payload offset %zu of %zu: %s", meta->provider,
                     meta->event_name, w.bad->name, w.c.pos, len, w.why);
    else if (rc && fixed_size(w.bad->type) == 0 && w.bad->type != CLRA_NETTRACE_ARRAY)
        clra__detail(st, "%s/%s: field '%s' has type code %d, which has no known encoding",
                     meta->provider, meta->event_name, w.bad->name, (int)w.bad->type);
    else if (rc)
        clra__detail(st, "%s/%s: field '%s' does not fit: %zu bytes left at payload offset %zu "
                     "of %zu", meta->provider, meta->event_name, w.bad->name,
                     w.c.end - w.c.want_at, w.c.want_at, len);
    return rc ? CLRA_EPROTO : 0;
}

typedef struct getter {
    const char *name;
    clra_nettrace_value_t *out;
    char *text;
    size_t cap;
    int found;
} getter_t;

static int get_one(void *ctx, const clra_nettrace_value_t *v)
{
    getter_t *g = ctx;
    if (v->depth != 0 || v->kind == CLRA_NETTRACE_END || strcmp(v->name, g->name) != 0)
        return 0;
    *g->out = *v;
    g->out->text = NULL;
    if (v->text && g->text && g->cap) {
        snprintf(g->text, g->cap, "%s", v->text);
        g->out->text = g->text;
    }
    g->found = 1;
    return 1;
}

int clra_nettrace_payload_get(const clra_nettrace_metadata_t *meta, const void *payload,
                              size_t len, const char *name, clra_nettrace_value_t *out,
                              char *text, size_t cap, clra_status_t *st)
{
    if (!name || !out)
        return CLRA_EINVAL;
    getter_t g = {name, out, text, cap, 0};
    clra_status_t local;
    st = clra__status_begin(st, &local);
    clra_status_t walk;
    int rc = clra_nettrace_payload_walk(meta, payload, len, get_one, &g, &walk);
    if (g.found)
        return 0; /* the walk stopped where the field was: not a failure */
    if (rc)
        clra__detail(st, "%s", walk.detail);
    if (rc == 0) {
        clra__detail(st, "%s/%s has no field '%s'", meta->provider, meta->event_name, name);
        return CLRA_EINVAL;
    }
    return rc;
}

/* FILETIME ticks as ISO 8601 UTC with 100 ns digits (civil-from-days, proleptic Gregorian). */
static int format_filetime(uint64_t ticks, char *buf, size_t cap)
{
    uint64_t secs = ticks / 10000000u, frac = ticks % 10000000u;
    int64_t days = (int64_t)(secs / 86400) - 134774; /* 1601-01-01 to 1970-01-01 */
    uint64_t rem = secs % 86400;
    int64_t z = days + 719468, era = (z >= 0 ? z : z - 146096) / 146097;
    int64_t doe = z - era * 146097;
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100), mp = (5 * doy + 2) / 153;
    int64_t day = doy - (153 * mp + 2) / 5 + 1, month = mp < 10 ? mp + 3 : mp - 9;
    int64_t year = yoe + era * 400 + (month <= 2);
    return snprintf(buf, cap, "%04lld-%02lld-%02lldT%02u:%02u:%02u.%07lluZ", (long long)year,
                    (long long)month, (long long)day, (unsigned)(rem / 3600),
                    (unsigned)(rem / 60 % 60), (unsigned)(rem % 60), (unsigned long long)frac);
}

int clra_nettrace_value_format(const clra_nettrace_value_t *v, char *buf, size_t cap)
{
    if (!v || !v->field)
        return snprintf(buf, cap, "%s", "");
    const uint8_t *r = v->raw;
    switch (v->field->type) {
    case CLRA_NETTRACE_BOOL: return snprintf(buf, cap, "%s", v->i ? "true" : "false");
    case CLRA_NETTRACE_INT8: case CLRA_NETTRACE_INT16: case CLRA_NETTRACE_INT32:
    case CLRA_NETTRACE_INT64: return snprintf(buf, cap, "%lld", (long long)v->i);
    case CLRA_NETTRACE_CHAR: case CLRA_NETTRACE_UINT8: case CLRA_NETTRACE_UINT16:
    case CLRA_NETTRACE_UINT32: case CLRA_NETTRACE_UINT64:
        return snprintf(buf, cap, "%llu", (unsigned long long)v->u);
    case CLRA_NETTRACE_FLOAT: case CLRA_NETTRACE_DOUBLE:
        return snprintf(buf, cap, "%.17g", v->f);
    case CLRA_NETTRACE_DATETIME: return format_filetime(v->u, buf, cap);
    case CLRA_NETTRACE_STRING: return snprintf(buf, cap, "%s", v->text ? v->text : "");
    case CLRA_NETTRACE_GUID:
        return snprintf(buf, cap, "%08x-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x",
                        (unsigned)le__uint(r, 4), (unsigned)le__uint(r + 4, 2), (unsigned)le__uint(r + 6, 2),
                        r[8], r[9], r[10], r[11], r[12], r[13], r[14], r[15]);
    default: {
        int n = 0;
        for (size_t i = 0; i < v->raw_len; i++)
            n += snprintf(buf && (size_t)n < cap ? buf + n : NULL,
                          buf && (size_t)n < cap ? cap - (size_t)n : 0, "%02x", r[i]);
        if (!v->raw_len && buf && cap)
            buf[0] = '\0';
        return n;
    }
    }
}
