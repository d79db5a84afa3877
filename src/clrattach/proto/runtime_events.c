/* runtime_events.c - the runtime's own events walked by the manifest's layouts.
 *
 * The metadata of Microsoft-Windows-DotNETRuntime's events names no fields, so their payloads
 * are read here by the tables of runtime_events_*.c instead: fields packed in order, little-
 * endian, pointers of the trace's size, strings NUL-terminated UTF-16, arrays counted by an
 * earlier field. A payload cut short hands out what fits and says where it stopped; bytes after
 * the description (a newer version's fields) are left for the caller to show.
 */
#include "proto/nettrace_internal.h"
#include "proto/runtime_events.h"
#include "util/status.h"

#include <stdlib.h>
#include <string.h>

#define MAX_LIST 32 /* fields of one list (the tables stay far below; a unit test checks) */

static const clra__rt_table_t *const tables[] = {&clra__rt_gc, &clra__rt_heap, &clra__rt_threads,
                                                 &clra__rt_loader, &clra__rt_rundown};

/* A linear search: a few hundred entries, and callers look up once per event kind or event. */
const clra__rt_event_t *clra__rt_find(const char *provider, uint32_t id, uint32_t version)
{
    const clra__rt_event_t *best = NULL;
    for (size_t t = 0; provider && t < sizeof tables / sizeof tables[0]; t++) {
        if (strcmp(tables[t]->provider, provider) != 0)
            continue;
        for (size_t i = 0; i < tables[t]->count; i++) {
            const clra__rt_event_t *e = &tables[t]->events[i];
            if (e->id == id && e->version <= version && (!best || e->version > best->version))
                best = e;
        }
    }
    return best;
}

/* Counted over the tables each time: only tests and fuzzing ask. */
size_t clra__rt_count(void)
{
    size_t n = 0;
    for (size_t t = 0; t < sizeof tables / sizeof tables[0]; t++)
        n += tables[t]->count;
    return n;
}

/* The tables in their order, so an index picks the same event on every run. */
const clra__rt_event_t *clra__rt_at(size_t i, const char **provider)
{
    for (size_t t = 0; t < sizeof tables / sizeof tables[0]; t++) {
        if (i < tables[t]->count) {
            *provider = tables[t]->provider;
            return &tables[t]->events[i];
        }
        i -= tables[t]->count;
    }
    return NULL;
}

typedef struct rtwalk {
    const uint8_t *p;
    size_t pos, len;
    unsigned ptr; /* pointer size */
    clra_nettrace_value_fn fn;
    void *ctx;
    char *text; /* room for the longest string the payload can hold, as UTF-8 */
    const clra__rt_field_t *bad;
    const char *why;
    const clra__rt_field_t *over; /* the array whose count did not fit, when it failed in one */
    uint64_t over_count;
    int stopped;
} rtwalk_t;

static const clra_nettrace_field_t element = {"", CLRA_NETTRACE_STRUCT, NULL, 0};

/* Bytes a value of kind takes (strings: their terminator at least; arrays: none). */
static size_t enc_size(const rtwalk_t *w, uint8_t kind)
{
    switch (kind) {
    case CLRA__RT_U8: return 1;
    case CLRA__RT_U16: case CLRA__RT_STR: return 2;
    case CLRA__RT_U32: case CLRA__RT_I32: case CLRA__RT_BOOL: return 4;
    case CLRA__RT_U64: case CLRA__RT_DOUBLE: return 8;
    case CLRA__RT_PTR: return w->ptr;
    case CLRA__RT_GUID: return 16;
    default: return 0;
    }
}

/* Hands v to the caller; a non-zero answer stops the walk without closing groups. */
static int emit(rtwalk_t *w, clra_nettrace_value_t *v)
{
    if (w->fn && w->fn(w->ctx, v))
        return w->stopped = 1, -1;
    return 0;
}

/* Notes the field the walk stopped at and why, for the caller's detail. */
static int fail(rtwalk_t *w, const clra__rt_field_t *f, const char *why)
{
    w->bad = f;
    w->why = why;
    return -1;
}

/* A NUL-terminated UTF-16 string at the walk's position into v (-1 when no NUL comes). */
static int string(rtwalk_t *w, const clra__rt_field_t *f, clra_nettrace_value_t *v)
{
    size_t start = w->pos, n = 0;
    while (w->len - w->pos >= 2 && (w->p[w->pos] || w->p[w->pos + 1]))
        w->pos += 2, n++;
    if (w->len - w->pos < 2)
        return w->pos = start, fail(w, f, "the payload ends inside the string");
    w->pos += 2;
    clra__nt_utf16_to_utf8(w->p + start, n, w->text);
    v->text = w->text;
    v->raw = w->p + start;
    v->raw_len = w->pos - start;
    return 0;
}

/* One scalar or string of f; its unsigned value (for counts) into *out. */
static int scalar(rtwalk_t *w, const clra__rt_field_t *f, int depth, uint32_t index,
                  uint64_t *out)
{
    clra_nettrace_value_t v = {0};
    v.kind = CLRA_NETTRACE_VALUE;
    v.field = &f->shown;
    v.name = f->shown.name;
    v.depth = depth;
    v.index = index;
    if (f->kind == CLRA__RT_STR) {
        if (string(w, f, &v))
            return -1;
        return emit(w, &v);
    }
    size_t n = enc_size(w, f->kind);
    if (n == 0)
        return fail(w, f, "a field of no known encoding");
    if (w->len - w->pos < n)
        return fail(w, f, "the payload ends before it");
    v.raw = w->p + w->pos;
    v.raw_len = n;
    for (size_t i = n; i-- > 0;)
        v.u = v.u << 8 | v.raw[i];
    v.i = f->kind == CLRA__RT_I32 ? (int32_t)(uint32_t)v.u : (int64_t)v.u;
    if (f->kind == CLRA__RT_BOOL)
        v.i = v.u != 0;
    if (f->kind == CLRA__RT_DOUBLE)
        memcpy(&v.f, &v.u, 8);
    w->pos += n;
    *out = v.u;
    return emit(w, &v);
}

static int list(rtwalk_t *w, const clra__rt_field_t *fs, size_t n, int depth);

/* Opens (BEGIN) or closes (END) a group for f at depth; END is owed even after a failure. */
static int bound(rtwalk_t *w, const clra_nettrace_field_t *f, clra_nettrace_value_kind_t kind,
                 int depth, uint32_t index, uint32_t count)
{
    clra_nettrace_value_t v = {0};
    v.kind = kind;
    v.field = f;
    v.name = f->name;
    v.depth = depth;
    v.index = index;
    v.count = count;
    v.raw = w->p + w->pos;
    return emit(w, &v);
}

/* The elements of array f, count of them, each at least its members' fixed sizes: as many
 * as fit (each takes a byte or more, so a count larger than the bytes left costs no more than
 * the bytes), the failure then naming the array and its count. */
static int array(rtwalk_t *w, const clra__rt_field_t *f, int depth, uint64_t count)
{
    size_t each = 0;
    for (size_t m = 0; m < f->elem_count; m++)
        each += enc_size(w, f->elem[m].kind);
    if (each == 0)
        return fail(w, f, "an array whose elements take no bytes");
    int over = count > (w->len - w->pos) / each;
    if (bound(w, &f->shown, CLRA_NETTRACE_BEGIN, depth, 0, (uint32_t)count))
        return -1;
    int rc = 0, bare = f->elem_count == 1 && !f->elem[0].shown.name[0];
    for (uint32_t i = 0; i < count && !rc; i++) {
        uint64_t ignored;
        if (bare) {
            rc = scalar(w, &f->elem[0], depth + 1, i, &ignored);
            continue;
        }
        rc = bound(w, &element, CLRA_NETTRACE_BEGIN, depth + 1, i, f->elem_count);
        rc = rc ? rc : list(w, f->elem, f->elem_count, depth + 2);
        if (!w->stopped && bound(w, &element, CLRA_NETTRACE_END, depth + 1, i, 0))
            rc = -1;
    }
    if (!w->stopped && bound(w, &f->shown, CLRA_NETTRACE_END, depth, 0, 0))
        rc = -1;
    if (rc && over && !w->stopped && !w->over)
        w->over = f, w->over_count = count;
    return rc;
}

/* The fields of one list (an event's, or an array element's) in order. */
static int list(rtwalk_t *w, const clra__rt_field_t *fs, size_t n, int depth)
{
    uint64_t vals[MAX_LIST] = {0};
    if (n > MAX_LIST)
        return fail(w, fs, "a description longer than the walker's list");
    for (size_t i = 0; i < n; i++) {
        const clra__rt_field_t *f = &fs[i];
        int rc = f->kind == CLRA__RT_ARRAY
                     ? (f->count_from < i ? array(w, f, depth, vals[f->count_from])
                                          : fail(w, f, "an array counted by a later field"))
                     : scalar(w, f, depth, 0, &vals[i]);
        if (rc)
            return rc;
    }
    return 0;
}

/* The table's name: the runtime leaves the metadata's name empty for its own events. */
const char *clra_runtime_event_name(const clra_nettrace_metadata_t *meta)
{
    const clra__rt_event_t *e =
        meta ? clra__rt_find(meta->provider, meta->event_id, meta->version) : NULL;
    return e ? e->name : NULL;
}

/* Finds the layout, then walks it with a scratch buffer as large as the longest string. */
int clra_runtime_event_walk(const clra_nettrace_metadata_t *meta, const void *payload,
                            size_t len, unsigned pointer_size, clra_nettrace_value_fn fn,
                            void *ctx, size_t *used, clra_status_t *st)
{
    clra_status_t local;
    char small[512];
    st = clra__status_begin(st, &local);
    if (used)
        *used = 0;
    if (!meta || (!payload && len))
        return CLRA_EINVAL;
    const clra__rt_event_t *e = clra__rt_find(meta->provider, meta->event_id, meta->version);
    if (!e)
        return clra__detail(st, "%s event %u version %u has no known layout", meta->provider,
                            meta->event_id, meta->version), CLRA_EINVAL;
    rtwalk_t w = {payload, 0, len, pointer_size == 4 ? 4 : 8, fn, ctx, small, NULL, NULL, NULL,
                  0, 0};
    if (3 * (len / 2) + 1 > sizeof small && !(w.text = malloc(3 * (len / 2) + 1)))
        return CLRA_ENOMEM;
    int rc = list(&w, e->fields, e->count, 0);
    if (w.text != small)
        free(w.text);
    if (used)
        *used = w.pos;
    if (rc && w.stopped)
        return clra__detail(st, "the callback stopped the walk"), CLRA_EIO;
    if (rc)
        clra__detail(st, "%s/%s (version %u, read as %u): field '%s' at payload offset %zu of %zu:"
                     " %s%s%s%s", meta->provider, e->name, meta->version, e->version,
                     w.bad->shown.name, w.pos, len, w.why, w.over ? " (in '" : "",
                     w.over ? w.over->shown.name : "",
                     w.over ? "', an array count larger than the bytes left)" : "");
    return rc ? CLRA_EPROTO : 0;
}
