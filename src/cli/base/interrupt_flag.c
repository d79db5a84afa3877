/* interrupt_flag.c - the one "Ctrl-C came" flag of the verbs that stop at their next wake (heap,
 * counters, profile, trace --user-events), set through the platform's cli_on_interrupt. */
#include "base/interrupt.h"

#include <signal.h>

static volatile sig_atomic_t interrupted;

/* Only sets the flag: all a signal handler (or the console's handler thread) may do here. */
static void on_interrupt(void)
{
    interrupted = 1;
}

void cli_catch_interrupt(void)
{
    cli_on_interrupt(on_interrupt);
}

int cli_interrupted(void)
{
    return interrupted != 0;
}
