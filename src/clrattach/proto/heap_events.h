/* heap_events.h - the GC heap snapshot's events read from their payload bytes (internal).
 *
 * Only what a histogram of the live objects needs: which GC is the snapshot's (GCStart,
 * GCEnd), the objects of each batch (GCBulkNode: address, size, type, edge count) and the names
 * of their types (BulkType). Layouts: the runtime's manifest, ClrEtwAll.man (the same facts as
 * runtime_events_gc.c and runtime_events_heap.c); every count is checked against the bytes it
 * claims before anything is read.
 */
#ifndef CLRA_PROTO_HEAP_EVENTS_H
#define CLRA_PROTO_HEAP_EVENTS_H

#include <stddef.h>
#include <stdint.h>

/* Microsoft-Windows-DotNETRuntime event ids. */
enum {
    CLRA__EV_GC_START = 1,
    CLRA__EV_GC_END = 2,
    CLRA__EV_GC_RESTART_EE_END = 3,
    CLRA__EV_GC_SUSPEND_EE_BEGIN = 9,
    CLRA__EV_BULK_TYPE = 15,
    CLRA__EV_GC_BULK_NODE = 18,
};

/* GCStart's Type and Reason values that mark the snapshot's GC: a blocking (non-concurrent)
 * GC that was induced, as the heap-collect keyword's GC is. */
#define CLRA__GC_TYPE_BLOCKING 0u
#define CLRA__GC_REASON_INDUCED 1u

typedef struct clra__gc_start {
    uint32_t count, depth, reason, type;
} clra__gc_start_t;

/* GCStart (V0 has Count and Reason only: depth and type then read as 0, 2 for depth). 0, or -1
 * when the payload is too short. */
int clra__heap_gc_start(const uint8_t *p, size_t len, uint32_t version, clra__gc_start_t *out);
/* GCEnd: its Count. 0, or -1 when too short. */
int clra__heap_gc_end(const uint8_t *p, size_t len, uint32_t *count);

/* One object of a GCBulkNode batch; returns 0 to go on. */
typedef int (*clra__heap_node_fn)(void *ctx, uint64_t type_id, uint64_t size);
/* A GCBulkNode batch: its Index into *index and each object to fn. pointer_size is 4 or 8.
 * 0; -1 with why filled when the batch does not fit its payload; 1 when fn stopped. */
int clra__heap_bulk_node(const uint8_t *p, size_t len, unsigned pointer_size, uint32_t *index,
                         clra__heap_node_fn fn, void *ctx, char *why, size_t why_cap);

/* One type of a BulkType batch: its id and its name as UTF-8 ("" when the runtime gave none;
 * valid during the call). Returns 0 to go on. */
typedef int (*clra__heap_type_fn)(void *ctx, uint64_t type_id, const char *name);
/* A BulkType batch, each type to fn. 0; -1 with why filled when malformed; 1 when fn stopped. */
int clra__heap_bulk_type(const uint8_t *p, size_t len, clra__heap_type_fn fn, void *ctx,
                         char *why, size_t why_cap);

/* Longest type name kept, in UTF-16 units (longer ones are cut, with "..."). */
#define CLRA__HEAP_NAME_UNITS 1024

#endif
