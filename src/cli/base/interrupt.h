/* interrupt.h - Ctrl-C and termination requests for the verbs that stop cleanly on them:
 * signals on Unix (interrupt_unix.c), the console's control handler on Windows
 * (interrupt_win.c); the flag most verbs poll is shared (interrupt_flag.c). */
#ifndef CLRA_CLI_INTERRUPT_H
#define CLRA_CLI_INTERRUPT_H

/* Calls fn on SIGINT and SIGTERM (Unix; SIGPIPE is ignored too, so a closed output pipe is a
 * write error), or on the console's Ctrl-C, Ctrl-Break and close events (Windows, from the
 * handler thread the console starts). fn may only set flags, write(2) and _exit. */
void cli_on_interrupt(void (*fn)(void));

/* Catches those requests into one flag (cli_on_interrupt), for a verb that notices them at its
 * next wake; cli_interrupted is nonzero once one came. */
void cli_catch_interrupt(void);
int cli_interrupted(void);

#endif
