/* message.h - the IPC header, command ids and replies that carry only an HRESULT (internal). */
#ifndef CLRA_MESSAGE_H
#define CLRA_MESSAGE_H

#include "proto/wire.h"
#include "util/status.h"

#define CLRA__HEADER_SIZE 20
#define CLRA__MAX_MESSAGE 65535

/* Command sets and ids (docs/protocol.md section 3). */
enum {
    CLRA__SET_DUMP = 0x01,
    CLRA__SET_EVENTPIPE = 0x02,
    CLRA__SET_PROFILER = 0x03,
    CLRA__SET_PROCESS = 0x04,
    CLRA__SET_SERVER = 0xFF,
};
enum {
    CLRA__DUMP_GENERATE = 0x01,
    CLRA__DUMP_GENERATE2 = 0x02,
    CLRA__DUMP_GENERATE3 = 0x03,
};
enum {
    CLRA__EVENTPIPE_STOP = 0x01,
    CLRA__EVENTPIPE_COLLECT = 0x02, /* CollectTracing N is 0x01 + N (2..6) */
};
enum {
    CLRA__PROFILER_ATTACH = 0x01,
    CLRA__PROFILER_STARTUP = 0x02,
};
enum {
    CLRA__PROCESS_INFO = 0x00,
    CLRA__PROCESS_RESUME = 0x01,
    CLRA__PROCESS_ENVIRONMENT = 0x02,
    CLRA__PROCESS_SET_ENV = 0x03,
    CLRA__PROCESS_INFO2 = 0x04,
    CLRA__PROCESS_ENABLE_PERFMAP = 0x05,
    CLRA__PROCESS_DISABLE_PERFMAP = 0x06,
    CLRA__PROCESS_STARTUP_HOOK = 0x07,
    CLRA__PROCESS_INFO3 = 0x08,
};
enum {
    CLRA__SERVER_OK = 0x00,
    CLRA__SERVER_ERROR = 0xFF,
};
/* Runtime answers that make a client fall back to an older command, or explain a refusal. */
#define CLRA__HR_UNKNOWN_COMMAND ((int32_t)0x80131385)
#define CLRA__HR_BAD_ENCODING ((int32_t)0x80131384)

typedef struct clra__header {
    uint16_t size; /* whole message, header included */
    uint8_t command_set;
    uint8_t command_id;
} clra__header_t;

/* Writes a header whose size is patched by clra__end_message. */
void clra__begin_message(clra__writer_t *w, uint8_t command_set, uint8_t command_id);
/* Patches the size field; returns 0 or the writer's error (CLRA_ETOOBIG past 65535 bytes). */
int clra__end_message(clra__writer_t *w);


/* A request that is only a header (ProcessInfo*, ResumeRuntime, ProcessEnvironment, ...). */
int clra__build_empty(clra__writer_t *w, uint8_t command_set, uint8_t command_id);

/* Validates the 20 header bytes (magic, size >= 20). 0 or CLRA_EPROTO. */
int clra__parse_header(const uint8_t bytes[CLRA__HEADER_SIZE], clra__header_t *out);
/* Reads a reply that carries an int32 HRESULT: OK (0 unless the code is a failure) or
 * Error (CLRA_ERUNTIME); *hr gets the code. Anything else is CLRA_EPROTO. */
int clra__parse_hresult_reply(const clra__header_t *h, const uint8_t *payload, size_t len,
                              int32_t *hr);
/* clra__parse_hresult_reply for the commands whose every reply is exactly the HRESULT (24-byte
 * OK or Error, docs/protocol.md §2.2): any other size is CLRA_EPROTO with a detail saying so. */
int clra__parse_hresult_exact(const clra__header_t *h, const uint8_t *payload, size_t len,
                              int32_t *hr, clra_status_t *st);

/* The first reply message of a command. payload is heap memory owned by the reply. */
typedef struct clra__reply {
    clra__header_t h;
    uint8_t *payload;
    size_t len;
} clra__reply_t;

void clra__reply_free(clra__reply_t *reply);

/* An Error reply becomes CLRA_ERUNTIME with st->hresult set; an OK reply is 0; anything else
 * (or an Error without a failure code) is CLRA_EPROTO with a detail naming what came. */
int clra__reply_check(const clra__reply_t *reply, clra_status_t *st);

#endif
