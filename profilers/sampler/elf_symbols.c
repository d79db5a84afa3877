/* elf_symbols.c - a loaded library's function symbols, read from its file on disk on the
 * sampling thread (never in the handler): the .symtab of a separate debug file when there is
 * one, else the library's .symtab when it has one, else its .dynsym. Only
 * sized functions name an address, so a stripped library's unexported code is not credited to
 * the nearest export. An IFUNC (glibc's memset, memcpy, ...) names the implementation the
 * loader chose: dlsym resolves it, and its FDE gives the extent.
 */
#define _GNU_SOURCE
#include "elf_symbols.h"
#include "pages.h"

#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_FILE (1ULL << 31) /* a library larger than 2 GiB is not read */

/* Orders symbols by address, for elf_syms_find's binary search. */
static int by_addr(const void *a, const void *b)
{
    const elf_sym_t *x = a, *y = b;
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* The section of type type, bounds-checked against the file; NULL when absent. */
static const Elf64_Shdr *section(const uint8_t *f, size_t size, uint32_t type)
{
    const Elf64_Ehdr *eh = (const void *)f;
    if (eh->e_shoff == 0 || eh->e_shentsize != sizeof(Elf64_Shdr) || eh->e_shoff > size ||
        (size - eh->e_shoff) / sizeof(Elf64_Shdr) < eh->e_shnum)
        return NULL;
    const Elf64_Shdr *sh = (const void *)(f + eh->e_shoff);
    for (unsigned i = 0; i < eh->e_shnum; i++)
        if (sh[i].sh_type == type && sh[i].sh_offset <= size &&
            sh[i].sh_size <= size - sh[i].sh_offset && sh[i].sh_link < eh->e_shnum &&
            sh[sh[i].sh_link].sh_offset <= size &&
            sh[sh[i].sh_link].sh_size <= size - sh[sh[i].sh_link].sh_offset)
            return &sh[i];
    return NULL;
}

/* An IFUNC's chosen implementation and its extent (the FDE around it), or 0. */
static uintptr_t ifunc_target(const uw_module_t *mod, void *handle, const char *name,
                              uint64_t *size)
{
    uintptr_t start, end;
    void *impl = handle ? dlsym(handle, name) : NULL;
    if (!impl || uw_fde_at(mod, (uintptr_t)impl, &start, &end) != 0 || start != (uintptr_t)impl)
        return 0;
    *size = end - start;
    return start;
}

/* Collects the sized functions of one symbol table into out->syms. */
static void collect(elf_syms_t *out, const uw_module_t *mod, const Elf64_Shdr *tab,
                    const Elf64_Shdr *strs)
{
    const Elf64_Sym *sym = (const void *)(out->file + tab->sh_offset);
    size_t n = tab->sh_size / sizeof(Elf64_Sym);
    const char *names = (const char *)out->file + strs->sh_offset;
    void *handle = mod->path[0] == '/' ? dlopen(mod->path, RTLD_LAZY | RTLD_NOLOAD) : NULL;
    out->cap = n ? n : 1;
    out->syms = pages_alloc(out->cap * sizeof(elf_sym_t));
    for (size_t i = 0; out->syms && i < n; i++) {
        int type = ELF64_ST_TYPE(sym[i].st_info);
        uint64_t size = sym[i].st_size;
        if (sym[i].st_shndx == SHN_UNDEF || sym[i].st_name >= strs->sh_size ||
            (type != STT_FUNC && type != STT_GNU_IFUNC) || size == 0)
            continue;
        const char *name = names + sym[i].st_name;
        if (!memchr(name, '\0', strs->sh_size - sym[i].st_name))
            continue;
        uintptr_t addr = type == STT_FUNC ? mod->base + sym[i].st_value
                                          : ifunc_target(mod, handle, name, &size);
        if (addr)
            out->syms[out->n++] = (elf_sym_t){addr, size, name};
    }
    if (handle)
        dlclose(handle);
    if (out->syms)
        qsort(out->syms, out->n, sizeof(elf_sym_t), by_addr);
}

/* Maps the ELF file at path into out (read-only); 0, or -1 (out left empty). */
static int map_file(elf_syms_t *out, const char *path)
{
    struct stat st;
    memset(out, 0, sizeof *out);
    int fd = path[0] == '/' ? open(path, O_RDONLY | O_CLOEXEC) : -1;
    if (fd < 0 || fstat(fd, &st) != 0 || st.st_size < (off_t)sizeof(Elf64_Ehdr) ||
        (unsigned long long)st.st_size > MAX_FILE) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    void *f = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (f == MAP_FAILED)
        return -1;
    out->file = f, out->size = (size_t)st.st_size;
    if (memcmp(f, ELFMAG, SELFMAG) != 0 || out->file[EI_CLASS] != ELFCLASS64) {
        elf_syms_free(out);
        return -1;
    }
    return 0;
}

/* Reads the file at path: its .symtab, else (when dynsym_too) its .dynsym. 0, or -1 (no such
 * file or table: out left empty). */
static int load_from(elf_syms_t *out, const uw_module_t *mod, const char *path, int dynsym_too)
{
    if (map_file(out, path) != 0)
        return -1;
    const Elf64_Shdr *tab = section(out->file, out->size, SHT_SYMTAB);
    if (!tab && dynsym_too)
        tab = section(out->file, out->size, SHT_DYNSYM);
    if (!tab) {
        elf_syms_free(out);
        return -1;
    }
    const Elf64_Shdr *sh = (const void *)(out->file + ((const Elf64_Ehdr *)out->file)->e_shoff);
    collect(out, mod, tab, &sh[tab->sh_link]);
    return 0;
}

/* A separate debug file's full .symtab first: `lib.so.dbg` beside the library (where
 * dotnet-symbol puts libcoreclr.so.dbg), then /usr/lib/debug/PATH (distribution -dbg
 * packages); else the library itself. */
int elf_syms_load(elf_syms_t *out, const uw_module_t *mod)
{
    char path[sizeof mod->path + 32];
    snprintf(path, sizeof path, "%s.dbg", mod->path);
    if (load_from(out, mod, path, 0) == 0)
        return 0;
    snprintf(path, sizeof path, "/usr/lib/debug%s", mod->path);
    if (load_from(out, mod, path, 0) == 0)
        return 0;
    return load_from(out, mod, mod->path, 1);
}

const char *elf_syms_find(const elf_syms_t *s, uintptr_t addr)
{
    size_t lo = 0, hi = s->n;
    while (lo < hi) { /* the first symbol above addr */
        size_t mid = lo + (hi - lo) / 2;
        if (s->syms[mid].addr <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t i = lo; i-- > 0 && lo - i <= 8;) /* a few nested or aliased symbols back */
        if (addr - s->syms[i].addr < s->syms[i].size)
            return s->syms[i].name;
    return NULL;
}

void elf_syms_free(elf_syms_t *s)
{
    pages_free(s->syms, s->cap * sizeof(elf_sym_t));
    if (s->file)
        munmap((void *)s->file, s->size);
    memset(s, 0, sizeof *s);
}
