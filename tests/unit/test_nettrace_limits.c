/* The decoder's bounds (issue 29): hostile streams from tests/common/nettrace_hostile.h are
 * refused with a sentence naming the limit, and the work they cause follows their size. */
#include "clrattach.h"
#include "nettrace_hostile.h"
#include "test.h"

#include <stdio.h>
#include <string.h>

typedef struct seen {
    unsigned long long values, events, walk_failures;
    int64_t last_ts;
    uint64_t last_ip;
    char detail[512];
} seen_t;

static int count_value(void *ctx, const clra_nettrace_value_t *v)
{
    ((seen_t *)ctx)->values++;
    (void)v;
    return 0;
}

/* Walks each event's payload as convert and counters do, counting what the walk hands out. */
static int walk_event(void *ctx, const clra_nettrace_event_t *ev)
{
    seen_t *s = ctx;
    clra_status_t st;
    s->events++;
    s->last_ts = ev->timestamp;
    s->last_ip = 0;
    if (ev->stack && ev->stack_len >= 8)
        memcpy(&s->last_ip, ev->stack, 8);
    if (ev->meta && clra_nettrace_payload_walk(ev->meta, ev->payload, ev->payload_len,
                                               count_value, s, &st) != 0) {
        s->walk_failures++;
        snprintf(s->detail, sizeof s->detail, "%s", st.detail);
    }
    return 0;
}

/* Decodes s whole; the decoder's verdict, its words in detail. */
static int decode(const nb_t *s, seen_t *seen, char *detail, size_t cap)
{
    clra_nettrace_callbacks_t cb = {0};
    clra_nettrace_decoder_t *d;
    clra_nettrace_info_t info;
    clra_status_t st;
    cb.event = walk_event;
    ASSERT_EQ(clra_nettrace_decoder_new(&cb, seen, &d), 0);
    int rc = clra_nettrace_decoder_feed(d, s->b, s->n, &st);
    if (rc == 0)
        rc = clra_nettrace_decoder_end(d, &info, &st);
    snprintf(detail, cap, "%s", st.detail);
    clra_nettrace_decoder_free(d);
    return rc;
}

TEST(nettrace_limits_arrays_of_empty_structs_are_refused_not_walked)
{
    /* 100 arrays of 65535 empty structs: 6.5 million values from a 200-byte payload */
    nb_t s = {0};
    seen_t seen = {0};
    char detail[512];
    nh_empty_struct_arrays(&s, 100, 65535, 3);
    ASSERT_EQ(decode(&s, &seen, detail, sizeof detail), 0);
    ASSERT_EQ(seen.events, 3);
    ASSERT_EQ(seen.walk_failures, 3);
    ASSERT_MSG(seen.values <= 3 * (16 * 202 + 1024), "%llu values", seen.values);
    ASSERT_CONTAINS(seen.detail, "P/EventCounters: field '' at payload offset");
    ASSERT_CONTAINS(seen.detail, "an array whose elements take no bytes");
    nb_free(&s);
}

TEST(nettrace_limits_an_array_count_must_fit_the_bytes_left)
{
    static const clra_nettrace_field_t el = {"", CLRA_NETTRACE_INT32, NULL, 0};
    static const clra_nettrace_field_t arr = {"Nums", CLRA_NETTRACE_ARRAY, &el, 1};
    clra_nettrace_metadata_t m = {0};
    m.provider = "P";
    m.event_name = "E";
    m.fields = &arr;
    m.field_count = 1;
    seen_t seen = {0};
    clra_status_t st;
    /* 3 elements of 4 bytes claimed, 8 bytes there */
    ASSERT_EQ(clra_nettrace_payload_walk(&m, "\3\0\1\0\0\0\2\0\0\0", 10, count_value, &seen,
                                         &st), CLRA_EPROTO);
    ASSERT_STREQ(st.detail, "P/E: field 'Nums' at payload offset 2 of 10: an array count "
                            "larger than the bytes left");
    ASSERT_EQ(seen.values, 0);
    ASSERT_EQ(clra_nettrace_payload_walk(&m, "\2\0\1\0\0\0\2\0\0\0", 10, count_value, &seen,
                                         &st), 0);
    ASSERT_EQ(seen.values, 4); /* BEGIN, two values, END */
}

TEST(nettrace_limits_a_record_of_more_than_1024_fields_is_corrupt)
{
    nb_t s = {0};
    seen_t seen = {0};
    char detail[512];
    nh_many_fields(&s, 1024, 1);
    ASSERT_EQ(decode(&s, &seen, detail, sizeof detail), 0);
    nb_free(&s);
    nh_many_fields(&s, 1025, 1);
    ASSERT_EQ(decode(&s, &seen, detail, sizeof detail), CLRA_EPROTO);
    ASSERT_CONTAINS(detail, "corrupt metadata record at offset");
    ASSERT_CONTAINS(detail, "expected at most CLRA_NETTRACE_MAX_FIELDS (1024) fields in one "
                            "record");
    nb_free(&s);
}

TEST(nettrace_limits_metadata_past_16_mib_is_refused)
{
    nb_t s = {0};
    seen_t seen = {0};
    char detail[512];
    nh_much_metadata(&s, 15, 1u << 20); /* 15 MiB and a little: held */
    ASSERT_EQ(decode(&s, &seen, detail, sizeof detail), 0);
    nb_free(&s);
    nh_much_metadata(&s, 17, 1u << 20);
    ASSERT_EQ(decode(&s, &seen, detail, sizeof detail), CLRA_EPROTO);
    ASSERT_CONTAINS(detail, "too much metadata at offset");
    ASSERT_CONTAINS(detail, "CLRA_NETTRACE_MAX_METADATA (16777216 bytes)");
    nb_free(&s);
}

TEST(nettrace_limits_falling_stack_ids_each_find_their_stack)
{
    nb_t s = {0};
    seen_t seen = {0};
    char detail[512];
    nh_falling_stack_ids(&s, 3000);
    ASSERT_EQ(decode(&s, &seen, detail, sizeof detail), 0);
    ASSERT_EQ(seen.events, 3000);
    ASSERT_EQ(seen.last_ip, 0x1000 + 16ull * 3000); /* the last event names stack 3000 */
    nb_free(&s);
}

TEST(nettrace_limits_timestamp_deltas_wrap_instead_of_overflowing)
{
    /* two deltas of 2^62 + 2^62 - 1 after 1: past INT64_MAX, which was undefined behaviour */
    nb_t s = {0}, blk = {0}, pay = {0};
    seen_t seen = {0};
    char detail[512];
    nb_header(&s, 4);
    nb_block_header(&blk, 1);
    nb_meta_head(&pay, 1, "P", 1, "E", 0, 0, 4);
    nb_u32(&pay, 0);
    nh_meta_event(&blk, &pay);
    nb_block(&s, "MetadataBlock", &blk);
    blk.n = 0;
    pay.n = 0;
    nb_block_header(&blk, 1);
    nb_event_full(&blk, 1, 0, 7, 0, 1, &pay);
    nb_u8(&blk, 0);
    nb_varint(&blk, 1ull << 62);
    nb_u8(&blk, 0);
    nb_varint(&blk, (1ull << 62) + 5);
    nb_block(&s, "EventBlock", &blk);
    nb_u8(&s, 0x01);
    ASSERT_EQ(decode(&s, &seen, detail, sizeof detail), 0);
    ASSERT_EQ(seen.events, 3);
    ASSERT_EQ((uint64_t)seen.last_ts, (1ull << 63) + 6);
    nb_free(&s), nb_free(&blk), nb_free(&pay);
}
