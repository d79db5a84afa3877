/* sweep_stage.c - after a profiler leaves, its staged copies go: detach, attach --hold and
 * profile all end so, and none of them owns the others' files. */
#include "base/cli.h"

#include <stdio.h>

/* The sweep's failures only matter to the next sweep (clra_stage_create sweeps too). */
void cli_sweep_stage(int pid, int quiet)
{
    int removed = 0;
    clra_status_t st;
    if (clra_stage_sweep(pid, &removed, &st) == 0 && removed > 0 && !quiet)
        printf("removed %d staged profiler cop%s from process %d's temp directory\n", removed,
               removed == 1 ? "y" : "ies", pid);
}
