/* process_codec.c - the Process command set's small requests and the ProcessEnvironment
 * reply (docs/protocol.md 3.4): an OK reply announcing a byte count, then exactly that many
 * bytes of NAME=VALUE strings on the same connection. */
#include "proto/process_codec.h"

#include <stdlib.h>
#include <string.h>

int clra__build_set_env(clra__writer_t *w, const char *name, const char *value)
{
    clra__begin_message(w, CLRA__SET_PROCESS, CLRA__PROCESS_SET_ENV);
    clra__put_string(w, name);
    clra__put_string(w, value);
    return clra__end_message(w);
}

int clra__build_enable_perfmap(clra__writer_t *w, uint32_t type)
{
    clra__begin_message(w, CLRA__SET_PROCESS, CLRA__PROCESS_ENABLE_PERFMAP);
    clra__put_u32(w, type);
    return clra__end_message(w);
}

int clra__build_startup_hook(clra__writer_t *w, const char *assembly_path)
{
    clra__begin_message(w, CLRA__SET_PROCESS, CLRA__PROCESS_STARTUP_HOOK);
    clra__put_string(w, assembly_path);
    return clra__end_message(w);
}

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
