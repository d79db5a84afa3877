/* heap_load.c - reads back the JSON `clrattach heap --json` writes, for `heap diff`: the
 * totals and each type's name, count and bytes. A small reader of that one shape (members in
 * any order, any whitespace, unknown members skipped when they are numbers or strings), bounded:
 * the file at most HEAP_FILE_MAX bytes; anything else is refused saying where. */
#define _GNU_SOURCE
#include "heap/heap_view.h"
#include "base/cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define HEAP_FILE_MAX (256u << 20)

typedef struct reader {
    const char *start, *p, *end, *path;
    char *out; /* where unescaped strings go (the storage) */
} reader_t;

static int fail(const reader_t *r, const char *what)
{
    fprintf(stderr, "clrattach heap diff: %s: %s at byte %zu (expected the JSON of "
            "'clrattach heap --json')\n", cli_vis(r->path), what,
            (size_t)(r->p - r->start));
    return -1;
}

static void blank(reader_t *r)
{
    while (r->p < r->end && strchr(" \t\r\n", *r->p) && *r->p)
        r->p++;
}

static int expect(reader_t *r, char c)
{
    blank(r);
    if (r->p >= r->end || *r->p != c) {
        char what[32];
        snprintf(what, sizeof what, "no '%c'", c);
        return fail(r, what);
    }
    r->p++;
    return 0;
}

/* The 4 hex digits of a \u escape, as UTF-8 into out (surrogates as U+FFFD). */
static char *put_unicode(reader_t *r, char *out)
{
    unsigned cp = 0;
    for (int i = 0; i < 4; i++, r->p++) {
        char c = r->p < r->end ? *r->p : 0;
        int v = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
                : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (v < 0)
            return NULL;
        cp = cp << 4 | (unsigned)v;
    }
    if (cp >= 0xD800 && cp < 0xE000)
        cp = 0xFFFD;
    if (cp < 0x80) {
        *out++ = (char)cp;
    } else if (cp < 0x800) {
        *out++ = (char)(0xC0 | cp >> 6);
        *out++ = (char)(0x80 | (cp & 0x3F));
    } else {
        *out++ = (char)(0xE0 | cp >> 12);
        *out++ = (char)(0x80 | (cp >> 6 & 0x3F));
        *out++ = (char)(0x80 | (cp & 0x3F));
    }
    return out;
}

/* A JSON string, unescaped into r->out (never longer than its text); *s points at it. */
static int string(reader_t *r, const char **s)
{
    if (expect(r, '"'))
        return -1;
    char *o = r->out;
    *s = o;
    while (r->p < r->end && *r->p != '"') {
        char c = *r->p++;
        if (c != '\\') {
            *o++ = c;
            continue;
        }
        c = r->p < r->end ? *r->p++ : 0;
        const char *from = "\"\\/bfnrt", *to = "\"\\/\b\f\n\r\t", *k = c ? strchr(from, c) : NULL;
        if (k)
            *o++ = to[k - from];
        else if (c != 'u' || !(o = put_unicode(r, o)))
            return fail(r, "a bad escape in a string");
    }
    if (expect(r, '"'))
        return -1;
    *o++ = '\0';
    r->out = o;
    return 0;
}

static int number(reader_t *r, uint64_t *v)
{
    blank(r);
    char *end;
    if (r->p >= r->end || *r->p < '0' || *r->p > '9')
        return fail(r, "no number");
    *v = strtoull(r->p, &end, 10);
    r->p = end;
    return 0;
}

/* One {"type": ..., "count": N, "bytes": N} into t. */
static int one_type(reader_t *r, clra_heap_type_stat_t *t)
{
    int seen = 0;
    if (expect(r, '{'))
        return -1;
    do {
        const char *key;
        uint64_t skip;
        if (string(r, &key) || expect(r, ':'))
            return -1;
        blank(r);
        int rc = strcmp(key, "type") == 0    ? (seen |= 1, string(r, &t->name))
                 : strcmp(key, "count") == 0 ? (seen |= 2, number(r, &t->count))
                 : strcmp(key, "bytes") == 0 ? (seen |= 4, number(r, &t->bytes))
                 : r->p < r->end && *r->p == '"' ? string(r, &key)
                                                 : number(r, &skip);
        if (rc)
            return -1;
        blank(r);
    } while (r->p < r->end && *r->p == ',' && r->p++);
    if (seen != 7)
        return fail(r, "a type without its type, count and bytes");
    return expect(r, '}');
}

/* The "types" array. */
static int types(reader_t *r, heap_list_t *l, size_t *cap)
{
    if (expect(r, '['))
        return -1;
    blank(r);
    if (r->p < r->end && *r->p == ']')
        return r->p++, 0;
    do {
        if (l->count == *cap) {
            size_t n = *cap ? *cap * 2 : 256;
            void *t = realloc(l->types, n * sizeof *l->types);
            if (!t)
                return fail(r, "out of memory");
            l->types = t;
            *cap = n;
        }
        memset(&l->types[l->count], 0, sizeof l->types[0]);
        if (one_type(r, &l->types[l->count]))
            return -1;
        l->count++;
        blank(r);
    } while (r->p < r->end && *r->p == ',' && r->p++);
    return expect(r, ']');
}

static int parse(reader_t *r, heap_list_t *l)
{
    size_t cap = 0;
    int seen = 0;
    if (expect(r, '{'))
        return -1;
    do {
        const char *key;
        if (string(r, &key) || expect(r, ':'))
            return -1;
        int rc = strcmp(key, "objects") == 0 ? (seen |= 1, number(r, &l->objects))
                 : strcmp(key, "bytes") == 0 ? (seen |= 2, number(r, &l->bytes))
                 : strcmp(key, "types") == 0 ? (seen |= 4, types(r, l, &cap))
                                             : fail(r, "an unknown member");
        if (rc)
            return -1;
        blank(r);
    } while (r->p < r->end && *r->p == ',' && r->p++);
    if (seen != 7)
        return fail(r, "no objects, bytes or types");
    return expect(r, '}');
}

/* The whole file, NUL-terminated, into *text. 0, or -1 after saying why. */
static int slurp(const char *path, char **text, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "clrattach heap diff: cannot read %s: %s\n", cli_vis(path),
                strerror(errno));
        return -1;
    }
    long size = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    *text = size >= 0 && size <= (long)HEAP_FILE_MAX && fseek(f, 0, SEEK_SET) == 0
                ? malloc((size_t)size + 1) : NULL;
    *len = *text ? fread(*text, 1, (size_t)size, f) : 0;
    int bad = !*text || ferror(f) || *len != (size_t)size;
    fclose(f);
    if (bad) {
        fprintf(stderr, "clrattach heap diff: %s: unreadable, or larger than %u MiB\n",
                cli_vis(path), HEAP_FILE_MAX >> 20);
        free(*text);
        return -1;
    }
    (*text)[*len] = '\0';
    return 0;
}

int heap_load(const char *path, heap_list_t *out)
{
    char *text;
    size_t len;
    memset(out, 0, sizeof *out);
    if (slurp(path, &text, &len))
        return -1;
    out->storage = malloc(len + 1);
    reader_t r = {.start = text, .p = text, .end = text + len, .path = path, .out = out->storage};
    int rc = out->storage ? parse(&r, out) : fail(&r, "out of memory");
    free(text);
    if (rc)
        heap_list_free(out);
    return rc;
}

void heap_list_free(heap_list_t *l)
{
    free(l->types);
    free(l->storage);
    memset(l, 0, sizeof *l);
}
