/* counters_view.h - how `clrattach counters` shows readings: a table redrawn in place on a
 * terminal, plain lines elsewhere, or dotnet-counters' JSON and CSV. */
#ifndef CLRA_CLI_COUNTERS_VIEW_H
#define CLRA_CLI_COUNTERS_VIEW_H

#include "clrattach.h"

#include <stdio.h>

#define COUNTERS_VIEW_MAX 1024 /* distinct counters (and tag sets) shown */

enum { COUNTERS_TABLE, COUNTERS_JSON, COUNTERS_CSV };

typedef struct counters_row {
    char provider[128], name[128], tags[256], label[256];
    double value;
} counters_row_t;

typedef struct counters_view {
    FILE *f;
    int format;
    int tty;        /* redraw the table in place */
    int pid;
    unsigned interval_s;
    int rows_written; /* JSON: events so far (for the commas) */
    int dirty;
    counters_row_t *rows;
    size_t nrows;
    char notices[8][160]; /* the notices said so far (each is said once) */
    int nnotices;
} counters_view_t;

/* Writes the beginning (CSV header, JSON opening); 0, or -1 out of memory. */
int counters_view_begin(counters_view_t *v);
/* One reading: a JSON or CSV record, a plain line, or a table update. */
void counters_view_add(counters_view_t *v, const clra_counter_reading_t *r);
/* What the runtime says about the session, on stderr, each distinct sentence once. */
void counters_view_notice(counters_view_t *v, const char *msg);
/* Redraws the table when it changed (terminal only). */
void counters_view_refresh(counters_view_t *v);
/* Closes the JSON document; frees the rows. */
void counters_view_end(counters_view_t *v);

#endif
