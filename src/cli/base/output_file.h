/* output_file.h - the one way every verb creates a file the user named (--output, --format's
 * files beside a trace, launch's --trace-output and --profile). Root often runs clrattach in
 * directories other users can write, so the rules are:
 *  - no symbolic link is followed, anywhere in the path, unless root or we own the link (the
 *    kernel's protected_symlinks rule, applied everywhere and whatever the sysctl says); each
 *    directory is opened from the one before it, so a link swapped in later changes nothing;
 *  - a new file is created exclusively (O_EXCL): we never write through a name planted since;
 *  - an existing regular file is replaced only when it is ours, by a new file renamed over it:
 *    its old contents (and any other name a hard link gives them) are never cut short;
 *  - an existing FIFO or device (/dev/null, a pipe) is written to, never emptied, when root or
 *    we own it; anything another user owns is refused.
 * Windows has no such links or owners here (docs/windows.md): a file is created or emptied. */
#ifndef CLRA_CLI_OUTPUT_FILE_H
#define CLRA_CLI_OUTPUT_FILE_H

#include <stdio.h>

typedef struct out_file {
    int fd;          /* open for writing, close-on-exec; -1 once closed */
    int dir;         /* the directory that holds it (-1 on Windows) */
    int created;     /* nothing was there before: a failed run may remove it */
    char name[256];  /* its name in dir */
    unsigned long long dev, ino; /* the file we made, so a removal takes nothing else */
    const char *path; /* as the user gave it */
} out_file_t;

/* Opens path for writing by the rules above. flag names the option that chose the path and who
 * prefixes messages ("clrattach trace"). 0, or -1 after saying on stderr what was wrong and
 * what to do. */
int out_file_open(out_file_t *f, const char *path, const char *flag, const char *who);
/* Closes the file and its directory; 0, or -1 with errno when the last write failed. */
int out_file_close(out_file_t *f);
/* Closes, then removes the file if we created it and its name still holds it. */
void out_file_discard(out_file_t *f);
/* out_file_open as a stdio stream (binary), the directory closed: for writers that need no
 * removal. NULL after saying why. */
FILE *out_file_fopen(const char *path, const char *flag, const char *who);

#endif
