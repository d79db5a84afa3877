/* reverse_held.c - the connections a reverse server holds, one per runtime cookie, and the
 * advertise each must send first; the same on Unix sockets and Windows named pipes. */
#include "ipc/reverse_held.h"

#include <string.h>

#define ADVERTISE_READ_MS 1000

clra__held_t *clra__held_find(clra__held_set_t *hs, const clra_guid_t *cookie)
{
    clra__held_t *best = NULL;
    for (int i = 0; i < CLRA__MAX_HELD; i++) {
        clra__held_t *h = &hs->slot[i];
        if (!h->used || (cookie && memcmp(&h->ad.cookie, cookie, sizeof *cookie) != 0))
            continue;
        if (!clra__conn_quiet(&h->conn)) { /* the runtime hung up (or, never expected, spoke) */
            clra__close(&h->conn);
            h->used = 0;
        } else if (!best || h->seq > best->seq) {
            best = h;
        }
    }
    return best;
}

void clra__held_add(clra__held_set_t *hs, const clra__conn_t *c, const clra_advertise_t *ad)
{
    clra__held_t *slot = NULL;
    for (int i = 0; i < CLRA__MAX_HELD; i++) {
        clra__held_t *h = &hs->slot[i];
        if (h->used && memcmp(&h->ad.cookie, &ad->cookie, sizeof ad->cookie) == 0) {
            clra__close(&h->conn);
            h->used = 0;
        }
        if (!h->used && !slot)
            slot = h;
    }
    if (!slot) {
        slot = &hs->slot[0];
        for (int i = 1; i < CLRA__MAX_HELD; i++)
            if (hs->slot[i].seq < slot->seq)
                slot = &hs->slot[i];
        clra__close(&slot->conn);
    }
    slot->conn = *c;
    slot->ad = *ad;
    slot->used = 1;
    slot->seq = ++hs->seq;
}

clra__conn_t clra__held_take(clra__held_t *h)
{
    h->used = 0;
    return h->conn;
}

void clra__held_close_all(clra__held_set_t *hs)
{
    for (int i = 0; i < CLRA__MAX_HELD; i++)
        if (hs->slot[i].used)
            clra__close(&hs->slot[i].conn);
    hs->seq = 0;
}

int clra__read_advertise(clra__conn_t *c, const clra__deadline_t *d, const char *path,
                         clra_advertise_t *ad, clra_status_t *st)
{
    uint8_t bytes[CLRA__ADVERTISE_SIZE];
    clra__deadline_t read_by = clra__deadline_in(ADVERTISE_READ_MS);
    if (clra__deadline_left_ms(d) >= 0 && clra__deadline_left_ms(d) < ADVERTISE_READ_MS)
        read_by = *d;
    if (clra__recv_exact(c, bytes, sizeof bytes, &read_by) == 0 &&
        clra__parse_advertise(bytes, ad) == 0)
        return 0;
    clra__detail(st, "dropped a connection to %s that did not advertise a runtime", path);
    clra__close(c);
    return -1;
}

int clra__held_wait(clra__held_set_t *hs, clra__accept_one_fn accept_one, void *server,
                    const char *path, const clra_guid_t *cookie, int timeout_ms,
                    clra_advertise_t *ad, clra_status_t *st)
{
    clra__deadline_t d = clra__deadline_in(timeout_ms);
    for (;;) {
        clra__held_t *h = clra__held_find(hs, cookie);
        if (h) {
            if (ad)
                *ad = h->ad;
            return 0;
        }
        int rc = accept_one(server, &d, st);
        if (rc == CLRA_ETIMEDOUT)
            clra__detail(st, "no runtime%s connected to %s within %d ms",
                         cookie ? " with that cookie" : "", path, timeout_ms);
        if (rc)
            return rc;
    }
}
