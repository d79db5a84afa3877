/* fakesrv_seq.c - the scripted multi-connection server of fakesrv_seq.h. */
#define _GNU_SOURCE
#include "fakesrv_seq.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#define MAX_REQUEST 65535

struct fakesrv_seq {
    fakesrv_step_t steps[FAKESRV_SEQ_MAX_STEPS];
    uint8_t *replies[FAKESRV_SEQ_MAX_STEPS];
    uint8_t *requests[FAKESRV_SEQ_MAX_STEPS];
    size_t request_len[FAKESRV_SEQ_MAX_STEPS];
    int n, served;
    char dir[32], path[80];
    int listen_fd, stop_pipe[2];
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t got;
};

/* 1 when fd is readable, 0 when a stop was requested first. */
static int wait_readable(fakesrv_seq_t *s, int fd)
{
    struct pollfd p[2] = {{fd, POLLIN, 0}, {s->stop_pipe[0], POLLIN, 0}};
    while (poll(p, 2, -1) < 0 && errno == EINTR)
        ;
    return p[1].revents == 0 && p[0].revents != 0;
}

/* Reads header + announced size, as the runtime does; returns the bytes read. */
static size_t read_request(fakesrv_seq_t *s, int fd, uint8_t *buf)
{
    size_t len = 0, want = 20;
    while (len < want && wait_readable(s, fd)) {
        ssize_t k = recv(fd, buf + len, MAX_REQUEST - len, 0);
        if (k <= 0)
            break;
        len += (size_t)k;
        if (len >= 20)
            want = (size_t)(buf[14] | (buf[15] << 8));
    }
    return len;
}

static void make_file(const char *path)
{
    FILE *f = fopen(path, "w");
    if (f) {
        fputs("not really a core file\n", f);
        fclose(f);
    }
}

/* Serves one connection per step, in order. */
static void *serve(void *arg)
{
    fakesrv_seq_t *s = arg;
    for (int i = 0; i < s->n && wait_readable(s, s->listen_fd); i++) {
        int fd = accept4(s->listen_fd, NULL, NULL, SOCK_CLOEXEC);
        if (fd < 0)
            break;
        size_t len = read_request(s, fd, s->requests[i]);
        if (s->steps[i].create_file)
            make_file(s->steps[i].create_file);
        send(fd, s->replies[i], s->steps[i].reply_len, MSG_NOSIGNAL);
        close(fd);
        pthread_mutex_lock(&s->lock);
        s->request_len[i] = len;
        s->served = i + 1;
        pthread_cond_broadcast(&s->got);
        pthread_mutex_unlock(&s->lock);
    }
    return NULL;
}

static int listen_in(fakesrv_seq_t *s)
{
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    snprintf(s->dir, sizeof s->dir, "/tmp/clra-fakeseq-XXXXXX");
    if (!mkdtemp(s->dir))
        return -1;
    snprintf(s->path, sizeof s->path, "%s/dotnet-diagnostic-1-1-socket", s->dir);
    snprintf(sa.sun_path, sizeof sa.sun_path, "%s", s->path);
    s->listen_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (s->listen_fd < 0 || bind(s->listen_fd, (struct sockaddr *)&sa, sizeof sa) != 0)
        return -1;
    return listen(s->listen_fd, 8);
}

fakesrv_seq_t *fakesrv_seq_start(const fakesrv_step_t *steps, int n)
{
    fakesrv_seq_t *s = calloc(1, sizeof *s);
    if (!s || n < 1 || n > FAKESRV_SEQ_MAX_STEPS)
        goto fail;
    s->n = n;
    s->listen_fd = -1;
    for (int i = 0; i < n; i++) {
        s->steps[i] = steps[i];
        s->replies[i] = malloc(steps[i].reply_len + 1);
        s->requests[i] = malloc(MAX_REQUEST);
        if (!s->replies[i] || !s->requests[i])
            goto fail;
        memcpy(s->replies[i], steps[i].reply, steps[i].reply_len);
    }
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->got, NULL);
    if (listen_in(s) != 0 || pipe2(s->stop_pipe, O_CLOEXEC) != 0)
        goto fail;
    if (pthread_create(&s->thread, NULL, serve, s) != 0)
        goto fail;
    return s;
fail:
    fprintf(stderr, "fakesrv_seq_start: %s\n", strerror(errno));
    return NULL; /* a test failing here ends anyway; nothing worth unwinding */
}

const char *fakesrv_seq_path(const fakesrv_seq_t *s)
{
    return s->path;
}

int fakesrv_seq_count(fakesrv_seq_t *s, int want)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 2;
    pthread_mutex_lock(&s->lock);
    while (s->served < want && pthread_cond_timedwait(&s->got, &s->lock, &until) == 0)
        ;
    int n = s->served;
    pthread_mutex_unlock(&s->lock);
    return n;
}

size_t fakesrv_seq_request(fakesrv_seq_t *s, int i, uint8_t *buf, size_t cap)
{
    if (i < 0 || fakesrv_seq_count(s, i + 1) <= i)
        return 0;
    size_t n = s->request_len[i];
    memcpy(buf, s->requests[i], n < cap ? n : cap);
    return n;
}

void fakesrv_seq_stop(fakesrv_seq_t *s)
{
    if (!s)
        return;
    if (write(s->stop_pipe[1], "x", 1) < 0)
        perror("fakesrv_seq stop");
    pthread_join(s->thread, NULL);
    close(s->listen_fd);
    close(s->stop_pipe[0]);
    close(s->stop_pipe[1]);
    for (int i = 0; i < s->n; i++) {
        free(s->replies[i]);
        free(s->requests[i]);
    }
    unlink(s->path);
    rmdir(s->dir);
    free(s);
}
