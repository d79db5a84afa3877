/* fakesrv_seq.h - a fake diagnostics server that answers several connections in turn, each
 * with its own scripted reply: for clients that fall back from a command to an older one.
 *
 * Like the runtime it reads one request per connection (header + announced size), answers,
 * and closes. fakesrv.h's server stays the one-connection tool for faults.
 */
#ifndef CLRA_FAKESRV_SEQ_H
#define CLRA_FAKESRV_SEQ_H

#include <stddef.h>
#include <stdint.h>

#define FAKESRV_SEQ_MAX_STEPS 8

typedef struct fakesrv_step {
    const void *reply;       /* the bytes sent back on this connection */
    size_t reply_len;
    const char *create_file; /* created before replying, as createdump would; or NULL */
} fakesrv_step_t;

typedef struct fakesrv_seq fakesrv_seq_t;

/* Starts serving n (1..FAKESRV_SEQ_MAX_STEPS) connections with the given steps; the reply
 * bytes are copied. NULL on failure. */
fakesrv_seq_t *fakesrv_seq_start(const fakesrv_step_t *steps, int n);
const char *fakesrv_seq_path(const fakesrv_seq_t *s);
/* How many requests have arrived, waiting up to two seconds for at least want of them. */
int fakesrv_seq_count(fakesrv_seq_t *s, int want);
/* Copies request i (up to cap bytes); returns its full length, 0 if it never came. */
size_t fakesrv_seq_request(fakesrv_seq_t *s, int i, uint8_t *buf, size_t cap);
/* Stops the thread, closes everything, removes the socket and directory. */
void fakesrv_seq_stop(fakesrv_seq_t *s);

#endif
