/* hostile_trace.c - writes the NetTrace files of issue 29 (tests/common/nettrace_hostile.h) and
 * a large realistic one, for bench/decoder_limits.sh and by hand:
 *
 *   bench_hostile_trace empty-structs FILE   arrays of arrays of empty structs (~64 KB)
 *   bench_hostile_trace deep-stack FILE      50,000 two-byte samples of one 2,000-frame stack
 *   bench_hostile_trace falling-ids N FILE   N one-frame stacks with falling ids, a sample each
 *   bench_hostile_trace many-fields N FILE   N metadata records of 10 million fields (60 MB)
 *   bench_hostile_trace max-fields N FILE    N metadata records of 1024 fields (the most held)
 *   bench_hostile_trace big MIB FILE         about MIB MiB of samples of 5,000 stacks of 40-60
 *                                            frames over 3,000 named methods
 *
 * Files are written under the caller's path (a build tree), never committed. */
#include "nettrace_hostile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int save(const nb_t *s, const char *path)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(s->b, 1, s->n, f) != s->n || fclose(f) != 0) {
        perror(path);
        return 1;
    }
    return 0;
}

/* One unit of the big trace at stream offset *at: a StackBlock of 100 stacks from the pool,
 * 2,000 samples of them, a sequence point. */
static void big_unit(FILE *f, unsigned *seed, unsigned long long *ts, size_t *at)
{
    nb_t s = {0}, blk = {0}, pay = {0};
    size_t lead = *at % 4; /* blocks pad to the stream's 4-byte offsets: start where it is */
    for (size_t i = 0; i < lead; i++)
        nb_u8(&s, 0);
    nb_u32(&blk, 1);
    nb_u32(&blk, 100);
    for (unsigned k = 0; k < 100; k++) {
        unsigned stack = (*seed = *seed * 1103515245u + 12345u) % 5000, depth = 40 + stack % 21;
        nb_u32(&blk, depth * 8);
        for (unsigned d = 0; d < depth; d++)
            nb_u64(&blk, 0x10000 + 256ull * ((stack * 7919u + d * 104729u) % 3000) + 16);
    }
    nb_block(&s, "StackBlock", &blk);
    blk.n = 0;
    nb_block_header(&blk, 1);
    nb_u32(&pay, 0); /* the sampler's 4-byte payload */
    for (unsigned i = 0; i < 2000; i++, (*ts)++)
        nb_event_full(&blk, 1, 0, 100 + i % 8, 1 + (*seed = *seed * 1103515245u + 12345u) % 100,
                      10, &pay);
    nb_block(&s, "EventBlock", &blk);
    blk.n = 0;
    nb_u64(&blk, *ts);
    nb_u32(&blk, 0);
    nb_block(&s, "SPBlock", &blk);
    fwrite(s.b + lead, 1, s.n - lead, f);
    *at += s.n - lead;
    nb_free(&s), nb_free(&blk), nb_free(&pay);
}

/* The big trace, written unit by unit. */
static int big(unsigned mib, const char *path)
{
    nb_t s = {0};
    nb_header(&s, 4);
    nh_sampler_meta(&s);
    nh_method_meta(&s);
    nh_methods(&s, 3000, 0x10000);
    FILE *f = fopen(path, "wb");
    if (!f)
        return perror(path), 1;
    fwrite(s.b, 1, s.n, f);
    unsigned seed = 1;
    unsigned long long ts = 0;
    size_t at = s.n;
    while (at < (size_t)mib << 20)
        big_unit(f, &seed, &ts, &at);
    fputc(0x01, f);
    nb_free(&s);
    return fclose(f) != 0;
}

int main(int argc, char **argv)
{
    nb_t s = {0};
    if (argc == 3 && strcmp(argv[1], "empty-structs") == 0)
        return nh_empty_struct_arrays(&s, 32000, 65535, 1), save(&s, argv[2]);
    if (argc == 3 && strcmp(argv[1], "deep-stack") == 0)
        return nh_one_deep_stack(&s, 50000, 2000), save(&s, argv[2]);
    if (argc == 4 && strcmp(argv[1], "falling-ids") == 0)
        return nh_falling_stack_ids(&s, (uint32_t)atol(argv[2])), save(&s, argv[3]);
    if (argc == 4 && strcmp(argv[1], "many-fields") == 0)
        return nh_many_fields(&s, 10000000, (uint32_t)atol(argv[2])), save(&s, argv[3]);
    if (argc == 4 && strcmp(argv[1], "max-fields") == 0)
        return nh_many_fields(&s, 1024, (uint32_t)atol(argv[2])), save(&s, argv[3]);
    if (argc == 4 && strcmp(argv[1], "big") == 0)
        return big((unsigned)atoi(argv[2]), argv[3]);
    fprintf(stderr, "usage: bench_hostile_trace empty-structs|deep-stack FILE\n"
                    "       bench_hostile_trace falling-ids|many-fields|max-fields|big N FILE\n");
    return 2;
}
