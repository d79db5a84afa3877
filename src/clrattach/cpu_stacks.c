/* cpu_stacks.c - the distinct stacks and unnamed addresses of a trace's CPU samples, each kept
 * once (hash tables with linear probing, doubled at half full). */
#include "cpu_stacks.h"
#include "util/grow.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One 64-bit word into a hash: addresses differ in few low bits, so spread them over all. */
static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2);
    return h * 0xFF51AFD7ED558CCDULL;
}

/* A stack's hash by content: word by word, not byte by byte (stacks are long and many). */
static uint64_t stack_hash(const uint64_t *ips, size_t n)
{
    uint64_t h = mix(0, n);
    for (size_t i = 0; i < n; i++)
        h = mix(h, ips[i]);
    return h ^ h >> 29;
}

/* Rebuilds the content index at twice the size; -1 out of memory. */
static int rehash(cpu_stacks_t *s)
{
    size_t cap = s->index_cap ? 2 * s->index_cap : 1024;
    uint32_t *t = calloc(cap, sizeof *t);
    if (!t)
        return -1;
    for (size_t i = 0; i < s->n; i++) {
        size_t j = stack_hash(s->ips + s->stacks[i].first, s->stacks[i].count) & (cap - 1);
        while (t[j])
            j = (j + 1) & (cap - 1);
        t[j] = (uint32_t)i + 1;
    }
    free(s->index);
    s->index = t;
    s->index_cap = cap;
    return 0;
}

long cpu_stacks_add(cpu_stacks_t *s, const uint64_t *ips, size_t n)
{
    if (s->n >= UINT32_MAX - 1 || (2 * (s->n + 1) > s->index_cap && rehash(s)))
        return -1;
    size_t j = stack_hash(ips, n) & (s->index_cap - 1);
    for (; s->index[j]; j = (j + 1) & (s->index_cap - 1)) {
        const cpu_stack_t *k = &s->stacks[s->index[j] - 1];
        if (k->count == n && (n == 0 || memcmp(s->ips + k->first, ips, n * sizeof *ips) == 0))
            return (long)s->index[j] - 1;
    }
    if (clra__grow((void **)&s->ips, &s->cap_ips, s->nips + n, sizeof *s->ips) ||
        clra__grow((void **)&s->stacks, &s->cap, s->n + 1, sizeof *s->stacks))
        return -1;
    if (n)
        memcpy(s->ips + s->nips, ips, n * sizeof *ips);
    s->stacks[s->n] = (cpu_stack_t){s->nips, n};
    s->nips += n;
    s->index[j] = (uint32_t)++s->n;
    return (long)s->n - 1;
}

void cpu_stacks_free(cpu_stacks_t *s)
{
    free(s->ips);
    free(s->stacks);
    free(s->index);
    memset(s, 0, sizeof *s);
}

/* Doubles the address table; -1 out of memory. */
static int grow_names(cpu_hex_names_t *h)
{
    size_t cap = h->cap ? 2 * h->cap : 1024;
    uint64_t *ips = calloc(cap, sizeof *ips);
    char **names = calloc(cap, sizeof *names);
    if (!ips || !names) {
        free(ips);
        free(names);
        return -1;
    }
    for (size_t i = 0; i < h->cap; i++) {
        if (!h->names[i])
            continue;
        size_t j = mix(0, h->ips[i]) & (cap - 1);
        while (names[j])
            j = (j + 1) & (cap - 1);
        ips[j] = h->ips[i];
        names[j] = h->names[i];
    }
    free(h->ips);
    free(h->names);
    h->ips = ips, h->names = names, h->cap = cap;
    return 0;
}

const char *cpu_hex_name(cpu_hex_names_t *h, uint64_t ip)
{
    if (2 * (h->n + 1) > h->cap && grow_names(h))
        return NULL;
    size_t j = mix(0, ip) & (h->cap - 1);
    for (; h->names[j]; j = (j + 1) & (h->cap - 1))
        if (h->ips[j] == ip)
            return h->names[j];
    char *name = malloc(19);
    if (!name)
        return NULL;
    snprintf(name, 19, "0x%llx", (unsigned long long)ip);
    h->ips[j] = ip;
    h->names[j] = name;
    h->n++;
    return name;
}

void cpu_hex_names_free(cpu_hex_names_t *h)
{
    for (size_t i = 0; i < h->cap; i++)
        free(h->names[i]);
    free(h->ips);
    free(h->names);
    memset(h, 0, sizeof *h);
}
