/* notify_a.c - the first notification-only test profiler (see notify.inc). */
#define NOTIFY_NAME "notify_a"
/* {155EFC5D-1806-4F40-8349-AC7CC6957FC0} */
#define NOTIFY_CLSID {0x155EFC5D, 0x1806, 0x4F40, {0x83, 0x49, 0xAC, 0x7C, 0xC6, 0x95, 0x7F, 0xC0}}
#include "notify.inc"
