/* reverse_held.h - what the two reverse servers share (reverse_server.c on Unix sockets,
 * reverse_server_win.c on named pipes): the advertise read under a bound, the connections held
 * one per runtime cookie, and the wait for one (internal). */
#ifndef CLRA_REVERSE_HELD_H
#define CLRA_REVERSE_HELD_H

#include "ipc/request.h"
#include "proto/advertise.h"

#define CLRA__MAX_HELD 16

typedef struct clra__held {
    clra_advertise_t ad;
    clra__conn_t conn;
    int used;
    uint64_t seq;
} clra__held_t;

typedef struct clra__held_set {
    clra__held_t slot[CLRA__MAX_HELD];
    uint64_t seq;
} clra__held_set_t;

/* The newest live held connection for cookie (any cookie when NULL); dead ones are closed. */
clra__held_t *clra__held_find(clra__held_set_t *hs, const clra_guid_t *cookie);
/* Holds c (now the set's) as the newest for its cookie; an older one of that cookie is closed,
 * and when every slot is taken the oldest makes room. */
void clra__held_add(clra__held_set_t *hs, const clra__conn_t *c, const clra_advertise_t *ad);
/* Takes h's connection out of the set. */
clra__conn_t clra__held_take(clra__held_t *h);
void clra__held_close_all(clra__held_set_t *hs);
/* Reads and checks a new connection's advertise within a second (or what is left of d). 0, or
 * -1 after closing c and saying so in st: a peer that sends garbage or nothing is dropped. */
int clra__read_advertise(clra__conn_t *c, const clra__deadline_t *d, const char *path,
                         clra_advertise_t *ad, clra_status_t *st);
/* The platform's accept step: takes at most one connection into the server's set before d. 0
 * (also when it took none), CLRA_ETIMEDOUT, or another CLRA_E* code with st->detail. */
typedef int (*clra__accept_one_fn)(void *server, const clra__deadline_t *d, clra_status_t *st);
/* clra_reverse_server_wait over any platform's server. */
int clra__held_wait(clra__held_set_t *hs, clra__accept_one_fn accept_one, void *server,
                    const char *path, const clra_guid_t *cookie, int timeout_ms,
                    clra_advertise_t *ad, clra_status_t *st);

#endif
