/* interrupt_unix.c - cli_on_interrupt with POSIX signals. */
#define _GNU_SOURCE
#include "base/interrupt.h"

#include <signal.h>
#include <stddef.h>

static void (*handler)(void);

/* The signal number does not matter to the verbs: each is "stop now". */
static void on_signal(int sig)
{
    (void)sig;
    handler();
}

void cli_on_interrupt(void (*fn)(void))
{
    struct sigaction sa = {.sa_handler = on_signal};
    handler = fn;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
}
