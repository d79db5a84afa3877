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
#include <time.h>
#include <unistd.h>

#define REQUEST_MAX 70000

typedef struct step_state {
    fakesrv_behaviour_t how;
    uint8_t *reply;
    size_t reply_len;
    uint8_t request[REQUEST_MAX];
    size_t request_len;
    int request_done;
    int fds_passed;     /* FAKESRV_REPLY_AFTER_FD: descriptors received, -1 none, no byte */
    struct stat passed; /* fstat of the first */
    char create_file[512];
} step_state_t;

struct fakesrv {
    step_state_t steps[FAKESRV_MAX_STEPS];
    size_t nsteps;
    size_t accepted;
    int own_dir;
    char dir[512];
    char path[640];
    int listen_fd;
    int stop_pipe[2];
    pthread_t thread;
    int started;
    pthread_mutex_t lock;
    pthread_cond_t got;
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

/* One recvmsg of a 1-byte buffer, as the runtime reads a passed descriptor; notes how many
 * came and what the first is, and closes them. */
static void receive_fd(fakesrv_t *s, step_state_t *st, int fd)
{
    char byte;
    union {
        struct cmsghdr align;
        char bytes[CMSG_SPACE(4 * sizeof(int))];
    } control;
    struct iovec io = {&byte, 1};
    struct msghdr m = {.msg_iov = &io, .msg_iovlen = 1, .msg_control = control.bytes,
                       .msg_controllen = sizeof control.bytes};
    st->fds_passed = -1;
    if (!wait_readable(s, fd) || recvmsg(fd, &m, MSG_CMSG_CLOEXEC) != 1)
        return;
    st->fds_passed = 0;
    for (struct cmsghdr *h = CMSG_FIRSTHDR(&m); h; h = CMSG_NXTHDR(&m, h)) {
        if (h->cmsg_level != SOL_SOCKET || h->cmsg_type != SCM_RIGHTS)
            continue;
        for (size_t off = 0; off + sizeof(int) <= h->cmsg_len - CMSG_LEN(0); off += sizeof(int)) {
            int got;
            memcpy(&got, CMSG_DATA(h) + off, sizeof got);
            if (st->fds_passed++ == 0 && fstat(got, &st->passed) != 0)
                memset(&st->passed, 0, sizeof st->passed);
            close(got);
        }
    }
}

/* Reads the 20-byte header and then the announced payload, as the runtime does (for
 * FAKESRV_REPLY_AFTER_FD not a byte more: a plain read into the descriptor's byte would drop
 * the descriptor). */
static void read_request(fakesrv_t *s, step_state_t *st, int fd)
{
    size_t want = 20;
    int exact = st->how == FAKESRV_REPLY_AFTER_FD;
    while (st->request_len < want && st->request_len < REQUEST_MAX && wait_readable(s, fd)) {
        size_t room = exact ? want - st->request_len : REQUEST_MAX - st->request_len;
        ssize_t k = recv(fd, st->request + st->request_len, room, 0);
        if (k <= 0)
            break;
        st->request_len += (size_t)k;
        if (st->request_len >= 20)
            want = (size_t)(st->request[14] | (st->request[15] << 8));
    }
    if (exact)
        receive_fd(s, st, fd);
    pthread_mutex_lock(&s->lock);
    st->request_done = 1;
    pthread_cond_broadcast(&s->got);
    pthread_mutex_unlock(&s->lock);
}

/* Plays one step on an accepted connection. */
static void act(fakesrv_t *s, step_state_t *st, int fd)
{
    read_request(s, st, fd);
    if (st->create_file[0]) {
        FILE *f = fopen(st->create_file, "w");
        if (f) {
            fputs("not really a core file\n", f); /* 23 bytes the dump tests look for */
            fclose(f);
        }
    }
    if (st->how == FAKESRV_REPLY || st->how == FAKESRV_REPLY_STALL ||
        st->how == FAKESRV_REPLY_AFTER_FD)
        send(fd, st->reply, st->reply_len, MSG_NOSIGNAL);
    if (st->how == FAKESRV_REPLY_STALL || st->how == FAKESRV_SILENT) {
        char c;
        while (wait_readable(s, fd) && recv(fd, &c, 1, 0) > 0)
            ;
    }
    close(fd);
}

static void *serve(void *arg)
{
    fakesrv_t *s = arg;
    for (size_t i = 0; i < s->nsteps; i++) {
        if (!wait_readable(s, s->listen_fd))
            return NULL;
        int fd = accept4(s->listen_fd, NULL, NULL, SOCK_CLOEXEC);
        if (fd < 0)
            return NULL;
        pthread_mutex_lock(&s->lock);
        s->accepted++;
        pthread_mutex_unlock(&s->lock);
        act(s, &s->steps[i], fd);
    }
    return NULL;
}

/* Makes /tmp/clra-fakesrv-XXXXXX, padded with a subdirectory of dir_name_len 'd's. */
static int make_dir(fakesrv_t *s, size_t dir_name_len)
{
    snprintf(s->dir, sizeof s->dir, "/tmp/clra-fakesrv-XXXXXX");
    if (!mkdtemp(s->dir))
        return -1;
    s->own_dir = 1;
    if (dir_name_len > 0) {
        size_t n = strlen(s->dir);
        if (n + 2 + dir_name_len > sizeof s->dir)
            return -1;
        s->dir[n] = '/';
        memset(s->dir + n + 1, 'd', dir_name_len);
        s->dir[n + 1 + dir_name_len] = '\0';
        if (mkdir(s->dir, 0700) != 0)
            return -1;
    }
    return 0;
}

static int copy_steps(fakesrv_t *s, const fakesrv_step_t *steps, size_t n)
{
    if (n == 0 || n > FAKESRV_MAX_STEPS)
        return -1;
    for (size_t i = 0; i < n; i++) {
        if (steps[i].how == FAKESRV_NO_LISTENER && n != 1)
            return -1;
        s->steps[i].how = steps[i].how;
        s->steps[i].reply = malloc(steps[i].reply_len ? steps[i].reply_len : 1);
        if (!s->steps[i].reply)
            return -1;
        if (steps[i].reply_len)
            memcpy(s->steps[i].reply, steps[i].reply, steps[i].reply_len);
        s->steps[i].reply_len = steps[i].reply_len;
        snprintf(s->steps[i].create_file, sizeof s->steps[i].create_file, "%s",
                 steps[i].create_file ? steps[i].create_file : "");
    }
    s->nsteps = n;
    return 0;
}

/* Opens the listening socket (or leaves a stale file) and starts the serving thread. */
static int listen_and_serve(fakesrv_t *s, const char *name)
{
    int stale = s->steps[0].how == FAKESRV_NO_LISTENER;
    s->listen_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (s->listen_fd < 0 || bind_path(s->listen_fd, s->dir, name) != 0)
        return -1;
    /* Only now ours to unlink at stop: never remove a file someone else made. */
    snprintf(s->path, sizeof s->path, "%s/%s", s->dir, name);
    if (!stale && listen(s->listen_fd, 8) != 0)
        return -1;
    if (stale) {
        close(s->listen_fd); /* the file stays: a stale socket */
        s->listen_fd = -1;
    }
    if (pipe2(s->stop_pipe, O_CLOEXEC) != 0)
        return -1;
    if (!stale && pthread_create(&s->thread, NULL, serve, s) != 0)
        return -1;
    s->started = !stale;
    return 0;
}

static fakesrv_t *start(const fakesrv_step_t *steps, size_t n, const char *dir, const char *name,
                        size_t dir_name_len)
{
    fakesrv_t *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->listen_fd = -1;
    s->stop_pipe[0] = s->stop_pipe[1] = -1;
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->got, NULL);
    if (copy_steps(s, steps, n) != 0)
        goto fail;
    if (dir)
        snprintf(s->dir, sizeof s->dir, "%s", dir);
    else if (make_dir(s, dir_name_len) != 0)
        goto fail;
    if (listen_and_serve(s, name) == 0)
        return s;
fail:
    fakesrv_stop(s);
    return NULL;
}

fakesrv_t *fakesrv_start(fakesrv_behaviour_t how, const void *reply, size_t reply_len,
                         size_t dir_name_len)
{
    fakesrv_step_t step = {how, reply, reply_len, NULL};
    return start(&step, 1, NULL, "dotnet-diagnostic-1-1-socket", dir_name_len);
}

fakesrv_t *fakesrv_start_steps(const fakesrv_step_t *steps, size_t n, const char *dir,
                               const char *name)
{
    return start(steps, n, dir, name ? name : "dotnet-diagnostic-1-1-socket", 0);
}

const char *fakesrv_path(const fakesrv_t *s)
{
    return s->path;
}

size_t fakesrv_request_at(fakesrv_t *s, size_t i, uint8_t *buf, size_t cap)
{
    struct timespec until;
    if (i >= s->nsteps)
        return 0;
    step_state_t *st = &s->steps[i];
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 2;
    pthread_mutex_lock(&s->lock);
    while (!st->request_done && pthread_cond_timedwait(&s->got, &s->lock, &until) == 0)
        ;
    size_t n = st->request_len;
    memcpy(buf, st->request, n < cap ? n : cap);
    pthread_mutex_unlock(&s->lock);
    return n;
}

int fakesrv_passed_fd(fakesrv_t *s, size_t i, struct stat *sb)
{
    uint8_t ignored[1];
    if (fakesrv_request_at(s, i, ignored, 0) == 0)
        return -1;
    pthread_mutex_lock(&s->lock);
    int n = s->steps[i].fds_passed;
    *sb = s->steps[i].passed;
    pthread_mutex_unlock(&s->lock);
    return n;
}

size_t fakesrv_request(fakesrv_t *s, uint8_t *buf, size_t cap)
{
    return fakesrv_request_at(s, 0, buf, cap);
}

size_t fakesrv_connections(fakesrv_t *s)
{
    pthread_mutex_lock(&s->lock);
    size_t n = s->accepted;
    pthread_mutex_unlock(&s->lock);
    return n;
}

/* Removes the padding subdirectory of make_dir, then the directory itself. */
static void remove_own_dir(fakesrv_t *s)
{
    rmdir(s->dir);
    char *slash = strrchr(s->dir, '/');
    if (slash && strncmp(slash, "/ddd", 4) == 0) {
        *slash = '\0';
        rmdir(s->dir);
    }
}

void fakesrv_stop(fakesrv_t *s)
{
    if (!s)
        return;
    if (s->stop_pipe[1] >= 0 && write(s->stop_pipe[1], "x", 1) < 0)
        perror("fakesrv stop");
    if (s->started)
        pthread_join(s->thread, NULL);
    if (s->listen_fd >= 0)
        close(s->listen_fd);
    if (s->stop_pipe[0] >= 0) {
        close(s->stop_pipe[0]);
        close(s->stop_pipe[1]);
    }
    if (s->path[0])
        unlink(s->path);
    if (s->own_dir)
        remove_own_dir(s);
    for (size_t i = 0; i < s->nsteps; i++)
        free(s->steps[i].reply);
    pthread_mutex_destroy(&s->lock);
    pthread_cond_destroy(&s->got);
    free(s);
}
