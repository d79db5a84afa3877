/* dump_codec.h - GenerateCoreDump 1-3 requests and the dump reply (internal, unit-tested). */
#ifndef CLRA_PROTO_DUMP_CODEC_H
#define CLRA_PROTO_DUMP_CODEC_H

#include "proto/message.h"
#include "util/status.h"

/* A GenerateCoreDump request (command_id 1, 2 or 3): string path, uint32 type, uint32 x, where
 * x is 0/1 "diagnostics" for id 1 and the flags bitmask for ids 2 and 3. */
int clra__build_dump(clra__writer_t *w, uint8_t command_id, const char *path, uint32_t type,
                     uint32_t x);

/* Reads a dump reply: OK carries exactly an int32; Error an int32 and, when with_text (Dump3),
 * optionally a string that must fill the rest exactly. Returns 0, CLRA_ERUNTIME (with *hr and
 * the UTF-8 text in text, "" when none) or CLRA_EPROTO with st->detail saying what was wrong. */
int clra__parse_dump_reply(const clra__header_t *h, const uint8_t *payload, size_t len,
                           int with_text, int32_t *hr, char *text, size_t cap,
                           clra_status_t *st);

#endif
