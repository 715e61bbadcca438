/*
 * Whether a directory is safe to work in: the workloads of a run make
 * trees below their target, and whoever may rename entries in the
 * target or in a directory above it may swap what the run makes for
 * links to any file (a root run would then overwrite it). A target is
 * trusted when the target and every directory above it (every symbolic
 * link on the way followed, and counted too) belong to root or to the
 * user raidlab runs as, and none is writable by group or others unless
 * it has the sticky bit (as /tmp and /var/tmp do). The part of the path
 * that does not exist yet is made by the run, inside the last directory
 * that does, and so inherits its trust. dir itself must not be a
 * symbolic link (the engine opens it with O_NOFOLLOW). Reads lstat and
 * readlink only; any thread.
 */
#ifndef RAIDLAB_DIRTRUST_H
#define RAIDLAB_DIRTRUST_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct err;

/*
 * True when dir is trusted (above). Otherwise false, with e's message
 * naming dir, the directory or link to blame, its owner and its mode.
 * A path that cannot be read (EACCES, ELOOP) is not trusted either.
 */
bool dirtrust_check(const char *dir, struct err *e);

/* uid's user name into buf, or its number when the password database
   has none; returns buf. */
const char *dirtrust_user(uid_t uid, char *buf, size_t len);

#endif
