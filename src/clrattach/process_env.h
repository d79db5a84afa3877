/* process_env.h - encoders and parsers of the environment commands (internal, unit-tested). */
#ifndef CLRA_PROCESS_ENV_H
#define CLRA_PROCESS_ENV_H

#include "ipc/request.h"

/* SetEnvironmentVariable (0x0403): string name, string value (NULL value = absent = unset). */
int clra__build_set_env(clra__writer_t *w, const char *name, const char *value);
/* EnablePerfMap (0x0405): uint32 type. */
int clra__build_enable_perfmap(clra__writer_t *w, uint32_t type);

/* The ProcessEnvironment OK reply: exactly uint32 byte count + uint16 reserved. Returns 0 with
 * *incoming set, CLRA_ERUNTIME, or CLRA_EPROTO with st->detail saying what was wrong. */
int clra__parse_env_reply(const clra__reply_t *reply, uint32_t *incoming, clra_status_t *st);
/* The continuation: uint32 count, then count strings filling the block exactly. */
int clra__parse_env_block(const uint8_t *block, size_t len, clra_environment_t *out,
                          clra_status_t *st);
/* Splits "NAME=VALUE" at the first '=' not in position 0 into one allocation-owning entry. */
int clra__env_split(const char *entry, clra_env_var_t *out);

#endif
