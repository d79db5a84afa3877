/* heap_compare.c - what changed between two heap lists, type by type (matched by name), for
 * `clrattach heap diff`. A list cut by --top leaves out its smaller types: a type it does not
 * list may still be in the heap, so a type missing from a cut list is not compared, never
 * taken for gone or new; only the totals, which count every type, say how much all such types
 * changed together. */
#define _GNU_SOURCE
#include "heap/heap_view.h"

#include <stdlib.h>
#include <string.h>

static int by_name(const void *a, const void *b)
{
    return strcmp(((const clra_heap_type_stat_t *)a)->name,
                  ((const clra_heap_type_stat_t *)b)->name);
}

/* Most bytes gained first; among equal bytes most objects gained, then by name. */
static int by_growth(const void *a, const void *b)
{
    const heap_change_t *x = a, *y = b;
    if (x->bytes != y->bytes)
        return x->bytes < y->bytes ? 1 : -1;
    if (x->count != y->count)
        return x->count < y->count ? 1 : -1;
    return strcmp(x->name, y->name);
}

/* The change of one type, x its row before and y after (NULL: not there). */
static heap_change_t change_of(const clra_heap_type_stat_t *x, const clra_heap_type_stat_t *y)
{
    return (heap_change_t){.name = x ? x->name : y->name,
                           .count = (long long)(y ? y->count : 0) - (long long)(x ? x->count : 0),
                           .bytes = (long long)(y ? y->bytes : 0) - (long long)(x ? x->bytes : 0),
                           .count_after = y ? y->count : 0,
                           .bytes_after = y ? y->bytes : 0};
}

/* Walks both lists (sorted by name) together; the changed types of those compared into
 * d->changes, the others counted, and the compared types' share of the totals' change. */
static void walk(const heap_list_t *b, const heap_list_t *a, heap_diff_t *d,
                 long long *objects, long long *bytes)
{
    size_t i = 0, j = 0;
    while (i < b->count || j < a->count) {
        int c = i == b->count ? 1 : j == a->count ? -1 : strcmp(b->types[i].name, a->types[j].name);
        const clra_heap_type_stat_t *x = c <= 0 ? &b->types[i++] : NULL;
        const clra_heap_type_stat_t *y = c >= 0 ? &a->types[j++] : NULL;
        if ((!x && !b->listed_all) || (!y && !a->listed_all)) {
            d->uncompared_types++; /* left out of a cut list: not known there */
            continue;
        }
        heap_change_t ch = change_of(x, y);
        *objects += ch.count;
        *bytes += ch.bytes;
        if (ch.count || ch.bytes)
            d->changes[d->n++] = ch;
    }
}

int heap_compare(heap_list_t *before, heap_list_t *after, heap_diff_t *d)
{
    memset(d, 0, sizeof *d);
    d->changes = malloc((before->count + after->count + 1) * sizeof *d->changes);
    if (!d->changes)
        return -1;
    qsort(before->types, before->count, sizeof *before->types, by_name);
    qsort(after->types, after->count, sizeof *after->types, by_name);
    long long objects = 0, bytes = 0;
    walk(before, after, d, &objects, &bytes);
    qsort(d->changes, d->n, sizeof *d->changes, by_growth);
    d->objects = (long long)after->objects - (long long)before->objects;
    d->bytes = (long long)after->bytes - (long long)before->bytes;
    d->before_listed_all = before->listed_all;
    d->after_listed_all = after->listed_all;
    d->compared_all = before->listed_all && after->listed_all;
    d->uncompared_objects = d->objects - objects; /* exact: the totals count every type */
    d->uncompared_bytes = d->bytes - bytes;
    return 0;
}

void heap_diff_free(heap_diff_t *d)
{
    free(d->changes);
    memset(d, 0, sizeof *d);
}
