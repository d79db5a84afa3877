/* target_root.h - files inside a target's own file tree, reached through /proc/PID/root
 * (internal). Paths are resolved as the target would resolve them: an absolute symlink inside
 * a container points into the container, never at the host's file of the same name. */
#ifndef CLRA_TARGET_ROOT_H
#define CLRA_TARGET_ROOT_H

#include "clrattach.h"

#include <sys/types.h>

/* Opens pid's root directory (O_PATH). 0 with *fd, or CLRA_ENOPROC / CLRA_EACCES / CLRA_EIO
 * with st->detail saying which. */
int clra__root_open(int pid, int *fd, clra_status_t *st);

/* openat(root_fd, path, flags, mode) with path (absolute, as the target sees it) resolved
 * inside root_fd: openat2 RESOLVE_IN_ROOT, or on kernels before 5.6 a walk that refuses
 * symlinks (ELOOP) and "..". The new descriptor, or -errno. */
int clra__root_openat(int root_fd, const char *path, int flags, mode_t mode);
/* The pre-5.6 fallback on its own (for tests): one component at a time, never following a
 * symlink, so nothing leads out of root_fd; a symlink on the path or ".." is -ELOOP. */
int clra__root_walk_openat(int root_fd, const char *path, int flags, mode_t mode);

/* Whether profiler_path, a path the target is asked to open, exists in its file tree when that
 * tree is not ours (another mount namespace or a chroot). 0 when it exists, when the trees are
 * the same (the runtime's own answer is clearer there), or when we cannot tell; CLRA_EINVAL
 * with st->detail when it certainly does not exist there. */
int clra__target_file_check(int pid, const char *profiler_path, clra_status_t *st);

#endif
