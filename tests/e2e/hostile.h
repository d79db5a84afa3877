/* hostile.h - what the tests of an unprivileged user against root's clrattach share: becoming
 * uid NOBODY to plant files, root-only victims, and checks of text a target chose. */
#ifndef CLRA_E2E_HOSTILE_H
#define CLRA_E2E_HOSTILE_H

#define NOBODY 65534

/* Skips the test unless root (it runs the target and plants files as another user). */
void need_root(void);
/* Runs fn(a, b) in a child that has become uid NOBODY; fails the test unless it returned 0. */
void as_nobody(int (*fn)(const char *a, const char *b), const char *a, const char *b);
/* symlink(target, link_path), for as_nobody. */
int plant_link(const char *target, const char *link_path);
/* A new file at path holding text, for as_nobody. */
int plant_file(const char *path, const char *text);
/* A root-only (0600) file holding text; its path goes to out. */
void make_secret(char out[64], const char *text);
/* A fresh directory owned by NOBODY (mode 0755, not sticky); its path goes to out. */
void make_nobodys_dir(char out[64]);
/* The whole content of a small file, not following a link (static buffer). */
const char *file_text(const char *path);
/* Fails the test if text holds a raw control character other than a newline or tab, or a
 * line that begins with forged. */
void assert_no_raw_controls(const char *text, const char *forged);

#endif
