/* fuzz_smoke.c - drives fuzz_parsers.c without libFuzzer: seeds from the spec's examples,
 * mutated deterministically (flips, truncations, length fields set to extremes). */
#include "nettrace_build.h"
#include "nettrace_event.h"
#include "nettrace_hostile.h"
#include "profile/profile_events.h"
#include "proto/runtime_events.h"
#include "test.h"

#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const uint8_t seed_error[] = {'D', 'O', 'T', 'N', 'E', 'T', '_', 'I', 'P', 'C', '_', 'V', '1', 0,
                                     24, 0, 0xFF, 0xFF, 0, 0, 0x84, 0x13, 0x13, 0x80};
static const uint8_t seed_info[] = {0x39, 0x30, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
                                    12, 13, 14, 15, 16, 3, 0, 0, 0, 'a', 0, 'b', 0, 0, 0, 1, 0, 0, 0,
                                    0, 0};
/* ProcessInfo3 version 1: pid, cookie, then command line "a", OS "L", arch "x", entry "e",
 * version "1", RID "r" (each two units with the NUL). */
static const uint8_t seed_info3[] = {1, 0, 0, 0, 0x39, 0x30, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6,
                                     7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
                                     2, 0, 0, 0, 'a', 0, 0, 0, 2, 0, 0, 0, 'L', 0, 0, 0,
                                     2, 0, 0, 0, 'x', 0, 0, 0, 2, 0, 0, 0, 'e', 0, 0, 0,
                                     2, 0, 0, 0, '1', 0, 0, 0, 2, 0, 0, 0, 'r', 0, 0, 0};
/* Dump3's Error(E_FAIL) with the text "no" (docs/protocol.md 3.1). */
static const uint8_t seed_dump_error[] = {'D', 'O', 'T', 'N', 'E', 'T', '_', 'I', 'P', 'C', '_', 'V',
                                          '1', 0, 34, 0, 0xFF, 0xFF, 0, 0, 0x05, 0x40, 0x00, 0x80,
                                          3, 0, 0, 0, 'n', 0, 'o', 0, 0, 0};
static const char seed_maps[] = "7ef9ef739000-7ef9ef741000 r-xp 00002000 00:27 63     "
                                "/tmp/clrattach-stage-1-8607-ipMgHK/libhello_profiler.so\n";
static const char seed_text[] = "Name:\tdotnet\nNSpid:\t4242\t17\nlog=/tmp/x;detach_after_ms=100";

/* xorshift: the same inputs on every run, so a failure reproduces. */
static uint32_t next_random(uint32_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 17;
    *state ^= *state << 5;
    return *state;
}

/* Runs rounds mutations of one seed through the parsers. */
static void mutate_and_run(const uint8_t *seed, size_t len, int rounds, uint32_t state)
{
    uint8_t *buf = malloc(len + 8);
    for (int i = 0; i < rounds; i++) {
        memcpy(buf, seed, len);
        size_t n = len;
        int edits = 1 + (int)(next_random(&state) % 4);
        for (int e = 0; e < edits; e++) {
            size_t at = next_random(&state) % n;
            switch (next_random(&state) % 4) {
            case 0: buf[at] ^= (uint8_t)(1u << (next_random(&state) % 8)); break;
            case 1: buf[at] = 0xFF; break;
            case 2: buf[at] = 0x00; break;
            default: n = at + 1; break; /* truncate */
            }
        }
        LLVMFuzzerTestOneInput(buf, n);
    }
    free(buf);
}

TEST(fuzz_smoke_every_parser_survives_mutated_spec_examples)
{
    mutate_and_run(seed_error, sizeof seed_error, 20000, 0x1234567u);
    mutate_and_run(seed_info, sizeof seed_info, 20000, 0x89abcdeu);
    mutate_and_run(seed_info3, sizeof seed_info3, 20000, 0x2468aceu);
    mutate_and_run(seed_dump_error, sizeof seed_dump_error, 20000, 0x3579bdfu);
    mutate_and_run((const uint8_t *)seed_text, sizeof seed_text - 1, 20000, 0xfeedbeeu);
    mutate_and_run((const uint8_t *)seed_maps, sizeof seed_maps - 1, 20000, 0x51a9e01u);
    LLVMFuzzerTestOneInput(NULL, 0);
}

/* A NetTrace beginning (docs/protocol.md 6), one EventBlock and the end marker; a provider list. */
static const uint8_t seed_nettrace[] = {
    'N', 'e', 't', 't', 'r', 'a', 'c', 'e', 0x14, 0, 0, 0, '!', 'F', 'a', 's', 't', 'S', 'e', 'r',
    'i', 'a', 'l', 'i', 'z', 'a', 't', 'i', 'o', 'n', '.', '1', 5, 5, 1, 4, 0, 0, 0, 4, 0, 0, 0,
    5, 0, 0, 0, 'T', 'r', 'a', 'c', 'e', 6, [101] = 6,
    5, 5, 1, 2, 0, 0, 0, 2, 0, 0, 0, 10, 0, 0, 0, 'E', 'v', 'e', 'n', 't', 'B', 'l', 'o', 'c', 'k',
    6, 4, 0, 0, 0, 0x14, 0, 1, 0, 6, 1};
static const char seed_spec[] = "A:0x1:Verbose:k=\"a;b\";c=d,B::4,C:*:LogAlways:x=1";

TEST(fuzz_smoke_trace_parsers_survive_mutated_streams_and_specs)
{
    mutate_and_run(seed_nettrace, sizeof seed_nettrace, 20000, 0x5eed123u);
    mutate_and_run((const uint8_t *)seed_spec, sizeof seed_spec - 1, 20000, 0xabc0123u);
}

/* A decodable NetTrace: a metadata record with an int, a string, a struct and (V2) an array of
 * structs, a stack, an event using them all, a sequence point and the end marker. */
static void seed_decodable(nb_t *s)
{
    nb_t blk = {0}, rec = {0}, f = {0};
    nb_header(s, 4);
    nb_block_header(&blk, 1);
    nb_meta_head(&rec, 1, "P", 1, "E", 0, 0, 4);
    nb_u32(&rec, 3);
    nb_u32(&rec, 9);
    nb_utf16(&rec, "N");
    nb_u32(&rec, 18);
    nb_utf16(&rec, "S");
    nb_u32(&rec, 1);
    nb_u32(&rec, 1);
    nb_u32(&rec, 17);
    nb_utf16(&rec, "G");
    nb_utf16(&rec, "T");
    nb_utf16(&f, "A");
    nb_u32(&f, 19);
    nb_u32(&f, 7);
    nb_u32(&rec, 4 + 4 + 4 + (uint32_t)f.n);
    nb_u8(&rec, 2);
    nb_u32(&rec, 1);
    nb_u32(&rec, 4 + (uint32_t)f.n);
    nb_put(&rec, f.b, f.n);
    nb_u8(&blk, 128);
    nb_varint(&blk, 0);
    nb_varint(&blk, rec.n);
    nb_put(&blk, rec.b, rec.n);
    nb_block(s, "MetadataBlock", &blk);
    blk.n = 0;
    nb_u32(&blk, 1);
    nb_u32(&blk, 1);
    nb_u32(&blk, 8);
    nb_u64(&blk, 0x1234);
    nb_block(s, "StackBlock", &blk);
    blk.n = 0;
    f.n = 0;
    nb_u16(&f, 2);
    nb_u16(&f, 5);
    nb_u16(&f, 6);
    nb_block_header(&blk, 1);
    nb_event_full(&blk, 1, 0, 7, 1, 10, &f);
    nb_block(s, "EventBlock", &blk);
    blk.n = 0;
    nb_u64(&blk, 20);
    nb_u32(&blk, 1);
    nb_u64(&blk, 7);
    nb_u32(&blk, 1);
    nb_block(s, "SPBlock", &blk);
    nb_u8(s, 0x01);
    nb_free(&blk);
    nb_free(&rec);
    nb_free(&f);
}

TEST(fuzz_smoke_nettrace_decoder_survives_mutated_streams)
{
    nb_t s = {0};
    seed_decodable(&s);
    mutate_and_run(s.b, s.n, 20000, 0x7e1a5eedu);
    nb_free(&s);
}

/* Walks every described runtime event over random payloads, mostly zero bytes so that strings
 * end and counts stay small enough to reach the fields after them. */
static void walk_random(const char *provider, const clra__rt_event_t *e, uint32_t *state)
{
    uint8_t payload[160];
    clra_nettrace_metadata_t m = ne_meta(provider, e->id, e->version);
    for (int i = 0; i < 64; i++) {
        size_t n = next_random(state) % sizeof payload;
        for (size_t k = 0; k < n; k++)
            payload[k] = next_random(state) % 2 ? 0 : (uint8_t)next_random(state);
        m.version = e->version + (uint32_t)(i % 3 == 2);
        size_t used = 0;
        int rc = clra_runtime_event_walk(&m, payload, n, i % 2 ? 4 : 8, NULL, NULL, &used, NULL);
        ASSERT_MSG(used <= n && (rc == 0 || rc == CLRA_EPROTO), "%s: rc %d, %zu of %zu", e->name,
                   rc, used, n);
    }
}

TEST(fuzz_smoke_runtime_event_layouts_survive_random_and_mutated_payloads)
{
    uint32_t state = 0x5eed0026u;
    size_t node = 0;
    for (size_t i = 0; i < clra__rt_count(); i++) {
        const char *provider;
        const clra__rt_event_t *e = clra__rt_at(i, &provider);
        walk_random(provider, e, &state);
        if (strcmp(e->name, "GCBulkNode") == 0)
            node = i;
    }
    /* a GCBulkNode batch of two through the fuzz entry (pointer size 8): header, two nodes */
    uint8_t seed[3 + 10 + 64] = {0, (uint8_t)node, (uint8_t)(node >> 8), 0, 0, 0, 0, 2};
    for (size_t k = 13; k < sizeof seed; k++)
        seed[k] = (uint8_t)k;
    mutate_and_run(seed, sizeof seed, 20000, 0x0b17c0deu);
}

/* The heap snapshot's readers (fuzz_heap): a GCBulkNode batch of two objects and a BulkType
 * batch of one generic type, each mutated; the stream seeds above reach its decoder path. */
TEST(fuzz_smoke_heap_snapshot_survives_mutated_batches)
{
    nb_t node = {0}, type = {0};
    nb_u8(&node, 0); /* pointer size 8, GCBulkNode */
    nb_u8(&node, 0);
    nb_u32(&node, 0);
    nb_u32(&node, 2);
    nb_u16(&node, 0);
    for (uint64_t i = 0; i < 2; i++) {
        nb_u64(&node, 0x7f0000001000ull + 32 * i);
        nb_u64(&node, 32);
        nb_u64(&node, 0x7f0000400000ull);
        nb_u64(&node, i);
    }
    nb_u8(&type, 2); /* BulkType */
    nb_u8(&type, 0);
    nb_u32(&type, 1);
    nb_u16(&type, 0);
    nb_u64(&type, 0x7f0000400000ull);
    nb_u64(&type, 0x7f0000500000ull);
    nb_u32(&type, 0x02000004);
    nb_u32(&type, 0);
    nb_u8(&type, 18);
    nb_utf16(&type, "System.Collections.Generic.List`1[ClrAttach.Sample.HeapItem]");
    nb_u32(&type, 1);
    nb_u64(&type, 0x7f0000600000ull);
    mutate_and_run(node.b, node.n, 20000, 0x4ea90001u);
    mutate_and_run(type.b, type.n, 20000, 0x4ea90002u);
    nb_free(&node);
    nb_free(&type);
}

/* One mode over the seed of runtime events into a profile; the run is pe_free'd by the caller. */
static void events_profile(const char *mode, const nb_t *s, pe_run_t *r, profile_t *p)
{
    memset(r, 0, sizeof *r);
    r->mode = pe_mode_find(mode);
    ASSERT(r->mode && r->mode->plan(r, 10) == 0);
    profile_init(p);
    ASSERT_MSG(pe_decode_buffer(r, s->b, s->n) == 0, "the seed should decode whole");
    ASSERT(pe_resolve(r, p) == 0);
}

/* The leaf-first frame names of the profile's first stack, joined by ';'. */
static const char *first_stack(const profile_t *p)
{
    static char out[256];
    out[0] = 0;
    for (uint32_t k = 0; p->nstacks && k < p->stacks[0].len; k++)
        snprintf(out + strlen(out), sizeof out - strlen(out), "%s%s", k ? ";" : "",
                 p->frames[p->arena[p->stacks[0].off + k]]);
    return out;
}

TEST(profile_events_modes_read_the_runtime_events_of_a_built_stream)
{
    nb_t s = {0};
    pe_run_t r;
    profile_t p;
    nh_runtime_events(&s);
    events_profile("lock", &s, &r, &p); /* 990 ticks of a 1 MHz clock; thread 8's stop unpaired */
    ASSERT_EQ(r.events, 1);
    ASSERT_EQ(r.unpaired, 1);
    ASSERT_EQ(profile_total_weight(&p), 990000);
    ASSERT_STREQ(first_stack(&p), "App.Work;App.Work;0x2000");
    pe_free(&r), profile_free(&p);
    events_profile("wait", &s, &r, &p);
    ASSERT_EQ(profile_total_weight(&p), 500000);
    pe_free(&r), profile_free(&p);
    events_profile("exception", &s, &r, &p);
    ASSERT_EQ(profile_total_weight(&p), 1);
    ASSERT_STREQ(first_stack(&p), "System.Exception;App.Work;App.Work;0x2000");
    pe_free(&r), profile_free(&p);
    events_profile("alloc", &s, &r, &p); /* the tick as it is, the sample scaled up */
    ASSERT_EQ(r.events, 2);
    ASSERT_STREQ(first_stack(&p), "System.Byte[];App.Work;App.Work;0x2000");
    ASSERT_EQ(p.stacks[0].weight, 100000);
    /* 1024 / (1 - (1 - 1/102400)^1024): 102,912 bytes, to the byte */
    ASSERT_MSG(p.nstacks == 2 && p.stacks[1].weight == 102912, "the sample weighs %llu",
               p.nstacks == 2 ? (unsigned long long)p.stacks[1].weight : 0ULL);
    pe_free(&r), profile_free(&p);
    mutate_and_run(s.b, s.n, 8000, 0x26a110cu);
    nb_free(&s);
}
