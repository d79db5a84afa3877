/* write_pprof.c - pprof's profile.proto (github.com/google/pprof/proto/profile.proto), encoded
 * by hand: sample types samples/count and the weight's (cpu|wall/nanoseconds, alloc_space/bytes,
 * contention|wait/nanoseconds, exceptions/count), one location and function per
 * frame, locations leaf first, a "thread" label on each sample. .pb.gz is wrapped in gzip with
 * stored (uncompressed) deflate blocks: valid for every gzip reader, no zlib needed. */
#include "render/writers.h"

#include <stdlib.h>
#include <string.h>

typedef struct buf {
    unsigned char *b;
    size_t len, cap;
    int failed;
} buf_t;

static void put_bytes(buf_t *o, const void *data, size_t n)
{
    if (o->failed || n == 0) /* an empty message's body is NULL: memcpy must not see it */
        return;
    if (o->len + n > o->cap) {
        size_t cap = o->cap ? o->cap : 4096;
        while (cap < o->len + n)
            cap *= 2;
        unsigned char *b = realloc(o->b, cap);
        if (!b) {
            o->failed = 1;
            return;
        }
        o->b = b, o->cap = cap;
    }
    memcpy(o->b + o->len, data, n);
    o->len += n;
}

static void put_varint(buf_t *o, uint64_t v)
{
    unsigned char tmp[10];
    size_t n = 0;
    do {
        tmp[n] = (unsigned char)(v & 0x7F);
        v >>= 7;
        tmp[n++] |= v ? 0x80 : 0;
    } while (v);
    put_bytes(o, tmp, n);
}

static void put_field_varint(buf_t *o, unsigned field, uint64_t v)
{
    put_varint(o, (uint64_t)field << 3);
    put_varint(o, v);
}

/* A length-delimited field whose body is inner (then reset for reuse). */
static void put_field_msg(buf_t *o, unsigned field, buf_t *inner)
{
    put_varint(o, ((uint64_t)field << 3) | 2);
    put_varint(o, inner->len);
    put_bytes(o, inner->b, inner->len);
    o->failed |= inner->failed;
    inner->len = 0;
}

static void put_field_string(buf_t *o, unsigned field, const char *s)
{
    put_varint(o, ((uint64_t)field << 3) | 2);
    put_varint(o, strlen(s));
    put_bytes(o, s, strlen(s));
}

/* String table indexes of the fixed strings. */
enum { S_EMPTY, S_SAMPLES, S_COUNT, S_WEIGHT, S_NS, S_THREAD, S_FIXED };

static void encode(const profile_t *p, buf_t *o)
{
    buf_t m = {0}, n = {0};
    size_t thread_base = S_FIXED + p->nframes;
    /* sample_type (1) x2, period_type (11), period (12) */
    put_field_varint(&m, 1, S_SAMPLES), put_field_varint(&m, 2, S_COUNT), put_field_msg(o, 1, &m);
    put_field_varint(&m, 1, S_WEIGHT), put_field_varint(&m, 2, S_NS), put_field_msg(o, 1, &m);
    for (size_t i = 0; i < p->nstacks; i++) {
        const profile_stack_t *s = &p->stacks[i];
        for (uint32_t k = 0; k < s->len; k++)
            put_varint(&n, (uint64_t)p->arena[s->off + k] + 1);
        put_field_msg(&m, 1, &n); /* packed location ids, leaf first */
        put_varint(&n, s->count), put_varint(&n, s->weight);
        put_field_msg(&m, 2, &n);
        put_field_varint(&n, 1, S_THREAD), put_field_varint(&n, 2, thread_base + s->thread);
        put_field_msg(&m, 3, &n);
        put_field_msg(o, 2, &m);
    }
    for (size_t i = 0; i < p->nframes; i++) { /* location (4) and function (5) per frame */
        put_field_varint(&n, 1, i + 1);
        put_field_msg(&m, 4, &n);
        put_field_varint(&m, 1, i + 1);
        put_field_msg(o, 4, &m);
        put_field_varint(&m, 1, i + 1), put_field_varint(&m, 2, S_FIXED + i);
        put_field_varint(&m, 3, S_FIXED + i);
        put_field_msg(o, 5, &m);
    }
    const char *fixed[S_FIXED] = {"", "samples", "count", p->weight_name, p->weight_unit, "thread"};
    for (int i = 0; i < S_FIXED; i++)
        put_field_string(o, 6, fixed[i]);
    for (size_t i = 0; i < p->nframes; i++)
        put_field_string(o, 6, p->frames[i]);
    for (size_t i = 0; i < p->nthreads; i++)
        put_field_string(o, 6, p->threads[i].name);
    put_field_varint(o, 10, p->duration_ns);
    put_field_varint(&m, 1, S_WEIGHT), put_field_varint(&m, 2, S_NS), put_field_msg(o, 11, &m);
    o->failed |= m.failed | n.failed;
    free(m.b), free(n.b);
}

static uint32_t crc32_of(const unsigned char *b, size_t n)
{
    static uint32_t table[256];
    if (!table[1])
        for (uint32_t i = 0; i < 256; i++) {
            uint32_t c = i;
            for (int k = 0; k < 8; k++)
                c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
            table[i] = c;
        }
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++)
        c = table[(c ^ b[i]) & 0xFF] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}

static void put_le32(FILE *f, uint32_t v)
{
    unsigned char b[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
                          (unsigned char)(v >> 24)};
    fwrite(b, 1, 4, f);
}

/* RFC 1952 around RFC 1951 stored blocks (at most 65,535 bytes each). */
static void write_gzip(const unsigned char *b, size_t n, FILE *f)
{
    static const unsigned char head[10] = {0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF};
    fwrite(head, 1, sizeof head, f);
    size_t off = 0;
    do {
        size_t chunk = n - off > 65535 ? 65535 : n - off;
        unsigned char h[5] = {off + chunk == n ? 1 : 0, (unsigned char)chunk,
                              (unsigned char)(chunk >> 8), (unsigned char)~chunk,
                              (unsigned char)(~chunk >> 8)};
        fwrite(h, 1, 5, f);
        fwrite(b + off, 1, chunk, f);
        off += chunk;
    } while (off < n);
    put_le32(f, crc32_of(b, n));
    put_le32(f, (uint32_t)n);
}

int profile_write_pprof(const profile_t *p, const profile_write_opts_t *o, int gzip, FILE *f)
{
    (void)o; /* threads are labels in pprof: `go tool pprof -tagfocus` selects them */
    buf_t out = {0};
    encode(p, &out);
    if (out.failed) {
        free(out.b);
        return -1;
    }
    if (gzip)
        write_gzip(out.b, out.len, f);
    else
        fwrite(out.b, 1, out.len, f);
    free(out.b);
    return ferror(f) ? -1 : 0;
}
