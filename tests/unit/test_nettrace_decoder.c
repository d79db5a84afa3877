/* Golden tests of the streaming NetTrace decoder on streams built here byte by byte
 * (tests/common/nettrace_build.h, from PerfView's NetTraceFormat_v5.md): every block kind,
 * every field type, compressed and plain headers, every split of the input, every truncation,
 * and corruption reported with its offset. Each decode is logged as text so the tests compare
 * what the callbacks saw. */
#define _GNU_SOURCE
#include "nettrace_build.h"
#include "test.h"

#include "clrattach.h"

#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

typedef struct logbuf {
    char *s;
    size_t n, cap;
    int stop_after; /* stop at the nth event when > 0 */
    int events;
} logbuf_t;

static void logf_(logbuf_t *l, const char *fmt, ...)
{
    va_list ap;
    char line[1024];
    va_start(ap, fmt);
    int k = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (l->n + (size_t)k + 1 > l->cap) {
        l->cap = (l->n + (size_t)k + 1) * 2;
        l->s = realloc(l->s, l->cap);
    }
    memcpy(l->s + l->n, line, (size_t)k + 1);
    l->n += (size_t)k;
}

static int on_header(void *ctx, const clra_nettrace_header_t *h)
{
    logf_(ctx, "H v%d/%d %u-%u-%u pid=%u ptr=%u freq=%lld qpc=%lld cpus=%u rate=%u\n",
          h->version, h->min_reader_version, h->sync_time[0], h->sync_time[1], h->sync_time[3],
          h->pid, h->pointer_size, (long long)h->qpc_frequency, (long long)h->sync_qpc,
          h->processors, h->sampling_rate_ns);
    return 0;
}

static void log_fields(logbuf_t *l, const clra_nettrace_field_t *f, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        logf_(l, " %s:%d", f[i].name, (int)f[i].type);
        if (f[i].field_count) {
            logf_(l, "{");
            log_fields(l, f[i].fields, f[i].field_count);
            logf_(l, " }");
        }
    }
}

static int on_meta(void *ctx, const clra_nettrace_metadata_t *m)
{
    logf_(ctx, "M %u %s/%u/%s v%u l%u k%llx op%d v2=%d", m->id, m->provider, m->event_id,
          m->event_name, m->version, m->level, (unsigned long long)m->keywords, m->opcode,
          m->fields_v2);
    log_fields(ctx, m->fields, m->field_count);
    logf_(ctx, "\n");
    return 0;
}

static int on_value(void *ctx, const clra_nettrace_value_t *v)
{
    char text[256];
    clra_nettrace_value_format(v, text, sizeof text);
    if (v->kind == CLRA_NETTRACE_VALUE)
        logf_(ctx, "  %*s%s[%u]=%s\n", 2 * v->depth, "", v->name, v->index, text);
    else
        logf_(ctx, "  %*s%s %s[%u] count=%u\n", 2 * v->depth, "",
              v->kind == CLRA_NETTRACE_BEGIN ? "begin" : "end", v->name, v->index, v->count);
    return 0;
}

static int on_event(void *ctx, const clra_nettrace_event_t *ev)
{
    logbuf_t *l = ctx;
    logf_(l, "E @%llu meta=%u seq=%u tid=%llu cap=%llu cpu=%u stack=%u/%s%u ts=%lld act=%02x "
          "rel=%02x sorted=%d len=%u\n", (unsigned long long)ev->offset, ev->metadata_id,
          ev->sequence, (unsigned long long)ev->thread_id,
          (unsigned long long)ev->capture_thread_id, ev->processor, ev->stack_id,
          ev->stack ? "" : "none", ev->stack_len, (long long)ev->timestamp, ev->activity_id[0],
          ev->related_activity_id[15], ev->sorted, ev->payload_len);
    clra_status_t st;
    if (ev->meta &&
        clra_nettrace_payload_walk(ev->meta, ev->payload, ev->payload_len, on_value, l, &st))
        logf_(l, "  refused: %s\n", st.detail);
    return l->stop_after > 0 && ++l->events >= l->stop_after;
}

static int on_stack(void *ctx, uint32_t id, const uint8_t *ips, uint32_t len)
{
    logf_(ctx, "S %u len=%u first=%02x\n", id, len, len ? ips[0] : 0);
    return 0;
}

static int on_sp(void *ctx, const clra_nettrace_sequence_point_t *sp)
{
    logf_(ctx, "P ts=%lld threads=%zu", (long long)sp->timestamp, sp->thread_count);
    for (size_t i = 0; i < sp->thread_count; i++)
        logf_(ctx, " %llu:%u", (unsigned long long)sp->threads[i].thread_id,
              sp->threads[i].sequence);
    logf_(ctx, "\n");
    return 0;
}

static const clra_nettrace_callbacks_t callbacks = {on_header, on_meta, on_event, on_stack,
                                                    on_sp, {0}};

/* Feeds s in pieces of `piece` bytes (0 = whole); the log, the end verdict in *info. */
static char *decode(const nb_t *s, size_t piece, clra_nettrace_info_t *info, int *feed_rc)
{
    logbuf_t l = {0};
    clra_nettrace_decoder_t *d;
    clra_status_t st;
    ASSERT_EQ(clra_nettrace_decoder_new(&callbacks, &l, &d), 0);
    logf_(&l, "");
    *feed_rc = 0;
    for (size_t at = 0; at < s->n && !*feed_rc;) {
        size_t k = piece && piece < s->n - at ? piece : s->n - at;
        *feed_rc = clra_nettrace_decoder_feed(d, s->b + at, k, &st);
        at += k;
    }
    clra_nettrace_decoder_end(d, info, &st);
    clra_nettrace_decoder_free(d);
    return l.s;
}

/* A metadata record of every V1 type, with a nested struct. */
static void meta_all_types(nb_t *m)
{
    nb_meta_head(m, 2, "Prov", 20, "AllTypes", 0x8000000000000001ull, 3, 5);
    static const struct {
        uint32_t type;
        const char *name;
    } f[] = {{3, "Flag"}, {4, "Letter"}, {5, "I8"}, {6, "U8"}, {7, "I16"}, {8, "U16"},
             {9, "I32"}, {10, "U32"}, {11, "I64"}, {12, "U64"}, {13, "F32"}, {14, "F64"},
             {15, "Dec"}, {16, "When"}, {17, "Id"}, {18, "Text"}};
    nb_u32(m, 17);
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
        nb_u32(m, f[i].type);
        nb_utf16(m, f[i].name);
    }
    nb_u32(m, 1); /* a struct Inner { int32 A; string B } */
    nb_u32(m, 2);
    nb_u32(m, 9);
    nb_utf16(m, "A");
    nb_u32(m, 18);
    nb_utf16(m, "B");
    nb_utf16(m, "Inner");
}

static void payload_all_types(nb_t *p)
{
    nb_u32(p, 1);
    nb_u16(p, 'Z');
    nb_u8(p, 0xFE);
    nb_u8(p, 200);
    nb_u16(p, (uint16_t)-300);
    nb_u16(p, 60000);
    nb_u32(p, (uint32_t)-70000);
    nb_u32(p, 4000000000u);
    nb_u64(p, (uint64_t)-5000000000ll);
    nb_u64(p, 18000000000000000000ull);
    nb_u32(p, 0x3FC00000); /* 1.5f */
    nb_u64(p, 0x400921FB54442D18ull); /* pi */
    for (int i = 0; i < 16; i++)
        nb_u8(p, (uint8_t)i);
    nb_u64(p, 133000000000000000ull); /* FILETIME 2022-06-18T04:26:40Z */
    static const uint8_t guid[16] = {0x78, 0x56, 0x34, 0x12, 0x34, 0x12, 0x78, 0x56,
                                     0x9a, 0xbc, 0xde, 0xf0, 0x11, 0x22, 0x33, 0x44};
    nb_put(p, guid, 16);
    nb_utf16(p, "h\xc3\xa9llo");
    nb_u32(p, 7);
    nb_utf16(p, "in");
}

/* A V2 record: empty V1 list, opcode tag 1 (Start), V2 params Nums:int32[] and
 * Pairs:{K:int16,V:string}[]. */
static void meta_v2(nb_t *m)
{
    nb_meta_head(m, 3, "Prov", 30, "Arrays", 0, 1, 4);
    nb_u32(m, 0);
    nb_u32(m, 1);
    nb_u8(m, 1);
    nb_u8(m, 1);
    nb_t v2 = {0};
    nb_u32(&v2, 2);
    nb_t f = {0};
    nb_utf16(&f, "Nums");
    nb_u32(&f, 19);
    nb_u32(&f, 9);
    nb_u32(&v2, (uint32_t)f.n + 4);
    nb_put(&v2, f.b, f.n);
    f.n = 0;
    nb_utf16(&f, "Pairs");
    nb_u32(&f, 19);
    nb_u32(&f, 1);
    nb_u32(&f, 2);
    nb_t g = {0};
    nb_utf16(&g, "K");
    nb_u32(&g, 7);
    nb_u32(&f, (uint32_t)g.n + 4);
    nb_put(&f, g.b, g.n);
    g.n = 0;
    nb_utf16(&g, "V");
    nb_u32(&g, 18);
    nb_u32(&f, (uint32_t)g.n + 4);
    nb_put(&f, g.b, g.n);
    nb_u32(&v2, (uint32_t)f.n + 4);
    nb_put(&v2, f.b, f.n);
    nb_u32(m, (uint32_t)v2.n);
    nb_u8(m, 2);
    nb_put(m, v2.b, v2.n);
    nb_free(&f);
    nb_free(&g);
    nb_free(&v2);
}

/* One record as a compressed metadata event (flags: id 0 implied, payload size). */
static void meta_event(nb_t *blk, const nb_t *rec)
{
    nb_u8(blk, 128);
    nb_varint(blk, 0); /* timestamp delta */
    nb_varint(blk, rec->n);
    nb_put(blk, rec->b, rec->n);
}

/* The stream every golden test starts from: each block kind, each field type. */
static void golden(nb_t *s)
{
    nb_t blk = {0}, rec = {0}, pay = {0};
    nb_header(s, 4);
    nb_block_header(&blk, 1);
    nb_meta_head(&rec, 1, "ClrAttach-Sample", 1, "Tick", 0xF00000000000ull, 0, 4);
    nb_u32(&rec, 2);
    nb_u32(&rec, 9);
    nb_utf16(&rec, "Sequence");
    nb_u32(&rec, 18);
    nb_utf16(&rec, "Text");
    meta_event(&blk, &rec);
    rec.n = 0;
    meta_all_types(&rec);
    meta_event(&blk, &rec);
    rec.n = 0;
    meta_v2(&rec);
    meta_event(&blk, &rec);
    nb_block(s, "MetadataBlock", &blk);
    blk.n = 0;
    nb_u32(&blk, 5); /* StackBlock: ids 5 (two IPs) and 6 (empty) */
    nb_u32(&blk, 2);
    nb_u32(&blk, 16);
    nb_u64(&blk, 0xAB);
    nb_u64(&blk, 0xCD);
    nb_u32(&blk, 0);
    nb_block(s, "StackBlock", &blk);
    blk.n = 0;
    nb_block_header(&blk, 1);
    nb_u32(&pay, 41);
    nb_utf16(&pay, "tick 41");
    nb_event_full(&blk, 1, 0, 77, 5, 100, &pay);
    /* same metadata, thread, stack and payload size: only the timestamp delta and payload */
    nb_u8(&blk, 64);
    nb_varint(&blk, 5);
    pay.n = 0;
    nb_u32(&pay, 42);
    nb_utf16(&pay, "tick 42");
    nb_put(&blk, pay.b, pay.n);
    pay.n = 0;
    payload_all_types(&pay);
    nb_u8(&blk, 1 | 4 | 8 | 16 | 32 | 128); /* new thread and stack, activity ids */
    nb_varint(&blk, 2);
    nb_varint(&blk, 78);
    nb_varint(&blk, 6);
    nb_varint(&blk, 1);
    for (int i = 0; i < 32; i++)
        nb_u8(&blk, (uint8_t)(0xA0 + i));
    nb_varint(&blk, pay.n);
    nb_put(&blk, pay.b, pay.n);
    pay.n = 0;
    nb_u16(&pay, 3);
    nb_u32(&pay, 10);
    nb_u32(&pay, 20);
    nb_u32(&pay, (uint32_t)-30);
    nb_u16(&pay, 2);
    nb_u16(&pay, 1);
    nb_utf16(&pay, "one");
    nb_u16(&pay, 2);
    nb_utf16(&pay, "");
    nb_u8(&blk, 1 | 2 | 128);
    nb_varint(&blk, 3);
    nb_varint(&blk, 10); /* sequence jumps by 10 (+1) */
    nb_varint(&blk, 99);
    nb_varint(&blk, 0);
    nb_varint(&blk, 1);
    nb_varint(&blk, pay.n);
    nb_put(&blk, pay.b, pay.n);
    nb_block(s, "EventBlock", &blk);
    blk.n = 0;
    nb_u64(&blk, 5000); /* SPBlock: timestamp, two threads */
    nb_u32(&blk, 2);
    nb_u64(&blk, 77);
    nb_u32(&blk, 2);
    nb_u64(&blk, 78);
    nb_u32(&blk, 1);
    nb_block(s, "SPBlock", &blk);
    blk.n = 0;
    nb_block_header(&blk, 0); /* uncompressed: the stack id 5 is now forgotten */
    pay.n = 0;
    nb_u32(&pay, 43);
    nb_utf16(&pay, "tick 43");
    nb_u32(&blk, 4 + 4 + 8 + 8 + 4 + 4 + 8 + 32 + 4 + (uint32_t)pay.n); /* size */
    nb_u32(&blk, 1u | 0x80000000u);
    nb_u32(&blk, 9);
    nb_u64(&blk, 77);
    nb_u64(&blk, 77);
    nb_u32(&blk, 1);
    nb_u32(&blk, 5);
    nb_u64(&blk, 6000);
    for (int i = 0; i < 32; i++)
        nb_u8(&blk, 0);
    nb_u32(&blk, (uint32_t)pay.n);
    nb_put(&blk, pay.b, pay.n);
    while (blk.n % 4) /* the body starts 4-aligned: pad the event to a 4-byte offset */
        nb_u8(&blk, 0);
    nb_block(s, "EventBlock", &blk);
    nb_u8(s, 0x01);
    nb_free(&blk);
    nb_free(&rec);
    nb_free(&pay);
}

static const char golden_log[] =
    "H v4/4 2026-11-23 pid=4242 ptr=8 freq=1000000 qpc=1000 cpus=2 rate=1000000\n"
    "M 1 ClrAttach-Sample/1/Tick v0 l4 kf00000000000 op-1 v2=0 Sequence:9 Text:18\n"
    "M 2 Prov/20/AllTypes v3 l5 k8000000000000001 op-1 v2=0 Flag:3 Letter:4 I8:5 U8:6 I16:7 "
    "U16:8 I32:9 U32:10 I64:11 U64:12 F32:13 F64:14 Dec:15 When:16 Id:17 Text:18 Inner:1{ A:9 "
    "B:18 }\n"
    "M 3 Prov/30/Arrays v1 l4 k0 op1 v2=1 Nums:19{ :9 } Pairs:19{ :1{ K:7 V:18 } }\n"
    "S 5 len=16 first=ab\n"
    "S 6 len=0 first=00\n";

TEST(nettrace_decoder_golden_stream_gives_header_metadata_and_stacks)
{
    nb_t s = {0};
    clra_nettrace_info_t info;
    int rc;
    golden(&s);
    char *log = decode(&s, 0, &info, &rc);
    ASSERT_EQ(rc, 0);
    ASSERT_MSG(info.state == CLRA_NETTRACE_VALID, "%s", info.problem);
    ASSERT_MSG(strncmp(log, golden_log, sizeof golden_log - 1) == 0, "got:\n%s", log);
    ASSERT_EQ(info.metadata_blocks, 1);
    ASSERT_EQ(info.event_blocks, 2);
    ASSERT_EQ(info.stack_blocks, 1);
    ASSERT_EQ(info.sequence_points, 1);
    ASSERT_EQ(info.end_offset, s.n);
    free(log);
    nb_free(&s);
}

TEST(nettrace_decoder_compressed_headers_repeat_and_accumulate)
{
    nb_t s = {0};
    clra_nettrace_info_t info;
    int rc;
    golden(&s);
    char *log = decode(&s, 0, &info, &rc);
    /* first event: all fields; sequence 0 + 1 */
    ASSERT_CONTAINS(log, "meta=1 seq=1 tid=77 cap=77 cpu=1 stack=5/16 ts=100 act=00 rel=00 "
                         "sorted=0 len=20\n  Sequence[0]=41\n  Text[0]=tick 41\n");
    /* second: only flags 64 + timestamp delta: everything else repeats, sequence + 1 */
    ASSERT_CONTAINS(log, "meta=1 seq=2 tid=77 cap=77 cpu=1 stack=5/16 ts=105 act=00 rel=00 "
                         "sorted=1 len=20\n  Sequence[0]=42\n  Text[0]=tick 42\n");
    /* third: new thread, stack 6 (empty), activity ids */
    ASSERT_CONTAINS(log, "meta=2 seq=3 tid=78 cap=77 cpu=1 stack=6/0 ts=106 act=a0 rel=bf "
                         "sorted=0");
    /* fourth: sequence delta 10, capture thread 99, processor 0 */
    ASSERT_CONTAINS(log, "meta=3 seq=14 tid=78 cap=99 cpu=0 stack=6/0 ts=107");
    free(log);
    nb_free(&s);
}

TEST(nettrace_decoder_payload_walk_decodes_every_field_type)
{
    nb_t s = {0};
    clra_nettrace_info_t info;
    int rc;
    golden(&s);
    char *log = decode(&s, 0, &info, &rc);
    ASSERT_CONTAINS(log, "  Flag[0]=true\n  Letter[0]=90\n  I8[0]=-2\n  U8[0]=200\n"
                         "  I16[0]=-300\n  U16[0]=60000\n  I32[0]=-70000\n"
                         "  U32[0]=4000000000\n  I64[0]=-5000000000\n"
                         "  U64[0]=18000000000000000000\n  F32[0]=1.5\n"
                         "  F64[0]=3.1415926535897931\n"
                         "  Dec[0]=000102030405060708090a0b0c0d0e0f\n"
                         "  When[0]=2022-06-18T04:26:40.0000000Z\n"
                         "  Id[0]=12345678-1234-5678-9abc-def011223344\n"
                         "  Text[0]=h\xc3\xa9llo\n"
                         "  begin Inner[0] count=2\n    A[0]=7\n    B[0]=in\n"
                         "  end Inner[0] count=2\n");
    free(log);
    nb_free(&s);
}

TEST(nettrace_decoder_v2_arrays_of_scalars_and_structs)
{
    nb_t s = {0};
    clra_nettrace_info_t info;
    int rc;
    golden(&s);
    char *log = decode(&s, 0, &info, &rc);
    ASSERT_CONTAINS(log, "  begin Nums[0] count=3\n    [0]=10\n    [1]=20\n"
                         "    [2]=-30\n  end Nums[0] count=3\n"
                         "  begin Pairs[0] count=2\n    begin [0] count=2\n"
                         "      K[0]=1\n      V[0]=one\n    end [0] count=2\n"
                         "    begin [1] count=2\n      K[0]=2\n      V[0]=\n"
                         "    end [1] count=2\n  end Pairs[0] count=2\n");
    free(log);
    nb_free(&s);
}

TEST(nettrace_decoder_sequence_point_forgets_stacks_and_plain_headers_decode)
{
    nb_t s = {0};
    clra_nettrace_info_t info;
    int rc;
    golden(&s);
    char *log = decode(&s, 0, &info, &rc);
    ASSERT_CONTAINS(log, "P ts=5000 threads=2 77:2 78:1\n");
    ASSERT_CONTAINS(log, "meta=1 seq=9 tid=77 cap=77 cpu=1 stack=5/none0 ts=6000 act=00 "
                         "rel=00 sorted=1 len=20\n  Sequence[0]=43\n  Text[0]=tick 43\n");
    free(log);
    nb_free(&s);
}

TEST(nettrace_decoder_every_split_of_the_input_gives_the_same_callbacks)
{
    nb_t s = {0};
    clra_nettrace_info_t whole_info, info;
    int rc;
    golden(&s);
    char *whole = decode(&s, 0, &whole_info, &rc);
    for (size_t piece = 1; piece <= 64; piece++) {
        char *log = decode(&s, piece, &info, &rc);
        ASSERT_EQ(rc, 0);
        ASSERT_MSG(strcmp(log, whole) == 0, "pieces of %zu bytes:\n%s", piece, log);
        ASSERT_EQ(info.state, CLRA_NETTRACE_VALID);
        free(log);
    }
    free(whole);
    nb_free(&s);
}

TEST(nettrace_decoder_every_truncation_is_incomplete_never_corrupt)
{
    nb_t s = {0};
    clra_nettrace_info_t info;
    int rc;
    golden(&s);
    size_t n = s.n;
    for (size_t cut = 0; cut < n; cut++) {
        s.n = cut;
        char *log = decode(&s, 7, &info, &rc);
        ASSERT_MSG(rc == 0, "prefix of %zu bytes: feed failed", cut);
        ASSERT_MSG(info.state == CLRA_NETTRACE_INCOMPLETE, "prefix of %zu: state %d (%s)", cut,
                   info.state, info.problem);
        ASSERT_EQ(info.end_offset, cut);
        ASSERT_CONTAINS(info.problem, "cut off at byte");
        free(log);
    }
    s.n = 102 + 1 + 2 + 12 + 13 + 1 + 4 + 2; /* inside the MetadataBlock's body */
    char *log = decode(&s, 0, &info, &rc);
    ASSERT_CONTAINS(info.problem, "MetadataBlock that starts at offset 102");
    free(log);
    s.n = n;
    nb_free(&s);
}

/* Decodes s with byte `at` set to v; the verdict. */
static clra_nettrace_info_t corrupt_at(nb_t *s, size_t at, uint8_t v)
{
    clra_nettrace_info_t info;
    int rc;
    uint8_t was = s->b[at];
    s->b[at] = v;
    free(decode(s, 0, &info, &rc));
    s->b[at] = was;
    return info;
}

TEST(nettrace_decoder_corruption_is_reported_with_offset_and_expectation)
{
    nb_t s = {0};
    golden(&s);
    clra_nettrace_info_t info = corrupt_at(&s, 3, 'X');
    ASSERT_EQ(info.state, CLRA_NETTRACE_INVALID);
    ASSERT_EQ(info.end_offset, 3);
    ASSERT_CONTAINS(info.problem, "expected the 'Nettrace' + '!FastSerialization.1' header");
    info = corrupt_at(&s, 102, 0x07);
    ASSERT_STREQ(info.problem, "byte 0x07 at offset 102 where a block (05) or the end marker "
                               "(01) belongs");
    info = corrupt_at(&s, 35, 6);
    ASSERT_CONTAINS(info.problem, "NetTrace version 6 at offset 35");
    /* the MetadataBlock's header size (high byte at body + 1) made larger than the block */
    size_t body = 102 + 1 + 2 + 12 + 13 + 1 + 4;
    body += (4 - body % 4) % 4;
    info = corrupt_at(&s, body + 1, 0xFF);
    ASSERT_EQ(info.state, CLRA_NETTRACE_INVALID);
    ASSERT_EQ(info.end_offset, body);
    ASSERT_CONTAINS(info.problem, "corrupt MetadataBlock at offset");
    ASSERT_CONTAINS(info.problem, "expected a block header size");
    /* an event announcing 50 payload bytes where its block holds 3 */
    nb_t t = {0}, blk = {0};
    nb_header(&t, 4);
    nb_block_header(&blk, 1);
    nb_u8(&blk, 128);
    nb_varint(&blk, 0);
    nb_varint(&blk, 50);
    nb_put(&blk, "abc", 3);
    nb_block(&t, "EventBlock", &blk);
    nb_u8(&t, 0x01);
    info = corrupt_at(&t, 0, 'N');
    ASSERT_EQ(info.state, CLRA_NETTRACE_INVALID);
    ASSERT_CONTAINS(info.problem, "corrupt EventBlock at offset 155: expected the event's "
                                  "payload");
    nb_free(&t);
    nb_free(&blk);
    /* the end marker followed by a byte */
    nb_u8(&s, 0x01);
    clra_nettrace_info_t after;
    int rc;
    free(decode(&s, 0, &after, &rc));
    ASSERT_EQ(rc, CLRA_EPROTO);
    ASSERT_EQ(after.state, CLRA_NETTRACE_INVALID);
    ASSERT_EQ(after.end_offset, s.n - 1);
    ASSERT_CONTAINS(after.problem, "after the end marker");
    nb_free(&s);
}

TEST(nettrace_decoder_feed_after_corruption_keeps_failing_the_same_way)
{
    nb_t s = {0};
    clra_nettrace_decoder_t *d;
    clra_status_t st;
    logbuf_t l = {0};
    golden(&s);
    s.b[102] = 0x09;
    ASSERT_EQ(clra_nettrace_decoder_new(&callbacks, &l, &d), 0);
    ASSERT_EQ(clra_nettrace_decoder_feed(d, s.b, s.n, &st), CLRA_EPROTO);
    ASSERT_CONTAINS(st.detail, "offset 102");
    ASSERT_EQ(clra_nettrace_decoder_feed(d, "x", 1, &st), CLRA_EPROTO);
    ASSERT_CONTAINS(st.detail, "offset 102");
    ASSERT_EQ(clra_nettrace_decoder_end(d, NULL, &st), CLRA_EPROTO);
    clra_nettrace_decoder_free(d);
    free(l.s);
    nb_free(&s);
}

TEST(nettrace_decoder_callback_can_stop_it)
{
    nb_t s = {0};
    clra_nettrace_decoder_t *d;
    clra_status_t st;
    logbuf_t l = {0};
    l.stop_after = 2;
    golden(&s);
    ASSERT_EQ(clra_nettrace_decoder_new(&callbacks, &l, &d), 0);
    ASSERT_EQ(clra_nettrace_decoder_feed(d, s.b, s.n, &st), CLRA_EIO);
    ASSERT_EQ(clra_nettrace_decoder_event_count(d), 2);
    ASSERT_EQ(clra_nettrace_decoder_end(d, NULL, &st), CLRA_EIO);
    clra_nettrace_decoder_free(d);
    free(l.s);
    nb_free(&s);
}

TEST(nettrace_decoder_short_payload_names_the_field_that_does_not_fit)
{
    static const clra_nettrace_field_t fields[] = {{"Count", CLRA_NETTRACE_INT32, NULL, 0},
                                                   {"Big", CLRA_NETTRACE_INT64, NULL, 0}};
    clra_nettrace_metadata_t m = {0};
    m.provider = "P";
    m.event_name = "E";
    m.fields = fields;
    m.field_count = 2;
    clra_status_t st;
    ASSERT_EQ(clra_nettrace_payload_walk(&m, "\1\0\0\0\2\0\0", 7, NULL, NULL, &st),
              CLRA_EPROTO);
    ASSERT_STREQ(st.detail, "P/E: field 'Big' does not fit: 3 bytes left at payload offset 4 "
                            "of 7");
    clra_nettrace_value_t v;
    char text[8];
    ASSERT_EQ(clra_nettrace_payload_get(&m, "\1\0\0\0\2\0\0\0\0\0\0\0", 12, "Big", &v, text,
                                        sizeof text, &st), 0);
    ASSERT_EQ(v.i, 2);
    ASSERT_STREQ(st.detail, "");
    ASSERT_EQ(clra_nettrace_payload_get(&m, "\1\0\0\0\2\0\0\0\0\0\0\0", 12, "None", &v, text,
                                        sizeof text, &st), CLRA_EINVAL);
    ASSERT_STREQ(st.detail, "P/E has no field 'None'");
}

TEST(nettrace_decoder_file_reader_gives_the_same_verdicts)
{
    nb_t s = {0};
    logbuf_t l = {0};
    clra_nettrace_info_t info;
    clra_status_t st;
    char path[] = "/tmp/clra-ntdec-XXXXXX";
    golden(&s);
    int fd = mkstemp(path);
    ASSERT(fd >= 0);
    ASSERT_EQ(write(fd, s.b, s.n), (ssize_t)s.n);
    close(fd);
    ASSERT_EQ(clra_nettrace_decode_file(path, &callbacks, &l, &info, &st), 0);
    ASSERT_EQ(info.state, CLRA_NETTRACE_VALID);
    ASSERT_MSG(strncmp(l.s, golden_log, sizeof golden_log - 1) == 0, "%s", l.s);
    ASSERT_EQ(truncate(path, (off_t)s.n - 3), 0);
    ASSERT_EQ(clra_nettrace_decode_file(path, &callbacks, &l, &info, &st), CLRA_EPROTO);
    ASSERT_EQ(info.state, CLRA_NETTRACE_INCOMPLETE);
    ASSERT_CONTAINS(st.detail, "cut off at byte");
    unlink(path);
    ASSERT_EQ(clra_nettrace_decode_file(path, &callbacks, &l, &info, &st), CLRA_EIO);
    ASSERT_CONTAINS(st.detail, "cannot open /tmp/clra-ntdec-");
    free(l.s);
    nb_free(&s);
}

TEST(nettrace_decoder_an_empty_stack_is_not_a_missing_one)
{
    /* what a session without stack walks writes: every event names an empty stack */
    nb_t s = {0}, blk = {0}, rec = {0}, pay = {0};
    clra_nettrace_info_t info;
    int rc;
    nb_header(&s, 4);
    nb_block_header(&blk, 1);
    nb_meta_head(&rec, 1, "P", 1, "E", 0, 0, 4);
    nb_u32(&rec, 0);
    meta_event(&blk, &rec);
    nb_block(&s, "MetadataBlock", &blk);
    blk.n = 0;
    nb_u32(&blk, 1);
    nb_u32(&blk, 1);
    nb_u32(&blk, 0);
    nb_block(&s, "StackBlock", &blk);
    blk.n = 0;
    nb_block_header(&blk, 1);
    nb_event_full(&blk, 1, 0, 5, 1, 1, &pay);
    nb_event_full(&blk, 1, 0, 5, 2, 1, &pay);
    nb_block(&s, "EventBlock", &blk);
    nb_u8(&s, 0x01);
    char *log = decode(&s, 0, &info, &rc);
    ASSERT_CONTAINS(log, "stack=1/0 ");
    ASSERT_CONTAINS(log, "stack=2/none0 ");
    free(log);
    nb_free(&s);
    nb_free(&blk);
    nb_free(&rec);
    nb_free(&pay);
}
