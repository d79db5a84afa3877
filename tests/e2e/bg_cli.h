/* bg_cli.h - a clrattach command running in the background while a test drives the target:
 * its stdout and stderr gathered from one pipe, waited for by text, finished with a deadline. */
#ifndef CLRA_E2E_BG_CLI_H
#define CLRA_E2E_BG_CLI_H

#include <stddef.h>
#include <sys/types.h>

typedef struct bg {
    pid_t pid;
    int fd;
    char out[64 * 1024];
    size_t len;
} bg_t;

double now_ms(void);
/* Starts clrattach with the arguments (NULL-terminated). */
void bg_start(bg_t *b, const char *arg0, ...) __attribute__((sentinel));
/* Reads what the command printed within wait_ms; returns 0 at EOF. */
int bg_read(bg_t *b, int wait_ms);
/* Waits until the command has printed text; fails the test after timeout_ms. */
void bg_wait_for(bg_t *b, const char *text, int timeout_ms);
/* Collects the rest of the output and the exit code (128+signal when killed). */
int bg_finish(bg_t *b, int timeout_ms);

#endif
