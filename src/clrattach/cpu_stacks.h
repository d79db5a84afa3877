/* cpu_stacks.h - interning for cpu_samples.c (internal): each distinct stack is kept once and
 * each address named once, so memory follows the distinct stacks and frames of a trace, not
 * samples x depth (50,000 samples of one 2,000-frame stack were 5.4 GB before). */
#ifndef CLRA_CPU_STACKS_H
#define CLRA_CPU_STACKS_H

#include "clrattach.h"

#include <stddef.h>
#include <stdint.h>

/* clra_cpu_samples_read_file over bytes in memory (tests and fuzzers): the same contract. */
int clra__cpu_samples_read_buffer(const void *data, size_t len, clra_cpu_samples_t *out,
                                  clra_nettrace_info_t *info, clra_status_t *st);

typedef struct cpu_stack {
    size_t first, count; /* addresses at ips[first..first+count), leaf first */
} cpu_stack_t;

typedef struct cpu_stacks {
    uint64_t *ips;
    size_t nips, cap_ips;
    cpu_stack_t *stacks;
    size_t n, cap;
    uint32_t *index; /* open addressing by content: stack + 1, 0 empty */
    size_t index_cap;
} cpu_stacks_t;

/* The index of the stack of n addresses (leaf first), added when new; -1 out of memory. */
long cpu_stacks_add(cpu_stacks_t *s, const uint64_t *ips, size_t n);
void cpu_stacks_free(cpu_stacks_t *s);

typedef struct cpu_hex_names {
    uint64_t *ips;
    char **names; /* "0x7f..." for the address at the same slot, NULL empty */
    size_t n, cap;
} cpu_hex_names_t;

/* The "0x..." name of an address no method covers, made once per address; NULL out of memory. */
const char *cpu_hex_name(cpu_hex_names_t *h, uint64_t ip);
void cpu_hex_names_free(cpu_hex_names_t *h);

#endif
