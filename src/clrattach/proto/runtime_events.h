/* runtime_events.h - descriptions of the runtime's own events (internal).
 *
 * The runtime's providers (Microsoft-Windows-DotNETRuntime, ...Rundown) send metadata with no
 * field descriptions: the layouts live in the runtime's ETW manifest (ClrEtwAll.man). These
 * tables restate those layouts, one file per family (runtime_events_gc.c, _heap.c, _threads.c,
 * _loader.c); runtime_events.c finds an event's table and walks its payload. The manifest's
 * win:Pointer is the trace's pointer size; arrays take their count from an earlier field.
 */
#ifndef CLRA_PROTO_RUNTIME_EVENTS_H
#define CLRA_PROTO_RUNTIME_EVENTS_H

#include "clrattach.h"

#include <stddef.h>
#include <stdint.h>

/* How a field is encoded (the manifest's inType). */
typedef enum clra__rt_kind {
    CLRA__RT_U8 = 1,
    CLRA__RT_U16,
    CLRA__RT_U32,
    CLRA__RT_I32,
    CLRA__RT_U64,
    CLRA__RT_PTR,    /* win:Pointer: the trace header's pointer size */
    CLRA__RT_BOOL,   /* win:Boolean: 4 bytes */
    CLRA__RT_DOUBLE,
    CLRA__RT_GUID,
    CLRA__RT_STR,    /* NUL-terminated UTF-16 */
    CLRA__RT_ARRAY,  /* count from field count_from of the same list; elements: elem */
} clra__rt_kind_t;

typedef struct clra__rt_field {
    clra_nettrace_field_t shown; /* the name, and the type its value is handed out as */
    uint8_t kind;                /* clra__rt_kind_t */
    uint8_t count_from;          /* ARRAY: index of the count's field in the same list */
    uint8_t elem_count;          /* ARRAY: members of an element (1 and unnamed: a scalar) */
    const struct clra__rt_field *elem;
} clra__rt_field_t;

typedef struct clra__rt_event {
    uint16_t id;
    uint8_t version;
    const char *name; /* TraceEvent's and PerfView's name for it */
    const clra__rt_field_t *fields;
    uint8_t count;
} clra__rt_event_t;

/* One family's table: the events of one provider it describes. */
typedef struct clra__rt_table {
    const char *provider;
    const clra__rt_event_t *events;
    size_t count;
} clra__rt_table_t;

extern const clra__rt_table_t clra__rt_gc, clra__rt_heap, clra__rt_threads, clra__rt_loader,
    clra__rt_rundown;

/* Field initialisers, so the tables read like the manifest's templates. */
#define CLRA__RTF(n, t, k) {{n, t, NULL, 0}, k, 0, 0, NULL}
#define RT_U8(n) CLRA__RTF(n, CLRA_NETTRACE_UINT8, CLRA__RT_U8)
#define RT_U16(n) CLRA__RTF(n, CLRA_NETTRACE_UINT16, CLRA__RT_U16)
#define RT_U32(n) CLRA__RTF(n, CLRA_NETTRACE_UINT32, CLRA__RT_U32)
#define RT_I32(n) CLRA__RTF(n, CLRA_NETTRACE_INT32, CLRA__RT_I32)
#define RT_U64(n) CLRA__RTF(n, CLRA_NETTRACE_UINT64, CLRA__RT_U64)
#define RT_PTR(n) CLRA__RTF(n, CLRA_NETTRACE_UINT64, CLRA__RT_PTR)
#define RT_BOOL(n) CLRA__RTF(n, CLRA_NETTRACE_BOOL, CLRA__RT_BOOL)
#define RT_DBL(n) CLRA__RTF(n, CLRA_NETTRACE_DOUBLE, CLRA__RT_DOUBLE)
#define RT_GUID(n) CLRA__RTF(n, CLRA_NETTRACE_GUID, CLRA__RT_GUID)
#define RT_STR(n) CLRA__RTF(n, CLRA_NETTRACE_STRING, CLRA__RT_STR)
/* An array named n whose count is field c of the list, of elements e (a list of k fields). */
#define RT_ARR(n, c, e) {{n, CLRA_NETTRACE_ARRAY, NULL, 0}, CLRA__RT_ARRAY, c,                 \
                         sizeof(e) / sizeof((e)[0]), e}
#define RT_FIELDS(f) f, (uint8_t)(sizeof(f) / sizeof((f)[0]))
#define RT_NONE NULL, 0

/* The description of (provider, id, version): the exact version, else the newest older one
 * (the payload then carries newer fields after it). NULL when none is known. */
const clra__rt_event_t *clra__rt_find(const char *provider, uint32_t id, uint32_t version);

/* Every described event in turn (for tests and fuzzing): how many, and the ith with its
 * provider. */
size_t clra__rt_count(void);
const clra__rt_event_t *clra__rt_at(size_t i, const char **provider);

#endif
