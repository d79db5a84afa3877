/* write_top.c - the hottest methods as a table: self (the frame was the leaf) and total (the
 * frame was anywhere on the stack, counted once per stack however deep it recursed), as shares
 * of the profile's weight (CPU time in cpu mode, thread time in wall mode). */
#include "base/cli.h"
#include "render/writers.h"

#include <stdlib.h>
#include <string.h>

typedef struct row {
    uint32_t frame;
    uint64_t self, total, samples;
} row_t;

static int by_self(const void *a, const void *b)
{
    const row_t *x = a, *y = b;
    if (x->self != y->self)
        return x->self < y->self ? 1 : -1;
    if (x->total != y->total)
        return x->total < y->total ? 1 : -1;
    return x->frame < y->frame ? -1 : x->frame > y->frame;
}

/* Adds one stack's weight to its frames' rows; seen[] marks frames already counted in total. */
static void account(const profile_t *p, const profile_stack_t *s, row_t *rows, uint32_t *seen,
                    uint32_t stamp)
{
    for (uint32_t k = 0; k < s->len; k++) {
        uint32_t fr = p->arena[s->off + k];
        if (k == 0)
            rows[fr].self += s->weight, rows[fr].samples += s->count;
        if (seen[fr] != stamp) {
            seen[fr] = stamp;
            rows[fr].total += s->weight;
        }
    }
}

int profile_write_top(const profile_t *p, const profile_write_opts_t *o, FILE *f)
{
    row_t *rows = calloc(p->nframes ? p->nframes : 1, sizeof *rows);
    uint32_t *seen = calloc(p->nframes ? p->nframes : 1, sizeof *seen);
    if (!rows || !seen) {
        free(rows), free(seen);
        return -1;
    }
    for (size_t i = 0; i < p->nframes; i++)
        rows[i].frame = (uint32_t)i;
    for (size_t i = 0; i < p->nstacks; i++)
        account(p, &p->stacks[i], rows, seen, (uint32_t)i + 1);
    qsort(rows, p->nframes, sizeof *rows, by_self);
    double all = (double)profile_total_weight(p);
    int n = o && o->top_n > 0 ? o->top_n : 20;
    fprintf(f, "%7s %7s %9s  %s\n", "self%", "total%", "samples", "method");
    for (size_t i = 0; i < p->nframes && (int)i < n && rows[i].self + rows[i].total; i++)
        fprintf(f, "%6.2f%% %6.2f%% %9llu  %s\n", all ? 100.0 * (double)rows[i].self / all : 0.0,
                all ? 100.0 * (double)rows[i].total / all : 0.0,
                (unsigned long long)rows[i].samples, cli_vis(p->frames[rows[i].frame]));
    free(rows), free(seen);
    return ferror(f) ? -1 : 0;
}
