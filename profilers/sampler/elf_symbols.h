/* elf_symbols.h - function symbols of a loaded module, from its ELF file (elf_symbols.c). */
#ifndef ELF_SYMBOLS_H
#define ELF_SYMBOLS_H

#include "unwind.h"

#include <stddef.h>
#include <stdint.h>

typedef struct elf_sym {
    uintptr_t addr; /* run-time address */
    uint64_t size;
    const char *name; /* inside the mapped file */
} elf_sym_t;

typedef struct elf_syms {
    const uint8_t *file; /* the file, mapped read-only while the names are used */
    size_t size;
    elf_sym_t *syms; /* sorted by addr */
    size_t n, cap;   /* used, allocated */
} elf_syms_t;

/* Reads mod's symbols (a debug file's .symtab, the file's .symtab, else its .dynsym); 0, or -1
 * (no readable ELF file with symbols: out is empty). */
int elf_syms_load(elf_syms_t *out, const uw_module_t *mod);
/* The (mangled) name of the function holding addr, or NULL. */
const char *elf_syms_find(const elf_syms_t *s, uintptr_t addr);
void elf_syms_free(elf_syms_t *s);

#endif
