/* dump.c - clra_dump_create: GenerateCoreDump3, falling back to 2 and 1, then proof on disk. */
#define _GNU_SOURCE
#include "command_target.h"
#include "dump_file.h"
#include "proto/dump_codec.h"
#include "util/file_io.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define ALL_DUMP_FLAGS (CLRA_DUMP_LOGGING | CLRA_DUMP_VERBOSE | CLRA_DUMP_CRASH_REPORT)



/* Where the target's path is seen from here: through /proc/PID/root when its mount namespace
 * differs; our own view when the endpoint was built from a socket path. */
static int locate(const clra_endpoint_t *ep, const char *path, clra_dump_result_t *res,
                  clra_status_t *st)
{
    if (ep->pid <= 0) {
        if (strlen(path) >= sizeof res->local_path)
            goto too_long;
        strcpy(res->local_path, path);
        return 0;
    }
    int rc = clra_target_path_resolve(ep->pid, path, res->local_path, sizeof res->local_path,
                              &res->other_mount_ns);
    if (rc == CLRA_ENOPROC)
        clra__detail(st, "process %d no longer exists", ep->pid);
    if (rc != CLRA_EINVAL)
        return rc;
too_long:
    clra__detail(st, "the dump path is longer than %d bytes", CLRA_PATH_MAX - 1);
    return CLRA_EINVAL;
}

/* Sends one GenerateCoreDump version on its own connection (one command per connection) and
 * waits for createdump to finish. */
static int dump_once(clra__endpoint_t *ep, uint8_t id, const char *path, uint32_t type,
                     uint32_t x, const clra__deadline_t *d, clra_dump_result_t *res,
                     clra_status_t *st)
{
    clra__writer_t w;
    clra__reply_t reply;
    uint8_t *req = malloc(CLRA__MAX_MESSAGE);
    if (!req)
        return CLRA_ENOMEM;
    clra__writer_init(&w, req, CLRA__MAX_MESSAGE);
    int rc = clra__build_dump(&w, id, path, type, x);
    if (rc == CLRA_ETOOBIG)
        clra__detail(st, "the dump path does not fit the protocol's 65535-byte message");
    else if (rc == CLRA_EENCODING)
        clra__detail(st, "the dump path is not valid UTF-8");
    if (rc == 0)
        rc = clra__request(ep, req, w.len, d, &reply, NULL, st);
    free(req);
    if (rc)
        return rc;
    rc = clra__parse_dump_reply(&reply.h, reply.payload, reply.len, id == CLRA__DUMP_GENERATE3,
                                &st->hresult, res->message, sizeof res->message, st);
    clra__reply_free(&reply);
    return rc;
}

/* Trusts an OK only when the file is there and new: a runtime once answered OK after a failed
 * dump (docs/protocol.md 3.1). Without access to look, the dump stays unverified but not failed. */
static int verify(clra_dump_result_t *res, const file_state_t *before, clra_status_t *st)
{
    file_state_t after;
    clra__dump_file_state(res->local_path, &after);
    if (!after.exists && after.err == EACCES)
        return 0;
    if (!after.exists) {
        clra__detail(st, "the runtime answered OK but %s does not exist; ask for logging to see "
                     "createdump's output on the target's stdout", res->local_path);
        return CLRA_EIO;
    }
    if (before->exists && before->ino == after.ino && before->size == after.size &&
        before->mtime_s == after.mtime_s && before->mtime_ns == after.mtime_ns) {
        clra__detail(st, "the runtime answered OK but %s is unchanged since before the request",
                     res->local_path);
        return CLRA_EIO;
    }
    res->verified = 1;
    res->size = after.size;
    return 0;
}

/* A failed dump may still leave a file (seen under wine: createdump crashed after dbghelp's
 * MiniDumpWriteDump had written it): say so, with its size, since it may be incomplete. */
static void note_leftover(clra_dump_result_t *res, const file_state_t *before,
                          clra_status_t *st)
{
    file_state_t after;
    char why[sizeof st->detail];
    clra__dump_file_state(res->local_path, &after);
    if (!after.exists || (before->exists && before->size == after.size &&
                          before->mtime_s == after.mtime_s && before->mtime_ns == after.mtime_ns))
        return;
    res->size = after.size;
    memcpy(why, st->detail, sizeof why);
    clra__detail(st, "%s; yet %s was written (%lld bytes) and left there: it may be incomplete",
                 why, res->local_path, after.size);
}

/* createdump's text is lines of "[createdump] ..."; the detail is one line, so the lines are
 * joined with "; " and the prefix dropped. Trailing newlines go from the message itself. */
static void one_line(clra_dump_result_t *res, char *out, size_t cap)
{
    static const char prefix[] = "[createdump] ";
    size_t n = strlen(res->message), k = 0;
    while (n && (res->message[n - 1] == '\n' || res->message[n - 1] == '\r'))
        res->message[--n] = '\0';
    for (const char *p = res->message; *p && k + 3 < cap;) {
        if (strncmp(p, prefix, sizeof prefix - 1) == 0)
            p += sizeof prefix - 1;
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        len = len < cap - k - 3 ? len : cap - k - 3;
        memcpy(out + k, p, len);
        k += len;
        if (!eol)
            break;
        memcpy(out + k, "; ", 2);
        k += 2;
        p = eol + 1;
    }
    out[k] = '\0';
}

static void explain_refusal(clra_dump_result_t *res, clra_status_t *st)
{
    char text[sizeof st->detail];
    one_line(res, text, sizeof text);
    if (st->hresult == CLRA__HR_UNKNOWN_COMMAND)
        clra__detail(st, "the runtime knows none of GenerateCoreDump 3, 2 and 1");
    else if (text[0])
        clra__detail(st, "GenerateCoreDump%d failed: %s", res->command, text);
    else
        clra__detail(st, "GenerateCoreDump%d failed without a message%s", res->command,
                     res->command == 3 ? ""
                                       : " (only GenerateCoreDump3 carries createdump's text)");
}

static int check_args(const char *path, clra_dump_type_t type, uint32_t flags,
                      clra_status_t *st)
{
    if (!clra__path_is_absolute(path)) {
        clra__detail(st, "a target and an absolute dump path are required (the target "
                     "would resolve a relative path against its own working directory)");
        return CLRA_EINVAL;
    }
    if (type < CLRA_DUMP_NORMAL || type > CLRA_DUMP_FULL || (flags & ~ALL_DUMP_FLAGS)) {
        clra__detail(st, "dump type %d or flags 0x%X unknown (types 1-4, flags 0x1|0x2|0x4)",
                     (int)type, (unsigned)flags);
        return CLRA_EINVAL;
    }
    return 0;
}

/* The path as the request carries it. On Windows the runtime pastes it unquoted into
 * createdump.exe's command line (seen with .NET 10: a path with a space made createdump read
 * its second word as the pid argument it no longer takes), so such a path goes in quotes. */
static int path_as_sent(const char *path, char *out, size_t cap, clra_status_t *st)
{
    int quote = clra__dump_path_needs_quotes(path);
    if ((size_t)snprintf(out, cap, "%s%s%s", quote ? "\"" : "", path, quote ? "\"" : "") < cap)
        return 0;
    clra__detail(st, "the dump path is longer than %d bytes", CLRA_PATH_MAX - 1);
    return CLRA_EINVAL;
}

/* Newest first; only "unknown command" means an older version may work (pitfall 8). */
static int dump_newest(clra__endpoint_t *ep, const char *path, clra_dump_type_t type,
                       uint32_t flags, const clra__deadline_t *d, clra_dump_result_t *res,
                       clra_status_t *st)
{
    int rc = CLRA_ERUNTIME;
    for (uint8_t id = CLRA__DUMP_GENERATE3; id >= CLRA__DUMP_GENERATE; id--) {
        uint32_t x = flags;
        if (id == CLRA__DUMP_GENERATE) /* a 0/1 "diagnostics" field: logging or nothing */
            x = (flags & (CLRA_DUMP_LOGGING | CLRA_DUMP_VERBOSE)) ? 1 : 0;
        res->command = id;
        res->flags_sent = id == CLRA__DUMP_GENERATE ? (x ? CLRA_DUMP_LOGGING : 0) : flags;
        st->hresult = 0;
        rc = dump_once(ep, id, path, (uint32_t)type, x, d, res, st);
        /* A reverse connection carries one command: there is none left for an older one. */
        if (rc != CLRA_ERUNTIME || st->hresult != CLRA__HR_UNKNOWN_COMMAND || !ep->at.path[0])
            break;
    }
    if (rc == CLRA_ERUNTIME)
        explain_refusal(res, st);
    return rc;
}

int clra_dump_create(const clra_target_t *target, const char *path, clra_dump_type_t type,
                     uint32_t flags, int timeout_ms, clra_dump_result_t *res, clra_status_t *st)
{
    clra_status_t local;
    clra_dump_result_t lres;
    clra__endpoint_t e;
    file_state_t before;
    st = clra__status_begin(st, &local);
    if (!res)
        res = &lres;
    memset(res, 0, sizeof *res);
    res->size = -1;
    clra__deadline_t d = clra__deadline_in(timeout_ms);
    int rc = clra__target_resolve(target, &d, &e, st);
    if (rc)
        return rc;
    rc = check_args(path, type, flags, st);
    if (rc == 0)
        rc = locate(&e.at, path, res, st);
    if (rc == 0) {
        clra__dump_file_state(res->local_path, &before);
        char sent[CLRA_PATH_MAX + 2];
        rc = path_as_sent(path, sent, sizeof sent, st);
        if (rc == 0)
            rc = dump_newest(&e, sent, type, flags, &d, res, st);
    }
    clra__endpoint_done(&e);
    if (rc == CLRA_ERUNTIME)
        note_leftover(res, &before, st);
    return rc ? rc : verify(res, &before, st);
}
