/* hostile.c - hostile.h: planting files as another user, and checks of target-chosen text. */
#define _GNU_SOURCE
#include "hostile.h"
#include "test.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

void need_root(void)
{
    if (geteuid() != 0)
        SKIP("needs root to run the target and plant files as another user");
}

void as_nobody(int (*fn)(const char *a, const char *b), const char *a, const char *b)
{
    pid_t p = fork();
    ASSERT(p >= 0);
    if (p == 0) {
        if (setgid(NOBODY) != 0 || setuid(NOBODY) != 0)
            _exit(90);
        _exit(fn(a, b) == 0 ? 0 : 91);
    }
    int status;
    ASSERT(waitpid(p, &status, 0) == p);
    ASSERT_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the planting child failed (%d)",
               status);
}

int plant_link(const char *target, const char *link_path)
{
    return symlink(target, link_path);
}

int plant_file(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0666);
    if (fd < 0)
        return -1;
    int ok = write(fd, text, strlen(text)) == (ssize_t)strlen(text);
    close(fd);
    return ok ? 0 : -1;
}

void make_secret(char out[64], const char *text)
{
    snprintf(out, 64, "/tmp/clra-e2e-secret-XXXXXX");
    int fd = mkstemp(out);
    ASSERT(fd >= 0);
    ASSERT(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
    ASSERT(fchmod(fd, 0600) == 0);
    close(fd);
}

void make_nobodys_dir(char out[64])
{
    snprintf(out, 64, "/tmp/clra-e2e-nobody-XXXXXX");
    ASSERT(mkdtemp(out) != NULL);
    ASSERT(chown(out, NOBODY, NOBODY) == 0 && chmod(out, 0755) == 0);
}

const char *file_text(const char *path)
{
    static char buf[256];
    int fd = open(path, O_RDONLY | O_NOFOLLOW);
    ssize_t n = fd >= 0 ? read(fd, buf, sizeof buf - 1) : -1;
    buf[n > 0 ? n : 0] = '\0';
    if (fd >= 0)
        close(fd);
    return buf;
}

void assert_no_raw_controls(const char *text, const char *forged)
{
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        ASSERT_MSG(*p >= 0x20 || *p == '\n' || *p == '\t', "raw control 0x%02X in: %s", *p, text);
    ASSERT_MSG(strncmp(text, forged, strlen(forged)) != 0, "forged first line: %s", text);
    char line[64];
    snprintf(line, sizeof line, "\n%s", forged);
    ASSERT_MSG(!strstr(text, line), "a forged line in: %s", text);
}
