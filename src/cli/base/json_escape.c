/* json_escape.c - the command's one JSON string escaper: four copies had drifted apart in which
 * characters each escaped; the flags keep each output byte for byte as it was. */
#include "base/json_escape.h"

/* Strings come from the target (names, payloads), so every byte below 0x20 is escaped. */
void cli_json_escape(FILE *f, const char *s, unsigned flags)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        unsigned char c = *p;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c == '\n' && (flags & CLI_JSON_NEWLINE_SHORT))
            fputs("\\n", f);
        else if (c < 0x20 || ((flags & CLI_JSON_SCRIPT_SAFE) && (c == '<' || c == '>' || c == '&')))
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
}
