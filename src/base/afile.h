/*
 * Crash-safe replacement of a file the user cares about (labs, results):
 * write a temporary file beside it, fsync, rename over the target, fsync
 * the directory. A crash leaves the old file or the new one, never half of
 * either. Any thread.
 */
#ifndef RAIDLAB_AFILE_H
#define RAIDLAB_AFILE_H

#include <stddef.h>
#include <sys/types.h>

struct err;

/*
 * Replace path with len bytes of data. A new file gets mode 0644 less the
 * umask; an existing file keeps its mode. Returns 0 or a negative errno
 * with e filled.
 */
int afile_write(const char *path, const void *data, size_t len, struct err *e);

/* mkdir -p: create path and its missing parents with mode (less the
   umask). Returns 0 or a negative errno. */
int afile_mkdirs(const char *path, mode_t mode);

/*
 * The process's umask, read from /proc/self/status without changing it:
 * setting it to read it back would, for that moment, give files that other
 * threads create the wrong mode. Without /proc it falls back to umask()
 * with 077 in force meanwhile (a bystander's file is then too closed, never
 * too open).
 */
mode_t afile_umask(void);

#endif
