/* control_pipe_win.h - the Win32 named-pipe calls of the SDK's control endpoint, behind plain C
 * types: the profiling headers define their own DWORD and HRESULT, so windows.h stays in
 * control_pipe_win.c and service_win.c never sees it. */
#ifndef CLRPROF_CONTROL_PIPE_WIN_H
#define CLRPROF_CONTROL_PIPE_WIN_H

#include <stddef.h>

/* A manual-reset event (the stop signal); NULL on failure. */
void *clrprof__event_new(void);
void clrprof__event_set(void *event);
void clrprof__handle_close(void *handle);
/* How many instances the control pipe has at most: the one that serves requests and the one a
 * holder (`clrattach attach --hold`) keeps connected. */
#define CLRPROF__PIPE_INSTANCES 2
/* \\.\pipe\clrprof-<pid>-<slot> for the first free slot of 0..slots-1, with a DACL admitting
 * only the process owner and SYSTEM and local clients only; its name into path. NULL if none. */
void *clrprof__pipe_create(int slots, char *path, size_t cap);
/* Another instance of the pipe at path (after the first was handed to a holder); NULL if the
 * system refuses. */
void *clrprof__pipe_another(const char *path);
/* Waits for a client or the stop event: 1 connected, 0 stopped (or failed). */
int clrprof__pipe_accept(void *pipe, void *stop);
/* Reads one line (without its newline) within timeout_ms; 0 or -1. */
int clrprof__pipe_read_line(void *pipe, void *stop, char *out, size_t cap, unsigned timeout_ms);
/* Writes text within timeout_ms and drops the client. */
void clrprof__pipe_reply(void *pipe, void *stop, const char *text, unsigned timeout_ms);
/* A profiler's own command (clrprof_def_t.control) answers on the pipe its thread is serving:
 * set before the call, cleared (NULL) after; clrprof_control_send writes to it whatever fd it
 * is given (control_send_win.c). */
void clrprof__pipe_current(void *pipe, void *stop);
/* After such an answer: flushes the pipe and drops its client. */
void clrprof__pipe_drop(void *pipe, void *stop);
/* The descriptor a profiler's control callback gets on Windows: a token, not a CRT fd. */
#define CLRPROF__PIPE_FD 0x70697065

/* Waits, at most timeout_ms or until stop, for the client to read what was written; past that
 * the client is dropped. 1 when it read everything. */
int clrprof__pipe_flush(void *pipe, void *stop, unsigned timeout_ms);
/* One overlapped write of up to len bytes, ended by stop or past timeout_ms: the bytes written,
 * 0 when it failed, timed out or was stopped. */
unsigned long clrprof__pipe_write(void *pipe, void *stop, const void *data, unsigned long len,
                                  unsigned timeout_ms);
/* Writes text within timeout_ms and keeps the client (a holder). */
void clrprof__pipe_send(void *pipe, void *stop, const char *text, unsigned timeout_ms);
/* Waits until the client hangs up (1) or the stop event is set (0); what it sends is dropped. */
int clrprof__pipe_wait_hangup(void *pipe, void *stop);
/* This process's id, and the base address of the DLL holding this code. */
unsigned long clrprof__self_pid(void);
unsigned long long clrprof__self_base(void);
unsigned long clrprof__last_error(void);

#endif
