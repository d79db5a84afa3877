/* floor_stamps.c - LD_PRELOADed to stamp steps of an attach no profiler can see. In the
 * target: the diagnostics thread accepting the trigger's connection (accept or accept4) and its
 * dlopen of the floor profiler, read by floor_profiler at detach. In the trigger (bench_client):
 * its connect returning. Interposing forwards every call unchanged to the next definition. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

__attribute__((visibility("default"))) long long clra_bench_stamps[3]; /* accept, dlopen, connect */

static long long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* The last connection accepted is the trigger's: nothing else connects during a round. */
__attribute__((visibility("default"))) int accept(int fd, struct sockaddr *addr, socklen_t *len)
{
    static int (*next)(int, struct sockaddr *, socklen_t *);
    if (!next)
        next = (int (*)(int, struct sockaddr *, socklen_t *))dlsym(RTLD_NEXT, "accept");
    int rc = next(fd, addr, len);
    clra_bench_stamps[0] = now_ns();
    return rc;
}

/* The runtime's diagnostics server may accept either way. */
__attribute__((visibility("default"))) int accept4(int fd, struct sockaddr *addr, socklen_t *len,
                                                   int flags)
{
    static int (*next)(int, struct sockaddr *, socklen_t *, int);
    if (!next)
        next = (int (*)(int, struct sockaddr *, socklen_t *, int))dlsym(RTLD_NEXT, "accept4");
    int rc = next(fd, addr, len, flags);
    clra_bench_stamps[0] = now_ns();
    return rc;
}

/* The trigger's side: its connection is made. */
__attribute__((visibility("default"))) int connect(int fd, const struct sockaddr *addr,
                                                   socklen_t len)
{
    static int (*next)(int, const struct sockaddr *, socklen_t);
    if (!next)
        next = (int (*)(int, const struct sockaddr *, socklen_t))dlsym(RTLD_NEXT, "connect");
    int rc = next(fd, addr, len);
    clra_bench_stamps[2] = now_ns();
    return rc;
}

/* Only the floor profiler's load is stamped; everything else passes through. */
__attribute__((visibility("default"))) void *dlopen(const char *file, int mode)
{
    static void *(*next)(const char *, int);
    if (!next)
        next = (void *(*)(const char *, int))dlsym(RTLD_NEXT, "dlopen");
    if (file && strstr(file, "libfloor_profiler.so"))
        clra_bench_stamps[1] = now_ns();
    return next(file, mode);
}
