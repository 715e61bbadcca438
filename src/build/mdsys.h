/*
 * md arrays as the kernel shows them in sysfs: the kernel name behind
 * /dev/md/NAME, the attributes of /sys/block/mdN/md (level, layout,
 * chunk_size, raid_disks, bitmap/location, consistency_policy,
 * sync_action, sync_completed...) and the wait for an initial resync.
 * The sysfs root is a parameter so tests can point it at a directory of
 * their own; NULL means "/sys". Any thread; no state.
 */
#ifndef RAIDLAB_MDSYS_H
#define RAIDLAB_MDSYS_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

struct err;

/* "md127" for /dev/md/rl-a (a symlink) or /dev/md127; false if neither. */
bool mdsys_kernel_name(const char *dev, char *name, size_t len);

/* The attribute md/ATTR of md device name (trailing newline removed);
   NULL when absent. Caller frees. */
char *mdsys_attr(const char *sysroot, const char *name, const char *attr);

/* The facts raidlab records for one array: every attribute in the list
   above that exists, as strings, plus queue/minimum_io_size and
   queue/optimal_io_size (md's I/O hints), the knobs a lab may set
   (stripe_cache_size, journal_mode, ...) and sync_speed_min/max and
   mismatch_cnt, and "members": each member's state by its name. */
json_t *mdsys_facts(const char *sysroot, const char *name);

/*
 * Write value to attr under md device name's sysfs directory
 * ("md/stripe_cache_size": attributes of md/ only). *found gets what it
 * was, *now what it reads back (caller frees both; NULL when unread).
 * Returns 0, -ENOENT when the array has no such attribute, or the
 * write's -errno (-EINVAL: md refused the value).
 */
int mdsys_write(const char *sysroot, const char *name, const char *attr,
    const char *value, char **found, char **now);
/* Write value and a newline to the sysfs attribute file path in one
   write(): 0, or the kernel's refusal as a negative errno. */
int mdsys_put(const char *path, const char *value);

/* Progress of a resync/recovery: done and total sectors, and the action
   ("resync", "recover", "idle"). false when the array is idle. */
bool mdsys_sync_progress(const char *sysroot, const char *name,
    unsigned long long *done, unsigned long long *total, char *action,
    size_t alen);

/*
 * Wait until md device name has no resync, recovery or check running
 * (sync_action "idle"), polling every poll_ms. progress(arg, done,
 * total) is called each poll while it runs; stop(arg) returning true
 * abandons the wait (-EINTR). *seconds gets the time waited. Returns 0,
 * -EINTR, or -ENOENT when the array has no md directory.
 */
int mdsys_wait_sync(const char *sysroot, const char *name, unsigned poll_ms,
    void (*progress)(void *arg, unsigned long long done,
	unsigned long long total),
    bool (*stop)(void *arg), void *arg, double *seconds);

#endif
