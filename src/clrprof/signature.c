/* signature.c - a method's parameter list as dotnet-stack prints it ("(int32,class
 * System.String[])", ILDasm's spelling), decoded from the method's metadata signature blob
 * (ECMA-335 II.23.2). Every read is bounds-checked and nesting is limited: a corrupt blob ends
 * the text with "?" rather than reading past it. */
#include "clrprof/clrprof_profiler.h"
#include "clrprof/clrprof_signature.h"
#include "clrprof/clrprof_util.h"
#include "clrprof/cormeta.h"

#include <stdio.h>
#include <string.h>

#define SIG_MAX_NESTING 16
#define SIG_MAX_PARAMS 64

typedef struct sig_reader {
    const uint8_t *p, *end;
    int bad;
    int quiet; /* reading past the return type: nothing is written */
    clrprof_sig_namer_t namer;
    void *ctx;
    char *out;
    size_t cap, len;
} sig_reader_t;

/* Appends text; after an error (a corrupt blob, or text that did not fit) nothing more. */
static void put(sig_reader_t *r, const char *s)
{
    size_t n = strlen(s);
    if (r->quiet || r->bad)
        return;
    if (r->len + n + 1 > r->cap) {
        r->bad = 1;
        return;
    }
    memcpy(r->out + r->len, s, n + 1);
    r->len += n;
}

/* A compressed unsigned integer (1, 2 or 4 bytes, II.23.2). */
static uint32_t take_uint(sig_reader_t *r)
{
    if (r->p >= r->end)
        return r->bad = 1, 0;
    uint8_t b = *r->p;
    size_t need = (b & 0x80) == 0 ? 1 : (b & 0xC0) == 0x80 ? 2 : (b & 0xE0) == 0xC0 ? 4 : 0;
    if (need == 0 || (size_t)(r->end - r->p) < need)
        return r->bad = 1, 0;
    uint32_t v = need == 1 ? b : need == 2 ? (uint32_t)(b & 0x3F) : (uint32_t)(b & 0x1F);
    for (size_t i = 1; i < need; i++)
        v = v << 8 | r->p[i];
    r->p += need;
    return v;
}

/* A TypeDefOrRefOrSpec coded index, named by the namer. */
static void put_type_token(sig_reader_t *r)
{
    static const uint32_t tables[] = {mdtTypeDef, mdtTypeRef, mdtTypeSpec};
    uint32_t coded = take_uint(r);
    char name[512] = "?";
    if (r->bad || (coded & 3) == 3)
        return (void)(r->bad = 1);
    if (!r->namer || r->namer(r->ctx, tables[coded & 3] | (coded >> 2), name, sizeof name) != 0)
        snprintf(name, sizeof name, "?");
    put(r, name);
}

static void put_type(sig_reader_t *r, int depth);

/* ARRAY's shape after its element type: rank, sizes, lower bounds; written "[,]". */
static void put_array_shape(sig_reader_t *r)
{
    uint32_t rank = take_uint(r), n = take_uint(r);
    for (uint32_t i = 0; i < n && !r->bad; i++)
        take_uint(r);
    n = take_uint(r);
    for (uint32_t i = 0; i < n && !r->bad; i++)
        take_uint(r); /* signed compressed lower bounds: the same widths */
    if (r->bad || rank > 32)
        return (void)(r->bad = 1);
    put(r, "[");
    for (uint32_t i = 1; i < rank; i++)
        put(r, ",");
    put(r, "]");
}

/* GENERICINST: "class Name`1<int32,string>". */
static void put_generic(sig_reader_t *r, int depth)
{
    if (r->p >= r->end)
        return (void)(r->bad = 1);
    put(r, *r->p++ == ELEMENT_TYPE_VALUETYPE ? "value class " : "class ");
    put_type_token(r);
    uint32_t n = take_uint(r);
    if (n == 0 || n > SIG_MAX_PARAMS)
        return (void)(r->bad = 1);
    put(r, "<");
    for (uint32_t i = 0; i < n && !r->bad; i++) {
        if (i)
            put(r, ",");
        put_type(r, depth + 1);
    }
    put(r, ">");
}

/* The ILDasm spelling of a one-byte element type, or NULL. */
static const char *primitive(uint8_t t)
{
    static const char *const names[] = {
        [ELEMENT_TYPE_VOID] = "void",     [ELEMENT_TYPE_BOOLEAN] = "bool",
        [ELEMENT_TYPE_CHAR] = "char",     [ELEMENT_TYPE_I1] = "int8",
        [ELEMENT_TYPE_U1] = "uint8",      [ELEMENT_TYPE_I2] = "int16",
        [ELEMENT_TYPE_U2] = "uint16",     [ELEMENT_TYPE_I4] = "int32",
        [ELEMENT_TYPE_U4] = "uint32",     [ELEMENT_TYPE_I8] = "int64",
        [ELEMENT_TYPE_U8] = "uint64",     [ELEMENT_TYPE_R4] = "float32",
        [ELEMENT_TYPE_R8] = "float64",    [ELEMENT_TYPE_STRING] = "class System.String",
        [ELEMENT_TYPE_TYPEDBYREF] = "typedref", [ELEMENT_TYPE_I] = "native int",
        [ELEMENT_TYPE_U] = "native uint", [ELEMENT_TYPE_OBJECT] = "class System.Object",
    };
    return t < sizeof names / sizeof names[0] ? names[t] : NULL;
}

/* One Type (II.23.2.12), custom modifiers and pinned markers passed over. A function pointer
 * is not decoded: it ends the text with "?". */
static void put_type(sig_reader_t *r, int depth)
{
    char num[16];
    if (r->bad || depth > SIG_MAX_NESTING || r->p >= r->end)
        return (void)(r->bad = 1);
    uint8_t t = *r->p++;
    const char *name = primitive(t);
    if (name)
        return put(r, name);
    switch (t) {
    case ELEMENT_TYPE_CLASS:
    case ELEMENT_TYPE_VALUETYPE:
        put(r, t == ELEMENT_TYPE_CLASS ? "class " : "value class ");
        return put_type_token(r);
    case ELEMENT_TYPE_SZARRAY:
        put_type(r, depth + 1);
        return put(r, "[]");
    case ELEMENT_TYPE_ARRAY:
        put_type(r, depth + 1);
        return put_array_shape(r);
    case ELEMENT_TYPE_PTR:
    case ELEMENT_TYPE_BYREF:
        put_type(r, depth + 1);
        return put(r, t == ELEMENT_TYPE_PTR ? "*" : "&");
    case ELEMENT_TYPE_VAR:
    case ELEMENT_TYPE_MVAR:
        snprintf(num, sizeof num, "%s%u", t == ELEMENT_TYPE_VAR ? "!" : "!!", take_uint(r));
        return r->bad ? (void)0 : put(r, num);
    case ELEMENT_TYPE_GENERICINST:
        return put_generic(r, depth);
    case ELEMENT_TYPE_CMOD_REQD:
    case ELEMENT_TYPE_CMOD_OPT:
        take_uint(r);
        return put_type(r, depth + 1);
    case ELEMENT_TYPE_PINNED:
        return put_type(r, depth + 1);
    default:
        r->bad = 1;
    }
}

int clrprof__sig_params(const uint8_t *sig, size_t len, clrprof_sig_namer_t namer, void *ctx,
                        char *out, size_t cap)
{
    if (!out || cap < 4)
        return -1;
    sig_reader_t r = {.p = sig, .end = sig + len, .namer = namer, .ctx = ctx, .out = out,
                      .cap = cap};
    put(&r, "("); /* first, so even a blob bad from its first byte reads "(?)" */
    r.bad = !sig || len == 0;
    uint8_t conv = r.bad ? 0 : *r.p++;
    if (conv & 0x10) /* GENERIC: the count of the method's type parameters */
        take_uint(&r);
    uint32_t n = take_uint(&r);
    r.bad |= n > SIG_MAX_PARAMS;
    r.quiet = 1; /* the return type is read past, not written */
    put_type(&r, 0);
    r.quiet = 0;
    for (uint32_t i = 0; i < n && !r.bad; i++) {
        if (i)
            put(&r, ",");
        if (r.p < r.end && *r.p == ELEMENT_TYPE_SENTINEL) {
            r.p++;
            put(&r, "...,");
        }
        put_type(&r, 0);
    }
    int bad = r.bad;
    if (bad) { /* keep what was whole, then "?)" */
        r.len = r.len + 3 > cap ? cap - 3 : r.len;
        out[r.len] = '\0';
        r.bad = 0;
        put(&r, "?");
    }
    put(&r, ")");
    return bad ? 1 : 0;
}
