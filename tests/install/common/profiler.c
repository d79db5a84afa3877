/* profiler.c - the smallest profiler on the installed libclrprof: it only has to link into a
 * loadable shared object that exports DllGetClassObject. */
#include <clrprof/clrprof_profiler.h>

static HRESULT tiny_attach(clrprof_profiler_t *p, const void *data, size_t len)
{
    (void)data;
    clrprof_log(p, "attached with %zu bytes of client data", len);
    return S_OK;
}

/* {0C0FFEE0-1234-4A5B-9C6D-7E8F90A1B2C3} */
static const clrprof_def_t tiny = {
    .name = "tiny",
    .clsid = {0x0C0FFEE0, 0x1234, 0x4A5B, {0x9C, 0x6D, 0x7E, 0x8F, 0x90, 0xA1, 0xB2, 0xC3}},
    .events = COR_PRF_MONITOR_MODULE_LOADS,
    .attach = tiny_attach,
};
CLRPROF_DEFINE(tiny)
