/* process_env.c - ProcessEnvironment: a small OK reply announcing a byte count, then exactly
 * that many bytes of NAME=VALUE strings on the same connection (reference 3.4). */
#include "process_env.h"

#include <stdlib.h>
#include <string.h>

int clra__parse_env_reply(const clra__reply_t *reply, uint32_t *incoming, clra_status_t *st)
{
    clra__reader_t r;
    int rc = clra__reply_check(reply, st);
    if (rc)
        return rc;
    /* Exactly 6 bytes: anything else means we would misread where the continuation starts. */
    if (reply->len != 6) {
        clra__detail(st, "ProcessEnvironment reply has %zu payload bytes, expected 6 (uint32 "
                     "size, uint16 reserved)", reply->len);
        return CLRA_EPROTO;
    }
    clra__reader_init(&r, reply->payload, reply->len);
    *incoming = clra__get_u32(&r);
    if (*incoming < 4 || *incoming > CLRA_MAX_ENVIRONMENT_BYTES) {
        clra__detail(st, "ProcessEnvironment announces %u bytes; a valid block has 4 to %u",
                     (unsigned)*incoming, CLRA_MAX_ENVIRONMENT_BYTES);
        return CLRA_EPROTO;
    }
    return 0;
}

int clra__env_split(const char *entry, clra_env_var_t *out)
{
    const char *eq = entry[0] ? strchr(entry + 1, '=') : NULL;
    size_t name_len = eq ? (size_t)(eq - entry) : strlen(entry);
    const char *value = eq ? eq + 1 : "";
    size_t value_len = strlen(value);
    /* One block: name, NUL, value, NUL, so freeing name frees both. */
    char *block = malloc(name_len + value_len + 2);
    if (!block)
        return CLRA_ENOMEM;
    memcpy(block, entry, name_len);
    block[name_len] = '\0';
    memcpy(block + name_len + 1, value, value_len + 1);
    out->name = block;
    out->value = block + name_len + 1;
    return 0;
}

void clra_environment_free(clra_environment_t *env)
{
    if (!env)
        return;
    for (size_t i = 0; i < env->count; i++)
        free(env->vars[i].name);
    free(env->vars);
    env->vars = NULL;
    env->count = 0;
}

int clra__parse_env_block(const uint8_t *block, size_t len, clra_environment_t *out,
                          clra_status_t *st)
{
    clra__reader_t r;
    memset(out, 0, sizeof *out);
    clra__reader_init(&r, block, len);
    uint32_t count = clra__get_u32(&r);
    /* Each string takes at least 4 bytes, which bounds a lying count before allocating. */
    if (r.err || count > clra__reader_left(&r) / 4) {
        clra__detail(st, "environment block of %zu bytes cannot hold the %u entries it announces",
                     len, (unsigned)count);
        return CLRA_EPROTO;
    }
    out->vars = calloc(count ? count : 1, sizeof *out->vars);
    if (!out->vars)
        return CLRA_ENOMEM;
    for (uint32_t i = 0; i < count; i++) {
        char *entry = clra__get_string(&r);
        if (r.err) {
            clra__detail(st, "environment entry %u of %u is malformed or runs past the %zu-byte "
                         "block", (unsigned)i + 1, (unsigned)count, len);
            clra_environment_free(out);
            return CLRA_EPROTO;
        }
        int rc = clra__env_split(entry ? entry : "", &out->vars[out->count]);
        free(entry);
        if (rc) {
            clra_environment_free(out);
            return rc;
        }
        out->count++;
    }
    if (clra__reader_left(&r) != 0) {
        clra__detail(st, "environment block has %zu bytes after its %u entries",
                     clra__reader_left(&r), (unsigned)count);
        clra_environment_free(out);
        return CLRA_EPROTO;
    }
    return 0;
}

int clra_process_environment(const clra_endpoint_t *ep, int timeout_ms, clra_environment_t *out,
                             clra_status_t *st)
{
    clra_status_t local;
    uint8_t req[CLRA__HEADER_SIZE];
    clra__writer_t w;
    clra__reply_t reply;
    clra__conn_t c;
    uint32_t incoming = 0;
    st = clra__status_begin(st, &local);
    if (!ep || !out)
        return CLRA_EINVAL;
    memset(out, 0, sizeof *out);
    clra__writer_init(&w, req, sizeof req);
    clra__build_empty(&w, CLRA__SET_PROCESS, CLRA__PROCESS_ENVIRONMENT);
    clra__deadline_t d = clra__deadline_in(timeout_ms);
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
