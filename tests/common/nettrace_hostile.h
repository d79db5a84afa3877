/* nettrace_hostile.h - NetTrace streams shaped to break a decoder's bounds (issue 29), built
 * with nettrace_build.h so tests, fuzz seeds and bench/hostile_trace.c make them at any size
 * instead of committing large binaries. Test code only: static functions in a header. */
#ifndef CLRA_NETTRACE_HOSTILE_H
#define CLRA_NETTRACE_HOSTILE_H

#include "nettrace_build.h"

#include <stdio.h>

#define NH_SAMPLER "Microsoft-DotNETCore-SampleProfiler"

/* One V2 named field (uint32 size, name, type bytes) appended to list. */
static NB_UNUSED void nh_v2_field(nb_t *list, const char *name, const nb_t *type)
{
    nb_t f = {0};
    nb_utf16(&f, name);
    nb_put(&f, type->b, type->n);
    nb_u32(list, (uint32_t)f.n + 4);
    nb_put(list, f.b, f.n);
    nb_free(&f);
}

/* A metadata record (id, provider P, event 1 "EventCounters", a name counters walks) whose V2
 * parameters are list (count fields). */
static NB_UNUSED void nh_meta_v2(nb_t *rec, uint32_t id, uint32_t count, const nb_t *list)
{
    nb_meta_head(rec, id, "P", 1, "EventCounters", 0, 0, 4);
    nb_u32(rec, 0); /* an empty V1 list: the V2 tag holds the fields */
    nb_u32(rec, 4 + (uint32_t)list->n);
    nb_u8(rec, 2);
    nb_u32(rec, count);
    nb_put(rec, list->b, list->n);
}

/* One record as a compressed metadata event. */
static NB_UNUSED void nh_meta_event(nb_t *blk, const nb_t *rec)
{
    nb_u8(blk, 128);
    nb_varint(blk, 0);
    nb_varint(blk, rec->n);
    nb_put(blk, rec->b, rec->n);
}

/* Metadata id 1: one field "A", an array of arrays of empty structs; then events events whose
 * payload claims outer arrays of inner empty structs each: outer x inner values from
 * 2 + 2 x outer bytes (2^31 from 64 KB before arrays had to fit). */
static NB_UNUSED void nh_empty_struct_arrays(nb_t *s, uint16_t outer, uint16_t inner,
                                             unsigned events)
{
    nb_t blk = {0}, rec = {0}, type = {0}, list = {0}, pay = {0};
    nb_header(s, 4);
    nb_u32(&type, 19); /* array of */
    nb_u32(&type, 19); /* array of */
    nb_u32(&type, 1);  /* struct */
    nb_u32(&type, 0);  /* of no members */
    nh_v2_field(&list, "A", &type);
    nh_meta_v2(&rec, 1, 1, &list);
    nb_block_header(&blk, 1);
    nh_meta_event(&blk, &rec);
    nb_block(s, "MetadataBlock", &blk);
    nb_u16(&pay, outer);
    for (unsigned i = 0; i < outer; i++)
        nb_u16(&pay, inner);
    blk.n = 0;
    nb_block_header(&blk, 1);
    for (unsigned e = 0; e < events; e++)
        nb_event_full(&blk, 1, 0, 7, 0, 1, &pay);
    nb_block(s, "EventBlock", &blk);
    nb_u8(s, 0x01);
    nb_free(&blk), nb_free(&rec), nb_free(&type), nb_free(&list), nb_free(&pay);
}

/* records metadata records (ids 1..records, a block each) of fields INT32 fields (a V1 list). */
static NB_UNUSED void nh_many_fields(nb_t *s, uint32_t fields, uint32_t records)
{
    nb_t blk = {0}, rec = {0};
    nb_header(s, 4);
    for (uint32_t r = 1; r <= records; r++) {
        rec.n = 0;
        nb_meta_head(&rec, r, "P", r, "E", 0, 0, 4);
        nb_u32(&rec, fields);
        for (uint32_t i = 0; i < fields; i++) {
            nb_u32(&rec, 9);
            nb_u16(&rec, 0); /* an empty name */
        }
        blk.n = 0;
        nb_block_header(&blk, 1);
        nh_meta_event(&blk, &rec);
        nb_block(s, "MetadataBlock", &blk);
    }
    nb_u8(s, 0x01);
    nb_free(&blk), nb_free(&rec);
}

/* records metadata records of about bytes each (ids 1..records; the bulk an unknown tag the
 * reader skips but holds), in blocks of at most 32 MiB. */
static NB_UNUSED void nh_much_metadata(nb_t *s, uint32_t records, uint32_t bytes)
{
    nb_t blk = {0}, rec = {0};
    nb_header(s, 4);
    nb_block_header(&blk, 1);
    for (uint32_t i = 1; i <= records; i++) {
        rec.n = 0;
        nb_meta_head(&rec, i, "P", i, "E", 0, 0, 4);
        nb_u32(&rec, 0);
        nb_u32(&rec, bytes);
        nb_u8(&rec, 9); /* a tag kind this reader does not know */
        for (uint32_t k = 0; k < bytes; k++)
            nb_u8(&rec, 0);
        nh_meta_event(&blk, &rec);
        if (blk.n > (32u << 20) || i == records) {
            nb_block(s, "MetadataBlock", &blk);
            blk.n = 0;
            nb_block_header(&blk, 1);
        }
    }
    nb_u8(s, 0x01);
    nb_free(&blk), nb_free(&rec);
}

/* The SampleProfiler's metadata (id 1, event 0, no fields) in its own block. */
static NB_UNUSED void nh_sampler_meta(nb_t *s)
{
    nb_t blk = {0}, rec = {0};
    nb_meta_head(&rec, 1, NH_SAMPLER, 0, "ThreadSample", 0, 0, 4);
    nb_u32(&rec, 0);
    nb_block_header(&blk, 1);
    nh_meta_event(&blk, &rec);
    nb_block(s, "MetadataBlock", &blk);
    nb_free(&blk), nb_free(&rec);
}

/* samples ThreadSample events (two bytes each after the first) all naming one stack of depth
 * frames (addresses 0x1000, 0x1010, ...), in blocks of at most 1 MiB. */
static NB_UNUSED void nh_one_deep_stack(nb_t *s, unsigned samples, unsigned depth)
{
    nb_t blk = {0}, pay = {0};
    nb_header(s, 4);
    nh_sampler_meta(s);
    nb_u32(&blk, 1);
    nb_u32(&blk, 1);
    nb_u32(&blk, depth * 8);
    for (unsigned i = 0; i < depth; i++)
        nb_u64(&blk, 0x1000 + 16ull * i);
    nb_block(s, "StackBlock", &blk);
    blk.n = 0;
    nb_block_header(&blk, 1);
    nb_event_full(&blk, 1, 0, 7, 1, 1, &pay);
    for (unsigned i = 1; i < samples; i++) {
        nb_u8(&blk, 0); /* everything as before */
        nb_varint(&blk, 1); /* timestamp delta */
        if (blk.n > (1u << 20) && i + 1 < samples) {
            nb_block(s, "EventBlock", &blk);
            blk.n = 0;
            nb_block_header(&blk, 1);
            nb_event_full(&blk, 1, 0, 7, 1, 1, &pay);
            i++;
        }
    }
    nb_block(s, "EventBlock", &blk);
    nb_u8(s, 0x01);
    nb_free(&blk), nb_free(&pay);
}

/* stacks one-frame stacks with falling ids (a StackBlock each), then a sample naming each:
 * a scan for every id not in rising order made this quadratic. */
static NB_UNUSED void nh_falling_stack_ids(nb_t *s, uint32_t stacks)
{
    nb_t blk = {0};
    nb_header(s, 4);
    nh_sampler_meta(s);
    for (uint32_t i = 0; i < stacks; i++) {
        blk.n = 0;
        nb_u32(&blk, stacks - i);
        nb_u32(&blk, 1);
        nb_u32(&blk, 8);
        nb_u64(&blk, 0x1000 + 16ull * (stacks - i));
        nb_block(s, "StackBlock", &blk);
    }
    blk.n = 0;
    nb_block_header(&blk, 1);
    for (uint32_t i = 0; i < stacks; i++) {
        nb_u8(&blk, 1 | 8); /* the metadata id and a new stack id */
        nb_varint(&blk, 1);
        nb_varint(&blk, i + 1);
        nb_varint(&blk, 1);
        if (blk.n > (1u << 20) && i + 1 < stacks) {
            nb_block(s, "EventBlock", &blk);
            blk.n = 0;
            nb_block_header(&blk, 1);
        }
    }
    nb_block(s, "EventBlock", &blk);
    nb_u8(s, 0x01);
    nb_free(&blk);
}

/* A MethodLoadVerbose record (runtime provider, event 143, no fields) as metadata id 2. */
static NB_UNUSED void nh_method_meta(nb_t *s)
{
    nb_t blk = {0}, rec = {0};
    nb_meta_head(&rec, 2, "Microsoft-Windows-DotNETRuntime", 143, "MethodLoadVerbose", 0, 0, 4);
    nb_block_header(&blk, 1);
    nh_meta_event(&blk, &rec);
    nb_block(s, "MetadataBlock", &blk);
    nb_free(&blk), nb_free(&rec);
}

/* n MethodLoadVerbose events in a block: method i covers base + 256 i, 256 bytes. */
static NB_UNUSED void nh_methods(nb_t *s, unsigned n, uint64_t base)
{
    nb_t blk = {0}, pay = {0};
    char name[32];
    nb_block_header(&blk, 1);
    for (unsigned i = 0; i < n; i++) {
        pay.n = 0;
        nb_u64(&pay, i), nb_u64(&pay, 1), nb_u64(&pay, base + 256ull * i);
        nb_u32(&pay, 256), nb_u32(&pay, 0x06000000 + i), nb_u32(&pay, 0);
        snprintf(name, sizeof name, "Method%u", i);
        nb_utf16(&pay, "Bench.Code"), nb_utf16(&pay, name), nb_utf16(&pay, "void ()");
        nb_event_full(&blk, 2, 0, 1, 0, 1, &pay);
    }
    nb_block(s, "EventBlock", &blk);
    nb_free(&blk), nb_free(&pay);
}

/* Runtime-provider metadata record id for (event, version), no fields described (the runtime's
 * own metadata names none), in a block of its own. */
static NB_UNUSED void nh_runtime_meta(nb_t *s, uint32_t id, uint32_t event, uint32_t version)
{
    nb_t blk = {0}, rec = {0};
    nb_meta_head(&rec, id, "Microsoft-Windows-DotNETRuntime", event, "", 0, version, 5);
    nb_u32(&rec, 0);
    nb_block_header(&blk, 1);
    nh_meta_event(&blk, &rec);
    nb_block(s, "MetadataBlock", &blk);
    nb_free(&blk), nb_free(&rec);
}

/* What profile's event modes read (src/cli/profile/profile_events_*.c), on thread 7 and stack 1
 * (0x1000, 0x1010, 0x2000; a MethodLoadVerbose names 0x1000-0x10FF "App.Work"): a
 * ContentionStart and its ContentionStop 990 ticks (us) later, an ExceptionThrown
 * (System.Exception, "boom"), a GCAllocationTick of 100,000 bytes (System.Byte[]), an
 * AllocationSampled of 1,024 (System.Char[]), a WaitHandleWaitStart and its Stop 500 ticks
 * later, and a ContentionStop on thread 8 that no start precedes. */
static NB_UNUSED void nh_runtime_events(nb_t *s)
{
    static const uint32_t metas[][3] = {{1, 143, 1}, {2, 81, 2}, {3, 91, 1}, {4, 80, 1},
                                        {5, 10, 4}, {6, 303, 0}, {7, 301, 0}, {8, 302, 0}};
    nb_t blk = {0}, p = {0};
    nb_header(s, 4);
    for (size_t i = 0; i < sizeof metas / sizeof metas[0]; i++)
        nh_runtime_meta(s, metas[i][0], metas[i][1], metas[i][2]);
    nb_u32(&blk, 1), nb_u32(&blk, 1), nb_u32(&blk, 24);
    nb_u64(&blk, 0x1000), nb_u64(&blk, 0x1010), nb_u64(&blk, 0x2000);
    nb_block(s, "StackBlock", &blk);
    blk.n = 0;
    nb_block_header(&blk, 1);
    nb_u64(&p, 1), nb_u64(&p, 2), nb_u64(&p, 0x1000), nb_u32(&p, 0x100), nb_u32(&p, 0x06000001);
    nb_u32(&p, 0), nb_utf16(&p, "App"), nb_utf16(&p, "Work"), nb_utf16(&p, "void ()");
    nb_u16(&p, 0);
    nb_event_full(&blk, 1, 1, 7, 0, 1, &p);
    p.n = 0; /* ContentionStart V2 */
    nb_u8(&p, 0), nb_u16(&p, 0), nb_u64(&p, 0xAB), nb_u64(&p, 0xCD), nb_u64(&p, 9);
    nb_event_full(&blk, 2, 1, 7, 1, 10, &p);
    p.n = 0; /* ContentionStop V1 */
    nb_u8(&p, 0), nb_u16(&p, 0), nb_u64(&p, 0);
    nb_event_full(&blk, 3, 1, 7, 1, 990, &p);
    nb_event_full(&blk, 3, 1, 8, 1, 1, &p);
    p.n = 0; /* ExceptionThrown V1 */
    nb_utf16(&p, "System.Exception"), nb_utf16(&p, "boom"), nb_u64(&p, 0x1004);
    nb_u32(&p, 0x80131500), nb_u16(&p, 0), nb_u16(&p, 0);
    nb_event_full(&blk, 4, 1, 7, 1, 1, &p);
    p.n = 0; /* GCAllocationTick V4 */
    nb_u32(&p, 100000), nb_u32(&p, 0), nb_u16(&p, 0), nb_u64(&p, 100000), nb_u64(&p, 0x77);
    nb_utf16(&p, "System.Byte[]"), nb_u32(&p, 0), nb_u64(&p, 0x5000), nb_u64(&p, 1024);
    nb_event_full(&blk, 5, 1, 7, 1, 1, &p);
    p.n = 0; /* AllocationSampled */
    nb_u32(&p, 0), nb_u16(&p, 0), nb_u64(&p, 0x78), nb_utf16(&p, "System.Char[]");
    nb_u64(&p, 0x6000), nb_u64(&p, 1024), nb_u64(&p, 17);
    nb_event_full(&blk, 6, 1, 7, 1, 1, &p);
    p.n = 0; /* WaitHandleWaitStart, then Stop */
    nb_u8(&p, 1), nb_u64(&p, 0x99), nb_u16(&p, 0);
    nb_event_full(&blk, 7, 1, 7, 1, 1, &p);
    p.n = 0;
    nb_u16(&p, 0);
    nb_event_full(&blk, 8, 1, 7, 1, 500, &p);
    nb_block(s, "EventBlock", &blk);
    nb_u8(s, 0x01);
    nb_free(&blk), nb_free(&p);
}

#endif
