/*
 * Loop devices by backing file: which loop devices a file backs (from
 * sysfs), and detaching one only after checking, on the opened device,
 * that it still is backed by that very file. Other processes use loop
 * devices on the same machine, so nothing here ever acts on a device by
 * number alone. Used by the state journal's cleanup and by scratch disks.
 * Any thread.
 */
#ifndef RAIDLAB_LOOPDEV_H
#define RAIDLAB_LOOPDEV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct err;

/* The file a loop device is known by, and its identity when known. */
struct loopdev_file {
	const char *path; /* as journaled; compared with sysfs */
	uint64_t dev; /* st_dev of the file, 0 when not known */
	uint64_t ino; /* st_ino of the file, 0 when not known */
};

/*
 * The backing file of dev ("/dev/loop7" or "loop7") as sysfs shows it
 * (/sys/block/loop7/loop/backing_file; " (deleted)" appended when it was
 * unlinked), into buf. Returns 0, or -ENXIO when dev is not an attached
 * loop device (-ENAMETOOLONG when buf is too small).
 */
int loopdev_backing(const char *dev, char *buf, size_t len);

/*
 * Whether a sysfs backing_file text names f->path: the same path, its
 * canonical form (realpath), or either with " (deleted)".
 */
bool loopdev_names(const char *backing, const struct loopdev_file *f);

/*
 * Every attached loop device whose backing file loopdev_names() matches
 * f ("/dev/loop7"...), NULL-terminated, in *devs (free with
 * loopdev_list_free). Returns how many.
 */
size_t loopdev_find(const struct loopdev_file *f, char ***devs);
void loopdev_list_free(char **devs);

/*
 * Detach dev when it is backed by f: open it, check the backing file in
 * sysfs and, when f->ino is set, the inode and device the kernel reports
 * for the opened device (LOOP_GET_STATUS64), then LOOP_CLR_FD. While the
 * device is open elsewhere (mounted, a member of a btrfs, held by md) the
 * kernel only marks it to detach on last close (autoclear): that is
 * reported as -EBUSY, not as success. Returns 0 when detached, -ENXIO when
 * dev is not attached (nothing to do), -ESTALE when it is backed by
 * another file (left alone), -EBUSY when deferred, another negative errno
 * otherwise; e filled except for 0 and -ENXIO.
 */
int
loopdev_detach(const char *dev, const struct loopdev_file *f, struct err *e);

/*
 * Fill f->dev and f->ino from stat(path); leaves them 0 when it cannot
 * stat. f->path is set to path (borrowed).
 */
void loopdev_file_stat(struct loopdev_file *f, const char *path);

#endif
