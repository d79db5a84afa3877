/* profiler_control.h - what profiler_control.c (the control requests every platform sends)
 * shares with its platform sides: profiler_control_unix.c (sockets found in the runtime's
 * directory, /proc/PID/maps, hold) and profiler_control_win.c (pipes probed by slot, module
 * lists, hold on a pipe). */
#ifndef CLRA_PROFILER_CONTROL_H
#define CLRA_PROFILER_CONTROL_H

#include "clrattach.h"
#include "ipc/transport.h"

#include <stddef.h>

#define REPLY_MAX 512

/* Sends one command line to ref's endpoint and reads the one-line reply (REPLY_MAX bytes), all
 * under d; c stays open on success. 0 or a CLRA_E* code with st's detail. */
int clra__control_request(const clra_profiler_ref_t *ref, const char *command, char *reply,
                          const clra__deadline_t *d, clra__conn_t *c, clra_status_t *st);
/* The value after "key=" in a reply line into out; 1, or 0 when the line has no such key. */
int clra__control_reply_field(const char *reply, const char *key, char *out, size_t cap);
/* Hands the held connection c to the caller as *fd: the socket, or on Windows the pipe
 * HANDLE's value (handles fit 32 bits). */
void clra__control_keep(clra__conn_t *c, int *fd);

#endif
