/* The signal walk's search of frame-pointer gaps (profilers/sampler/unwind_walk.c) on synthetic
 * stacks: the layout on-stack replacement leaves (measured with gdb on .NET 10: the OSR frame's
 * saved rbp is the one its tier-0 frame saved, so the chain skips the tier-0 frame's record and
 * with it the tier-0 method's caller), a plain chain that must come out unchanged, look-alikes
 * that must not be taken, the per-gap and per-walk bounds, stacks between guard pages that
 * fault on any read outside [lo, hi); and the naming-time rule (unwind_inserted.c) that keeps
 * an inserted frame only in the OSR pattern. */
#define _GNU_SOURCE
#include "test.h"
#include "unwind.h"
#include "unwind_tests.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Readable "code" outside every module's code range: no CFI, no prologue bytes (zeros), so
 * every step follows the frame pointer. Return addresses point into it. */
static const uint8_t code[64];
#define PC(i) ((uintptr_t)&code[i])

static uint64_t stack[8192] __attribute__((aligned(16)));
#define AT(i) ((uintptr_t)&stack[i])

/* Walks the synthetic stack from a leaf at code[0] with rbp at word fp_word, sp at word 0. */
static uint32_t walk(const uw_map_t *m, int fp_word, uint64_t *ips, uint64_t *mask, uint32_t max)
{
    uint32_t cut;
    uw_regs_t r = {PC(0), AT(0), AT(fp_word)};
    return uw_walk(m, r, AT(0), AT(8192), ips, mask, max, &cut);
}

/* A frame record at word i: saved rbp = word next (0: none), return address ra. */
static void record_at(int i, int next, uintptr_t ra)
{
    stack[i] = next ? AT(next) : 0, stack[i + 1] = ra;
}

/* Whether the mask has exactly the bits of want (bit i: ips[i] inserted). */
static int mask_is(const uint64_t *mask, uint64_t want)
{
    return mask[0] == want && mask[1] == 0;
}

/* The OSR layout: Burn [OSR] (leaf, rbp F) -> [F] = F' (Seventy's rbp), [F+8] = a pseudo
 * return address into Burn's tier-0 code; the tier-0 record {F', RA into Seventy} below F';
 * Seventy's frame at F' returns into Run. Only JIT code (outside every module) is searched. */
TEST(unwind_recovers_the_caller_an_osr_frame_skips_in_order)
{
    X64_ONLY();
    uw_map_t *m = uw_map_build();
    uint64_t ips[16], mask[UW_MASK_WORDS(128)] = {0};
    memset(stack, 0x11, sizeof stack); /* tier-0 locals: a filler no address equals */
    record_at(4, 20, PC(8));           /* OSR Burn: saved F', pseudo RA into tier-0 Burn */
    record_at(16, 20, PC(16));         /* the tier-0 record: F', RA into Seventy */
    stack[18] = 7, stack[19] = 9;      /* Seventy's locals */
    record_at(20, 30, PC(24));         /* Seventy's frame: RA into Run */
    record_at(30, 0, PC(32));          /* Run's frame: RA into the thread start */
    uint32_t n = walk(m, 4, ips, mask, 16);
    ASSERT_EQ(n, 5u);
    ASSERT_EQ(ips[1], (uint64_t)PC(8));
    ASSERT_EQ(ips[2], (uint64_t)PC(16));
    ASSERT_EQ(ips[3], (uint64_t)PC(24));
    ASSERT_EQ(ips[4], (uint64_t)PC(32));
    ASSERT_MSG(mask_is(mask, 1u << 2), "mask %llx, want bit 2 only", (unsigned long long)mask[0]);
    /* The same with the tier-0 frame big (300 words of locals): still found, from the top. */
    memset(stack, 0x11, sizeof stack);
    record_at(4, 320, PC(8));
    record_at(316, 320, PC(16));
    record_at(320, 0, PC(24));
    n = walk(m, 4, ips, mask, 16);
    ASSERT(n == 4 && ips[2] == PC(16) && ips[3] == PC(24) && mask_is(mask, 1u << 2));
    uw_map_free(m);
    /* The same code inside a module without unwind tables: its frame-pointer steps are a
     * native library's, and no gap of theirs is searched. */
    uw_map_t *one = calloc(1, sizeof *one + sizeof(uw_module_t));
    ASSERT(one != NULL);
    one->n = 1, one->mods[0].lo = PC(0), one->mods[0].hi = PC(64);
    n = walk(one, 4, ips, mask, 16);
    ASSERT(n == 3 && ips[1] == PC(8) && ips[2] == PC(24) && mask_is(mask, 0));
    free(one);
}

/* A chain where every frame's record is found by the frame pointer, the gaps holding
 * look-alikes: the next frame's address followed by a stack address, by a small number, or at
 * the very word after the callee's record followed by nothing plausible. */
TEST(unwind_leaves_a_plain_chain_unchanged_and_takes_no_look_alike)
{
    X64_ONLY();
    uw_map_t *m = uw_map_build();
    uint64_t ips[16], mask[UW_MASK_WORDS(128)] = {0};
    memset(stack, 0, sizeof stack);
    record_at(4, 12, PC(8));
    stack[8] = AT(12), stack[9] = AT(3); /* next frame's address, then a stack address */
    record_at(12, 24, PC(16));
    stack[16] = AT(24), stack[17] = 0x1234; /* then a number below 64 KiB */
    stack[20] = AT(24), stack[21] = AT(40); /* then a stack address above */
    record_at(24, 40, PC(24));
    record_at(40, 0, PC(32));
    uint32_t n = walk(m, 4, ips, mask, 16);
    ASSERT_EQ(n, 5u);
    ASSERT(ips[1] == PC(8) && ips[2] == PC(16) && ips[3] == PC(24) && ips[4] == PC(32));
    ASSERT_MSG(mask_is(mask, 0), "a plain chain got inserted frames: mask %llx",
               (unsigned long long)mask[0]);
    uw_map_free(m);
}

/* The record UW_SCAN_WORDS words below the top of a gap is the last one searched; one word
 * further down it is not. And a walk searches UW_SCAN_BUDGET words in all: of a chain of gaps
 * each needing the whole UW_SCAN_WORDS, only UW_SCAN_BUDGET / UW_SCAN_WORDS are found. */
TEST(unwind_gap_search_keeps_to_its_bounds)
{
    X64_ONLY();
    uw_map_t *m = uw_map_build();
    uint64_t ips[32], mask[UW_MASK_WORDS(128)] = {0};
    int top = 2 + 4 + UW_SCAN_WORDS + 16; /* the caller's frame, the gap's top */
    for (int further = 0; further < 2; further++) {
        memset(stack, 0, sizeof stack);
        record_at(2, top, PC(8));
        record_at(top - 2 - (UW_SCAN_WORDS - 1) - further, top, PC(16));
        record_at(top, 0, PC(24));
        uint32_t n = walk(m, 2, ips, mask, 32);
        test_note("record %d words below the top: %u frames", UW_SCAN_WORDS - 1 + further, n);
        if (further)
            ASSERT(n == 3 && ips[2] == PC(24) && mask_is(mask, 0));
        else
            ASSERT(n == 4 && ips[2] == PC(16) && mask_is(mask, 1u << 2));
    }
    int gaps = UW_SCAN_BUDGET / UW_SCAN_WORDS + 2, span = UW_SCAN_WORDS + 4, found = 0;
    ASSERT((gaps + 1) * span < 8192);
    memset(stack, 0, sizeof stack);
    for (int g = 0; g < gaps; g++) {
        int f = g * span, next = (g + 1) * span;
        record_at(f, next, PC(8));
        record_at(next - 2 - (UW_SCAN_WORDS - 1), next, PC(16));
    }
    record_at(gaps * span, 0, PC(24));
    uint32_t n = walk(m, 0, ips, mask, 32);
    for (uint32_t i = 0; i < n; i++)
        found += (mask[i / 64] >> (i % 64)) & 1;
    test_note("%d gaps of %d words: %d records found, %u frames", gaps, span, found, n);
    ASSERT_EQ(found, UW_SCAN_BUDGET / UW_SCAN_WORDS);
    ASSERT_EQ(n, (uint32_t)(1 + gaps + found + 1));
    uw_map_free(m);
}

/* A one-page stack between PROT_NONE pages: any read below lo or at hi and above faults the
 * test. Chains whose next frame is hi or beyond, and random stacks made of the addresses and
 * return addresses the search looks for, must walk without a fault. */
TEST(unwind_gap_search_never_reads_outside_the_stack)
{
    X64_ONLY();
    long page = sysconf(_SC_PAGESIZE);
    uint8_t *map =
        mmap(NULL, (size_t)page * 3, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ASSERT(map != MAP_FAILED);
    ASSERT(mprotect(map, (size_t)page, PROT_NONE) == 0);
    ASSERT(mprotect(map + 2 * page, (size_t)page, PROT_NONE) == 0);
    uintptr_t lo = (uintptr_t)map + (uintptr_t)page, hi = lo + (uintptr_t)page;
    uint64_t *w = (uint64_t *)lo, ips[64], mask[UW_MASK_WORDS(128)] = {0};
    size_t words = (size_t)page / 8;
    uint32_t cut;
    uw_map_t *m = uw_map_build();
    /* The next frame exactly at hi, then beyond it: the gap up to it is searched, no further. */
    uintptr_t nexts[] = {hi, hi - 8, hi + 8, hi + 4096, lo - 16};
    for (int k = 0; k < 5; k++) {
        memset(w, 0, (size_t)page);
        w[0] = nexts[k], w[1] = PC(8);
        w[words - 2] = nexts[k], w[words - 1] = PC(16);
        uw_regs_t r = {PC(0), lo, lo};
        ASSERT(uw_walk(m, r, lo, hi, ips, mask, 64, &cut) <= 4);
    }
    srand(31);
    long inserted = 0;
    for (int round = 0; round < 20000; round++) {
        for (size_t i = 0; i < words; i++) {
            int pick = rand() % 4;
            w[i] = pick == 0   ? lo + 8 * (uintptr_t)(rand() % (int)(words + 4)) - 16
                   : pick == 1 ? PC(rand() % 64)
                   : pick == 2 ? hi - 8 * (uintptr_t)(rand() % 4)
                               : (uintptr_t)rand();
        }
        uw_regs_t r = {PC(0), lo + 8 * (uintptr_t)(rand() % 16), w[rand() % (int)words]};
        uint32_t n = uw_walk(m, r, lo, hi, ips, mask, 64, &cut);
        ASSERT(n <= 64);
        for (uint32_t i = 0; i < n; i++)
            inserted += (mask[i / 64] >> (i % 64)) & 1;
    }
    test_note("20000 random stacks walked between guard pages, %ld frames inserted", inserted);
    ASSERT_MSG(inserted > 0, "the random stacks never exercised the gap search");
    uw_map_free(m);
    munmap(map, (size_t)page * 3);
}

enum { BURN = 10, SEVENTY = 11, RUN = 12, START = 13, UNKNOWN = 3 };

/* The naming-time rule on the frames of the OSR walk above and on its look-alikes. */
TEST(unwind_keeps_an_inserted_frame_only_where_osr_left_it)
{
    uint64_t mask[2] = {1u << 2, 0};
    /* OSR Burn, its pseudo RA into tier-0 Burn, Seventy (inserted), Run, start */
    uint32_t osr[] = {BURN, BURN, SEVENTY, RUN, START};
    ASSERT_EQ(uw_keep_inserted(osr, 5, mask, UNKNOWN), 4u);
    ASSERT(osr[0] == BURN && osr[1] == SEVENTY && osr[2] == RUN && osr[3] == START);
    /* Recursion, nothing inserted: Burn;Burn stays. */
    uint64_t none[2] = {0, 0};
    uint32_t rec[] = {BURN, BURN, RUN};
    ASSERT_EQ(uw_keep_inserted(rec, 3, none, UNKNOWN), 3u);
    ASSERT(rec[0] == BURN && rec[1] == BURN && rec[2] == RUN);
    /* An inserted frame after a step into another method: dropped, the rest unchanged. */
    uint32_t other[] = {BURN, SEVENTY, RUN, START};
    ASSERT_EQ(uw_keep_inserted(other, 4, mask, UNKNOWN), 3u);
    ASSERT(other[0] == BURN && other[1] == SEVENTY && other[2] == START);
    /* An inserted frame that names nothing: dropped, the pseudo return address stays. */
    uint32_t noname[] = {BURN, BURN, UNKNOWN, RUN};
    ASSERT_EQ(uw_keep_inserted(noname, 4, mask, UNKNOWN), 3u);
    ASSERT(noname[0] == BURN && noname[1] == BURN && noname[2] == RUN);
    /* Past the first mask word: bit 70 (a deep stack) is read from the second word. */
    uint32_t deep[72];
    uint64_t far[2] = {0, 1u << 6};
    for (int i = 0; i < 72; i++)
        deep[i] = RUN + 10 + (uint32_t)i;
    deep[68] = deep[69] = BURN, deep[70] = SEVENTY;
    ASSERT_EQ(uw_keep_inserted(deep, 72, far, UNKNOWN), 71u);
    ASSERT(deep[68] == BURN && deep[69] == SEVENTY && deep[70] == RUN + 10 + 71);
}
