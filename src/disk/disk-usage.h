/*
 * What uses a block device: mounts (/proc/self/mountinfo), active swap
 * (/proc/swaps), loop devices backed by another device, and the device
 * that holds /. The parsers take a FILE* so tests feed fixtures; the
 * apply functions fill struct disk fields of a scanned list. Part of the
 * disk inventory (disk.h); same threading rules.
 */
#ifndef RAIDLAB_DISK_USAGE_H
#define RAIDLAB_DISK_USAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

struct disk_list;
struct err;

/* One line of mountinfo, octal escapes (\040 for a space) decoded. */
struct disk_mount {
	unsigned major, minor; /* st_dev of the mount (0:N for btrfs...) */
	char *root; /* path inside the filesystem; "/" unless bind */
	char *target; /* mount point */
	char *fstype;
	char *source; /* "/dev/sda1", "tmpfs"... */
};

struct disk_mounts {
	struct disk_mount *v;
	size_t n;
	size_t cap;
};

/* One active swap area. */
struct disk_swap {
	char *path;
	bool partition; /* "partition" (a block device), not "file" */
};

struct disk_swaps {
	struct disk_swap *v;
	size_t n;
	size_t cap;
};

void disk_mounts_init(struct disk_mounts *m);
void disk_mounts_done(struct disk_mounts *m);
/*
 * Parse mountinfo text from fp, appending to m. Returns 0 or -EINVAL with
 * e naming the line that is malformed (nothing is appended from it).
 */
int disk_mounts_parse(struct disk_mounts *m, FILE *fp, struct err *e);

void disk_swaps_init(struct disk_swaps *s);
void disk_swaps_done(struct disk_swaps *s);
/* Parse /proc/swaps text (header line first). Returns 0 or -EINVAL. */
int disk_swaps_parse(struct disk_swaps *s, FILE *fp, struct err *e);

/* Decode mountinfo/swaps octal escapes in place ("a\040b" -> "a b"). */
void disk_usage_unescape(char *s);

/*
 * Record mount points on the devices of l: by major:minor, or for
 * filesystems with anonymous device numbers (btrfs) by the source path,
 * comparing its st_rdev when it is not the same string as disk->path.
 */
void disk_usage_apply_mounts(struct disk_list *l, const struct disk_mounts *m);

/* Mark active swap partitions (by path, then by st_rdev). */
void disk_usage_apply_swaps(struct disk_list *l, const struct disk_swaps *s);

/* Add loop devices whose backing file is a device to its holders[]. */
void disk_usage_apply_loops(struct disk_list *l);

/*
 * The block device / is on: st_dev of "/", or when that is anonymous
 * (btrfs, overlay) the source of the last mount on "/" if it is a block
 * device. Returns false when / is not on a block device (virtiofs, nfs,
 * overlay on tmpfs...).
 */
bool disk_usage_root_dev(const struct disk_mounts *m, dev_t *out);

/*
 * Mark root on the device numbered dev, on its parent when it is a
 * partition, and down through slaves (dm, md) to the disks beneath. A dev
 * that is not in l marks nothing.
 */
void disk_usage_mark_root(struct disk_list *l, dev_t dev);

#endif
