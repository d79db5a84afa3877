/* heap_snapshot_internal.h - what heap_histogram.c reads of a snapshot (internal). */
#ifndef CLRA_HEAP_SNAPSHOT_INTERNAL_H
#define CLRA_HEAP_SNAPSHOT_INTERNAL_H

#include "clrattach.h"
#include "heap_types.h"

/* The snapshot's type table. */
const clra__heap_types_t *clra__heap_snapshot_types(const clra_heap_snapshot_t *h);
/* Fills the histogram's totals, GC number, losses and times. */
void clra__heap_snapshot_totals(const clra_heap_snapshot_t *h, clra_heap_histogram_t *out);

#endif
