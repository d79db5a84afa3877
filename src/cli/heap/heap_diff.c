/* heap_diff.c - `clrattach heap diff BEFORE AFTER`: what grew between two snapshots saved with
 * `clrattach heap --json -o FILE`: the verb's options, reading both files, and writing what
 * heap_compare.c found as heap_print.c lays it out. */
#define _GNU_SOURCE
#include "heap/heap_view.h"
#include "base/cli.h"
#include "base/options.h"
#include "base/output_file.h"

#include <stdlib.h>
#include <string.h>

typedef struct diff_opts {
    long long top;
    const char *output;
} diff_opts_t;

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
        "change are left out. A snapshot saved with --top lists only its largest types:\n"
        "a type it leaves out is not known there, so it is not compared (never shown as\n"
        "gone or new); one line says how many and how much they changed together (the\n"
        "totals count every type). With --json: {\"objects\": N, \"bytes\": N,\n"
        "\"compared_all\": B, \"before_listed_all\": B, \"after_listed_all\": B,\n"
        "\"uncompared_types\": N, \"uncompared_objects\": N, \"uncompared_bytes\": N,\n"
        "\"types\": [{\"type\": ..., \"count\": N, \"bytes\": N, \"count_after\": N,\n"
        "\"bytes_after\": N}]}, each number a change (after minus before) but the two\n"
        "*_after and uncompared_types (the types listed in one file only).\n",
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

/* Writes the comparison where --output says. The exit code. */
static int write_out(const diff_opts_t *o, int json, const heap_diff_t *d,
                     const heap_list_t *lists[2], const char *names[2])
{
    FILE *f = o->output ? out_file_fopen(o->output, "--output", "clrattach heap diff") : stdout;
    if (!f)
        return EXIT_INTERNAL;
    if (json)
        heap_print_diff_json(f, d, o->top);
    else
        heap_print_diff_table(f, d, o->top, lists, names);
    if ((f == stdout ? fflush(f) : fclose(f)) != 0 || ferror(stdout)) {
        fprintf(stderr, "clrattach heap diff: writing the output failed\n");
        return EXIT_INTERNAL;
    }
    return EXIT_OK;
}

/* Reads both files, writes the changes. The exit code. */
static int compare(const diff_opts_t *o, int json, char **files)
{
    heap_list_t b, a;
    heap_diff_t d;
    if (heap_load(files[0], &b))
        return EXIT_USAGE;
    if (heap_load(files[1], &a))
        return heap_list_free(&b), EXIT_USAGE;
    int code = EXIT_INTERNAL;
    if (heap_compare(&b, &a, &d) == 0) {
        const heap_list_t *lists[2] = {&b, &a};
        code = write_out(o, json, &d, lists, (const char *[2]){files[0], files[1]});
        heap_diff_free(&d);
    } else {
        fprintf(stderr, "clrattach heap diff: out of memory\n");
    }
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
