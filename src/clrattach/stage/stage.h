/* stage.h - names and /proc/PID/maps lines, for staging profiler copies (internal). */
#ifndef CLRA_STAGE_H
#define CLRA_STAGE_H

#include "clrattach.h"
#include "target/procfs.h"

#include <stddef.h>

#define CLRA__STAGE_PREFIX "clrattach-stage-"
#define CLRA__STAGE_SUFFIX_LEN 6

/* Whether name is clrattach-stage-<ns_pid>-XXXXXX with six ASCII letters or digits. */
int clra__stage_name_matches(const char *name, int ns_pid);

/* The stage directory a mapped path lies in: the first path component that matches
 * clra__stage_name_matches for ns_pid, copied into out. 1 found, 0 not. Only the component
 * is compared, because maps shows the path resolved in the target's tree (TMPDIR's symlinks
 * followed), which need not start with its TMPDIR as written. */
int clra__stage_dir_in_path(const char *path, int ns_pid, char *out, size_t cap);

/* A staged copy (opaque in clrattach.h): its paths, and its directory held and locked against
 * sweeps until released or removed. */
struct clra_stage {
    int pid;                         /* the target, as this process sees it */
    char target_path[CLRA_PATH_MAX]; /* the copy as the target sees it: pass this to attach */
    char local_path[CLRA_PATH_MAX];  /* the same file as reachable from here */
    int dir_fd, parent_fd;
    char dir_name[48];
    char file_name[256];
};

/* A file in a stage directory whose copy was released before the runtime mapped it (an attach
 * that timed out): the runtime may still load it, so sweeps keep the directory until they see
 * it mapped, and then drop the mark. */
#define CLRA__STAGE_OWED ".owed"

/* Where a target keeps temporary files, as it sees them. */
typedef struct clra__stage_place {
    int ns_pid;                 /* its innermost pid, the number in stage directory names */
    char tmpdir[CLRA_PATH_MAX]; /* absolute, without a trailing slash ("" stands for "/") */
} clra__stage_place_t;

/* The target's TMPDIR (the runtime's own choice: TMPDIR when absolute, else /tmp) and NSpid,
 * as discovery reads them. 0, CLRA_ENOPROC, or CLRA_EACCES when its environment is hidden. */
int clra__stage_place(int pid, clra__stage_place_t *pl, clra_status_t *st);
/* The CLRA_E* code for an errno met on the target's file tree. */
int clra__stage_errno(int e);

#endif
