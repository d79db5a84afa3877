/* heap_load.c - reads back the JSON `clrattach heap --json` writes, for `heap diff`: the
 * totals, whether the list is cut and what it left out, and each type's name, count and bytes.
 * A small reader of that one shape (members in any order, any whitespace, unknown members
 * skipped when they are numbers, strings, true, false or null), bounded: the file at most
 * HEAP_FILE_MAX bytes; anything else is refused saying where. */
#define _GNU_SOURCE
#include "heap/heap_view.h"
#include "base/cli.h"
#include "common/utf.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define HEAP_FILE_MAX (256u << 20)

typedef struct reader {
    const char *start, *p, *end, *path;
    char *out, *out_end; /* where unescaped strings go (the storage), and its end */
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

/* The 4 hex digits at r->p, read; -1 when they are not 4 hex digits. */
static long hex4(reader_t *r)
{
    long cp = 0;
    for (int i = 0; i < 4; i++, r->p++) {
        char c = r->p < r->end ? *r->p : 0;
        int v = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
                : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (v < 0)
            return -1;
        cp = cp << 4 | v;
    }
    return cp;
}

/* The 4 hex digits of a \u escape, as UTF-8 into out; the end of what it wrote, NULL for a bad
 * escape. A high surrogate and the \u low surrogate after it are one character (RFC 8259 §7:
 * how a JSON writer such as Python's escapes one beyond U+FFFF); any other surrogate is
 * U+FFFD, as UTF-8 has no surrogates. */
static char *put_unicode(reader_t *r, char *out)
{
    long cp = hex4(r);
    if (cp < 0)
        return NULL;
    if (cp >= 0xD800 && cp < 0xDC00 && r->end - r->p >= 6 && r->p[0] == '\\' &&
        r->p[1] == 'u') {
        const char *next = r->p;
        r->p += 2;
        long low = hex4(r);
        if (low >= 0xDC00 && low < 0xE000)
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
        else
            r->p = next; /* not a pair: the next escape is read on its own */
    }
    if (cp >= 0xD800 && cp < 0xE000)
        cp = 0xFFFD;
    size_t room = (size_t)(r->out_end - out), n = utf__encode_utf8((uint32_t)cp, out, 0, room);
    return n < room ? out + n : NULL; /* cannot be short: the UTF-8 is shorter than the escape */
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

/* true or false. */
static int boolean(reader_t *r, int *v)
{
    blank(r);
    size_t left = (size_t)(r->end - r->p);
    if (left >= 4 && memcmp(r->p, "true", 4) == 0)
        return *v = 1, r->p += 4, 0;
    if (left >= 5 && memcmp(r->p, "false", 5) == 0)
        return *v = 0, r->p += 5, 0;
    return fail(r, "no true or false");
}

/* A member this reader does not know: a later version's, skipped if it is a scalar (an
 * object or array in its place is refused, as nothing here could be one). */
static int skip_value(reader_t *r)
{
    const char *s;
    uint64_t n;
    int b;
    blank(r);
    if (r->p < r->end && *r->p == '"')
        return string(r, &s);
    if ((size_t)(r->end - r->p) >= 4 && memcmp(r->p, "null", 4) == 0)
        return r->p += 4, 0;
    if (r->p < r->end && (*r->p == 't' || *r->p == 'f'))
        return boolean(r, &b);
    return number(r, &n);
}

/* One {"type": ..., "count": N, "bytes": N} into t. */
static int one_type(reader_t *r, clra_heap_type_stat_t *t)
{
    int seen = 0;
    if (expect(r, '{'))
        return -1;
    do {
        const char *key;
        if (string(r, &key) || expect(r, ':'))
            return -1;
        int rc = strcmp(key, "type") == 0    ? (seen |= 1, string(r, &t->name))
                 : strcmp(key, "count") == 0 ? (seen |= 2, number(r, &t->count))
                 : strcmp(key, "bytes") == 0 ? (seen |= 4, number(r, &t->bytes))
                                             : skip_value(r);
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

enum { SEEN_OBJECTS = 1, SEEN_BYTES = 2, SEEN_TYPES = 4, SEEN_LISTED_ALL = 8,
       SEEN_TYPES_IN_ALL = 16, SEEN_UNLISTED_OBJECTS = 32, SEEN_UNLISTED_BYTES = 64 };

/* One member of the top object, its bit added to *seen. */
static int member(reader_t *r, heap_list_t *l, size_t *cap, int *seen)
{
    const char *key;
    uint64_t n;
    if (string(r, &key) || expect(r, ':'))
        return -1;
    if (strcmp(key, "objects") == 0)
        return *seen |= SEEN_OBJECTS, number(r, &l->objects);
    if (strcmp(key, "bytes") == 0)
        return *seen |= SEEN_BYTES, number(r, &l->bytes);
    if (strcmp(key, "types") == 0)
        return *seen |= SEEN_TYPES, types(r, l, cap);
    if (strcmp(key, "listed_all") == 0)
        return *seen |= SEEN_LISTED_ALL, boolean(r, &l->listed_all);
    if (strcmp(key, "types_in_all") == 0) {
        *seen |= SEEN_TYPES_IN_ALL;
        if (number(r, &n))
            return -1;
        l->types_in_all = n > SIZE_MAX ? SIZE_MAX : (size_t)n; /* too many fails in settle */
        return 0;
    }
    if (strcmp(key, "unlisted_objects") == 0)
        return *seen |= SEEN_UNLISTED_OBJECTS, number(r, &l->unlisted_objects);
    if (strcmp(key, "unlisted_bytes") == 0)
        return *seen |= SEEN_UNLISTED_BYTES, number(r, &l->unlisted_bytes);
    return skip_value(r);
}

/* The objects and bytes the listed types leave to the unlisted ones. 0, or -1 when the types
 * add up to more than the totals. */
static int left_over(reader_t *r, const heap_list_t *l, uint64_t *objects, uint64_t *bytes)
{
    uint64_t o = 0, b = 0;
    for (size_t i = 0; i < l->count; i++) {
        const clra_heap_type_stat_t *t = &l->types[i];
        if (t->count > l->objects - o || t->bytes > l->bytes - b)
            return fail(r, "types that add up to more than the totals");
        o += t->count;
        b += t->bytes;
    }
    *objects = l->objects - o;
    *bytes = l->bytes - b;
    return 0;
}

/* Whether the list is cut, and what it left out. The totals count every object, so listed
 * types adding up to less mean some were left out: that says it for a file of the first format
 * (no listed_all; cut or not, it was written the same), and checks a newer file's own word. */
static int settle(reader_t *r, heap_list_t *l, int seen)
{
    uint64_t objects = 0, bytes = 0; /* set by left_over; -Os cannot tell */
    if (left_over(r, l, &objects, &bytes))
        return -1;
    int cut = objects || bytes;
    if (seen & SEEN_LISTED_ALL && l->listed_all == cut)
        return fail(r, cut ? "listed_all true, but the types add up to less than the totals"
                           : "listed_all false, but the types add up to the totals");
    if ((seen & SEEN_UNLISTED_OBJECTS && l->unlisted_objects != objects) ||
        (seen & SEEN_UNLISTED_BYTES && l->unlisted_bytes != bytes))
        return fail(r, "unlisted_objects or unlisted_bytes not what the types leave out");
    int types_ok = cut ? l->types_in_all > l->count : l->types_in_all == l->count;
    if (seen & SEEN_TYPES_IN_ALL && !types_ok)
        return fail(r, "a types_in_all that does not match the types listed");
    l->listed_all = !cut;
    l->unlisted_objects = objects;
    l->unlisted_bytes = bytes;
    if (!(seen & SEEN_TYPES_IN_ALL))
        l->types_in_all = cut ? 0 : l->count;
    return 0;
}

static int parse(reader_t *r, heap_list_t *l)
{
    size_t cap = 0;
    int seen = 0;
    if (expect(r, '{'))
        return -1;
    do {
        if (member(r, l, &cap, &seen))
            return -1;
        blank(r);
    } while (r->p < r->end && *r->p == ',' && r->p++);
    int needed = SEEN_OBJECTS | SEEN_BYTES | SEEN_TYPES;
    if ((seen & needed) != needed)
        return fail(r, "no objects, bytes or types");
    if (expect(r, '}'))
        return -1;
    return settle(r, l, seen);
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
    r.out_end = r.out ? r.out + len + 1 : NULL;
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
