/* heap_print.c - a heap histogram as JSON (the --json form, which heap diff reads back) or as
 * a table. Type names come from the target: escaped in JSON, made visible in text. */
#include "heap/heap_view.h"
#include "base/cli.h"
#include "base/json_escape.h"

size_t heap_rows(const heap_list_t *l, long long top)
{
    return top > 0 && (unsigned long long)top < l->count ? (size_t)top : l->count;
}

void heap_print_json(FILE *f, const heap_list_t *l, long long top)
{
    size_t n = heap_rows(l, top);
    fprintf(f, "{\"objects\": %llu, \"bytes\": %llu, \"types\": [",
            (unsigned long long)l->objects, (unsigned long long)l->bytes);
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
        uint64_t bytes = 0, count = 0;
        for (size_t i = n; i < l->count; i++) {
            bytes += l->types[i].bytes;
            count += l->types[i].count;
        }
        fprintf(f, "%15llu %12llu  (%zu more types; --top 0 lists every type)\n",
                (unsigned long long)bytes, (unsigned long long)count, l->count - n);
    }
}
