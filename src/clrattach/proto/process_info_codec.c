/* process_info_codec.c - decoding ProcessInfo, ProcessInfo2 and ProcessInfo3 replies
 * (docs/protocol.md 3.4): every field bounds-checked, named in the error when it is not. */
#include "proto/process_codec.h"
#include "common/le_bytes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One reply being parsed: the reader, and what to say when a field is wrong. */
typedef struct info_parse {
    clra__reader_t r;
    const char *what; /* "ProcessInfo3 reply" */
    clra_status_t *st;
    int rc;
} info_parse_t;

const char *clra__process_info_name(int command)
{
    return command == 3 ? "ProcessInfo3" : command == 2 ? "ProcessInfo2" : "ProcessInfo";
}

/* Whether n more bytes are there for field; if not, records which field the reply ends in. */
static int need(info_parse_t *p, const char *field, size_t n)
{
    size_t left = clra__reader_left(&p->r);
    if (p->rc)
        return 0;
    if (left >= n)
        return 1;
    clra__detail(p->st, "%s ends inside %s at offset %zu: it needs %zu bytes, %zu remain",
                 p->what, field, p->r.pos, n, left);
    p->rc = CLRA_EPROTO;
    return 0;
}

/* Reads one string field, checking its count and terminator first so the detail can say
 * which field lied (the wire reader only knows that something did). */
static char *take_string(info_parse_t *p, const char *field)
{
    if (!need(p, field, 4))
        return NULL;
    const uint8_t *at = p->r.data + p->r.pos;
    uint32_t count = le__u32(at);
    size_t room = clra__reader_left(&p->r) - 4;
    if (count > room / 2) {
        clra__detail(p->st, "%s: string %s at offset %zu claims %u UTF-16 units (%llu bytes), "
                     "but only %zu bytes follow", p->what, field, p->r.pos, (unsigned)count,
                     2ull * count, room);
        p->rc = CLRA_EPROTO;
        return NULL;
    }
    if (count > 0 && (at[4 + 2 * (size_t)count - 2] | at[4 + 2 * (size_t)count - 1]) != 0) {
        clra__detail(p->st, "%s: string %s at offset %zu (%u units) does not end with a NUL unit",
                     p->what, field, p->r.pos, (unsigned)count);
        p->rc = CLRA_EPROTO;
        return NULL;
    }
    char *s = clra__get_string(&p->r); /* NULL for count 0: the absent string */
    if (p->r.err) {
        clra__detail(p->st, "%s: no memory for string %s", p->what, field);
        p->rc = p->r.err;
    }
    return s;
}

/* The fields every version shares, then the ones ProcessInfo2 added. */
static void take_common(info_parse_t *p, int command, clra_process_info_t *out)
{
    if (need(p, "processId", 8))
        out->pid = clra__get_u64(&p->r);
    if (need(p, "runtimeCookie", 16))
        clra__get_guid(&p->r, &out->cookie);
    out->command_line = take_string(p, "commandLine");
    out->os = take_string(p, "OS");
    out->arch = take_string(p, "arch");
    if (command >= 2) {
        out->entry_assembly = take_string(p, "managedEntrypointAssemblyName");
        out->clr_version = take_string(p, "clrProductVersion");
    }
}

int clra__parse_process_info(int command, const uint8_t *payload, size_t len,
                             clra_process_info_t *out, clra_status_t *st)
{
    char what[40];
    info_parse_t p = {.what = what, .st = st};
    snprintf(what, sizeof what, "%s reply", clra__process_info_name(command));
    memset(out, 0, sizeof *out);
    out->command = command;
    clra__reader_init(&p.r, payload, len);
    if (command == 3 && need(&p, "version", 4))
        out->version = clra__get_u32(&p.r);
    take_common(&p, command, out);
    if (command == 3 && out->version >= 1)
        out->rid = take_string(&p, "runtimeIdentifier");
    /* Newer ProcessInfo3 versions append fields we do not know; every other layout is exact,
     * so bytes after it mean the lengths before lied. */
    size_t left = clra__reader_left(&p.r);
    if (!p.rc && left && !(command == 3 && out->version > 1)) {
        clra__detail(st, "%s has %zu bytes after its last field (%s version %u defines no more)",
                     what, left, clra__process_info_name(command), (unsigned)out->version);
        p.rc = CLRA_EPROTO;
    }
    if (p.rc)
        clra_process_info_free(out);
    return p.rc;
}

void clra_process_info_free(clra_process_info_t *info)
{
    if (!info)
        return;
    free(info->command_line);
    free(info->os);
    free(info->arch);
    free(info->entry_assembly);
    free(info->clr_version);
    free(info->rid);
    info->command_line = info->os = info->arch = NULL;
    info->entry_assembly = info->clr_version = info->rid = NULL;
}
