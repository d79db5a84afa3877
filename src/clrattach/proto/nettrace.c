/* nettrace.c - is this a whole NetTrace stream? (docs/protocol.md 6)
 *
 * A V4/V5 stream is "Nettrace", the FastSerialization header, the Trace object, then objects
 * shaped 05 | 05 01 ver minver len name 06 | uint32 size | padding to 4 | size bytes | 06,
 * and finally one 01 (NullReference) written after rundown when the session was stopped. The
 * walk reads only the framing and skips block contents, so it costs a few reads per block.
 * Running out of bytes anywhere means INCOMPLETE; a wrong byte means INVALID.
 */
#define _GNU_SOURCE
#include "util/file_io.h"
#include "proto/nettrace_frame.h"
#include "util/status.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>


typedef struct source {
    const uint8_t *buf; /* either a buffer ... */
    int fd;             /* ... or a file */
    uint64_t size;
} source_t;

/* Copies n bytes at off; 0, or -1 when they are not all there (or unreadable). */
static int fetch(const source_t *s, uint64_t off, void *out, size_t n)
{
    if (n == 0)
        return 0;
    if (off > s->size || n > s->size - off)
        return -1;
    if (s->buf) {
        memcpy(out, s->buf + off, n);
        return 0;
    }
    for (size_t got = 0; got < n;) {
        long long k = clra__pread(s->fd, (uint8_t *)out + got, n - got, off + got);
        if (k <= 0 && !(k < 0 && errno == EINTR))
            return -1;
        got += k > 0 ? (size_t)k : 0;
    }
    return 0;
}

/* Records the verdict and why; always returns 1 so callers can `return stop(...)`. */
static int stop(clra_nettrace_info_t *info, clra_nettrace_state_t state, uint64_t off,
                const char *fmt, ...)
{
    va_list ap;
    info->state = state;
    info->end_offset = off;
    va_start(ap, fmt);
    vsnprintf(info->problem, sizeof info->problem, fmt, ap);
    va_end(ap);
    return 1;
}

/* Compares the bytes that exist with what must be there: a mismatch is INVALID, a shortfall
 * INCOMPLETE (a stream cut off inside the header is still a stream that began right). */
static int expect(const source_t *s, uint64_t off, const void *want, size_t n, const char *what,
                  clra_nettrace_info_t *info)
{
    uint8_t got[32];
    uint64_t left = off < s->size ? s->size - off : 0;
    size_t have = left < n ? (size_t)left : n;
    if (fetch(s, off, got, have) != 0 || memcmp(got, want, have) != 0)
        return stop(info, CLRA_NETTRACE_INVALID, off, "%s is not where it belongs (offset %llu)",
                    what, (unsigned long long)off);
    if (have < n)
        return stop(info, CLRA_NETTRACE_INCOMPLETE, s->size, "cut off inside %s", what);
    return 0;
}

/* Reads a type header (05 01 ver minver len name 06) at *off into name. */
static int type_header(const source_t *s, uint64_t *off, char name[CLRA__NT_NAME_MAX + 1],
                       int32_t *version, int32_t *min_version, clra_nettrace_info_t *info)
{
    uint8_t h[CLRA__NT_TYPE_FIXED - 2];
    uint32_t len;
    if (expect(s, *off, "\x05\x01", 2, "an object's type header", info))
        return 1;
    if (fetch(s, *off + 2, h, sizeof h) != 0)
        return stop(info, CLRA_NETTRACE_INCOMPLETE, s->size, "cut off inside a type header");
    clra__nt_type_fields(h, version, min_version, &len);
    if (len == 0 || len > CLRA__NT_NAME_MAX)
        return stop(info, CLRA_NETTRACE_INVALID, *off, "a type name of %u bytes at offset %llu",
                    (unsigned)len, (unsigned long long)*off);
    if (fetch(s, *off + CLRA__NT_TYPE_FIXED, name, len) != 0)
        return stop(info, CLRA_NETTRACE_INCOMPLETE, s->size, "cut off inside a type name");
    name[len] = '\0';
    *off += CLRA__NT_TYPE_FIXED + len;
    if (expect(s, *off, "\x06", 1, "the end of a type header", info))
        return 1;
    *off += 1;
    return 0;
}

/* Header and Trace object; leaves *off at the first block. */
static int walk_header(const source_t *s, uint64_t *off, clra_nettrace_info_t *info)
{
    char name[CLRA__NT_NAME_MAX + 1];
    if (expect(s, 0, CLRA__NT_MAGIC, CLRA__NT_MAGIC_LEN, "the 'Nettrace' + "
               "'!FastSerialization.1' header", info) ||
        expect(s, CLRA__NT_MAGIC_LEN, "\x05", 1, "the Trace object", info))
        return 1;
    *off = CLRA__NT_MAGIC_LEN + 1;
    if (type_header(s, off, name, &info->version, &info->min_reader_version, info))
        return 1;
    if (strcmp(name, "Trace") != 0)
        return stop(info, CLRA_NETTRACE_INVALID, 33, "the first object is '%s', not 'Trace'",
                    name);
    if (info->version < 4 || info->version > 5)
        return stop(info, CLRA_NETTRACE_INVALID, 35, "NetTrace version %d: only versions 4 and "
                    "5 are checked", (int)info->version);
    *off += CLRA__NT_TRACE_FIELDS;
    if (expect(s, *off, "\x06", 1, "the end of the Trace object", info))
        return 1;
    *off += 1;
    return 0;
}

static void count_block(const char *name, clra_nettrace_info_t *info)
{
    if (strcmp(name, "EventBlock") == 0)
        info->event_blocks++;
    else if (strcmp(name, "MetadataBlock") == 0)
        info->metadata_blocks++;
    else if (strcmp(name, "StackBlock") == 0)
        info->stack_blocks++;
    else if (strcmp(name, "SPBlock") == 0)
        info->sequence_points++;
    else
        info->other_objects++;
}

/* One block object at *off (its 05 already checked); every V4/V5 block starts with its size,
 * then padding to a 4-byte file offset. Unknown names are walked the same way. */
static int walk_block(const source_t *s, uint64_t *off, clra_nettrace_info_t *info)
{
    char name[CLRA__NT_NAME_MAX + 1];
    int32_t version, min_version;
    uint8_t size_bytes[4];
    uint64_t start = *off;
    *off += 1;
    if (type_header(s, off, name, &version, &min_version, info))
        return 1;
    if (fetch(s, *off, size_bytes, 4) != 0)
        return stop(info, CLRA_NETTRACE_INCOMPLETE, s->size, "cut off inside a %s header",
                    name);
    *off += 4;
    *off += clra__nt_pad4(*off);
    uint64_t end = *off + le__u32(size_bytes);
    if (end >= s->size)
        return stop(info, CLRA_NETTRACE_INCOMPLETE, s->size, "cut off inside the %s at offset "
                    "%llu", name, (unsigned long long)start);
    *off = end;
    if (expect(s, *off, "\x06", 1, "the end of a block", info))
        return 1;
    *off += 1;
    count_block(name, info);
    return 0;
}

static void walk(const source_t *s, clra_nettrace_info_t *info)
{
    uint64_t off;
    memset(info, 0, sizeof *info);
    info->size = s->size;
    if (walk_header(s, &off, info))
        return;
    for (;;) {
        uint8_t tag;
        if (fetch(s, off, &tag, 1) != 0) {
            stop(info, CLRA_NETTRACE_INCOMPLETE, off, "the stream stops after %llu bytes, "
                 "between blocks", (unsigned long long)off);
            return;
        }
        if (tag == 0x01) {
            if (off + 1 == s->size)
                stop(info, CLRA_NETTRACE_VALID, s->size, "%s", "");
            else
                stop(info, CLRA_NETTRACE_INVALID, off, "%llu bytes follow the end marker",
                     (unsigned long long)(s->size - off - 1));
            return;
        }
        if (tag != 0x05) {
            stop(info, CLRA_NETTRACE_INVALID, off, "byte 0x%02X at offset %llu where a block or "
                 "the end marker belongs", tag, (unsigned long long)off);
            return;
        }
        if (walk_block(s, &off, info))
            return;
    }
}

int clra_nettrace_check(const void *data, size_t len, clra_nettrace_info_t *info)
{
    if ((!data && len) || !info)
        return CLRA_EINVAL;
    source_t s = {data ? data : (const uint8_t *)"", -1, len};
    walk(&s, info);
    return 0;
}

int clra_nettrace_check_file(const char *path, clra_nettrace_info_t *info, clra_status_t *st)
{
    clra_status_t local;
    struct stat sb;
    st = st ? st : &local;
    memset(st, 0, sizeof *st);
    if (!path || !info)
        return CLRA_EINVAL;
    int fd = open(path, O_RDONLY | CLRA_O_BINARY | CLRA_O_NONBLOCK | CLRA_O_CLOEXEC); /* a FIFO cannot hang us */
    if (fd < 0 || fstat(fd, &sb) != 0) {
        st->sys_errno = errno;
        clra__detail(st, "cannot read %s: %s", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return st->sys_errno == EACCES ? CLRA_EACCES : CLRA_EIO;
    }
    source_t s = {NULL, fd, (uint64_t)sb.st_size};
    walk(&s, info);
    close(fd);
    return 0;
}
