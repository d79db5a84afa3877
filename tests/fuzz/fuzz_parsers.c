/* fuzz_parsers.c - every parser of untrusted bytes, behind one libFuzzer entry point.
 *
 * Replies from a diagnostics server, strings and GUIDs read off the wire, /proc texts and the
 * client-data options a profiler parses all come from outside; none may read out of bounds,
 * leak, or hang on any input. Built with -fsanitize=fuzzer this is a libFuzzer target; built
 * without, fuzz_smoke.c drives it with mutated seeds so ctest runs it on every build.
 */
#include "assembly/assembly.h"
#include "cpu_stacks.h"
#include "profile/profile_drain.h"
#include "profile/profile_events.h"
#include "render/format.h"
#include "clrprof/clrprof_util.h"
#include "proto/dump_codec.h"
#include "proto/process_codec.h"
#include "target/endpoint.h"
#include "proto/message.h"
#include "proto/process_codec.h"
#include "proto/process_codec.h"
#include "process_list.h"
#include "stage/stage.h"
#include "proto/eventpipe_codec.h"
#include "proto/advertise.h"
#include "proto/runtime_events.h"
#include "trace.h"
#include "nettrace_event.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef CLRA_FUZZ_ONE /* one family per binary: the others are unused there */
#pragma GCC diagnostic ignored "-Wunused-function"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A reply as the transport would hand it over: header, then what the size field announces. */
static void fuzz_reply(const uint8_t *data, size_t size)
{
    clra__header_t h;
    int32_t hr;
    if (size < CLRA__HEADER_SIZE || clra__parse_header(data, &h) != 0)
        return;
    size_t payload = size - CLRA__HEADER_SIZE;
    size_t announced = (size_t)h.size - CLRA__HEADER_SIZE;
    size_t len = announced < payload ? announced : payload;
    char text[64];
    uint64_t id;
    clra_status_t st;
    memset(&st, 0, sizeof st);
    clra__parse_hresult_reply(&h, data + CLRA__HEADER_SIZE, len, &hr);
    for (int with_text = 0; with_text <= 1; with_text++)
        clra__parse_dump_reply(&h, data + CLRA__HEADER_SIZE, len, with_text, &hr, text,
                               sizeof text, &st);
    clra__parse_session_reply(&h, data + CLRA__HEADER_SIZE, len, &id, &st);
}

/* Decodes the input whole with cb; what the other families build on. */
static void decode_with(const clra_nettrace_callbacks_t *cb, void *ctx, const uint8_t *data,
                        size_t size)
{
    clra_nettrace_decoder_t *d;
    clra_nettrace_info_t info;
    if (clra_nettrace_decoder_new(cb, ctx, &d) != 0)
        return;
    clra_nettrace_decoder_feed(d, data, size, NULL);
    clra_nettrace_decoder_end(d, &info, NULL);
    clra_nettrace_decoder_free(d);
}

/* The counter readers: EventCounters and Meter readings, and the notices, of every event. */
static int fuzz_counter_event(void *ctx, const clra_nettrace_event_t *ev)
{
    clra_counter_reading_t r[CLRA_COUNTER_READINGS_MAX];
    char notice[256];
    (void)ctx;
    clra_counter_readings_get(ev, 1.0, r, CLRA_COUNTER_READINGS_MAX);
    clra_counter_notice_get(ev, "0123", notice, sizeof notice);
    return 0;
}

static void fuzz_counters(const uint8_t *data, size_t size)
{
    static const clra_nettrace_callbacks_t cb = {NULL, NULL, fuzz_counter_event, NULL, NULL,
                                                 {0}};
    decode_with(&cb, NULL, data, size);
}

/* cpu_samples: a trace's samples and methods to named stacks. */
static void fuzz_cpu_samples(const uint8_t *data, size_t size)
{
    clra_cpu_samples_t s;
    clra_nettrace_info_t info;
    clra__cpu_samples_read_buffer(data, size, &s, &info, NULL);
    clra_cpu_samples_free(&s);
}

/* Every profile writer on p, into /dev/null (opened once: the writers are what is tested). */
static void write_every_format(const profile_t *p)
{
    static FILE *sink;
    if (!sink && !(sink = fopen("/dev/null", "wb")))
        return;
    for (int fmt = FMT_FLAMEGRAPH; fmt <= FMT_CHROMIUM; fmt++)
        for (int threads = 0; threads <= 1; threads++) {
            profile_write_opts_t o = {threads, 5};
            profile_write(p, &o, fmt, sink);
        }
}

/* The renderers: a trace's CPU samples into the profile model as convert puts them. */
static void fuzz_render(const uint8_t *data, size_t size)
{
    clra_cpu_samples_t s;
    clra_nettrace_info_t info;
    profile_t p;
    profile_init(&p);
    clra__cpu_samples_read_buffer(data, size, &s, &info, NULL);
    for (size_t i = 0; i < s.count; i++)
        if (profile_add_timed(&p, s.samples[i].thread_id, NULL, s.samples[i].frames,
                              (uint32_t)s.samples[i].frame_count, 1000, 10 * i) != 0)
            break;
    write_every_format(&p);
    profile_free(&p);
    clra_cpu_samples_free(&s);
}

/* profile's event modes: a stream through each mode (alloc planned for .NET 9 or 10 by the first
 * byte) into a profile, every writer, and the mode's report as JSON and text. */
static void fuzz_profile_events(const uint8_t *data, size_t size)
{
    static const char *const words[] = {"alloc", "lock", "exception", "wait"};
    static FILE *sink;
    if (!sink && !(sink = fopen("/dev/null", "wb")))
        return;
    for (int i = 0; i < 4; i++) {
        pe_run_t r;
        memset(&r, 0, sizeof r);
        r.mode = pe_mode_find(words[i]);
        if (r.mode->plan(&r, size && data[0] & 1 ? 9 : 10) == 0) {
            profile_t p;
            json_out_t j;
            profile_init(&p);
            p.weight_unit = r.mode->unit;
            p.folded_weights = 1;
            pe_decode_buffer(&r, data, size);
            if (pe_resolve(&r, &p) == 0)
                write_every_format(&p);
            json_begin(&j, sink);
            r.mode->report(&r, &j, NULL);
            json_end(&j);
            r.mode->report(&r, NULL, sink);
            profile_free(&p);
        }
        pe_free(&r);
    }
}

/* The sampler's drain (F, T, S, D, I lines) into a profile, then every writer. */
static void fuzz_drain(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1), why[128];
    profile_t p;
    drain_map_t m;
    if (!text)
        return;
    memset(&m, 0, sizeof m);
    if (size)
        memcpy(text, data, size);
    text[size] = '\0';
    profile_init(&p);
    if (drain_parse(&p, &m, text, size, why, sizeof why) == 0)
        write_every_format(&p);
    drain_map_free(&m);
    profile_free(&p);
    free(text);
}

/* Trace files come from disk or a peer; the check walks whatever framing they claim. */
static void fuzz_nettrace(const uint8_t *data, size_t size)
{
    clra_nettrace_info_t info;
    clra_nettrace_check(data, size, &info);
}

/* The streaming decoder: every payload it delivers is walked too, and the input is fed whole
 * and again in uneven pieces, so both the direct and the buffered path see every byte. */
static int fuzz_walk_event(void *ctx, const clra_nettrace_event_t *ev)
{
    (void)ctx;
    if (ev->meta)
        clra_nettrace_payload_walk(ev->meta, ev->payload, ev->payload_len, NULL, NULL, NULL);
    if (ev->meta && ev->meta->provider) /* the runtime's layouts, at both pointer sizes */
        for (unsigned ptr = 4; ptr <= 8; ptr += 4)
            clra_runtime_event_walk(ev->meta, ev->payload, ev->payload_len, ptr, NULL, NULL,
                                    NULL, NULL);
    return 0;
}

static int fuzz_format_value(void *ctx, const clra_nettrace_value_t *v)
{
    char text[64];
    (void)ctx;
    if (v->kind == CLRA_NETTRACE_VALUE)
        clra_nettrace_value_format(v, text, sizeof text);
    return 0;
}

/* The runtime's own events by their layouts: the first byte picks the pointer size (bit 0)
 * and a newer version than described (bit 1), the next two which event, the rest is the
 * payload; every value is formatted as convert would. */
static void fuzz_runtime_events(const uint8_t *data, size_t size)
{
    const char *provider;
    if (size < 3)
        return;
    const clra__rt_event_t *e =
        clra__rt_at((size_t)(data[1] | data[2] << 8) % clra__rt_count(), &provider);
    clra_nettrace_metadata_t m = ne_meta(provider, e->id, e->version + (data[0] & 2u));
    size_t used;
    clra_runtime_event_walk(&m, data + 3, size - 3, data[0] & 1 ? 4 : 8, fuzz_format_value, NULL,
                            &used, NULL);
}

/* The heap snapshot: the first byte picks the pointer size (bit 0) and which of its events
 * the rest is (bits 1-2: GCBulkNode, BulkType, GCStart, GCEnd), the second that event's
 * version; the event is fed before the snapshot's GC and again during it, then the GC ends and
 * the histogram is built. The whole input also goes through a decoder into a snapshot. */
static int fuzz_heap_event(void *ctx, const clra_nettrace_event_t *ev)
{
    clra_heap_snapshot_event(ctx, ev, NULL);
    return 0;
}

static void heap_event(clra_heap_snapshot_t *h, uint32_t id, uint32_t version, const uint8_t *p,
                       size_t n)
{
    clra_nettrace_metadata_t m = ne_meta(CLRA_TRACE_RUNTIME_PROVIDER, id, version);
    clra_nettrace_event_t ev = ne_event(&m, p, n, 1000);
    clra_heap_snapshot_event(h, &ev, NULL);
}

static void fuzz_heap(const uint8_t *data, size_t size)
{
    static const uint32_t ids[] = {18, 15, 1, 2};
    static const uint8_t start[16] = {7, 0, 0, 0, 2, 0, 0, 0, 1}, end[4] = {7};
    clra_heap_snapshot_t *h;
    clra_heap_histogram_t hh;
    clra_nettrace_header_t hdr;
    if (size < 2 || clra_heap_snapshot_new(&h) != 0)
        return;
    memset(&hdr, 0, sizeof hdr);
    hdr.pointer_size = data[0] & 1 ? 4 : 8;
    hdr.qpc_frequency = 1000;
    clra_heap_snapshot_header(h, &hdr, NULL);
    uint32_t id = ids[(data[0] >> 1) & 3];
    heap_event(h, id, data[1], data + 2, size - 2);
    heap_event(h, 1, 2, start, sizeof start);
    heap_event(h, id, data[1], data + 2, size - 2);
    heap_event(h, 2, 1, end, sizeof end);
    if (clra_heap_histogram_get(h, &hh, NULL) == 0)
        clra_heap_histogram_free(&hh);
    clra_heap_snapshot_free(h);
    if (clra_heap_snapshot_new(&h) != 0)
        return;
    static const clra_nettrace_callbacks_t cb = {NULL, NULL, fuzz_heap_event, NULL, NULL, {0}};
    decode_with(&cb, h, data, size);
    if (clra_heap_histogram_get(h, &hh, NULL) == 0)
        clra_heap_histogram_free(&hh);
    clra_heap_snapshot_free(h);
}

static void fuzz_nettrace_decoder(const uint8_t *data, size_t size)
{
    static const clra_nettrace_callbacks_t cb = {NULL, NULL, fuzz_walk_event, NULL, NULL, {0}};
    for (size_t piece = 0; piece <= 7; piece += 7) {
        clra_nettrace_decoder_t *d;
        clra_nettrace_info_t info;
        if (clra_nettrace_decoder_new(&cb, NULL, &d) != 0)
            return;
        for (size_t at = 0; at < size;) {
            size_t k = piece && piece < size - at ? piece : size - at;
            if (clra_nettrace_decoder_feed(d, data + at, k, NULL) != 0)
                break;
            at += k;
        }
        clra_nettrace_decoder_end(d, &info, NULL);
        clra_nettrace_decoder_free(d);
    }
}

/* Provider specs come from command lines and configuration files. */
static void fuzz_provider_spec(const uint8_t *data, size_t size)
{
    char *spec = malloc(size + 1);
    clra_trace_config_t cfg;
    clra_status_t st;
    if (!spec)
        return;
    if (size)
        memcpy(spec, data, size);
    spec[size] = '\0';
    clra_trace_config_init(&cfg);
    clra_trace_config_parse_providers(&cfg, spec, &st);
    clra_trace_config_free(&cfg);
    free(spec);
}

/* The environment: its reply and its continuation block. */
static void fuzz_environment(const uint8_t *data, size_t size)
{
    clra_status_t st;
    clra_environment_t env;
    uint32_t incoming;
    clra__reply_t reply = {{(uint16_t)(20 + (size < 64 ? size : 64)), 0xFF, 0x00},
                           (uint8_t *)data, size < 64 ? size : 64};
    clra__parse_env_reply(&reply, &incoming, &st);
    if (clra__parse_env_block(data, size, &env, &st) == 0)
        clra_environment_free(&env);
}

/* The startup-hook check reads whatever file the user names. */
static void fuzz_assembly(const uint8_t *data, size_t size)
{
    char why[128];
    clra__hook_check_image(data, size, why, sizeof why);
}

/* Reads fields in the order a ProcessInfo reply has them, until the reader fails. */
static void fuzz_reader(const uint8_t *data, size_t size)
{
    clra__reader_t r;
    clra_guid_t g;
    clra__reader_init(&r, data, size);
    clra__get_u64(&r);
    clra__get_guid(&r, &g);
    for (int i = 0; i < 4 && !r.err; i++)
        free(clra__get_string(&r));
    clra__get_u8(&r);
    clra__get_u16(&r);
    clra__get_u32(&r);
}

/* A reply payload as each ProcessInfo version; every failure must leave nothing allocated. */
static void fuzz_process_info(const uint8_t *data, size_t size)
{
    for (int command = 1; command <= 3; command++) {
        clra_process_info_t info;
        clra_status_t st;
        memset(&st, 0, sizeof st);
        if (clra__parse_process_info(command, data, size, &info, &st) == 0)
            clra_process_info_free(&info);
    }
}

/* Text parsers take NUL-terminated input, as read from /proc. */
static void fuzz_text(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1), out[64];
    unsigned long v;
    if (!text)
        return;
    if (size)
        memcpy(text, data, size);
    text[size] = '\0';
    clra__parse_nspid(text);
    clra__parse_starttime(text);
    clra__stat_field(text, 9);
    clra__is_diagnostic_socket_name(text);
    clra__socket_name_matches(text, 42);
    clra__environ_get(text, size, "TMPDIR", out, sizeof out);
    char path[128];
    if (clra__maps_line_path(text, path, sizeof path))
        clra__stage_dir_in_path(path, "1-8607", out, sizeof out);
    clra__stage_name_matches(text, "1-8607");
    clrprof_option(data, size, "log", out, sizeof out);
    clrprof_option_ulong(data, size, "detach_after_ms", &v);
    WCHAR wide[64];
    clrprof_utf8_to_utf16(text, wide, 64);
    char back[64];
    clrprof_utf16_to_utf8((const WCHAR *)(const void *)text, size / 2, back, sizeof back);
    free(text);
}

/* A reverse connection's first 34 bytes: the advertise block. */
static void fuzz_advertise(const uint8_t *data, size_t size)
{
    uint8_t block[CLRA__ADVERTISE_SIZE] = {0};
    clra_advertise_t ad;
    if (size)
        memcpy(block, data, size < sizeof block ? size : sizeof block);
    clra__parse_advertise(block, &ad);
}

/* GUIDs come from --clsid and from control endpoints' names. */
static void fuzz_ids(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    clra_guid_t g;
    if (!text)
        return;
    if (size)
        memcpy(text, data, size);
    text[size] = '\0';
    clra_guid_parse(text, &g);
    free(text);
}

#ifdef CLRA_FUZZ_ONE
/* One parser family per libFuzzer binary (cmake/fuzz.cmake), so coverage guides each alone. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    CLRA_FUZZ_ONE(data, size);
    return 0;
}
#else
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_advertise(data, size);
    fuzz_ids(data, size);
    fuzz_reply(data, size);
    fuzz_reader(data, size);
    fuzz_process_info(data, size);
    fuzz_environment(data, size);
    fuzz_text(data, size);
    fuzz_nettrace(data, size);
    fuzz_nettrace_decoder(data, size);
    fuzz_runtime_events(data, size);
    fuzz_counters(data, size);
    fuzz_heap(data, size);
    fuzz_cpu_samples(data, size);
    fuzz_render(data, size);
    fuzz_drain(data, size);
    fuzz_profile_events(data, size);
    fuzz_provider_spec(data, size);
    fuzz_assembly(data, size);
    return 0;
}
#endif
