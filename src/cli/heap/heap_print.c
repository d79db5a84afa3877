/* heap_print.c - a heap histogram as JSON (the --json form, which heap diff reads back) or as
 * a table. Type names come from the target: escaped in JSON, made visible in text. */
#include "heap/heap_view.h"
#include "base/cli.h"
#include "base/json_escape.h"

size_t heap_rows(const heap_list_t *l, long long top)
{
    return top > 0 && (unsigned long long)top < l->count ? (size_t)top : l->count;
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
        fprintf(f, "%s\n  {\"type\": \"", i ? "," : "");
        cli_json_escape(f, l->types[i].name, CLI_JSON_NEWLINE_SHORT);
        fprintf(f, "\", \"count\": %llu, \"bytes\": %llu}",
                (unsigned long long)l->types[i].count, (unsigned long long)l->types[i].bytes);
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
