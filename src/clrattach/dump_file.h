/* dump_file.h - what clra_dump_create asks of the file system, per platform (dump_file_unix.c,
 * dump_file_win.c): a file's identity before and after the dump, and the path's quoting. */
#ifndef CLRA_DUMP_FILE_H
#define CLRA_DUMP_FILE_H

/* Enough of a file's identity to tell whether the dump replaced it. */
typedef struct file_state {
    int exists;
    int err; /* errno of a failed look */
    unsigned long long ino; /* 0 on Windows */
    long long size, mtime_s, mtime_ns;
} file_state_t;

/* Fills fs for path (exists 0 and err set when it cannot be seen). */
void clra__dump_file_state(const char *path, file_state_t *fs);

/* Whether the request must carry path in quotes: on Windows the runtime pastes it unquoted into
 * createdump.exe's command line. */
int clra__dump_path_needs_quotes(const char *path);

#endif
