/* profile_events_collect.c - the events of profile's event modes aggregated by (thread,
 * stack, leaf) as raw addresses, and named once the session is over: the rundown that names the
 * methods still loaded comes last, when the session stops. */
#define _GNU_SOURCE
#include "profile/profile_events.h"
#include "common/fnv1a.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FRAMES 2048 /* the leaf-most frames of a deeper stack */

int pe_grow(void **p, size_t *cap, size_t need, size_t each)
{
    if (need <= *cap)
        return 0;
    size_t n = *cap ? *cap : 64;
    while (n < need)
        n *= 2;
    if (n > SIZE_MAX / each)
        return -1;
    void *g = realloc(*p, n * each);
    if (!g)
        return -1;
    *p = g;
    *cap = n;
    return 0;
}

/* Makes the open-addressing table *index (a power of two) fit one more of used entries: at
 * half full a fresh empty one of twice the size (1024 first) replaces it, so its memory stays
 * within four words an entry. 1 when the caller must put its entries back in, 0 when there
 * was room, -1 out of memory or past what size_t can count. */
static int table_reserve(size_t **index, size_t *cap, size_t used)
{
    if (used < *cap / 2)
        return 0;
    if (*cap > SIZE_MAX / 2 / sizeof **index)
        return -1;
    size_t n = *cap ? 2 * *cap : 1024;
    size_t *idx = calloc(n, sizeof *idx);
    if (!idx)
        return -1;
    free(*index);
    *index = idx;
    *cap = n;
    return 1;
}

/* Where leaf's number is or would go in the leaf index. */
static size_t leaf_slot(const pe_run_t *r, const char *leaf)
{
    size_t mask = r->cap_leaf_index - 1;
    size_t i = (size_t)fnv1a(leaf, strlen(leaf), FNV1A_SEED) & mask;
    for (size_t e; (e = r->leaf_index[i]) != 0; i = (i + 1) & mask)
        if (strcmp(r->leaves[e - 1], leaf) == 0)
            break;
    return i;
}

/* Room for one more leaf in the index, the leaves put back when it grew; 0 or -1. */
static int leaf_index_reserve(pe_run_t *r)
{
    int rc = table_reserve(&r->leaf_index, &r->cap_leaf_index, r->nleaves);
    for (size_t i = 0; rc > 0 && i < r->nleaves; i++)
        r->leaf_index[leaf_slot(r, r->leaves[i])] = i + 1;
    return rc < 0 ? -1 : 0;
}

/* The leaf's interned number (1 + index), 0 for none or out of memory (r->oom). Hashed: in
 * alloc mode every allocated type is a leaf, and a scan per event was quadratic in them. */
static uint32_t leaf_id(pe_run_t *r, const char *leaf)
{
    if (!leaf)
        return 0;
    if (leaf_index_reserve(r))
        return r->oom = 1, 0;
    size_t i = leaf_slot(r, leaf);
    if (r->leaf_index[i])
        return (uint32_t)r->leaf_index[i];
    char *copy = r->nleaves < UINT32_MAX ? strdup(leaf) : NULL; /* numbers are 32-bit */
    if (!copy || pe_grow((void **)&r->leaves, &r->cap_leaves, r->nleaves + 1, sizeof *r->leaves))
        return free(copy), r->oom = 1, 0;
    r->leaves[r->nleaves++] = copy;
    r->leaf_index[i] = r->nleaves;
    return (uint32_t)r->nleaves;
}

static uint64_t hash_of(uint64_t tid, uint32_t leaf, const uint64_t *ips, size_t n)
{
    uint64_t h = tid * 0x9E3779B97F4A7C15ULL ^ leaf;
    for (size_t i = 0; i < n; i++)
        h = (h ^ ips[i]) * 0xBF58476D1CE4E5B9ULL;
    return h ^ h >> 31;
}

/* Where the entry of (tid, leaf, ips) is or would go in the index (a power of two). */
static size_t slot_of(const pe_run_t *r, uint64_t tid, uint32_t leaf, const uint64_t *ips,
                      size_t n)
{
    size_t mask = r->cap_index - 1, i = (size_t)hash_of(tid, leaf, ips, n) & mask;
    for (size_t e; (e = r->index[i]) != 0; i = (i + 1) & mask) {
        const pe_entry_t *x = &r->entries[e - 1];
        if (x->tid == tid && x->leaf == leaf && x->nips == n &&
            (n == 0 || memcmp(r->ipbuf + x->ips, ips, n * sizeof *ips) == 0))
            break;
    }
    return i;
}

/* Room for one more entry in the index, the entries put back when it grew; 0 or -1. */
static int index_reserve(pe_run_t *r)
{
    int rc = table_reserve(&r->index, &r->cap_index, r->nentries);
    for (size_t e = 0; rc > 0 && e < r->nentries; e++) {
        const pe_entry_t *x = &r->entries[e];
        r->index[slot_of(r, x->tid, x->leaf, r->ipbuf + x->ips, x->nips)] = e + 1;
    }
    return rc < 0 ? -1 : 0;
}

int pe_add(pe_run_t *r, uint64_t tid, const uint8_t *stack, uint32_t stack_len, const char *leaf,
           uint64_t weight)
{
    static uint64_t ips[MAX_FRAMES];
    unsigned ps = r->pointer_size == 4 ? 4 : 8;
    size_t n = stack ? stack_len / ps : 0;
    if (n > MAX_FRAMES)
        n = MAX_FRAMES;
    for (size_t i = 0; i < n; i++) {
        uint64_t ip = 0;
        memcpy(&ip, stack + i * ps, ps);
        ips[i] = ip;
    }
    uint32_t lf = leaf_id(r, leaf);
    if (r->oom || index_reserve(r))
        return r->oom = 1, -1;
    size_t i = slot_of(r, tid, lf, ips, n);
    if (r->index[i]) {
        pe_entry_t *x = &r->entries[r->index[i] - 1];
        x->count++;
        x->weight += weight;
        return 0;
    }
    if (pe_grow((void **)&r->entries, &r->cap_entries, r->nentries + 1, sizeof *r->entries) ||
        pe_grow((void **)&r->ipbuf, &r->cap_ipbuf, r->nipbuf + n + 1, sizeof *r->ipbuf))
        return r->oom = 1, -1;
    if (n)
        memcpy(r->ipbuf + r->nipbuf, ips, n * sizeof *ips);
    r->entries[r->nentries] = (pe_entry_t){tid, 1, weight, r->nipbuf, n, lf};
    r->nipbuf += n;
    r->index[i] = ++r->nentries;
    return 0;
}

void pe_method(pe_run_t *r, const clra_nettrace_event_t *ev)
{
    pe_field_t f[4] = {{.name = "MethodStartAddress"}, {.name = "MethodSize"},
                       {.name = "MethodNamespace"}, {.name = "MethodName"}};
    if (pe_fields(r, ev, f, 4) != 4 || f[1].u == 0)
        return;
    if (pe_grow((void **)&r->methods, &r->cap_methods, r->nmethods + 1, sizeof *r->methods)) {
        r->oom = 1;
        return;
    }
    method__range_t *m = &r->methods[r->nmethods];
    if (asprintf(&m->name, "%s%s%s", f[2].text, f[2].text[0] ? "." : "", f[3].text) < 0) {
        r->oom = 1;
        return;
    }
    m->start = f[0].u;
    m->size = f[1].u;
    r->nmethods++;
}

/* One entry's frames (leaf first, its leaf name on top) into the profile. */
static int add_entry(pe_run_t *r, profile_t *p, const pe_entry_t *x, uint32_t *frames)
{
    char hex[32];
    uint32_t n = 0;
    if (x->leaf)
        frames[n++] = profile_frame(p, r->leaves[x->leaf - 1]);
    for (size_t i = 0; i < x->nips; i++) {
        uint64_t ip = r->ipbuf[x->ips + i];
        const method__range_t *m = method__covering(r->methods, r->nmethods, ip);
        if (!m)
            snprintf(hex, sizeof hex, "0x%llx", (unsigned long long)ip);
        frames[n++] = profile_frame(p, m ? m->name : hex);
    }
    if (n == 0)
        frames[n++] = profile_frame(p, "[no stack]");
    for (uint32_t i = 0; i < n; i++)
        if (frames[i] == UINT32_MAX)
            return -1;
    int thread = profile_thread(p, x->tid, NULL);
    return thread < 0 ? -1 : profile_add(p, thread, frames, n, x->count, x->weight);
}

int pe_resolve(pe_run_t *r, profile_t *p)
{
    method__sort(r->methods, r->nmethods);
    uint32_t *frames = malloc((MAX_FRAMES + 2) * sizeof *frames);
    int rc = frames ? 0 : -1;
    for (size_t e = 0; e < r->nentries && !rc; e++)
        rc = add_entry(r, p, &r->entries[e], frames);
    free(frames);
    return rc;
}

void pe_free(pe_run_t *r)
{
    if (r->mode && r->mode->release)
        r->mode->release(r);
    for (size_t i = 0; i < r->nmethods; i++)
        free(r->methods[i].name);
    for (size_t i = 0; i < r->nleaves; i++)
        free(r->leaves[i]);
    free(r->methods);
    free(r->entries);
    free(r->index);
    free(r->ipbuf);
    free(r->leaves);
    free(r->leaf_index);
    for (size_t i = 0; i < r->npending; i++)
        free(r->pending[i].stack);
    free(r->pending);
}
