/* native_names.c - names for the IPs the signal handler recorded, found on the sampling
 * thread, never in the handler: a managed method through ICorProfilerInfo::GetFunctionFromIP
 * and the frame-name code, else the shared object and its exported symbol through dladdr
 * (`libc.so.6!memset`, or `libcoreclr.so` for a symbol only .symtab knows), else [unknown]
 * (stubs, JIT helpers, code the runtime generated outside a method). IPs are cached, and
 * native names interned, each in a bounded table: past the bound a lookup is only slower.
 */
#define _GNU_SOURCE
#include "signal_sampler.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define IP_CAP 65536    /* IPs cached (a power of two) */
#define NAME_CAP 8192   /* native names interned (a power of two) */

typedef struct ip_names {
    uintptr_t ips[IP_CAP];
    uint32_t ip_frames[IP_CAP];
    size_t ip_used;
    char *names[NAME_CAP];
    uint32_t name_frames[NAME_CAP];
    size_t name_used;
} ip_names_t;

ip_names_t *ip_names_new(void)
{
    return calloc(1, sizeof(ip_names_t));
}

void ip_names_free(ip_names_t *n)
{
    if (!n)
        return;
    for (size_t i = 0; i < NAME_CAP; i++)
        free(n->names[i]);
    free(n);
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

/* A native IP's frame: `file!symbol`, `file` or [unknown]. */
static uint32_t native_frame(sampler_t *s, ip_names_t *n, uintptr_t ip)
{
    Dl_info dl;
    char name[512];
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
