/* notify_b.c - the second notification-only test profiler (see notify.inc). */
#define NOTIFY_NAME "notify_b"
/* {F490B88A-2E6A-417C-ABEC-95D42D5188D0} */
#define NOTIFY_CLSID {0xF490B88A, 0x2E6A, 0x417C, {0xAB, 0xEC, 0x95, 0xD4, 0x2D, 0x51, 0x88, 0xD0}}
#include "notify.inc"
