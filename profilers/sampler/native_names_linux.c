/* native_names_linux.c - names for the IPs the signal handler recorded, found on the sampling
 * thread, never in the handler: a managed method through ICorProfilerInfo::GetFunctionFromIP
 * and the frame-name code; else, in a module of the walk's map, the function symbol from the
 * library's file (elf_symbols.c, C++ names demangled when the process has __cxa_demangle):
 * `libc.so.6!memset`; else the start of the function its FDE covers, `libcoreclr.so+0x1a2b30`
 * (a stripped library's internal code); else the module or, through dladdr, the shared object;
 * else [unknown] (stubs, JIT helpers, code the runtime generated outside a method). IPs are
 * cached, and native names interned, each in a bounded table: past the bound a lookup is only
 * slower.
 */
#define _GNU_SOURCE
#include "elf_symbols.h"
#include "pages.h"
#include "signal_sampler.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define IP_CAP 65536    /* IPs cached (a power of two) */
#define NAME_CAP 8192   /* native names interned (a power of two) */
#define MOD_CAP 256     /* modules whose symbols are read */

/* One module seen by the walk: a copy of its map entry (maps are replaced) and its symbols. */
typedef struct mod_names {
    uw_module_t mod;
    elf_syms_t syms;
} mod_names_t;

typedef struct ip_names {
    uintptr_t ips[IP_CAP];
    uint32_t ip_frames[IP_CAP];
    size_t ip_used;
    char *names[NAME_CAP];
    uint32_t name_frames[NAME_CAP];
    size_t name_used;
    mod_names_t *mods[MOD_CAP];
    size_t n_mods;
} ip_names_t;

ip_names_t *ip_names_new(void)
{
    return pages_alloc(sizeof(ip_names_t));
}

void ip_names_free(ip_names_t *n)
{
    if (!n)
        return;
    for (size_t i = 0; i < NAME_CAP; i++)
        free(n->names[i]);
    for (size_t i = 0; i < n->n_mods; i++) {
        elf_syms_free(&n->mods[i]->syms);
        free(n->mods[i]);
    }
    pages_free(n, sizeof(ip_names_t));
}

static size_t hash_text(const char *t)
{
    size_t h = 5381;
    while (*t)
        h = h * 33 + (unsigned char)*t++;
    return h;
}

/* The one frame for a native name, added to the store the first time. */
static uint32_t intern(sampler_t *s, ip_names_t *n, const char *name)
{
    size_t j = hash_text(name) & (NAME_CAP - 1);
    while (n->names[j] && strcmp(n->names[j], name) != 0)
        j = (j + 1) & (NAME_CAP - 1);
    if (n->names[j])
        return n->name_frames[j];
    uint32_t frame = store_name(s->store, name);
    if (frame != FRAME_UNKNOWN && 2 * (n->name_used + 1) < NAME_CAP &&
        (n->names[j] = strdup(name)) != NULL) {
        n->name_frames[j] = frame;
        n->name_used++;
    }
    return frame;
}

/* The symbols of the module live (from the walk's map) describes, read the first time. */
static mod_names_t *module_names(ip_names_t *n, const uw_module_t *live)
{
    for (size_t i = 0; i < n->n_mods; i++)
        if (n->mods[i]->mod.lo == live->lo && strcmp(n->mods[i]->mod.path, live->path) == 0)
            return n->mods[i];
    mod_names_t *m = n->n_mods < MOD_CAP ? calloc(1, sizeof *m) : NULL;
    if (!m)
        return NULL;
    m->mod = *live;
    m->mod.pin = NULL;
    elf_syms_load(&m->syms, &m->mod);
    n->mods[n->n_mods++] = m;
    return m;
}

/* A C++ name demangled by the process's own __cxa_demangle (libstdc++, which libcoreclr
 * needs), or NULL: the name is then shown mangled. The result is malloc'd. */
static char *demangle(const char *name)
{
    typedef char *(*demangle_fn)(const char *, char *, size_t *, int *);
    static demangle_fn fn;
    static int looked;
    int status = -1;
    if (strncmp(name, "_Z", 2) != 0)
        return NULL;
    if (!looked) {
        fn = (demangle_fn)(uintptr_t)dlsym(RTLD_DEFAULT, "__cxa_demangle");
        looked = 1;
    }
    char *out = fn ? fn(name, NULL, NULL, &status) : NULL;
    if (out && status != 0) {
        free(out);
        out = NULL;
    }
    return out;
}

/* `file!symbol`, `file+0xFUNCTION` or `file` for an IP in a module of the walk's map. */
static void module_frame_name(const mod_names_t *m, uintptr_t ip, char *name, size_t cap)
{
    const char *file = strrchr(m->mod.path, '/') ? strrchr(m->mod.path, '/') + 1 : m->mod.path;
    const char *sym = elf_syms_find(&m->syms, ip);
    uintptr_t start, end;
    if (!file[0])
        file = "[module]";
    if (sym) {
        char *plain = demangle(sym);
        snprintf(name, cap, "%s!%s", file, plain ? plain : sym);
        free(plain);
    } else if (uw_fde_at(&m->mod, ip, &start, &end) == 0)
        snprintf(name, cap, "%s+0x%lx", file, (unsigned long)(start - m->mod.base));
    else
        snprintf(name, cap, "%s", file);
}

/* A native IP's frame: from the walk's modules, else dladdr's `file!symbol` or `file`, else
 * [unknown]. */
static uint32_t native_frame(sampler_t *s, ip_names_t *n, uintptr_t ip)
{
    Dl_info dl;
    char name[1024];
    const uw_module_t *live = uw_find(s->sig->unwind, ip);
    mod_names_t *m = live ? module_names(n, live) : NULL;
    if (m) {
        module_frame_name(m, ip, name, sizeof name);
        return intern(s, n, name);
    }
    if (!dladdr((void *)ip, &dl) || !dl.dli_fname || !dl.dli_fname[0])
        return FRAME_UNKNOWN;
    const char *file = strrchr(dl.dli_fname, '/') ? strrchr(dl.dli_fname, '/') + 1 : dl.dli_fname;
    if (dl.dli_sname)
        snprintf(name, sizeof name, "%s!%s", file, dl.dli_sname);
    else
        snprintf(name, sizeof name, "%s", file);
    return intern(s, n, name);
}

/* Names an IP the first time; later hits come from the cache. */
uint32_t ip_frame(sampler_t *s, uintptr_t ip)
{
    ip_names_t *n = s->sig->names;
    size_t j = (size_t)((ip * 0x9E3779B97F4A7C15ULL) >> 48) & (IP_CAP - 1);
    while (n->ips[j] && n->ips[j] != ip)
        j = (j + 1) & (IP_CAP - 1);
    if (n->ips[j])
        return n->ip_frames[j];
    ICorProfilerInfo15 *info = clrprof_info(s->p);
    FunctionID fid = 0;
    uint32_t frame;
    if (info && SUCCEEDED(info->lpVtbl->GetFunctionFromIP(info, (LPCBYTE)ip, &fid)) && fid)
        frame = store_frame(s->store, s->p, fid);
    else
        frame = native_frame(s, n, ip);
    if (2 * (n->ip_used + 1) < IP_CAP) {
        n->ips[j] = ip, n->ip_frames[j] = frame;
        n->ip_used++;
    }
    return frame;
}
