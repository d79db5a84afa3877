/* runtime_lines.h - the runtime's own events of a .nettrace file as clrattach's layouts read
 * them, in the line format of `tracecheck --runtime` (TraceEvent's reading), and the
 * comparison of the two readings. */
#ifndef CLRA_E2E_RUNTIME_LINES_H
#define CLRA_E2E_RUNTIME_LINES_H

#include <stddef.h>

/* "rt PROVIDER ID VERSION\tNAME=VALUE\t..." for every event clra_runtime_event_walk describes,
 * fields sorted by name, lines sorted, '\n'-separated, malloc'ed; NULL with why when the file
 * does not decode or a payload does not fit its layout. */
char *runtime_lines(const char *path, char *why, size_t cap);

typedef struct runtime_compare {
    size_t events;        /* events compared field by field */
    size_t kinds;         /* distinct provider/id/version compared */
    size_t fields;        /* field values compared */
    char only_theirs[600]; /* kinds TraceEvent reads that have no layout here */
    char only_ours[600];   /* kinds described here that TraceEvent does not parse */
    char only_our_fields[600];   /* "name (kind)" read here, not by TraceEvent: not compared */
    char only_their_fields[600]; /* what TraceEvent derives or defaults: not compared */
    char difference[1200]; /* the first difference, empty when none */
} runtime_compare_t;

/* Compares ours and theirs (both in that format) over the kinds both read, each event's fields
 * restricted to the names both readings give that kind (an array's names by their shape,
 * Values[].Address), the others listed. 0 when equal, -1 with r->difference. */
int runtime_lines_compare(const char *ours, const char *theirs, runtime_compare_t *r);

#endif
