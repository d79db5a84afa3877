/* heap_snapshot.c - a GC heap snapshot from a trace session's events (clrattach.h, "GC heap
 * snapshots"): which GC is the snapshot's, the objects of its heap walk counted per type, and
 * the histogram.
 *
 * The GC is chosen as dotnet-gcdump's reader chooses it: the first GCStart of depth 2, type
 * non-concurrent and reason induced; its GCBulkNode batches are counted until its GCEnd. A GC
 * that ended without batches is passed over and the next such GC awaited (runtimes before 9
 * may run the heap-collect GC twice, dotnet/runtime#99487). Batches carry an Index from 0: a
 * gap means the session's buffer dropped some. BulkType events may come before, during or
 * after the walk, so types are named whenever they come.
 */
#define _GNU_SOURCE
#include "heap_snapshot_internal.h"
#include "proto/heap_events.h"
#include "util/status.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct clra_heap_snapshot {
    clra__heap_types_t types;
    unsigned pointer_size;
    int64_t qpc_frequency;
    clra_heap_state_t state;
    uint32_t gc;          /* the GC being walked or walked */
    uint32_t next_index;  /* the batch Index expected next */
    uint64_t batches, lost;
    uint64_t objects, bytes;
    int64_t suspend, start, end, restart; /* timestamps; 0 unseen */
};

int clra_heap_config(clra_trace_config_t *cfg, clra_status_t *st)
{
    clra_status_t local;
    st = clra__status_begin(st, &local);
    int rc = clra_trace_config_add_provider(cfg, CLRA_TRACE_RUNTIME_PROVIDER, CLRA_HEAP_KEYWORDS,
                                            5, NULL, st);
    if (rc == 0) {
        cfg->rundown_keyword = 0;
        cfg->buffer_mb = CLRA_HEAP_BUFFER_MB;
    }
    return rc;
}

int clra_heap_snapshot_new(clra_heap_snapshot_t **out)
{
    if (!out)
        return CLRA_EINVAL;
    *out = calloc(1, sizeof **out);
    if (!*out)
        return CLRA_ENOMEM;
    clra__heap_types_init(&(*out)->types);
    (*out)->pointer_size = 8;
    return 0;
}

void clra_heap_snapshot_free(clra_heap_snapshot_t *h)
{
    if (!h)
        return;
    clra__heap_types_free(&h->types);
    free(h);
}

int clra_heap_snapshot_header(clra_heap_snapshot_t *h, const clra_nettrace_header_t *hdr,
                              clra_status_t *st)
{
    clra_status_t local;
    st = clra__status_begin(st, &local);
    if (hdr->pointer_size != 4 && hdr->pointer_size != 8) {
        clra__detail(st, "the trace says pointers are %u bytes (4 or 8 expected)",
                     hdr->pointer_size);
        return CLRA_EPROTO;
    }
    h->pointer_size = hdr->pointer_size;
    h->qpc_frequency = hdr->qpc_frequency;
    return 0;
}

clra_heap_state_t clra_heap_snapshot_state(const clra_heap_snapshot_t *h)
{
    return h->state;
}

/* One object of the walk into its type's row. */
static int count_node(void *ctx, uint64_t type_id, uint64_t size)
{
    clra_heap_snapshot_t *h = ctx;
    clra__heap_row_t *r = clra__heap_types_row(&h->types, type_id);
    if (!r)
        return 1;
    r->count++;
    r->bytes += size;
    h->objects++;
    h->bytes += size;
    return 0;
}

static int name_type(void *ctx, uint64_t type_id, const char *name)
{
    clra_heap_snapshot_t *h = ctx;
    if (!name[0])
        return 0;
    return clra__heap_types_name(&h->types, type_id, name) != 0;
}

/* A failed row: the limit, or memory. */
static int table_full(const clra_heap_snapshot_t *h, clra_status_t *st)
{
    if (h->types.n < CLRA__HEAP_MAX_TYPES &&
        h->types.names_len < CLRA__HEAP_MAX_NAME_BYTES - 4096)
        return CLRA_ENOMEM;
    clra__detail(st, "the heap snapshot names more than %u types or %u MiB of type names: not "
                 "a heap walk this reader believes", CLRA__HEAP_MAX_TYPES,
                 CLRA__HEAP_MAX_NAME_BYTES >> 20);
    return CLRA_EPROTO;
}

/* GCStart: an induced, blocking GC of depth 2 while waiting is the snapshot's. */
static void on_gc_start(clra_heap_snapshot_t *h, const clra_nettrace_event_t *ev)
{
    clra__gc_start_t g;
    if (h->state != CLRA_HEAP_WAITING ||
        clra__heap_gc_start(ev->payload, ev->payload_len, ev->meta->version, &g) != 0)
        return;
    if (g.depth < 2 || g.type != CLRA__GC_TYPE_BLOCKING || g.reason != CLRA__GC_REASON_INDUCED)
        return;
    h->state = CLRA_HEAP_WALKING;
    h->gc = g.count;
    h->next_index = 0;
    h->batches = 0;
    h->start = ev->timestamp;
}

/* GCEnd of the snapshot's GC: complete, or passed over when no batch came. */
static void on_gc_end(clra_heap_snapshot_t *h, const clra_nettrace_event_t *ev)
{
    uint32_t count;
    if (h->state != CLRA_HEAP_WALKING ||
        clra__heap_gc_end(ev->payload, ev->payload_len, &count) != 0 || count != h->gc)
        return;
    h->state = h->batches ? CLRA_HEAP_COMPLETE : CLRA_HEAP_WAITING;
    h->end = ev->timestamp;
}

/* A GCBulkNode batch of the snapshot's GC. */
static int on_nodes(clra_heap_snapshot_t *h, const clra_nettrace_event_t *ev, clra_status_t *st)
{
    char why[160];
    uint32_t index;
    if (h->state != CLRA_HEAP_WALKING)
        return 0;
    int rc = clra__heap_bulk_node(ev->payload, ev->payload_len, h->pointer_size, &index,
                                  count_node, h, why, sizeof why);
    if (rc < 0) {
        clra__detail(st, "%s (event at stream offset %llu)", why,
                     (unsigned long long)ev->offset);
        return CLRA_EPROTO;
    }
    if (rc > 0)
        return table_full(h, st);
    if (index > h->next_index)
        h->lost += index - h->next_index;
    if (index >= h->next_index)
        h->next_index = index + 1;
    h->batches++;
    return 0;
}

int clra_heap_snapshot_event(clra_heap_snapshot_t *h, const clra_nettrace_event_t *ev,
                             clra_status_t *st)
{
    clra_status_t local;
    st = clra__status_begin(st, &local);
    const clra_nettrace_metadata_t *m = ev->meta;
    if (!m || !m->provider || strcmp(m->provider, CLRA_TRACE_RUNTIME_PROVIDER) != 0)
        return 0;
    switch (m->event_id) {
    case CLRA__EV_GC_START:
        on_gc_start(h, ev);
        return 0;
    case CLRA__EV_GC_END:
        on_gc_end(h, ev);
        return 0;
    case CLRA__EV_GC_SUSPEND_EE_BEGIN:
        if (h->state == CLRA_HEAP_WAITING)
            h->suspend = ev->timestamp;
        return 0;
    case CLRA__EV_GC_RESTART_EE_END:
        if (h->state == CLRA_HEAP_COMPLETE && !h->restart)
            h->restart = ev->timestamp;
        return 0;
    case CLRA__EV_GC_BULK_NODE:
        return on_nodes(h, ev, st);
    case CLRA__EV_BULK_TYPE: {
        char why[160];
        int rc = clra__heap_bulk_type(ev->payload, ev->payload_len, name_type, h, why,
                                      sizeof why);
        if (rc < 0)
            clra__detail(st, "%s (event at stream offset %llu)", why,
                         (unsigned long long)ev->offset);
        return rc < 0 ? CLRA_EPROTO : rc > 0 ? table_full(h, st) : 0;
    }
    default:
        return 0;
    }
}

const clra__heap_types_t *clra__heap_snapshot_types(const clra_heap_snapshot_t *h)
{
    return &h->types;
}

/* Milliseconds between two timestamps of the trace's clock; -1 when either is unseen. */
static double span_ms(const clra_heap_snapshot_t *h, int64_t from, int64_t to)
{
    if (!from || !to || to < from || h->qpc_frequency <= 0)
        return -1;
    return (double)(to - from) * 1000.0 / (double)h->qpc_frequency;
}

void clra__heap_snapshot_totals(const clra_heap_snapshot_t *h, clra_heap_histogram_t *out)
{
    out->objects = h->objects;
    out->bytes = h->bytes;
    out->gc = h->gc;
    out->batches_lost = h->lost > UINT32_MAX ? UINT32_MAX : (uint32_t)h->lost;
    out->pause_ms = span_ms(h, h->suspend, h->restart);
    out->gc_ms = span_ms(h, h->start, h->end);
}
