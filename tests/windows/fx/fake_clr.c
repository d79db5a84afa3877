/* fake_clr.c - a DLL named clr.dll that does nothing: loaded by fake_target.exe so that the
 * process looks like a .NET Framework 4 process to clrattach (it finds runtimes by module name). */
#include <windows.h>

/* Nothing to set up or tear down. */
BOOL WINAPI DllMain(HINSTANCE self, DWORD reason, LPVOID reserved)
{
    (void)self, (void)reason, (void)reserved;
    return TRUE;
}
