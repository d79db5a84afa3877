/* unwind_map.c - the modules the walk knows, built on the sampling thread (never in the
 * handler) from dl_iterate_phdr: each one's code range and .eh_frame_hdr search table, checked
 * to lie inside the loaded segment that holds it. Each module is pinned with
 * dlopen(RTLD_NOLOAD) so an app's dlclose cannot unmap tables a handler reads; the pins are
 * dropped with the map (sig_stop, after the last handler returned).
 */
#define _GNU_SOURCE
#include "pages.h"
#include "unwind.h"

#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_MODULES 1024

typedef struct build {
    uw_map_t *m;
    unsigned long long adds, subs;
} build_t;

/* The search table of a module's .eh_frame_hdr (version 1, table in datarel sdata4, the
 * only layout linkers write), kept only if it lies inside the segment [lo, hi). */
static void read_hdr(uw_module_t *mod, const uint8_t *hdr)
{
    uintptr_t a = (uintptr_t)hdr;
    if (a < mod->data_lo || mod->data_hi - a < 12 || hdr[0] != 1 || hdr[3] != 0x3b)
        return;
    const uint8_t *p = hdr + 4;
    if (hdr[1] == 0x1b || hdr[1] == 0x03 || hdr[1] == 0x0b)
        p += 4; /* eh_frame_ptr: 4 bytes in every encoding linkers use */
    else
        return;
    uint32_t count;
    if (hdr[2] != 0x03 && hdr[2] != 0x0b)
        return;
    memcpy(&count, p, 4);
    p += 4;
    if ((uintptr_t)p > mod->data_hi || (mod->data_hi - (uintptr_t)p) / 8 < count)
        return;
    mod->hdr = hdr, mod->table = (const int32_t *)(const void *)p, mod->count = count;
}

/* The code range and unwind segment of one module from its program headers. */
static void read_phdrs(uw_module_t *mod, const struct dl_phdr_info *info)
{
    const uint8_t *hdr = NULL;
    mod->base = info->dlpi_addr, mod->lo = UINTPTR_MAX, mod->hi = 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr, hi = lo + ph->p_memsz;
        if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X)) {
            mod->lo = lo < mod->lo ? lo : mod->lo;
            mod->hi = hi > mod->hi ? hi : mod->hi;
        } else if (ph->p_type == PT_GNU_EH_FRAME)
            hdr = (const uint8_t *)lo;
    }
    for (int i = 0; hdr && i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr, hi = lo + ph->p_filesz;
        if (ph->p_type == PT_LOAD && (ph->p_flags & PF_R) && (uintptr_t)hdr >= lo &&
            (uintptr_t)hdr < hi)
            mod->data_lo = lo, mod->data_hi = hi;
    }
    if (hdr && mod->data_hi)
        read_hdr(mod, hdr);
}

/* Adds one loaded object to the map being built (callback of dl_iterate_phdr, which holds the
 * loader's lock: no dlopen here, uw_map_build pins afterwards). */
static int add_module(struct dl_phdr_info *info, size_t size, void *arg)
{
    build_t *b = arg;
    (void)size;
    b->adds = info->dlpi_adds, b->subs = info->dlpi_subs;
    if (b->m->n == MAX_MODULES)
        return 0;
    uw_module_t *mod = &b->m->mods[b->m->n];
    memset(mod, 0, sizeof *mod);
    read_phdrs(mod, info);
    if (mod->hi <= mod->lo)
        return 0;
    const char *name = info->dlpi_name ? info->dlpi_name : "";
    if (name[0] == '\0') {
        ssize_t len = b->m->n == 0 ? readlink("/proc/self/exe", mod->path, sizeof mod->path - 1)
                                   : -1;
        mod->path[len > 0 ? len : 0] = '\0';
    } else
        snprintf(mod->path, sizeof mod->path, "%s", name);
    b->m->n++;
    return 0;
}

/* Pins every module loaded from a file (this library apart: it must unload), dropping those
 * unloaded since the listing. */
static void pin_all(uw_map_t *m)
{
    uintptr_t self = (uintptr_t)&uw_map_build;
    uint32_t kept = 0;
    for (uint32_t i = 0; i < m->n; i++) {
        uw_module_t *mod = &m->mods[i];
        int pinnable = mod->path[0] == '/' && (self < mod->lo || self >= mod->hi) &&
                       strstr(mod->path, "linux-vdso") == NULL;
        if (pinnable && i > 0 && !(mod->pin = dlopen(mod->path, RTLD_LAZY | RTLD_NOLOAD)))
            continue; /* gone meanwhile */
        m->mods[kept++] = *mod;
    }
    m->n = kept;
}

/* A map's bytes, room for n modules. */
static size_t map_bytes(uint32_t n)
{
    return sizeof(uw_map_t) + n * sizeof(uw_module_t);
}

/* Orders modules by address, for uw_find's binary search. */
static int by_lo(const void *a, const void *b)
{
    const uw_module_t *x = a, *y = b;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

uw_map_t *uw_map_build(void)
{
    build_t b = {pages_alloc(map_bytes(MAX_MODULES)), 0, 0};
    if (!b.m)
        return NULL;
    dl_iterate_phdr(add_module, &b);
    b.m->adds = b.adds, b.m->subs = b.subs;
    pin_all(b.m);
    qsort(b.m->mods, b.m->n, sizeof(uw_module_t), by_lo);
    return b.m; /* the pages past the last module are never touched: not resident */
}

/* Reads only the counters: stops after the first object. */
static int counters(struct dl_phdr_info *info, size_t size, void *arg)
{
    unsigned long long *c = arg;
    (void)size;
    c[0] = info->dlpi_adds, c[1] = info->dlpi_subs;
    return 1;
}

int uw_map_stale(const uw_map_t *m)
{
    unsigned long long c[2] = {0, 0};
    dl_iterate_phdr(counters, c);
    return !m || c[0] != m->adds || c[1] != m->subs;
}

void uw_map_free(uw_map_t *m)
{
    if (!m)
        return;
    for (uint32_t i = 0; i < m->n; i++)
        if (m->mods[i].pin)
            dlclose(m->mods[i].pin);
    pages_free(m, map_bytes(MAX_MODULES));
}
