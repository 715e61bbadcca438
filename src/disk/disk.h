/*
 * Disk inventory: every block device the kernel knows (disks, partitions,
 * loop, dm, md, rom), what is on it (libblkid signatures), what uses it
 * (mounts, swap, holders, the root filesystem) and one verdict per device:
 * free, has data (usable only after explicit confirmation) or busy (never
 * usable). The CLI table, the TUI Disks screen, the array builder's safety
 * guards and result records all read this one model.
 *
 * The scan reads sysfs directly (libudev enumerates; udev database
 * properties are used when a udev daemon filled them) and opens each
 * device once, read-only, for one blkid probe. It never spawns a process.
 * A device that cannot be opened (not root) is still listed, with its
 * signature unknown. A struct disk_list belongs to one thread; the scan
 * may run on any thread but never prints. disk_list_scan() probes through
 * up to 8 short-lived worker threads (signals blocked, joined before it
 * returns): probes wait on small device reads, which overlap well.
 */
#ifndef RAIDLAB_DISK_H
#define RAIDLAB_DISK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct err;

#define DISK_REASON_MAX 256

enum disk_type {
	DISK_TYPE_DISK, /* a whole disk (sd, nvme, vd, mmcblk...) */
	DISK_TYPE_PART, /* a partition of another device */
	DISK_TYPE_LOOP,
	DISK_TYPE_DM, /* device-mapper (LVM, crypt...) */
	DISK_TYPE_MD, /* md software RAID */
	DISK_TYPE_ROM, /* optical drive */
};

enum disk_verdict {
	DISK_FREE, /* no signature, nothing uses it */
	DISK_HAS_DATA, /* a signature or unknown contents, unused */
	DISK_BUSY, /* in use or unusable: never touch */
};

/* Why a device got its verdict, most serious first. */
enum disk_why {
	DISK_WHY_NONE, /* free */
	DISK_WHY_ROOT, /* holds / (directly or through a holder) */
	DISK_WHY_MOUNTED,
	DISK_WHY_SWAP,
	DISK_WHY_HELD, /* md, dm or a loop device sits on it */
	DISK_WHY_PART_BUSY, /* one of its partitions is busy */
	DISK_WHY_READ_ONLY,
	DISK_WHY_NO_MEDIUM, /* size 0: empty drive, unset zram */
	DISK_WHY_UNKNOWN, /* not probed or could not be opened */
	DISK_WHY_SIGNATURE, /* filesystem, RAID member, swap... */
	DISK_WHY_PTABLE, /* partition table or partitions */
};

enum disk_probe_state {
	DISK_PROBE_NONE, /* not probed (DISK_SCAN_NO_PROBE) */
	DISK_PROBE_OK, /* probed; fstype/pttype NULL mean none */
	DISK_PROBE_FAILED, /* could not open or read: probe_errno */
};

/*
 * One block device. Strings are owned by the disk and NULL when unknown
 * or absent; arrays of names are owned too. Sizes are in bytes.
 */
struct disk {
	char *name; /* kernel name: "sda1", "loop3", "dm-0" */
	char *path; /* "/dev/sda1" */
	char *syspath; /* "/sys/devices/.../block/sda/sda1" */
	unsigned major, minor;
	enum disk_type type;
	uint64_t size;
	unsigned log_sec, phy_sec;
	bool rotational, removable, read_only;
	char *model, *vendor, *serial;
	char *transport; /* "nvme", "sata", "usb", "virtio", "loop"... */
	char *backing_file; /* loop devices only */
	char *parent; /* partitions: the whole device's name */
	char **partitions; /* names, in partition number order */
	size_t n_partitions;
	char **holders; /* names from .../holders (and loops on it) */
	size_t n_holders;
	char **slaves; /* names from .../slaves (dm, md) */
	size_t n_slaves;

	enum disk_probe_state probe;
	int probe_errno; /* positive errno when DISK_PROBE_FAILED */
	char *pttype; /* "gpt", "dos" */
	char *fstype; /* "ext4", "linux_raid_member", "swap"... */
	char *label, *uuid;

	char **mountpoints; /* every place it is mounted (bind mounts too) */
	char *mount_fstype; /* mountinfo's type: known when probing fails */
	size_t n_mountpoints;
	bool swap; /* active swap area */
	bool root; /* / lives on it (or on a partition/holder) */

	enum disk_verdict verdict;
	enum disk_why why;
	char reason[DISK_REASON_MAX]; /* translated: "mounted on /mnt/x" */
};

struct disk_list {
	struct disk *v; /* parents first, partitions after them */
	size_t n;
	size_t cap;
};

/* disk_list_scan() flags. */
#define DISK_SCAN_NO_PROBE 0x1 /* skip libblkid: sysfs and usage only */

void disk_list_init(struct disk_list *l);
/* Free every disk and the array; the list is empty and reusable. */
void disk_list_done(struct disk_list *l);

/*
 * Append a zeroed disk named name (for the scan, and for tests that build
 * lists by hand). The pointer is valid until the next disk_list_add().
 */
struct disk *disk_list_add(struct disk_list *l, const char *name);

/*
 * The whole inventory: enumerate, probe each device (unless
 * DISK_SCAN_NO_PROBE), read mounts, swaps and the root device, sort and
 * judge. Replaces what l held. Returns 0, or a negative errno with e
 * filled when enumeration itself fails (a device that cannot be probed
 * is not an error: see struct disk.probe).
 */
int disk_list_scan(struct disk_list *l, unsigned flags, struct err *e);

/*
 * Enumerate block devices through libudev and sysfs into l (appended, not
 * probed, not judged). Implemented in disk-scan.c.
 */
int disk_list_enumerate(struct disk_list *l, struct err *e);

/*
 * libudev is not thread-safe across contexts: its process-wide state (the
 * hash seed it draws with getrandom) races when two threads each use
 * their own udev context, as the TUI's device watch and a run's target
 * scan do. Every libudev call in raidlab holds this lock. disk-scan.c.
 */
void disk_udev_lock(void);
void disk_udev_unlock(void);

/*
 * Probe d with libblkid (superblocks with type, label and UUID, and the
 * partition table type) through a read-only descriptor. Never fails: an
 * unreadable device gets DISK_PROBE_FAILED. Implemented in disk-probe.c.
 */
void disk_probe(struct disk *d);

/*
 * Sort into display order (natural name order, each device followed by
 * its partitions) and fill every parent's partitions[] from the
 * partitions' parent names.
 */
void disk_list_link(struct disk_list *l);

/* Compute verdict, why and reason for every disk (after usage is known). */
void disk_list_judge(struct disk_list *l);

/*
 * Scan just enough to judge one device quickly (the builder's guard):
 * enumerate without probing, then probe only the device at what, its
 * parent and its partitions. *out points into l.
 */
int disk_list_scan_one(struct disk_list *l, const char *what, struct disk **out,
    struct err *e);

/* Append a copy of s to the array *v of *n names unless already there. */
void disk_strv_push(char ***v, size_t *n, const char *s);

/* disk-sysfs.c: kernel names from sysfs alone (no scan, no udev). */
/* The kernel name of block device maj:min ("sda2") into name; false
   when sysfs does not know it or it does not fit. */
bool disk_devnum_name(unsigned maj, unsigned min, char *name, size_t len);
/* The kernel names of the devices under dir's filesystem: its device,
   then what that is made of (md members, dm tables), depth first;
   appended to *v (disk_strv_push). None for tmpfs, overlay or btrfs,
   which have no one device. */
void disk_dir_devices(const char *dir, char ***v, size_t *n);
/* The kernel name of block device node path ("/dev/md/rl-a" -> "md127")
   appended to *v (disk_strv_push); false when path is not one. */
bool disk_dev_push(const char *path, char ***v, size_t *n);

/* The disk with kernel name name, or NULL. */
struct disk *disk_list_by_name(struct disk_list *l, const char *name);
/* The device with that major:minor, or NULL. */
struct disk *
disk_list_by_devnum(struct disk_list *l, unsigned maj, unsigned min);

/*
 * The disk that what designates: a kernel name ("sdb1"), a /dev path or
 * any path to a block device node (symlinks such as /dev/disk/by-id/...
 * are followed and matched by major:minor). Returns 0, -ENOENT (no such
 * file or no such device in the list) or -ENOTBLK, with e filled.
 */
int disk_list_find(struct disk_list *l, const char *what, struct disk **out,
    struct err *e);

/* Which disks a listing (table, JSON) shows; arg is the caller's. */
typedef bool (*disk_filter_fn)(const struct disk *d, void *arg);

/*
 * Hidden from the default listing: loop devices without a backing file,
 * zram and ram disks (and their partitions).
 */
bool disk_is_hidden(const struct disk *d);

/* Untranslated tokens for machines: "disk", "part"...; "free", "has-data",
 * "busy"; "mounted", "swap"... */
const char *disk_type_name(enum disk_type t);
const char *disk_verdict_name(enum disk_verdict v);
const char *disk_why_name(enum disk_why w);

/*
 * The transport guessed from a sysfs device path when udev's ID_BUS is
 * not available: "nvme", "usb", "virtio", "sata", "scsi", "mmc", "loop",
 * "md", "dm" or NULL. Pure.
 */
const char *disk_transport_from_syspath(const char *syspath);

#endif
