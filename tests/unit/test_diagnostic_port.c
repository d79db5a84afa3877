/* Unit tests of --diagnostic-port (src/cli/base/diagnostic_port.c): the spec's words, and that
 * no runtime at the port is a clear error within the deadline, never a hang. */
#define _GNU_SOURCE
#include "base/cli.h"
#include "base/diagnostic_port.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int parse(diagnostic_port_t *d, const char *spec)
{
    memset(d, 0, sizeof *d);
    d->spec = spec;
    FILE *saved = stderr;
    stderr = fopen("/dev/null", "w"); /* the refusals' words are checked e2e */
    int rc = diagnostic_port_parse(d, "trace");
    fclose(stderr);
    stderr = saved;
    return rc;
}

TEST(diagnostic_port_spec_is_a_path_with_dotnet_tools_modes)
{
    diagnostic_port_t d;
    ASSERT_EQ(parse(&d, "/tmp/p.sock"), 0);
    ASSERT_STREQ(d.path, "/tmp/p.sock");
    ASSERT_EQ(d.listen, 1); /* dotnet-trace's default: we are the server */
    ASSERT_EQ(parse(&d, "/tmp/p.sock,connect"), 0);
    ASSERT_EQ(d.listen, 0);
    ASSERT_STREQ(d.path, "/tmp/p.sock");
    ASSERT_EQ(parse(&d, "/tmp/p.sock,listen,nosuspend"), 0);
    ASSERT_EQ(d.listen, 1);
    ASSERT_EQ(parse(&d, "/tmp/p.sock,connect,suspend"), 0);
    ASSERT_EQ(d.listen, 0);
    ASSERT_EQ(parse(&d, ""), -1);
    ASSERT_EQ(parse(&d, ",connect"), -1);
    ASSERT_EQ(parse(&d, "/tmp/p.sock,"), -1);
    ASSERT_EQ(parse(&d, "/tmp/p.sock,connected"), -1);
    ASSERT_EQ(parse(&d, "/tmp/p.sock,conn"), -1);
    char *long_path = malloc(CLRA_PATH_MAX + 10);
    memset(long_path, 'a', CLRA_PATH_MAX + 9);
    long_path[CLRA_PATH_MAX + 9] = '\0';
    ASSERT_EQ(parse(&d, long_path), -1);
    free(long_path);
}

/* Listening where no runtime comes: the deadline ends the wait, and closing removes the
 * socket file; connecting where nothing listens fails at once. */
TEST(diagnostic_port_without_a_runtime_fails_within_its_deadline)
{
    char dir[] = "/tmp/clra-dport-unit-XXXXXX", path[128];
    ASSERT(mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/port.sock", dir);
    diagnostic_port_t d;
    ASSERT_EQ(parse(&d, path), 0);
    clra_status_t st;
    FILE *saved = stderr;
    stderr = fopen("/dev/null", "w");
    int rc = diagnostic_port_open(&d, 300, &st);
    fclose(stderr);
    stderr = saved;
    ASSERT_EQ(rc, CLRA_ETIMEDOUT);
    ASSERT_EQ(access(path, F_OK), 0);
    diagnostic_port_close(&d);
    ASSERT_MSG(access(path, F_OK) != 0, "%s left behind", path);
    char spec[160];
    snprintf(spec, sizeof spec, "%s,connect", path);
    ASSERT_EQ(parse(&d, spec), 0);
    rc = diagnostic_port_open(&d, 300, &st);
    ASSERT_MSG(rc != 0 && st.detail[0], "connecting to nothing: %d", rc);
    diagnostic_port_close(&d);
    ASSERT_EQ(rmdir(dir), 0);
}

/* A verb's next command goes to the PID when no port was given, to the port's socket when one
 * was given in connect mode (the same path each time: the runtime listens there). */
TEST(diagnostic_port_next_target_is_the_pid_without_a_port_and_the_socket_with_one)
{
    diagnostic_port_t d = {0};
    clra_target_t t;
    clra_status_t st;
    ASSERT_EQ(diagnostic_port_next_target(&d, 4242, 300, &t, &st), 0);
    ASSERT_EQ(t.pid, 4242);
    ASSERT(t.socket_path == NULL && t.connection == NULL);
    ASSERT_EQ(parse(&d, "/tmp/clra-no-such.sock,connect"), 0);
    ASSERT_EQ(diagnostic_port_next_target(&d, 4242, 300, &t, &st), 0);
    ASSERT_EQ(t.pid, 0);
    ASSERT_STREQ(t.socket_path, "/tmp/clra-no-such.sock");
    ASSERT(t.connection == NULL);
}
