/*
 * Reading a lab file's text for the loader (lab-load.c), before
 * libconfig sees it: a regular file, or a pipe (`check /dev/stdin`,
 * `<(...)`) read to its end. A named FIFO, a device or a socket is
 * refused without blocking (opened O_NONBLOCK, then fstat()ed: a FIFO
 * with no writer would hang `check` and the TUI's lab list forever), and
 * so is a NUL byte (libconfig would silently stop there). Any thread.
 */
#ifndef RAIDLAB_LAB_READ_H
#define RAIDLAB_LAB_READ_H

struct errlist;

/* A lab file is small text; this bounds what a wrong path can cost. */
#define LAB_FILE_MAX (4 << 20)

/* The whole file, NUL-terminated, or NULL with errs given the reason
   (file, line for a NUL byte). */
char *lab_read_file(const char *path, struct errlist *errs);

#endif
