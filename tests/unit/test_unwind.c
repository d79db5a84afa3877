/* The signal sampler's unwinder (profilers/sampler/unwind_*.c) outside any handler: its CFA
 * rules for every row of libc's and this binary's .eh_frame against what `readelf
 * --debug-dump=frames-interp` prints (readelf is the anchor); a hand-assembled CIE/FDE (the
 * DWARF spec's encoding of a gcc prologue); random bytes as CFI; a walk through functions
 * without frame pointers against the return addresses the compiler itself reports; and walks of
 * garbage stacks (loops, pointers off the stack, depth past the bound) that must end cleanly. */
#define _GNU_SOURCE
#include "test.h"
#include "elf_symbols.h"
#include "unwind.h"
#include "unwind_tests.h"

#include <dlfcn.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>

/* The module of the map whose path contains name. */
static const uw_module_t *module_named(const uw_map_t *m, const char *name)
{
    for (uint32_t i = 0; i < m->n; i++)
        if (strstr(m->mods[i].path, name))
            return &m->mods[i];
    return NULL;
}

typedef struct compare {
    long rows, mismatches, skipped;
    char first[512];
} compare_t;

/* One readelf row: columns as the header named them. Compares CFA and rbp with ours. */
static void compare_row(const uw_module_t *mod, char **cols, char **vals, int n, compare_t *c)
{
    uintptr_t pc = mod->base + strtoull(vals[0], NULL, 16);
    const char *rbp = "u", *cfa = vals[1];
    for (int i = 2; i < n; i++)
        if (strcmp(cols[i], "rbp") == 0)
            rbp = vals[i];
    int reg = strncmp(cfa, "rsp+", 4) == 0   ? UW_REG_RSP
              : strncmp(cfa, "rbp+", 4) == 0 ? UW_REG_RBP
                                             : -1;
    if (reg < 0) { /* exp: a DWARF expression, which we do not evaluate */
        c->skipped++;
        return;
    }
    uw_rule_t r;
    int ok = uw_rule_at(mod, pc, &r) == 0 && r.cfa_reg == reg && r.cfa_off == atoll(cfa + 4);
    if (ok && rbp[0] == 'c')
        ok = r.rbp_saved && r.rbp_off == atoll(rbp + 1);
    else if (ok)
        ok = !r.rbp_saved;
    c->rows++;
    if (!ok && c->mismatches++ == 0)
        snprintf(c->first, sizeof c->first, "%.256s: pc 0x%.20s CFA %.20s rbp %.20s", mod->path,
                 vals[0], cfa, rbp);
}

/* Splits a line into whitespace-separated words (modified in place). */
static int words(char *line, char **out, int cap)
{
    int n = 0;
    for (char *save = NULL, *w = strtok_r(line, " \t\n", &save); w && n < cap;
         w = strtok_r(NULL, " \t\n", &save))
        out[n++] = w;
    return n;
}

/* Runs readelf -wF on the module's file and compares every row it prints. */
static void compare_with_readelf(const uw_module_t *mod, compare_t *c)
{
    char cmd[600], line[1024], header[1024] = "";
    char *cols[64], *vals[64];
    int ncols = 0, in_fde = 0;
    snprintf(cmd, sizeof cmd, "readelf --debug-dump=frames-interp '%s' 2>/dev/null", mod->path);
    FILE *p = popen(cmd, "r");
    ASSERT(p != NULL);
    while (fgets(line, sizeof line, p)) {
        if (strstr(line, " LOC ") && strstr(line, "CFA")) {
            snprintf(header, sizeof header, "%s", line);
            ncols = words(header, cols, 64);
        } else if (strstr(line, " CIE") || strstr(line, " ZERO terminator")) {
            ncols = 0, in_fde = 0; /* a CIE's own table: not a code range */
        } else if (strstr(line, "FDE cie=")) {
            ncols = 0, in_fde = 1;
        } else if (ncols > 1 && in_fde) {
            int n = words(line, vals, 64);
            if (n == ncols && strspn(vals[0], "0123456789abcdef") == strlen(vals[0]))
                compare_row(mod, cols, vals, n, c);
        }
    }
    pclose(p);
}

TEST(unwind_cfa_rules_match_readelf_on_every_row_of_libc_and_this_binary)
{
    X64_ONLY();
    uw_map_t *m = uw_map_build();
    ASSERT(m != NULL);
    const char *names[] = {"libc.so.6", "unit_tests"};
    for (int i = 0; i < 2; i++) {
        const uw_module_t *mod = module_named(m, names[i]);
        compare_t c = {0};
        ASSERT_MSG(mod && mod->hdr && mod->count > 100, "%s: no search table", names[i]);
        compare_with_readelf(mod, &c);
        test_note("%s: %ld rows compared with readelf (%ld with an expression CFA skipped), %ld "
                  "differ", names[i], c.rows, c.skipped, c.mismatches);
        ASSERT_MSG(c.rows > 1000 && c.mismatches == 0, "%ld of %ld rows differ; first: %s",
                   c.mismatches, c.rows, c.first);
    }
    uw_map_free(m);
}

/* A module over buf (table at 0) whose one FDE, at buf+fde, covers code at `code`. */
static uw_module_t module_over(uint8_t *buf, size_t size, int32_t fde, uintptr_t code)
{
    uw_module_t mod;
    memset(&mod, 0, sizeof mod);
    const uint8_t hdr[4] = {1, 0x1b, 0x03, 0x3b};
    int32_t table[2] = {(int32_t)((intptr_t)code - (intptr_t)buf), fde};
    uint32_t count = 1, eh = 0;
    memcpy(buf, hdr, 4);
    memcpy(buf + 4, &eh, 4);
    memcpy(buf + 8, &count, 4);
    memcpy(buf + 12, table, 8);
    mod.hdr = buf, mod.table = (const int32_t *)(void *)(buf + 12), mod.count = 1;
    mod.data_lo = (uintptr_t)buf, mod.data_hi = (uintptr_t)buf + size;
    mod.lo = code, mod.hi = code + 64;
    return mod;
}

/* gcc's prologue `push rbp; mov rbp, rsp; ...` as DWARF 5 section 6.4 encodes it: a CIE
 * (zR, code align 1, data align -8, RA column 16, CFA = rsp+8, RA at CFA-8) and an FDE
 * (advance 1, CFA offset 16, rbp at CFA-16, advance 3, CFA register rbp). */
TEST(unwind_reads_a_hand_assembled_cie_and_fde_as_the_dwarf_spec_defines_them)
{
    X64_ONLY();
    /* The "code" is never run, only named: it sits beside the table, as int32 offsets need. */
    uint8_t *buf = calloc(1, 160), *code = buf + 96;
    const uint8_t cie[] = {20, 0, 0, 0, 0, 0, 0, 0, 1, 'z', 'R', 0, 1, 0x78, 16, 1, 0x1b,
                           0x0c, 7, 8, 0x90, 1, 0, 0};
    uint8_t fde[] = {24, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 64, 0, 0, 0, 0,
                     0x41, 0x0e, 16, 0x86, 2, 0x43, 0x0d, 6, 0, 0, 0};
    uint32_t back = 48 - 20; /* from the FDE's CIE pointer field (buf+48) to the CIE */
    int32_t pcrel = (int32_t)((intptr_t)code - (intptr_t)(buf + 20 + 24 + 8));
    memcpy(buf + 20, cie, sizeof cie);
    memcpy(fde + 4, &back, 4);
    memcpy(fde + 8, &pcrel, 4);
    memcpy(buf + 44, fde, sizeof fde);
    uw_module_t mod = module_over(buf, 96, 44, (uintptr_t)code);
    mod.data_hi = (uintptr_t)buf + 96;
    uw_rule_t r;
    ASSERT_EQ(uw_rule_at(&mod, (uintptr_t)code, &r), 0);
    ASSERT(r.cfa_reg == UW_REG_RSP && r.cfa_off == 8 && !r.rbp_saved && r.ra_off == -8);
    ASSERT_EQ(uw_rule_at(&mod, (uintptr_t)code + 1, &r), 0);
    ASSERT(r.cfa_reg == UW_REG_RSP && r.cfa_off == 16 && r.rbp_saved && r.rbp_off == -16);
    ASSERT_EQ(uw_rule_at(&mod, (uintptr_t)code + 40, &r), 0);
    ASSERT(r.cfa_reg == UW_REG_RBP && r.cfa_off == 16 && r.rbp_saved);
    ASSERT(r.start == (uintptr_t)code && r.end == (uintptr_t)code + 64);
    ASSERT_NE(uw_rule_at(&mod, (uintptr_t)code + 64, &r), 0); /* past the FDE's range */
    free(buf);
}

/* Random bytes where the CIE and FDE should be, in a buffer of exactly the module's size (ASan
 * sees any read past it): every lookup answers, none reads outside. */
TEST(unwind_reads_random_bytes_as_cfi_without_leaving_the_segment)
{
    X64_ONLY();
    srand(25);
    for (int round = 0; round < 20000; round++) {
        size_t size = 20 + (size_t)(rand() % 80);
        uint8_t *buf = malloc(size), *code = buf; /* offsets from the table stay small */
        for (size_t i = 0; i < size; i++)
            buf[i] = (uint8_t)rand();
        uw_module_t mod = module_over(buf, size, 20 + rand() % 8, (uintptr_t)code);
        uw_rule_t r;
        uintptr_t s, e;
        uw_rule_at(&mod, (uintptr_t)code + (uintptr_t)(rand() % 64), &r);
        uw_fde_at(&mod, (uintptr_t)code, &s, &e);
        free(buf);
    }
}

#if defined(__clang__) /* clang has no per-function optimize(): its -O2 omits frame pointers */
#define NOFP __attribute__((noinline))
#else
#define NOFP __attribute__((noinline, optimize("omit-frame-pointer")))
#endif

static uint64_t walked[64];
static uint32_t walked_n;
static uintptr_t expected[4];

/* This thread's stack: [lo, hi). */
static void stack_bounds(uintptr_t *lo, uintptr_t *hi)
{
    pthread_attr_t attr;
    void *addr;
    size_t size;
    ASSERT(pthread_getattr_np(pthread_self(), &attr) == 0);
    ASSERT(pthread_attr_getstack(&attr, &addr, &size) == 0);
    pthread_attr_destroy(&attr);
    *lo = (uintptr_t)addr, *hi = (uintptr_t)addr + size;
}

/* Takes its own context, as a signal handler gets it, and walks from there. */
static NOFP void level3(volatile int *sink)
{
    ucontext_t uc;
    uintptr_t lo, hi;
    uint32_t cut;
    uint64_t mask[UW_MASK_WORDS(64)];
    expected[3] = (uintptr_t)__builtin_return_address(0);
    getcontext(&uc);
    stack_bounds(&lo, &hi);
#if defined(__x86_64__)
    uw_map_t *m = uw_map_build();
    uw_regs_t r = {(uintptr_t)uc.uc_mcontext.gregs[REG_RIP],
                   (uintptr_t)uc.uc_mcontext.gregs[REG_RSP],
                   (uintptr_t)uc.uc_mcontext.gregs[REG_RBP]};
    walked_n = uw_walk(m, r, r.sp, hi, walked, mask, 64, &cut);
    uw_map_free(m);
#else
    (void)cut, (void)lo;
#endif
    (*sink)++;
}

static NOFP void level2(volatile int *sink)
{
    volatile char pad[40];
    pad[0] = 1;
    expected[2] = (uintptr_t)__builtin_return_address(0);
    level3(sink);
    (*sink) += pad[0];
}

static NOFP void level1(volatile int *sink)
{
    volatile char pad[72];
    pad[0] = 1;
    expected[1] = (uintptr_t)__builtin_return_address(0);
    level2(sink);
    (*sink) += pad[0];
}

TEST(unwind_walks_through_functions_without_frame_pointers_to_every_caller)
{
    X64_ONLY();
    volatile int sink = 0;
    level1(&sink);
    ASSERT_MSG(walked_n >= 4, "the walk stopped after %u frames", walked_n);
    ASSERT_EQ(walked[1], (uint64_t)expected[3]);
    ASSERT_EQ(walked[2], (uint64_t)expected[2]);
    ASSERT_EQ(walked[3], (uint64_t)expected[1]);
    test_note("%u frames from level3 to the thread's start", walked_n);
}

/* A readable pc outside every module: no CFI, no prologue bytes (zeros). */
static const uint8_t not_code[64];

TEST(unwind_of_garbage_stacks_ends_without_faulting)
{
    X64_ONLY();
    static uint64_t stack[1024];
    uw_map_t *m = uw_map_build();
    uintptr_t lo = (uintptr_t)stack, hi = lo + sizeof stack;
    uint64_t ips[128], mask[UW_MASK_WORDS(128)];
    uint32_t cut;
    /* A frame-pointer chain that points to itself. */
    stack[0] = lo, stack[1] = 0x5000;
    uw_regs_t loop = {(uintptr_t)not_code, lo, lo};
    ASSERT(uw_walk(m, loop, lo, hi, ips, mask, 128, &cut) <= 2 && !cut);
    /* A frame pointer off the stack. */
    uw_regs_t off = {(uintptr_t)not_code, lo, hi + 4096};
    ASSERT_EQ(uw_walk(m, off, lo, hi, ips, mask, 128, &cut), 1u);
    /* A valid chain deeper than the bound: cut at max. */
    for (int i = 0; i < 500; i++)
        stack[2 * i] = lo + 16 * (uintptr_t)(i + 1), stack[2 * i + 1] = (uintptr_t)not_code;
    uw_regs_t deep = {(uintptr_t)not_code, lo, lo};
    ASSERT_EQ(uw_walk(m, deep, lo, hi, ips, mask, 128, &cut), 128u);
    ASSERT(cut);
    /* Random words, the pc in real code with CFI (this function) or in none. */
    srand(25);
    for (int round = 0; round < 20000; round++) {
        for (int i = 0; i < 1024; i++)
            stack[i] = rand() % 3 ? lo + (uintptr_t)(rand() % 8300) - 50
                                  : ((uint64_t)rand() << 32) | (uint64_t)rand();
        uintptr_t pc = round % 2 ? (uintptr_t)not_code
                                 : (uintptr_t)&uw_walk + (uintptr_t)(rand() % 64);
        uw_regs_t r = {pc, lo + (uintptr_t)(rand() % 64) * 8, stack[rand() % 1024]};
        ASSERT(uw_walk(m, r, lo, hi, ips, mask, 128, &cut) <= 128);
    }
    uw_map_free(m);
}

/* `push rbp; lea rbp, [rsp+16]; ...; ret` in x86-64 machine code, outside every module (no
 * CFI): interrupted on `push rbp` or `ret` the return address is on top of the stack, after
 * `push rbp` one word above it; in the body the frame pointer rules. */
TEST(unwind_finds_the_caller_of_a_leaf_interrupted_in_its_prologue_or_on_ret)
{
    X64_ONLY();
    static uint8_t code[64] __attribute__((aligned(64))) = {0x55, 0x48, 0x8d, 0x6c, 0x24, 0x10,
                                                            0x90, 0xc3};
    static uint64_t stack[8] __attribute__((aligned(16)));
    static const uint8_t elsewhere[16]; /* the callers' "code": zeros, no prologue */
    uintptr_t lo = (uintptr_t)stack, hi = lo + sizeof stack;
    uintptr_t caller = (uintptr_t)elsewhere + 4, frame_caller = (uintptr_t)elsewhere + 8;
    uint64_t ips[8], mask[UW_MASK_WORDS(8)];
    uint32_t cut;
    uw_map_t *m = uw_map_build();
    stack[0] = caller, stack[1] = 0;             /* on push rbp / ret: [rsp] = return address */
    stack[4] = 0, stack[5] = frame_caller;       /* the frame rbp points to */
    uw_regs_t on_push = {(uintptr_t)&code[0], lo, lo + 32};
    ASSERT(uw_walk(m, on_push, lo, hi, ips, mask, 8, &cut) >= 2 && ips[1] == caller);
    uw_regs_t on_ret = {(uintptr_t)&code[7], lo, lo + 32};
    ASSERT(uw_walk(m, on_ret, lo, hi, ips, mask, 8, &cut) >= 2 && ips[1] == caller);
    stack[0] = 0x1234, stack[1] = caller;        /* after push rbp: the saved rbp, then the RA */
    uw_regs_t after_push = {(uintptr_t)&code[1], lo, lo + 32};
    ASSERT(uw_walk(m, after_push, lo, hi, ips, mask, 8, &cut) >= 2 && ips[1] == caller);
    uw_regs_t in_body = {(uintptr_t)&code[6], lo, lo + 32};
    ASSERT(uw_walk(m, in_body, lo, hi, ips, mask, 8, &cut) >= 2 && ips[1] == frame_caller);
    uw_map_free(m);
}

/* Names from the files: a static function of this binary through its .symtab (the compiler's
 * own address as the anchor), an export of libc through .dynsym, and libc's memset, an IFUNC,
 * at the implementation the loader chose (dlsym's answer), which no symbol of the stripped
 * file covers. */
TEST(elf_symbols_name_a_static_function_an_export_and_an_ifunc_implementation)
{
    X64_ONLY();
    uw_map_t *m = uw_map_build();
    elf_syms_t self, libc;
    ASSERT(m != NULL);
    ASSERT_EQ(elf_syms_load(&self, module_named(m, "unit_tests")), 0);
    ASSERT_EQ(elf_syms_load(&libc, module_named(m, "libc.so.6")), 0);
    const char *name = elf_syms_find(&self, (uintptr_t)&level2 + 1);
    ASSERT_MSG(name && strcmp(name, "level2") == 0, "level2 reads %s", name ? name : "(null)");
    void *h = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD); /* not RTLD_DEFAULT: ASan's
                                                            * interceptors come first there */
    ASSERT(h != NULL);
    name = elf_syms_find(&libc, (uintptr_t)dlsym(h, "getpid"));
    ASSERT_MSG(name && strstr(name, "getpid"), "getpid reads %s", name ? name : "(null)");
    uintptr_t impl = (uintptr_t)dlsym(h, "memset");
    dlclose(h);
    name = elf_syms_find(&libc, impl + 8);
    test_note("memset's implementation at libc+0x%lx reads %s",
              (unsigned long)(impl - module_named(m, "libc.so.6")->base), name ? name : "(null)");
    ASSERT_MSG(name && strcmp(name, "memset") == 0, "memset reads %s", name ? name : "(null)");
    ASSERT(elf_syms_find(&libc, module_named(m, "libc.so.6")->base) == NULL); /* the ELF header */
    elf_syms_free(&self);
    elf_syms_free(&libc);
    uw_map_free(m);
}

/* A stripped copy of this binary has no name for a static function; with its debug file beside
 * it (objcopy --only-keep-debug, saved as COPY.dbg as dotnet-symbol saves libcoreclr.so.dbg) it
 * has the compiler's. */
TEST(elf_symbols_read_a_debug_file_beside_a_stripped_library)
{
    X64_ONLY();
    uw_map_t *m = uw_map_build();
    const uw_module_t *self = module_named(m, "unit_tests");
    char dir[] = "/tmp/clra-unwind-XXXXXX", cmd[1024];
    elf_syms_t syms;
    ASSERT(self && mkdtemp(dir));
    uw_module_t copy = *self;
    snprintf(copy.path, sizeof copy.path, "%s/lib", dir);
    snprintf(cmd, sizeof cmd, "objcopy --strip-all '%s' %s/lib", self->path, dir);
    if (system(cmd) != 0)
        SKIP("objcopy is not installed");
    ASSERT_EQ(elf_syms_load(&syms, &copy), 0);
    ASSERT(elf_syms_find(&syms, (uintptr_t)&level2 + 1) == NULL);
    elf_syms_free(&syms);
    snprintf(cmd, sizeof cmd, "objcopy --only-keep-debug '%s' %s/lib.dbg", self->path, dir);
    ASSERT_EQ(system(cmd), 0);
    ASSERT_EQ(elf_syms_load(&syms, &copy), 0);
    const char *name = elf_syms_find(&syms, (uintptr_t)&level2 + 1);
    ASSERT_MSG(name && strcmp(name, "level2") == 0, "level2 reads %s", name ? name : "(null)");
    elf_syms_free(&syms);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ASSERT_EQ(system(cmd), 0);
    uw_map_free(m);
}
