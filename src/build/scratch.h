/*
 * Scratch disks: loop devices over sparse files, so that any variant can
 * be tried without spare disks (functional, not representative: the
 * members share one physical disk). Each file and each loop device is in
 * the state journal before it exists, so a killed run leaves nothing that
 * `raidlab cleanup` cannot undo. Any thread; a struct scratch belongs to
 * one thread.
 */
#ifndef RAIDLAB_SCRATCH_H
#define RAIDLAB_SCRATCH_H

#include <stddef.h>
#include <stdint.h>

struct err;
struct statej;

struct scratch {
	size_t n; /* disks made (or being made) */
	char **files; /* DIR/raidlab-TAG-PID.RANDOM-N.img, N from 0, RANDOM
			 12 letters and digits nobody can guess (another
			 user cannot take the name first); NULL-terminated
			 (an entry is NULL while its file does not exist) */
	char **devices; /* "/dev/loopX" per file (NULL while not attached),
			   attached with `losetup -f --show FILE` (exec_run;
			   losetup handles the race for a free device) */
	int *ids; /* journal ids: [2 i] the file, [2 i + 1] its loop; -1
		     when not journaled. Internal */
};

/*
 * Create n sparse files of size bytes (ftruncate; O_EXCL: an existing
 * file is never reused, a taken name is tried again with another RANDOM)
 * in dir (which must exist; made absolute with realpath so that the paths
 * match what the kernel shows as a loop's backing file) and attach each
 * to a free loop device. Each file and loop is journaled (statej_add
 * before creating; after, statej_identify for a file, statej_named with
 * the device for a loop); j may be NULL (nothing journaled). s is
 * overwritten. size must be a non-zero multiple of 512 (loop devices
 * count 512-byte sectors). tag: the variant name (no '/'). On failure
 * everything created so far is undone and s is left empty. Returns 0 or
 * a negative errno with e filled.
 */
int scratch_create(struct scratch *s, const char *dir, const char *tag,
    size_t n, uint64_t size, struct statej *j, struct err *e);

/*
 * Detach every loop device (only when it is still backed by its file) and
 * delete every file, newest first, releasing their journal entries. Safe
 * on a zeroed or partially filled struct; s is emptied in every case. A
 * device still in use (mounted, held by md or btrfs) only gets autoclear
 * from the kernel: that is an error (-EBUSY), and that disk's file and
 * journal entries are kept for `raidlab cleanup`. Returns 0 or the first
 * error (e filled), after trying every disk.
 */
int scratch_destroy(struct scratch *s, struct statej *j, struct err *e);

/* Empty s and leave its disks as they are, attached and journaled, for
   `raidlab cleanup` (something still stands on them). */
void scratch_forget(struct scratch *s);

#endif
