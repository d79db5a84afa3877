/* signal_look.c - what the wall tick reads of a thread without signalling it, from
 * /proc/self/task/TID: how often it was scheduled in (schedstat's third field), whether it runs
 * now (stat's state) and whether it blocks our signal (status's SigBlk: read again after a
 * second, or after 50 ms while it blocks the signal, since a block may be momentary).
 * schedstat and stat stay open per thread (pread costs 1 and 4 us where open, read and close of
 * status cost 25 us), up to LOOK_MAX_FDS descriptors in all so a target with many threads keeps
 * its own file limit; past it a file is opened for each read.
 */
#define _GNU_SOURCE
#include "common/mono_clock.h"
#include "signal_sampler.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LOOK_MAX_FDS 256
#define MASK_EVERY_NS 1000000000ULL /* a thread that takes our signal: its mask read again */
#define MASKED_AGAIN_NS 50000000ULL /* one that blocks it: often only for a moment (glibc blocks
                                     * every signal in a thread while it creates another) */

static int open_fds; /* the sampling thread's alone (and the stop's, when it no longer ticks) */

static int open_task_file(int tid, const char *name)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/self/task/%d/%s", tid, name);
    return open(path, O_RDONLY | O_CLOEXEC);
}

/* Reads the task file into buf through the kept descriptor *held (fd + 1; 0 none, opened here
 * while the budget lasts; held NULL: a file read once); the bytes read, or -1 when the thread is
 * gone. */
static ssize_t read_task_file(int *held, int tid, const char *name, char *buf, size_t cap)
{
    if (held && *held == 0 && open_fds < LOOK_MAX_FDS) {
        int fd = open_task_file(tid, name);
        if (fd < 0)
            return -1;
        *held = fd + 1;
        open_fds++;
    }
    ssize_t n;
    if (held && *held) {
        n = pread(*held - 1, buf, cap - 1, 0);
    } else {
        int fd = open_task_file(tid, name);
        if (fd < 0)
            return -1;
        n = read(fd, buf, cap - 1);
        close(fd);
    }
    if (n <= 0)
        return -1;
    buf[n] = '\0';
    return n;
}

int look_scheduled(sig_slot_t *slot, int tid, uint64_t *count)
{
    char buf[128], *p = buf;
    if (read_task_file(&slot->fd_sched, tid, "schedstat", buf, sizeof buf) < 0)
        return -1;
    for (int field = 0; field < 2; field++) { /* run time, wait time: skipped */
        strtoull(p, &p, 10);
        if (*p != ' ')
            return -1;
    }
    *count = strtoull(p, &p, 10);
    return *p == '\n' || *p == '\0' ? 0 : -1;
}

int look_blocked(sig_slot_t *slot, int tid, int *blocked)
{
    char buf[1024];
    if (read_task_file(&slot->fd_stat, tid, "stat", buf, sizeof buf) < 0)
        return -1;
    const char *p = strrchr(buf, ')'); /* the name before it may hold spaces or parentheses */
    if (!p || p[1] != ' ' || !p[2])
        return -1;
    *blocked = p[2] != 'R';
    return 0;
}

int look_masked(sig_slot_t *slot, int tid, int signo, uint64_t now_ns)
{
    if (slot->mask_ns && now_ns - slot->mask_ns < (slot->masked ? MASKED_AGAIN_NS : MASK_EVERY_NS))
        return slot->masked;
    char buf[2048];
    if (read_task_file(NULL, tid, "status", buf, sizeof buf) < 0)
        return -1;
    const char *mask = strstr(buf, "\nSigBlk:");
    if (!mask)
        return -1;
    slot->masked = (int)((strtoull(mask + 9, NULL, 16) >> (signo - 1)) & 1);
    slot->mask_ns = now_ns;
    return slot->masked;
}

void look_forget(sig_slot_t *slot)
{
    int *held[] = {&slot->fd_sched, &slot->fd_stat};
    for (int i = 0; i < 2; i++)
        if (*held[i]) {
            close(*held[i] - 1);
            *held[i] = 0;
            open_fds--;
        }
    slot->mask_ns = 0;
    slot->awaiting = 0;
    slot->sched_next = 0;
    slot->last_n = 0;
}
