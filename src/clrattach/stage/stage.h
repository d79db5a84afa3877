/* stage.h - names and /proc/PID/maps lines, for staging profiler copies (internal). */
#ifndef CLRA_STAGE_H
#define CLRA_STAGE_H

#include "clrattach.h"
#include "target/procfs.h"

#include <stddef.h>

#define CLRA__STAGE_PREFIX "clrattach-stage-"
#define CLRA__STAGE_SUFFIX_LEN 6

/* Stage directories are named for the process they serve: "<ns_pid>-<start time>", its pid
 * inside its namespace and its start in clock ticks, so two containers that share one /tmp
 * volume and both run .NET as pid 1 never take each other's directories for their own. */
#define CLRA__STAGE_OWNER_MAX 32
/* Writes pid's owner tag for ns_pid and key (its start time, -1 unknown: 0 is used). */
void clra__stage_owner(char out[CLRA__STAGE_OWNER_MAX], int ns_pid, long long key);

/* Whether name is clrattach-stage-<owner>-XXXXXX with six ASCII letters or digits. */
int clra__stage_name_matches(const char *name, const char *owner);

/* The stage directory a mapped path lies in: the first path component that matches
 * clra__stage_name_matches for owner, copied into out. 1 found, 0 not. Only the component
 * is compared, because maps shows the path resolved in the target's tree (TMPDIR's symlinks
 * followed), which need not start with its TMPDIR as written. */
int clra__stage_dir_in_path(const char *path, const char *owner, char *out, size_t cap);

/* A staged copy (opaque in clrattach.h): its paths, and its directory held and locked against
 * sweeps until released or removed. */
struct clra_stage {
    int pid;                         /* the target, as this process sees it */
    char target_path[CLRA_PATH_MAX]; /* the copy as the target sees it: pass this to attach */
    char local_path[CLRA_PATH_MAX];  /* the same file as reachable from here */
    int dir_fd, parent_fd;
    char dir_name[64];
    char file_name[256];
};

/* A file in a stage directory whose copy was released before the runtime mapped it (an attach
 * that timed out): the runtime may still load it, so sweeps keep the directory until they see
 * it mapped, and then drop the mark. */
#define CLRA__STAGE_OWED ".owed"

/* Where a target keeps temporary files, as it sees them. */
typedef struct clra__stage_place {
    int ns_pid;                 /* its innermost pid */
    char owner[CLRA__STAGE_OWNER_MAX]; /* clra__stage_owner: what stage directory names carry */
    char tmpdir[CLRA_PATH_MAX]; /* absolute, without a trailing slash ("" stands for "/") */
} clra__stage_place_t;

/* The target's TMPDIR (the runtime's own choice: TMPDIR when absolute, else /tmp) and NSpid,
 * as discovery reads them. 0, CLRA_ENOPROC, or CLRA_EACCES when its environment is hidden. */
int clra__stage_place(int pid, clra__stage_place_t *pl, clra_status_t *st);
/* The CLRA_E* code for an errno met on the target's file tree. */
int clra__stage_errno(int e);

#endif
