/* The layouts of the runtime's own events (src/clrattach/proto/runtime_events*.c) on payloads
 * built here byte by byte from the manifest's templates (ClrEtwAll.man): each family's
 * events read by name, every AllocationTick version, pointers of 4 and 8 bytes, counted arrays
 * (nested too), payloads cut short, counts larger than the bytes, newer versions' extra bytes,
 * and the tables' own consistency. */
#define _GNU_SOURCE
#include "proto/runtime_events.h"
#include "test.h"

#include "clrattach.h"
#include "nettrace_event.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

typedef struct buf {
    uint8_t b[8192];
    size_t n;
} buf_t;

/* n little-endian bytes of v, as the runtime writes every integer. */
static void put(buf_t *p, uint64_t v, size_t size)
{
    for (size_t i = 0; i < size; i++)
        p->b[p->n++] = (uint8_t)(v >> (8 * i));
}

/* A NUL-terminated UTF-16 string (ASCII here). */
static void put_str(buf_t *p, const char *ascii)
{
    for (; *ascii; ascii++)
        put(p, (uint8_t)*ascii, 2);
    put(p, 0, 2);
}

typedef struct seen {
    char s[8192];
    size_t n;
} seen_t;

/* Logs each value as " name=value", groups as " name{ ... }" (elements unnamed). */
static int log_value(void *ctx, const clra_nettrace_value_t *v)
{
    seen_t *l = ctx;
    char text[600];
    if (v->kind == CLRA_NETTRACE_END)
        snprintf(text, sizeof text, " }");
    else if (v->kind == CLRA_NETTRACE_BEGIN)
        snprintf(text, sizeof text, " %s{", v->name);
    else {
        char value[512];
        clra_nettrace_value_format(v, value, sizeof value);
        snprintf(text, sizeof text, " %s=%s", v->name, value);
    }
    size_t k = strlen(text);
    if (l->n + k < sizeof l->s) {
        memcpy(l->s + l->n, text, k + 1);
        l->n += k;
    }
    return 0;
}

#define RT "Microsoft-Windows-DotNETRuntime"

/* Walks p as (provider, id, version) with pointer size ptr; the log, rc, used and detail. */
static int walk(const char *provider, uint32_t id, uint32_t version, const buf_t *p,
                unsigned ptr, seen_t *l, size_t *used, clra_status_t *st)
{
    clra_nettrace_metadata_t m = ne_meta(provider, id, version);
    memset(l, 0, sizeof *l);
    return clra_runtime_event_walk(&m, p->b, p->n, ptr, log_value, l, used, st);
}

/* GCStart V2 and GCHeapStats V2, every field by name. */
TEST(gc_start_and_heap_stats_read_by_name)
{
    buf_t p = {{0}, 0};
    seen_t l;
    size_t used;
    clra_status_t st;
    put(&p, 7, 4), put(&p, 2, 4), put(&p, 1, 4), put(&p, 0, 4), put(&p, 3, 2);
    put(&p, 0x1122334455667788ull, 8);
    ASSERT_EQ(walk(RT, 1, 2, &p, 8, &l, &used, &st), 0);
    ASSERT_STREQ(l.s, " Count=7 Depth=2 Reason=1 Type=0 ClrInstanceID=3 "
                      "ClientSequenceNumber=1234605616436508552");
    ASSERT_EQ(used, p.n);
    clra_nettrace_metadata_t m = ne_meta(RT, 1, 2);
    ASSERT_STREQ(clra_runtime_event_name(&m), "GCStart");
    p.n = 0;
    for (int i = 0; i < 10; i++)
        put(&p, 1000u + (unsigned)i, 8);
    put(&p, 5, 4), put(&p, 6, 4), put(&p, 9, 4), put(&p, 0, 2), put(&p, 4444, 8), put(&p, 0, 8);
    ASSERT_EQ(walk(RT, 4, 2, &p, 8, &l, &used, &st), 0);
    ASSERT_CONTAINS(l.s, " GenerationSize0=1000 TotalPromotedSize0=1001 ");
    ASSERT_CONTAINS(l.s, " PinnedObjectCount=5 SinkBlockCount=6 GCHandleCount=9 "
                         "ClrInstanceID=0 GenerationSize4=4444 TotalPromotedSize4=0");
}

/* AllocationTick V0-V4: each version's fields, the pointers at the trace's size. */
TEST(allocation_tick_every_version_and_pointer_size)
{
    static const char *const want[5] = {
        " AllocationAmount=100000 AllocationKind=1",
        " AllocationAmount=100000 AllocationKind=1 ClrInstanceID=9",
        " AllocationAmount=100000 AllocationKind=1 ClrInstanceID=9 AllocationAmount64=100000 "
        "TypeID=4096 TypeName=Ns.T HeapIndex=2",
        " AllocationAmount=100000 AllocationKind=1 ClrInstanceID=9 AllocationAmount64=100000 "
        "TypeID=4096 TypeName=Ns.T HeapIndex=2 Address=8192",
        " AllocationAmount=100000 AllocationKind=1 ClrInstanceID=9 AllocationAmount64=100000 "
        "TypeID=4096 TypeName=Ns.T HeapIndex=2 Address=8192 ObjectSize=24"};
    for (unsigned ptr = 4; ptr <= 8; ptr += 4)
        for (uint32_t v = 0; v <= 4; v++) {
            buf_t p = {{0}, 0};
            seen_t l;
            size_t used;
            put(&p, 100000, 4), put(&p, 1, 4);
            if (v >= 1)
                put(&p, 9, 2);
            if (v >= 2)
                put(&p, 100000, 8), put(&p, 4096, ptr), put_str(&p, "Ns.T"), put(&p, 2, 4);
            if (v >= 3)
                put(&p, 8192, ptr);
            if (v >= 4)
                put(&p, 24, 8);
            ASSERT_EQ(walk(RT, 10, v, &p, ptr, &l, &used, NULL), 0);
            ASSERT_STREQ(l.s, want[v]);
            ASSERT_EQ(used, p.n);
        }
}

/* .NET 10's sampled allocations, contention V2 and the waits of .NET 9. */
TEST(allocation_sampled_contention_and_waits)
{
    buf_t p = {{0}, 0};
    seen_t l;
    put(&p, 0, 4), put(&p, 0, 2), put(&p, 0xabc, 8), put_str(&p, "System.String"),
        put(&p, 0xdef, 8), put(&p, 32, 8), put(&p, 77, 8);
    ASSERT_EQ(walk(RT, 303, 0, &p, 8, &l, NULL, NULL), 0);
    ASSERT_STREQ(l.s, " AllocationKind=0 ClrInstanceID=0 TypeID=2748 TypeName=System.String "
                      "Address=3567 ObjectSize=32 SampledByteOffset=77");
    p.n = 0;
    put(&p, 0, 1), put(&p, 0, 2), put(&p, 0x10, 8), put(&p, 0x20, 8), put(&p, 4242, 8);
    ASSERT_EQ(walk(RT, 81, 2, &p, 8, &l, NULL, NULL), 0);
    ASSERT_STREQ(l.s, " ContentionFlags=0 ClrInstanceID=0 LockID=16 AssociatedObjectID=32 "
                      "LockOwnerThreadID=4242");
    p.n = 0;
    double ns = 1500.5;
    uint64_t bits;
    memcpy(&bits, &ns, 8);
    put(&p, 0, 1), put(&p, 0, 2), put(&p, bits, 8);
    ASSERT_EQ(walk(RT, 91, 1, &p, 8, &l, NULL, NULL), 0);
    ASSERT_STREQ(l.s, " ContentionFlags=0 ClrInstanceID=0 DurationNs=1500.5");
    p.n = 0;
    put(&p, 1, 1), put(&p, 0x30, 8), put(&p, 0, 2);
    ASSERT_EQ(walk(RT, 301, 0, &p, 8, &l, NULL, NULL), 0);
    ASSERT_STREQ(l.s, " WaitSource=1 AssociatedObjectID=48 ClrInstanceID=0");
}

TEST(exception_and_method_verbose_strings)
{
    buf_t p = {{0}, 0};
    seen_t l;
    put_str(&p, "System.InvalidOperationException"), put_str(&p, "boom"), put(&p, 0x1234, 8),
        put(&p, 0x80131509u, 4), put(&p, 16, 2), put(&p, 0, 2);
    ASSERT_EQ(walk(RT, 80, 1, &p, 8, &l, NULL, NULL), 0);
    ASSERT_STREQ(l.s, " ExceptionType=System.InvalidOperationException ExceptionMessage=boom "
                      "ExceptionEIP=4660 ExceptionHRESULT=2148734217 ExceptionFlags=16 "
                      "ClrInstanceID=0");
    p.n = 0;
    put(&p, 1, 8), put(&p, 2, 8), put(&p, 3, 8), put(&p, 40, 4), put(&p, 0x06000001, 4),
        put(&p, 0x109, 4), put_str(&p, "Ns.C"), put_str(&p, "M"), put_str(&p, "void ()"),
        put(&p, 0, 2), put(&p, 0, 8);
    ASSERT_EQ(walk("Microsoft-Windows-DotNETRuntimeRundown", 144, 2, &p, 8, &l, NULL, NULL), 0);
    ASSERT_STREQ(l.s, " MethodID=1 ModuleID=2 MethodStartAddress=3 MethodSize=40 "
                      "MethodToken=100663297 MethodFlags=265 MethodNamespace=Ns.C MethodName=M "
                      "MethodSignature=void () ClrInstanceID=0 ReJITID=0");
}

/* Arrays counted by an earlier field: IL maps (two arrays, one count), bulk nodes (structs),
 * bulk types (an array in each element). */
TEST(counted_arrays_flat_structs_and_nested)
{
    buf_t p = {{0}, 0};
    seen_t l;
    put(&p, 5, 8), put(&p, 0, 8), put(&p, 0, 1), put(&p, 2, 2);
    put(&p, 0, 4), put(&p, 7, 4), put(&p, 0, 4), put(&p, 19, 4), put(&p, 0, 2);
    ASSERT_EQ(walk(RT, 190, 0, &p, 8, &l, NULL, NULL), 0);
    ASSERT_STREQ(l.s, " MethodID=5 ReJITID=0 MethodExtent=0 CountOfMapEntries=2 ILOffsets{ =0 =7 }"
                      " NativeOffsets{ =0 =19 } ClrInstanceID=0");
    p.n = 0;
    put(&p, 0, 4), put(&p, 2, 4), put(&p, 0, 2);
    put(&p, 0x100, 8), put(&p, 24, 8), put(&p, 0x9, 8), put(&p, 1, 8);
    put(&p, 0x200, 8), put(&p, 32, 8), put(&p, 0xa, 8), put(&p, 0, 8);
    ASSERT_EQ(walk(RT, 18, 0, &p, 8, &l, NULL, NULL), 0);
    ASSERT_STREQ(l.s, " Index=0 Count=2 ClrInstanceID=0 Values{ { Address=256 Size=24 TypeID=9 "
                      "EdgeCount=1 } { Address=512 Size=32 TypeID=10 EdgeCount=0 } }");
    p.n = 0;
    put(&p, 1, 4), put(&p, 0, 2);
    put(&p, 0x9, 8), put(&p, 0x77, 8), put(&p, 0, 4), put(&p, 0, 4), put(&p, 0x15, 1),
        put_str(&p, "List`1"), put(&p, 2, 4), put(&p, 0xa, 8), put(&p, 0xb, 8);
    ASSERT_EQ(walk(RT, 15, 0, &p, 8, &l, NULL, NULL), 0);
    ASSERT_STREQ(l.s, " Count=1 ClrInstanceID=0 Values{ { TypeID=9 ModuleID=119 TypeNameID=0 "
                      "Flags=0 CorElementType=21 TypeName=List`1 TypeParameterCount=2 "
                      "TypeParameters{ =10 =11 } } }");
}

/* A payload cut anywhere hands out what fits, closes what it opened, and says where. */
TEST(truncated_payloads_decode_what_fits_and_say_where)
{
    buf_t p = {{0}, 0};
    seen_t l;
    clra_status_t st;
    size_t used;
    put(&p, 0, 4), put(&p, 2, 4), put(&p, 0, 2);
    put(&p, 0x100, 8), put(&p, 24, 8), put(&p, 0x9, 8), put(&p, 1, 8);
    put(&p, 0x200, 8), put(&p, 32, 8), put(&p, 0xa, 8), put(&p, 0, 8);
    size_t whole = p.n;
    for (size_t cut = 0; cut < whole; cut++) {
        p.n = cut;
        int rc = walk(RT, 18, 0, &p, 8, &l, &used, &st);
        ASSERT_MSG(rc == CLRA_EPROTO, "cut at %zu: %d", cut, rc);
        ASSERT(used <= cut);
        ASSERT_CONTAINS(st.detail, "GCBulkNode");
        size_t open = 0, close = 0;
        for (const char *s = l.s; *s; s++)
            open += *s == '{', close += *s == '}';
        ASSERT_MSG(open == close, "cut at %zu: %s", cut, l.s);
    }
    p.n = 10 + 8 + 4; /* the first node's Address and half its Size */
    ASSERT_EQ(walk(RT, 18, 0, &p, 8, &l, &used, &st), CLRA_EPROTO);
    ASSERT_STREQ(l.s, " Index=0 Count=2 ClrInstanceID=0 Values{ { Address=256 } }");
    ASSERT_CONTAINS(st.detail, "field 'Size' at payload offset 18 of 22");
    ASSERT_CONTAINS(st.detail, "(in 'Values', an array count larger than the bytes left)");
    p.n = 0;
    put(&p, 'A', 2), put(&p, 'B', 2); /* ExceptionType without its NUL */
    ASSERT_EQ(walk(RT, 80, 1, &p, 8, &l, &used, &st), CLRA_EPROTO);
    ASSERT_STREQ(l.s, "");
    ASSERT_CONTAINS(st.detail, "ends inside the string");
}

/* A count larger than the bytes left: the elements there are read, then it fails naming the
 * array, never reading past the payload. */
TEST(oversized_counts_fail_after_the_elements_there_without_reading_past_the_payload)
{
    buf_t p = {{0}, 0};
    seen_t l;
    clra_status_t st;
    size_t used;
    put(&p, 0, 4), put(&p, 0xffffffffu, 4), put(&p, 0, 2), put(&p, 0x100, 8), put(&p, 1, 4);
    ASSERT_EQ(walk(RT, 19, 0, &p, 8, &l, &used, &st), CLRA_EPROTO);
    ASSERT_STREQ(l.s, " Index=0 Count=4294967295 ClrInstanceID=0 Values{ { Value=256 "
                      "ReferencingFieldID=1 } { } }");
    ASSERT_EQ(used, p.n);
    ASSERT_CONTAINS(st.detail, "(in 'Values', an array count larger than the bytes left)");
    p.n = 0;
    put(&p, 5, 8), put(&p, 0, 8), put(&p, 0, 1), put(&p, 0xffff, 2), put(&p, 0, 4);
    ASSERT_EQ(walk(RT, 190, 0, &p, 8, &l, NULL, &st), CLRA_EPROTO);
    ASSERT_CONTAINS(st.detail, "'ILOffsets'");
}

/* A newer version than the tables know is read by the newest older layout, the rest counted;
 * an unknown event or provider has no layout. */
TEST(newer_versions_read_by_the_newest_layout_and_unknown_events_refused)
{
    buf_t p = {{0}, 0};
    seen_t l;
    size_t used;
    clra_status_t st;
    put(&p, 100, 4), put(&p, 1, 4), put(&p, 0, 2), put(&p, 100, 8), put(&p, 1, 8),
        put_str(&p, "T"), put(&p, 0, 4), put(&p, 2, 8), put(&p, 24, 8);
    size_t v4 = p.n;
    put(&p, 0xdeadbeef, 4);
    ASSERT_EQ(walk(RT, 10, 9, &p, 8, &l, &used, &st), 0);
    ASSERT_EQ(used, v4);
    ASSERT_CONTAINS(l.s, "ObjectSize=24");
    clra_nettrace_metadata_t m = ne_meta(RT, 10, 9);
    ASSERT_STREQ(clra_runtime_event_name(&m), "GCAllocationTick");
    ASSERT_EQ(walk(RT, 9999, 0, &p, 8, &l, &used, &st), CLRA_EINVAL);
    ASSERT_CONTAINS(st.detail, "no known layout");
    ASSERT_EQ(walk("Some-Other-Provider", 10, 4, &p, 8, &l, &used, &st), CLRA_EINVAL);
    m = ne_meta("Some-Other-Provider", 10, 4);
    ASSERT_EQ(clra_runtime_event_name(&m), NULL);
    m = ne_meta(RT, 81, 0); /* ContentionStart V0: no layout known, left as bytes */
    ASSERT_EQ(clra_runtime_event_name(&m), NULL);
}

/* Every field list: within the walker's 32, names unique, arrays counted by an earlier
 * integer field, elements of at least one byte. */
static void check_list(const clra__rt_field_t *f, size_t n, const char *event)
{
    ASSERT_MSG(n <= 32, "%s has %zu fields", event, n);
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < i; j++)
            ASSERT_MSG(strcmp(f[i].shown.name, f[j].shown.name) != 0, "%s: '%s' twice", event,
                       f[i].shown.name);
        if (f[i].kind != CLRA__RT_ARRAY)
            continue;
        uint8_t c = f[i].count_from;
        ASSERT_MSG(c < i && f[c].kind >= CLRA__RT_U8 && f[c].kind <= CLRA__RT_U64,
                   "%s: array '%s' counted by field %u", event, f[i].shown.name, c);
        ASSERT_MSG(f[i].elem_count > 0 && f[i].elem[0].kind != CLRA__RT_ARRAY,
                   "%s: '%s' has elements of no fixed size", event, f[i].shown.name);
        check_list(f[i].elem, f[i].elem_count, event);
    }
}

TEST(the_tables_are_consistent)
{
    const clra__rt_table_t *const tables[] = {&clra__rt_gc, &clra__rt_heap, &clra__rt_threads,
                                              &clra__rt_loader, &clra__rt_rundown};
    size_t events = 0;
    for (size_t t = 0; t < sizeof tables / sizeof tables[0]; t++)
        for (size_t i = 0; i < tables[t]->count; i++) {
            const clra__rt_event_t *e = &tables[t]->events[i];
            check_list(e->fields, e->count, e->name);
            ASSERT_MSG(clra__rt_find(tables[t]->provider, e->id, e->version) == e,
                       "%s %u v%u is described twice", e->name, e->id, e->version);
            events++;
        }
    ASSERT(events > 100);
}
