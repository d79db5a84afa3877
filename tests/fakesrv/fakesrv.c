/* fakesrv.c - the misbehaving diagnostics server of fakesrv.h. */
#define _GNU_SOURCE
#include "fakesrv.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

struct fakesrv {
    fakesrv_behaviour_t how;
    uint8_t reply[1024];
    size_t reply_len;
    char dir[512];
    char path[640];
    int listen_fd;
    int stop_pipe[2];
    pthread_t thread;
    int started;
    pthread_mutex_t lock;
    pthread_cond_t got;
    uint8_t request[70000];
    size_t request_len;
    int request_done;
};

/* Binds through /proc/self/fd/N of the directory so long paths work here too. */
static int bind_path(int fd, const char *dir, const char *name)
{
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    int dfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0)
        return -1;
    snprintf(sa.sun_path, sizeof sa.sun_path, "/proc/self/fd/%d/%s", dfd, name);
    int rc = bind(fd, (struct sockaddr *)&sa, sizeof sa);
    close(dfd);
    return rc;
}

/* Waits for data on fd or a stop request; returns 1 when fd is readable, 0 on stop. */
static int wait_readable(fakesrv_t *s, int fd)
{
    struct pollfd p[2] = {{fd, POLLIN, 0}, {s->stop_pipe[0], POLLIN, 0}};
    while (poll(p, 2, -1) < 0 && errno == EINTR)
        ;
    return (p[1].revents == 0) && (p[0].revents != 0);
}

/* Reads the 20-byte header and then the announced payload, as the runtime does. */
static void read_request(fakesrv_t *s, int fd)
{
    size_t want = 20;
    while (s->request_len < want && s->request_len < sizeof s->request && wait_readable(s, fd)) {
        ssize_t k = recv(fd, s->request + s->request_len, sizeof s->request - s->request_len, 0);
        if (k <= 0)
            break;
        s->request_len += (size_t)k;
        if (s->request_len >= 20)
            want = (size_t)(s->request[14] | (s->request[15] << 8));
    }
    pthread_mutex_lock(&s->lock);
    s->request_done = 1;
    pthread_cond_broadcast(&s->got);
    pthread_mutex_unlock(&s->lock);
}

static void *serve(void *arg)
{
    fakesrv_t *s = arg;
    if (!wait_readable(s, s->listen_fd))
        return NULL;
    int fd = accept4(s->listen_fd, NULL, NULL, SOCK_CLOEXEC);
    if (fd < 0)
        return NULL;
    read_request(s, fd);
    if (s->how == FAKESRV_REPLY || s->how == FAKESRV_REPLY_STALL)
        send(fd, s->reply, s->reply_len, MSG_NOSIGNAL);
    if (s->how == FAKESRV_REPLY_STALL || s->how == FAKESRV_SILENT) {
        char c;
        while (wait_readable(s, fd) && recv(fd, &c, 1, 0) > 0)
            ;
    }
    close(fd);
    return NULL;
}

fakesrv_t *fakesrv_start(fakesrv_behaviour_t how, const void *reply, size_t reply_len,
                         size_t dir_name_len)
{
    fakesrv_t *s = calloc(1, sizeof *s);
    if (!s || reply_len > sizeof s->reply)
        goto fail;
    s->how = how;
    if (reply_len)
        memcpy(s->reply, reply, reply_len);
    s->reply_len = reply_len;
    snprintf(s->dir, sizeof s->dir, "/tmp/clra-fakesrv-XXXXXX");
    if (!mkdtemp(s->dir))
        goto fail;
    if (dir_name_len > 0) {
        size_t n = strlen(s->dir);
        s->dir[n] = '/';
        memset(s->dir + n + 1, 'd', dir_name_len);
        s->dir[n + 1 + dir_name_len] = '\0';
        if (mkdir(s->dir, 0700) != 0)
            goto fail;
    }
    snprintf(s->path, sizeof s->path, "%s/dotnet-diagnostic-1-1-socket", s->dir);
    s->listen_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (s->listen_fd < 0 || bind_path(s->listen_fd, s->dir, "dotnet-diagnostic-1-1-socket") != 0)
        goto fail;
    if (how != FAKESRV_NO_LISTENER && listen(s->listen_fd, 8) != 0)
        goto fail;
    if (how == FAKESRV_NO_LISTENER) {
        close(s->listen_fd); /* the file stays: a stale socket */
        s->listen_fd = -1;
    }
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->got, NULL);
    if (pipe2(s->stop_pipe, O_CLOEXEC) != 0)
        goto fail;
    if (how != FAKESRV_NO_LISTENER && pthread_create(&s->thread, NULL, serve, s) != 0)
        goto fail;
    s->started = how != FAKESRV_NO_LISTENER;
    return s;
fail:
    free(s);
    return NULL;
}

const char *fakesrv_path(const fakesrv_t *s)
{
    return s->path;
}

size_t fakesrv_request(fakesrv_t *s, uint8_t *buf, size_t cap)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 2;
    pthread_mutex_lock(&s->lock);
    while (!s->request_done && pthread_cond_timedwait(&s->got, &s->lock, &until) == 0)
        ;
    size_t n = s->request_len;
    memcpy(buf, s->request, n < cap ? n : cap);
    pthread_mutex_unlock(&s->lock);
    return n;
}

void fakesrv_stop(fakesrv_t *s)
{
    if (!s)
        return;
    if (write(s->stop_pipe[1], "x", 1) < 0)
        perror("fakesrv stop");
    if (s->started)
        pthread_join(s->thread, NULL);
    if (s->listen_fd >= 0)
        close(s->listen_fd);
    close(s->stop_pipe[0]);
    close(s->stop_pipe[1]);
    unlink(s->path);
    rmdir(s->dir);
    char *slash = strrchr(s->dir, '/');
    if (slash && strncmp(slash, "/ddd", 4) == 0) {
        *slash = '\0';
        rmdir(s->dir);
    }
    free(s);
}
