/* process_info.c - ProcessInfo3 -> ProcessInfo2 -> ProcessInfo (docs/protocol.md 3.4): who the
 * runtime is, asked newest first, falling back only when the runtime does not know a command. */
#include "command_target.h"
#include "process_list.h"
#include "proto/process_codec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One attempt with one command on a fresh connection (one command per connection). */
static int ask(clra__endpoint_t *ep, int command, const clra__deadline_t *d,
               clra_process_info_t *out, clra_status_t *st)
{
    static const uint8_t ids[4] = {0, CLRA__PROCESS_INFO, CLRA__PROCESS_INFO2,
                                   CLRA__PROCESS_INFO3};
    uint8_t req[CLRA__HEADER_SIZE];
    clra__writer_t w;
    clra__reply_t reply;
    clra__writer_init(&w, req, sizeof req);
    int rc = clra__build_empty(&w, CLRA__SET_PROCESS, ids[command]);
    if (rc == 0)
        rc = clra__request(ep, req, w.len, d, &reply, NULL, st);
    if (rc)
        return rc;
    rc = clra__reply_check(&reply, st);
    if (rc == 0)
        rc = clra__parse_process_info(command, reply.payload, reply.len, out, st);
    clra__reply_free(&reply);
    return rc;
}

/* Newest command first, older ones only while the runtime does not know the newer. */
static int ask_newest(clra__endpoint_t *ep, const clra__deadline_t *d, void *ctx,
                      clra_status_t *st)
{
    clra_process_info_t *out = ctx;
    int rc = CLRA_ERUNTIME;
    for (int command = 3; command >= 1; command--) {
        st->hresult = 0;
        rc = ask(ep, command, d, out, st);
        if (rc != CLRA_ERUNTIME || st->hresult != CLRA__HR_UNKNOWN_COMMAND)
            break;
    }
    if (rc == CLRA_ERUNTIME && st->hresult == CLRA__HR_UNKNOWN_COMMAND)
        clra__detail(st, "the runtime knows none of ProcessInfo3, ProcessInfo2, ProcessInfo "
                     "(runtimes before .NET 5 have no process commands)");
    else if (rc == 0 && out->command < 3)
        clra__detail(st, "the runtime does not know %s; %s answered",
                     clra__process_info_name(out->command + 1),
                     clra__process_info_name(out->command));
    return rc;
}

int clra__process_info_at(const clra_endpoint_t *ep, int timeout_ms, clra_process_info_t *out,
                          clra_status_t *st)
{
    clra__endpoint_t e;
    memset(&e, 0, sizeof e);
    e.at = *ep;
    e.fd = -1;
    clra__deadline_t d = clra__deadline_in(timeout_ms);
    memset(out, 0, sizeof *out);
    return ask_newest(&e, &d, out, st);
}

int clra_process_info_get(const clra_target_t *target, int timeout_ms, clra_process_info_t *out,
                          clra_status_t *st)
{
    clra_status_t local;
    st = clra__status_begin(st, &local);
    if (!out) {
        clra__detail(st, "a target and a result structure are required");
        clra__target_discard(target);
        return CLRA_EINVAL;
    }
    memset(out, 0, sizeof *out);
    return clra__target_run(target, timeout_ms, ask_newest, out, st);
}
