/* hot_app.c - starting tests/apps/hot for the profiler tests and reading their outputs. */
#define _GNU_SOURCE
#include "hot_app.h"
#include "runtime.h"
#include "test.h"

#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Forks dotnet on hot.dll with pipes for stdin and stdout and reads the first line. */
void hot_start(app_t *a, const char *extra_arg)
{
    int in[2], out[2];
    char line[128];
    memset(a, 0, sizeof *a);
    snprintf(a->dir, sizeof a->dir, "%s/clra-prof-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    ASSERT(mkdtemp(a->dir) != NULL);
    ASSERT(pipe2(in, O_CLOEXEC) == 0 && pipe2(out, O_CLOEXEC) == 0);
    const char *argv[12];
    int n = 0;
    char args[128];
    snprintf(args, sizeof args, "%s", e2e_runtime_args());
    argv[n++] = e2e_dotnet();
    for (char *w = strtok(args, " "); w && n < 6; w = strtok(NULL, " "))
        argv[n++] = w;
    argv[n++] = CLRA_HOT_DLL;
    char extra[128], *save = NULL; /* "--events alloc": words split at spaces */
    snprintf(extra, sizeof extra, "%s", extra_arg ? extra_arg : "");
    for (char *w = strtok_r(extra, " ", &save); w && n < 10; w = strtok_r(NULL, " ", &save))
        argv[n++] = w;
    argv[n] = NULL;
    a->pid = fork();
    if (a->pid == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
#ifdef CLRA_ASAN_PRELOAD
        /* A sanitized sampler needs the ASan runtime loaded first (as harness.c does). */
        setenv("LD_PRELOAD", CLRA_ASAN_PRELOAD, 1);
        setenv("ASAN_OPTIONS", "detect_leaks=0", 1);
#endif
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    a->to_app = in[1];
    a->from_app = out[0];
    struct pollfd p = {a->from_app, POLLIN, 0};
    size_t used = 0;
    while (used + 1 < sizeof line && poll(&p, 1, 30000) == 1 && read(a->from_app, line + used, 1) == 1 &&
           line[used] != '\n')
        used++;
    line[used] = '\0';
    ASSERT_CONTAINS(line, "ready pid=");
    a->ready_pid = atoi(strchr(line, '=') + 1);
}

/* Reads up to 4 MiB, enough for any profile of the hot app. */
const char *slurp(const char *path)
{
    static char buf[4 << 20];
    buf[0] = '\0';
    FILE *f = fopen(path, "r");
    if (f) {
        size_t n = fread(buf, 1, sizeof buf - 1, f);
        buf[n] = '\0';
        fclose(f);
    }
    return buf;
}

/* Two buffers in turn, so a test can hold an input and an output path. */
const char *out_path(const app_t *a, const char *name)
{
    static char path[2][400];
    static int turn;
    turn ^= 1;
    snprintf(path[turn], sizeof path[turn], "%s/%s", a->dir, name);
    return path[turn];
}

/* Tests read shares off the table an operator reads: its row's second column. */
double top_total(const char *table, const char *method)
{
    for (const char *line = table; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        double self, total;
        char name[512];
        if (sscanf(line, "%lf%% %lf%% %*u %511s", &self, &total, name) == 3 && strcmp(name, method) == 0)
            return total;
    }
    return -1;
}
