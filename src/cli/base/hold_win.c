/* hold_win.c - base/hold_platform.h on Windows: Ctrl-C, Ctrl-Break and the console closing set
 * an event (base/interrupt_win.c's handler), and the held pipe is peeked for the profiler's
 * hang-up, since a pipe cannot be waited on for that. */
#include "base/hold_platform.h"
#include "base/interrupt.h"

#include <stdint.h>
#include <stdio.h>
#include <windows.h>

#define PEEK_MS 50

static HANDLE asked; /* set when the command is asked to end */

static void on_interrupt(void)
{
    SetEvent(asked);
}

int hold_wait_prepare(void)
{
    asked = CreateEventW(NULL, TRUE, FALSE, NULL);
    if (!asked) {
        fprintf(stderr, "clrattach: attached, but cannot wait for Ctrl-C (CreateEvent: Windows "
                "error %lu); the profiler detaches as this command exits now\n",
                (unsigned long)GetLastError());
        return -1;
    }
    cli_on_interrupt(on_interrupt);
    return 0;
}

/* PeekNamedPipe fails once the profiler's end is closed (ERROR_BROKEN_PIPE); bytes it might
 * send are left unread, as on Unix. */
int hold_wait(int fd)
{
    HANDLE pipe = (HANDLE)(intptr_t)fd;
    while (WaitForSingleObject(asked, PEEK_MS) == WAIT_TIMEOUT)
        if (!PeekNamedPipe(pipe, NULL, 0, NULL, NULL, NULL))
            return 1;
    return 0;
}

void hold_release(int fd)
{
    CloseHandle((HANDLE)(intptr_t)fd);
}
