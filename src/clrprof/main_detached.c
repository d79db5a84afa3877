/* main_detached.c - a mark, for the life of the process, that a main profiler detached from it.
 *
 * .NET 10 crashes (SIGSEGV) in the RequestProfilerDetach of a notification-only profiler once a
 * main profiler has detached from the process (docs/runtime-behaviour.md). A
 * libclrprof main profiler leaves this mark when its detach succeeds; a libclrprof
 * notification-only profiler then refuses to detach, and `clrattach profile` will not load its
 * sampler beside a main profiler in such a process. The mark's name and what makes one
 * trustworthy are in src/common/main_detached_mark.h. Losing a live process's mark lets the
 * next notification-only detach crash it, so each new mark sweeps only marks that provably
 * belong to no live process.
 */
#define _GNU_SOURCE
#include "profiler_internal.h"
#include "common/main_detached_mark.h"
#include "common/mono_clock.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <sys/random.h>
#include <time.h>

#define CREATE_TRIES 4

/* Field 22 (start time) of /proc/self/stat, 0 when unreadable. */
static unsigned long long start_of_self(void)
{
    char text[1024];
    FILE *f = fopen("/proc/self/stat", "re");
    size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
    if (f)
        fclose(f);
    text[n] = '\0';
    const char *p = strrchr(text, ')');
    unsigned long long start = 0;
    for (int field = 2; p && *p && field < 22; p++)
        field += *p == ' ';
    if (!p || sscanf(p, "%llu", &start) != 1)
        return 0;
    return start;
}

/* The identity this process's marks carry; -1 when /proc cannot say. */
static int own_id(mark__id_t *id)
{
    id->pidns = mark__pidns("/proc/self/ns/pid");
    id->pid = (unsigned long long)getpid();
    id->start = start_of_self();
    return id->pidns && id->start ? 0 : -1;
}

/* Whether a mark of our own pid namespace belongs to no live process: its pid is gone here
 * (kill answers ESRCH in our namespace, where the pid means what it meant to its maker), or it
 * is our pid with another start time (made by an earlier holder of our pid). A live pid with
 * another start time is not proof: a process in another time namespace reads start times
 * offset by its boot-time offset. */
static int provably_dead(const mark__id_t *m, const mark__id_t *own)
{
    if (m->pid == own->pid)
        return m->start != own->start;
    return m->pid >= 1 && m->pid <= INT_MAX && kill((pid_t)m->pid, 0) != 0 && errno == ESRCH;
}

/* Removes the marks of processes that are gone. Marks of other pid namespaces are left alone
 * whatever their pid: it cannot be checked from here, a stale one costs a few bytes, and a
 * wrong removal lets a notification-only detach crash a live process. */
static void sweep_marks(const mark__id_t *own)
{
    DIR *d = opendir(MARK__DIR);
    struct dirent *e;
    mark__id_t m;
    while (d && (e = readdir(d)) != NULL)
        if (mark__parse(e->d_name, &m) == 0 && m.pidns == own->pidns && provably_dead(&m, own))
            unlinkat(dirfd(d), e->d_name, 0);
    if (d)
        closedir(d);
}

/* 16 hex digits nobody can predict (the clock when the kernel has no randomness yet, which
 * only makes a squatter's guess a race to win, not a certainty). */
static void random_hex(char out[MARK__RANDOM_DIGITS + 1])
{
    uint64_t v = 0;
    if (getrandom(&v, sizeof v, GRND_NONBLOCK) != (ssize_t)sizeof v) {
        v = mono__ns() ^ ((uint64_t)getpid() << 40);
    }
    snprintf(out, MARK__RANDOM_DIGITS + 1, "%016llx", (unsigned long long)v);
}

/* Creates a new mark for own: O_EXCL and O_NOFOLLOW, so a planted link or file is never
 * followed or reused; a name taken already is tried again with another random part. first is
 * the random part of the first name tried (NULL: a fresh one). NULL, or what went wrong. */
static const char *create_mark(const mark__id_t *own, const char *first)
{
    static char why[160];
    int err = 0;
    for (int tries = 0; tries < CREATE_TRIES; tries++) {
        char random[MARK__RANDOM_DIGITS + 1], name[160], path[192];
        if (tries == 0 && first)
            snprintf(random, sizeof random, "%s", first);
        else
            random_hex(random);
        if (mark__name(name, sizeof name, own, random) != 0)
            return "its name does not fit";
        snprintf(path, sizeof path, MARK__DIR "/%s", name);
        int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (fd >= 0) {
            close(fd);
            return NULL;
        }
        if ((err = errno) != EEXIST)
            break;
    }
    snprintf(why, sizeof why, "cannot create it in " MARK__DIR " (%s): make " MARK__DIR
             " a writable tmpfs, as it is by default", strerror(err));
    return why;
}

const char *clrprof__mark_main_detached(void)
{
    return clrprof__mark_main_detached_with(NULL);
}

const char *clrprof__mark_main_detached_with(const char *first_random)
{
    mark__id_t own;
    if (own_id(&own) != 0)
        return "/proc/self (stat, ns/pid) is unreadable: mount /proc in the process's namespace";
    sweep_marks(&own);
    if (mark__find(MARK__DIR, &own, geteuid()) == 1)
        return NULL; /* an earlier main profiler's detach marked the process already */
    return create_mark(&own, first_random);
}

int clrprof__main_has_detached(void)
{
    mark__id_t own;
    return own_id(&own) == 0 && mark__find(MARK__DIR, &own, geteuid()) == 1;
}
