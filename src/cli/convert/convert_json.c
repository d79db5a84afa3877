/* convert_json.c - a decoded trace as JSON lines: one "header" line, then one object per
 * event with its header fields, its stack's addresses and its payload decoded from the
 * metadata (objects for structs, arrays for arrays); the runtime's own events, whose metadata
 * describes no fields, by the library's layouts of them, their bytes in hex too; others' bytes
 * only in hex. */
#define _GNU_SOURCE
#include "base/json_escape.h"
#include "convert/convert.h"

#include <math.h>
#include <string.h>

/* A JSON string of the trace's text (names and payload strings come from the target). */
static void text(FILE *f, const char *s)
{
    fputc('"', f);
    cli_json_escape(f, s, 0);
    fputc('"', f);
}

static void guid(FILE *f, const uint8_t *g)
{
    clra_nettrace_field_t field = {"", CLRA_NETTRACE_GUID, NULL, 0};
    clra_nettrace_value_t v = {0};
    char buf[40];
    v.field = &field;
    v.raw = g;
    v.raw_len = 16;
    clra_nettrace_value_format(&v, buf, sizeof buf);
    text(f, buf);
}

#define LEVELS (CLRA_NETTRACE_MAX_DEPTH + 4)

typedef struct walk {
    FILE *f;
    int first[LEVELS]; /* nothing written yet in the container at this level */
    int array[LEVELS]; /* that container is an array (level 0: the payload object) */
} walk_t;

/* Writes one value in place: with its key inside objects, bare inside arrays. */
static int value(void *ctx, const clra_nettrace_value_t *v)
{
    walk_t *w = ctx;
    FILE *f = w->f;
    int level = v->depth < LEVELS - 1 ? v->depth : LEVELS - 2;
    if (v->kind == CLRA_NETTRACE_END) {
        fputc(v->field->type == CLRA_NETTRACE_ARRAY ? ']' : '}', f);
        return 0;
    }
    if (!w->first[level])
        fputc(',', f);
    w->first[level] = 0;
    if (!w->array[level]) {
        text(f, v->name);
        fputc(':', f);
    }
    if (v->kind == CLRA_NETTRACE_BEGIN) {
        int array = v->field->type == CLRA_NETTRACE_ARRAY;
        fputc(array ? '[' : '{', f);
        w->first[level + 1] = 1;
        w->array[level + 1] = array;
        return 0;
    }
    char buf[96];
    switch (v->field->type) {
    case CLRA_NETTRACE_BOOL: fputs(v->i ? "true" : "false", f); break;
    case CLRA_NETTRACE_FLOAT: case CLRA_NETTRACE_DOUBLE:
        if (isfinite(v->f))
            fprintf(f, "%.17g", v->f);
        else
            fputs("null", f);
        break;
    case CLRA_NETTRACE_STRING: text(f, v->text); break;
    case CLRA_NETTRACE_GUID: case CLRA_NETTRACE_DATETIME: case CLRA_NETTRACE_DECIMAL:
        clra_nettrace_value_format(v, buf, sizeof buf);
        text(f, buf);
        break;
    default:
        clra_nettrace_value_format(v, buf, sizeof buf);
        fputs(buf, f);
    }
    return 0;
}

void convert_json_header(FILE *f, const clra_nettrace_header_t *h)
{
    fprintf(f, "{\"header\":{\"version\":%d,\"pid\":%u,\"pointer_size\":%u,\"processors\":%u,"
            "\"qpc_frequency\":%lld,\"sync_qpc\":%lld,\"sync_time\":\"%04u-%02u-%02uT%02u:%02u:"
            "%02u.%03uZ\",\"sampling_rate_ns\":%u}}\n", h->version, h->pid, h->pointer_size,
            h->processors, (long long)h->qpc_frequency, (long long)h->sync_qpc, h->sync_time[0],
            h->sync_time[1], h->sync_time[3], h->sync_time[4], h->sync_time[5], h->sync_time[6],
            h->sync_time[7], h->sampling_rate_ns);
}

/* The runtime's own events, whose metadata names no fields: named by the manifest's layouts,
 * their bytes kept in payload_hex as before; a payload cut short says where in
 * payload_incomplete, one longer than the layout (a newer version) counts the rest. */
static void runtime_payload(FILE *f, const clra_nettrace_event_t *ev, unsigned pointer_size)
{
    walk_t w = {f, {1}, {0}};
    size_t used = 0;
    clra_status_t st;
    fputs("\"payload\":{", f);
    int rc = clra_runtime_event_walk(ev->meta, ev->payload, ev->payload_len, pointer_size, value,
                                     &w, &used, &st);
    fputs("},", f);
    if (rc) {
        fputs("\"payload_incomplete\":", f);
        text(f, st.detail);
        fputc(',', f);
    } else if (used < ev->payload_len) {
        fprintf(f, "\"payload_extra_bytes\":%zu,", ev->payload_len - used);
    }
}

void convert_json_event(FILE *f, const clra_nettrace_event_t *ev, unsigned pointer_size)
{
    const clra_nettrace_metadata_t *m = ev->meta;
    const char *runtime_name = m && !m->field_count ? clra_runtime_event_name(m) : NULL;
    fputs("{\"provider\":", f);
    text(f, m ? m->provider : "");
    fprintf(f, ",\"event_id\":%u,\"name\":", m ? m->event_id : 0);
    text(f, m ? (m->event_name[0] || !runtime_name ? m->event_name : runtime_name) : "");
    fprintf(f, ",\"version\":%u,\"level\":%u,\"keywords\":\"0x%llx\",\"opcode\":%d,"
            "\"timestamp\":%lld,\"thread\":%llu,\"capture_thread\":%llu,\"processor\":%u,"
            "\"sequence\":%u,\"activity\":", m ? m->version : 0, m ? m->level : 0,
            (unsigned long long)(m ? m->keywords : 0), m ? m->opcode : -1,
            (long long)ev->timestamp, (unsigned long long)ev->thread_id,
            (unsigned long long)ev->capture_thread_id, ev->processor, ev->sequence);
    guid(f, ev->activity_id);
    fputs(",\"related_activity\":", f);
    guid(f, ev->related_activity_id);
    fputs(",\"stack\":[", f);
    unsigned ps = pointer_size == 4 ? 4 : 8;
    for (uint32_t i = 0; ev->stack && i + ps <= ev->stack_len; i += ps) {
        uint64_t ip = 0;
        memcpy(&ip, ev->stack + i, ps);
        fprintf(f, "%s\"0x%llx\"", i ? "," : "", (unsigned long long)ip);
    }
    fputs("],", f);
    walk_t w = {f, {1}, {0}};
    int described = m && m->field_count &&
                    clra_nettrace_payload_walk(m, ev->payload, ev->payload_len, NULL, NULL,
                                               NULL) == 0;
    if (described) { /* checked first, so a payload that does not fit leaves no half object */
        fputs("\"payload\":{", f);
        clra_nettrace_payload_walk(m, ev->payload, ev->payload_len, value, &w, NULL);
        fputc('}', f);
    } else {
        if (runtime_name)
            runtime_payload(f, ev, pointer_size);
        if (m && m->field_count)
            fputs("\"payload_error\":true,", f);
        fputs("\"payload_hex\":\"", f);
        for (uint32_t i = 0; i < ev->payload_len; i++)
            fprintf(f, "%02x", ev->payload[i]);
        fputc('"', f);
    }
    fputs("}\n", f);
}
