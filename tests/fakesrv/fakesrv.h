/* fakesrv.h - a diagnostics server that misbehaves on purpose, for faults a runtime won't make.
 *
 * It listens on a Unix socket in a fresh temporary directory, accepts one connection, reads one
 * request (header + announced size) and then acts out its behaviour.
 */
#ifndef CLRA_FAKESRV_H
#define CLRA_FAKESRV_H

#include <stddef.h>
#include <stdint.h>

typedef enum {
    FAKESRV_REPLY,        /* send the reply bytes, then close */
    FAKESRV_REPLY_STALL,  /* send the reply bytes, then keep the connection open, silent */
    FAKESRV_SILENT,       /* read the request, never answer, keep the connection open */
    FAKESRV_CLOSE,        /* read the request, close without answering */
    FAKESRV_NO_LISTENER,  /* leave a socket file behind with nobody listening (stale) */
} fakesrv_behaviour_t;

typedef struct fakesrv fakesrv_t;

/* Starts the server; dir_name_len pads the directory name so the socket path can be made longer
 * than sun_path's 108 bytes (0 for a short path). NULL on failure. */
fakesrv_t *fakesrv_start(fakesrv_behaviour_t how, const void *reply, size_t reply_len,
                         size_t dir_name_len);
const char *fakesrv_path(const fakesrv_t *s);
/* Copies what the server received (up to cap bytes); returns the full request length. Waits
 * up to two seconds for the request to arrive. */
size_t fakesrv_request(fakesrv_t *s, uint8_t *buf, size_t cap);
/* Stops the thread, closes everything, removes the socket and directory. */
void fakesrv_stop(fakesrv_t *s);

#endif
