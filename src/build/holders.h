/*
 * Who holds a block device: for the record of an undo that failed with
 * "busy" (mdadm --stop, umount, losetup -d), so the user learns what
 * kept it instead of a bare EBUSY. Three kinds of holder: another block
 * device stacked on it (/sys/class/block/NAME/holders), a mount of it
 * (/proc/self/mountinfo) and a process with it open (/proc/PID/fd); for
 * a mount point (umount's "target is busy"), the processes whose working
 * directory, root or open files are on that filesystem.
 * A snapshot: by the time it is read a transient holder may be gone.
 * Any thread; no state.
 */
#ifndef RAIDLAB_HOLDERS_H
#define RAIDLAB_HOLDERS_H

#include <stdbool.h>
#include <stddef.h>

/* Whether an undo's output reads like a transient "in use" failure that
   is worth another try: EBUSY's words, mdadm's "exclusive access", md's
   "still in use". */
bool holders_busy_output(const char *output);

/* The pauses (ms) before each new try of a busy undo: a transient opener
   (a probe, md's own recovery check) lets go within a second or two. */
#define HOLDERS_TRIES 4
extern const unsigned holders_retry_ms[HOLDERS_TRIES];

/*
 * Describe into buf what holds path, a block device or a mount point:
 * "held by md127; mounted on /mnt; pid 42 (blkid): the device open",
 * "" when nothing is found or path is neither. The caller's own process is left
 * out (its fds are the caller's to know). Returns the number of holders found.
 */
int holders_describe(const char *path, char *buf, size_t len);

/* Whether a filesystem is still mounted on mount point mp (its umount
   failed): mp and its parent are on different devices. */
bool holders_mount_stands(const char *mp);

#endif
