/*
 * untar's writer: makes tar members under one directory the way GNU tar
 * extracts them, with *at() calls relative to a descriptor of it, about
 * one open per file and no walk of the path. Internal to the untar
 * workload; one worker thread owns a writer.
 *
 * Contract:
 * - Names are relative to the directory and already safe (no leading
 *   "/", no ".." component: the caller strips them as tar does). A hard
 *   link's target is such a name too.
 * - No symlink exists under the directory until untar_writer_finish():
 *   a symlink member is an empty mode-0 placeholder file, made O_EXCL
 *   and remembered by device and inode. A later member whose path goes
 *   through it fails with ENOTDIR; one that replaces it wins, and the
 *   symlink is then not made. With the directory empty and private at
 *   the start, no path can lead out of it while members are written.
 * - untar_writer_finish() turns the placeholders still in place into
 *   the symlinks (and the hard links made to them), then gives the
 *   directories their modes and owners, deepest first, so files could
 *   be created in directories that end up read-only.
 * - A directory's times are set when the archive leaves it, as GNU
 *   tar's delayed_set_stat does: untar_writer_next() is told each
 *   member's name first, and sets the times of the directories the
 *   member is not in. A later member made inside such a directory (its
 *   members are apart in the archive) then gives it the time of
 *   extraction, as under tar. The rest get theirs at the finish.
 * - Where GNU tar defers a symlink too (an absolute or ".." target), the
 *   open directory it is directly in and those that one is in get their
 *   times only at the finish, after the links, later members or not; so
 *   does ".". A link tar makes at once, in a directory the archive then
 *   left and nothing changed since, leaves that directory's times as
 *   they were. (Not followed: a link whose directory is not a member,
 *   which tar tracks as it makes it.)
 * - An existing member of the same name is replaced (tar's default):
 *   a file is unlinked, an empty directory removed.
 * - Owners are restored when the writer is made with owners set (root,
 *   as tar's --same-owner); modes exactly, umask or not; times: mtime,
 *   and atime when the archive has one.
 * - Errors are negative errnos; w->what then names the call that failed.
 *   Memory is kept for directories and symlinks only, in arrays that
 *   grow by doubling: nothing is allocated per regular file.
 */
#ifndef RAIDLAB_WL_UNTAR_WRITE_H
#define RAIDLAB_WL_UNTAR_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

/* What the archive says of a member besides its name and data. */
struct untar_meta {
	mode_t mode; /* permission bits, 07777 */
	int64_t uid, gid;
	struct timespec atime, mtime;
	bool has_atime;
	dev_t rdev; /* devices */
};

struct untar_dir; /* a directory's delayed status */
struct untar_link; /* a symlink's placeholder */
struct untar_alias; /* a hard link to a placeholder */

struct untar_writer {
	int dirfd;
	bool owners; /* restore uid/gid */
	bool setgid; /* the directory passes its group on */
	mode_t umask;
	uid_t euid;
	gid_t egid;
	const char *what; /* the call that failed last */
	char scratch[4096]; /* parent directories of a name */
	char *names; /* the delayed entries' names and targets */
	size_t names_len, names_cap;
	struct untar_dir *dirs;
	size_t ndirs, dirs_cap;
	size_t top; /* the innermost directory not left: index + 1 */
	struct untar_link *links;
	size_t nlinks, links_cap;
	struct untar_alias *aliases;
	size_t naliases, aliases_cap;
};

/* A finish step that failed: the member's name, the call and the error.
   Returning a negative errno stops untar_writer_finish() with it. */
typedef int (
    *untar_warn_fn)(void *arg, const char *name, const char *what, int err);

/* Write into the directory open as dirfd (the run's: wl_run.dirfd),
   through a duplicate of it; 0 or -errno. */
int untar_writer_init(struct untar_writer *w, int dirfd, bool owners);
void untar_writer_done(struct untar_writer *w);

/* The member name comes next (whatever its type): the directories it is
   not in get their times now. */
void untar_writer_next(struct untar_writer *w, const char *name);

/* A regular file name, empty, created with mode's permission bits
   (parents made as needed, an old one replaced): its descriptor, or
   -errno. */
int untar_writer_open(struct untar_writer *w, const char *name, mode_t mode);

/*
 * Close the file fd of name after its data, end is the offset past the
 * last byte written: the file gets size (a sparse tail), owner, mode and
 * times. fd is closed in every case. 0 or -errno.
 */
int untar_writer_close(struct untar_writer *w, int fd, const char *name,
    const struct untar_meta *m, int64_t size, int64_t end);

/* A directory (its status is set at the finish). 0 or -errno. */
int untar_writer_dir(struct untar_writer *w, const char *name,
    const struct untar_meta *m);

/* A symlink to target, as a placeholder until the finish. */
int untar_writer_symlink(struct untar_writer *w, const char *name,
    const char *target, const struct untar_meta *m);

/* A hard link name to the member target (never followed). */
int untar_writer_hardlink(struct untar_writer *w, const char *name,
    const char *target);

/* A fifo or a device node (type: S_IFIFO, S_IFCHR, S_IFBLK). */
int untar_writer_node(struct untar_writer *w, const char *name, mode_t type,
    const struct untar_meta *m);

/*
 * The delayed work: symlinks, then directories' status (times only of
 * those not left). Each failure is
 * passed to warn; the first negative return of warn is returned, else 0.
 */
int untar_writer_finish(struct untar_writer *w, untar_warn_fn warn, void *arg);

#endif
