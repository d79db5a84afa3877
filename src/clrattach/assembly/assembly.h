/* assembly.h - just enough of ECMA-335 (PE file, CLI header, metadata tables) to tell whether
 * a file can serve as a startup hook before a runtime is asked to run it (internal). */
#ifndef CLRA_ASSEMBLY_H
#define CLRA_ASSEMBLY_H

#include <stddef.h>
#include <stdint.h>

typedef struct clra__span {
    const uint8_t *p;
    size_t n;
} clra__span_t;

/* The metadata streams a hook check needs. */
typedef struct clra__metadata {
    clra__span_t tables;  /* "#~" */
    clra__span_t strings; /* "#Strings" */
    clra__span_t blob;    /* "#Blob" */
} clra__metadata_t;

/* Finds the metadata streams of a PE image's CLI header. 0, or -1 with why saying what is
 * missing or out of bounds ("not a PE file", "no CLI header: a native library", ...). */
int clra__pe_metadata(const uint8_t *img, size_t len, clra__metadata_t *md, char *why,
                      size_t cap);

/* 0 when img is an assembly (it has a manifest) defining a top-level class StartupHook in the
 * global namespace with a static, non-generic, parameterless void Initialize(): what the
 * runtime looks for. -1 with why (one sentence) otherwise. Every offset is bounds-checked. */
int clra__hook_check_image(const uint8_t *img, size_t len, char *why, size_t cap);

#endif
