/* test_heap_snapshot.c - heap snapshot events made by hand as the runtime lays them out
 * (ClrEtwAll.man: GCStart V2, GCEnd V1, BulkType, GCBulkNode) and fed to a snapshot: only the
 * objects of the induced, blocking, full GC's walk are counted, by type, names from BulkType
 * whenever it comes; an empty GC is passed over; lost batches are counted; short or lying
 * payloads are refused with where; the histogram merges names and puts the largest first. The
 * live runtime's snapshots are tested in tests/e2e/test_heap.c. */
#include "clrattach.h"
#include "nettrace_build.h"
#include "nettrace_event.h"
#include "test.h"

#include <stdio.h>
#include <string.h>

#define ITEM 0x7f0000400000ull
#define PAIR 0x7f0000400100ull

typedef struct feeder {
    clra_heap_snapshot_t *h;
    unsigned ptr;
    int64_t now;
} feeder_t;

/* Feeds one runtime event (id, version) with payload b; its return code. */
static int feed(feeder_t *f, uint32_t id, uint32_t version, const nb_t *b, clra_status_t *st)
{
    clra_nettrace_metadata_t m = ne_meta(CLRA_TRACE_RUNTIME_PROVIDER, id, version);
    f->now += 1000; /* 1 ms apart at the clock set below */
    clra_nettrace_event_t ev = ne_event(&m, b->b, b->n, f->now);
    return clra_heap_snapshot_event(f->h, &ev, st);
}

static void start(feeder_t *f, unsigned ptr)
{
    clra_nettrace_header_t hdr;
    memset(&hdr, 0, sizeof hdr);
    hdr.pointer_size = ptr;
    hdr.qpc_frequency = 1000000;
    *f = (feeder_t){.ptr = ptr};
    ASSERT_EQ(clra_heap_snapshot_new(&f->h), 0);
    ASSERT_EQ(clra_heap_snapshot_header(f->h, &hdr, NULL), 0);
}

static void gc_start(feeder_t *f, uint32_t count, uint32_t depth, uint32_t reason, uint32_t type)
{
    nb_t b = {0};
    nb_u32(&b, count);
    nb_u32(&b, depth);
    nb_u32(&b, reason);
    nb_u32(&b, type);
    nb_u16(&b, 0);
    nb_u64(&b, 0);
    ASSERT_EQ(feed(f, 1, 2, &b, NULL), 0);
    nb_free(&b);
}

static void simple(feeder_t *f, uint32_t id, uint32_t value)
{
    nb_t b = {0};
    nb_u32(&b, value);
    nb_u32(&b, 2);
    nb_u16(&b, 0);
    ASSERT_EQ(feed(f, id, 1, &b, NULL), 0);
    nb_free(&b);
}

/* A GCBulkNode batch of n objects of type id and size each. */
static int nodes(feeder_t *f, uint32_t index, uint32_t n, uint64_t id, uint64_t size,
                 clra_status_t *st)
{
    nb_t b = {0};
    nb_u32(&b, index);
    nb_u32(&b, n);
    nb_u16(&b, 0);
    for (uint32_t i = 0; i < n; i++) {
        if (f->ptr == 8)
            nb_u64(&b, 0x7f1000000000ull + i * size);
        else
            nb_u32(&b, 0x10000000u + i * (uint32_t)size);
        nb_u64(&b, size);
        nb_u64(&b, id);
        nb_u64(&b, 1);
    }
    int rc = feed(f, 18, 0, &b, st);
    nb_free(&b);
    return rc;
}

static void name(feeder_t *f, uint64_t id, const char *text)
{
    nb_t b = {0};
    nb_u32(&b, 1);
    nb_u16(&b, 0);
    nb_u64(&b, id);
    nb_u64(&b, 0x7f0000900000ull);
    nb_u32(&b, 0x02000001);
    nb_u32(&b, 0);
    nb_u8(&b, 18);
    nb_utf16(&b, text);
    nb_u32(&b, 2); /* two type parameters */
    nb_u64(&b, 1);
    nb_u64(&b, 2);
    ASSERT_EQ(feed(f, 15, 0, &b, NULL), 0);
    nb_free(&b);
}

TEST(heap_snapshot_counts_only_the_induced_full_blocking_gcs_walk)
{
    feeder_t f;
    clra_heap_histogram_t hh;
    start(&f, 8);
    simple(&f, 9, 1);                 /* GCSuspendEEBegin */
    gc_start(&f, 6, 1, 1, 0);         /* gen 1: not the snapshot's */
    ASSERT_EQ(nodes(&f, 0, 5, ITEM, 32, NULL), 0);
    simple(&f, 2, 6);
    gc_start(&f, 7, 2, 0, 0);         /* not induced */
    simple(&f, 2, 7);
    gc_start(&f, 8, 2, 1, 1);         /* background */
    simple(&f, 2, 8);
    ASSERT_EQ(clra_heap_snapshot_state(f.h), CLRA_HEAP_WAITING);
    simple(&f, 9, 1);                 /* the suspension of the snapshot's GC */
    gc_start(&f, 9, 2, 1, 0);
    ASSERT_EQ(clra_heap_snapshot_state(f.h), CLRA_HEAP_WALKING);
    name(&f, ITEM, "ClrAttach.Sample.HeapItem");
    ASSERT_EQ(nodes(&f, 0, 3, ITEM, 32, NULL), 0);
    ASSERT_EQ(nodes(&f, 1, 2, PAIR, 40, NULL), 0);
    simple(&f, 2, 8);                 /* another GC's end changes nothing */
    ASSERT_EQ(clra_heap_snapshot_state(f.h), CLRA_HEAP_WALKING);
    simple(&f, 2, 9);
    ASSERT_EQ(clra_heap_snapshot_state(f.h), CLRA_HEAP_COMPLETE);
    ASSERT_EQ(nodes(&f, 2, 4, ITEM, 32, NULL), 0); /* after the end: not counted */
    simple(&f, 3, 1);                 /* GCRestartEEEnd */
    name(&f, PAIR, "ClrAttach.Sample.HeapPair"); /* a late name still names */
    ASSERT_EQ(clra_heap_histogram_get(f.h, &hh, NULL), 0);
    ASSERT_EQ(hh.count, 2u);
    ASSERT_EQ(hh.objects, 5u);
    ASSERT_EQ(hh.bytes, 3u * 32 + 2 * 40);
    ASSERT_EQ(hh.gc, 9u);
    ASSERT_EQ(hh.batches_lost, 0u);
    ASSERT_STREQ(hh.types[0].name, "ClrAttach.Sample.HeapItem");
    ASSERT_EQ(hh.types[0].count, 3u);
    ASSERT_EQ(hh.types[0].bytes, 96u);
    ASSERT_STREQ(hh.types[1].name, "ClrAttach.Sample.HeapPair");
    ASSERT_EQ(hh.types[1].bytes, 80u);
    ASSERT_MSG(hh.pause_ms > 5.9 && hh.pause_ms < 9.1, "pause %g ms", hh.pause_ms);
    ASSERT_MSG(hh.gc_ms > 3.9 && hh.gc_ms < 6.1, "gc %g ms", hh.gc_ms);
    clra_heap_histogram_free(&hh);
    clra_heap_snapshot_free(f.h);
}

TEST(heap_snapshot_passes_over_an_empty_gc_and_takes_the_next)
{
    feeder_t f;
    clra_heap_histogram_t hh;
    start(&f, 4);
    gc_start(&f, 3, 2, 1, 0);
    simple(&f, 2, 3);                 /* induced but no walk: some runtimes induce two */
    ASSERT_EQ(clra_heap_snapshot_state(f.h), CLRA_HEAP_WAITING);
    gc_start(&f, 4, 2, 1, 0);
    ASSERT_EQ(nodes(&f, 0, 7, ITEM, 24, NULL), 0); /* 4-byte pointers */
    simple(&f, 2, 4);
    ASSERT_EQ(clra_heap_snapshot_state(f.h), CLRA_HEAP_COMPLETE);
    ASSERT_EQ(clra_heap_histogram_get(f.h, &hh, NULL), 0);
    ASSERT_EQ(hh.count, 1u);
    ASSERT_EQ(hh.types[0].count, 7u);
    ASSERT_EQ(hh.types[0].bytes, 7u * 24);
    ASSERT_STREQ(hh.types[0].name, "Type(0x7f0000400000)"); /* never named */
    ASSERT_EQ(hh.pause_ms, -1.0);
    clra_heap_histogram_free(&hh);
    clra_heap_snapshot_free(f.h);
}

TEST(heap_snapshot_counts_missing_batches_as_lost)
{
    feeder_t f;
    clra_heap_histogram_t hh;
    start(&f, 8);
    gc_start(&f, 1, 2, 1, 0);
    ASSERT_EQ(nodes(&f, 0, 1, ITEM, 32, NULL), 0);
    ASSERT_EQ(nodes(&f, 3, 1, ITEM, 32, NULL), 0); /* 1 and 2 dropped */
    ASSERT_EQ(nodes(&f, 4, 1, ITEM, 32, NULL), 0);
    simple(&f, 2, 1);
    ASSERT_EQ(clra_heap_histogram_get(f.h, &hh, NULL), 0);
    ASSERT_EQ(hh.batches_lost, 2u);
    ASSERT_EQ(hh.objects, 3u);
    clra_heap_histogram_free(&hh);
    clra_heap_snapshot_free(f.h);
}

TEST(heap_snapshot_merges_types_of_one_name_and_orders_largest_first)
{
    feeder_t f;
    clra_heap_histogram_t hh;
    start(&f, 8);
    gc_start(&f, 1, 2, 1, 0);
    name(&f, 0x1000, "A.Twice");
    name(&f, 0x2000, "A.Twice"); /* loaded twice: two ids, one name */
    name(&f, 0x3000, "B.Big");
    ASSERT_EQ(nodes(&f, 0, 2, 0x1000, 16, NULL), 0);
    ASSERT_EQ(nodes(&f, 1, 3, 0x2000, 16, NULL), 0);
    ASSERT_EQ(nodes(&f, 2, 1, 0x3000, 1000, NULL), 0);
    ASSERT_EQ(nodes(&f, 3, 1, 0x4000, 90, NULL), 0);
    simple(&f, 2, 1);
    ASSERT_EQ(clra_heap_histogram_get(f.h, &hh, NULL), 0);
    ASSERT_EQ(hh.count, 3u);
    ASSERT_STREQ(hh.types[0].name, "B.Big");
    ASSERT_STREQ(hh.types[1].name, "Type(0x4000)");
    ASSERT_STREQ(hh.types[2].name, "A.Twice");
    ASSERT_EQ(hh.types[2].count, 5u);
    ASSERT_EQ(hh.types[2].bytes, 80u);
    clra_heap_histogram_free(&hh);
    clra_heap_snapshot_free(f.h);
}

TEST(heap_snapshot_refuses_batches_that_do_not_fit_their_payload)
{
    feeder_t f;
    clra_status_t st;
    start(&f, 8);
    gc_start(&f, 1, 2, 1, 0);
    nb_t b = {0};
    nb_u32(&b, 0);
    nb_u32(&b, 1000000); /* a million objects claimed in 32 bytes */
    nb_u16(&b, 0);
    nb_u64(&b, 1);
    nb_u64(&b, 2);
    nb_u64(&b, 3);
    nb_u64(&b, 4);
    ASSERT_EQ(feed(&f, 18, 0, &b, &st), CLRA_EPROTO);
    ASSERT_CONTAINS(st.detail, "GCBulkNode of 1000000 objects in 32 bytes");
    b.n = 6;
    ASSERT_EQ(feed(&f, 18, 0, &b, &st), CLRA_EPROTO);
    ASSERT_CONTAINS(st.detail, "its header needs 10");
    nb_free(&b);
    nb_u32(&b, 1); /* a BulkType whose name never ends */
    nb_u16(&b, 0);
    nb_u64(&b, 1);
    nb_u64(&b, 2);
    nb_u32(&b, 3);
    nb_u32(&b, 4);
    nb_u8(&b, 5);
    nb_u16(&b, 'A');
    nb_u16(&b, 'B');
    nb_u32(&b, 0x41414141);
    ASSERT_EQ(feed(&f, 15, 0, &b, &st), CLRA_EPROTO);
    ASSERT_CONTAINS(st.detail, "BulkType's type 0 of 1 has no end to its name");
    nb_free(&b);
    nb_u32(&b, 3); /* three types claimed, none there */
    nb_u16(&b, 0);
    ASSERT_EQ(feed(&f, 15, 0, &b, &st), CLRA_EPROTO);
    ASSERT_CONTAINS(st.detail, "runs past");
    nb_free(&b);
    ASSERT_EQ(nodes(&f, 0, 1, ITEM, 32, &st), 0); /* the snapshot goes on */
    clra_heap_snapshot_free(f.h);
}

TEST(heap_config_asks_for_what_dotnet_gcdump_asks)
{
    clra_trace_config_t cfg;
    clra_trace_config_init(&cfg);
    ASSERT_EQ(clra_heap_config(&cfg, NULL), 0);
    ASSERT_EQ(cfg.provider_count, 1u);
    ASSERT_STREQ(cfg.providers[0].name, "Microsoft-Windows-DotNETRuntime");
    ASSERT_EQ(cfg.providers[0].keywords, 0x1980001ull);
    ASSERT_EQ(cfg.providers[0].level, 5u);
    ASSERT_EQ(cfg.rundown_keyword, 0u);
    ASSERT_EQ(cfg.buffer_mb, 1024u);
    clra_trace_config_free(&cfg);
}
