/* advertise.c - the 34-byte greeting a runtime sends first on a reverse connection
 * (docs/protocol.md 2). */
#include "proto/advertise.h"

#include <string.h>

static const uint8_t advertise_magic[8] = "ADVR_V1"; /* 7 characters and the NUL */

int clra__parse_advertise(const uint8_t bytes[CLRA__ADVERTISE_SIZE], clra_advertise_t *ad)
{
    clra__reader_t r;
    if (memcmp(bytes, advertise_magic, sizeof advertise_magic) != 0)
        return CLRA_EPROTO;
    clra__reader_init(&r, bytes + 8, CLRA__ADVERTISE_SIZE - 8);
    clra__get_guid(&r, &ad->cookie);
    ad->pid = clra__get_u64(&r);
    clra__get_u16(&r); /* reserved */
    return r.err ? CLRA_EPROTO : 0;
}
