/* consumer.h - running the programs that read clrattach's profiles (headless Chromium,
 * `go tool pprof`): found on PATH or the test fails, run with a deadline, output to a file. */
#ifndef CLRA_CONSUMER_H
#define CLRA_CONSUMER_H

/* The program's path on PATH; fails the test when it is missing (scripts/setup.sh installs
 * every consumer, so a missing one is a broken machine, not a reason to skip). */
const char *consumer_find(const char *name);
/* Runs argv (NULL-terminated) in its own process group with stdout to out_path and stderr to
 * err_path; the whole group is killed after timeout_ms. The exit code, or -1 on timeout. */
int consumer_run(const char *const *argv, const char *out_path, const char *err_path,
                 int timeout_ms);
/* Headless Chromium on url with its profile in dir: --dump-dom into out_path (png NULL) or a
 * screenshot into png. The exit code, or -1 on timeout. */
int chromium_run(const char *dir, const char *url, const char *out_path, const char *png);
/* Writes prefix, the file src in base64, then suffix into dst; 0 or -1. */
int write_base64_between(const char *dst, const char *prefix, const char *src,
                         const char *suffix);

#endif
