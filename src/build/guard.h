/*
 * Guards: the checks that stand between a lab variant and the devices it
 * would destroy. guard_check() judges every device a variant will touch
 * against a fresh disk inventory (disk.h) and the user's --yes-destroy
 * list, and refuses anything busy, overlapping, holding / or carrying
 * data that was not confirmed; guard_exclusive() then proves, just before
 * the first write, that the whole set can be opened exclusively, so a set
 * is never half destroyed. Nothing here writes to a device, prints or
 * spawns a process. Any thread; the inventory belongs to the caller.
 */
#ifndef RAIDLAB_GUARD_H
#define RAIDLAB_GUARD_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

struct disk;
struct disk_list;
struct err;
struct errlist;
struct lab_variant;

/* What a device will be in the variant (for messages). */
enum guard_role {
	GUARD_MEMBER, /* array member (or the single device) */
	GUARD_SPARE, /* md hot spare */
	GUARD_JOURNAL, /* md write journal */
	GUARD_FSLOG, /* ext journal_dev / xfs logdev */
};

/* One device a variant will touch. Strings are borrowed. */
struct guard_dev {
	const char *path; /* as the lab names it: "/dev/sdb", a symlink... */
	enum guard_role role;
	const char *field; /* lab field, "variants.r5.array.devices[2]" */
	int line; /* its line in the lab file, 0 if unknown */
};

/*
 * Check every device of one variant against inv, a fresh inventory
 * (disk_list_scan() with probing), before anything is touched. Each path
 * is resolved with stat(2) (a name without '/' means /dev/NAME) and
 * matched to the inventory by major:minor, so symlinks such as
 * /dev/disk/by-id/... are the device they point to.
 *
 * Refused, one errlist entry per problem, built as
 * "file:line: field: DEV: reason" (entry code in parentheses):
 *  - a path that does not exist (-ENOENT), is not a block device
 *    (-ENOTBLK), cannot be looked at (stat's errno), or is not in the
 *    inventory (-ENODEV);
 *  - the same device twice, by dev_t, also through a symlink ("appears
 *    twice"), and a whole disk together with one of its partitions
 *    ("overlaps /dev/sdb") (-EEXIST);
 *  - the disk that holds / (directly, through a partition or a holder) and
 *    any partition of that disk, even when confirmed (-EBUSY);
 *  - a member of a mounted btrfs, from /sys/fs/btrfs/UUID/devices/
 *    (mountinfo names only one device of a multi-device btrfs): "member
 *    of the mounted btrfs UUID (mounted on /mnt)" (-EBUSY);
 *  - any other DISK_BUSY device, with the inventory's translated reason:
 *    mounted, active swap, held by md/dm/loop, a partition in use,
 *    read-only, no medium (-EBUSY);
 *  - a busy device (the two cases above) that confirmed names says so:
 *    "... (--yes-destroy cannot override this)";
 *  - a device with data (DISK_HAS_DATA: a signature, a partition table or
 *    partitions, unknown contents) that confirmed does not name; the
 *    message names the signature (type, label, UUID) (-EPERM). This is
 *    the one refusal a confirmation can lift: no other entry has -EPERM.
 * confirmed (the --yes-destroy list; a bare name means /dev/NAME) must
 * name exactly the devices with data, compared by dev_t: an entry that
 * does not exist or is not a block device, one that is not in this set
 * ("--yes-destroy names /dev/x, which is not in this variant") and one
 * that holds no data ("..., which holds no data: remove it from
 * --yes-destroy") are refused too (-EINVAL), because a list that does not
 * match means the user confirmed something else than what will happen.
 * Entries about a device carry its field and line, and name it as the
 * lab does, followed by the kernel's node when that differs
 * ("/dev/disk/by-id/x (/dev/sdb)"); entries about a confirmation that
 * matches no device carry only file. The root-disk rule is stricter than
 * the inventory's verdict, which leaves a free partition of that disk
 * DISK_FREE.
 *
 * file: the lab file, for messages (may be NULL). Returns 0 when every
 * device may be used, -EPERM when something was refused (entries were
 * appended to errs), -EINVAL for a NULL or empty path in devs (a caller
 * bug; nothing is appended).
 */
int guard_check(const struct disk_list *inv, const struct guard_dev *devs,
    size_t n, const char *const *confirmed, size_t nconfirmed, const char *file,
    struct errlist *errs);

/*
 * Open every path O_RDONLY|O_EXCL|O_CLOEXEC, all at once, then close them
 * all: proof, just before wiping, that no filesystem, md/dm, swap or other
 * process holds any of them. If one open fails, the ones already open are
 * closed and e names the device: "DEV is held by another process or the
 * kernel (open with O_EXCL failed: ...)" for EBUSY, "cannot open DEV: ..."
 * otherwise. The same device twice fails with EBUSY (guard_check refuses
 * that earlier). Returns 0 or the negative errno of the failed open.
 * Nothing stays open on return, so the caller's own opens and the tools
 * it runs next are not blocked.
 */
int guard_exclusive(const char *const *paths, size_t n, struct err *e);

/*
 * For a run of several variants under one --yes-destroy list: store in
 * out (room for nconfirmed) the entries of confirmed that name one of
 * devs (same dev_t), in their order, and return how many. Pass them to
 * guard_check() for that variant. Entries that name no device of any
 * selected variant are what guard_confirmed_unclaimed() reports.
 */
size_t guard_confirmed_for(const struct guard_dev *devs, size_t n,
    const char *const *confirmed, size_t nconfirmed, const char **out);

/*
 * Refuse (one errlist entry each, -EINVAL, carrying only file) the
 * entries of confirmed that name none of devs, the devices of every
 * selected variant together: "--yes-destroy names /dev/x, which no
 * selected variant uses", or that do not exist / are not block devices.
 * Returns 0 or -EPERM.
 */
int guard_confirmed_unclaimed(const struct guard_dev *devs, size_t n,
    const char *const *confirmed, size_t nconfirmed, const char *file,
    struct errlist *errs);

/*
 * The devices of confirmed that have data, for a prompt or a note:
 * "/dev/loop3 (ext4 \"lbl\"), /dev/sdb (gpt partition table)". Entries
 * that are free, missing or not in inv are left out. Returns a new
 * string, "" when none; the caller frees it.
 */
char *guard_confirmed_describe(const struct disk_list *inv,
    const char *const *confirmed, size_t nconfirmed);

/* "member", "spare", "md write journal", "filesystem journal" (_()). */
const char *guard_role_name(enum guard_role r);

/*
 * The files variant v would create and remove again (an md bitmap file,
 * of the array, its legs or its journal array): each must not exist yet
 * and its directory must. Refusals go to errs as file:line: field:
 * reason; returns -EPERM when there is any, 0 otherwise.
 */
int guard_files(const struct lab_variant *v, const char *file,
    struct errlist *errs);

/* How the user confirms that a device's data may be destroyed: the
   refusals' hints name it. */
enum guard_confirm {
	GUARD_CONFIRM_OPTION, /* raidlab run --yes-destroy=DEV,... */
	GUARD_CONFIRM_TYPED, /* the TUI: names typed when the run asks */
};

/*
 * Where guard_check_sys() looks at the system, so that unit tests can
 * judge hand-built inventories: stat_fn resolves paths (stat(2) when
 * NULL), btrfs_dir lists mounted btrfs filesystems ("/sys/fs/btrfs" when
 * NULL; each UUID/devices/NAME entry names a member by kernel name, with
 * its "dev" file giving major:minor). confirm is how the front end
 * confirms: messages name "--yes-destroy" (GUARD_CONFIRM_OPTION, also for
 * guard_check()) or "the typed confirmation" in its place.
 */
struct guard_sys {
	int (*stat_fn)(const char *path, struct stat *st);
	const char *btrfs_dir;
	enum guard_confirm confirm;
};

/* What guard_sys.confirm names in messages: "--yes-destroy", or "the
   typed confirmation" (translated). */
const char *guard_confirm_name(enum guard_confirm c);

/*
 * The line that ends a refusal whose entries are in errs: "refused:
 * nothing was changed.", followed by how to confirm the devices with data
 * in the front end's words (c) when errs has a refusal a confirmation
 * lifts (an -EPERM entry); not when nothing can be overridden.
 * Translated, static.
 */
const char *
guard_refused_line(const struct errlist *errs, enum guard_confirm c);

/* guard_check() against sys (NULL: the real system). */
int guard_check_sys(const struct guard_sys *sys, const struct disk_list *inv,
    const struct guard_dev *devs, size_t n, const char *const *confirmed,
    size_t nconfirmed, const char *file, struct errlist *errs);

#endif
