/* sweep_stage.c - after a profiler leaves, its staged copies go: detach, attach --hold and
 * profile all end so, and none of them owns the others' files. detach says what was swept:
 * a count in text, or every stage directory judged in one JSON object after the profilers'. */
#define _GNU_SOURCE /* strdup under -std=c11 */
#include "base/cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One stage directory the sweep judged, copied out of its callback. */
typedef struct swept_copy {
    char *path, *local;
    int fate, err;
} swept_copy_t;

typedef struct swept {
    swept_copy_t *items;
    int n, failed;
} swept_t;

/* Keeps what the sweep tells; a copy that cannot be kept (no memory) is left out of the report,
 * not out of the sweep. */
static void keep(void *ctx, const clra_stage_swept_t *d)
{
    swept_t *s = ctx;
    swept_copy_t *more = realloc(s->items, (size_t)(s->n + 1) * sizeof *more);
    if (!more)
        return;
    s->items = more;
    swept_copy_t *c = &s->items[s->n];
    *c = (swept_copy_t){strdup(d->target_path), strdup(d->local_path), d->fate, d->sys_errno};
    if (!c->path || !c->local) {
        free(c->path);
        free(c->local);
        return;
    }
    s->failed += d->fate == CLRA_STAGE_FAILED;
    s->n++;
}

static const char *fate_name(int fate)
{
    return fate == CLRA_STAGE_REMOVED  ? "removed"
           : fate == CLRA_STAGE_IN_USE ? "in_use"
           : fate == CLRA_STAGE_OWED   ? "owed"
                                       : "failed";
}

/* One object, only when the sweep judged something: a process never staged for keeps the
 * one-object-per-profiler output it always had. ok is false when a copy could not be removed;
 * the exit code never changes (the next sweep tries again), so the object carries none. */
static void report_json(int pid, const swept_t *s)
{
    json_out_t j;
    if (s->n == 0)
        return;
    json_begin(&j, stdout);
    json_bool(&j, "ok", s->failed == 0);
    json_int(&j, "pid", pid);
    json_array(&j, "staged_copies");
    for (int i = 0; i < s->n; i++) {
        json_object(&j, NULL);
        json_str(&j, "path", s->items[i].path);
        json_str(&j, "local_path", s->items[i].local);
        json_str(&j, "state", fate_name(s->items[i].fate));
        if (s->items[i].fate == CLRA_STAGE_FAILED)
            json_str(&j, "error", strerror(s->items[i].err));
        json_close(&j);
    }
    json_end(&j);
}

/* The count on stdout, and on stderr each copy that could not be removed. */
static void report_text(int pid, const swept_t *s, int removed)
{
    if (removed > 0)
        printf("removed %d staged profiler cop%s from process %d's temp directory\n", removed,
               removed == 1 ? "y" : "ies", pid);
    for (int i = 0; i < s->n; i++)
        if (s->items[i].fate == CLRA_STAGE_FAILED)
            fprintf(stderr, "clrattach: could not remove the staged copy %s: %s\n",
                    cli_vis(s->items[i].local[0] ? s->items[i].local : s->items[i].path),
                    strerror(s->items[i].err));
}

/* The sweep's failures only matter to the next sweep (clra_stage_create sweeps too). */
void cli_sweep_stage(int pid, int how)
{
    swept_t s = {0};
    int removed = 0;
    clra_status_t st;
    if (clra_stage_sweep2(pid, how == CLI_SWEEP_QUIET ? NULL : keep, &s, &removed, &st) == 0) {
        if (how == CLI_SWEEP_JSON)
            report_json(pid, &s);
        else if (how == CLI_SWEEP_TEXT)
            report_text(pid, &s, removed);
    }
    for (int i = 0; i < s.n; i++) {
        free(s.items[i].path);
        free(s.items[i].local);
    }
    free(s.items);
}
