/* output_path.h - inside output_file_unix.c: walking an output path one directory at a time
 * (output_path_unix.c), following only links that root or we own. */
#ifndef CLRA_CLI_OUTPUT_PATH_H
#define CLRA_CLI_OUTPUT_PATH_H

#include "base/cli.h"

#define OUT_NAME_CAP 256

typedef struct out_path {
    int dir;                       /* the directory reached so far */
    char rest[2 * CLRA_PATH_MAX];  /* what is left to walk */
    int links;                     /* links followed so far */
    const char *path, *flag, *who; /* for messages */
} out_path_t;

/* Starts at "/" or the working directory. 0, or -1 after saying why. */
int out_path_begin(out_path_t *w, const char *path, const char *flag, const char *who);
/* Walks every directory of rest; the last component (the file's name) goes to name and w->dir
 * holds it. 0, or -1 after saying why. */
int out_path_last(out_path_t *w, char name[OUT_NAME_CAP]);
/* The last component comp turned out to be a link: as for a directory, it is refused unless
 * root or we own it, and its text becomes rest (walk again with out_path_last), or *kernel says
 * it lives in /proc and only the kernel can follow it. 0, or -1 after saying why. */
int out_path_follow(out_path_t *w, const char *comp, int *kernel);
void out_path_end(out_path_t *w);
/* "WHO: refusing to write PATH: <why>" and what to do; -1 with errno EPERM. */
int out_path_refuse(const out_path_t *w, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* "WHO: cannot write PATH: <strerror(err)>" and what to do; -1 with errno err. */
int out_path_fail(const out_path_t *w, int err);

#endif
