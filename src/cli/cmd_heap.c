/* cmd_heap.c - `clrattach heap`: a histogram of a process's live objects by type, from a GC
 * heap snapshot over the diagnostics port (the session dotnet-gcdump starts: the runtime runs a
 * full, blocking GC and walks the heap into the stream), decoded as it streams by the
 * library's heap snapshot; `clrattach heap diff` compares two saved snapshots
 * (heap/heap_diff.c). */
#define _GNU_SOURCE
#include "verbs.h"
#include "base/cli.h"
#include "base/interrupt.h"
#include "base/options.h"
#include "base/output_file.h"
#include "heap/heap_view.h"

#include <string.h>

#define PUMP_WAIT_MS 100
#define DEFAULT_HEAP_TIMEOUT_MS 30000

typedef struct heap_opts {
    long long top;
    const char *output;
} heap_opts_t;

typedef struct heap_run {
    clra_heap_snapshot_t *snap;
    clra_nettrace_decoder_t *decoder;
    int interrupted;    /* Ctrl-C (or SIGTERM) came before the walk was complete */
    int rc;
    clra_status_t st;
} heap_run_t;

static const cli_opt_t heap_opts[] = {
    CLI_INT("top", heap_opts_t, top, "N", 0, 1000000000,
            "list the N largest types (default 30, with --json every type; 0: every type)"),
    CLI_OUTPUT(heap_opts_t, output, "FILE", "write there instead of stdout"),
    CLI_END,
};

static const cli_verb_t heap_verb = {
    .name = "heap",
    .synopsis = "PID",
    .description =
        "Counts the live objects of .NET process PID by type (objects and bytes), largest\n"
        "first, from a GC heap snapshot taken over the diagnostics port, the way\n"
        "dotnet-gcdump takes one. Taking it FORCES A FULL, BLOCKING GARBAGE COLLECTION in\n"
        "the process: its threads stop for the collection and the walk of the heap (tens\n"
        "of milliseconds for a small heap, seconds for gigabytes), then run on. The\n"
        "objects are counted as they stream in: memory stays small whatever the heap's\n"
        "size. With --json: {\"objects\": N, \"bytes\": N, \"listed_all\": B,\n"
        "\"types_in_all\": N, \"unlisted_objects\": N, \"unlisted_bytes\": N, \"types\":\n"
        "[{\"type\": \"Ns.Type\", \"count\": N, \"bytes\": N}, ...]}: the totals count every\n"
        "type; listed_all is false when --top left types out, and unlisted_* are theirs.\n"
        "Two such files compare with 'clrattach heap diff BEFORE.json AFTER.json' (what\n"
        "grew; 'clrattach heap diff --help'); saved without --top, every type compares.\n",
    .epilogue =
        "examples:\n"
        "  clrattach heap PID\n"
        "  clrattach heap --top 10 -p PID\n"
        "  clrattach heap --json -o before.json PID; ...; clrattach heap --json -o after.json PID\n"
        "  clrattach heap diff before.json after.json\n"
        "\n"
        "exit codes: 0 counted, 1 the output could not be written, 2 usage, 3 no such\n"
        "process, 5 no endpoint, 6 permission denied, 7 no complete snapshot within\n"
        "--timeout or before Ctrl-C (nothing is written), 8 connection or protocol\n"
        "failure (the process exited, or the stream was corrupt), 10 the runtime refused.\n",
    .opts = heap_opts,
    .common = CLI_COMMON_JSON | CLI_COMMON_TIMEOUT,
    .json_help = "print the histogram as one JSON object (the form heap diff reads)",
    .timeout_help = "deadline for the whole snapshot (start, GC, walk, stop), in\n"
                    "milliseconds",
    .default_timeout_ms = DEFAULT_HEAP_TIMEOUT_MS,
    .pid = 1,
    .args_error = "expected one PID (or: heap diff BEFORE.json AFTER.json)",
};

static int on_header(void *ctx, const clra_nettrace_header_t *hdr)
{
    heap_run_t *h = ctx;
    h->rc = clra_heap_snapshot_header(h->snap, hdr, &h->st);
    return h->rc != 0;
}

static int on_event(void *ctx, const clra_nettrace_event_t *ev)
{
    heap_run_t *h = ctx;
    h->rc = clra_heap_snapshot_event(h->snap, ev, &h->st);
    return h->rc != 0;
}

/* The trace sink: stream bytes to the decoder until something failed. */
static int feed(void *ctx, const void *data, size_t len)
{
    heap_run_t *h = ctx;
    if (h->rc) /* the snapshot refused an event: rc and st say why */
        return 0;
    int rc = clra_nettrace_decoder_feed(h->decoder, data, len, &h->st);
    if (rc && h->rc == 0) /* the snapshot's own refusal, set in on_event, comes first */
        h->rc = rc;
    return 0;
}

/* Pumps until the snapshot is complete, the stream ends, Ctrl-C or the deadline. */
static int wait_complete(heap_run_t *h, clra_trace_session_t *s, cli_run_t *cr, double budget,
                         clra_status_t *st)
{
    while (clra_heap_snapshot_state(h->snap) != CLRA_HEAP_COMPLETE) {
        if (h->rc)
            return *st = h->st, h->rc;
        if (s->eof) {
            snprintf(st->detail, sizeof st->detail, "the stream ended before the heap walk "
                     "did (the process exited?)");
            return CLRA_ECONNLOST;
        }
        if (cli_interrupted()) {
            snprintf(st->detail, sizeof st->detail, "interrupted before the snapshot was "
                     "complete");
            h->interrupted = 1;
            return CLRA_ETIMEDOUT;
        }
        if (cli_run_left_ms(cr, budget) <= 1) {
            snprintf(st->detail, sizeof st->detail, "no complete heap walk within the %.0f ms "
                     "of --timeout (state: %s); a large heap needs a longer --timeout", budget,
                     clra_heap_snapshot_state(h->snap) == CLRA_HEAP_WALKING ? "walking"
                                                                           : "no GC yet");
            return CLRA_ETIMEDOUT;
        }
        int rc = clra_trace_pump(s, feed, h, PUMP_WAIT_MS, st);
        if (rc)
            return rc;
    }
    return 0;
}

/* Starts the session, waits for the walk, stops the session: 0 or a CLRA_E code with st. */
static int snapshot(heap_run_t *h, int pid, cli_run_t *cr, double budget, clra_status_t *st)
{
    clra_trace_config_t cfg;
    clra_trace_session_t s;
    clra_nettrace_callbacks_t cb = {0};
    cb.header = on_header;
    cb.event = on_event;
    clra_trace_config_init(&cfg);
    clra_target_t target = clra_target_pid(pid);
    int rc = clra_heap_config(&cfg, st);
    if (rc == 0)
        rc = clra_nettrace_decoder_new(&cb, h, &h->decoder);
    if (rc == 0)
        rc = clra_trace_start(&target, &cfg, cli_run_left_ms(cr, budget), &s, st);
    clra_trace_config_free(&cfg);
    if (rc)
        return rc;
    rc = wait_complete(h, &s, cr, budget, st);
    if (!s.eof) { /* late BulkType events still name types while the stop drains */
        clra_status_t stop_st;
        int stopped = clra_trace_stop(&s, &target, feed, h, cli_run_left_ms(cr, budget),
                                      &stop_st);
        if (rc == 0 && stopped && clra_heap_snapshot_state(h->snap) != CLRA_HEAP_COMPLETE)
            rc = stopped, *st = stop_st;
    }
    clra_trace_session_close(&s);
    return rc;
}

/* Writes the histogram where --output says. The exit code. */
static int write_out(const heap_opts_t *o, int json, int pid, const clra_heap_histogram_t *hh)
{
    heap_list_t l = {.types = hh->types, .count = hh->count, .objects = hh->objects,
                     .bytes = hh->bytes};
    FILE *f = o->output ? out_file_fopen(o->output, "--output", "clrattach heap") : stdout;
    if (!f)
        return EXIT_INTERNAL;
    long long top = o->top >= 0 ? o->top : json ? 0 : 30;
    if (json) {
        heap_print_json(f, &l, top);
    } else {
        fprintf(f, "process %d: %llu objects, %llu bytes, %zu types (GC %u", pid,
                (unsigned long long)hh->objects, (unsigned long long)hh->bytes, hh->count,
                hh->gc);
        if (hh->pause_ms >= 0)
            fprintf(f, ", full and blocking: the process paused %.1f ms", hh->pause_ms);
        fprintf(f, ")\n");
        heap_print_table(f, &l, top);
    }
    if ((f == stdout ? fflush(f) : fclose(f)) != 0) {
        fprintf(stderr, "clrattach heap: writing %s failed\n",
                o->output ? cli_vis(o->output) : "the output");
        return EXIT_INTERNAL;
    }
    return EXIT_OK;
}

/* Ctrl-C is the user's own stop, not a failure to explain: one line saying so, and that no
 * histogram went anywhere (the --output file is only created once the snapshot is complete). */
static void say_interrupted(const cli_failure_t *f, const void *ctx)
{
    const heap_opts_t *o = ctx;
    (void)f;
    fprintf(stderr, "clrattach heap: interrupted before the heap walk was complete: nothing "
            "was written%s%s\n", o->output ? " to " : "", o->output ? cli_vis(o->output) : "");
}

/* Takes the snapshot and prints it. The exit code. */
static int run(const heap_opts_t *o, const cli_args_t *a)
{
    heap_run_t h = {0};
    cli_run_t cr;
    clra_status_t st = {0};
    cli_run_begin(&cr, a->pid, a->json);
    int rc = clra_heap_snapshot_new(&h.snap);
    if (rc == 0)
        rc = snapshot(&h, a->pid, &cr, (double)a->timeout_ms, &st);
    clra_heap_histogram_t hh;
    if (rc == 0)
        rc = clra_heap_histogram_get(h.snap, &hh, &st);
    clra_nettrace_decoder_free(h.decoder);
    clra_heap_snapshot_free(h.snap);
    if (rc)
        return cli_fail(&cr, &(cli_failure_t){.rc = rc, .st = &st,
                                               .action = "take a heap snapshot of",
                                               .say = h.interrupted ? say_interrupted : NULL,
                                               .ctx = o});
    if (hh.batches_lost)
        fprintf(stderr, "clrattach heap: warning: %u batches of the heap walk were lost (the "
                "session's buffer overflowed): the counts are low\n", hh.batches_lost);
    int code = write_out(o, a->json, a->pid, &hh);
    clra_heap_histogram_free(&hh);
    return code;
}

int cmd_heap(int argc, char **argv)
{
    heap_opts_t o = {.top = -1};
    cli_args_t a;
    if (argc > 1 && strcmp(argv[1], "diff") == 0)
        return heap_diff_main(argc - 1, argv + 1);
    int p = cli_parse(&heap_verb, argc, argv, &o, &a);
    if (p)
        return p > 0 ? EXIT_OK : a.fail_exit;
    cli_catch_interrupt();
    return run(&o, &a);
}
