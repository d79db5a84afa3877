/* json_string.c - the JSON string escaper the writers share. */
#include "render/writers.h"

/* Escapes what JSON requires and what would end an HTML <script> (the flame graph page). */
void profile_json_string(FILE *f, const char *s)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20 || c == '<' || c == '>' || c == '&')
            fprintf(f, "\\u%04x", c); /* < > & escaped: the text may sit inside <script> */
        else
            fputc(c, f);
    }
}
