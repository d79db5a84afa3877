/* dump_hint_win.c - dump's last hint on Windows (base/platform.h). */
#include "base/platform.h"

#include <stdio.h>

/* No uids; GenerateCoreDump3 brings no createdump text on Windows. */
void cli_platform_dump_hint(char *out, size_t cap, const char *dir, int owner, int other)
{
    (void)owner, (void)other;
    snprintf(out, cap, "the runtime runs createdump.exe (beside it), which writes the dump "
             "with dbghelp's MiniDumpWriteDump; its output and any crash report go to the "
             "target's console (--log adds its progress); make sure %s is writable by the "
             "target's user", dir);
}
