/* clra_cpu_samples_read_file's model on generated traces: shared stacks share their names,
 * deep stacks are cut to their leaf frames, a trace without method events reads, and merged
 * lists (CLRA_CPU_SAMPLES_MERGE) hold one entry per distinct stack, not per sample. */
#define _GNU_SOURCE
#include "clrattach.h"
#include "nettrace_hostile.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The samples of s, read as a file with flags (clra_cpu_samples_read_file2). */
static int read_flagged(const nb_t *s, unsigned flags, clra_cpu_samples_t *out,
                        clra_nettrace_info_t *info)
{
    char path[] = "/tmp/clra-cpu-samples-XXXXXX";
    clra_status_t st;
    int fd = mkstemp(path);
    ASSERT(fd >= 0);
    ASSERT_EQ(write(fd, s->b, s->n), (ssize_t)s->n);
    close(fd);
    int rc = clra_cpu_samples_read_file2(path, flags, out, info, &st);
    unlink(path);
    return rc;
}

/* The samples of s, read as a file as convert's chromium format reads it: one per sample. */
static int read_samples(const nb_t *s, clra_cpu_samples_t *out, clra_nettrace_info_t *info)
{
    return read_flagged(s, 0, out, info);
}

TEST(cpu_samples_of_one_stack_share_one_list_of_names)
{
    nb_t s = {0};
    clra_cpu_samples_t out;
    clra_nettrace_info_t info;
    nh_one_deep_stack(&s, 5000, 2000);
    ASSERT_EQ(read_samples(&s, &out, &info), 0);
    ASSERT_EQ(out.count, 5000);
    ASSERT_EQ(out.samples[0].frame_count, 2000);
    ASSERT_STREQ(out.samples[0].frames[0], "0x1000");
    ASSERT_STREQ(out.samples[0].frames[1999], "0x8cf0");
    ASSERT(out.samples[4999].frames == out.samples[0].frames); /* not 5000 copies */
    ASSERT_EQ(out.samples[4999].frame_count, 2000);
    clra_cpu_samples_free(&out);
    nb_free(&s);
}

TEST(cpu_samples_deeper_than_4096_frames_keep_the_leaf_ones)
{
    nb_t s = {0};
    clra_cpu_samples_t out;
    clra_nettrace_info_t info;
    nh_one_deep_stack(&s, 2, 5000);
    ASSERT_EQ(read_samples(&s, &out, &info), 0);
    ASSERT_EQ(out.count, 2);
    ASSERT_EQ(out.samples[1].frame_count, 4096);
    ASSERT_STREQ(out.samples[1].frames[0], "0x1000");
    clra_cpu_samples_free(&out);
    nb_free(&s);
}

TEST(cpu_samples_of_a_trace_without_method_events_name_addresses)
{
    /* what a trace cut short by SIGKILL holds: samples, no rundown (qsort(NULL, 0) before) */
    nb_t s = {0};
    clra_cpu_samples_t out;
    clra_nettrace_info_t info;
    nh_falling_stack_ids(&s, 3);
    s.n--; /* no end marker */
    ASSERT_EQ(read_samples(&s, &out, &info), CLRA_EPROTO);
    ASSERT_EQ(info.state, CLRA_NETTRACE_INCOMPLETE);
    ASSERT_EQ(out.methods, 0);
    ASSERT_EQ(out.count, 3);
    ASSERT_STREQ(out.samples[0].frames[0], "0x1010");
    ASSERT_STREQ(out.samples[2].frames[0], "0x1030");
    clra_cpu_samples_free(&out);
    nb_free(&s);
}

TEST(cpu_samples_merged_of_one_stack_are_one_entry_of_their_count)
{
    /* what bounds convert's memory by distinct stacks: 5000 samples, one entry */
    nb_t s = {0};
    clra_cpu_samples_t out;
    clra_nettrace_info_t info;
    int64_t first, last;
    nh_one_deep_stack(&s, 5000, 20);
    ASSERT_EQ(read_flagged(&s, CLRA_CPU_SAMPLES_MERGE, &out, &info), 0);
    ASSERT_EQ(out.count, 1);
    ASSERT_EQ(clra_cpu_samples_weight(&out, 0), 5000);
    ASSERT_EQ(clra_cpu_samples_weight(&out, 1), 0);
    ASSERT_EQ(out.samples[0].frame_count, 20);
    ASSERT_STREQ(out.samples[0].frames[0], "0x1000");
    ASSERT_EQ(clra_cpu_samples_span(&out, &first, &last), 5000);
    ASSERT_EQ(last - first, 4999); /* the stream's last sample, though no entry holds it */
    clra_cpu_samples_free(&out);
    nb_free(&s);
}

TEST(cpu_samples_merged_keep_distinct_stacks_apart_in_first_seen_order)
{
    nb_t s = {0};
    clra_cpu_samples_t out;
    clra_nettrace_info_t info;
    nh_falling_stack_ids(&s, 3);
    ASSERT_EQ(read_flagged(&s, CLRA_CPU_SAMPLES_MERGE, &out, &info), 0);
    ASSERT_EQ(out.count, 3);
    ASSERT_STREQ(out.samples[0].frames[0], "0x1010");
    ASSERT_STREQ(out.samples[2].frames[0], "0x1030");
    for (size_t i = 0; i < 3; i++)
        ASSERT_EQ(clra_cpu_samples_weight(&out, i), 1);
    ASSERT_EQ(clra_cpu_samples_span(&out, NULL, NULL), 3);
    clra_cpu_samples_free(&out);
    nb_free(&s);
}

TEST(cpu_samples_unmerged_entries_weigh_one_sample_each)
{
    nb_t s = {0};
    clra_cpu_samples_t out;
    clra_nettrace_info_t info;
    nh_one_deep_stack(&s, 10, 3);
    ASSERT_EQ(read_samples(&s, &out, &info), 0);
    ASSERT_EQ(out.count, 10);
    ASSERT_EQ(clra_cpu_samples_weight(&out, 9), 1);
    ASSERT_EQ(clra_cpu_samples_span(&out, NULL, NULL), 10);
    clra_cpu_samples_free(&out);
    nb_free(&s);
}

TEST(cpu_samples_unknown_read_flags_are_refused)
{
    clra_cpu_samples_t out;
    ASSERT_EQ(clra_cpu_samples_read_file2("/dev/null", 0x80, &out, NULL, NULL), CLRA_EINVAL);
    clra_cpu_samples_free(&out);
}
