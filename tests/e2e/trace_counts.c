/* trace_counts.c - one reading of trace files for the trace and launch tests. */
#define _GNU_SOURCE
#include "trace_counts.h"
#include "nettrace_reader.h"
#include "test.h"

#include "clrattach.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MODULE_LOAD_EVENT 152 /* ModuleLoad_V2 */

/* Whether an event's payload holds the ASCII text as UTF-16 (runtime events carry paths so). */
static int payload_has(const nt_event_t *ev, const char *ascii)
{
    char wide[256];
    size_t n = strlen(ascii);
    for (size_t i = 0; i < n && 2 * i + 1 < sizeof wide; i++) {
        wide[2 * i] = ascii[i];
        wide[2 * i + 1] = 0;
    }
    return memmem(ev->payload, ev->payload_len, wide, 2 * n) != NULL;
}

/* Tick payload: int32 Sequence, then UTF-16 Text "tick <Sequence>" with its NUL. */
static void count_tick(trace_counts_t *c, const nt_event_t *ev)
{
    c->ticks++;
    c->ticks_with_stack += ev->stack_bytes > 0;
    c->ticks_without_stack += ev->stack_bytes == 0;
    if (ev->payload_len < 4) {
        c->bad_text++;
        return;
    }
    int32_t seq = (int32_t)(ev->payload[0] | ev->payload[1] << 8 | ev->payload[2] << 16 |
                            (uint32_t)ev->payload[3] << 24);
    char want[32], got[32] = "";
    snprintf(want, sizeof want, "tick %d", (int)seq);
    for (uint32_t i = 4, n = 0; i + 1 < ev->payload_len && n + 1 < sizeof got; i += 2, n++) {
        got[n] = (char)ev->payload[i];
        got[n + 1] = '\0';
    }
    if (seq >= 0 && seq < 2000)
        c->seen[seq]++;
    c->bad_text += strcmp(want, got) != 0;
}

static void count_event(void *ctx, const nt_event_t *ev)
{
    trace_counts_t *c = ctx;
    if (!ev->meta)
        return;
    if (strcmp(ev->meta->provider, RUNDOWN_PROVIDER) == 0)
        c->rundown++;
    if (!strcmp(ev->meta->provider, RUNTIME_PROVIDER) && ev->meta->event_id < 1024)
        c->runtime_ids[ev->meta->event_id]++;
    if (!strcmp(ev->meta->provider, RUNTIME_PROVIDER) && ev->meta->event_id == MODULE_LOAD_EVENT) {
        c->loads++;
        c->loads_sample += payload_has(ev, "/sample.dll");
        c->loads_corelib += payload_has(ev, "/System.Private.CoreLib.dll");
        c->loads_hook += payload_has(ev, "/clra_hook.dll");
    }
    if (strcmp(ev->meta->provider, SAMPLE_PROVIDER) == 0 && ev->meta->event_id == 1)
        count_tick(c, ev);
}

void count_trace(const uint8_t *data, size_t len, trace_counts_t *c)
{
    nt_trace_t t;
    memset(c, 0, sizeof *c);
    ASSERT_MSG(nt_read(data, len, &t, count_event, c) == 0, "%s", t.error);
    ASSERT_EQ(t.version, 4);
    ASSERT(t.ended);
    nt_free(&t);
}

void read_trace_counts(const char *path, trace_counts_t *c)
{
    size_t len;
    clra_nettrace_info_t info;
    uint8_t *data = nt_load(path, &len);
    ASSERT_MSG(data != NULL, "cannot read %s", path);
    ASSERT_EQ(clra_nettrace_check(data, len, &info), 0);
    ASSERT_MSG(info.state == CLRA_NETTRACE_VALID, "%s: %s", path, info.problem);
    ASSERT_EQ(data[len - 1], 0x01);
    count_trace(data, len, c);
    free(data);
}

void assert_ticks(const trace_counts_t *c, int n)
{
    ASSERT_EQ(c->ticks, n);
    ASSERT_EQ(c->bad_text, 0);
    for (int i = 0; i < n; i++)
        ASSERT_MSG(c->seen[i] == 1, "Tick %d came %d times", i, c->seen[i]);
}
