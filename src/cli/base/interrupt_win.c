/* interrupt_win.c - cli_on_interrupt with the console's control handler (SetConsoleCtrlHandler):
 * Windows has no SIGTERM, and its Ctrl-C runs the handler on a thread of its own. */
#include "base/interrupt.h"

#include <windows.h>

static void (*handler)(void);

/* Ctrl-C, Ctrl-Break and the console window closing all mean "stop now"; TRUE keeps the
 * default handler (which ends the process at once) from running. */
static BOOL WINAPI on_control(DWORD type)
{
    if (type != CTRL_C_EVENT && type != CTRL_BREAK_EVENT && type != CTRL_CLOSE_EVENT)
        return FALSE;
    handler();
    return TRUE;
}

void cli_on_interrupt(void (*fn)(void))
{
    handler = fn;
    SetConsoleCtrlHandler(on_control, TRUE);
}
