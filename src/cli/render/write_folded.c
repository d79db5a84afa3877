/* write_folded.c - collapsed stacks ("root;...;leaf COUNT", one line per distinct stack), the
 * input of flamegraph.pl and most flame-graph tools. Counts are the samples exactly, or the
 * weights for the profiles whose samples weigh different amounts (profile's event modes). */
#include "base/cli.h"
#include "render/writers.h"

/* A frame name with the separator ';' replaced and its control characters made visible, so a
 * name (the target's to choose) never splits a stack or starts a line of its own. */
static void put_frame(FILE *f, const char *name)
{
    for (const char *v = cli_vis(name); *v; v++)
        fputc(*v == ';' ? ',' : *v, f);
}

int profile_write_folded(const profile_t *p, const profile_write_opts_t *o, FILE *f)
{
    char label[128];
    for (size_t i = 0; i < p->nstacks; i++) {
        const profile_stack_t *s = &p->stacks[i];
        int first = 1;
        if (o && o->threads) {
            put_frame(f, profile_thread_label(p, s->thread, label, sizeof label));
            first = 0;
        }
        for (uint32_t k = s->len; k > 0; k--) {
            if (!first)
                fputc(';', f);
            put_frame(f, p->frames[p->arena[s->off + k - 1]]);
            first = 0;
        }
        fprintf(f, " %llu\n", (unsigned long long)(p->folded_weights ? s->weight : s->count));
    }
    return ferror(f) ? -1 : 0;
}
