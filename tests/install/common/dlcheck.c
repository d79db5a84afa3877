/* dlcheck.c - loads a profiler the way the runtime does (dlopen, then DllGetClassObject) and
 * asks it for a class it does not implement, which must fail cleanly. */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>

typedef int32_t (*get_class_object_fn)(const void *clsid, const void *iid, void **ppv);

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: dlcheck PROFILER.so\n");
        return 2;
    }
    void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        fprintf(stderr, "dlopen: %s\n", dlerror());
        return 1;
    }
    get_class_object_fn get;
    *(void **)&get = dlsym(lib, "DllGetClassObject");
    if (!get) {
        fprintf(stderr, "dlsym DllGetClassObject: %s\n", dlerror());
        return 1;
    }
    static const unsigned char unknown_clsid[16], iid[16];
    void *obj = NULL;
    int32_t hr = get(unknown_clsid, iid, &obj);
    if (hr >= 0 || obj) {
        fprintf(stderr, "DllGetClassObject answered 0x%08x for an unknown CLSID\n", (unsigned)hr);
        return 1;
    }
    printf("DllGetClassObject ok (unknown CLSID -> 0x%08x)\n", (unsigned)hr);
    dlclose(lib);
    return 0;
}
