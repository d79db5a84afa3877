/* elfcore.c - a bounds-checked reader of ELF64 core files, for the dump tests. */
#define _GNU_SOURCE
#include "elfcore.h"

#include <elf.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/procfs.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(__x86_64__)
#define HOST_MACHINE EM_X86_64
#elif defined(__aarch64__)
#define HOST_MACHINE EM_AARCH64
#else
#error "add this machine's EM_ value"
#endif

#define MAX_NOTES_BYTES (64u << 20)

static int fail(elfcore_info_t *info, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(info->error, sizeof info->error, fmt, ap);
    va_end(ap);
    return -1;
}

/* Reads exactly n bytes at off, refusing anything past the end of the file. */
static int read_at(int fd, long long size, void *buf, size_t n, unsigned long long off)
{
    if (off > (unsigned long long)size || n > (unsigned long long)size - off)
        return -1;
    return pread(fd, buf, n, (off_t)off) == (ssize_t)n ? 0 : -1;
}

static int check_header(const Elf64_Ehdr *e, elfcore_info_t *info)
{
    if (memcmp(e->e_ident, ELFMAG, SELFMAG) != 0)
        return fail(info, "no ELF magic");
    if (e->e_ident[EI_CLASS] != ELFCLASS64)
        return fail(info, "class %d, not ELFCLASS64", e->e_ident[EI_CLASS]);
    if (e->e_ident[EI_DATA] != ELFDATA2LSB)
        return fail(info, "not little-endian");
    if (e->e_type != ET_CORE)
        return fail(info, "e_type %d, not ET_CORE", e->e_type);
    if (e->e_machine != HOST_MACHINE)
        return fail(info, "e_machine %d, not this machine's %d", e->e_machine, HOST_MACHINE);
    if (e->e_phentsize != sizeof(Elf64_Phdr))
        return fail(info, "e_phentsize %d", e->e_phentsize);
    return 0;
}

/* Counts NT_PRSTATUS notes in one PT_NOTE segment; each note is a 12-byte header, then the
 * name and the descriptor, each padded to 4 bytes. */
static int scan_notes(const unsigned char *p, size_t n, int pid, elfcore_info_t *info)
{
    size_t pos = 0;
    while (n - pos >= sizeof(Elf64_Nhdr)) {
        Elf64_Nhdr h;
        memcpy(&h, p + pos, sizeof h);
        pos += sizeof h;
        size_t name = ((size_t)h.n_namesz + 3) & ~(size_t)3;
        size_t desc = ((size_t)h.n_descsz + 3) & ~(size_t)3;
        if (name > n - pos || desc > n - pos - name)
            return fail(info, "a note runs past its segment (name %u, desc %u bytes)",
                        h.n_namesz, h.n_descsz);
        const unsigned char *d = p + pos + name;
        if (h.n_type == NT_PRSTATUS && h.n_namesz == 5 && memcmp(p + pos, "CORE", 5) == 0) {
            info->prstatus++;
            int tid;
            if (h.n_descsz >= offsetof(struct elf_prstatus, pr_pid) + sizeof tid) {
                memcpy(&tid, d + offsetof(struct elf_prstatus, pr_pid), sizeof tid);
                info->pid_thread_seen |= tid == pid;
            }
        }
        pos += name + desc;
    }
    return 0;
}

static int check_segment(int fd, const Elf64_Phdr *ph, int pid, elfcore_info_t *info)
{
    if (ph->p_offset > (unsigned long long)info->file_size ||
        ph->p_filesz > (unsigned long long)info->file_size - ph->p_offset)
        return fail(info, "a segment's %llu bytes at %llu lie past the end of the file (%lld)",
                    (unsigned long long)ph->p_filesz, (unsigned long long)ph->p_offset,
                    info->file_size);
    if (ph->p_type == PT_LOAD)
        info->load_segments++;
    if (ph->p_type != PT_NOTE)
        return 0;
    info->note_segments++;
    if (ph->p_filesz > MAX_NOTES_BYTES)
        return fail(info, "a note segment of %llu bytes", (unsigned long long)ph->p_filesz);
    unsigned char *notes = malloc(ph->p_filesz + 1);
    int rc = notes && read_at(fd, info->file_size, notes, ph->p_filesz, ph->p_offset) == 0
                 ? scan_notes(notes, ph->p_filesz, pid, info)
                 : fail(info, "cannot read a note segment");
    free(notes);
    return rc;
}

/* The program header count, which lives in section 0's sh_info when it exceeds 0xfffe. */
static int phdr_count(int fd, const Elf64_Ehdr *e, elfcore_info_t *info, unsigned *count)
{
    Elf64_Shdr sh0;
    *count = e->e_phnum;
    if (e->e_phnum != PN_XNUM)
        return 0;
    if (read_at(fd, info->file_size, &sh0, sizeof sh0, e->e_shoff) != 0)
        return fail(info, "PN_XNUM without a readable section 0");
    *count = sh0.sh_info;
    return 0;
}

int elfcore_check(const char *path, int pid, elfcore_info_t *info)
{
    Elf64_Ehdr e;
    struct stat sb;
    unsigned count;
    memset(info, 0, sizeof *info);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0 || fstat(fd, &sb) != 0) {
        if (fd >= 0)
            close(fd);
        return fail(info, "cannot open %s", path);
    }
    info->file_size = (long long)sb.st_size;
    int rc = read_at(fd, info->file_size, &e, sizeof e, 0) == 0
                 ? check_header(&e, info)
                 : fail(info, "shorter than an ELF header");
    if (rc == 0)
        rc = phdr_count(fd, &e, info, &count);
    for (unsigned i = 0; rc == 0 && i < count; i++) {
        Elf64_Phdr ph;
        unsigned long long at = e.e_phoff + (unsigned long long)i * sizeof ph;
        rc = read_at(fd, info->file_size, &ph, sizeof ph, at)
                 ? fail(info, "program header %u lies past the end of the file", i)
                 : check_segment(fd, &ph, pid, info);
    }
    close(fd);
    if (rc == 0 && (!info->load_segments || !info->note_segments || !info->prstatus))
        rc = fail(info, "%d PT_LOAD, %d PT_NOTE, %d NT_PRSTATUS: a core needs all three",
                  info->load_segments, info->note_segments, info->prstatus);
    return rc;
}
