/* control_send_win.c - clrprof_control_send on Windows: a profiler's own command answers on the
 * control pipe that its thread is serving (service_win.c sets it around the callback), in
 * overlapped writes that the stop event or a stalled reader end (clrprof__pipe_write). */
#include "control_pipe_win.h"

#include <windows.h>

#define SEND_TIMEOUT_MS 5000 /* one write's bound: a reader that stops reading for this long */

static __thread HANDLE current_pipe, current_stop;

void clrprof__pipe_current(void *pipe, void *stop)
{
    current_pipe = pipe, current_stop = stop;
}

/* The answer is whole: flushed to the client, which is dropped. */
void clrprof__pipe_drop(void *pipe, void *stop)
{
    clrprof__pipe_flush(pipe, stop, SEND_TIMEOUT_MS);
    DisconnectNamedPipe(pipe);
}

/* fd is CLRPROF__PIPE_FD: the pipe is the calling thread's current one. */
int clrprof_control_send(int fd, const void *data, size_t len)
{
    if (fd != CLRPROF__PIPE_FD || !current_pipe)
        return -1;
    for (size_t done = 0; done < len;) {
        size_t chunk = len - done > 65536 ? 65536 : len - done;
        unsigned long n = clrprof__pipe_write(current_pipe, current_stop, (const char *)data + done,
                                              (unsigned long)chunk, SEND_TIMEOUT_MS);
        if (n == 0)
            return -1;
        done += n;
    }
    return 0;
}
