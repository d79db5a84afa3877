/* heap_types.c - the type table of a heap snapshot: rows in one array, a hash of row numbers,
 * names in one arena (heap_types.h). */
#include "heap_types.h"
#include "util/grow.h"

#include <stdlib.h>
#include <string.h>

void clra__heap_types_init(clra__heap_types_t *t)
{
    memset(t, 0, sizeof *t);
}

void clra__heap_types_free(clra__heap_types_t *t)
{
    free(t->rows);
    free(t->slots);
    free(t->names);
    memset(t, 0, sizeof *t);
}

/* A type id spread over the slots (ids are aligned pointers: their low bits say little). */
static size_t slot_of(uint64_t id, size_t cap)
{
    id ^= id >> 33;
    id *= 0xff51afd7ed558ccdull;
    id ^= id >> 33;
    return (size_t)id & (cap - 1);
}

/* Doubles the slots and places every row again. 0, or -1 without memory. */
static int rehash(clra__heap_types_t *t)
{
    size_t cap = t->slot_cap ? t->slot_cap * 2 : 1024;
    uint32_t *slots = calloc(cap, sizeof *slots);
    if (!slots)
        return -1;
    for (size_t r = 0; r < t->n; r++) {
        size_t s = slot_of(t->rows[r].id, cap);
        while (slots[s])
            s = (s + 1) & (cap - 1);
        slots[s] = (uint32_t)(r + 1);
    }
    free(t->slots);
    t->slots = slots;
    t->slot_cap = cap;
    return 0;
}

/* Appends a row for id at slot s. NULL when a limit or memory ran out. */
static clra__heap_row_t *add(clra__heap_types_t *t, uint64_t id, size_t s)
{
    if (t->n >= CLRA__HEAP_MAX_TYPES ||
        clra__grow((void **)&t->rows, &t->cap, t->n + 1, sizeof *t->rows) != 0)
        return NULL;
    t->rows[t->n] = (clra__heap_row_t){.id = id};
    t->slots[s] = (uint32_t)(t->n + 1);
    t->last = t->n;
    return &t->rows[t->n++];
}

clra__heap_row_t *clra__heap_types_row(clra__heap_types_t *t, uint64_t id)
{
    if (t->n && t->rows[t->last].id == id)
        return &t->rows[t->last];
    if ((t->n + 1) * 2 > t->slot_cap && rehash(t) != 0)
        return NULL;
    size_t s = slot_of(id, t->slot_cap);
    for (; t->slots[s]; s = (s + 1) & (t->slot_cap - 1))
        if (t->rows[t->slots[s] - 1].id == id) {
            t->last = t->slots[s] - 1;
            return &t->rows[t->last];
        }
    return add(t, id, s);
}

int clra__heap_types_name(clra__heap_types_t *t, uint64_t id, const char *name)
{
    clra__heap_row_t *r = clra__heap_types_row(t, id);
    if (!r)
        return -1;
    if (r->name)
        return 0;
    size_t len = strlen(name) + 1;
    if (t->names_len + len > CLRA__HEAP_MAX_NAME_BYTES ||
        clra__grow((void **)&t->names, &t->names_cap, t->names_len + len, 1) != 0)
        return -1;
    memcpy(t->names + t->names_len, name, len);
    r->name = (uint32_t)(t->names_len + 1);
    t->names_len += len;
    return 0;
}

const char *clra__heap_types_name_of(const clra__heap_types_t *t, const clra__heap_row_t *r)
{
    return r->name ? t->names + r->name - 1 : NULL;
}
