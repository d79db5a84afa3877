/* control.c - the owner-only Unix socket through which `clrattach detach` and `--hold` reach a
 * profiler from outside the process.
 *
 * The socket is $TMPDIR/clrprof-<pid>-<clsid>.sock (the directory of the runtime's own
 * diagnostics socket, which the trigger already knows how to find, containers included). It is
 * chmod 0600 and every peer's credentials are checked, so only the process owner or root can
 * talk to it. One line in, one line out:
 *   status  -> "ok name=N clsid=C pid=P inode=I level=L attached=A notification_only=B calls=C
 *               longest_us=U"
 *   detach  -> "detach hr=0x........ expected_ms=N inode=I refs_after=R name=N message=..."
 *              (R: references to the library the runtime keeps after this detach's unload)
 *   hold    -> "ok holding inode=I"; the connection then stays open and its hang-up detaches
 *   other   -> the profiler's control hook answers (clrprof_def_t.control), else an error
 */
#define _GNU_SOURCE
#include "profiler_internal.h"
#include "common/shared_names.h" /* CONTROL_SOCKET_FORMAT */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

_Static_assert(sizeof(((struct sockaddr_un *)0)->sun_path) == CLRPROF__CONTROL_PATH_MAX,
               "profiler_internal.h's CLRPROF__CONTROL_PATH_MAX is sun_path's size");

#define COMMAND_MAX 64
#define IO_TIMEOUT_MS 2000

static void format_clsid(const CLSID *g, char out[40])
{
    snprintf(out, 40, "%08x-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x", (unsigned)g->Data1,
             g->Data2, g->Data3, g->Data4[0], g->Data4[1], g->Data4[2], g->Data4[3], g->Data4[4],
             g->Data4[5], g->Data4[6], g->Data4[7]);
}

/* The inode of this profiler's own .so: how the trigger sees it leave /proc/PID/maps, whatever
 * path the library has in the target's mount namespace. Taken from the mapping that holds this
 * code, not from the path: a library rebuilt or removed on disk since the load has another
 * inode (or none) there. */
static unsigned long long library_inode(void)
{
    uintptr_t here = (uintptr_t)library_inode;
    unsigned long long inode = 0;
    char line[1024];
    FILE *f = fopen("/proc/self/maps", "re");
    while (f && !inode && fgets(line, sizeof line, f)) {
        unsigned long long lo, hi, ino;
        if (sscanf(line, "%llx-%llx %*s %*s %*s %llu", &lo, &hi, &ino) == 3 && here >= lo &&
            here < hi)
            inode = ino;
    }
    if (f)
        fclose(f);
    return inode;
}

void clrprof__control_open(clrprof_profiler_t *p)
{
    const char *dir = getenv("TMPDIR");
    char clsid[40];
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    format_clsid(&p->def->clsid, clsid);
    if (!dir || !dir[0])
        dir = "/tmp";
    if ((size_t)snprintf(addr.sun_path, sizeof addr.sun_path, "%s/" CONTROL_SOCKET_FORMAT, dir,
                         (int)getpid(), clsid) >= sizeof addr.sun_path) {
        clrprof__note(p, "warning: no control endpoint: TMPDIR %s is too long for a socket path", dir);
        return;
    }
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0) {
        clrprof__note(p, "warning: no control endpoint: socket: %s", strerror(errno));
        return;
    }
    unlink(addr.sun_path); /* a leftover from a process that had our pid and CLSID */
    mode_t old = umask(0177);
    int ok = bind(fd, (struct sockaddr *)&addr, sizeof addr) == 0;
    umask(old);
    if (!ok || chmod(addr.sun_path, 0600) != 0 || listen(fd, 4) != 0) {
        clrprof__note(p, "warning: no control endpoint at %s: %s", addr.sun_path, strerror(errno));
        close(fd);
        if (ok)
            unlink(addr.sun_path);
        return;
    }
    p->listen_fd = fd;
    p->library_inode = library_inode();
    snprintf(p->control_path, sizeof p->control_path, "%s", addr.sun_path);
    clrprof__note(p, "control endpoint %s", p->control_path);
}

void clrprof__control_close(clrprof_profiler_t *p)
{
    if (p->holder_fd >= 0)
        close(p->holder_fd);
    if (p->listen_fd >= 0) {
        close(p->listen_fd);
        unlink(p->control_path);
    }
    p->holder_fd = p->listen_fd = -1;
}

/* Only the owner of the process (or root) may detach its profiler. SO_PEERCRED gives the
 * peer's effective uid as our user namespace sees it: root of an ancestor namespace (host root
 * and a rootless container) is unmapped here, the overflow uid, and is refused like anyone
 * unmapped; clrattach as root connects with the owner's uid instead (clra__connect_as). */
static int peer_allowed(int fd)
{
    struct ucred cred;
    socklen_t len = sizeof cred;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0)
        return 0;
    return cred.uid == 0 || cred.uid == geteuid();
}

/* Reads one command line, bounded in size and time; 0 on success. */
static int read_command(int fd, char *out, size_t cap)
{
    size_t used = 0;
    while (used + 1 < cap) {
        ssize_t n = read(fd, out + used, 1);
        if (n <= 0)
            return -1;
        if (out[used] == '\n')
            break;
        used++;
    }
    out[used] = '\0';
    return used + 1 < cap ? 0 : -1;
}

int clrprof_control_send(int fd, const void *data, size_t len)
{
    size_t done = 0;
    while (done < len) {
        ssize_t n = send(fd, (const char *)data + done, len - done, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        done += (size_t)n;
    }
    return 0;
}

static void reply(int fd, const char *text)
{
    clrprof_control_send(fd, text, strlen(text));
}

/* Answers one command; a "hold" connection is kept as the holder. */
static void serve(clrprof_profiler_t *p, int fd, const char *command)
{
    char text[512], clsid[40];
    unsigned long long inode = p->library_inode;
    const char *name = p->def->name ? p->def->name : "profiler";
    if (strcmp(command, "detach") == 0) {
        DWORD expected = 0;
        HRESULT hr = clrprof__detach_now(p, "clrattach detach", &expected);
        unsigned long refs = clrprof__runtime_refs(); /* this detach's unload still to come */
        snprintf(text, sizeof text, "detach hr=0x%08X expected_ms=%u inode=%llu refs_after=%lu "
                 "name=%s message=%s\n", (unsigned)hr, (unsigned)expected, inode,
                 SUCCEEDED(hr) && refs > 0 ? refs - 1 : refs, name, clrprof_detach_refusal(hr));
    } else if (strcmp(command, "hold") == 0) {
        if (p->holder_fd >= 0)
            close(p->holder_fd); /* the newest trigger holds; the old one stops counting */
        p->holder_fd = fd;
        p->holder_seen = 1;
        snprintf(text, sizeof text, "ok holding inode=%llu name=%s\n", inode, name);
        reply(fd, text);
        clrprof__note(p, "held by a trigger: detaching when it disconnects");
        return;
    } else if (strcmp(command, "status") == 0) {
        clrprof_callback_stats_t s;
        clrprof_callback_stats(p, &s);
        format_clsid(&p->def->clsid, clsid);
        snprintf(text, sizeof text, "ok name=%s clsid=%s pid=%d inode=%llu level=%d attached=%d "
                 "notification_only=%d calls=%llu longest_us=%llu\n", name, clsid, (int)getpid(),
                 inode, clrprof_info_level(p), p->attached, p->def->notification_only != 0,
                 (unsigned long long)s.calls,
                 (unsigned long long)(s.longest_ns / 1000));
    } else if (p->def->control && p->def->control(p, command, fd) == 0) {
        close(fd);
        return;
    } else {
        snprintf(text, sizeof text, "error unknown command; send status, detach or hold\n");
    }
    reply(fd, text);
    close(fd);
}

void clrprof__control_accept(clrprof_profiler_t *p)
{
    char command[COMMAND_MAX];
    int fd = accept4(p->listen_fd, NULL, NULL, SOCK_CLOEXEC);
    if (fd < 0)
        return;
    struct timeval tv = {IO_TIMEOUT_MS / 1000, (IO_TIMEOUT_MS % 1000) * 1000};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    /* The command is read even from a peer about to be refused: closing before it arrives
     * made the peer's send fail, and it never read the refusal. */
    int read_ok = read_command(fd, command, sizeof command) == 0;
    if (!peer_allowed(fd)) {
        reply(fd, "error permission denied: only the process owner or root, as this process's "
              "user namespace sees them, may control it\n");
        close(fd);
        return;
    }
    if (!read_ok) {
        reply(fd, "error expected one command line (status, detach or hold)\n");
        close(fd);
        return;
    }
    serve(p, fd, command);
}
