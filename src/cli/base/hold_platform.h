/* hold_platform.h - the waits of `clrattach attach --hold` (base/hold.c) per platform: signals
 * and poll(2) on the held socket (hold_unix.c), the console's control handler and the held
 * pipe (hold_win.c). docs/platforms.md has the rule. */
#ifndef CLRA_CLI_HOLD_PLATFORM_H
#define CLRA_CLI_HOLD_PLATFORM_H

/* From here on Ctrl-C (and on Unix SIGTERM and SIGHUP) ends the wait instead of the command;
 * 0, or -1 after saying on stderr that the profiler detaches as the command exits now. */
int hold_wait_prepare(void);
/* Waits until the command is asked to end (0) or the profiler hangs up the held connection fd
 * (clra_profiler_hold's; 1). */
int hold_wait(int fd);
/* Closes the held connection: the hang-up on which the profiler detaches. */
void hold_release(int fd);

#endif
