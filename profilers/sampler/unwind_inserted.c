/* unwind_inserted.c - which frames the walk inserted stay, decided from their names on the
 * sampling thread. The walk (unwind_walk.c) adds a return address it found in a frame-pointer
 * gap right after the step's own one; on-stack replacement is the one pattern it stands for:
 * the step's return address is a pseudo one into the tier-0 code of the method the frame inside
 * it runs (same name), and the inserted one is the tier-0 frame's real caller. A kept frame
 * replaces the pseudo return address, so `Run;Seventy;Burn`, not `Run;Seventy;Burn;Burn`.
 */
#include "unwind.h"

/* Whether bit i of the mask is set. */
static int marked(const uint64_t *mask, uint32_t i)
{
    return (mask[i / 64] >> (i % 64)) & 1;
}

uint32_t uw_keep_inserted(uint32_t *frames, uint32_t n, const uint64_t *inserted, uint32_t unknown)
{
    uint32_t out = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (!marked(inserted, i)) {
            frames[out++] = frames[i];
            continue;
        }
        /* out - 1: the step's return address (never inserted), out - 2: the frame inside it */
        if (out >= 2 && !marked(inserted, i - 1) && frames[out - 1] == frames[out - 2] &&
            frames[out - 1] != unknown && frames[i] != unknown)
            frames[out - 1] = frames[i];
    }
    return out;
}
