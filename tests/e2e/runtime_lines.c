/* runtime_lines.c - clrattach's reading of the runtime's own events in tracecheck's
 * `--runtime` line format, and the comparison with TraceEvent's. */
#define _GNU_SOURCE
#include "runtime_lines.h"

#include "clrattach.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct field {
    char *name, *value;
} field_t;

typedef struct reader {
    unsigned pointer_size;
    char **lines;
    size_t n, cap;
    field_t *f; /* the current event's fields */
    size_t nf, capf;
    char path[24][300]; /* the flattened name of each depth's group */
    char why[512];
} reader_t;

/* Lines grow with the trace: a doubling array. */
static void push_line(reader_t *r, char *s)
{
    if (r->n == r->cap) {
        r->cap = r->cap ? 2 * r->cap : 1024;
        r->lines = realloc(r->lines, r->cap * sizeof *r->lines);
    }
    r->lines[r->n++] = s;
}

/* A value as tracecheck writes it: unsigned decimal, doubles as their bits in hex. */
static void value_text(const clra_nettrace_value_t *v, char *buf, size_t cap)
{
    switch (v->field->type) {
    case CLRA_NETTRACE_DOUBLE: snprintf(buf, cap, "0x%016llx", (unsigned long long)v->u); break;
    case CLRA_NETTRACE_BOOL: case CLRA_NETTRACE_GUID: case CLRA_NETTRACE_STRING:
        clra_nettrace_value_format(v, buf, cap);
        break;
    default: snprintf(buf, cap, "%llu", (unsigned long long)v->u);
    }
}

/* Flattens as tracecheck does: Array[i], Array[i].Member. */
static int on_value(void *ctx, const clra_nettrace_value_t *v)
{
    reader_t *r = ctx;
    char name[300];
    int d = v->depth < 23 ? v->depth : 23;
    if (v->kind == CLRA_NETTRACE_END)
        return 0;
    if (d == 0)
        snprintf(name, sizeof name, "%s", v->name);
    else if (v->name[0] == '\0')
        snprintf(name, sizeof name, "%.250s[%u]", r->path[d - 1], v->index);
    else
        snprintf(name, sizeof name, "%.250s.%.40s", r->path[d - 1], v->name);
    if (v->kind == CLRA_NETTRACE_BEGIN) {
        snprintf(r->path[d], sizeof r->path[d], "%s", name);
        return 0;
    }
    char *text = malloc(3 * v->raw_len + 64);
    value_text(v, text, 3 * v->raw_len + 64);
    if (strcmp(name, "MethodFlags") == 0) /* TraceEvent shows it without the tier, bits 7-9 */
        snprintf(text, 64, "%llu", (unsigned long long)(v->u & ~0x380ull));
    if (r->nf == r->capf) {
        r->capf = r->capf ? 2 * r->capf : 64;
        r->f = realloc(r->f, r->capf * sizeof *r->f);
    }
    r->f[r->nf++] = (field_t){strdup(name), text};
    return 0;
}

/* Fields sorted by name, as tracecheck sorts them. */
static int by_name(const void *a, const void *b)
{
    return strcmp(((const field_t *)a)->name, ((const field_t *)b)->name);
}

/* The header says how wide the pointers are. */
static int on_header(void *ctx, const clra_nettrace_header_t *h)
{
    ((reader_t *)ctx)->pointer_size = h->pointer_size;
    return 0;
}

/* One described event to one line. */
static int on_event(void *ctx, const clra_nettrace_event_t *ev)
{
    reader_t *r = ctx;
    const clra_nettrace_metadata_t *m = ev->meta;
    if (!m || m->field_count || !clra_runtime_event_name(m))
        return 0;
    clra_status_t st;
    r->nf = 0;
    if (clra_runtime_event_walk(m, ev->payload, ev->payload_len, r->pointer_size, on_value, r,
                                NULL, &st) != 0) {
        snprintf(r->why, sizeof r->why, "%s", st.detail);
        return 1;
    }
    qsort(r->f, r->nf, sizeof *r->f, by_name);
    char *line = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&line, &len);
    fprintf(f, "rt %s %u %u", m->provider, m->event_id, m->version);
    for (size_t i = 0; i < r->nf; i++) {
        fprintf(f, "\t%s=%s", r->f[i].name, r->f[i].value);
        free(r->f[i].name);
        free(r->f[i].value);
    }
    fclose(f);
    push_line(r, line);
    return 0;
}

/* Lines in byte order (tracecheck sorts ordinally). */
static int by_text(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Decodes the file, one line per described event, then sorts and joins the lines. */
char *runtime_lines(const char *path, char *why, size_t cap)
{
    reader_t *r = calloc(1, sizeof *r);
    clra_nettrace_callbacks_t cb = {on_header, NULL, on_event, NULL, NULL, {0}};
    clra_nettrace_info_t info;
    clra_status_t st;
    int rc = clra_nettrace_decode_file(path, &cb, r, &info, &st);
    char *out = NULL;
    size_t len = 0;
    if (rc == 0) {
        qsort(r->lines, r->n, sizeof *r->lines, by_text);
        FILE *f = open_memstream(&out, &len);
        for (size_t i = 0; i < r->n; i++)
            fprintf(f, "%s\n", r->lines[i]);
        fclose(f);
    } else {
        snprintf(why, cap, "%s", r->why[0] ? r->why : st.detail);
    }
    for (size_t i = 0; i < r->n; i++)
        free(r->lines[i]);
    free(r->lines);
    free(r->f);
    free(r);
    return out;
}

/* The kinds of one reading: "rt P ID V" and the field names' shapes TraceEvent gives it. */
typedef struct kind {
    char key[160];
    char shapes[4096]; /* "\tshape\tshape...\t" */
} kind_t;

typedef struct kinds {
    kind_t v[512];
    size_t n;
} kinds_t;

/* Where a line's "rt P ID V" ends. */
static size_t key_len(const char *line)
{
    const char *tab = strchr(line, '\t');
    return tab ? (size_t)(tab - line) : strlen(line);
}

/* A kind by its line's key; added when add and there is room. */
static kind_t *find_kind(kinds_t *k, const char *line, int add)
{
    size_t n = key_len(line);
    for (size_t i = 0; i < k->n; i++)
        if (strlen(k->v[i].key) == n && memcmp(k->v[i].key, line, n) == 0)
            return &k->v[i];
    if (!add || k->n == 512 || n >= sizeof k->v[0].key)
        return NULL;
    kind_t *x = &k->v[k->n++];
    memcpy(x->key, line, n);
    x->key[n] = '\0';
    snprintf(x->shapes, sizeof x->shapes, "\t");
    return x;
}

/* name's shape: its indexes dropped (Values[3].Size -> Values[].Size), as "\tshape\t". */
static void shape_of(const char *name, size_t n, char *out, size_t cap)
{
    size_t o = 0;
    out[o++] = '\t';
    for (size_t i = 0; i < n && o + 3 < cap; i++) {
        out[o++] = name[i];
        if (name[i] == '[')
            while (i + 1 < n && name[i + 1] >= '0' && name[i + 1] <= '9')
                i++;
    }
    out[o++] = '\t';
    out[o] = '\0';
}

/* Each field of a line in turn: *name, *nlen and the field's end; NULL after the last. */
static const char *next_field(const char *p, const char **name, size_t *nlen)
{
    if (!p || *p != '\t')
        return NULL;
    p++;
    const char *eq = strchr(p, '='), *end = strchr(p, '\t');
    if (!end)
        end = p + strlen(p);
    *name = p;
    *nlen = eq && eq < end ? (size_t)(eq - p) : (size_t)(end - p);
    return end;
}

/* The text's lines as malloc'ed strings. */
static char **split(const char *text, size_t *n)
{
    size_t cap = 1024;
    char **v = malloc(cap * sizeof *v);
    *n = 0;
    for (const char *p = text; p && *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        if (*n == cap)
            v = realloc(v, (cap *= 2) * sizeof *v);
        v[(*n)++] = strndup(p, len);
        p = nl ? nl + 1 : NULL;
    }
    return v;
}

/* Notes a kind in a short list (what is left off is counted as "..."). */
static void note(char *list, size_t cap, const char *key)
{
    if (strstr(list, key + 3))
        return;
    size_t len = strlen(list);
    if (len + strlen(key) + 3 < cap)
        snprintf(list + len, cap - len, "%s%s", len ? ", " : "", key + 3);
    else if (len + 5 < cap && !strstr(list, "..."))
        snprintf(list + len, cap - len, ", ...");
}

/* A line with only the fields whose shapes the other reading gives the kind (k); the fields
 * kept counted, the names of those dropped noted. */
static char *restrict_line(const char *line, const kind_t *k, size_t *fields, char *dropped,
                           size_t cap)
{
    char *out = NULL, shape[300];
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    fprintf(f, "%s", k->key);
    const char *name, *p = line + strlen(k->key), *end;
    size_t nlen;
    while ((end = next_field(p, &name, &nlen))) {
        shape_of(name, nlen, shape, sizeof shape);
        if (strstr(k->shapes, shape)) {
            fprintf(f, "\t%.*s", (int)(end - name), name);
            (*fields)++;
        } else {
            char what[400];
            snprintf(what, sizeof what, "   %.*s (%s)", (int)nlen, name, k->key + 3);
            note(dropped, cap, what);
        }
        p = end;
    }
    fclose(f);
    return out;
}

/* The shapes of every field TraceEvent gives each of its kinds. */
static void learn_shapes(kinds_t *k, char **lines, size_t n)
{
    char shape[300];
    for (size_t i = 0; i < n; i++) {
        kind_t *x = find_kind(k, lines[i], 1);
        const char *name, *p = lines[i] + key_len(lines[i]), *end;
        size_t nlen, len;
        while (x && (end = next_field(p, &name, &nlen))) {
            shape_of(name, nlen, shape, sizeof shape);
            len = strlen(x->shapes);
            if (!strstr(x->shapes, shape) && len + strlen(shape) < sizeof x->shapes)
                snprintf(x->shapes + len, sizeof x->shapes - len, "%s", shape + 1);
            p = end;
        }
    }
}

/* Frees what split and restrict_line made. */
static void free_lines(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

/* Shapes first (what each side gives each kind), then each side restricted to the other's, then
 * both sorted and compared line by line. */
int runtime_lines_compare(const char *ours, const char *theirs, runtime_compare_t *r)
{
    memset(r, 0, sizeof *r);
    kinds_t *tk = calloc(1, sizeof *tk), *ok = calloc(1, sizeof *ok);
    size_t nt, no, na = 0, nb = 0;
    char **t = split(theirs, &nt), **o = split(ours, &no);
    char **a = calloc(no + 1, sizeof *a), **b = calloc(nt + 1, sizeof *b);
    learn_shapes(tk, t, nt);
    learn_shapes(ok, o, no);
    size_t ignored = 0;
    for (size_t i = 0; i < no; i++) {
        const kind_t *k = find_kind(tk, o[i], 0);
        if (k)
            a[na++] = restrict_line(o[i], k, &r->fields, r->only_our_fields,
                                    sizeof r->only_our_fields);
        else
            note(r->only_ours, sizeof r->only_ours, find_kind(ok, o[i], 0)->key);
    }
    for (size_t i = 0; i < nt; i++) {
        const kind_t *k = find_kind(ok, t[i], 0);
        if (k)
            b[nb++] = restrict_line(t[i], k, &ignored, r->only_their_fields,
                                    sizeof r->only_their_fields);
        else
            note(r->only_theirs, sizeof r->only_theirs, find_kind(tk, t[i], 0)->key);
    }
    for (size_t i = 0; i < ok->n; i++)
        r->kinds += find_kind(tk, ok->v[i].key, 0) != NULL;
    qsort(a, na, sizeof *a, by_text);
    qsort(b, nb, sizeof *b, by_text);
    r->events = na;
    for (size_t i = 0; i < na || i < nb; i++)
        if (i >= na || i >= nb || strcmp(a[i], b[i]) != 0) {
            snprintf(r->difference, sizeof r->difference, "event %zu of %zu/%zu: ours '%.500s' "
                     "vs TraceEvent '%.500s'", i, na, nb, i < na ? a[i] : "(none)",
                     i < nb ? b[i] : "(none)");
            break;
        }
    free_lines(t, nt), free_lines(o, no), free_lines(a, na), free_lines(b, nb);
    free(tk), free(ok);
    return r->difference[0] ? -1 : 0;
}
