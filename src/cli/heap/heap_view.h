/* heap_view.h - `clrattach heap`'s output: a histogram of live objects by type as text or as
 * the JSON --json prints (heap_print.c), that JSON read back (heap_load.c), the growth between
 * two of them (heap_compare.c) and `clrattach heap diff` (heap_diff.c). */
#ifndef CLRA_CLI_HEAP_VIEW_H
#define CLRA_CLI_HEAP_VIEW_H

#include "clrattach.h"

#include <stdio.h>

/* A histogram as printed or read back: types largest first. A whole histogram lists every
 * type; one read from a file cut by --top lists the largest and says what it left out. */
typedef struct heap_list {
    clra_heap_type_stat_t *types;
    size_t count;                  /* the types listed */
    uint64_t objects, bytes;       /* totals of every type, listed or not: always exact */
    int listed_all;                /* read back: 0 when the file lists only the largest types */
    size_t types_in_all;           /* read back: every type, listed or not; 0 when not known
                                    * (a cut file written before the file said so) */
    uint64_t unlisted_objects, unlisted_bytes; /* read back: of the types left out */
    char *storage; /* the names of a list read from a file */
} heap_list_t;

/* The rows printed: all when top is 0, else the first top. */
size_t heap_rows(const heap_list_t *l, long long top);
/* {"objects": N, "bytes": N, "listed_all": B, "types_in_all": N, "unlisted_objects": N,
 * "unlisted_bytes": N, "types": [{"type": "...", "count": N, "bytes": N}, ...]} of a whole
 * list, the first `top` types (all for 0), one type per line. */
void heap_print_json(FILE *f, const heap_list_t *l, long long top);
/* A column table: bytes, count, type; a line for the types left out. */
void heap_print_table(FILE *f, const heap_list_t *l, long long top);

/* Reads a file heap_print_json wrote, of this or the first format (no listed_all). 0, or -1
 * after saying on stderr what is wrong. */
int heap_load(const char *path, heap_list_t *out);
void heap_list_free(heap_list_t *l);

/* One type's change between two lists, matched by name. */
typedef struct heap_change {
    const char *name;
    long long count, bytes; /* after - before */
    uint64_t count_after, bytes_after;
} heap_change_t;

/* What two lists say changed. A type one list leaves out is known there only if that list
 * lists every type; otherwise it is not compared, and only its share of the totals is known. */
typedef struct heap_diff {
    heap_change_t *changes;        /* the compared types that changed, most growth first */
    size_t n;
    long long objects, bytes;      /* the totals' change: always exact */
    int compared_all;              /* both lists list every type */
    int before_listed_all, after_listed_all;
    size_t uncompared_types;       /* listed in one list only, the other one cut */
    long long uncompared_objects, uncompared_bytes; /* change of every type not compared */
} heap_diff_t;

/* Compares before with after (both sorted by name here). 0, or -1 when out of memory. */
int heap_compare(heap_list_t *before, heap_list_t *after, heap_diff_t *d);
void heap_diff_free(heap_diff_t *d);
/* heap diff --json: the changes, the first `top` (all for 0), and what was not compared. */
void heap_print_diff_json(FILE *f, const heap_diff_t *d, long long top);
/* heap diff's table; names[0] and names[1] are the files, named when some types were not
 * compared. */
void heap_print_diff_table(FILE *f, const heap_diff_t *d, long long top,
                           const heap_list_t *lists[2], const char *names[2]);

/* `clrattach heap diff BEFORE AFTER`: argv[0] is "diff". The exit code. */
int heap_diff_main(int argc, char **argv);

#endif
