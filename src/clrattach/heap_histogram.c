/* heap_histogram.c - a heap snapshot's type table as a histogram: the types that have objects,
 * those of one name merged (a type loaded twice, or unloaded and loaded again, has two ids),
 * largest bytes first. The names are copied into one block the histogram owns.
 */
#define _GNU_SOURCE
#include "heap_snapshot_internal.h"
#include "util/status.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int by_name(const void *a, const void *b)
{
    return strcmp(((const clra_heap_type_stat_t *)a)->name,
                  ((const clra_heap_type_stat_t *)b)->name);
}

/* Largest bytes first, then most objects, then by name: the same input, the same order. */
static int by_size(const void *a, const void *b)
{
    const clra_heap_type_stat_t *x = a, *y = b;
    if (x->bytes != y->bytes)
        return x->bytes < y->bytes ? 1 : -1;
    if (x->count != y->count)
        return x->count < y->count ? 1 : -1;
    return strcmp(x->name, y->name);
}

/* Bytes the names of the rows with objects need, unnamed ones spelt "Type(0x...)". */
static size_t names_size(const clra__heap_types_t *t, size_t *rows)
{
    size_t need = 0;
    *rows = 0;
    for (size_t i = 0; i < t->n; i++) {
        if (!t->rows[i].count)
            continue;
        const char *name = clra__heap_types_name_of(t, &t->rows[i]);
        need += (name ? strlen(name) : 24) + 1;
        (*rows)++;
    }
    return need;
}

/* Adjacent entries of one name (sorted by name) become one. The number left. */
static size_t merge(clra_heap_type_stat_t *s, size_t n)
{
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        if (kept && strcmp(s[kept - 1].name, s[i].name) == 0) {
            s[kept - 1].count += s[i].count;
            s[kept - 1].bytes += s[i].bytes;
        } else {
            s[kept++] = s[i];
        }
    }
    return kept;
}

int clra_heap_histogram_get(const clra_heap_snapshot_t *h, clra_heap_histogram_t *out,
                            clra_status_t *st)
{
    clra_status_t local;
    st = clra__status_begin(st, &local);
    memset(out, 0, sizeof *out);
    const clra__heap_types_t *t = clra__heap_snapshot_types(h);
    size_t rows, need = names_size(t, &rows);
    char *names = malloc(need + 1);
    out->types = calloc(rows + 1, sizeof *out->types);
    if (!names || !out->types) {
        free(names);
        free(out->types);
        out->types = NULL;
        clra__detail(st, "no memory for a histogram of %zu types", rows);
        return CLRA_ENOMEM;
    }
    out->reserved[0] = names;
    for (size_t i = 0, k = 0; i < t->n; i++) {
        const clra__heap_row_t *r = &t->rows[i];
        if (!r->count)
            continue;
        const char *name = clra__heap_types_name_of(t, r);
        int len = name ? sprintf(names, "%s", name)
                       : sprintf(names, "Type(0x%llx)", (unsigned long long)r->id);
        out->types[k++] = (clra_heap_type_stat_t){.name = names, .count = r->count,
                                                  .bytes = r->bytes};
        names += len + 1;
    }
    qsort(out->types, rows, sizeof *out->types, by_name);
    out->count = merge(out->types, rows);
    qsort(out->types, out->count, sizeof *out->types, by_size);
    clra__heap_snapshot_totals(h, out);
    return 0;
}

void clra_heap_histogram_free(clra_heap_histogram_t *hh)
{
    if (!hh)
        return;
    free(hh->types);
    free(hh->reserved[0]);
    memset(hh, 0, sizeof *hh);
}
