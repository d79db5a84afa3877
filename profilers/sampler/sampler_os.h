/* sampler_os.h - what the sampler asks the OS: about a thread of its own process, by the OS
 * thread id the runtime reports (GetThreadInfo), its CPU time and its name; and the file of
 * launch --profile's final samples. Linux:
 * sampler_os_linux.c (per-thread CPU clocks, /proc/self/task); Windows: sampler_os_win.c
 * (GetThreadTimes, GetThreadDescription). Plain C types: the Windows side includes windows.h,
 * which the profiling headers must not meet. */
#ifndef SAMPLER_OS_H
#define SAMPLER_OS_H

#include <stddef.h>
#include <stdint.h>

/* The thread's CPU time so far in ns; 0, or -1 when the thread is gone. */
int thread_cpu_ns(uint32_t tid, uint64_t *out);
/* The thread's name, or "thread TID" when it has none. */
void thread_name(uint32_t tid, char *out, size_t cap);
/* Opens PATH for the final samples (created or truncated, owner only, links not followed where
 * the OS has them): a descriptor for final_write, or -1 with errno. */
int final_open(const char *path);
/* store_drain's writer for that descriptor; 0 or -1. */
int final_write(int fd, const void *data, size_t len);
void final_close(int fd);

#endif
