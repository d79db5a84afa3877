/* nettrace_event.h - decoded events made by hand, as the NetTrace decoder hands them to its
 * callbacks, for the tests and fuzz targets that feed a consumer of events (the heap snapshot,
 * the runtime events' walker) without a stream. Apart from nettrace_build.h, which builds
 * streams byte by byte and needs no library header (bench/hostile_trace.c uses it alone).
 *
 * Test code only: static inline functions in a header.
 */
#ifndef CLRA_NETTRACE_EVENT_H
#define CLRA_NETTRACE_EVENT_H

#include "clrattach.h"

#include <string.h>

/* What the runtime's metadata says of its own events: provider, id and version, no name, no
 * fields. */
static inline clra_nettrace_metadata_t ne_meta(const char *provider, uint32_t id,
                                               uint32_t version)
{
    clra_nettrace_metadata_t m;
    memset(&m, 0, sizeof m);
    m.provider = provider;
    m.event_name = "";
    m.event_id = id;
    m.version = version;
    return m;
}

/* An event of m's kind with payload p (n bytes) at timestamp ts, no stack. */
static inline clra_nettrace_event_t ne_event(const clra_nettrace_metadata_t *m, const void *p,
                                             size_t n, int64_t ts)
{
    clra_nettrace_event_t ev;
    memset(&ev, 0, sizeof ev);
    ev.meta = m;
    ev.payload = p;
    ev.payload_len = (uint32_t)n;
    ev.timestamp = ts;
    return ev;
}

#endif
