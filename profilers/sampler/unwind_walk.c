/* unwind_walk.c - one stack walk from an interrupted context, in the signal handler. A pc in a
 * module with CFI steps by its rule (CFA, return address at CFA-8, rbp where saved); any other
 * pc (JIT-compiled code, stubs, a module without a usable FDE) steps by the frame pointer,
 * [rbp] = caller's rbp, [rbp+8] = return address, which the x64 JIT keeps in methods that set
 * up a frame. At the interrupted pc only, outside any module, a pc on `push rbp`, just after it
 * or on `ret` means the frame is not set up (or already torn down): the return address is on
 * top of the stack. Every stack read lies in [lo, hi), the stack pointer only grows: a bad
 * frame ends the walk. After a frame-pointer step the gap up to the next frame is searched
 * (bounded) for a frame record the chain skipped, which on-stack replacement leaves.
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

enum { STEP_END, STEP_OTHER, STEP_FP };

/* A step from r by whichever rule applies to its pc: STEP_FP when it followed the frame
 * pointer from code outside every module (JIT code, where on-stack replacement happens),
 * STEP_OTHER by CFI, a prologue or a module's frame pointer, STEP_END when the walk ends. */
static int step(const uw_map_t *m, uw_regs_t *r, int leaf, uintptr_t lo, uintptr_t hi)
{
    uintptr_t pc = leaf ? r->ip : r->ip - 1; /* a return address: look inside the call */
    const uw_module_t *mod = uw_find(m, pc);
    uw_rule_t rule;
    if (mod && uw_rule_at(mod, pc, &rule) == 0)
        return cfi_step(&rule, r, lo, hi) ? STEP_OTHER : STEP_END;
    if (leaf && !mod && prologue_step(r, lo, hi))
        return STEP_OTHER;
    if (!fp_step(r, lo, hi))
        return STEP_END;
    return mod ? STEP_OTHER : STEP_FP;
}

/* Whether v may be a return address: a user-space address, not one on the walked stack. */
static int plausible_ra(uintptr_t v, uintptr_t lo, uintptr_t hi)
{
    return v >= 0x10000 && v < ((uintptr_t)1 << 47) && (v < lo || v >= hi);
}

/* A method entered by on-stack replacement pushes, as its saved rbp, the rbp its tier-0 frame
 * had saved, and as its return address a pseudo one inside the tier-0 code: the chain from its
 * frame f goes to next = [f] and skips the tier-0 frame's record {next, return address into the
 * tier-0 method's caller}, which still lies between. This searches the words from f + 16 (past
 * f's own record) up to next, from next down (the record sits just below the caller's frame),
 * at most UW_SCAN_WORDS and what is left of *budget. The return address found, or 0. */
static uintptr_t skipped_record(uintptr_t f, uintptr_t next, uintptr_t lo, uintptr_t hi,
                                uint32_t *budget)
{
    uintptr_t w, ra;
    if (next % 8 || next <= f + 32 || next > hi)
        return 0;
    for (uintptr_t x = next - 16, left = UW_SCAN_WORDS; x >= f + 16 && left && *budget;
         x -= 8, left--) {
        (*budget)--;
        if (stack_word(x, lo, hi, &w) && w == next && stack_word(x + 8, lo, hi, &ra) &&
            plausible_ra(ra, lo, hi))
            return ra;
    }
    return 0;
}

/* Appends ip (inserted: marked in the mask) unless the walk is full (*cut set); 1 if added. */
static int append(uint64_t *ips, uint64_t *inserted, uint32_t *n, uint32_t max, uintptr_t ip,
                  int was_inserted, uint32_t *cut)
{
    if (*n == max) {
        *cut = 1;
        return 0;
    }
    if (was_inserted)
        inserted[*n / 64] |= 1ULL << (*n % 64);
    ips[(*n)++] = ip;
    return 1;
}

uint32_t uw_walk(const uw_map_t *m, uw_regs_t r, uintptr_t lo, uintptr_t hi, uint64_t *ips,
                 uint64_t *inserted, uint32_t max, uint32_t *cut)
{
    uint32_t n = 0, budget = UW_SCAN_BUDGET;
    *cut = 0;
    for (uint32_t i = 0; i < UW_MASK_WORDS(max); i++)
        inserted[i] = 0;
    if (max == 0)
        return 0;
    ips[n++] = r.ip;
    if (r.sp < lo || r.sp >= hi)
        return n;
    for (;;) {
        uintptr_t f = r.fp;
        int how = step(m, &r, n == 1, lo, hi);
        if (how == STEP_END || r.ip < 4096 || !append(ips, inserted, &n, max, r.ip, 0, cut))
            break;
        uintptr_t skipped = how == STEP_FP ? skipped_record(f, r.fp, lo, hi, &budget) : 0;
        if (skipped && !append(ips, inserted, &n, max, skipped, 1, cut))
            break;
    }
    return n;
}
