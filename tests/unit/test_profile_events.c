/* profile's event modes without a runtime (src/cli/profile/profile_events_collect.c): events
 * handed to the collector by hand, read back from the profile it resolves into. */
#define _GNU_SOURCE
#include "profile/profile_events.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MANY_LEAVES 20000

/* One event on a one-frame stack at ip (0: no stack) with leaf on top. */
static void add(pe_run_t *r, uint64_t tid, uint64_t ip, const char *leaf, uint64_t weight)
{
    uint8_t stack[8];
    memcpy(stack, &ip, sizeof stack);
    ASSERT_EQ(pe_add(r, tid, ip ? stack : NULL, ip ? 8 : 0, leaf, weight), 0);
}

/* The stack of thread tid in p whose frames, leaf first, are names (n of them); NULL when none
 * is. */
static const profile_stack_t *stack_named(const profile_t *p, uint64_t tid,
                                          const char *const *names, uint32_t n)
{
    for (size_t s = 0; s < p->nstacks; s++) {
        const profile_stack_t *x = &p->stacks[s];
        if (p->threads[x->thread].tid != tid)
            continue;
        uint32_t k = 0;
        while (k < n && k < x->len && strcmp(p->frames[p->arena[x->off + k]], names[k]) == 0)
            k++;
        if (k == n && x->len == n)
            return x;
    }
    return NULL;
}

/* Type i of the many: (i % 3) + 1 events, each weighing i + 1, handed over in three passes so
 * that a type's events never come one after the other. */
static void add_many(pe_run_t *r)
{
    char name[32];
    for (int pass = 0; pass < 3; pass++)
        for (unsigned i = 0; i < MANY_LEAVES; i++)
            if ((int)(i % 3) >= pass) {
                snprintf(name, sizeof name, "App.Type%u", i);
                add(r, 7, 0x1000, name, i + 1);
            }
}

TEST(profile_events_count_each_of_many_distinct_leaves_on_its_own_stack)
{
    pe_run_t r = {.pointer_size = 8};
    add_many(&r);
    ASSERT_EQ(r.nleaves, (size_t)MANY_LEAVES);
    profile_t p;
    profile_init(&p);
    ASSERT_EQ(pe_resolve(&r, &p), 0);
    ASSERT_EQ(p.nstacks, (size_t)MANY_LEAVES);
    char *seen = calloc(MANY_LEAVES, 1);
    ASSERT(seen != NULL);
    for (size_t s = 0; s < p.nstacks; s++) {
        const profile_stack_t *x = &p.stacks[s];
        unsigned i;
        ASSERT_EQ(x->len, 2u);
        ASSERT_STREQ(p.frames[p.arena[x->off + 1]], "0x1000");
        ASSERT_EQ(sscanf(p.frames[p.arena[x->off]], "App.Type%u", &i), 1);
        ASSERT_MSG(i < MANY_LEAVES && !seen[i], "type %u twice or unknown", i);
        seen[i] = 1;
        ASSERT_EQ(x->count, (uint64_t)(i % 3 + 1));
        ASSERT_EQ(x->weight, (uint64_t)(i % 3 + 1) * (i + 1));
    }
    free(seen);
    profile_free(&p);
    pe_free(&r);
}

TEST(profile_events_one_leaf_on_two_stacks_or_threads_stays_apart)
{
    pe_run_t r = {.pointer_size = 8};
    add(&r, 1, 0x10, "System.String", 5);
    add(&r, 1, 0x20, "System.String", 6);
    add(&r, 2, 0x10, "System.String", 7);
    add(&r, 1, 0x10, "System.String", 8);
    add(&r, 1, 0x10, NULL, 9);
    add(&r, 1, 0, NULL, 10);
    ASSERT_EQ(r.nleaves, 1u);
    profile_t p;
    profile_init(&p);
    ASSERT_EQ(pe_resolve(&r, &p), 0);
    ASSERT_EQ(p.nstacks, 5u); /* thread 1's two equal stacks merged */
    ASSERT_EQ(profile_total_count(&p), 6u);
    const char *at10[] = {"System.String", "0x10"}, *at20[] = {"System.String", "0x20"};
    const char *bare[] = {"0x10"}, *none[] = {"[no stack]"};
    const struct {
        uint64_t tid;
        const char *const *names;
        uint32_t n;
        uint64_t count, weight;
    } want[] = {{1, at10, 2, 2, 13}, {1, at20, 2, 1, 6}, {2, at10, 2, 1, 7},
                {1, bare, 1, 1, 9}, {1, none, 1, 1, 10}};
    for (size_t w = 0; w < sizeof want / sizeof want[0]; w++) {
        const profile_stack_t *x = stack_named(&p, want[w].tid, want[w].names, want[w].n);
        ASSERT_MSG(x != NULL, "stack %zu missing", w);
        ASSERT_EQ(x->count, want[w].count);
        ASSERT_EQ(x->weight, want[w].weight);
    }
    ASSERT_EQ(p.nthreads, 2u);
    profile_free(&p);
    pe_free(&r);
}
