/* proc_status.h - what /proc says about a process under test: status fields, open
 * descriptors, lines of its maps/timers, for the tests that check an attach left nothing. */
#ifndef CLRA_PROC_STATUS_H
#define CLRA_PROC_STATUS_H

/* The number after "key:" in /proc/PID/status (key without the colon; base 16 for the
 * SigCgt-style masks, 10 otherwise), 0 when the field or the process is absent. */
unsigned long long proc_status_field(int pid, const char *key, int base);
/* The process's open file descriptors (/proc/PID/fd), -1 when unreadable. */
long proc_fd_count(int pid);
/* Lines of /proc/PID/<file> starting with prefix ("" counts every line), -1 when unreadable. */
long proc_lines(int pid, const char *file, const char *prefix);
/* The state letter of /proc/PID/stat ('T' stopped, 'R' running...), '?' when unreadable. */
char proc_state(int pid);
/* The CPU time (user + system, ms) of pid's threads named comm, or of its main thread when
 * comm is NULL; -1 when none could be read. */
long long proc_thread_cpu_ms(int pid, const char *comm);

#endif
