/*
 * Target health: is the filesystem a variant's workloads run on still the
 * one they started on, writable and without new errors? The lab runner
 * takes a baseline when a variant's workloads start (health_take()) and
 * checks it before and after every workload run (health_check()), so that
 * a target that turned read-only, errored or went away fails the run that
 * met it and the variant, instead of figures measured on a broken
 * filesystem (or on whatever is mounted below it) being recorded as ok.
 *
 * What counts as broken, against the baseline:
 *  - the directory cannot be reached (stat or statvfs fail, EIO);
 *  - it is on another filesystem now (st_dev changed: unmounted, or
 *    lazily unmounted and the path now leads to the one below);
 *  - its mount is gone from /proc/self/mountinfo;
 *  - statvfs says ST_RDONLY, or the mount or super options say ro,
 *    emergency_ro or shutdown, where the target was writable at the start;
 *  - ext4 counted more errors (/sys/fs/ext4/DEV/errors_count), or logged
 *    one for the device since the start ("EXT4-fs error (device DEV)" in
 *    /dev/kmsg, where root may read it): under errors=continue ext4 says
 *    it at once but counts it from a workqueue, seconds later on a busy
 *    machine, after the run's last check;
 *  - a probe file cannot be created in the directory for another reason
 *    than a full filesystem (EROFS, EIO: an XFS shut down shows only so).
 * The runner thread; a struct health belongs to one thread.
 */
#ifndef RAIDLAB_HEALTH_H
#define RAIDLAB_HEALTH_H

#include <stdbool.h>
#include <sys/types.h>

struct err;

struct health {
	char *dir; /* the target directory */
	dev_t dev; /* its st_dev at the start */
	bool rw; /* writable at the start */
	char *mount_point; /* the mount holding dir, or NULL */
	unsigned mnt_major, mnt_minor; /* its device numbers in mountinfo */
	char *fstype, *source;
	char sysname[64]; /* kernel name of the device ("loop3"); "" */
	long long ext4_errors; /* errors_count at the start; -1: none */
	int kmsg; /* /dev/kmsg read from the start on, for ext4; -1 */
};

/*
 * The baseline of dir now. Returns 0, or a negative errno with e set when
 * the directory is already unreachable, broken or read-only (-EROFS: no
 * workload could write there; then h is still filled as far as it goes,
 * and health_done() frees it).
 */
int health_take(struct health *h, const char *dir, struct err *e);
void health_done(struct health *h);

/*
 * 0 while the target is as healthy as at the start; otherwise a negative
 * errno (-EROFS, -EIO, -ENODEV, ...) with e saying what happened, in
 * words a user acts on ("the target /x (ext4 on /dev/loop3) turned
 * read-only: mount options rw,errors=remount-ro,emergency_ro").
 */
int health_check(const struct health *h, struct err *e);

#endif
