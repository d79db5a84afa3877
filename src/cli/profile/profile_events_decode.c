/* profile_events_decode.c - what the event modes take from the decoded stream: the header's
 * pointer size and clock, method loads and rundown for the names, the runtime's other events
 * for the mode. Shared by the live session and the fuzz target (bytes in memory). */
#include "profile/profile_events.h"

#include <string.h>

#define RUNTIME "Microsoft-Windows-DotNETRuntime"
#define RUNDOWN "Microsoft-Windows-DotNETRuntimeRundown"

static const pe_mode_t *const modes[] = {&pe_mode_alloc, &pe_mode_lock, &pe_mode_exception,
                                         &pe_mode_wait};

const pe_mode_t *pe_mode_find(const char *word)
{
    for (size_t i = 0; word && i < sizeof modes / sizeof modes[0]; i++)
        if (strcmp(modes[i]->name, word) == 0)
            return modes[i];
    return NULL;
}

static int on_header(void *ctx, const clra_nettrace_header_t *h)
{
    pe_run_t *r = ctx;
    r->pointer_size = h->pointer_size == 4 ? 4 : 8;
    r->qpc_frequency = h->qpc_frequency;
    return 0;
}

/* Method loads and rundown name the stacks; the mode takes the runtime's other events. Out of
 * memory stops the decoder. */
static int on_event(void *ctx, const clra_nettrace_event_t *ev)
{
    pe_run_t *r = ctx;
    const clra_nettrace_metadata_t *m = ev->meta;
    if (!m || !m->provider)
        return 0;
    int runtime = strcmp(m->provider, RUNTIME) == 0;
    if ((runtime || strcmp(m->provider, RUNDOWN) == 0) &&
        (m->event_id == 143 || m->event_id == 144))
        pe_method(r, ev);
    else if (runtime) {
        const char *name = clra_runtime_event_name(m);
        if (name)
            r->mode->event(r, ev, name);
    }
    return r->oom;
}

void pe_callbacks(clra_nettrace_callbacks_t *cb)
{
    memset(cb, 0, sizeof *cb);
    cb->header = on_header;
    cb->event = on_event;
}

int pe_decode_buffer(pe_run_t *r, const void *data, size_t len)
{
    clra_nettrace_callbacks_t cb;
    clra_nettrace_decoder_t *d;
    clra_nettrace_info_t info;
    pe_callbacks(&cb);
    if (!r->pointer_size)
        r->pointer_size = 8;
    int rc = clra_nettrace_decoder_new(&cb, r, &d);
    if (rc)
        return rc;
    rc = clra_nettrace_decoder_feed(d, data, len, NULL);
    int end = clra_nettrace_decoder_end(d, &info, NULL);
    clra_nettrace_decoder_free(d);
    return rc ? rc : end;
}
