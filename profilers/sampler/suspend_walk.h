/* suspend_walk.h - one sample of one thread on Windows x64 (suspend_walk_win.c): the thread is
 * suspended only while its context and the top of its stack are copied into a buffer given
 * beforehand (no lock, no allocation: the suspended thread may hold the heap or loader lock),
 * then resumed; the copy is walked afterwards with the unwind tables (RtlLookupFunctionEntry,
 * RtlVirtualUnwind: the PE tables of native code, the ones the runtime registers for JIT code).
 * Plain C types: the caller includes the profiling headers, which must not meet windows.h. */
#ifndef SUSPEND_WALK_H
#define SUSPEND_WALK_H

#include <stddef.h>
#include <stdint.h>

#define SW_STACK_COPY (128u * 1024u) /* stack bytes copied per sample from the stack pointer */
/* Zeroed bytes after the copy: an unwind reads a frame before the walk can see that the frame
 * ends past the copy, and a frame is at most its thread's stack (1.5 MiB by default for .NET
 * threads, 8 MiB for the largest this bounds). Committed but never written, so untouched pages
 * cost no memory. */
#define SW_COPY_SLACK (8u * 1024u * 1024u)
#define SW_COPY_BYTES (SW_STACK_COPY + SW_COPY_SLACK)

typedef struct sw_thread {
    void *handle;        /* suspend, resume, context and query rights */
    uintptr_t stack_hi;  /* the stack's base (its highest address), from the thread's TEB */
    uint32_t tid;
} sw_thread_t;

/* Opens thread tid of this process and reads where its stack ends; 0, or -1 (gone, or no
 * rights). */
int sw_open(uint32_t tid, sw_thread_t *t);
void sw_close(sw_thread_t *t);
/* t's CPU time so far in ns, read through its open handle; 0, or -1 when the thread ended. */
int sw_cpu_ns(const sw_thread_t *t, uint64_t *out);
/* Takes one stack of t into ips (leaf first, at most max; *cut when deeper), using copy
 * (SW_COPY_BYTES, zeroed) for the stack: the number of frames, 0 when it could not be walked,
 * -1 when the thread could not be suspended (it ended). *suspend_ns: how long it stood. */
int sw_sample(sw_thread_t *t, unsigned char *copy, uint64_t *ips, unsigned max, int *cut,
              uint64_t *suspend_ns);
/* The calling thread's id (the sampling thread is never sampled). */
uint32_t sw_self_tid(void);
/* Names a native code address: "module!export" when it starts the function holding ip (from
 * the unwind table) or is the nearest export below it with no unwind entry, else
 * "module+0xRVA" of that function's start (or of ip). 0, or -1 when no module holds ip. */
int sw_native_name(uintptr_t ip, char *out, size_t cap);

#endif
