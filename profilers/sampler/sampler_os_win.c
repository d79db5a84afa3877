/* sampler_os_win.c - sampler_os.h on Windows: a thread's CPU time from GetThreadTimes (read by
 * suspend_walk_win.c, whose threads keep their handles), its name from GetThreadDescription
 * (what Thread.Name sets; looked up at run time, as older Windows and wine lack it), and the
 * final samples' file through _wopen. */
#include "sampler_os.h"
#include "suspend_walk.h"

#include <fcntl.h>
#include <io.h>
#include <stdio.h>
#include <sys/stat.h>
#include <windows.h>

/* For the walk method, which keeps no handles: one opened for the call (suspend_walk_win.c
 * reads the time). */
int thread_cpu_ns(uint32_t tid, uint64_t *out)
{
    sw_thread_t t = {.handle = OpenThread(THREAD_QUERY_LIMITED_INFORMATION, FALSE, tid)};
    int rc = sw_cpu_ns(&t, out);
    sw_close(&t);
    return rc;
}

typedef HRESULT(WINAPI *describe_fn)(HANDLE, PWSTR *);

void thread_name(uint32_t tid, char *out, size_t cap)
{
    static describe_fn describe;
    static int looked;
    if (!looked)
        describe = (describe_fn)(void (*)(void))GetProcAddress(GetModuleHandleW(L"kernel32.dll"),
                                                               "GetThreadDescription"),
        looked = 1;
    out[0] = '\0';
    HANDLE h = describe ? OpenThread(THREAD_QUERY_LIMITED_INFORMATION, FALSE, tid) : NULL;
    PWSTR text = NULL;
    if (h && SUCCEEDED(describe(h, &text)) && text && text[0] &&
        !WideCharToMultiByte(CP_UTF8, 0, text, -1, out, (int)cap, NULL, NULL))
        out[0] = '\0';
    if (text)
        LocalFree(text);
    if (h)
        CloseHandle(h);
    if (!out[0])
        snprintf(out, cap, "thread %u", (unsigned)tid);
}

/* The path is UTF-8 (launch sends it in the client data); binary, owner read and write. */
int final_open(const char *path)
{
    wchar_t wpath[1024];
    if (!MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, path, -1, wpath, 1024))
        return -1;
    return _wopen(wpath, _O_WRONLY | _O_CREAT | _O_TRUNC | _O_BINARY | _O_NOINHERIT,
                  _S_IREAD | _S_IWRITE);
}

int final_write(int fd, const void *data, size_t len)
{
    for (size_t done = 0; done < len;) {
        size_t chunk = len - done > (1u << 30) ? (1u << 30) : len - done;
        int n = _write(fd, (const char *)data + done, (unsigned)chunk);
        if (n <= 0)
            return -1;
        done += (size_t)n;
    }
    return 0;
}

void final_close(int fd)
{
    _close(fd);
}
