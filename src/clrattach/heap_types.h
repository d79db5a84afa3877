/* heap_types.h - the heap snapshot's table of types (internal): type id -> one row of count,
 * bytes and name, found through an open-addressing hash of row numbers. Memory follows the
 * distinct types (about 40 bytes each, plus their names), never the objects, so a heap of
 * ten million objects costs what its few thousand types cost.
 */
#ifndef CLRA_HEAP_TYPES_H
#define CLRA_HEAP_TYPES_H

#include <stddef.h>
#include <stdint.h>

/* Most distinct types one snapshot may name (a real heap has thousands; more means a broken or
 * hostile stream), and most bytes of names. */
#define CLRA__HEAP_MAX_TYPES (1u << 20)
#define CLRA__HEAP_MAX_NAME_BYTES (64u << 20)

typedef struct clra__heap_row {
    uint64_t id, count, bytes;
    uint32_t name; /* offset + 1 in the name arena; 0 while unnamed */
} clra__heap_row_t;

typedef struct clra__heap_types {
    clra__heap_row_t *rows;
    size_t n, cap;
    uint32_t *slots; /* row + 1, 0 empty; slot_cap is a power of two, at most half full */
    size_t slot_cap;
    char *names;
    size_t names_len, names_cap;
    size_t last; /* the row the last lookup found: batches repeat a type */
} clra__heap_types_t;

void clra__heap_types_init(clra__heap_types_t *t);
void clra__heap_types_free(clra__heap_types_t *t);
/* The row of id, added (count 0, unnamed) when new. NULL when a limit or memory ran out. */
clra__heap_row_t *clra__heap_types_row(clra__heap_types_t *t, uint64_t id);
/* Names id's row (added when new); a later name replaces nothing. 0, or -1 as above. */
int clra__heap_types_name(clra__heap_types_t *t, uint64_t id, const char *name);
/* The row's name, or NULL while unnamed. */
const char *clra__heap_types_name_of(const clra__heap_types_t *t, const clra__heap_row_t *r);

#endif
