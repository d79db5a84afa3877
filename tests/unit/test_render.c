/* The profile writers (src/cli/render) on a profile built by hand: what each format must hold. */
#define _GNU_SOURCE
#include "profile/profile_drain.h"
#include "render/format.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>

/* A small profile: main->work->hot (3 samples), main->work (1), main->rec->rec->rec (2),
 * on two threads. Weights are 10 ns per sample. */
static void sample_profile(profile_t *p)
{
    profile_init(p);
    const char *a[] = {"App.Hot", "App.Work", "App.Main"};
    const char *b[] = {"App.Work", "App.Main"};
    const char *c[] = {"App.Rec", "App.Rec", "App.Rec", "App.Main"};
    for (int i = 0; i < 3; i++)
        ASSERT(profile_add_sample(p, 11, "one", a, 3, 10) == 0);
    ASSERT(profile_add_sample(p, 11, "one", b, 2, 10) == 0);
    ASSERT(profile_add_sample(p, 22, "two", c, 4, 10) == 0);
    ASSERT(profile_add_sample(p, 22, "two", c, 4, 10) == 0);
}

/* The whole output of a writer as a string (static buffer). */
static const char *render(const profile_t *p, int fmt, int threads, size_t *len)
{
    static char *buf;
    size_t size = 0;
    free(buf);
    FILE *f = open_memstream(&buf, &size);
    profile_write_opts_t o = {threads, 20};
    ASSERT(profile_write(p, &o, fmt, f) == 0);
    fclose(f);
    if (len)
        *len = size;
    return buf;
}

TEST(render_folded_writes_each_stack_root_first_with_its_exact_count)
{
    profile_t p;
    sample_profile(&p);
    ASSERT_EQ(strcmp(render(&p, FMT_FOLDED, 0, NULL),
                     "App.Main;App.Work;App.Hot 3\nApp.Main;App.Work 1\n"
                     "App.Main;App.Rec;App.Rec;App.Rec 2\n"), 0);
    ASSERT_CONTAINS(render(&p, FMT_FOLDED, 1, NULL), "[thread two 22];App.Main;App.Rec;App.Rec;App.Rec 2\n");
    profile_free(&p);
}

TEST(render_top_counts_a_recursive_frame_once_in_total)
{
    profile_t p;
    sample_profile(&p);
    const char *t = render(&p, FMT_TOP, 0, NULL);
    /* Hot: 3 of 6 self; Rec: 2 of 6 self and total (not 6 of 6); Main: 100% total. */
    ASSERT_CONTAINS(t, " 50.00%  50.00%         3  App.Hot\n");
    ASSERT_CONTAINS(t, " 33.33%  33.33%         2  App.Rec\n");
    ASSERT_CONTAINS(t, "  0.00% 100.00%         0  App.Main\n");
    profile_free(&p);
}

/* Reads a protobuf varint; advances *at. */
static uint64_t varint(const unsigned char **at, const unsigned char *end)
{
    uint64_t v = 0;
    for (int shift = 0; *at < end && shift < 64; shift += 7) {
        unsigned char b = *(*at)++;
        v |= (uint64_t)(b & 0x7F) << shift;
        if (!(b & 0x80))
            break;
    }
    return v;
}

TEST(render_pprof_holds_samples_locations_functions_and_the_string_table)
{
    profile_t p;
    size_t len;
    sample_profile(&p);
    const unsigned char *at = (const unsigned char *)render(&p, FMT_PPROF, 0, &len), *end = at + len;
    int count[16] = {0};
    int strings_with_names = 0;
    while (at < end) {
        uint64_t key = varint(&at, end);
        unsigned field = (unsigned)(key >> 3);
        if ((key & 7) == 0) {
            varint(&at, end);
        } else {
            ASSERT((key & 7) == 2);
            uint64_t n = varint(&at, end);
            ASSERT(n <= (uint64_t)(end - at));
            if (field == 6 && (n == 7 || n == 8) && memcmp(at, "App.", 4) == 0)
                strings_with_names++;
            at += n;
        }
        if (field < 16)
            count[field]++;
    }
    ASSERT_EQ(count[1], 2);               /* sample_type: samples/count, cpu/nanoseconds */
    ASSERT_EQ(count[2], (int)p.nstacks);  /* one sample per distinct stack */
    ASSERT_EQ(count[4], (int)p.nframes);  /* a location per frame */
    ASSERT_EQ(count[5], (int)p.nframes);  /* a function per frame */
    ASSERT_EQ(strings_with_names, 4);     /* App.Hot, App.Work, App.Main, App.Rec */
    profile_free(&p);
}

TEST(render_pprof_gz_is_gzip_of_stored_blocks_with_the_right_crc_and_size)
{
    profile_t p;
    size_t plain_len, gz_len;
    sample_profile(&p);
    char *plain = malloc(1 << 16);
    const char *r = render(&p, FMT_PPROF, 0, &plain_len);
    memcpy(plain, r, plain_len);
    const unsigned char *gz = (const unsigned char *)render(&p, FMT_PPROF_GZ, 0, &gz_len);
    ASSERT(gz[0] == 0x1F && gz[1] == 0x8B && gz[2] == 8);
    ASSERT(gz[10] == 1); /* one final stored block for this small profile */
    size_t n = (size_t)gz[11] | (size_t)gz[12] << 8;
    ASSERT_EQ(n, plain_len);
    ASSERT_EQ(memcmp(gz + 15, plain, n), 0);
    uint32_t crc = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++) {
        crc ^= (unsigned char)plain[i];
        for (int k = 0; k < 8; k++)
            crc = crc & 1 ? 0xEDB88320u ^ (crc >> 1) : crc >> 1;
    }
    crc ^= 0xFFFFFFFFu;
    const unsigned char *t = gz + 15 + n;
    ASSERT_EQ((uint32_t)(t[0] | t[1] << 8 | t[2] << 16 | (uint32_t)t[3] << 24), crc);
    ASSERT_EQ((size_t)(t[4] | t[5] << 8), plain_len);
    ASSERT_EQ(gz_len, 15 + n + 8);
    free(plain);
    profile_free(&p);
}

TEST(render_speedscope_has_shared_frames_root_first_stacks_and_weights)
{
    profile_t p;
    sample_profile(&p);
    const char *s = render(&p, FMT_SPEEDSCOPE, 0, NULL);
    ASSERT_CONTAINS(s, "\"frames\":[{\"name\":\"App.Hot\"},{\"name\":\"App.Work\"},{\"name\":\"App.Main\"},{\"name\":\"App.Rec\"}]");
    ASSERT_CONTAINS(s, "\"samples\":[[2,1,0],[2,1],[2,3,3,3]],\"weights\":[30,10,20],\"endValue\":60");
    ASSERT_CONTAINS(render(&p, FMT_SPEEDSCOPE, 1, NULL), "\"name\":\"[thread two 22]\"");
    profile_free(&p);
}

TEST(render_flamegraph_is_self_contained_and_escapes_names_for_script)
{
    profile_t p;
    sample_profile(&p);
    const char *evil[] = {"</script><img src=x>", "App.Main"};
    ASSERT(profile_add_sample(&p, 11, "one", evil, 2, 10) == 0);
    const char *h = render(&p, FMT_FLAMEGRAPH, 0, NULL);
    ASSERT(strstr(h, "<html") && strstr(h, "</html>"));
    ASSERT(!strstr(h, "http://") && !strstr(h, "https://") && !strstr(h, "<script src"));
    ASSERT(!strstr(h, "</script><img"));
    ASSERT_CONTAINS(h, "\\u003c/script\\u003e\\u003cimg src=x\\u003e");
    /* root "all" (frame 5 = nframes) first, with every sample's weight */
    ASSERT_CONTAINS(h, "\"nodes\":[5,-1,70,");
    profile_free(&p);
}

TEST(render_format_follows_the_file_extension)
{
    ASSERT_EQ(profile_format_from_path("a.html"), FMT_FLAMEGRAPH);
    ASSERT_EQ(profile_format_from_path("a.folded"), FMT_FOLDED);
    ASSERT_EQ(profile_format_from_path("a.txt"), FMT_FOLDED);
    ASSERT_EQ(profile_format_from_path("a.speedscope.json"), FMT_SPEEDSCOPE);
    ASSERT_EQ(profile_format_from_path("a.pb"), FMT_PPROF);
    ASSERT_EQ(profile_format_from_path("a.pb.gz"), FMT_PPROF_GZ);
    ASSERT_EQ(profile_format_from_path("a.chromium.json"), FMT_CHROMIUM);
    ASSERT_EQ(profile_format_from_path("a.svg"), -1);
    ASSERT_EQ(profile_format_parse("top"), FMT_TOP);
    ASSERT_EQ(profile_format_parse("chromium"), FMT_CHROMIUM);
    ASSERT_EQ(profile_format_parse("svg"), -1);
}

#define MS 1000000ull

/* Thread 11: Main>Work>Hot at 0 and 1 ms (added out of order), Main>Work at 2 ms, Main>Rec at
 * 3 ms, then a 7 ms pause and Main alone at 10 ms; thread 22: Main at 0.5 ms. 1 ms period. */
TEST(render_chromium_nests_each_threads_frames_as_durations_and_a_pause_ends_them)
{
    profile_t p;
    profile_init(&p);
    p.title = "t";
    p.pid = 7;
    p.period_ns = MS;
    const char *hot[] = {"App.Hot", "App.Work", "App.Main"}, *work[] = {"App.Work", "App.Main"};
    const char *rec[] = {"App.Rec", "App.Main"}, *main_only[] = {"App.Main"};
    ASSERT(profile_add_timed(&p, 11, "one", hot, 3, MS, 1 * MS) == 0);
    ASSERT(profile_add_timed(&p, 22, "two", main_only, 1, MS, MS / 2) == 0);
    ASSERT(profile_add_timed(&p, 11, "one", hot, 3, MS, 0) == 0);
    ASSERT(profile_add_timed(&p, 11, "one", work, 2, MS, 2 * MS) == 0);
    ASSERT(profile_add_timed(&p, 11, "one", rec, 2, MS, 3 * MS) == 0);
    ASSERT(profile_add_timed(&p, 11, "one", main_only, 1, MS, 10 * MS) == 0);
    const char *out = render(&p, FMT_CHROMIUM, 0, NULL);
    const char *want =
        "{\"traceEvents\":[\n"
        "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":7,\"tid\":0,\"args\":{\"name\":\"t\"}},\n"
        "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":7,\"tid\":11,\"args\":{\"name\":\"one (11)\"}},\n"
        "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":7,\"tid\":22,\"args\":{\"name\":\"two (22)\"}},\n"
        "{\"name\":\"App.Main\",\"cat\":\"sample\",\"ph\":\"B\",\"ts\":0.000,\"pid\":7,\"tid\":11},\n"
        "{\"name\":\"App.Work\",\"cat\":\"sample\",\"ph\":\"B\",\"ts\":0.000,\"pid\":7,\"tid\":11},\n"
        "{\"name\":\"App.Hot\",\"cat\":\"sample\",\"ph\":\"B\",\"ts\":0.000,\"pid\":7,\"tid\":11},\n"
        "{\"name\":\"App.Hot\",\"cat\":\"sample\",\"ph\":\"E\",\"ts\":2000.000,\"pid\":7,\"tid\":11},\n"
        "{\"name\":\"App.Work\",\"cat\":\"sample\",\"ph\":\"E\",\"ts\":3000.000,\"pid\":7,\"tid\":11},\n"
        "{\"name\":\"App.Rec\",\"cat\":\"sample\",\"ph\":\"B\",\"ts\":3000.000,\"pid\":7,\"tid\":11},\n"
        "{\"name\":\"App.Rec\",\"cat\":\"sample\",\"ph\":\"E\",\"ts\":4000.000,\"pid\":7,\"tid\":11},\n"
        "{\"name\":\"App.Main\",\"cat\":\"sample\",\"ph\":\"E\",\"ts\":4000.000,\"pid\":7,\"tid\":11},\n"
        "{\"name\":\"App.Main\",\"cat\":\"sample\",\"ph\":\"B\",\"ts\":10000.000,\"pid\":7,\"tid\":11},\n"
        "{\"name\":\"App.Main\",\"cat\":\"sample\",\"ph\":\"E\",\"ts\":11000.000,\"pid\":7,\"tid\":11},\n"
        "{\"name\":\"App.Main\",\"cat\":\"sample\",\"ph\":\"B\",\"ts\":500.000,\"pid\":7,\"tid\":22},\n"
        "{\"name\":\"App.Main\",\"cat\":\"sample\",\"ph\":\"E\",\"ts\":1500.000,\"pid\":7,\"tid\":22}\n"
        "],\"displayTimeUnit\":\"ms\",\"otherData\":{\"exporter\":\"clrattach\",\"name\":\"t\"}}\n";
    ASSERT_MSG(strcmp(out, want) == 0, "chromium output:\n%s", out);
    profile_free(&p);
}

TEST(render_flamegraph_of_100000_distinct_stacks_merges_shared_callers)
{
    profile_t p;
    char name[32];
    profile_init(&p);
    for (int i = 0; i < 100000; i++) {
        snprintf(name, sizeof name, "Leaf.M%d", i);
        const char *s[] = {name, "Mid.Common", "Root.Main"};
        ASSERT(profile_add_sample(&p, 1, "t", s, 3, 1) == 0);
    }
    ASSERT_EQ(p.nstacks, (size_t)100000);
    const char *h = render(&p, FMT_FLAMEGRAPH, 0, NULL);
    /* all (frame 100002) -> Root.Main (2) -> Mid.Common (1), each once with all 100,000 samples */
    ASSERT_CONTAINS(h, "\"nodes\":[100002,-1,100000,2,0,100000,1,1,100000,");
    profile_free(&p);
}

TEST(render_a_drained_stack_without_frames_writes_every_format)
{
    /* the sampler may send "S THREAD COUNT WEIGHT" with no frames: null memcpy/memcmp before */
    profile_t p;
    drain_map_t m = {0};
    char why[128];
    char payload[] = "F 0 App.Main\nT 0 7 main\nS 0 2 20\nS 0 1 10\nS 0 1 10 0\n";
    profile_init(&p);
    ASSERT_EQ(drain_parse(&p, &m, payload, strlen(payload), why, sizeof why), 0);
    ASSERT_EQ(p.nstacks, 2);
    ASSERT_EQ(profile_total_count(&p), 4);
    static const int fmts[] = {FMT_FLAMEGRAPH, FMT_FOLDED, FMT_SPEEDSCOPE, FMT_PPROF,
                               FMT_PPROF_GZ, FMT_TOP, FMT_CHROMIUM};
    for (size_t i = 0; i < sizeof fmts / sizeof *fmts; i++)
        ASSERT(render(&p, fmts[i], i % 2, NULL) != NULL);
    ASSERT_CONTAINS(render(&p, FMT_FOLDED, 0, NULL), "App.Main 1\n");
    drain_map_free(&m);
    profile_free(&p);
}

TEST(render_chromium_of_timed_samples_without_frames_writes_no_durations)
{
    /* found by fuzz.render: clang's UBSan aborted on NULL + 0 in write_chromium.c */
    profile_t p;
    profile_init(&p);
    ASSERT_EQ(profile_add_timed(&p, 7, "main", NULL, 0, 10, 0), 0);
    ASSERT_EQ(profile_add_timed(&p, 7, "main", NULL, 0, 10, 1000), 0);
    const char *out = render(&p, FMT_CHROMIUM, 0, NULL);
    ASSERT(strstr(out, "\"ph\":\"B\"") == NULL);
    profile_free(&p);
}
