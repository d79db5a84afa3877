/* Unit tests of the reverse server and the StartupProfiler request: advertise parsing, the
 * latest connection kept per cookie, garbage dropped, deadlines kept. */
#define _GNU_SOURCE
#include "proto/message.h"
#include "proto/profiler_codec.h"
#include "ipc/request.h"
#include "proto/advertise.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

/* ADVR_V1, the cookie {846F5F1C-F9AE-4B07-969E-05C26BC060D8}, pid 4660, reserved 0. */
static const uint8_t advertise[34] = {
    0x41, 0x44, 0x56, 0x52, 0x5F, 0x56, 0x31, 0x00,
    0x1C, 0x5F, 0x6F, 0x84, 0xAE, 0xF9, 0x07, 0x4B, 0x96, 0x9E, 0x05, 0xC2, 0x6B, 0xC0, 0x60, 0xD8,
    0x34, 0x12, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00};

TEST(reverse_advertise_parses_cookie_and_pid)
{
    clra_advertise_t ad;
    char text[37];
    ASSERT_EQ(clra__parse_advertise(advertise, &ad), 0);
    clra_guid_format(&ad.cookie, text);
    ASSERT_STREQ(text, "846F5F1C-F9AE-4B07-969E-05C26BC060D8");
    ASSERT_EQ(ad.pid, 0x1234u);
    uint8_t bad[34];
    memcpy(bad, advertise, sizeof bad);
    bad[6] = '2';
    ASSERT_EQ(clra__parse_advertise(bad, &ad), CLRA_EPROTO);
}

TEST(reverse_startup_profiler_request_matches_hand_written_bytes)
{
    static const uint8_t expected[] = {
        0x44, 0x4F, 0x54, 0x4E, 0x45, 0x54, 0x5F, 0x49, 0x50, 0x43, 0x5F, 0x56, 0x31, 0x00,
        0x34, 0x00, 0x03, 0x02, 0x00, 0x00,
        0x1C, 0x5F, 0x6F, 0x84, 0xAE, 0xF9, 0x07, 0x4B, 0x96, 0x9E, 0x05, 0xC2, 0x6B, 0xC0, 0x60, 0xD8,
        0x06, 0x00, 0x00, 0x00, 0x2F, 0x00, 0x70, 0x00, 0x2E, 0x00, 0x73, 0x00, 0x6F, 0x00, 0x00, 0x00};
    uint8_t buf[128];
    clra__writer_t w;
    clra_guid_t clsid;
    ASSERT_EQ(clra_guid_parse("846F5F1C-F9AE-4B07-969E-05C26BC060D8", &clsid), 0);
    clra__writer_init(&w, buf, sizeof buf);
    ASSERT_EQ(clra__build_startup_profiler(&w, &clsid, "/p.so"), 0);
    ASSERT_EQ(w.len, sizeof expected);
    ASSERT_MEMEQ(buf, expected, sizeof expected);
}

/* Connects to path as a runtime would and sends n bytes of what; returns the socket. */
static int connect_and_send(const char *path, const void *what, size_t n)
{
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    snprintf(sa.sun_path, sizeof sa.sun_path, "%s", path);
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    ASSERT(fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof sa) == 0);
    ASSERT(write(fd, what, n) == (ssize_t)n);
    return fd;
}

static clra_reverse_server_t *listen_fresh(char *dir, char *path, size_t cap)
{
    clra_reverse_server_t *s;
    clra_status_t st;
    strcpy(dir, "/tmp/clra-rev-XXXXXX");
    ASSERT(mkdtemp(dir) != NULL);
    snprintf(path, cap, "%s/port", dir);
    ASSERT_EQ(clra_reverse_server_listen(path, &s, &st), 0);
    return s;
}

TEST(reverse_server_keeps_the_latest_connection_and_hands_it_out_once)
{
    char dir[64], path[96];
    clra_status_t st;
    clra_advertise_t ad;
    clra_connection_t *conn, *none;
    clra_reverse_server_t *s = listen_fresh(dir, path, sizeof path);
    int garbage = connect_and_send(path, "GARBAGE-GARBAGE-GARBAGE-GARBAGE-XX", 34);
    int first = connect_and_send(path, advertise, sizeof advertise);
    ASSERT_EQ(clra_reverse_server_wait(s, NULL, 5000, &ad, &st), 0);
    ASSERT_EQ(ad.pid, 0x1234u);
    int second = connect_and_send(path, advertise, sizeof advertise);
    ASSERT_EQ(clra_reverse_server_wait(s, &ad.cookie, 100, &ad, &st), 0);
    /* Let the server accept the second advertise, which replaces the first. */
    ASSERT_EQ(clra_reverse_server_wait(s, &ad.cookie, 300, &ad, &st), 0);
    ASSERT_EQ(clra_reverse_server_accept(s, &ad.cookie, &conn), 0);
    ASSERT_EQ(conn->ns_pid, 0x1234);
    ASSERT(clra_connection_fd(conn) > 0);
    ASSERT_EQ(clra_reverse_server_accept(s, &ad.cookie, &none), CLRA_ENOENDPOINT);
    ASSERT(none == NULL);
    clra_connection_close(conn);
    close(garbage);
    close(first);
    close(second);
    clra_reverse_server_close(s);
    ASSERT(access(path, F_OK) != 0);
    rmdir(dir);
}

TEST(reverse_server_wait_honours_its_deadline_and_drops_hung_up_peers)
{
    char dir[64], path[96];
    clra_status_t st;
    clra_advertise_t ad;
    struct timespec t0, t1;
    clra_reverse_server_t *s = listen_fresh(dir, path, sizeof path);
    int peer = connect_and_send(path, advertise, sizeof advertise);
    ASSERT_EQ(clra_reverse_server_wait(s, NULL, 5000, &ad, &st), 0);
    close(peer); /* the runtime went away: its connection must not be handed out */
    clock_gettime(CLOCK_MONOTONIC, &t0);
    ASSERT_EQ(clra_reverse_server_wait(s, NULL, 300, &ad, &st), CLRA_ETIMEDOUT);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double ms = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
    ASSERT_MSG(ms >= 290 && ms < 3000, "waited %.0f ms for a 300 ms deadline", ms);
    ASSERT_CONTAINS(st.detail, "within 300 ms");
    clra_reverse_server_close(s);
    rmdir(dir);
}

TEST(reverse_server_refuses_to_replace_an_existing_file)
{
    char dir[64], path[96];
    clra_status_t st;
    clra_reverse_server_t *s = listen_fresh(dir, path, sizeof path), *again;
    ASSERT_EQ(clra_reverse_server_listen(path, &again, &st), CLRA_EIO);
    ASSERT_CONTAINS(st.detail, "the file exists");
    clra_reverse_server_close(s);
    rmdir(dir);
}
