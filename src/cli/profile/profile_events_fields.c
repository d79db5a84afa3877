/* profile_events_fields.c - the named fields of a runtime event (the runtime's metadata names
 * none: clra_runtime_event_walk reads them by the manifest's layouts). */
#include "profile/profile_events.h"

#include <stdio.h>
#include <string.h>

typedef struct wanted {
    pe_field_t *fs;
    int n, found;
} wanted_t;

/* Keeps the top-level values whose names are asked for. */
static int take(void *ctx, const clra_nettrace_value_t *v)
{
    wanted_t *w = ctx;
    if (v->kind != CLRA_NETTRACE_VALUE || v->depth != 0)
        return 0;
    for (int i = 0; i < w->n; i++) {
        pe_field_t *f = &w->fs[i];
        if (f->found || strcmp(f->name, v->name) != 0)
            continue;
        f->found = 1;
        f->u = v->u;
        f->f = v->f;
        snprintf(f->text, sizeof f->text, "%s", v->text ? v->text : "");
        w->found++;
    }
    return 0;
}

int pe_fields(const pe_run_t *r, const clra_nettrace_event_t *ev, pe_field_t *fs, int n)
{
    wanted_t w = {fs, n, 0};
    for (int i = 0; i < n; i++)
        fs[i].found = 0, fs[i].u = 0, fs[i].f = 0, fs[i].text[0] = 0;
    /* A payload cut short still gives the fields before the cut. */
    clra_runtime_event_walk(ev->meta, ev->payload, ev->payload_len, r->pointer_size, take, &w,
                            NULL, NULL);
    return w.found;
}
