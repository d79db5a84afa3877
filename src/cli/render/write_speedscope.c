/* write_speedscope.c - speedscope's file format (https://www.speedscope.app/file-format-schema.json):
 * shared frames, one "sampled" profile (or one per thread with --threads), stacks root first,
 * weights in the profile's unit. */
#include "base/json_escape.h"
#include "render/writers.h"

#include <string.h>

/* One sampled profile of the stacks of thread (or of all threads when thread < 0). */
static void write_one(const profile_t *p, long thread, const char *name, FILE *f)
{
    uint64_t total = 0;
    fputs("{\"type\":\"sampled\",\"name\":\"", f);
    cli_json_escape(f, name, CLI_JSON_SCRIPT_SAFE);
    /* speedscope's units have no "count": plain numbers are "none" there */
    fprintf(f, "\",\"unit\":\"%s\",\"startValue\":0,\"samples\":[",
            strcmp(p->weight_unit, "count") == 0 ? "none" : p->weight_unit);
    int first = 1;
    for (size_t i = 0; i < p->nstacks; i++) {
        const profile_stack_t *s = &p->stacks[i];
        if (thread >= 0 && s->thread != (uint32_t)thread)
            continue;
        fputs(first ? "[" : ",[", f);
        first = 0;
        for (uint32_t k = s->len; k > 0; k--)
            fprintf(f, "%s%u", k == s->len ? "" : ",", p->arena[s->off + k - 1]);
        fputc(']', f);
        total += s->weight;
    }
    fputs("],\"weights\":[", f);
    first = 1;
    for (size_t i = 0; i < p->nstacks; i++) {
        const profile_stack_t *s = &p->stacks[i];
        if (thread >= 0 && s->thread != (uint32_t)thread)
            continue;
        fprintf(f, "%s%llu", first ? "" : ",", (unsigned long long)s->weight);
        first = 0;
    }
    fprintf(f, "],\"endValue\":%llu}", (unsigned long long)total);
}

int profile_write_speedscope(const profile_t *p, const profile_write_opts_t *o, FILE *f)
{
    char label[128];
    const char *title = p->title ? p->title : "clrattach profile";
    fputs("{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\"name\":\"", f);
    cli_json_escape(f, title, CLI_JSON_SCRIPT_SAFE);
    fputs("\",\"exporter\":\"clrattach\",\"activeProfileIndex\":0,\"shared\":{\"frames\":[", f);
    for (size_t i = 0; i < p->nframes; i++) {
        fputs(i ? ",{\"name\":\"" : "{\"name\":\"", f);
        cli_json_escape(f, p->frames[i], CLI_JSON_SCRIPT_SAFE);
        fputs("\"}", f);
    }
    fputs("]},\"profiles\":[", f);
    if (o && o->threads && p->nthreads)
        for (size_t t = 0; t < p->nthreads; t++) {
            if (t)
                fputc(',', f);
            write_one(p, (long)t, profile_thread_label(p, (uint32_t)t, label, sizeof label), f);
        }
    else
        write_one(p, -1, title, f);
    fputs("]}\n", f);
    return ferror(f) ? -1 : 0;
}
