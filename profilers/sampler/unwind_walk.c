/* unwind_walk.c - one stack walk from an interrupted context, in the signal handler. A pc in a
 * module with CFI steps by its rule (CFA, return address at CFA-8, rbp where saved); any other
 * pc (JIT-compiled code, stubs, a module without a usable FDE) steps by the frame pointer,
 * [rbp] = caller's rbp, [rbp+8] = return address, which the x64 JIT keeps in methods that set
 * up a frame. At the interrupted pc only, outside any module, a pc on `push rbp`, just after it
 * or on `ret` means the frame is not set up (or already torn down): the return address is on
 * top of the stack. Every stack read lies in [lo, hi), the stack pointer only grows: a bad
 * frame ends the walk.
 */
#include "unwind.h"


/* Reads of another frame's stack or of code are not the sanitizer's business: an instrumented
 * frame on the interrupted stack has poisoned redzones that are valid memory all the same. */
#if defined(__SANITIZE_ADDRESS__) || defined(__clang__)
#define NO_ASAN __attribute__((no_sanitize_address))
#else
#define NO_ASAN
#endif

/* The 8 bytes at a, when [a, a+8) lies in [lo, hi). */
static NO_ASAN int stack_word(uintptr_t a, uintptr_t lo, uintptr_t hi, uintptr_t *out)
{
    if (a < lo || a > hi || hi - a < 8 || a % 8)
        return 0;
    *out = *(const volatile uintptr_t *)a;
    return 1;
}

/* One CFI step; 1 on success (r updated), 0 when the frame ends the walk. */
static int cfi_step(const uw_rule_t *rule, uw_regs_t *r, uintptr_t lo, uintptr_t hi)
{
    uintptr_t cfa = (rule->cfa_reg == UW_REG_RSP ? r->sp : r->fp) + (uintptr_t)rule->cfa_off;
    uintptr_t ra, fp = r->fp;
    if (rule->ra_undefined || cfa <= r->sp || cfa > hi)
        return 0;
    if (!stack_word(cfa + (uintptr_t)rule->ra_off, lo, hi, &ra))
        return 0;
    if (rule->rbp_saved && !stack_word(cfa + (uintptr_t)rule->rbp_off, lo, hi, &fp))
        return 0;
    r->ip = ra, r->sp = cfa, r->fp = fp;
    return 1;
}

/* One frame-pointer step: [fp] the caller's fp, [fp+8] the return address. */
static int fp_step(uw_regs_t *r, uintptr_t lo, uintptr_t hi)
{
    uintptr_t next, ra;
    if (r->fp < r->sp || !stack_word(r->fp, lo, hi, &next) || !stack_word(r->fp + 8, lo, hi, &ra))
        return 0;
    r->sp = r->fp + 16, r->ip = ra, r->fp = next;
    return 1;
}

/* Whether code (not within 4 bytes of a page end) sets RBP from RSP: `mov rbp, rsp` in either
 * encoding (48 89 e5, 48 8b ec) or the JIT's `lea rbp, [rsp+disp8]` (48 8d 6c 24). */
static NO_ASAN int sets_rbp(const volatile uint8_t *code)
{
    if (code[0] != 0x48)
        return 0;
    return (code[1] == 0x89 && code[2] == 0xe5) || (code[1] == 0x8b && code[2] == 0xec) ||
           (code[1] == 0x8d && code[2] == 0x6c && code[3] == 0x24);
}

/* The interrupted pc in code without CFI, before its frame is set up or after it is torn down:
 * on `push rbp` (0x55) or `ret` (0xc3) the return address is [sp]; right after `push rbp`, on
 * the instruction that sets RBP, it is [sp+8]. Reads the code bytes at pc (it was just
 * running, so its page is mapped; pc-1 and pc+3 only on the same page). 1 when it stepped. */
static NO_ASAN int prologue_step(uw_regs_t *r, uintptr_t lo, uintptr_t hi)
{
    const volatile uint8_t *code = (const volatile uint8_t *)r->ip;
    uintptr_t ra, skip = 0, page_off = r->ip & 0xfff;
    if (code[0] == 0x55 || code[0] == 0xc3)
        skip = 0;
    else if (page_off != 0 && page_off <= 0xffc && code[-1] == 0x55 && sets_rbp(code))
        skip = 8;
    else
        return 0;
    if (!stack_word(r->sp + skip, lo, hi, &ra))
        return 0;
    r->sp += skip + 8, r->ip = ra;
    return 1;
}

/* A step from r by whichever rule applies to its pc. */
static int step(const uw_map_t *m, uw_regs_t *r, int leaf, uintptr_t lo, uintptr_t hi)
{
    uintptr_t pc = leaf ? r->ip : r->ip - 1; /* a return address: look inside the call */
    const uw_module_t *mod = uw_find(m, pc);
    uw_rule_t rule;
    if (mod && uw_rule_at(mod, pc, &rule) == 0)
        return cfi_step(&rule, r, lo, hi);
    if (leaf && !mod && prologue_step(r, lo, hi))
        return 1;
    return fp_step(r, lo, hi);
}

uint32_t uw_walk(const uw_map_t *m, uw_regs_t r, uintptr_t lo, uintptr_t hi, uint64_t *ips,
                 uint32_t max, uint32_t *cut)
{
    uint32_t n = 0;
    *cut = 0;
    if (max == 0)
        return 0;
    ips[n++] = r.ip;
    if (r.sp < lo || r.sp >= hi)
        return n;
    while (step(m, &r, n == 1, lo, hi) && r.ip >= 4096) {
        if (n == max) {
            *cut = 1;
            break;
        }
        ips[n++] = r.ip;
    }
    return n;
}
