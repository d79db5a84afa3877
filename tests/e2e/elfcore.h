/* elfcore.h - checks that a file is a complete core dump for this machine (ELF64, ET_CORE)
 * and counts what a debugger needs from it: memory segments and one NT_PRSTATUS per thread. */
#ifndef CLRA_ELFCORE_H
#define CLRA_ELFCORE_H

typedef struct elfcore_info {
    long long file_size;
    int load_segments;   /* PT_LOAD: memory contents */
    int note_segments;   /* PT_NOTE */
    int prstatus;        /* NT_PRSTATUS notes named CORE: one per thread */
    int pid_thread_seen; /* one of them is the thread whose id is the pid asked for */
    char error[256];     /* why the file is not a valid core dump; "" when it is */
} elfcore_info_t;

/* 0 when path is a valid core dump of this machine's kind, -1 with info->error saying why not.
 * Every header, segment and note is bounds-checked against the file. */
int elfcore_check(const char *path, int pid, elfcore_info_t *info);

#endif
