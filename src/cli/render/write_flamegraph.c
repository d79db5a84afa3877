/* write_flamegraph.c - a self-contained HTML flame graph: the stacks merged into one call tree
 * (root "all", then the thread with --threads, then callers before callees), written as JSON
 * inside the page of flamegraph_page.c. */
#include "render/flamegraph_page.h"
#include "base/json_escape.h"
#include "render/writers.h"

#include <stdlib.h>
#include <string.h>

typedef struct node {
    uint32_t frame, parent, first_child, next_sibling;
    uint64_t value;
} node_t;

typedef struct tree {
    node_t *nodes;
    size_t n, cap;
    uint64_t *keys; /* (parent << 32 | frame) + 1 -> node, open addressing */
    uint32_t *vals;
    size_t hcap;
    const profile_t *p;
} tree_t;

static int grow_hash(tree_t *t)
{
    size_t cap = t->hcap ? t->hcap * 2 : 4096;
    uint64_t *keys = calloc(cap, sizeof *keys);
    uint32_t *vals = calloc(cap, sizeof *vals);
    if (!keys || !vals) {
        free(keys), free(vals);
        return -1;
    }
    for (size_t i = 0; i < t->hcap; i++) {
        if (!t->keys[i])
            continue;
        size_t j = (t->keys[i] * 0x9E3779B97F4A7C15ULL >> 20) & (cap - 1);
        while (keys[j])
            j = (j + 1) & (cap - 1);
        keys[j] = t->keys[i], vals[j] = t->vals[i];
    }
    free(t->keys), free(t->vals);
    t->keys = keys, t->vals = vals, t->hcap = cap;
    return 0;
}

/* The child of parent for frame, created when new; UINT32_MAX when memory ran out. */
static uint32_t child(tree_t *t, uint32_t parent, uint32_t frame)
{
    if (2 * (t->n + 1) > t->hcap && grow_hash(t) != 0)
        return UINT32_MAX;
    uint64_t key = ((uint64_t)parent << 32 | frame) + 1;
    size_t j = (key * 0x9E3779B97F4A7C15ULL >> 20) & (t->hcap - 1);
    for (; t->keys[j]; j = (j + 1) & (t->hcap - 1))
        if (t->keys[j] == key)
            return t->vals[j];
    if (t->n == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 4096;
        node_t *nodes = realloc(t->nodes, cap * sizeof *nodes);
        if (!nodes)
            return UINT32_MAX;
        t->nodes = nodes, t->cap = cap;
    }
    t->nodes[t->n] = (node_t){frame, parent, UINT32_MAX, t->nodes[parent].first_child, 0};
    t->nodes[parent].first_child = (uint32_t)t->n;
    t->keys[j] = key, t->vals[j] = (uint32_t)t->n;
    return (uint32_t)t->n++;
}

/* Frame indexes past the profile's own: "all" and the thread labels. */
static uint32_t root_frame(const profile_t *p) { return (uint32_t)p->nframes; }
static uint32_t thread_frame(const profile_t *p, uint32_t th) { return (uint32_t)p->nframes + 1 + th; }

static int build(tree_t *t, const profile_t *p, int threads)
{
    t->nodes = malloc(sizeof *t->nodes);
    if (!t->nodes)
        return -1;
    t->nodes[0] = (node_t){root_frame(p), UINT32_MAX, UINT32_MAX, UINT32_MAX, 0};
    t->n = t->cap = 1;
    for (size_t i = 0; i < p->nstacks; i++) {
        const profile_stack_t *s = &p->stacks[i];
        uint32_t at = 0;
        t->nodes[0].value += s->weight;
        if (threads && (at = child(t, 0, thread_frame(p, s->thread))) != UINT32_MAX)
            t->nodes[at].value += s->weight;
        for (uint32_t k = s->len; k > 0 && at != UINT32_MAX; k--)
            if ((at = child(t, at, p->arena[s->off + k - 1])) != UINT32_MAX)
                t->nodes[at].value += s->weight;
        if (at == UINT32_MAX)
            return -1;
    }
    return 0;
}

static const profile_t *sort_profile;
static const node_t *sort_nodes;
static char sort_label[2][128];

static const char *name_of(const profile_t *p, uint32_t frame, char *buf)
{
    if (frame < p->nframes)
        return p->frames[frame];
    if (frame == p->nframes)
        return "all";
    return profile_thread_label(p, frame - (uint32_t)p->nframes - 1, buf, 128);
}

static int by_name(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return strcmp(name_of(sort_profile, sort_nodes[x].frame, sort_label[0]),
                  name_of(sort_profile, sort_nodes[y].frame, sort_label[1]));
}

/* Writes the nodes in preorder with each node's children sorted by name; ids are the
 * preorder positions. Iterative: a recursion 1,000 frames deep is ordinary. */
static int write_nodes(const tree_t *t, const profile_t *p, FILE *f)
{
    uint32_t *order = malloc(t->n * sizeof *order), *stack = malloc(t->n * sizeof *stack);
    uint32_t *kids = malloc(t->n * sizeof *kids), *pos = malloc(t->n * sizeof *pos);
    if (!order || !stack || !kids || !pos) {
        free(order), free(stack), free(kids), free(pos);
        return -1;
    }
    size_t sp = 0, out = 0;
    stack[sp++] = 0;
    sort_profile = p, sort_nodes = t->nodes;
    while (sp) {
        uint32_t v = stack[--sp];
        pos[v] = (uint32_t)out;
        order[out++] = v;
        size_t nk = 0;
        for (uint32_t c = t->nodes[v].first_child; c != UINT32_MAX; c = t->nodes[c].next_sibling)
            kids[nk++] = c;
        qsort(kids, nk, sizeof *kids, by_name);
        while (nk) /* pushed in reverse, so the first name comes out first */
            stack[sp++] = kids[--nk];
    }
    for (size_t i = 0; i < out; i++) {
        const node_t *nd = &t->nodes[order[i]];
        fprintf(f, "%s%u,%ld,%llu", i ? "," : "", nd->frame,
                nd->parent == UINT32_MAX ? -1L : (long)pos[nd->parent],
                (unsigned long long)nd->value);
    }
    free(order), free(stack), free(kids), free(pos);
    return 0;
}

int profile_write_flamegraph(const profile_t *p, const profile_write_opts_t *o, FILE *f)
{
    tree_t t = {0};
    char label[128];
    int rc = build(&t, p, o && o->threads);
    if (!rc) {
        fputs(flamegraph_page_head, f);
        fputs("{\"title\":\"", f);
        cli_json_escape(f, p->title ? p->title : "clrattach profile", CLI_JSON_SCRIPT_SAFE);
        fprintf(f, "\",\"unit\":\"%s\",\"frames\":[", p->weight_unit);
        for (size_t i = 0; i < p->nframes + 1 + p->nthreads; i++) {
            fputs(i ? ",\"" : "\"", f);
            cli_json_escape(f, name_of(p, (uint32_t)i, label), CLI_JSON_SCRIPT_SAFE);
            fputc('"', f);
        }
        fputs("],\"nodes\":[", f);
        rc = write_nodes(&t, p, f);
        fputs("]}\n", f);
        fputs(flamegraph_page_tail, f);
    }
    free(t.nodes), free(t.keys), free(t.vals);
    return rc || ferror(f) ? -1 : 0;
}
