/* pe_metadata.c - from a PE file to its CLI metadata streams (ECMA-335 II.24-25). Every field is
 * read through bounds-checked helpers, since the file is whatever the user pointed us at. */
#define _POSIX_C_SOURCE 200809L
#include "assembly/assembly.h"
#include "common/le_bytes.h"

#include <stdio.h>
#include <string.h>

#define METADATA_SIGNATURE 0x424A5342u /* "BSJB" */
#define CLI_HEADER_DIRECTORY 14

/* Whether [off, off + n) lies inside a buffer of len bytes, without overflow. */
static int fits(size_t len, uint64_t off, uint64_t n)
{
    return off <= len && n <= len - off;
}

static int fail(char *why, size_t cap, const char *text)
{
    snprintf(why, cap, "%s", text);
    return -1;
}

/* Maps an RVA range to a file offset through the section table; -1 when no section's file
 * bytes hold all of it. */
static int64_t rva_to_offset(const uint8_t *img, size_t len, size_t sections, unsigned count,
                             uint32_t rva, uint32_t size)
{
    for (unsigned i = 0; i < count; i++) {
        const uint8_t *s = img + sections + 40u * i;
        uint32_t va = le__u32(s + 12), raw_size = le__u32(s + 16), raw = le__u32(s + 20);
        if (rva < va || (uint64_t)rva - va + size > raw_size)
            continue;
        uint64_t off = (uint64_t)raw + (rva - va);
        return fits(len, off, size) ? (int64_t)off : -1;
    }
    return -1;
}

/* Reads the stream headers after the metadata root's version string (II.24.2.1-2). */
static int read_streams(const uint8_t *md, size_t n, clra__metadata_t *out, char *why,
                        size_t cap)
{
    if (!fits(n, 0, 16) || le__u32(md) != METADATA_SIGNATURE)
        return fail(why, cap, "the CLI header points at no metadata (no BSJB signature)");
    uint64_t pos = 16 + (uint64_t)le__u32(md + 12);
    if (!fits(n, pos, 4))
        return fail(why, cap, "the metadata root is cut short");
    unsigned streams = le__u16(md + pos + 2);
    pos += 4;
    for (unsigned i = 0; i < streams; i++) {
        if (!fits(n, pos, 8))
            return fail(why, cap, "a metadata stream header is cut short");
        uint32_t off = le__u32(md + pos), size = le__u32(md + pos + 4);
        const char *name = (const char *)md + pos + 8;
        size_t max = n - (size_t)pos - 8, name_len = strnlen(name, max < 32 ? max : 32);
        if (name_len == max || name_len == 32 || !fits(n, off, size))
            return fail(why, cap, "a metadata stream lies outside the metadata");
        clra__span_t span = {md + off, size};
        if (strcmp(name, "#~") == 0 || strcmp(name, "#-") == 0)
            out->tables = span;
        else if (strcmp(name, "#Strings") == 0)
            out->strings = span;
        else if (strcmp(name, "#Blob") == 0)
            out->blob = span;
        pos += 8 + ((name_len + 4) & ~(size_t)3);
    }
    if (!out->tables.p || !out->strings.p || !out->blob.p)
        return fail(why, cap, "the metadata lacks its #~, #Strings or #Blob stream");
    return 0;
}

int clra__pe_metadata(const uint8_t *img, size_t len, clra__metadata_t *md, char *why,
                      size_t cap)
{
    memset(md, 0, sizeof *md);
    if (!fits(len, 0, 64) || img[0] != 'M' || img[1] != 'Z')
        return fail(why, cap, "not a .NET assembly: no MZ header (is it a .dll built by dotnet?)");
    uint32_t pe = le__u32(img + 0x3C);
    if (!fits(len, pe, 24) || memcmp(img + pe, "PE\0\0", 4) != 0)
        return fail(why, cap, "not a .NET assembly: no PE signature");
    unsigned sections = le__u16(img + pe + 6), opt_size = le__u16(img + pe + 20);
    size_t opt = (size_t)pe + 24;
    if (!fits(len, opt, opt_size) || opt_size < 2 ||
        !fits(len, opt + opt_size, 40ull * sections))
        return fail(why, cap, "not a .NET assembly: its PE headers are cut short");
    for (unsigned i = 0; i < sections; i++) {
        const uint8_t *sec = img + opt + opt_size + 40u * i;
        if (!fits(len, le__u32(sec + 20), le__u32(sec + 16))) {
            snprintf(why, cap, "the file is cut short: its section %.8s ends at byte %llu of "
                     "%zu (an incomplete copy?)", (const char *)sec,
                     (unsigned long long)le__u32(sec + 20) + le__u32(sec + 16), len);
            return -1;
        }
    }
    unsigned magic = le__u16(img + opt);
    size_t dirs = magic == 0x20B ? 112 : magic == 0x10B ? 96 : 0;
    if (!dirs || opt_size < dirs + 8u * (CLI_HEADER_DIRECTORY + 1) ||
        le__u32(img + opt + dirs - 4) <= CLI_HEADER_DIRECTORY)
        return fail(why, cap, "not a .NET assembly: no CLI header (a native library?)");
    const uint8_t *dir = img + opt + dirs + 8 * CLI_HEADER_DIRECTORY;
    int64_t cli = le__u32(dir) ? rva_to_offset(img, len, opt + opt_size, sections, le__u32(dir), 72)
                            : -1;
    if (cli < 0)
        return fail(why, cap, "not a .NET assembly: no CLI header (a native library?)");
    uint32_t md_rva = le__u32(img + cli + 8), md_size = le__u32(img + cli + 12);
    int64_t root = rva_to_offset(img, len, opt + opt_size, sections, md_rva, md_size);
    if (root < 0)
        return fail(why, cap, "the CLI header's metadata lies outside the file");
    return read_streams(img + root, md_size, md, why, cap);
}
