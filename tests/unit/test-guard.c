/*
 * Guards: every rule of guard_check() on a hand-built inventory, with
 * paths resolved by a fake stat and mounted btrfs members listed in a
 * fake /sys/fs/btrfs; then, as root, the same rules and guard_exclusive()
 * on real loop devices (losetup -f over sparse files in a temp dir,
 * released in each test's fini) and the real root disk.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "disk.h"
#include "err.h"
#include "guard.h"
#include "unit-disk.h"
#include "unit.h"
#include "xalloc.h"

#define LAB "lab.cfg"

/* ---------------------------------------------------------------- fakes */

/* What the fake stat knows: block nodes, a symlink's target, others. */
static const struct {
	const char *path;
	mode_t mode;
	unsigned maj, min;
} nodes[] = {
	{ "/dev/sda", S_IFBLK, 8, 0 }, { "/dev/sda1", S_IFBLK, 8, 1 },
	{ "/dev/sda2", S_IFBLK, 8, 2 }, { "/dev/sdb", S_IFBLK, 8, 16 },
	{ "/dev/disk/by-id/ata-B", S_IFBLK, 8, 16 }, /* -> ../../sdb */
	{ "/dev/sdc", S_IFBLK, 8, 32 }, { "/dev/sdc1", S_IFBLK, 8, 33 },
	{ "/dev/sdd", S_IFBLK, 8, 48 },
	{ "/dev/disk/by-label/lbl", S_IFBLK, 8, 48 }, /* -> ../../sdd */
	{ "/dev/sde", S_IFBLK, 8, 64 }, { "/dev/sdf", S_IFBLK, 8, 80 },
	{ "/dev/sdg", S_IFBLK, 8, 96 }, { "/dev/sdh", S_IFBLK, 8, 112 },
	{ "/dev/sdi", S_IFBLK, 8, 128 }, { "/dev/sdj", S_IFBLK, 8, 144 },
	{ "/dev/sdk", S_IFBLK, 8, 160 }, { "/dev/sdl", S_IFBLK, 8, 176 },
	{ "/dev/sdm", S_IFBLK, 8, 192 }, { "/dev/sdn", S_IFBLK, 8, 208 },
	{ "/dev/sdn1", S_IFBLK, 8, 209 }, { "/dev/sdo", S_IFBLK, 8, 224 },
	{ "/dev/sdo1", S_IFBLK, 8, 225 },
	{ "/dev/ghost", S_IFBLK, 8, 240 }, /* not in the inventory */
	{ "/dev/null", S_IFCHR, 1, 3 }, { "/tmp/disk.img", S_IFREG, 0, 0 },
	{ "/dev/secret", 0, 0, 0 }, /* EACCES */
};

static int
fake_stat(const char *path, struct stat *st)
{
	size_t i;

	for (i = 0; i < sizeof nodes / sizeof nodes[0]; i++) {
		if (strcmp(nodes[i].path, path) != 0)
			continue;
		if (nodes[i].mode == 0) {
			errno = EACCES;
			return -1;
		}
		memset(st, 0, sizeof *st);
		st->st_mode = nodes[i].mode | 0660;
		st->st_rdev = makedev(nodes[i].maj, nodes[i].min);
		return 0;
	}
	errno = ENOENT;
	return -1;
}

static void
sig(struct disk *d, const char *type, const char *label, const char *uuid)
{
	d->fstype = xstrdup(type);
	d->label = label ? xstrdup(label) : NULL;
	d->uuid = uuid ? xstrdup(uuid) : NULL;
}

static void
mounted(struct disk *d, const char *where)
{
	disk_strv_push(&d->mountpoints, &d->n_mountpoints, where);
}

/*
 * A machine with one device of each kind: sda holds / on sda1 (sda2 is
 * a free partition of it); sdb free (also /dev/disk/by-id/ata-B); sdc a
 * gpt disk with an ext4 partition; sdd ext4 "lbl"; sde mounted; sdf
 * swap; sdg held by md127; sdh and sdi one mounted two-device btrfs (only
 * sdh in mountinfo); sdj an unmounted btrfs; sdk read-only; sdl free;
 * sdm unreadable; sdn partitions without a table seen; sdo a partition
 * that belongs to the mounted btrfs.
 */
static void
build(struct disk_list *l)
{
	struct disk *d;

	disk_list_init(l);
	unit_disk_add(l, "sda", 8, 0, NULL)->pttype = xstrdup("gpt");
	d = unit_disk_add(l, "sda1", 8, 1, "sda");
	sig(d, "ext4", NULL, "root-uuid");
	mounted(d, "/");
	d->root = true;
	unit_disk_add(l, "sda2", 8, 2, "sda");
	l->v[0].root = true; /* disk_usage_mark_root marks the parent */
	unit_disk_add(l, "sdb", 8, 16, NULL);
	unit_disk_add(l, "sdc", 8, 32, NULL)->pttype = xstrdup("gpt");
	sig(unit_disk_add(l, "sdc1", 8, 33, "sdc"), "ext4", "data", "u-1");
	sig(unit_disk_add(l, "sdd", 8, 48, NULL), "ext4", "lbl", "1111-2222");
	mounted(unit_disk_add(l, "sde", 8, 64, NULL), "/mnt/x");
	unit_disk_add(l, "sdf", 8, 80, NULL)->swap = true;
	d = unit_disk_add(l, "sdg", 8, 96, NULL);
	sig(d, "linux_raid_member", NULL, NULL);
	disk_strv_push(&d->holders, &d->n_holders, "md127");
	d = unit_disk_add(l, "sdh", 8, 112, NULL);
	sig(d, "btrfs", NULL, "bt-uuid");
	mounted(d, "/mnt/bt");
	sig(unit_disk_add(l, "sdi", 8, 128, NULL), "btrfs", NULL, "bt-uuid");
	sig(unit_disk_add(l, "sdj", 8, 144, NULL), "btrfs", "spare",
	    "other-uuid");
	unit_disk_add(l, "sdk", 8, 160, NULL)->read_only = true;
	unit_disk_add(l, "sdl", 8, 176, NULL);
	d = unit_disk_add(l, "sdm", 8, 192, NULL);
	d->probe = DISK_PROBE_FAILED;
	d->probe_errno = EACCES;
	unit_disk_add(l, "sdn", 8, 208, NULL);
	sig(unit_disk_add(l, "sdn1", 8, 209, "sdn"), "ext4", NULL, "n-1");
	unit_disk_add(l, "sdo", 8, 224, NULL)->pttype = xstrdup("dos");
	sig(unit_disk_add(l, "sdo1", 8, 225, "sdo"), "btrfs", NULL, "bt-uuid");
	disk_list_link(l);
	disk_list_judge(l);
}

static char btrfs_dir[64];

static void
put(const char *rel, const char *text)
{
	char path[256];
	FILE *fp;

	snprintf(path, sizeof path, "%s/%s", btrfs_dir, rel);
	if (text == NULL) {
		cr_assert_eq(mkdir(path, 0755), 0, "mkdir %s", path);
		return;
	}
	fp = fopen(path, "w");
	cr_assert_not_null(fp, "%s", path);
	fputs(text, fp);
	fclose(fp);
}

/* /sys/fs/btrfs as the kernel shows one mounted filesystem bt-uuid over
 * sdh, sdi and sdo1 (no "dev" file for sdo1: found by name). */
static void
fake_sysfs(void)
{
	snprintf(btrfs_dir, sizeof btrfs_dir, "/tmp/raidlab-guard.XXXXXX");
	cr_assert_not_null(mkdtemp(btrfs_dir));
	put("features", NULL);
	put("features/raid1c34", "0\n");
	put("bt-uuid", NULL);
	put("bt-uuid/devices", NULL);
	put("bt-uuid/devices/sdh", NULL);
	put("bt-uuid/devices/sdh/dev", "8:112\n");
	put("bt-uuid/devices/sdi", NULL);
	put("bt-uuid/devices/sdi/dev", "8:128\n");
	put("bt-uuid/devices/sdo1", NULL);
}

static int
rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void
rm_tree(const char *dir)
{
	if (dir[0] != '\0')
		nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void
fake_fini(void)
{
	rm_tree(btrfs_dir);
}

/* One check on the fake machine: the devices, confirmed, the result. */
static struct disk_list inv;
static struct errlist errs;

static void
fake_init(void)
{
	build(&inv);
	errlist_init(&errs);
	fake_sysfs();
}

static void
fake_done(void)
{
	disk_list_done(&inv);
	errlist_done(&errs);
	fake_fini();
}

/* How the front end confirms, for check(): --yes-destroy unless a test
   says otherwise. */
static enum guard_confirm confirm_by = GUARD_CONFIRM_OPTION;

static int
check(const char *const *paths, size_t n, const char *const *conf, size_t nconf)
{
	struct guard_sys sys = { fake_stat, btrfs_dir, confirm_by };
	struct guard_dev devs[8];
	static char fields[8][64];
	size_t i;

	cr_assert_leq(n, 8);
	for (i = 0; i < n; i++) {
		snprintf(fields[i], sizeof fields[i],
		    "variants.v.array.devices[%zu]", i);
		devs[i] = (struct guard_dev){ paths[i], GUARD_MEMBER, fields[i],
			10 + (int)i };
	}
	return guard_check_sys(&sys, &inv, devs, n, conf, nconf, LAB, &errs);
}

/* The formatted entry k: "lab.cfg:10: variants.v.array.devices[0]: ..." */
static const char *
entry(size_t k)
{
	static char buf[1024];

	cr_assert_lt(k, errs.n, "no entry %zu (%zu entries)", k, errs.n);
	return err_format(&errs.v[k], buf, sizeof buf);
}

static void
expect_entries(size_t n)
{
	size_t i;

	cr_expect_eq(errs.n, n, "%zu entries, want %zu", errs.n, n);
	for (i = 0; i < errs.n; i++)
		cr_log_info("entry %zu: %s", i, entry(i));
}

static void
expect_entry(size_t k, const char *want)
{
	cr_expect_str_eq(entry(k), want);
}

#define N(a) (sizeof(a) / sizeof((a)[0]))

TestSuite(guard, .init = fake_init, .fini = fake_done);

Test(guard, accepts_free_devices_without_confirmation)
{
	const char *p[] = { "/dev/sdb", "sdl" };

	cr_expect_eq(check(p, N(p), NULL, 0), 0);
	expect_entries(0);
}

Test(guard, refuses_missing_non_block_and_unknown_paths)
{
	const char *p[] = { "/dev/nope", "/dev/null", "/tmp/disk.img",
		"/dev/ghost", "/dev/secret" };

	cr_expect_eq(check(p, N(p), NULL, 0), -EPERM);
	expect_entries(5);
	expect_entry(0,
	    "lab.cfg:10: variants.v.array.devices[0]: /dev/nope: does not "
	    "exist");
	expect_entry(1,
	    "lab.cfg:11: variants.v.array.devices[1]: /dev/null: not a block "
	    "device");
	expect_entry(2,
	    "lab.cfg:12: variants.v.array.devices[2]: /tmp/disk.img: not a "
	    "block device");
	expect_entry(3,
	    "lab.cfg:13: variants.v.array.devices[3]: /dev/ghost: not in the "
	    "disk inventory (no such device)");
	expect_entry(4,
	    "lab.cfg:14: variants.v.array.devices[4]: /dev/secret: "
	    "Permission denied");
	cr_expect_eq(errs.v[0].code, -ENOENT);
	cr_expect_eq(errs.v[1].code, -ENOTBLK);
	cr_expect_eq(errs.v[3].code, -ENODEV);
}

Test(guard, refuses_the_same_device_twice_also_through_a_symlink)
{
	const char *p[] = { "/dev/sdb", "/dev/disk/by-id/ata-B", "/dev/sdl",
		"sdl" };

	cr_expect_eq(check(p, N(p), NULL, 0), -EPERM);
	expect_entries(2);
	expect_entry(0,
	    "lab.cfg:11: variants.v.array.devices[1]: /dev/disk/by-id/ata-B "
	    "(/dev/sdb): appears twice: the same device as /dev/sdb in "
	    "variants.v.array.devices[0] (line 10)");
	expect_entry(1,
	    "lab.cfg:13: variants.v.array.devices[3]: sdl (/dev/sdl): appears "
	    "twice: the same device as /dev/sdl in "
	    "variants.v.array.devices[2] (line 12)");
	cr_expect_eq(errs.v[0].code, -EEXIST);
}

Test(guard, refuses_a_disk_together_with_its_partition)
{
	const char *p[] = { "/dev/sdc", "/dev/sdc1" };
	const char *q[] = { "/dev/sdn1", "/dev/sdn" };

	cr_expect_eq(check(p, N(p), p, N(p)), -EPERM);
	expect_entries(1);
	expect_entry(0,
	    "lab.cfg:11: variants.v.array.devices[1]: /dev/sdc1: overlaps "
	    "/dev/sdc (variants.v.array.devices[0], line 10): a disk and its "
	    "partitions cannot both be used");
	errlist_done(&errs);
	cr_expect_eq(check(q, N(q), q, N(q)), -EPERM);
	expect_entries(1);
	cr_expect(strstr(entry(0), "/dev/sdn: overlaps /dev/sdn1 (") != NULL,
	    "%s", entry(0));
}

/* The inventory's reason, confirmed or not: busy is never usable. */
Test(guard, refuses_busy_devices_with_the_inventory_reason)
{
	const char *p[] = { "/dev/sde", "/dev/sdf", "/dev/sdg", "/dev/sdk" };

	cr_expect_eq(check(p, N(p), NULL, 0), -EPERM);
	expect_entries(4);
	expect_entry(0,
	    "lab.cfg:10: variants.v.array.devices[0]: /dev/sde: mounted on "
	    "/mnt/x");
	expect_entry(1,
	    "lab.cfg:11: variants.v.array.devices[1]: /dev/sdf: active swap");
	expect_entry(2,
	    "lab.cfg:12: variants.v.array.devices[2]: /dev/sdg: held by "
	    "md127");
	expect_entry(3,
	    "lab.cfg:13: variants.v.array.devices[3]: /dev/sdk: read-only");
	cr_expect_eq(errs.v[0].code, -EBUSY);
	errlist_done(&errs);
	cr_expect_eq(check(p, 1, p, 1), -EPERM);
	expect_entries(1);
	expect_entry(0,
	    "lab.cfg:10: variants.v.array.devices[0]: /dev/sde: mounted on "
	    "/mnt/x (--yes-destroy cannot override this)");
}

Test(guard, refuses_the_root_disk_and_its_partitions_even_confirmed)
{
	const char *p[] = { "/dev/sda", "/dev/sda1", "/dev/sda2" };
	size_t i;

	for (i = 0; i < N(p); i++) {
		errlist_done(&errs);
		cr_expect_eq(check(&p[i], 1, &p[i], 1), -EPERM, "%s", p[i]);
		expect_entries(1);
		cr_expect_eq(errs.v[0].code, -EBUSY);
	}
	errlist_done(&errs);
	cr_expect_eq(check(p, 1, p, 1), -EPERM);
	expect_entry(0,
	    "lab.cfg:10: variants.v.array.devices[0]: /dev/sda: partition "
	    "sda1 holds /: never used, not even with --yes-destroy");
	errlist_done(&errs);
	cr_expect_eq(check(&p[1], 1, NULL, 0), -EPERM);
	expect_entry(0,
	    "lab.cfg:10: variants.v.array.devices[0]: /dev/sda1: holds /: "
	    "never used, not even with --yes-destroy");
	errlist_done(&errs);
	cr_expect_eq(check(&p[2], 1, NULL, 0), -EPERM);
	expect_entry(0,
	    "lab.cfg:10: variants.v.array.devices[0]: /dev/sda2: a partition "
	    "of /dev/sda, the disk that holds /: never used, not even with "
	    "--yes-destroy");
}

/* mountinfo names sdh only; /sys/fs/btrfs knows sdi and sdo1 belong.
   Busy as a mounted device is, and said alike: confirmed, the message
   says that the confirmation cannot override it (issue 10). */
Test(guard, refuses_members_of_a_mounted_multi_device_btrfs)
{
	const char *p[] = { "/dev/sdi", "/dev/sdh", "/dev/sdo" };

	cr_expect_eq(check(p, N(p), NULL, 0), -EPERM);
	expect_entries(3);
	expect_entry(0,
	    "lab.cfg:10: variants.v.array.devices[0]: /dev/sdi: member of the "
	    "mounted btrfs bt-uuid (mounted on /mnt/bt)");
	expect_entry(1,
	    "lab.cfg:11: variants.v.array.devices[1]: /dev/sdh: member of the "
	    "mounted btrfs bt-uuid (mounted on /mnt/bt)");
	expect_entry(2,
	    "lab.cfg:12: variants.v.array.devices[2]: /dev/sdo: partition "
	    "sdo1 is a member of the mounted btrfs bt-uuid (mounted on "
	    "/mnt/bt)");
	cr_expect_eq(errs.v[0].code, -EBUSY);
	errlist_done(&errs);
	cr_expect_eq(check(p, N(p), p, N(p)), -EPERM);
	expect_entries(3);
	expect_entry(0,
	    "lab.cfg:10: variants.v.array.devices[0]: /dev/sdi: member of the "
	    "mounted btrfs bt-uuid (mounted on /mnt/bt) (--yes-destroy cannot "
	    "override this)");
	expect_entry(2,
	    "lab.cfg:12: variants.v.array.devices[2]: /dev/sdo: partition "
	    "sdo1 is a member of the mounted btrfs bt-uuid (mounted on "
	    "/mnt/bt) (--yes-destroy cannot override this)");
	cr_expect_eq(errs.v[0].code, -EBUSY);
}

/* The TUI has no --yes-destroy: its messages name what it has, the
   typed confirmation, wherever the option would be named. */
Test(guard, the_tui_is_told_of_its_typed_confirmation)
{
	const char *data[] = { "/dev/sdd" }, *busy[] = { "/dev/sde" };
	const char *root[] = { "/dev/sda1" }, *free_[] = { "/dev/sdl" };

	confirm_by = GUARD_CONFIRM_TYPED;
	cr_expect_eq(check(data, 1, NULL, 0), -EPERM);
	cr_expect_eq(check(busy, 1, busy, 1), -EPERM);
	cr_expect_eq(check(root, 1, NULL, 0), -EPERM);
	cr_expect_eq(check(free_, 1, free_, 1), -EPERM);
	expect_entries(4);
	expect_entry(0,
	    "lab.cfg:10: variants.v.array.devices[0]: /dev/sdd: has data: "
	    "ext4 signature (label \"lbl\", UUID 1111-2222); to destroy it, "
	    "name it in the typed confirmation");
	expect_entry(1,
	    "lab.cfg:10: variants.v.array.devices[0]: /dev/sde: mounted on "
	    "/mnt/x (the typed confirmation cannot override this)");
	expect_entry(2,
	    "lab.cfg:10: variants.v.array.devices[0]: /dev/sda1: holds /: "
	    "never used, not even with the typed confirmation");
	expect_entry(3,
	    "lab.cfg:10: variants.v.array.devices[0]: the typed confirmation "
	    "names /dev/sdl, which holds no data: remove it from the typed "
	    "confirmation");
	for (size_t i = 0; i < errs.n; i++)
		cr_expect(strstr(entry(i), "--yes-destroy") == NULL, "%s",
		    entry(i));
}

/* The line after the refusals tells how to confirm only when that
   would help (a device with data), in the front end's words. */
Test(guard, the_refused_line_offers_a_confirmation_only_when_one_helps)
{
	const char *busy[] = { "/dev/sde", "/dev/sdi", "/dev/sda1" };
	const char *data[] = { "/dev/sdd" };
	const char *bare = "refused: nothing was changed.";

	cr_expect_eq(check(busy, N(busy), busy, N(busy)), -EPERM);
	cr_expect_str_eq(guard_refused_line(&errs, GUARD_CONFIRM_OPTION), bare);
	cr_expect_str_eq(guard_refused_line(&errs, GUARD_CONFIRM_TYPED), bare);
	cr_expect_eq(check(data, 1, NULL, 0), -EPERM);
	cr_expect_str_eq(guard_refused_line(&errs, GUARD_CONFIRM_OPTION),
	    "refused: nothing was changed. Free the devices, or confirm the "
	    "ones whose data may be destroyed with --yes-destroy=DEV,...");
	cr_expect_str_eq(guard_refused_line(&errs, GUARD_CONFIRM_TYPED),
	    "refused: nothing was changed. Free the devices, or confirm the "
	    "ones whose data may be destroyed by typing their names when the "
	    "run asks");
}

Test(guard, btrfs_members_are_found_without_sysfs_dev_files_too)
{
	struct guard_sys sys = { fake_stat, "/nonexistent/btrfs",
		GUARD_CONFIRM_OPTION };
	struct guard_dev d = { "/dev/sdi", GUARD_MEMBER, "f", 1 };
	const char *c[] = { "/dev/sdi" };
	char dev[128];

	/* Without sysfs the unmounted member is only data... */
	cr_expect_eq(guard_check_sys(&sys, &inv, &d, 1, c, 1, LAB, &errs), 0);
	expect_entries(0);
	/* ...with it, busy, even when the "dev" file is missing. */
	rm_tree(btrfs_dir);
	fake_sysfs();
	snprintf(dev, sizeof dev, "%s/bt-uuid/devices/sdi/dev", btrfs_dir);
	cr_assert_eq(remove(dev), 0);
	sys.btrfs_dir = btrfs_dir;
	cr_expect_eq(guard_check_sys(&sys, &inv, &d, 1, c, 1, LAB, &errs),
	    -EPERM);
	expect_entries(1);
}

Test(guard, data_needs_confirmation_naming_the_signature)
{
	const char *p[] = { "/dev/sdd", "/dev/sdj", "/dev/sdm" };

	cr_expect_eq(check(p, N(p), NULL, 0), -EPERM);
	expect_entries(3);
	expect_entry(0,
	    "lab.cfg:10: variants.v.array.devices[0]: /dev/sdd: has data: "
	    "ext4 signature (label \"lbl\", UUID 1111-2222); to destroy it, "
	    "name it in --yes-destroy");
	expect_entry(1,
	    "lab.cfg:11: variants.v.array.devices[1]: /dev/sdj: has data: "
	    "btrfs signature (label \"spare\", UUID other-uuid); to destroy "
	    "it, name it in --yes-destroy");
	expect_entry(2,
	    "lab.cfg:12: variants.v.array.devices[2]: /dev/sdm: has data: "
	    "contents unknown: Permission denied; to destroy it, name it in "
	    "--yes-destroy");
	cr_expect_eq(errs.v[0].code, -EPERM);
}

/* A label is whatever the stick's owner wrote: an escape sequence in it
   reaches the refusal as text, never as a byte the terminal obeys. */
Test(guard, a_label_is_quoted_with_its_control_characters_escaped)
{
	const char *p[] = { "/dev/sdd", "/dev/sdc" };

	for (size_t i = 0; i < inv.n; i++)
		if (strcmp(inv.v[i].name, "sdd") == 0 ||
		    strcmp(inv.v[i].name, "sdc1") == 0) {
			free(inv.v[i].label);
			inv.v[i].label = xstrdup("a\033]0;x\007\302\233b");
		}
	cr_expect_eq(check(p, N(p), NULL, 0), -EPERM);
	expect_entries(2);
	expect_entry(0,
	    "lab.cfg:10: variants.v.array.devices[0]: /dev/sdd: has data: "
	    "ext4 signature (label \"a\\x1b]0;x\\x07\\xc2\\x9bb\", UUID "
	    "1111-2222); to destroy it, name it in --yes-destroy");
	cr_expect(strstr(entry(1),
		      "sdc1 (ext4 signature (label \"a\\x1b]0;x\\x07"
		      "\\xc2\\x9bb\", UUID u-1))") != NULL,
	    "%s", entry(1));
}

Test(guard, partitions_and_partition_tables_are_data)
{
	const char *p[] = { "/dev/sdc", "/dev/sdn" };

	cr_expect_eq(check(p, N(p), NULL, 0), -EPERM);
	expect_entries(2);
	expect_entry(0,
	    "lab.cfg:10: variants.v.array.devices[0]: /dev/sdc: has data: gpt "
	    "partition table with partitions sdc1 (ext4 signature (label "
	    "\"data\", UUID u-1)); to destroy it, name it in --yes-destroy");
	expect_entry(1,
	    "lab.cfg:11: variants.v.array.devices[1]: /dev/sdn: has data: "
	    "partitions sdn1 (ext4 signature (UUID n-1)); to destroy it, name "
	    "it in --yes-destroy");
}

Test(guard, confirmation_by_path_name_or_symlink_accepts_data)
{
	const char *p[] = { "/dev/sdd", "/dev/sdj", "/dev/sdb", "/dev/sdc" };
	const char *c[] = { "/dev/disk/by-label/lbl", "sdj", "/dev/sdc" };

	cr_expect_eq(check(p, N(p), c, N(c)), 0);
	expect_entries(0);
}

Test(guard, confirmation_must_match_exactly)
{
	const char *p[] = { "/dev/sdd", "/dev/sdl" };
	const char *c[] = { "/dev/sdd", "/dev/sdl", "/dev/sdj", "/dev/nope",
		"/dev/null", "/dev/disk/by-label/lbl" };

	cr_expect_eq(check(p, N(p), c, N(c)), -EPERM);
	expect_entries(4);
	expect_entry(0,
	    "lab.cfg:11: variants.v.array.devices[1]: --yes-destroy names "
	    "/dev/sdl, which holds no data: remove it from --yes-destroy");
	expect_entry(1,
	    "lab.cfg: --yes-destroy names /dev/sdj, which is not in this "
	    "variant");
	expect_entry(2,
	    "lab.cfg: --yes-destroy names /dev/nope, which does "
	    "not exist");
	expect_entry(3,
	    "lab.cfg: --yes-destroy names /dev/null, which is not "
	    "a block device");
	cr_expect_eq(errs.v[1].code, -EINVAL);
}

Test(guard, every_problem_is_one_entry_appended_after_existing_ones)
{
	const char *p[] = { "/dev/sde", "/dev/sdd", "/dev/sdb", "/dev/nope" };

	errlist_add(&errs, -EINVAL, "other", 1, NULL, "earlier");
	cr_expect_eq(check(p, N(p), NULL, 0), -EPERM);
	expect_entries(4);
	cr_expect_str_eq(errs.v[0].msg, "earlier");
	cr_expect(strstr(errs.v[1].msg, "/dev/sde") != NULL);
	cr_expect(strstr(errs.v[2].msg, "/dev/sdd") != NULL);
	cr_expect(strstr(errs.v[3].msg, "/dev/nope") != NULL);
}

Test(guard, a_null_path_is_a_caller_bug)
{
	struct guard_dev d[] = { { "/dev/sdb", GUARD_MEMBER, "a", 1 },
		{ NULL, GUARD_SPARE, "b", 2 } };

	cr_expect_eq(guard_check(&inv, d, 2, NULL, 0, LAB, &errs), -EINVAL);
	expect_entries(0);
	d[1].path = "";
	cr_expect_eq(guard_check(&inv, d, 2, NULL, 0, LAB, &errs), -EINVAL);
	cr_expect_eq(guard_check(&inv, d, 0, NULL, 0, LAB, &errs), 0);
}

Test(guard, roles_have_names)
{
	cr_expect_str_eq(guard_role_name(GUARD_MEMBER), "member");
	cr_expect_str_eq(guard_role_name(GUARD_SPARE), "spare");
	cr_expect_str_eq(guard_role_name(GUARD_JOURNAL), "md write journal");
	cr_expect_str_eq(guard_role_name(GUARD_FSLOG), "filesystem journal");
}

Test(guard, exclusive_reports_the_device_it_could_not_open)
{
	const char *p[] = { "/dev/null", "/nonexistent/raidlab-dev" };
	struct err e;

	err_clear(&e);
	cr_expect_eq(guard_exclusive(p, 2, &e), -ENOENT);
	cr_expect_str_eq(e.msg,
	    "cannot open /nonexistent/raidlab-dev: No such file or directory");
	cr_expect_eq(guard_exclusive(p, 1, &e), 0);
	cr_expect_eq(guard_exclusive(NULL, 0, &e), 0);
}

/* ---------------------------------------------------------------- real */

static char tmp[64];
static char loops[2][64];
static size_t nloops;
static char mnt[128];

/* Run argv (PATH search), stdout into out (may be NULL); exit status. */
static int
run(const char *const argv[], char *out, size_t len)
{
	union {
		const char *const *c;
		char *const *m; /* execvp's type; it does not write */
	} u = { argv };
	int fds[2], st, null;
	ssize_t n;
	size_t off = 0;
	pid_t pid;

	cr_assert_eq(pipe(fds), 0);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		null = open("/dev/null", O_RDWR);
		dup2(null, 0);
		dup2(fds[1], 1);
		dup2(null, 2);
		close(fds[0]);
		execvp(argv[0], u.m);
		_exit(127);
	}
	close(fds[1]);
	while (out != NULL && off + 1 < len &&
	    (n = read(fds[0], out + off, len - off - 1)) > 0)
		off += (size_t)n;
	if (out != NULL) {
		out[off] = '\0';
		out[strcspn(out, "\n")] = '\0';
	}
	close(fds[0]);
	cr_assert_eq(waitpid(pid, &st, 0), pid);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Two loop devices over 64 MiB sparse files in a private temp dir (as
 * root only: nothing is created otherwise). */
static void
real_init(void)
{
	char file[128];
	size_t k;
	int fd;

	nloops = 0;
	tmp[0] = mnt[0] = '\0';
	if (geteuid() != 0)
		return;
	snprintf(tmp, sizeof tmp, "/tmp/raidlab-guard.XXXXXX");
	cr_assert_not_null(mkdtemp(tmp));
	for (k = 0; k < 2; k++) {
		const char *argv[] = { "losetup", "-f", "--show", file, NULL };

		snprintf(file, sizeof file, "%s/disk%zu.img", tmp, k);
		fd = open(file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		cr_assert_geq(fd, 0);
		cr_assert_eq(ftruncate(fd, 64 << 20), 0);
		close(fd);
		if (run(argv, loops[k], sizeof loops[k]) != 0 ||
		    strncmp(loops[k], "/dev/loop", 9) != 0)
			return;
		nloops++;
	}
}

/* Release everything; safe to call twice (a skipped test's fini may not
 * run, so skips call it first). */
static void
real_fini(void)
{
	size_t k;

	if (mnt[0] != '\0' && umount(mnt) != 0)
		umount2(mnt, MNT_DETACH);
	for (k = 0; k < nloops; k++) {
		const char *argv[] = { "losetup", "-d", loops[k], NULL };

		run(argv, NULL, 0);
	}
	rm_tree(tmp);
	nloops = 0;
	tmp[0] = mnt[0] = '\0';
}

#define skip_real(...)                                                         \
	do {                                                                   \
		real_fini();                                                   \
		cr_skip_test(__VA_ARGS__);                                     \
	} while (0)

static void
need_loops(void)
{
	if (geteuid() != 0)
		skip_real("needs root (loop devices)");
	if (nloops < 2)
		skip_real("losetup -f --show did not give two loop devices");
}

static void
mkfs_ext4(const char *dev, const char *label)
{
	const char *argv[] = { "mkfs.ext4", "-q", "-F", "-L", label, dev,
		NULL };
	int st = run(argv, NULL, 0);

	if (st == 127)
		skip_real("needs mkfs.ext4");
	cr_assert_eq(st, 0, "mkfs.ext4 %s", dev);
}

static void
scan(struct disk_list *l)
{
	struct err e;

	disk_list_init(l);
	err_clear(&e);
	cr_assert_eq(disk_list_scan(l, 0, &e), 0, "%s", e.msg);
}

/* A symlink in the temp dir to target, like /dev/disk/by-id/... */
static const char *
link_to(const char *target, const char *name)
{
	static char path[2][128];
	static int k;
	char *p = path[k++ % 2];

	snprintf(p, sizeof path[0], "%s/%s", tmp, name);
	cr_assert_eq(symlink(target, p), 0);
	return p;
}

static int
check_real(struct disk_list *l, const char *const *paths, size_t n,
    const char *const *conf, size_t nconf)
{
	struct guard_dev devs[4];
	size_t i;

	for (i = 0; i < n; i++)
		devs[i] = (struct guard_dev){ paths[i], GUARD_MEMBER,
			"variants.v.array.devices", 3 };
	return guard_check(l, devs, n, conf, nconf, LAB, &errs);
}

TestSuite(guard_real, .init = real_init, .fini = real_fini);

Test(guard_real, free_loops_pass_and_open_exclusively)
{
	const char *p[] = { loops[0], loops[1] };
	struct disk_list l;
	struct err e;
	int fd;

	need_loops();
	errlist_init(&errs);
	scan(&l);
	cr_expect_eq(check_real(&l, p, 2, NULL, 0), 0);
	expect_entries(0);
	err_clear(&e);
	cr_expect_eq(guard_exclusive(p, 2, &e), 0, "%s", e.msg);
	/* The same device twice cannot be claimed twice. */
	cr_expect_eq(guard_exclusive((const char *[]){ loops[0], loops[0] }, 2,
			 &e),
	    -EBUSY);
	/* Nothing stays open: the caller can claim them itself. */
	fd = open(loops[0], O_RDONLY | O_EXCL | O_CLOEXEC);
	cr_expect_geq(fd, 0, "%s", strerror(errno));
	close(fd);
	disk_list_done(&l);
	errlist_done(&errs);
}

Test(guard_real, exclusive_fails_on_a_held_device_and_closes_the_rest)
{
	const char *p[] = { loops[0], loops[1] };
	char want[256];
	struct err e;
	int held, fd;

	need_loops();
	held = open(loops[1], O_RDONLY | O_EXCL | O_CLOEXEC);
	cr_assert_geq(held, 0);
	err_clear(&e);
	cr_expect_eq(guard_exclusive(p, 2, &e), -EBUSY);
	snprintf(want, sizeof want,
	    "%s is held by another process or the kernel (open with O_EXCL "
	    "failed: Device or resource busy)",
	    loops[1]);
	cr_expect_str_eq(e.msg, want);
	fd = open(loops[0], O_RDONLY | O_EXCL | O_CLOEXEC);
	cr_expect_geq(fd, 0, "%s was left open: %s", loops[0], strerror(errno));
	close(fd);
	close(held);
}

Test(guard_real, ext4_needs_confirmation_also_through_a_symlink)
{
	const char *p[] = { loops[0] }, *c[1];
	struct disk_list l;
	char *desc, want[256];

	need_loops();
	errlist_init(&errs);
	mkfs_ext4(loops[0], "guardlbl");
	scan(&l);
	cr_expect_eq(check_real(&l, p, 1, NULL, 0), -EPERM);
	expect_entries(1);
	snprintf(want, sizeof want,
	    "%s: has data: ext4 signature (label \"guardlbl\", UUID ",
	    loops[0]);
	cr_expect(strstr(entry(0), want) != NULL, "%s", entry(0));
	errlist_done(&errs);
	c[0] = link_to(loops[0], "by-label-guardlbl");
	cr_expect_eq(check_real(&l, p, 1, c, 1), 0);
	expect_entries(0);
	desc = guard_confirmed_describe(&l, c, 1);
	snprintf(want, sizeof want, "%s (ext4 \"guardlbl\")", c[0]);
	cr_expect_str_eq(desc, want);
	free(desc);
	/* The free one confirmed too: the list no longer matches. */
	c[0] = loops[1];
	cr_expect_eq(check_real(&l, p, 1, c, 1), -EPERM);
	expect_entries(2);
	disk_list_done(&l);
	errlist_done(&errs);
}

Test(guard_real, a_mounted_loop_is_busy_and_cannot_be_claimed)
{
	const char *p[] = { loops[0] };
	struct disk_list l;
	char want[256];
	struct err e;

	need_loops();
	errlist_init(&errs);
	mkfs_ext4(loops[0], "mnt");
	snprintf(mnt, sizeof mnt, "%s/mnt", tmp);
	cr_assert_eq(mkdir(mnt, 0755), 0);
	if (mount(loops[0], mnt, "ext4", 0, NULL) != 0) {
		mnt[0] = '\0';
		skip_real("cannot mount ext4 here: %s", strerror(errno));
	}
	scan(&l);
	cr_expect_eq(check_real(&l, p, 1, p, 1), -EPERM);
	expect_entries(1);
	snprintf(want, sizeof want, "%s: mounted on %s", loops[0], mnt);
	cr_expect(strstr(entry(0), want) != NULL, "%s", entry(0));
	err_clear(&e);
	cr_expect_eq(guard_exclusive(p, 1, &e), -EBUSY);
	disk_list_done(&l);
	errlist_done(&errs);
}

Test(guard_real, the_same_loop_twice_through_a_symlink)
{
	const char *p[2];
	struct disk_list l;

	need_loops();
	errlist_init(&errs);
	p[0] = loops[1];
	p[1] = link_to(loops[1], "by-id-twice");
	scan(&l);
	cr_expect_eq(check_real(&l, p, 2, NULL, 0), -EPERM);
	expect_entries(1);
	cr_expect(strstr(entry(0), "appears twice") != NULL, "%s", entry(0));
	disk_list_done(&l);
	errlist_done(&errs);
}

Test(guard_real, confirmations_split_between_variants)
{
	struct guard_dev d0 = { loops[0], GUARD_MEMBER, "f", 1 };
	struct guard_dev both[] = { d0, { loops[1], GUARD_SPARE, "g", 2 } };
	const char *c[4], *out[4];

	need_loops();
	errlist_init(&errs);
	c[0] = loops[1];
	c[1] = "/dev/nope";
	c[2] = link_to(loops[0], "by-path-0");
	c[3] = "/dev/null";
	cr_expect_eq(guard_confirmed_for(&d0, 1, c, 4, out), 1);
	cr_expect_str_eq(out[0], c[2]);
	cr_expect_eq(guard_confirmed_for(both, 2, c, 4, out), 2);
	cr_expect_eq(guard_confirmed_unclaimed(both, 2, c, 4, LAB, &errs),
	    -EPERM);
	expect_entries(2);
	expect_entry(0,
	    "lab.cfg: --yes-destroy names /dev/nope, which does "
	    "not exist");
	expect_entry(1,
	    "lab.cfg: --yes-destroy names /dev/null, which is not "
	    "a block device");
	errlist_done(&errs);
	cr_expect_eq(guard_confirmed_unclaimed(&d0, 1, c, 1, LAB, &errs),
	    -EPERM);
	expect_entries(1);
	cr_expect(strstr(entry(0), "which no selected variant uses") != NULL,
	    "%s", entry(0));
	errlist_done(&errs);
}

/* The real machine: whatever holds / is refused, confirmed or not
 * (here /dev/vda, which cannot even be opened: the refusal still comes). */
Test(guard_real, the_real_root_disk_is_refused_even_confirmed)
{
	const struct disk *root = NULL;
	struct disk_list l;
	size_t i;

	errlist_init(&errs);
	scan(&l);
	for (i = 0; i < l.n && root == NULL; i++)
		if (l.v[i].root && l.v[i].parent == NULL)
			root = &l.v[i];
	if (root == NULL) {
		disk_list_done(&l);
		skip_real("/ is not on a block device here");
	}
	cr_expect_eq(check_real(&l, (const char *[]){ root->path }, 1,
			 (const char *[]){ root->path }, 1),
	    -EPERM);
	expect_entries(1);
	cr_expect(strstr(entry(0), "never used, not even with --yes-destroy") !=
		NULL,
	    "%s", entry(0));
	disk_list_done(&l);
	errlist_done(&errs);
}
