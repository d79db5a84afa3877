/* hook_check.c - does a file define what ApplyStartupHook will call? On .NET 10 a hook that
 * cannot be loaded, or lacks StartupHook.Initialize, is an unhandled exception that kills the
 * target (docs/runtime-behaviour.md), so the check runs before the runtime is asked. It reads the
 * metadata tables 0x00-0x06 (ECMA-335 II.22) and nothing else. */
#define _GNU_SOURCE
#include "assembly/assembly.h"
#include "common/le_bytes.h"
#include "clrattach.h"
#include "util/file_io.h"
#include "util/status.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum {
    T_MODULE = 0x00, T_TYPEREF = 0x01, T_TYPEDEF = 0x02, T_FIELDPTR = 0x03, T_FIELD = 0x04,
    T_METHODPTR = 0x05, T_METHODDEF = 0x06, T_PARAM = 0x08, T_MODULEREF = 0x1A,
    T_TYPESPEC = 0x1B, T_ASSEMBLY = 0x20, T_ASSEMBLYREF = 0x23,
};
#define TYPE_VISIBILITY_MASK 0x7u /* 0 NotPublic, 1 Public; higher values are nested types */
#define METHOD_STATIC 0x10u
#define MAX_HOOK_FILE (256u << 20)

/* Where the TypeDef and MethodDef rows are and how wide their columns are. */
typedef struct tables {
    uint32_t rows[64];
    unsigned str, blob, field_idx, method_idx, extends;
    size_t typedef_size, method_size;
    const uint8_t *typedefs, *methods;
} tables_t;

static uint32_t rd(const uint8_t *p, unsigned size)
{
    return size == 4 ? le__u32(p) : le__u16(p);
}

static int fail(char *why, size_t cap, const char *text)
{
    snprintf(why, cap, "%s", text);
    return -1;
}

/* Index width into one table (II.24.2.6): 2 bytes below 2^16 rows. */
static unsigned idx(const tables_t *t, int table)
{
    return t->rows[table] < 0x10000 ? 2 : 4;
}

/* Coded index width: the tag takes tag_bits of a 2-byte index. */
static unsigned coded(const tables_t *t, const int *tables, int n, int tag_bits)
{
    for (int i = 0; i < n; i++)
        if (t->rows[tables[i]] >= (1u << (16 - tag_bits)))
            return 4;
    return 2;
}

/* Row counts, heap widths, then the offsets of the two tables the check reads. */
static int read_tables(const clra__span_t *s, tables_t *t, char *why, size_t cap)
{
    static const int scope[] = {T_MODULE, T_MODULEREF, T_ASSEMBLYREF, T_TYPEREF};
    static const int type_ref[] = {T_TYPEDEF, T_TYPEREF, T_TYPESPEC};
    memset(t, 0, sizeof *t);
    if (s->n < 24)
        return fail(why, cap, "the metadata tables stream is cut short");
    uint64_t valid = rd(s->p + 8, 4) | (uint64_t)rd(s->p + 12, 4) << 32, pos = 24;
    for (int i = 0; i < 64; i++) {
        if (!(valid >> i & 1))
            continue;
        if (pos + 4 > s->n)
            return fail(why, cap, "the metadata row counts are cut short");
        t->rows[i] = rd(s->p + pos, 4);
        pos += 4;
    }
    pos += (s->p[6] & 0x40) ? 4 : 0; /* "extra data" after the counts */
    if (t->rows[T_FIELDPTR] || t->rows[T_METHODPTR])
        return fail(why, cap, "the assembly has edit-and-continue metadata, which this check "
                              "does not read; rebuild it normally");
    unsigned guid = s->p[6] & 2 ? 4 : 2;
    t->str = s->p[6] & 1 ? 4 : 2;
    t->blob = s->p[6] & 4 ? 4 : 2;
    t->extends = coded(t, type_ref, 3, 2);
    t->field_idx = idx(t, T_FIELD);
    t->method_idx = idx(t, T_METHODDEF);
    t->typedef_size = 4 + 2 * t->str + t->extends + t->field_idx + t->method_idx;
    t->method_size = 8 + t->str + t->blob + idx(t, T_PARAM);
    uint64_t off = pos + (uint64_t)t->rows[T_MODULE] * (2 + t->str + 3 * guid) +
                   (uint64_t)t->rows[T_TYPEREF] * (coded(t, scope, 4, 2) + 2 * t->str);
    t->typedefs = s->p + (off <= s->n ? off : 0);
    off += (uint64_t)t->rows[T_TYPEDEF] * t->typedef_size +
           (uint64_t)t->rows[T_FIELD] * (2 + t->str + t->blob);
    t->methods = s->p + (off <= s->n ? off : 0);
    off += (uint64_t)t->rows[T_METHODDEF] * t->method_size;
    if (off > s->n)
        return fail(why, cap, "the metadata tables run past their stream");
    return 0;
}

/* A NUL-terminated string of the #Strings heap, or NULL when the index or text is outside. */
static const char *heap_string(const clra__span_t *h, uint32_t at)
{
    if (at >= h->n || !memchr(h->p + at, 0, h->n - at))
        return NULL;
    return (const char *)h->p + at;
}

/* An ECMA-335 compressed unsigned integer (II.23.2); -1 when cut short. */
static int64_t compressed(const uint8_t *p, size_t n, size_t *pos)
{
    if (*pos >= n)
        return -1;
    uint8_t b = p[*pos];
    size_t len = (b & 0x80) == 0 ? 1 : (b & 0xC0) == 0x80 ? 2 : (b & 0xE0) == 0xC0 ? 4 : 0;
    if (!len || len > n - *pos)
        return -1;
    uint32_t v = len == 1 ? b : len == 2 ? (b & 0x3Fu) : (b & 0x1Fu);
    for (size_t i = 1; i < len; i++)
        v = v << 8 | p[*pos + i];
    *pos += len;
    return v;
}

/* Whether a MethodDef signature blob reads `void M()`: default calling convention (no this,
 * not generic, not vararg), no parameters, void return. */
static int void_no_params(const clra__span_t *blob, uint32_t at)
{
    size_t pos = at;
    int64_t len = compressed(blob->p, blob->n, &pos);
    if (len < 3 || (uint64_t)len > blob->n - pos)
        return 0;
    const uint8_t *sig = blob->p + pos;
    size_t p = 1;
    return sig[0] == 0x00 && compressed(sig, (size_t)len, &p) == 0 && p < (size_t)len &&
           sig[p] == 0x01;
}

/* Looks through the type's methods [first, end) for a usable Initialize. 0 found, 1 only
 * unusable ones, 2 none by that name, -1 broken metadata. */
static int find_initialize(const tables_t *t, const clra__metadata_t *md, uint32_t first,
                           uint32_t end)
{
    int seen = 0;
    if (first < 1 || end < first || end > t->rows[T_METHODDEF] + 1)
        return -1;
    for (uint32_t m = first; m < end; m++) {
        const uint8_t *row = t->methods + (size_t)(m - 1) * t->method_size;
        const char *name = heap_string(&md->strings, rd(row + 8, t->str));
        if (!name)
            return -1;
        if (strcmp(name, "Initialize") != 0)
            continue;
        seen = 1;
        uint32_t sig = rd(row + 8 + t->str, t->blob);
        if ((rd(row + 6, 2) & METHOD_STATIC) && void_no_params(&md->blob, sig))
            return 0;
    }
    return seen ? 1 : 2;
}

/* Finds the top-level StartupHook in the global namespace and judges its Initialize. */
static int find_hook(const tables_t *t, const clra__metadata_t *md, char *why, size_t cap)
{
    const char *elsewhere = NULL;
    size_t name_at = 4, ns_at = 4 + t->str, list_at = 4 + 2 * t->str + t->extends + t->field_idx;
    for (uint32_t i = 0; i < t->rows[T_TYPEDEF]; i++) {
        const uint8_t *row = t->typedefs + (size_t)i * t->typedef_size;
        const char *name = heap_string(&md->strings, rd(row + name_at, t->str));
        const char *ns = heap_string(&md->strings, rd(row + ns_at, t->str));
        if (!name || !ns)
            return fail(why, cap, "a type name lies outside the #Strings heap");
        if (strcmp(name, "StartupHook") != 0)
            continue;
        if (ns[0] || (rd(row, 4) & TYPE_VISIBILITY_MASK) > 1) {
            elsewhere = ns[0] ? ns : "another class";
            continue;
        }
        uint32_t end = i + 1 < t->rows[T_TYPEDEF]
                           ? rd(row + t->typedef_size + list_at, t->method_idx)
                           : t->rows[T_METHODDEF] + 1;
        int rc = find_initialize(t, md, rd(row + list_at, t->method_idx), end);
        if (rc == 0)
            return 0;
        if (rc < 0)
            return fail(why, cap, "StartupHook's method list lies outside the metadata");
        return fail(why, cap, rc == 1 ? "StartupHook.Initialize must be `static void "
                                        "Initialize()`: static, no parameters, not generic, "
                                        "returning void"
                                      : "the class StartupHook has no Initialize method");
    }
    if (elsewhere) {
        snprintf(why, cap, "StartupHook is declared inside %s; the runtime only looks for it "
                 "outside any namespace or class", elsewhere);
        return -1;
    }
    return fail(why, cap, "the assembly has no class StartupHook (outside any namespace) with "
                          "`static void Initialize()`");
}

int clra__hook_check_image(const uint8_t *img, size_t len, char *why, size_t cap)
{
    clra__metadata_t md;
    tables_t t;
    if (clra__pe_metadata(img, len, &md, why, cap) != 0 ||
        read_tables(&md.tables, &t, why, cap) != 0)
        return -1;
    if (t.rows[T_ASSEMBLY] != 1)
        return fail(why, cap, "a module without an assembly manifest (a .netmodule?) cannot "
                              "be loaded as a startup hook");
    return find_hook(&t, &md, why, cap);
}

int clra_startup_hook_check(const char *path, clra_status_t *st)
{
    clra_status_t local;
    struct stat sb;
    char why[256];
    if (!st)
        st = &local;
    memset(st, 0, sizeof *st);
    int fd = path ? open(path, O_RDONLY | CLRA_O_BINARY | CLRA_O_NONBLOCK | CLRA_O_CLOEXEC) : -1; /* a FIFO cannot hang us */
    if (fd < 0 || fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode) ||
        (unsigned long long)sb.st_size > MAX_HOOK_FILE || sb.st_size == 0) {
        int err = fd < 0 ? errno : 0;
        st->sys_errno = err;
        clra__detail(st, "%s: %s", path ? path : "(null)",
                     err ? strerror(err) : "not a regular file of 1 byte to 256 MiB");
        if (fd >= 0)
            close(fd);
        return err == EACCES ? CLRA_EACCES : CLRA_EINVAL;
    }
    void *img = clra__map_file(fd, (size_t)sb.st_size); /* 256 MiB at most */
    int failed = img == NULL;
    close(fd);
    if (failed) {
        st->sys_errno = errno;
        clra__detail(st, "cannot read %s: %s", path, strerror(errno));
        return CLRA_EIO;
    }
    int rc = clra__hook_check_image(img, (size_t)sb.st_size, why, sizeof why);
    clra__unmap_file(img, (size_t)sb.st_size);
    if (rc)
        clra__detail(st, "%s: %s", path, why);
    return rc ? CLRA_EINVAL : 0;
}
