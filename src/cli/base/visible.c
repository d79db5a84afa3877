/* visible.c - text from a target (command lines, environment, paths under its TMPDIR, a
 * server's strings) shown on a terminal with its control characters made visible, so that no
 * process can move root's cursor, recolour the screen or forge a line of output. */
#include "base/cli.h"

#include <stdio.h>
#include <string.h>

#define VIS_SLOTS 8
#define VIS_CAP 8192

/* Writes the visible form of the control character c at out (room for 7 bytes). */
static size_t vis_control(unsigned c, char *out)
{
    static const char *const named[] = {['\n'] = "\\n", ['\t'] = "\\t", ['\r'] = "\\r",
                                        [0x1B] = "\\e"};
    if (c < sizeof named / sizeof named[0] && named[c]) {
        memcpy(out, named[c], 2);
        return 2;
    }
    return (size_t)snprintf(out, 7, c < 0x80 ? "\\x%02X" : "\\u%04X", c);
}

/* Whether bytes p[0..] start with a C1 control (U+0080..U+009F) in UTF-8: C2 80..C2 9F, which
 * some terminals act on like ESC sequences. */
static int is_c1(const unsigned char *p)
{
    return p[0] == 0xC2 && p[1] >= 0x80 && p[1] <= 0x9F;
}

/* Rotating static buffers: up to VIS_SLOTS results may be used in one printf. */
const char *cli_vis(const char *text)
{
    static char slots[VIS_SLOTS][VIS_CAP];
    static unsigned next;
    char *out = slots[next++ % VIS_SLOTS];
    size_t n = 0;
    if (!text)
        return "(none)";
    const unsigned char *p = (const unsigned char *)text;
    for (; *p && n + 8 < VIS_CAP; p++) {
        if (*p < 0x20 || *p == 0x7F) {
            n += vis_control(*p, out + n);
        } else if (is_c1(p)) {
            n += vis_control(p[1], out + n);
            p++;
        } else {
            out[n++] = (char)*p;
        }
    }
    if (*p) { /* cut: say so rather than end mid-way silently */
        memcpy(out + n, "...", 3);
        n += 3;
    }
    out[n] = '\0';
    return out;
}
