/* heap_diff.c - `clrattach heap diff BEFORE AFTER`: what grew between two snapshots saved with
 * `clrattach heap --json -o FILE`. Types are matched by name; each with a change is listed with
 * its change in bytes and count and its figures after, most growth first, shrinking types
 * last. */
#define _GNU_SOURCE
#include "heap/heap_view.h"
#include "base/cli.h"
#include "base/json_escape.h"
#include "base/options.h"
#include "base/output_file.h"

#include <stdlib.h>
#include <string.h>

typedef struct diff_opts {
    long long top;
    const char *output;
} diff_opts_t;

typedef struct change {
    const char *name;
    long long count, bytes;       /* after - before */
    uint64_t count_after, bytes_after;
} change_t;

static const cli_opt_t diff_opts[] = {
    CLI_INT("top", diff_opts_t, top, "N", 0, 1000000000,
            "list the N types that changed most (default 30, with --json every type;\n"
            "0: every type that changed)"),
    CLI_OUTPUT(diff_opts_t, output, "FILE", "write there instead of stdout"),
    CLI_END,
};

static const cli_verb_t diff_verb = {
    .name = "heap diff",
    .synopsis = "BEFORE.json AFTER.json",
    .description =
        "Compares two heap snapshots written by 'clrattach heap --json -o FILE' and lists\n"
        "what grew: per type (matched by name) the change in bytes and objects and the\n"
        "figures after, most growth first, types that shrank last; types that did not\n"
        "change are left out. With --json: {\"objects\": N, \"bytes\": N, \"types\":\n"
        "[{\"type\": ..., \"count\": N, \"bytes\": N, \"count_after\": N, \"bytes_after\": N}]},\n"
        "each number a change (after minus before) but the two *_after.\n",
    .epilogue = "example:\n"
                "  clrattach heap --json -o before.json PID\n"
                "  (let the process run)\n"
                "  clrattach heap --json -o after.json PID\n"
                "  clrattach heap diff before.json after.json\n"
                "\n"
                "exit codes: 0 compared, 1 the output could not be written, 2 usage or a file\n"
                "that is not such a snapshot.\n",
    .opts = diff_opts,
    .common = CLI_COMMON_JSON,
    .json_help = "print the changes as one JSON object",
    .min_args = 2,
    .max_args = 2,
    .args_error = "expected two snapshot files: BEFORE.json AFTER.json",
};

static int by_name(const void *a, const void *b)
{
    return strcmp(((const clra_heap_type_stat_t *)a)->name,
                  ((const clra_heap_type_stat_t *)b)->name);
}

/* Most bytes gained first; among equal bytes most objects gained, then by name. */
static int by_growth(const void *a, const void *b)
{
    const change_t *x = a, *y = b;
    if (x->bytes != y->bytes)
        return x->bytes < y->bytes ? 1 : -1;
    if (x->count != y->count)
        return x->count < y->count ? 1 : -1;
    return strcmp(x->name, y->name);
}

/* The changed types of before and after (each sorted by name here) into *out. */
static size_t changes(heap_list_t *b, heap_list_t *a, change_t *out)
{
    qsort(b->types, b->count, sizeof *b->types, by_name);
    qsort(a->types, a->count, sizeof *a->types, by_name);
    size_t i = 0, j = 0, n = 0;
    while (i < b->count || j < a->count) {
        int c = i == b->count ? 1 : j == a->count ? -1 : strcmp(b->types[i].name, a->types[j].name);
        const clra_heap_type_stat_t *x = c <= 0 ? &b->types[i++] : NULL;
        const clra_heap_type_stat_t *y = c >= 0 ? &a->types[j++] : NULL;
        change_t d = {.name = x ? x->name : y->name,
                      .count = (long long)(y ? y->count : 0) - (long long)(x ? x->count : 0),
                      .bytes = (long long)(y ? y->bytes : 0) - (long long)(x ? x->bytes : 0),
                      .count_after = y ? y->count : 0,
                      .bytes_after = y ? y->bytes : 0};
        if (d.count || d.bytes)
            out[n++] = d;
    }
    qsort(out, n, sizeof *out, by_growth);
    return n;
}

static void print_json(FILE *f, const change_t *c, size_t n, long long objects, long long bytes)
{
    fprintf(f, "{\"objects\": %lld, \"bytes\": %lld, \"types\": [", objects, bytes);
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "%s\n  {\"type\": \"", i ? "," : "");
        cli_json_escape(f, c[i].name, CLI_JSON_NEWLINE_SHORT);
        fprintf(f, "\", \"count\": %lld, \"bytes\": %lld, \"count_after\": %llu, "
                "\"bytes_after\": %llu}", c[i].count, c[i].bytes,
                (unsigned long long)c[i].count_after, (unsigned long long)c[i].bytes_after);
    }
    fprintf(f, "%s]}\n", n ? "\n" : "");
}

static void print_table(FILE *f, const change_t *c, size_t n, size_t total, long long objects,
                        long long bytes)
{
    fprintf(f, "heap change: %+lld objects, %+lld bytes; %zu types changed\n", objects, bytes,
            total);
    fprintf(f, "%15s %12s %15s %12s  %s\n", "bytes +/-", "count +/-", "bytes after",
            "count after", "type");
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%+15lld %+12lld %15llu %12llu  %s\n", c[i].bytes, c[i].count,
                (unsigned long long)c[i].bytes_after, (unsigned long long)c[i].count_after,
                cli_vis(c[i].name));
    if (n < total)
        fprintf(f, "(%zu more types changed; --top 0 lists them all)\n", total - n);
}

/* Reads both files, writes the changes. The exit code. */
static int compare(const diff_opts_t *o, int json, char **files)
{
    heap_list_t b, a;
    if (heap_load(files[0], &b))
        return EXIT_USAGE;
    if (heap_load(files[1], &a))
        return heap_list_free(&b), EXIT_USAGE;
    change_t *c = malloc((a.count + b.count + 1) * sizeof *c);
    int code = c ? EXIT_OK : EXIT_INTERNAL;
    FILE *f = !c ? NULL : o->output ? out_file_fopen(o->output, "--output", "clrattach heap diff")
                                    : stdout;
    if (c && f) {
        size_t total = changes(&b, &a, c);
        size_t n = o->top > 0 && (unsigned long long)o->top < total ? (size_t)o->top : total;
        long long objects = (long long)a.objects - (long long)b.objects;
        long long bytes = (long long)a.bytes - (long long)b.bytes;
        if (json)
            print_json(f, c, n, objects, bytes);
        else
            print_table(f, c, n, total, objects, bytes);
        if ((f == stdout ? fflush(f) : fclose(f)) != 0 || ferror(stdout)) {
            fprintf(stderr, "clrattach heap diff: writing the output failed\n");
            code = EXIT_INTERNAL;
        }
    } else if (c) {
        code = EXIT_INTERNAL;
    }
    free(c);
    heap_list_free(&b);
    heap_list_free(&a);
    return code;
}

int heap_diff_main(int argc, char **argv)
{
    diff_opts_t o = {.top = -1};
    cli_args_t a;
    int p = cli_parse(&diff_verb, argc, argv, &o, &a);
    if (p)
        return p > 0 ? EXIT_OK : a.fail_exit;
    if (o.top < 0)
        o.top = a.json ? 0 : 30; /* JSON lists every change unless told otherwise */
    return compare(&o, a.json, a.args);
}
