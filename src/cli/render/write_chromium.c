/* write_chromium.c - the Chrome trace-event format (chrome://tracing, Perfetto, Edge's
 * about:tracing; the shape dotnet-trace convert --format chromium writes): a "traceEvents" array
 * in which every frame on a thread's sampled stacks is a duration, a "B" event where it appears
 * and an "E" event where it leaves. Consecutive samples of a thread share the frames their stacks
 * share from the root; a pause longer than two sampling periods ends every duration. Times are
 * microseconds since the first sample ("ts", three decimals: nanoseconds kept). */
#define _GNU_SOURCE
#include "base/json_escape.h"
#include "render/writers.h"

#include <stdlib.h>

/* The samples of one thread come together, in time order (the timeline may be in any order). */
static const profile_t *sort_profile;

static int by_thread_then_time(const void *a, const void *b)
{
    const profile_moment_t *x = &sort_profile->timeline[*(const size_t *)a];
    const profile_moment_t *y = &sort_profile->timeline[*(const size_t *)b];
    uint32_t tx = sort_profile->stacks[x->stack].thread, ty = sort_profile->stacks[y->stack].thread;
    if (tx != ty)
        return tx < ty ? -1 : 1;
    if (x->t_ns != y->t_ns)
        return x->t_ns < y->t_ns ? -1 : 1;
    return *(const size_t *)a < *(const size_t *)b ? -1 : 1; /* stable: stream order */
}

typedef struct chromium_out {
    FILE *f;
    const profile_t *p;
    int first;
    uint32_t pid;
} chromium_out_t;

/* One "B" or "E" event of a frame on a thread. */
static void put_event(chromium_out_t *w, char ph, uint32_t frame, uint64_t tid, uint64_t t_ns)
{
    fputs(w->first ? "\n{\"name\":\"" : ",\n{\"name\":\"", w->f);
    w->first = 0;
    cli_json_escape(w->f, w->p->frames[frame], CLI_JSON_SCRIPT_SAFE);
    fprintf(w->f, "\",\"cat\":\"sample\",\"ph\":\"%c\",\"ts\":%llu.%03u,\"pid\":%u,\"tid\":%llu}",
            ph, (unsigned long long)(t_ns / 1000), (unsigned)(t_ns % 1000), w->pid,
            (unsigned long long)tid);
}

/* A metadata event naming the process (tid 0) or a thread. */
static void put_name(chromium_out_t *w, const char *what, uint64_t tid, const char *name)
{
    fprintf(w->f, "%s{\"name\":\"%s\",\"ph\":\"M\",\"pid\":%u,\"tid\":%llu,\"args\":{\"name\":\"",
            w->first ? "\n" : ",\n", what, w->pid, (unsigned long long)tid);
    w->first = 0;
    cli_json_escape(w->f, name, CLI_JSON_SCRIPT_SAFE);
    fputs("\"}}", w->f);
}

/* Closes open[keep..depth) at t_ns, deepest first; returns keep (the new depth). */
static uint32_t close_to(chromium_out_t *w, const uint32_t *open, uint32_t depth, uint32_t keep,
                         uint64_t tid, uint64_t t_ns)
{
    while (depth > keep) {
        depth--;
        put_event(w, 'E', open[depth], tid, t_ns);
    }
    return keep;
}

/* The B/E events of one thread's samples order[0..n), open[] holding up to max frames. */
static void write_thread(chromium_out_t *w, const size_t *order, size_t n, uint32_t *open)
{
    const profile_t *p = w->p;
    uint64_t period = p->period_ns ? p->period_ns : 1000000, last = 0;
    uint32_t depth = 0;
    uint64_t tid = p->threads[p->stacks[p->timeline[order[0]].stack].thread].tid;
    for (size_t i = 0; i < n; i++) {
        const profile_moment_t *m = &p->timeline[order[i]];
        const profile_stack_t *s = &p->stacks[m->stack];
        const uint32_t *leaf_first = s->len ? p->arena + s->off : NULL; /* arena NULL when
                                                                          * no stack has frames */
        if (i > 0 && m->t_ns - last > 2 * period) /* a pause: everything ended with the last */
            depth = close_to(w, open, depth, 0, tid, last + period);
        uint32_t same = 0;
        while (same < depth && same < s->len && open[same] == leaf_first[s->len - 1 - same])
            same++;
        depth = close_to(w, open, depth, same, tid, m->t_ns);
        for (; depth < s->len; depth++) {
            open[depth] = leaf_first[s->len - 1 - depth];
            put_event(w, 'B', open[depth], tid, m->t_ns);
        }
        last = m->t_ns;
    }
    close_to(w, open, depth, 0, tid, last + period);
}

int profile_write_chromium(const profile_t *p, const profile_write_opts_t *o, FILE *f)
{
    (void)o;
    chromium_out_t w = {f, p, 1, p->pid};
    size_t *order = malloc((p->ntimeline ? p->ntimeline : 1) * sizeof *order);
    uint32_t deepest = 1;
    for (size_t i = 0; i < p->nstacks; i++)
        deepest = p->stacks[i].len > deepest ? p->stacks[i].len : deepest;
    uint32_t *open = malloc(deepest * sizeof *open);
    if (!order || !open) {
        free(order);
        free(open);
        return -1;
    }
    for (size_t i = 0; i < p->ntimeline; i++)
        order[i] = i;
    sort_profile = p;
    qsort(order, p->ntimeline, sizeof *order, by_thread_then_time);
    fputs("{\"traceEvents\":[", f);
    put_name(&w, "process_name", 0, p->title ? p->title : "clrattach");
    for (size_t i = 0; i < p->nthreads; i++) {
        char label[64];
        snprintf(label, sizeof label, "%s (%llu)", p->threads[i].name[0] ? p->threads[i].name
                 : "thread", (unsigned long long)p->threads[i].tid);
        put_name(&w, "thread_name", p->threads[i].tid, label);
    }
    for (size_t i = 0, j; i < p->ntimeline; i = j) {
        uint32_t thread = p->stacks[p->timeline[order[i]].stack].thread;
        for (j = i; j < p->ntimeline && p->stacks[p->timeline[order[j]].stack].thread == thread;)
            j++;
        write_thread(&w, order + i, j - i, open);
    }
    fputs("\n],\"displayTimeUnit\":\"ms\",\"otherData\":{\"exporter\":\"clrattach\",\"name\":\"", f);
    cli_json_escape(f, p->title ? p->title : "clrattach", CLI_JSON_SCRIPT_SAFE);
    fputs("\"}}\n", f);
    free(order);
    free(open);
    return ferror(f) ? -1 : 0;
}
