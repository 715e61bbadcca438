/*
 * Guards: every rule of guard_check() on a hand-built inventory, with
 * paths resolved by a fake stat and mounted btrfs members listed in a
 * fake /sys/fs/btrfs. The helpers of the test-guard program
 * (unit-guard.h) live here; the same rules on real loop devices are in
 * test-guard-real.c.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "base/err.h"
#include "base/xalloc.h"
#include "build/guard.h"
#include "disk/disk.h"
#include "unit-disk.h"
#include "unit-guard.h"

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

void
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
struct errlist entries;

static void
fake_init(void)
{
	build(&inv);
	errlist_init(&entries);
	fake_sysfs();
}

static void
fake_done(void)
{
	disk_list_done(&inv);
	errlist_done(&entries);
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
	return guard_check_sys(&sys, &inv, devs, n, conf, nconf, LAB, &entries);
}

/* The formatted entry k: "lab.cfg:10: variants.v.array.devices[0]: ..." */
const char *
entry(size_t k)
{
	static char buf[1024];

	cr_assert_lt(k, entries.n, "no entry %zu (%zu entries)", k, entries.n);
	return err_format(&entries.v[k], buf, sizeof buf);
}

void
expect_entries(size_t n)
{
	size_t i;

	cr_expect_eq(entries.n, n, "%zu entries, want %zu", entries.n, n);
	for (i = 0; i < entries.n; i++)
		cr_log_info("entry %zu: %s", i, entry(i));
}

void
expect_entry(size_t k, const char *want)
{
	cr_expect_str_eq(entry(k), want);
}

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
	cr_expect_eq(entries.v[0].code, -ENOENT);
	cr_expect_eq(entries.v[1].code, -ENOTBLK);
	cr_expect_eq(entries.v[3].code, -ENODEV);
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
	cr_expect_eq(entries.v[0].code, -EEXIST);
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
	errlist_done(&entries);
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
	cr_expect_eq(entries.v[0].code, -EBUSY);
	errlist_done(&entries);
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
		errlist_done(&entries);
		cr_expect_eq(check(&p[i], 1, &p[i], 1), -EPERM, "%s", p[i]);
		expect_entries(1);
		cr_expect_eq(entries.v[0].code, -EBUSY);
	}
	errlist_done(&entries);
	cr_expect_eq(check(p, 1, p, 1), -EPERM);
	expect_entry(0,
	    "lab.cfg:10: variants.v.array.devices[0]: /dev/sda: partition "
	    "sda1 holds /: never used, not even with --yes-destroy");
	errlist_done(&entries);
	cr_expect_eq(check(&p[1], 1, NULL, 0), -EPERM);
	expect_entry(0,
	    "lab.cfg:10: variants.v.array.devices[0]: /dev/sda1: holds /: "
	    "never used, not even with --yes-destroy");
	errlist_done(&entries);
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
	cr_expect_eq(entries.v[0].code, -EBUSY);
	errlist_done(&entries);
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
	cr_expect_eq(entries.v[0].code, -EBUSY);
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
	for (size_t i = 0; i < entries.n; i++)
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
	cr_expect_str_eq(guard_refused_line(&entries, GUARD_CONFIRM_OPTION),
	    bare);
	cr_expect_str_eq(guard_refused_line(&entries, GUARD_CONFIRM_TYPED),
	    bare);
	cr_expect_eq(check(data, 1, NULL, 0), -EPERM);
	cr_expect_str_eq(guard_refused_line(&entries, GUARD_CONFIRM_OPTION),
	    "refused: nothing was changed. Free the devices, or confirm the "
	    "ones whose data may be destroyed with --yes-destroy=DEV,...");
	cr_expect_str_eq(guard_refused_line(&entries, GUARD_CONFIRM_TYPED),
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
	cr_expect_eq(guard_check_sys(&sys, &inv, &d, 1, c, 1, LAB, &entries),
	    0);
	expect_entries(0);
	/* ...with it, busy, even when the "dev" file is missing. */
	rm_tree(btrfs_dir);
	fake_sysfs();
	snprintf(dev, sizeof dev, "%s/bt-uuid/devices/sdi/dev", btrfs_dir);
	cr_assert_eq(remove(dev), 0);
	sys.btrfs_dir = btrfs_dir;
	cr_expect_eq(guard_check_sys(&sys, &inv, &d, 1, c, 1, LAB, &entries),
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
	cr_expect_eq(entries.v[0].code, -EPERM);
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
	cr_expect_eq(entries.v[1].code, -EINVAL);
}

Test(guard, every_problem_is_one_entry_appended_after_existing_ones)
{
	const char *p[] = { "/dev/sde", "/dev/sdd", "/dev/sdb", "/dev/nope" };

	errlist_add(&entries, -EINVAL, "other", 1, NULL, "earlier");
	cr_expect_eq(check(p, N(p), NULL, 0), -EPERM);
	expect_entries(4);
	cr_expect_str_eq(entries.v[0].msg, "earlier");
	cr_expect(strstr(entries.v[1].msg, "/dev/sde") != NULL);
	cr_expect(strstr(entries.v[2].msg, "/dev/sdd") != NULL);
	cr_expect(strstr(entries.v[3].msg, "/dev/nope") != NULL);
}

Test(guard, a_null_path_is_a_caller_bug)
{
	struct guard_dev d[] = { { "/dev/sdb", GUARD_MEMBER, "a", 1 },
		{ NULL, GUARD_SPARE, "b", 2 } };

	cr_expect_eq(guard_check(&inv, d, 2, NULL, 0, LAB, &entries), -EINVAL);
	expect_entries(0);
	d[1].path = "";
	cr_expect_eq(guard_check(&inv, d, 2, NULL, 0, LAB, &entries), -EINVAL);
	cr_expect_eq(guard_check(&inv, d, 0, NULL, 0, LAB, &entries), 0);
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
