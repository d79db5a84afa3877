/* unwind_cfi.c - the CFA rule at a pc, read from a module's .eh_frame_hdr search table and the
 * CIE/FDE it points to, in the signal handler: no allocation, no lock, no call out. Every byte
 * read is checked against the mapped segment that holds the tables; anything unexpected (a
 * DWARF expression as CFA, an indirect pointer, too many instructions) answers -1 and the walk
 * falls back to the frame pointer or stops.
 */
#include "unwind.h"

#include <string.h>

#define MAX_OPS 2048   /* CFA instructions interpreted for one pc */
#define MAX_STATES 8   /* DW_CFA_remember_state depth */

/* A bounded cursor over mapped bytes; ok falls to 0 at the first read out of [lo, hi). */
typedef struct cur {
    uintptr_t p, lo, hi;
    int ok;
} cur_t;

/* Whether n bytes can be read at the cursor; clears ok (for good) when not. */
static int have(cur_t *c, size_t n)
{
    if (!c->ok || c->p < c->lo || c->p > c->hi || c->hi - c->p < n)
        c->ok = 0;
    return c->ok;
}

/* n little-endian bytes (0 past the end): unaligned reads, as .eh_frame needs. */
static uint64_t rd(cur_t *c, size_t n)
{
    uint64_t v = 0;
    if (!have(c, n))
        return 0;
    memcpy(&v, (const void *)c->p, n); /* little-endian host */
    c->p += n;
    return v;
}

/* An unsigned LEB128 (DWARF 5 7.6); a value wider than 64 bits stops the cursor. */
static uint64_t uleb(cur_t *c)
{
    uint64_t v = 0;
    for (unsigned shift = 0; shift < 64; shift += 7) {
        uint8_t b = (uint8_t)rd(c, 1);
        v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80) || !c->ok)
            return v;
    }
    c->ok = 0;
    return 0;
}

/* A signed LEB128, sign-extended from its last byte's bit 6. */
static int64_t sleb(cur_t *c)
{
    int64_t v = 0;
    unsigned shift = 0;
    uint8_t b;
    do {
        b = (uint8_t)rd(c, 1);
        if (shift < 64)
            v |= (int64_t)((uint64_t)(b & 0x7f) << shift);
        shift += 7;
    } while ((b & 0x80) && c->ok && shift < 70);
    if (shift < 64 && (b & 0x40))
        v |= (int64_t)(~0ULL << shift);
    return v;
}

/* Skips a block preceded by its ULEB128 length. */
static void skip(cur_t *c)
{
    uint64_t n = uleb(c);
    if (have(c, n))
        c->p += n;
}

/* A pointer in encoding enc (DW_EH_PE_*): absolute or pc-relative, no indirection. */
static uintptr_t ptr(cur_t *c, uint8_t enc)
{
    uintptr_t at = c->p;
    uint64_t v;
    switch (enc & 0x0f) {
    case 0x00: v = rd(c, 8); break;
    case 0x01: v = uleb(c); break;
    case 0x02: v = rd(c, 2); break;
    case 0x03: v = rd(c, 4); break;
    case 0x04: v = rd(c, 8); break;
    case 0x09: v = (uint64_t)sleb(c); break;
    case 0x0a: v = (uint64_t)(int64_t)(int16_t)rd(c, 2); break;
    case 0x0b: v = (uint64_t)(int64_t)(int32_t)rd(c, 4); break;
    case 0x0c: v = rd(c, 8); break;
    default: c->ok = 0; return 0;
    }
    if ((enc & 0x70) == 0x10)
        v += at;
    else if ((enc & 0x70) != 0)
        c->ok = 0; /* textrel, datarel, funcrel, aligned: not used in .eh_frame FDEs */
    if (enc & 0x80)
        c->ok = 0;
    return (uintptr_t)v;
}

/* A CIE's fields the FDE needs. */
typedef struct cie {
    uint64_t code_align;
    int64_t data_align;
    uint64_t ra_reg;
    uint8_t fde_enc;
    int has_aug;
    uintptr_t insns, end;
} cie_t;

/* Reads a record's length; *end gets where it ends. 0 when the record is bad or a terminator. */
static int record_len(cur_t *c, uintptr_t *end)
{
    uint64_t len = rd(c, 4);
    if (len == 0xffffffffULL)
        len = rd(c, 8);
    if (!c->ok || len == 0 || len > c->hi - c->p)
        return 0;
    *end = c->p + len;
    return 1;
}

/* Skips the augmentation data of a CIE with augmentation string aug. */
static void cie_augment(cur_t *c, const char *aug, size_t n, cie_t *out)
{
    out->fde_enc = 0;
    out->has_aug = n > 0 && aug[0] == 'z';
    if (!out->has_aug)
        return;
    uint64_t alen = uleb(c);
    uintptr_t after = c->p + alen;
    for (size_t i = 1; i < n && c->ok; i++) {
        if (aug[i] == 'R')
            out->fde_enc = (uint8_t)rd(c, 1);
        else if (aug[i] == 'L')
            rd(c, 1);
        else if (aug[i] == 'P') {
            uint8_t enc = (uint8_t)rd(c, 1);
            ptr(c, enc & 0x7f); /* the personality routine: read past, never followed */
        } else if (aug[i] != 'S' && aug[i] != 'B')
            break;
    }
    c->p = after;
}

/* The CIE at `at`: alignment factors, return-address column, FDE pointer encoding, and its
 * initial instructions' span. 0, or -1 (not a CIE, or an augmentation it cannot skip). */
static int parse_cie(cur_t base, uintptr_t at, cie_t *out)
{
    cur_t c = base;
    uintptr_t end;
    c.p = at;
    if (!record_len(&c, &end) || rd(&c, 4) != 0)
        return -1;
    uint8_t version = (uint8_t)rd(&c, 1);
    char aug[8];
    size_t n = 0;
    for (char ch; (ch = (char)rd(&c, 1)) != 0 && c.ok;)
        if (n < sizeof aug)
            aug[n++] = ch;
    if (n == sizeof aug || (n && aug[0] != 'z'))
        return -1;
    out->code_align = uleb(&c);
    out->data_align = sleb(&c);
    out->ra_reg = version == 1 ? rd(&c, 1) : uleb(&c);
    cie_augment(&c, aug, n, out);
    out->insns = c.p, out->end = end;
    return c.ok && c.p <= end ? 0 : -1;
}

/* The interpreter's state: CFA and the two registers the walk restores. */
typedef struct row {
    int cfa_reg, cfa_expr;
    int64_t cfa_off;
    int rbp_how, ra_how; /* 0 same value, 1 at CFA+off, 2 undefined, 3 unsupported */
    int64_t rbp_off, ra_off;
} row_t;

/* Sets register reg's rule (only rbp and the return address are kept). */
static void set_reg(row_t *r, uint64_t reg, uint64_t ra_reg, int how, int64_t off)
{
    if (reg == UW_REG_RBP)
        r->rbp_how = how, r->rbp_off = off;
    else if (reg == ra_reg)
        r->ra_how = how, r->ra_off = off;
}

/* The initial-instruction rules of reg, for DW_CFA_restore. */
static void restore_reg(row_t *r, const row_t *init, uint64_t reg, uint64_t ra_reg)
{
    if (reg == UW_REG_RBP)
        r->rbp_how = init->rbp_how, r->rbp_off = init->rbp_off;
    else if (reg == ra_reg)
        r->ra_how = init->ra_how, r->ra_off = init->ra_off;
}

/* Register-rule opcodes (DWARF 5 6.4.2.3). 0, or -1 for an opcode it does not know. */
static int run_reg_op(cur_t *c, uint8_t op, row_t *r, const row_t *init, const cie_t *cie)
{
    uint64_t reg = uleb(c), ra = cie->ra_reg;
    int64_t da = cie->data_align;
    switch (op) {
    case 0x05: set_reg(r, reg, ra, 1, (int64_t)uleb(c) * da); return 0;   /* offset_extended */
    case 0x06: restore_reg(r, init, reg, ra); return 0;                   /* restore_extended */
    case 0x07: set_reg(r, reg, ra, 2, 0); return 0;                       /* undefined */
    case 0x08: set_reg(r, reg, ra, 0, 0); return 0;                       /* same_value */
    case 0x09: uleb(c); set_reg(r, reg, ra, 3, 0); return 0;              /* register */
    case 0x10: case 0x16: skip(c); set_reg(r, reg, ra, 3, 0); return 0;   /* (val_)expression */
    case 0x11: set_reg(r, reg, ra, 1, sleb(c) * da); return 0;            /* offset_extended_sf */
    case 0x14: uleb(c); set_reg(r, reg, ra, 3, 0); return 0;              /* val_offset */
    case 0x15: sleb(c); set_reg(r, reg, ra, 3, 0); return 0;              /* val_offset_sf */
    case 0x2e: return 0;                                                  /* GNU_args_size */
    case 0x2f: set_reg(r, reg, ra, 1, -(int64_t)uleb(c) * da); return 0;  /* GNU_negative_... */
    default: return -1;
    }
}

/* CFA and state opcodes; the rest go to run_reg_op. 0, or -1 to stop. */
static int run_ext(cur_t *c, uint8_t op, row_t *r, const row_t *init, const cie_t *cie,
                   row_t *stack, int *depth)
{
    switch (op) {
    case 0x00: return 0;
    case 0x0a: /* remember_state */
        if (*depth == MAX_STATES)
            return -1;
        stack[(*depth)++] = *r;
        return 0;
    case 0x0b: { /* restore_state: the registers come back; the CFA rule as gcc emits it too */
        if (*depth == 0)
            return -1;
        *r = stack[--(*depth)];
        return 0;
    }
    case 0x0c: r->cfa_reg = (int)uleb(c); r->cfa_off = (int64_t)uleb(c); r->cfa_expr = 0; return 0;
    case 0x0d: r->cfa_reg = (int)uleb(c); r->cfa_expr = 0; return 0;
    case 0x0e: r->cfa_off = (int64_t)uleb(c); return 0;
    case 0x0f: skip(c); r->cfa_expr = 1; return 0;
    case 0x12:
        r->cfa_reg = (int)uleb(c);
        r->cfa_off = sleb(c) * cie->data_align;
        r->cfa_expr = 0;
        return 0;
    case 0x13: r->cfa_off = sleb(c) * cie->data_align; return 0;
    default: return run_reg_op(c, op, r, init, cie);
    }
}

/* Runs instructions [from, to) with the location starting at loc, stopping past pc. */
static int run(cur_t c, uintptr_t from, uintptr_t to, uintptr_t loc, uintptr_t pc, row_t *r,
               const row_t *init, const cie_t *cie)
{
    row_t stack[MAX_STATES];
    int depth = 0;
    c.p = from;
    c.hi = to < c.hi ? to : c.hi;
    for (int ops = 0; c.p < c.hi && c.ok; ops++) {
        uint8_t op = (uint8_t)rd(&c, 1), low = op & 0x3f;
        uint64_t adv = 0;
        if (ops == MAX_OPS)
            return -1;
        if ((op & 0xc0) == 0x40)
            adv = low;
        else if ((op & 0xc0) == 0x80)
            set_reg(r, low, cie->ra_reg, 1, (int64_t)uleb(&c) * cie->data_align);
        else if ((op & 0xc0) == 0xc0)
            restore_reg(r, init, low, cie->ra_reg);
        else if (op == 0x01)
            return -1; /* DW_CFA_set_loc: not emitted in .eh_frame by current toolchains */
        else if (op >= 0x02 && op <= 0x04)
            adv = rd(&c, op == 0x02 ? 1 : op == 0x03 ? 2 : 4);
        else if (run_ext(&c, op, r, init, cie, stack, &depth) != 0)
            return -1;
        if (adv) {
            loc += adv * cie->code_align;
            if (loc > pc)
                return 0;
        }
    }
    return c.ok ? 0 : -1;
}

/* The FDE the search table gives for pc (largest start <= pc), or 0. */
static uintptr_t find_fde(const uw_module_t *mod, uintptr_t pc)
{
    if (!mod->hdr || !mod->count)
        return 0;
    intptr_t key = (intptr_t)pc - (intptr_t)mod->hdr;
    uint32_t lo = 0, hi = mod->count;
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if ((intptr_t)mod->table[2 * mid] <= key)
            lo = mid;
        else
            hi = mid;
    }
    if ((intptr_t)mod->table[2 * lo] > key)
        return 0;
    return (uintptr_t)((intptr_t)mod->hdr + mod->table[2 * lo + 1]);
}

/* Reads the FDE at fde; fills the CIE, the code range and the instructions' span. */
static int parse_fde(cur_t c, uintptr_t fde, cie_t *cie, uintptr_t *start, uintptr_t *len,
                     uintptr_t *insns, uintptr_t *end)
{
    c.p = fde;
    if (!record_len(&c, end))
        return -1;
    uintptr_t id_at = c.p;
    uint32_t id = (uint32_t)rd(&c, 4);
    if (!c.ok || id == 0 || id > id_at || parse_cie(c, id_at - id, cie) != 0)
        return -1;
    *start = ptr(&c, cie->fde_enc);
    *len = ptr(&c, cie->fde_enc & 0x0f);
    if (cie->has_aug)
        skip(&c);
    *insns = c.p;
    return c.ok && c.p <= *end ? 0 : -1;
}

int uw_rule_at(const uw_module_t *mod, uintptr_t pc, uw_rule_t *out)
{
    cur_t c = {0, mod->data_lo, mod->data_hi, 1};
    cie_t cie;
    uintptr_t start, len, insns, end, fde = find_fde(mod, pc);
    if (!fde || parse_fde(c, fde, &cie, &start, &len, &insns, &end) != 0 || pc < start ||
        pc - start >= len)
        return -1;
    row_t init = {UW_REG_RSP, 0, 8, 0, 1, 0, -8};
    if (run(c, cie.insns, cie.end, start, (uintptr_t)-1, &init, &init, &cie) != 0)
        return -1;
    row_t r = init;
    if (run(c, insns, end, start, pc, &r, &init, &cie) != 0 || r.cfa_expr ||
        (r.cfa_reg != UW_REG_RSP && r.cfa_reg != UW_REG_RBP) || r.rbp_how == 3 ||
        r.ra_how == 3 || r.ra_how == 0)
        return -1;
    out->cfa_reg = r.cfa_reg, out->cfa_off = r.cfa_off;
    out->rbp_saved = r.rbp_how == 1, out->rbp_off = r.rbp_off;
    out->ra_undefined = r.ra_how == 2, out->ra_off = r.ra_off;
    out->start = start, out->end = start + len;
    return 0;
}

int uw_fde_at(const uw_module_t *mod, uintptr_t pc, uintptr_t *start, uintptr_t *end)
{
    cur_t c = {0, mod->data_lo, mod->data_hi, 1};
    cie_t cie;
    uintptr_t len, insns, rec_end, fde = find_fde(mod, pc);
    if (!fde || parse_fde(c, fde, &cie, start, &len, &insns, &rec_end) != 0 || pc < *start ||
        pc - *start >= len)
        return -1;
    *end = *start + len;
    return 0;
}

const uw_module_t *uw_find(const uw_map_t *m, uintptr_t pc)
{
    if (!m)
        return NULL;
    uint32_t lo = 0, hi = m->n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (pc < m->mods[mid].lo)
            hi = mid;
        else if (pc >= m->mods[mid].hi)
            lo = mid + 1;
        else
            return &m->mods[mid];
    }
    return NULL;
}
