/* badmask.c - an SDK profiler whose event mask asks for a flag only a startup profiler may set
 * (COR_PRF_MONITOR_ENTERLEAVE): the SDK must refuse the attach and say which flag. */
#include "clrprof/clrprof_profiler.h"

/* {1774785B-752F-4B99-BE75-261F3B078FAE} */
static const clrprof_def_t badmask = {
    .name = "badmask",
    .clsid = {0x1774785B, 0x752F, 0x4B99, {0xBE, 0x75, 0x26, 0x1F, 0x3B, 0x07, 0x8F, 0xAE}},
    .events = COR_PRF_MONITOR_MODULE_LOADS | COR_PRF_MONITOR_ENTERLEAVE,
};
CLRPROF_DEFINE(badmask)
