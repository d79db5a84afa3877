/* Unit tests of the NetTrace check (and of the tests' own NetTrace reader) on streams built
 * here byte by byte from docs/protocol.md 6 and PerfView's NetTraceFormat_v5.md. */
#define _GNU_SOURCE
#include "nettrace_reader.h"
#include "test.h"

#include "clrattach.h"

#include <stdlib.h>
#include <unistd.h>

/* The 102-byte beginning the runtime writes: magic, FastSerialization header, the Trace
 * object (type header version 4/4, 48 payload bytes, here zero) and its EndObject. */
static const uint8_t header_v4[102] = {
    'N', 'e', 't', 't', 'r', 'a', 'c', 'e', 0x14, 0x00, 0x00, 0x00,
    '!', 'F', 'a', 's', 't', 'S', 'e', 'r', 'i', 'a', 'l', 'i', 'z', 'a', 't', 'i', 'o', 'n',
    '.', '1',
    0x05, 0x05, 0x01, 0x04, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00,
    0x05, 0x00, 0x00, 0x00, 'T', 'r', 'a', 'c', 'e', 0x06,
    [102 - 1] = 0x06};

typedef struct stream {
    uint8_t b[4096];
    size_t n;
} stream_t;

static void put(stream_t *s, const void *p, size_t n)
{
    ASSERT(s->n + n <= sizeof s->b);
    memcpy(s->b + s->n, p, n);
    s->n += n;
}

static void put_u32(stream_t *s, uint32_t v)
{
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    put(s, b, 4);
}

/* One block object: 05, type header (05 01 2 2 len name 06), size, padding to a 4-byte file
 * offset, the body, 06. */
static void put_block(stream_t *s, const char *name, const void *body, uint32_t len)
{
    put(s, "\x05\x05\x01", 3);
    put_u32(s, 2);
    put_u32(s, 2);
    put_u32(s, (uint32_t)strlen(name));
    put(s, name, strlen(name));
    put(s, "\x06", 1);
    put_u32(s, len);
    while (s->n % 4)
        put(s, "\0", 1);
    put(s, body, len);
    put(s, "\x06", 1);
}

static clra_nettrace_info_t check(const stream_t *s)
{
    clra_nettrace_info_t info;
    ASSERT_EQ(clra_nettrace_check(s->b, s->n, &info), 0);
    return info;
}

static void header_only(stream_t *s)
{
    s->n = 0;
    put(s, header_v4, sizeof header_v4);
}

TEST(nettrace_header_and_end_marker_alone_is_valid)
{
    stream_t s;
    header_only(&s);
    put(&s, "\x01", 1);
    clra_nettrace_info_t info = check(&s);
    ASSERT_EQ(info.state, CLRA_NETTRACE_VALID);
    ASSERT_EQ(info.version, 4);
    ASSERT_EQ(info.min_reader_version, 4);
    ASSERT_EQ(info.size, 103);
    ASSERT_STREQ(info.problem, "");
}

TEST(nettrace_blocks_with_padding_are_walked_and_counted)
{
    stream_t s;
    header_only(&s);
    put_block(&s, "SPBlock", "\1\2\3\4\5\6\7\x08\x09\x0A\x0B\x0C", 12); /* 3 padding bytes */
    ASSERT_EQ(s.n, 102 + 1 + 2 + 12 + 7 + 1 + 4 + 3 + 12 + 1);
    put_block(&s, "EventBlock", "\x14\0\1\0", 4);
    put_block(&s, "MetadataBlock", "\x14\0\1\0", 4);
    put_block(&s, "StackBlock", "\0\0\0\0\0\0\0\0", 8);
    put_block(&s, "FutureBlock", "", 0);
    put(&s, "\x01", 1);
    clra_nettrace_info_t info = check(&s);
    ASSERT_MSG(info.state == CLRA_NETTRACE_VALID, "%s", info.problem);
    ASSERT_EQ(info.sequence_points, 1);
    ASSERT_EQ(info.event_blocks, 1);
    ASSERT_EQ(info.metadata_blocks, 1);
    ASSERT_EQ(info.stack_blocks, 1);
    ASSERT_EQ(info.other_objects, 1);
}

TEST(nettrace_without_end_marker_is_incomplete)
{
    stream_t s;
    header_only(&s);
    put_block(&s, "EventBlock", "\x14\0\1\0", 4);
    clra_nettrace_info_t info = check(&s);
    ASSERT_EQ(info.state, CLRA_NETTRACE_INCOMPLETE);
    ASSERT_EQ(info.end_offset, s.n);
    ASSERT_CONTAINS(info.problem, "the stream stops after");
    ASSERT_EQ(info.event_blocks, 1);
}

TEST(nettrace_cut_inside_a_block_or_the_header_is_incomplete)
{
    stream_t s;
    header_only(&s);
    put_block(&s, "EventBlock", "0123456789abcdef", 16);
    put(&s, "\x01", 1);
    for (size_t cut = 0; cut < s.n - 1; cut++) { /* every proper prefix */
        clra_nettrace_info_t info;
        ASSERT_EQ(clra_nettrace_check(s.b, cut, &info), 0);
        ASSERT_MSG(info.state == CLRA_NETTRACE_INCOMPLETE, "prefix of %zu bytes: state %d (%s)",
                   cut, info.state, info.problem);
    }
    clra_nettrace_info_t info;
    ASSERT_EQ(clra_nettrace_check(s.b, 140, &info), 0);
    ASSERT_STREQ(info.problem, "cut off inside the EventBlock at offset 102");
}

TEST(nettrace_wrong_bytes_are_invalid_with_their_offset)
{
    stream_t s;
    header_only(&s);
    put(&s, "\x07", 1);
    clra_nettrace_info_t info = check(&s);
    ASSERT_EQ(info.state, CLRA_NETTRACE_INVALID);
    ASSERT_STREQ(info.problem, "byte 0x07 at offset 102 where a block or the end marker belongs");
    header_only(&s);
    put(&s, "\x01\x01\x01", 3);
    info = check(&s);
    ASSERT_EQ(info.state, CLRA_NETTRACE_INVALID);
    ASSERT_STREQ(info.problem, "2 bytes follow the end marker");
    header_only(&s);
    s.b[0] = 'n';
    info = check(&s);
    ASSERT_EQ(info.state, CLRA_NETTRACE_INVALID);
    ASSERT_CONTAINS(info.problem, "'Nettrace' + '!FastSerialization.1' header is not where");
    header_only(&s);
    s.b[101] = 0x05; /* the Trace object's EndObject */
    ASSERT_EQ(check(&s).state, CLRA_NETTRACE_INVALID);
}

TEST(nettrace_other_versions_are_not_claimed_valid)
{
    stream_t s;
    header_only(&s);
    s.b[35] = 6;
    put(&s, "\x01", 1);
    clra_nettrace_info_t info = check(&s);
    ASSERT_EQ(info.state, CLRA_NETTRACE_INVALID);
    ASSERT_EQ(info.version, 6);
    ASSERT_STREQ(info.problem, "NetTrace version 6: only versions 4 and 5 are checked");
    /* Version 6 files begin "Nettrace" + uint32 0 + major + minor instead. */
    static const uint8_t v6[20] = {'N', 'e', 't', 't', 'r', 'a', 'c', 'e', 0, 0, 0, 0, 6};
    ASSERT_EQ(clra_nettrace_check(v6, sizeof v6, &info), 0);
    ASSERT_EQ(info.state, CLRA_NETTRACE_INVALID);
}

TEST(nettrace_file_check_matches_the_buffer_check)
{
    stream_t s;
    clra_nettrace_info_t info;
    clra_status_t st;
    char path[] = "/tmp/clra-nettrace-XXXXXX";
    header_only(&s);
    put_block(&s, "EventBlock", "\x14\0\1\0", 4);
    put(&s, "\x01", 1);
    int fd = mkstemp(path);
    ASSERT(fd >= 0);
    ASSERT_EQ(write(fd, s.b, s.n), (ssize_t)s.n);
    close(fd);
    ASSERT_EQ(clra_nettrace_check_file(path, &info, &st), 0);
    ASSERT_EQ(info.state, CLRA_NETTRACE_VALID);
    ASSERT_EQ(truncate(path, (off_t)s.n - 1), 0);
    ASSERT_EQ(clra_nettrace_check_file(path, &info, &st), 0);
    ASSERT_EQ(info.state, CLRA_NETTRACE_INCOMPLETE);
    unlink(path);
    ASSERT_EQ(clra_nettrace_check_file(path, &info, &st), CLRA_EIO);
    ASSERT_CONTAINS(st.detail, "cannot read /tmp/clra-nettrace-");
}

/* A metadata record payload: id, provider "P" and event 7 "E" (UTF-16), then keywords,
 * version and level the reader does not need. */
static size_t metadata_payload(uint8_t *b, uint32_t id)
{
    static const uint8_t tail[] = {'P', 0, 0, 0, 7, 0, 0, 0, 'E', 0, 0, 0,
                                   0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 4, 0, 0, 0};
    memcpy(b, &id, 4);
    memcpy(b + 4, tail, sizeof tail);
    return 4 + sizeof tail;
}

static void count_events(void *ctx, const nt_event_t *ev)
{
    int *n = ctx;
    if (ev->meta && strcmp(ev->meta->provider, "P") == 0 && ev->meta->event_id == 7 &&
        ev->payload_len == 2 && ev->payload[0] == 'x')
        n[ev->payload[1] - '0']++;
    n[2] += ev->stack_bytes;
    n[3] += ev->meta && ev->meta->id == 300;
}

/* The tests count events with nettrace_reader.h (the public decoder); here it reads compressed headers that
 * repeat, omit and delta-encode fields as the format allows. */
TEST(nettrace_reader_counts_events_through_compressed_headers)
{
    stream_t s;
    uint8_t meta[64], events[64];
    size_t m = 0, e = 0;
    header_only(&s);
    memcpy(meta, "\x14\0\x01\0", 4); /* header size 20, flags: compressed */
    memset(meta + 4, 0, 16);
    m = 20;
    meta[m++] = 0x80 | 0x01;        /* payload size and metadata id present */
    meta[m++] = 0;                  /* metadata id 0: a metadata record */
    meta[m++] = 0;                  /* timestamp delta */
    uint8_t rec[64];
    size_t rlen = metadata_payload(rec, 300); /* id 300: a two-byte varint below */
    meta[m++] = (uint8_t)rlen;
    memcpy(meta + m, rec, rlen);
    m += rlen;
    put_block(&s, "MetadataBlock", meta, (uint32_t)m);
    put_block(&s, "StackBlock", "\x05\0\0\0\x01\0\0\0\x08\0\0\0\1\2\3\4\5\6\7\x08", 20);
    memcpy(events, "\x14\0\x01\0", 4);
    memset(events + 4, 0, 16);
    e = 20;
    static const uint8_t ev1[] = {0x80 | 0x08 | 0x02 | 0x01, 0xAC, 0x02, /* metadata 300 */
                                  0x01, 0x90, 0x4E, 0x00, /* seq, capture thread, cpu */
                                  0x05,                   /* stack id 5 */
                                  0x81, 0x01,             /* timestamp */
                                  0x02, 'x', '0'};        /* payload size 2 */
    static const uint8_t ev2[] = {0x10, 0x01, /* activity id follows; all else repeats */
                                  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 'x', '1'};
    memcpy(events + e, ev1, sizeof ev1);
    e += sizeof ev1;
    memcpy(events + e, ev2, sizeof ev2);
    e += sizeof ev2;
    put_block(&s, "EventBlock", events, (uint32_t)e);
    put(&s, "\x01", 1);
    ASSERT_EQ(check(&s).state, CLRA_NETTRACE_VALID);
    nt_trace_t t;
    int n[4] = {0, 0, 0, 0};
    ASSERT_MSG(nt_read(s.b, s.n, &t, count_events, n) == 0, "%s", t.error);
    ASSERT_EQ(t.events, 2);
    ASSERT_EQ(n[0], 1);
    ASSERT_EQ(n[1], 1);
    ASSERT_EQ(n[2], 16); /* both events refer to stack 5, 8 bytes */
    ASSERT_EQ(n[3], 2);  /* both name metadata record 300 */
    ASSERT(t.ended);
    nt_free(&t);
}
