/* fakesrv.h - a diagnostics server that misbehaves on purpose, for faults a runtime won't make.
 *
 * It listens on a Unix socket and serves a script of steps, one connection per step as the
 * runtime serves one command per connection: accept, read one request (header + announced
 * size), act out the step's behaviour, go on to the next step. After the last step it accepts
 * nothing more (later clients wait in the backlog).
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
    FAKESRV_REPLY_AFTER_FD, /* read exactly the request, then one recvmsg of 1 byte taking a
                               passed descriptor (as the runtime's ds_ipc_stream_read_fd),
                               then reply and close */
} fakesrv_behaviour_t;

/* One connection's worth of behaviour. reply is copied at start. */
typedef struct fakesrv_step {
    fakesrv_behaviour_t how;
    const void *reply;
    size_t reply_len;
    const char *create_file; /* written (23 bytes) before replying, as createdump would, or NULL */
} fakesrv_step_t;

#define FAKESRV_MAX_STEPS 8

typedef struct fakesrv fakesrv_t;

/* Starts a one-step server; dir_name_len pads the directory name so the socket path can be
 * made longer than sun_path's 108 bytes (0 for a short path). NULL on failure. */
fakesrv_t *fakesrv_start(fakesrv_behaviour_t how, const void *reply, size_t reply_len,
                         size_t dir_name_len);
/* Starts a server that plays steps[0..n-1] in order (FAKESRV_NO_LISTENER only as the sole
 * step). With dir NULL it makes and later removes a fresh directory; otherwise the socket is
 * dir/name in an existing directory, which stays. NULL on failure. */
fakesrv_t *fakesrv_start_steps(const fakesrv_step_t *steps, size_t n, const char *dir,
                               const char *name);
const char *fakesrv_path(const fakesrv_t *s);
/* Copies what the server received on the first connection (up to cap bytes); returns the full
 * request length. Waits up to two seconds for the request to arrive. */
size_t fakesrv_request(fakesrv_t *s, uint8_t *buf, size_t cap);
/* The same for connection i (0-based); 0 when it never came within two seconds. */
size_t fakesrv_request_at(fakesrv_t *s, size_t i, uint8_t *buf, size_t cap);
/* What connection i's FAKESRV_REPLY_AFTER_FD step received after the request: the number of
 * descriptors (0 when none came, -1 when not even the data byte did), with *sb the fstat of
 * the first. Waits like fakesrv_request_at. */
struct stat;
int fakesrv_passed_fd(fakesrv_t *s, size_t i, struct stat *sb);
/* How many connections the server has accepted so far. */
size_t fakesrv_connections(fakesrv_t *s);
/* Stops the thread, closes everything, removes the socket (and the directory it made). */
void fakesrv_stop(fakesrv_t *s);

#endif
