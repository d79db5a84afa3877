/* process_info.c - ProcessInfo3 -> ProcessInfo2 -> ProcessInfo (docs/protocol.md 3.4): who the
 * runtime is, asked newest first, falling back only when the runtime does not know a command. */
#include "ipc/request.h"
#include "proto/process_codec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One attempt with one command on a fresh connection (one command per connection). */
static int ask(const clra_endpoint_t *ep, int command, const clra__deadline_t *d,
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

int clra_process_info(const clra_endpoint_t *ep, int timeout_ms, clra_process_info_t *out,
                      clra_status_t *st)
{
    clra_status_t local;
    st = clra__status_begin(st, &local);
    if (out)
        memset(out, 0, sizeof *out);
    if (!ep || !ep->path[0] || !out) {
        clra__detail(st, "an endpoint and a result structure are required");
        return CLRA_EINVAL;
    }
    clra__deadline_t d = clra__deadline_in(timeout_ms);
    int rc = CLRA_ERUNTIME;
    for (int command = 3; command >= 1; command--) {
        st->hresult = 0;
        rc = ask(ep, command, &d, out, st);
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
