/* process_codec.h - requests and replies of the Process command set (internal, unit-tested). */
#ifndef CLRA_PROTO_PROCESS_CODEC_H
#define CLRA_PROTO_PROCESS_CODEC_H

#include "proto/message.h"
#include "util/status.h"

/* Parses the payload of an OK reply to ProcessInfo (command 1), ProcessInfo2 (2) or
 * ProcessInfo3 (3) into out, whose strings are allocated. Returns 0, CLRA_ENOMEM, or
 * CLRA_EPROTO with st->detail naming the field and offset that was wrong; out then holds
 * nothing to free. */
int clra__parse_process_info(int command, const uint8_t *payload, size_t len,
                             clra_process_info_t *out, clra_status_t *st);
/* "ProcessInfo", "ProcessInfo2" or "ProcessInfo3". */
const char *clra__process_info_name(int command);

/* SetEnvironmentVariable (0x0403): string name, string value (NULL value = absent = unset). */
int clra__build_set_env(clra__writer_t *w, const char *name, const char *value);
/* EnablePerfMap (0x0405): uint32 type. */
int clra__build_enable_perfmap(clra__writer_t *w, uint32_t type);
/* An ApplyStartupHook (0x0407) request: one string. */
int clra__build_startup_hook(clra__writer_t *w, const char *assembly_path);

/* The ProcessEnvironment reply: OK with exactly uint32 byte count + uint16 reserved. Returns 0
 * with *incoming set, CLRA_ERUNTIME, or CLRA_EPROTO with st->detail saying what was wrong. */
int clra__parse_env_reply(const clra__reply_t *reply, uint32_t *incoming, clra_status_t *st);
/* The continuation: uint32 count, then count strings filling the block exactly. */
int clra__parse_env_block(const uint8_t *block, size_t len, clra_environment_t *out,
                          clra_status_t *st);
/* Splits "NAME=VALUE" at the first '=' not in position 0 into one allocation-owning entry. */
int clra__env_split(const char *entry, clra_env_var_t *out);

#endif
