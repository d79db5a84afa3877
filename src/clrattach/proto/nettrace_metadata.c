/* nettrace_metadata.c - a metadata record's bytes to a clra_nettrace_metadata_t.
 *
 * Layout (PerfView NetTraceFormat_v5.md "Metadata event encoding"): uint32 metadata id, UTF-16
 * provider, uint32 event id, UTF-16 event name, uint64 keywords, uint32 version, uint32 level,
 * then the V1 field list (uint32 count, each: uint32 type code, a nested list when the code is
 * 1 (struct), UTF-16 name). Bytes left after it are tags: uint32 payload size, uint8 kind,
 * payload; kind 1 is the opcode (one byte), kind 2 the V2 parameters (uint32 count, each:
 * uint32 size including itself, UTF-16 name, type: code, then a named list for structs or
 * the element's type for arrays). A record with V2 parameters has an empty V1 list.
 */
#include "proto/nettrace_internal.h"

#include <stdlib.h>
#include <string.h>

#define MIN_FIELD_BYTES 6 /* a type code and an empty name: bounds a claimed field count */

/* What one record's parse has used so far: out of memory, fields made (all levels). */
typedef struct meta_ctx {
    int oom;
    size_t fields;
} meta_ctx_t;

static void free_fields(clra_nettrace_field_t *f, size_t n)
{
    for (size_t i = 0; f && i < n; i++) {
        free((char *)f[i].name);
        free_fields((clra_nettrace_field_t *)f[i].fields, f[i].field_count);
    }
    free(f);
}

void clra__nt_meta_free(clra_nettrace_metadata_t *m)
{
    if (!m)
        return;
    free((char *)m->provider);
    free((char *)m->event_name);
    free_fields((clra_nettrace_field_t *)m->fields, m->field_count);
    free(m);
}

/* A count of fields that could fit in what is left (each needs min_each bytes or more) and
 * keeps the record within CLRA_NETTRACE_MAX_FIELDS fields in all, counting nested ones: a
 * record claiming millions of tiny fields would otherwise cost ~40 bytes of memory per 6 read. */
static int count_fits(clra__ntcur_t *c, meta_ctx_t *x, uint32_t n, size_t min_each,
                      const char *what)
{
    const char *bad = (uint64_t)n * min_each > c->end - c->pos ? what : NULL;
    if (!bad && x->fields + n > CLRA_NETTRACE_MAX_FIELDS)
        bad = "at most CLRA_NETTRACE_MAX_FIELDS (1024) fields in one record, nested ones "
              "included";
    if (!bad) {
        x->fields += n;
        return 1;
    }
    if (!c->want) {
        c->want = bad;
        c->want_at = c->pos - 4;
    }
    return 0;
}

static int v1_fields(clra__ntcur_t *c, int depth, clra_nettrace_field_t **out, size_t *n,
                     meta_ctx_t *x);

/* One V1 field: type code, nested list for a struct, name. */
static int v1_field(clra__ntcur_t *c, int depth, clra_nettrace_field_t *f, meta_ctx_t *x)
{
    f->type = (clra_nettrace_type_t)clra__nt_u32(c, "a field's type code");
    if (f->type == CLRA_NETTRACE_STRUCT &&
        v1_fields(c, depth + 1, (clra_nettrace_field_t **)&f->fields, &f->field_count, x))
        return -1;
    f->name = clra__nt_utf16z(c, "a field's name");
    if (!f->name && !c->want)
        x->oom = 1;
    return f->name ? 0 : -1;
}

/* uint32 count, then count V1 fields. */
static int v1_fields(clra__ntcur_t *c, int depth, clra_nettrace_field_t **out, size_t *n,
                     meta_ctx_t *x)
{
    uint32_t count = clra__nt_u32(c, "a field count");
    if (c->want || !count_fits(c, x, count, MIN_FIELD_BYTES, "a field count larger than the "
                                                          "record"))
        return -1;
    if (depth > CLRA_NETTRACE_MAX_DEPTH) {
        c->want = "structs nested no deeper than CLRA_NETTRACE_MAX_DEPTH";
        c->want_at = c->pos;
        return -1;
    }
    *out = count ? calloc(count, sizeof **out) : NULL;
    if (count && !*out)
        return x->oom = 1, -1;
    *n = count;
    for (uint32_t i = 0; i < count; i++)
        if (v1_field(c, depth, &(*out)[i], x))
            return -1;
    return 0;
}

static int v2_named_fields(clra__ntcur_t *c, int depth, clra_nettrace_field_t **out, size_t *n,
                           meta_ctx_t *x);

/* A V2 type: code, then members (struct) or the element's type (array). */
static int v2_type(clra__ntcur_t *c, int depth, clra_nettrace_field_t *f, meta_ctx_t *x)
{
    if (depth > CLRA_NETTRACE_MAX_DEPTH) {
        c->want = "types nested no deeper than CLRA_NETTRACE_MAX_DEPTH";
        c->want_at = c->pos;
        return -1;
    }
    f->type = (clra_nettrace_type_t)clra__nt_u32(c, "a V2 type code");
    if (f->type == CLRA_NETTRACE_STRUCT)
        return v2_named_fields(c, depth + 1, (clra_nettrace_field_t **)&f->fields,
                               &f->field_count, x);
    if (f->type != CLRA_NETTRACE_ARRAY)
        return c->want ? -1 : 0;
    if (!count_fits(c, x, 1, 0, ""))
        return -1;
    clra_nettrace_field_t *el = calloc(1, sizeof *el);
    if (!el)
        return x->oom = 1, -1;
    f->fields = el;
    f->field_count = 1;
    el->name = calloc(1, 1);
    if (!el->name)
        return x->oom = 1, -1;
    return v2_type(c, depth + 1, el, x);
}

/* One V2 named field: uint32 size (itself included), name, type, padding up to size. */
static int v2_named(clra__ntcur_t *c, int depth, clra_nettrace_field_t *f, meta_ctx_t *x)
{
    size_t start = c->pos;
    uint32_t size = clra__nt_u32(c, "a V2 field's size");
    if (!c->want && (size < 4 || size > c->end - start)) {
        c->want = "a V2 field size within the record";
        c->want_at = start;
    }
    if (c->want)
        return -1;
    clra__ntcur_t sub = *c;
    sub.end = start + size;
    f->name = clra__nt_utf16z(&sub, "a V2 field's name");
    if (!f->name && !sub.want)
        x->oom = 1;
    if (!f->name || v2_type(&sub, depth, f, x)) {
        c->want = sub.want;
        c->want_at = sub.want_at;
        return -1;
    }
    c->pos = start + size;
    return 0;
}

static int v2_named_fields(clra__ntcur_t *c, int depth, clra_nettrace_field_t **out, size_t *n,
                           meta_ctx_t *x)
{
    uint32_t count = clra__nt_u32(c, "a V2 field count");
    if (c->want || !count_fits(c, x, count, 10, "a V2 field count larger than the record"))
        return -1;
    *out = count ? calloc(count, sizeof **out) : NULL;
    if (count && !*out)
        return x->oom = 1, -1;
    *n = count;
    for (uint32_t i = 0; i < count; i++)
        if (v2_named(c, depth, &(*out)[i], x))
            return -1;
    return 0;
}

/* The tags after the V1 list: opcode and V2 parameters; unknown kinds are skipped. */
static int tags(clra__ntcur_t *c, clra_nettrace_metadata_t *m, meta_ctx_t *x)
{
    while (c->pos < c->end) {
        uint32_t size = clra__nt_u32(c, "a metadata tag's size");
        uint8_t kind = clra__nt_u8(c, "a metadata tag's kind");
        if (!c->want && size > c->end - c->pos) {
            c->want = "a metadata tag within the record";
            c->want_at = c->pos - 5;
        }
        if (c->want)
            return -1;
        clra__ntcur_t sub = *c;
        sub.end = c->pos + size;
        if (kind == 1)
            m->opcode = clra__nt_u8(&sub, "the opcode tag's byte");
        if (kind == 2) {
            free_fields((clra_nettrace_field_t *)m->fields, m->field_count);
            m->fields = NULL;
            m->field_count = 0;
            m->fields_v2 = 1;
            x->fields = 0; /* the V1 list they replace no longer counts */
            v2_named_fields(&sub, 0, (clra_nettrace_field_t **)&m->fields, &m->field_count, x);
        }
        if (sub.want || x->oom) {
            c->want = sub.want;
            c->want_at = sub.want_at;
            return -1;
        }
        c->pos += size;
    }
    return 0;
}

clra_nettrace_metadata_t *clra__nt_meta_parse(clra__ntcur_t *c, int *oom)
{
    meta_ctx_t ctx = {0, 0}, *x = &ctx;
    clra_nettrace_metadata_t *m = calloc(1, sizeof *m);
    *oom = 0;
    if (!m)
        return *oom = 1, NULL;
    m->opcode = -1;
    m->id = clra__nt_u32(c, "the metadata id");
    m->provider = clra__nt_utf16z(c, "the provider name");
    m->event_id = clra__nt_u32(c, "the event id");
    m->event_name = c->want ? NULL : clra__nt_utf16z(c, "the event name");
    m->keywords = clra__nt_u64(c, "the keywords");
    m->version = clra__nt_u32(c, "the event version");
    m->level = clra__nt_u32(c, "the level");
    if (!c->want && (!m->provider || !m->event_name))
        x->oom = 1;
    /* A record may stop right after the level (some runtime events have no field list). */
    if (!c->want && !x->oom && c->pos < c->end &&
        v1_fields(c, 0, (clra_nettrace_field_t **)&m->fields, &m->field_count, x) == 0)
        tags(c, m, x);
    *oom = x->oom;
    if (c->want || x->oom) {
        clra__nt_meta_free(m);
        return NULL;
    }
    return m;
}
