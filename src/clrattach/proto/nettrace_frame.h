/* nettrace_frame.h - the NetTrace framing both walkers read (docs/protocol.md 6, PerfView
 * NetTraceFormat_v5.md): the push decoder (nettrace_decoder.c) and the whole-stream check
 * (nettrace.c, which skips block bodies and reads a file at random). Each keeps its own way of
 * getting bytes and its own messages; the layout is written here once:
 *
 *   magic | 05 type-header(Trace) 48 fields 06 | { 05 type-header uint32 size pad body 06 } | 01
 *   type-header = 05 01 | int32 version | int32 min_version | uint32 name_len | name | 06
 *   pad = zero to three bytes, so the body starts at a 4-byte stream offset
 */
#ifndef CLRA_PROTO_NETTRACE_FRAME_H
#define CLRA_PROTO_NETTRACE_FRAME_H

#include "common/le_bytes.h"

#include <stdint.h>

#define CLRA__NT_MAGIC "Nettrace\x14\0\0\0!FastSerialization.1"
#define CLRA__NT_MAGIC_LEN 32
/* The Trace object's fields: SYSTEMTIME, QPC time and frequency, pointer size, pid, cpus, rate. */
#define CLRA__NT_TRACE_FIELDS 48
#define CLRA__NT_NAME_MAX 64     /* longer object type names are not NetTrace */
#define CLRA__NT_TYPE_FIXED 14   /* 05 01, version, min_version, name_len */

/* The three fields of a type header, from f = the 12 bytes after its 05 01. Whether name_len
 * is 1..CLRA__NT_NAME_MAX is the caller's check (each reports it its own way). */
static inline void clra__nt_type_fields(const uint8_t *f, int32_t *version, int32_t *min_version,
                                        uint32_t *name_len)
{
    *version = (int32_t)le__u32(f);
    *min_version = (int32_t)le__u32(f + 4);
    *name_len = le__u32(f + 8);
}

/* The padding that brings stream offset off to a multiple of 4: after a block's size field,
 * and after each uncompressed event. */
static inline uint64_t clra__nt_pad4(uint64_t off)
{
    return (4 - off % 4) % 4;
}

#endif
