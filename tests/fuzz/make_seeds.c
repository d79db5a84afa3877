/* make_seeds.c - writes the kept seeds of the decoder-level fuzz targets (tests/fuzz/corpus/
 * nettrace_decoder, counters, cpu_samples, render, drain, profile_events) from nettrace_hostile.h, so they can
 * be remade when the builders change: cc -Itests/common tests/fuzz/make_seeds.c && ./a.out DIR.
 * Small on purpose: libFuzzer grows its own corpus in the build tree. */
#include "nettrace_hostile.h"

#include <stdio.h>

static void save(const char *dir, const char *target, const char *name, const nb_t *s)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s/%s", dir, target, name);
    FILE *f = fopen(path, "wb");
    if (f) {
        fwrite(s->b, 1, s->n, f);
        fclose(f);
    } else {
        perror(path);
    }
}

/* A Metrics CounterRateValuePublished stream: V1 fields of strings, one event. */
static void counter_stream(nb_t *s)
{
    static const char *const names[] = {"sessionId", "meterName", "meterVersion",
                                        "instrumentName", "unit", "tags", "rate", "value"};
    static const char *const values[] = {"0123", "Shop", "", "orders", "{o}", "", "4", "9"};
    nb_t blk = {0}, rec = {0}, pay = {0};
    nb_header(s, 4);
    nb_meta_head(&rec, 1, "System.Diagnostics.Metrics", 4, "CounterRateValuePublished", 0, 0, 4);
    nb_u32(&rec, 8);
    for (int i = 0; i < 8; i++) {
        nb_u32(&rec, 18);
        nb_utf16(&rec, names[i]);
        nb_utf16(&pay, values[i]);
    }
    nb_block_header(&blk, 1);
    nh_meta_event(&blk, &rec);
    nb_block(s, "MetadataBlock", &blk);
    blk.n = 0;
    nb_block_header(&blk, 1);
    nb_event_full(&blk, 1, 0, 7, 0, 1, &pay);
    nb_block(s, "EventBlock", &blk);
    nb_u8(s, 0x01);
    nb_free(&blk), nb_free(&rec), nb_free(&pay);
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "tests/fuzz/corpus";
    static const char *const traces[] = {"nettrace_decoder", "counters", "cpu_samples",
                                         "render"};
    nb_t s = {0};
    for (int t = 0; t < 4; t++) {
        nh_empty_struct_arrays(&s, 3, 65535, 2);
        save(dir, traces[t], "empty_struct_arrays", &s);
        nb_free(&s);
        nh_one_deep_stack(&s, 6, 40);
        save(dir, traces[t], "one_stack", &s);
        nb_free(&s);
        nh_falling_stack_ids(&s, 5);
        save(dir, traces[t], "falling_stack_ids", &s);
        nb_free(&s);
        counter_stream(&s);
        save(dir, traces[t], "counter_rate", &s);
        nb_free(&s);
        nh_one_deep_stack(&s, 3, 20); /* addresses 0x1000 to 0x1130 */
        s.n--;                        /* the end marker goes after the methods */
        nh_method_meta(&s);
        nh_methods(&s, 1, 0x1000);    /* names the first 16 frames; the rest stay hex */
        nb_u8(&s, 0x01);
        save(dir, traces[t], "samples_and_methods", &s);
        nb_free(&s);
    }
    nh_runtime_events(&s);
    save(dir, "profile_events", "runtime_events", &s);
    nb_free(&s);
    nh_one_deep_stack(&s, 3, 20);
    save(dir, "profile_events", "one_stack", &s);
    nb_free(&s);
    nh_many_fields(&s, 40, 2);
    save(dir, "nettrace_decoder", "many_fields", &s);
    nb_free(&s);
    static const char drain1[] = "I samples=3\nF 0 App.Main\nF 1 App.Work\nT 0 7 main\n"
                                 "S 0 2 20 1 0\nS 0 1 10\nD 4\n";
    static const char drain2[] = "F 0 App.Rec\nT 0 9 \nT 1 10 w\nS 1 1 10 0 0 0\nS 0 5 50 0\n";
    nb_put(&s, drain1, sizeof drain1 - 1);
    save(dir, "drain", "frames_threads_stacks", &s);
    s.n = 0;
    nb_put(&s, drain2, sizeof drain2 - 1);
    save(dir, "drain", "recursion_two_threads", &s);
    nb_free(&s);
    return 0;
}
