/* unwind.h - the signal sampler's own stack walker for x86-64 Linux: frame pointers in JIT code
 * and stubs, .eh_frame CFI in native modules, everything read checked against the thread's stack
 * and the module's mapped unwind tables so a bad frame ends the walk, never faults.
 *
 * The module map (unwind_map.c) is built outside the handler from dl_iterate_phdr and pins each
 * module (dlopen RTLD_NOLOAD) so its tables stay mapped while the map is live. The handler only
 * reads it: uw_walk and uw_rule_at allocate nothing, lock nothing, call nothing.
 */
#ifndef UNWIND_H
#define UNWIND_H

#include <stddef.h>
#include <stdint.h>

#define UW_REG_RBP 6 /* DWARF register numbers (x86-64 psABI) */
#define UW_REG_RSP 7
#define UW_REG_RA 16

/* One loaded module: its executable range and, when it has one, its .eh_frame_hdr search table.
 * Reads of unwind data stay inside [data_lo, data_hi), the segment that holds the tables. */
typedef struct uw_module {
    uintptr_t lo, hi;           /* executable code: lowest to highest PF_X segment end */
    uintptr_t base;             /* load bias (address = base + ELF vaddr) */
    uintptr_t data_lo, data_hi; /* the PT_LOAD segment holding .eh_frame_hdr and .eh_frame */
    const uint8_t *hdr;         /* .eh_frame_hdr, NULL without one */
    const int32_t *table;       /* pairs (pc, fde), relative to hdr */
    uint32_t count;
    void *pin;                  /* dlopen handle keeping it mapped, or NULL (vdso, main) */
    char path[256];             /* the file, as the loader or /proc/self/exe names it */
} uw_module_t;

/* Modules sorted by lo; immutable once published. */
typedef struct uw_map {
    unsigned long long adds, subs; /* dl_iterate_phdr's load/unload counters when built */
    uint32_t n;
    uw_module_t mods[];
} uw_map_t;

/* The CFI rule at one pc: CFA = reg + cfa_off; RA at CFA + ra_off; rbp at CFA + rbp_off when
 * rbp_saved, else unchanged. ra_undefined: the outermost frame (thread start). */
typedef struct uw_rule {
    int cfa_reg;
    int64_t cfa_off;
    int rbp_saved;
    int64_t rbp_off;
    int64_t ra_off;
    int ra_undefined;
    uintptr_t start, end; /* the FDE's code range */
} uw_rule_t;

/* The interrupted registers a walk starts from. */
typedef struct uw_regs {
    uintptr_t ip, sp, fp;
} uw_regs_t;

/* unwind_map.c (outside the handler only) */
/* The loaded modules now, pinned; NULL when out of memory. */
uw_map_t *uw_map_build(void);
/* Whether modules were loaded or unloaded since m was built. */
int uw_map_stale(const uw_map_t *m);
/* Unpins and frees (no handler may still read m). */
void uw_map_free(uw_map_t *m);

/* unwind_cfi.c (async-signal-safe) */
/* The module holding pc, or NULL. */
const uw_module_t *uw_find(const uw_map_t *m, uintptr_t pc);
/* The CFA rule at pc from the module's .eh_frame: 0, or -1 (no FDE, unsupported rule, or a
 * table that leaves the mapped segment). */
int uw_rule_at(const uw_module_t *mod, uintptr_t pc, uw_rule_t *out);
/* The code range [start, end) of the FDE holding pc (the function, in practice): 0, or -1. */
int uw_fde_at(const uw_module_t *mod, uintptr_t pc, uintptr_t *start, uintptr_t *end);

#define UW_SCAN_WORDS 512   /* words of one frame-pointer gap searched for a skipped record */
#define UW_SCAN_BUDGET 4096 /* words searched in one walk, all gaps together */
#define UW_MASK_WORDS(max) (((max) + 63) / 64) /* a walk's inserted-frame bits, in uint64_t */

/* unwind_walk.c (async-signal-safe) */
/* Walks from r while every read lies in [lo, hi) (the thread's stack from the interrupted sp);
 * writes at most max IPs (the interrupted one first, then return addresses); *cut is set when
 * max stopped it. Bit i of inserted (UW_MASK_WORDS(max) words, cleared here) is set when ips[i]
 * is a return address the frame-pointer chain skipped and a scan of the gap found (a method
 * entered by on-stack replacement: see skipped_record); uw_keep_inserted decides from the
 * names whether it stays. Returns the count. */
uint32_t uw_walk(const uw_map_t *m, uw_regs_t r, uintptr_t lo, uintptr_t hi, uint64_t *ips,
                 uint64_t *inserted, uint32_t max, uint32_t *cut);

/* unwind_inserted.c (outside the handler) */
/* Given the names of a walk's frames (frames[i] names ips[i]; unknown: a name that is none),
 * keeps an inserted frame only in the pattern on-stack replacement leaves: the frame before it
 * names the same method as the one inside that (the OSR method's pseudo return address into its
 * own tier-0 code), and it names something. A kept one takes the pseudo return address's place;
 * any other is dropped, and adjacent frames of one method that the walk did not insert
 * (recursion) are never merged. Returns the new count. */
uint32_t uw_keep_inserted(uint32_t *frames, uint32_t n, const uint64_t *inserted,
                          uint32_t unknown);

#endif
