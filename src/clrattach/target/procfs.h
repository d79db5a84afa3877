/* procfs.h - the only reader of /proc (internal).
 *
 * Every question about another process that Linux answers through /proc (who owns it, which
 * pid it sees itself as, when it started, its environment, what it maps, whether it sees our
 * file tree) is asked here, so each file has one parser and one set of quirks. proc_root is
 * "/proc" except in unit tests, which build fake trees. The pure parsers take text, so tests and
 * fuzzers reach them without any process. A Windows build has no twin of this file: its
 * endpoint and identity code ask the Win32 API directly. */
#ifndef CLRA_TARGET_PROCFS_H
#define CLRA_TARGET_PROCFS_H

#include "clrattach.h"

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define CLRA__PROC "/proc"

/* ---- files ---- */

/* Reads a small file into buf, NUL-terminated. Its length, or -errno. */
long clra__read_small_file(const char *path, char *buf, size_t cap);
/* <proc_root>/<pid>/<entry> into buf, like clra__read_small_file. */
long clra__procfs_read(const char *proc_root, int pid, const char *entry, char *buf, size_t cap);
/* Whether <proc_root>/<pid> exists. */
int clra__procfs_exists(const char *proc_root, int pid);
/* "<proc_root>/<pid>/<entry>" into out; 0, or CLRA_EINVAL when it does not fit. */
int clra__procfs_path(const char *proc_root, int pid, const char *entry, char *out, size_t cap);

/* ---- status: ids and NSpid in one pass ---- */

typedef struct clra__proc_status {
    int ns_pid;   /* the last NSpid value (the pid as the process sees itself), -1 if absent */
    int have_uid; /* the Uid: line parsed */
    int have_gid; /* the Gid: line parsed */
    uid_t uid[4]; /* real, effective, saved, file-system */
    gid_t gid[4];
} clra__proc_status_t;

/* Parses a /proc/PID/status text in one pass. 0 when Uid and Gid both parsed, CLRA_EPROTO
 * otherwise; whatever did parse is filled either way. */
int clra__parse_status(const char *status_text, clra__proc_status_t *out);
/* Reads and parses pid's status. 0, CLRA_ENOPROC (unreadable or gone) or CLRA_EPROTO. */
int clra__procfs_status(const char *proc_root, int pid, clra__proc_status_t *out);
/* The last value of the NSpid: line in a /proc/PID/status text, or -1 when absent/malformed. */
int clra__parse_nspid(const char *status_text);

/* ---- stat ---- */

/* Field number field (1-based, as in proc(5)) of a /proc/PID/stat text, counted after the
 * last ')'; only fields 3 onwards, only non-negative integers. -1 on failure. */
long long clra__stat_field(const char *stat_text, int field);
/* Field 22 (starttime) of a /proc/PID/stat text, parsed after the last ')'. -1 on failure. */
long long clra__parse_starttime(const char *stat_text);
/* pid's start time in clock ticks (the runtime's socket key), -1 when unknown. */
long long clra__procfs_start_time(const char *proc_root, int pid);
/* When pid started, in seconds since the epoch (boot time from proc_root/stat plus its start
 * time), -1 when unknown. Whole seconds: btime is, and the clock may have been stepped since. */
long long clra__procfs_started_at(const char *proc_root, int pid);
/* Whether pid is a live user process: not gone, not a zombie, not a kernel thread. */
int clra__procfs_is_live_user(const char *proc_root, int pid);

/* ---- environ, cmdline, the process list ---- */

/* Copies name's value out of a NUL-separated environ block. 1 found, 0 absent, -1 too long. */
int clra__environ_get(const char *environ, size_t len, const char *name, char *out, size_t cap);
/* pid's whole environment block, allocated (free it). Its length, or -errno. */
long clra__procfs_environ(const char *proc_root, int pid, char **out);
/* pid's command line with the NULs between arguments turned into spaces; NULL if unreadable. */
char *clra__procfs_cmdline(const char *proc_root, int pid);
/* The numeric entries of proc_root, ascending (allocated). 0, or a negative CLRA_E* code with
 * st->detail. */
int clra__procfs_pids(const char *proc_root, int **pids, size_t *n, clra_status_t *st);

/* ---- maps ---- */

/* One line of /proc/PID/maps. */
typedef struct clra__maps_line {
    const char *text; /* the line as read, without its newline */
    uint64_t inode;
    const char *path; /* "" for an anonymous mapping */
    int cut;          /* longer than any real path: text and path hold only its start */
} clra__maps_line_t;

/* Calls fn for each line of pid's maps until fn returns non-zero. 0 when every line was seen,
 * 1 when fn stopped early, -errno when the file could not be opened or read in full (a process
 * exiting midway leaves a cut file, which must never read as "not mapped"). */
typedef int (*clra__maps_fn)(void *ctx, const clra__maps_line_t *line);
int clra__procfs_maps_each(const char *proc_root, int pid, clra__maps_fn fn, void *ctx);
/* Copies the file path of one /proc/PID/maps line (everything after the inode field, without
 * the newline; it may contain spaces and end in " (deleted)") into out. 1 when the mapping
 * names a file (starts with '/'), 0 for anonymous and pseudo mappings ([heap], [vdso]) or a
 * malformed or overlong line. */
int clra__maps_line_path(const char *line, char *out, size_t cap);
/* Where the path field of a maps line starts ("" for anonymous mappings), NULL when the line
 * has fewer than five fields. */
const char *clra__maps_path_start(const char *line);
/* Whether pid maps a .NET runtime library: 1, 0, or -errno when unreadable. */
int clra__maps_dotnet(const char *proc_root, int pid);
/* Whether any mapping of pid has this inode: 1, 0, or -errno when unreadable. */
int clra__procfs_inode_mapped(const char *proc_root, int pid, uint64_t inode);

/* ---- file trees ---- */

/* Whether pid sees another file tree than we do: another mount namespace, or a root other
 * than "/" (chroot). When it does, root gets "<proc_root>/<pid>/root", the way into it;
 * otherwise root is "". Unreadable links (no ptrace access) count as "the same", since the
 * root link would be unreadable too. */
int clra__procfs_other_tree(const char *proc_root, int pid, char *root, size_t cap);
/* What uid, one of ours, is inside pid's user namespace: a listener there reads it from
 * SO_PEERCRED. 1 with *inside set (uid itself when the namespace is ours), 0 when it has no
 * mapping there (the namespace sees the overflow uid, 65534), -1 when unreadable. */
int clra__procfs_uid_inside(const char *proc_root, int pid, uid_t uid, uid_t *inside);
/* Translates id through a uid_map or gid_map text ("inside outside count" lines, outside in
 * the reader's ids): 1 with *inside set, 0 when no line maps it. */
int clra__parse_id_map(const char *map_text, uint32_t id, uint32_t *inside);

/* pid's working directory as its own file tree names it (the target of <proc_root>/<pid>/cwd),
 * for a relative TMPDIR, which the runtime resolves against it. 0, or -1 when unreadable. */
int clra__procfs_cwd(const char *proc_root, int pid, char *out, size_t cap);

/* "/proc/self/fd/<fd>/<name>": a name inside an open directory, for calls that take only a
 * path (connect to a socket whose full path exceeds sun_path). 0, or CLRA_EINVAL when it does
 * not fit in cap. */
int clra__procfs_fd_path(int dir_fd, const char *name, char *out, size_t cap);

#endif
