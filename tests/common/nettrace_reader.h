/* nettrace_reader.h - the tests' way to count a trace's events, now over the library's public
 * streaming decoder (clra_nettrace_decoder_*), whose own golden tests and TraceEvent
 * cross-check are in tests/unit/test_nettrace_decoder.c and tests/e2e/test_nettrace_crosscheck.c.
 *
 * Test code only (static functions in a header). Each event of every EventBlock goes to a
 * callback with its metadata, stack size and payload; the whole stream must be in memory. */
#ifndef CLRA_NETTRACE_READER_H
#define CLRA_NETTRACE_READER_H

#include "clrattach.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NT_UNUSED __attribute__((unused))

typedef clra_nettrace_metadata_t nt_meta_t; /* provider, event_id, event_name, ... */

typedef struct nt_event {
    const nt_meta_t *meta; /* NULL when the id was never defined */
    uint32_t metadata_id;
    uint32_t stack_id;
    int stack_bytes; /* size of that stack (0 = empty: no stack walked), -1 if not seen */
    const uint8_t *payload;
    uint32_t payload_len;
} nt_event_t;

typedef void (*nt_event_fn)(void *ctx, const nt_event_t *ev);

typedef struct nt_trace {
    int32_t version;
    uint64_t events;
    int ended; /* the stream is whole: the 01 end marker was its last byte */
    char error[200];
    nt_event_fn fn; /* the caller's, during nt_read */
    void *ctx;
} nt_trace_t;

static NT_UNUSED int nt_on_header(void *ctx, const clra_nettrace_header_t *h)
{
    ((nt_trace_t *)ctx)->version = h->version;
    return 0;
}

static NT_UNUSED int nt_on_event(void *ctx, const clra_nettrace_event_t *ev)
{
    nt_trace_t *t = ctx;
    nt_event_t e = {ev->meta, ev->metadata_id, ev->stack_id,
                    ev->stack ? (int)ev->stack_len : -1, ev->payload, ev->payload_len};
    t->events++;
    if (t->fn)
        t->fn(t->ctx, &e);
    return 0;
}

/* Reads a whole stream; 0, or -1 with t->error set. nt_free(t) when done. */
static NT_UNUSED int nt_read(const uint8_t *data, size_t len, nt_trace_t *t, nt_event_fn fn,
                             void *ctx)
{
    clra_nettrace_callbacks_t cb = {0};
    clra_nettrace_decoder_t *d;
    clra_nettrace_info_t info;
    clra_status_t st;
    memset(t, 0, sizeof *t);
    t->fn = fn;
    t->ctx = ctx;
    cb.header = nt_on_header;
    cb.event = nt_on_event;
    if (clra_nettrace_decoder_new(&cb, t, &d) != 0) {
        snprintf(t->error, sizeof t->error, "no memory for a decoder");
        return -1;
    }
    clra_nettrace_decoder_feed(d, data, len, NULL);
    clra_nettrace_decoder_end(d, &info, &st);
    clra_nettrace_decoder_free(d);
    t->ended = info.state == CLRA_NETTRACE_VALID;
    snprintf(t->error, sizeof t->error, "%.190s", info.problem);
    return t->ended ? 0 : -1;
}

static NT_UNUSED void nt_free(nt_trace_t *t)
{
    (void)t;
}

/* Reads a whole file into memory (tests only; traces here are small). */
static NT_UNUSED uint8_t *nt_load(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    *len = 0;
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *buf = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    *len = buf ? (size_t)n : 0;
    return buf;
}

#endif
