/* clrprof_util.h - text helpers for profilers: UTF-16 from the runtime, options from triggers. */
#ifndef CLRPROF_UTIL_H
#define CLRPROF_UTIL_H

#include "corprof.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Converts n UTF-16 units (stopping early at a NUL) to UTF-8 in out, always NUL-terminated when
 * cap > 0, never splitting a character; lone surrogates become U+FFFD. Returns bytes written. */
size_t clrprof_utf16_to_utf8(const WCHAR *s, size_t n, char *out, size_t cap);
/* Converts NUL-terminated UTF-8 to UTF-16 in out (NUL-terminated). Returns the units written
 * without the NUL, or -1 if the text is not valid UTF-8 or does not fit. */
long clrprof_utf8_to_utf16(const char *s, WCHAR *out, size_t cap);

/* Writes len bytes as lowercase hex into out (NUL-terminated, truncated to whole bytes when cap
 * is short). Returns the bytes encoded. */
size_t clrprof_hex(const void *data, size_t len, char *out, size_t cap);
/* Whether every byte is printable ASCII (so the bytes can be shown as text). */
int clrprof_printable(const void *data, size_t len);

/* Finds key in client data written as "key=value;key=value" (parsing stops at the first NUL
 * byte, so binary data after a NUL is ignored). Copies the value into out; returns 1 if found,
 * 0 if absent, -1 if the value does not fit. A bare "key" counts as found with value "". */
int clrprof_option(const void *data, size_t len, const char *key, char *out, size_t cap);
/* The same for an unsigned number (decimal, or hex with 0x); 1, 0 (absent), -1 (malformed). */
int clrprof_option_ulong(const void *data, size_t len, const char *key, unsigned long *out);

#ifdef __cplusplus
}
#endif

#endif
