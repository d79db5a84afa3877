/* process_env.c - ProcessEnvironment: a small OK reply announcing a byte count, then exactly
 * that many bytes of NAME=VALUE strings on the same connection (docs/protocol.md 3.4). */
#include "command_target.h"
#include "proto/process_codec.h"

#include <stdlib.h>
#include <string.h>

/* Reads the announced block on the connection that carried the request. */
static int read_block(clra__endpoint_t *ep, const clra__deadline_t *dl, void *out,
                      clra_status_t *st);

int clra_environment_get(const clra_target_t *target, int timeout_ms, clra_environment_t *out,
                         clra_status_t *st)
{
    clra_status_t local;
    st = clra__status_begin(st, &local);
    if (!out) {
        clra__target_discard(target);
        return CLRA_EINVAL;
    }
    memset(out, 0, sizeof *out);
    return clra__target_run(target, timeout_ms, read_block, out, st);
}

static int read_block(clra__endpoint_t *ep, const clra__deadline_t *dl, void *out,
                      clra_status_t *st)
{
    uint8_t req[CLRA__HEADER_SIZE];
    clra__writer_t w;
    clra__reply_t reply;
    clra__conn_t c;
    uint32_t incoming = 0;
    clra__writer_init(&w, req, sizeof req);
    clra__build_empty(&w, CLRA__SET_PROCESS, CLRA__PROCESS_ENVIRONMENT);
    clra__deadline_t d = *dl;
    int rc = clra__request(ep, req, w.len, &d, &reply, &c, st);
    if (rc)
        return rc;
    rc = clra__parse_env_reply(&reply, &incoming, st);
    clra__reply_free(&reply);
    uint8_t *block = rc ? NULL : malloc(incoming);
    if (rc == 0 && !block)
        rc = CLRA_ENOMEM;
    if (rc == 0) {
        rc = clra__recv_exact(&c, block, incoming, &d);
        if (rc == CLRA_ECONNLOST)
            clra__detail(st, "the runtime announced %u environment bytes but closed the "
                         "connection before sending them all", (unsigned)incoming);
        else if (rc == CLRA_ETIMEDOUT)
            clra__detail(st, "the %u environment bytes did not all arrive before the deadline",
                         (unsigned)incoming);
    }
    clra__close(&c);
    if (rc == 0)
        rc = clra__parse_env_block(block, incoming, out, st);
    free(block);
    return rc;
}
