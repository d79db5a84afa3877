/* heap_print.c - a heap histogram, and heap diff's changes, as JSON (the histogram's is the
 * --json form heap diff reads back) or as a table. Type names come from the target: escaped in
 * JSON, made visible in text. */
#include "heap/heap_view.h"
#include "base/cli.h"
#include "base/json_escape.h"

/* How many of n rows --top N shows: all for 0. */
static size_t shown(size_t n, long long top)
{
    return top > 0 && (unsigned long long)top < n ? (size_t)top : n;
}

size_t heap_rows(const heap_list_t *l, long long top)
{
    return shown(l->count, top);
}

/* A type's row of a JSON list up to its first figure: `{"type": "NAME", `. */
static void json_row(FILE *f, size_t i, const char *name)
{
    fprintf(f, "%s\n  {\"type\": \"", i ? "," : "");
    cli_json_escape(f, name, CLI_JSON_NEWLINE_SHORT);
    fprintf(f, "\", ");
}

/* The objects and bytes of the rows from `from` on: what a cut leaves out. */
static void left_out(const heap_list_t *l, size_t from, uint64_t *objects, uint64_t *bytes)
{
    *objects = *bytes = 0;
    for (size_t i = from; i < l->count; i++) {
        *objects += l->types[i].count;
        *bytes += l->types[i].bytes;
    }
}

/* The file says whether --top cut it and what the cut left out, so that heap diff never takes
 * a type left out for a type that is gone. */
void heap_print_json(FILE *f, const heap_list_t *l, long long top)
{
    size_t n = heap_rows(l, top);
    uint64_t rest_objects, rest_bytes;
    left_out(l, n, &rest_objects, &rest_bytes);
    fprintf(f, "{\"objects\": %llu, \"bytes\": %llu, \"listed_all\": %s, \"types_in_all\": %zu, "
            "\"unlisted_objects\": %llu, \"unlisted_bytes\": %llu, \"types\": [",
            (unsigned long long)l->objects, (unsigned long long)l->bytes,
            n < l->count ? "false" : "true", l->count, (unsigned long long)rest_objects,
            (unsigned long long)rest_bytes);
    for (size_t i = 0; i < n; i++) {
        json_row(f, i, l->types[i].name);
        fprintf(f, "\"count\": %llu, \"bytes\": %llu}", (unsigned long long)l->types[i].count,
                (unsigned long long)l->types[i].bytes);
    }
    fprintf(f, "%s]}\n", n ? "\n" : "");
}

void heap_print_table(FILE *f, const heap_list_t *l, long long top)
{
    size_t n = heap_rows(l, top);
    fprintf(f, "%15s %12s  %s\n", "bytes", "count", "type");
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%15llu %12llu  %s\n", (unsigned long long)l->types[i].bytes,
                (unsigned long long)l->types[i].count, cli_vis(l->types[i].name));
    if (n < l->count) {
        uint64_t bytes, count;
        left_out(l, n, &count, &bytes);
        fprintf(f, "%15llu %12llu  (%zu more types; --top 0 lists every type)\n",
                (unsigned long long)bytes, (unsigned long long)count, l->count - n);
    }
}

/* heap diff's JSON says, as its table does, whether every type was compared and how much the
 * types that were not changed together. */
void heap_print_diff_json(FILE *f, const heap_diff_t *d, long long top)
{
    size_t n = shown(d->n, top);
    fprintf(f, "{\"objects\": %lld, \"bytes\": %lld, \"compared_all\": %s, "
            "\"before_listed_all\": %s, \"after_listed_all\": %s, \"uncompared_types\": %zu, "
            "\"uncompared_objects\": %lld, \"uncompared_bytes\": %lld, \"types\": [",
            d->objects, d->bytes, d->compared_all ? "true" : "false",
            d->before_listed_all ? "true" : "false", d->after_listed_all ? "true" : "false",
            d->uncompared_types, d->uncompared_objects, d->uncompared_bytes);
    for (size_t i = 0; i < n; i++) {
        const heap_change_t *c = &d->changes[i];
        json_row(f, i, c->name);
        fprintf(f, "\"count\": %lld, \"bytes\": %lld, \"count_after\": %llu, "
                "\"bytes_after\": %llu}", c->count, c->bytes,
                (unsigned long long)c->count_after, (unsigned long long)c->bytes_after);
    }
    fprintf(f, "%s]}\n", n ? "\n" : "");
}

/* One line on what was not compared and why: a type a cut list leaves out is not known there,
 * so it is neither gone nor new; the totals still say how much such types changed together. */
static void print_uncompared(FILE *f, const heap_diff_t *d, const heap_list_t *lists[2],
                             const char *names[2])
{
    if (d->uncompared_types)
        fprintf(f, "not compared: %zu types listed in one snapshot only and any listed in "
                "neither, as ", d->uncompared_types);
    else
        fprintf(f, "not compared: the types neither snapshot lists, as ");
    for (int k = 0, said = 0; k < 2; k++) {
        if (lists[k]->listed_all)
            continue;
        fprintf(f, "%s%s %s %zu", said ? " and " : "", cli_vis(names[k]),
                said ? "only" : "lists only", lists[k]->count);
        said = 1;
        if (lists[k]->types_in_all)
            fprintf(f, " of its %zu", lists[k]->types_in_all);
        fprintf(f, " types");
    }
    fprintf(f, " (saved with --top); together they changed by %+lld objects, %+lld bytes. Save "
            "both snapshots without --top to compare every type.\n", d->uncompared_objects,
            d->uncompared_bytes);
}

void heap_print_diff_table(FILE *f, const heap_diff_t *d, long long top,
                           const heap_list_t *lists[2], const char *names[2])
{
    size_t n = shown(d->n, top);
    fprintf(f, "heap change: %+lld objects, %+lld bytes; %zu types changed\n", d->objects,
            d->bytes, d->n);
    if (!d->compared_all)
        print_uncompared(f, d, lists, names);
    fprintf(f, "%15s %12s %15s %12s  %s\n", "bytes +/-", "count +/-", "bytes after",
            "count after", "type");
    for (size_t i = 0; i < n; i++) {
        const heap_change_t *c = &d->changes[i];
        fprintf(f, "%+15lld %+12lld %15llu %12llu  %s\n", c->bytes, c->count,
                (unsigned long long)c->bytes_after, (unsigned long long)c->count_after,
                cli_vis(c->name));
    }
    if (n < d->n)
        fprintf(f, "(%zu more types changed; --top 0 lists them all)\n", d->n - n);
}
