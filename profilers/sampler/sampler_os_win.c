/* sampler_os_win.c - sampler_os.h on Windows: a thread's CPU time from GetThreadTimes, its
 * name from GetThreadDescription (what Thread.Name sets; looked up at run time, as older
 * Windows and wine lack it), and the final samples' file through _wopen. */
#include "sampler_os.h"

#include <fcntl.h>
#include <io.h>
#include <stdio.h>
#include <sys/stat.h>
#include <windows.h>

int thread_cpu_ns(uint32_t tid, uint64_t *out)
{
    FILETIME created, exited, kernel, user;
    HANDLE h = OpenThread(THREAD_QUERY_LIMITED_INFORMATION, FALSE, tid);
    DWORD code = 0;
    int ok = h && GetThreadTimes(h, &created, &exited, &kernel, &user) &&
             GetExitCodeThread(h, &code) && code == STILL_ACTIVE;
    if (h)
        CloseHandle(h);
    if (!ok)
        return -1;
    uint64_t k = (uint64_t)kernel.dwHighDateTime << 32 | kernel.dwLowDateTime;
    uint64_t u = (uint64_t)user.dwHighDateTime << 32 | user.dwLowDateTime;
    *out = (k + u) * 100; /* 100 ns units */
    return 0;
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
