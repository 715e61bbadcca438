/*
 * Disk inventory: mountinfo and swaps parsers, usage and verdict rules on
 * hand-built device lists, transport guessing, lookup, order, JSON and the
 * table layout. Nothing here touches a real device.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "base/err.h"
#include "base/xalloc.h"
#include "disk/disk-json.h"
#include "disk/disk-table.h"
#include "disk/disk-usage.h"
#include "disk/disk-watch.h"
#include "disk/disk.h"
#include "unit-disk.h"
#include "unit.h"

static FILE *
fixture(const char *name)
{
	const char *dir = getenv("TESTDATA");
	char path[1024];
	FILE *fp;

	snprintf(path, sizeof path, "%s/%s", dir ? dir : "tests/data", name);
	fp = fopen(path, "r");
	cr_assert_not_null(fp, "cannot open fixture %s", path);
	return fp;
}

static struct disk *
get(struct disk_list *l, const char *name)
{
	struct disk *d = disk_list_by_name(l, name);

	cr_assert_not_null(d, "no disk %s", name);
	return d;
}

static void
expect_verdict(struct disk_list *l, const char *name, enum disk_verdict v,
    enum disk_why w, const char *reason)
{
	struct disk *d = get(l, name);

	cr_expect_eq(d->verdict, v, "%s: verdict %s, want %s (%s)", name,
	    disk_verdict_name(d->verdict), disk_verdict_name(v), d->reason);
	cr_expect_eq(d->why, w, "%s: why %s, want %s", name,
	    disk_why_name(d->why), disk_why_name(w));
	if (reason != NULL)
		cr_expect_str_eq(d->reason, reason, "%s", name);
}

Test(disk_usage, parses_mountinfo_with_escapes_and_optional_fields)
{
	struct disk_mounts m;
	struct err e;
	FILE *fp = fixture("mountinfo-sample");

	disk_mounts_init(&m);
	err_clear(&e);
	cr_assert_eq(disk_mounts_parse(&m, fp, &e), 0, "%s", e.msg);
	fclose(fp);
	cr_assert_eq(m.n, 9);
	cr_expect_eq(m.v[1].major, 8);
	cr_expect_eq(m.v[1].minor, 2);
	cr_expect_str_eq(m.v[1].target, "/");
	cr_expect_str_eq(m.v[1].source, "/dev/sda2");
	cr_expect_str_eq(m.v[1].fstype, "ext4");
	cr_expect_str_eq(m.v[3].target, "/mnt/my disk");
	cr_expect_str_eq(m.v[4].root, "/export");
	cr_expect_str_eq(m.v[4].target, "/srv/bind");
	cr_expect_eq(m.v[5].major, 0);
	cr_expect_str_eq(m.v[5].fstype, "btrfs");
	cr_expect_str_eq(m.v[7].target, "/weird\ttab");
	cr_expect_str_eq(m.v[7].fstype, "xfs");
	cr_expect_str_eq(m.v[7].source, "/dev/sdd");
	disk_mounts_done(&m);
	cr_expect_eq(m.n, 0);
}

Test(disk_usage, rejects_malformed_mountinfo_with_line_number)
{
	static const char text[] =
	    "22 27 0:21 / /proc rw - proc proc rw\n"
	    "23 27 8:1 / /x rw no-separator-here ext4 /dev/sda1 rw\n";
	struct disk_mounts m;
	struct err e;
	FILE *fp = fmemopen((void *)(uintptr_t)text, sizeof text - 1, "r");

	disk_mounts_init(&m);
	err_clear(&e);
	cr_assert_eq(disk_mounts_parse(&m, fp, &e), -EINVAL);
	cr_expect_eq(e.line, 2);
	cr_expect_eq(m.n, 1);
	fclose(fp);
	disk_mounts_done(&m);
}

Test(disk_usage, parses_swaps_partitions_and_files)
{
	struct disk_swaps s;
	FILE *fp = fixture("swaps-sample");

	disk_swaps_init(&s);
	cr_assert_eq(disk_swaps_parse(&s, fp, NULL), 0);
	fclose(fp);
	cr_assert_eq(s.n, 2);
	cr_expect_str_eq(s.v[0].path, "/dev/sde2");
	cr_expect(s.v[0].partition);
	cr_expect_str_eq(s.v[1].path, "/var/swap file");
	cr_expect(!s.v[1].partition);
	disk_swaps_done(&s);
}

Test(disk_usage, unescapes_octal_and_leaves_the_rest)
{
	char s[] = "a\\040b\\134c\\9x\\04";

	disk_usage_unescape(s);
	cr_expect_str_eq(s, "a b\\c\\9x\\04");
}

/*
 * sda: sda1 /boot, sda2 /; sdb: sdb1 mounted twice (bind); sdc btrfs
 * (anonymous dev) and sdf its second device; sdd xfs; sde: sde1 held by
 * md127, sde2 swap; sdg ext4 unmounted; sdh gpt, no partitions seen; sdi
 * blank; sdj unreadable; sdk read-only; sdl empty drive.
 */
static void
build_machine(struct disk_list *l)
{
	struct disk *d;
	struct disk_mounts m;
	struct disk_swaps s;
	FILE *fp;

	disk_list_init(l);
	unit_disk_add(l, "sda", 8, 0, NULL)->pttype = xstrdup("gpt");
	unit_disk_add(l, "sda1", 8, 1, "sda")->fstype = xstrdup("vfat");
	unit_disk_add(l, "sda2", 8, 2, "sda")->fstype = xstrdup("ext4");
	unit_disk_add(l, "sdb", 8, 16, NULL)->pttype = xstrdup("dos");
	unit_disk_add(l, "sdb1", 8, 17, "sdb")->fstype = xstrdup("ext4");
	d = unit_disk_add(l, "sdc", 8, 32, NULL);
	d->fstype = xstrdup("btrfs");
	d->uuid = xstrdup("1234");
	d = unit_disk_add(l, "sdf", 8, 80, NULL);
	d->fstype = xstrdup("btrfs");
	d->uuid = xstrdup("1234");
	unit_disk_add(l, "sdd", 8, 48, NULL)->fstype = xstrdup("xfs");
	unit_disk_add(l, "sde", 8, 64, NULL)->pttype = xstrdup("gpt");
	d = unit_disk_add(l, "sde1", 8, 65, "sde");
	d->fstype = xstrdup("linux_raid_member");
	disk_strv_push(&d->holders, &d->n_holders, "md127");
	unit_disk_add(l, "sde2", 8, 66, "sde")->fstype = xstrdup("swap");
	d = unit_disk_add(l, "md127", 9, 127, NULL);
	d->type = DISK_TYPE_MD;
	disk_strv_push(&d->slaves, &d->n_slaves, "sde1");
	d = unit_disk_add(l, "sdg", 8, 96, NULL);
	d->fstype = xstrdup("ext4");
	d->label = xstrdup("data");
	unit_disk_add(l, "sdh", 8, 112, NULL)->pttype = xstrdup("gpt");
	unit_disk_add(l, "sdi", 8, 128, NULL);
	d = unit_disk_add(l, "sdj", 8, 144, NULL);
	d->probe = DISK_PROBE_FAILED;
	d->probe_errno = EACCES;
	unit_disk_add(l, "sdk", 8, 160, NULL)->read_only = true;
	unit_disk_add(l, "sdl", 8, 176, NULL)->size = 0;
	disk_list_link(l);

	disk_mounts_init(&m);
	fp = fixture("mountinfo-sample");
	cr_assert_eq(disk_mounts_parse(&m, fp, NULL), 0);
	fclose(fp);
	disk_usage_apply_mounts(l, &m);
	disk_mounts_done(&m);
	disk_swaps_init(&s);
	fp = fixture("swaps-sample");
	cr_assert_eq(disk_swaps_parse(&s, fp, NULL), 0);
	fclose(fp);
	disk_usage_apply_swaps(l, &s);
	disk_swaps_done(&s);
	disk_usage_mark_root(l, makedev(8, 2));
	disk_list_judge(l);
}

Test(disk_verdict, busy_for_every_kind_of_use)
{
	struct disk_list l;

	build_machine(&l);
	expect_verdict(&l, "sda2", DISK_BUSY, DISK_WHY_ROOT, "holds /");
	expect_verdict(&l, "sda", DISK_BUSY, DISK_WHY_ROOT,
	    "partition sda2 holds /");
	expect_verdict(&l, "sda1", DISK_BUSY, DISK_WHY_MOUNTED,
	    "mounted on /boot");
	expect_verdict(&l, "sdb1", DISK_BUSY, DISK_WHY_MOUNTED,
	    "mounted on /mnt/my disk");
	expect_verdict(&l, "sdb", DISK_BUSY, DISK_WHY_PART_BUSY,
	    "partition sdb1 is mounted on /mnt/my disk");
	expect_verdict(&l, "sdc", DISK_BUSY, DISK_WHY_MOUNTED,
	    "mounted on /data");
	expect_verdict(&l, "sdf", DISK_BUSY, DISK_WHY_MOUNTED,
	    "mounted on /data");
	expect_verdict(&l, "sdd", DISK_BUSY, DISK_WHY_MOUNTED,
	    "mounted on /weird\ttab");
	expect_verdict(&l, "sde1", DISK_BUSY, DISK_WHY_HELD, "held by md127");
	expect_verdict(&l, "sde2", DISK_BUSY, DISK_WHY_SWAP, "active swap");
	expect_verdict(&l, "sde", DISK_BUSY, DISK_WHY_PART_BUSY,
	    "partition sde1 is held by md127");
	expect_verdict(&l, "sdk", DISK_BUSY, DISK_WHY_READ_ONLY, "read-only");
	expect_verdict(&l, "sdl", DISK_BUSY, DISK_WHY_NO_MEDIUM, NULL);
	disk_list_done(&l);
}

Test(disk_verdict, bind_mounts_list_every_mount_point)
{
	struct disk_list l;
	struct disk *d;

	build_machine(&l);
	d = get(&l, "sdb1");
	cr_assert_eq(d->n_mountpoints, 2);
	cr_expect_str_eq(d->mountpoints[0], "/mnt/my disk");
	cr_expect_str_eq(d->mountpoints[1], "/srv/bind");
	disk_list_done(&l);
}

Test(disk_verdict, unused_contents_need_confirmation)
{
	struct disk_list l;

	build_machine(&l);
	expect_verdict(&l, "sdg", DISK_HAS_DATA, DISK_WHY_SIGNATURE,
	    "ext4 signature (label 'data')");
	expect_verdict(&l, "sdh", DISK_HAS_DATA, DISK_WHY_PTABLE,
	    "gpt partition table");
	expect_verdict(&l, "sdj", DISK_HAS_DATA, DISK_WHY_UNKNOWN, NULL);
	expect_verdict(&l, "md127", DISK_FREE, DISK_WHY_NONE, NULL);
	expect_verdict(&l, "sdi", DISK_FREE, DISK_WHY_NONE, NULL);
	disk_list_done(&l);
}

Test(disk_verdict, unprobed_device_is_not_free)
{
	struct disk_list l;

	disk_list_init(&l);
	unit_disk_add(&l, "sdx", 8, 0, NULL)->probe = DISK_PROBE_NONE;
	disk_list_judge(&l);
	expect_verdict(&l, "sdx", DISK_HAS_DATA, DISK_WHY_UNKNOWN,
	    "contents not probed");
	disk_list_done(&l);
}

Test(disk_verdict, root_through_device_mapper_reaches_the_disk)
{
	struct disk_list l;
	struct disk *d;

	disk_list_init(&l);
	unit_disk_add(&l, "vda", 252, 0, NULL)->pttype = xstrdup("gpt");
	unit_disk_add(&l, "vda1", 252, 1, "vda");
	d = unit_disk_add(&l, "vda2", 252, 2, "vda");
	d->fstype = xstrdup("LVM2_member");
	disk_strv_push(&d->holders, &d->n_holders, "dm-0");
	d = unit_disk_add(&l, "dm-0", 253, 0, NULL);
	d->type = DISK_TYPE_DM;
	disk_strv_push(&d->slaves, &d->n_slaves, "vda2");
	disk_strv_push(&d->mountpoints, &d->n_mountpoints, "/");
	disk_list_link(&l);
	disk_usage_mark_root(&l, makedev(253, 0));
	disk_list_judge(&l);
	cr_expect(get(&l, "vda")->root);
	cr_expect(get(&l, "vda2")->root);
	cr_expect(!get(&l, "vda1")->root);
	expect_verdict(&l, "dm-0", DISK_BUSY, DISK_WHY_ROOT, "holds /");
	expect_verdict(&l, "vda2", DISK_BUSY, DISK_WHY_HELD, "held by dm-0");
	expect_verdict(&l, "vda", DISK_BUSY, DISK_WHY_PART_BUSY,
	    "partition vda2 is held by dm-0");
	/* A free partition on the root disk stays usable. */
	expect_verdict(&l, "vda1", DISK_FREE, DISK_WHY_NONE, NULL);
	disk_list_done(&l);
}

Test(disk_verdict, root_on_a_device_not_listed_marks_nothing)
{
	struct disk_list l;
	size_t i;

	disk_list_init(&l);
	unit_disk_add(&l, "sda", 8, 0, NULL);
	unit_disk_add(&l, "sdb", 8, 16, NULL);
	disk_usage_mark_root(&l, makedev(0, 31)); /* overlay, virtiofs */
	disk_list_judge(&l);
	for (i = 0; i < l.n; i++) {
		cr_expect(!l.v[i].root);
		cr_expect_eq(l.v[i].verdict, DISK_FREE);
	}
	disk_list_done(&l);
}

Test(disk_verdict, loop_over_a_device_holds_it)
{
	struct disk_list l;
	struct disk *d;

	disk_list_init(&l);
	unit_disk_add(&l, "sdz", 8, 0, NULL);
	d = unit_disk_add(&l, "loop4", 7, 4, NULL);
	d->type = DISK_TYPE_LOOP;
	d->backing_file = xstrdup("/dev/sdz");
	disk_usage_apply_loops(&l);
	disk_list_judge(&l);
	expect_verdict(&l, "sdz", DISK_BUSY, DISK_WHY_HELD, "held by loop4");
	disk_list_done(&l);
}

struct tran_case {
	char *syspath;
	char *want; /* NULL: unknown */
};

static void
free_tran(struct criterion_test_params *p)
{
	struct tran_case *v = p->params;
	size_t i;

	for (i = 0; i < p->length; i++) {
		cr_free(v[i].syspath);
		cr_free(v[i].want);
	}
	cr_free(v);
}

ParameterizedTestParameters(disk_scan, guesses_transport_from_sysfs_path)
{
	static const char *const cases[][2] = {
		{ "/sys/devices/pci0000:00/0000:00:1d.0/0000:3d:00.0/nvme/"
		  "nvme0/"
		  "nvme0n1",
		    "nvme" },
		{ "/sys/devices/virtual/nvme-subsystem/nvme-subsys0/nvme0n1",
		    "nvme" },
		{ "/sys/devices/pci0000:00/0000:00:02.0/virtio1/block/vda",
		    "virtio" },
		{ "/sys/devices/pci0000:00/0000:00:14.0/usb2/2-1/2-1:1.0/host6/"
		  "target6:0:0/6:0:0:0/block/sdb",
		    "usb" },
		{ "/sys/devices/pci0000:00/0000:00:17.0/ata3/host2/"
		  "target2:0:0/2:0:0:0/block/sda",
		    "sata" },
		{ "/sys/devices/pci0000:00/0000:00:10.0/host32/target32:0:0/"
		  "32:0:0:0/block/sdc",
		    "scsi" },
		{ "/sys/devices/pci0000:00/0000:00:03.0/virtio2/host0/"
		  "target0:0:1/0:0:1:0/block/sdd",
		    "scsi" },
		{ "/sys/devices/platform/soc/fe340000.mmc/mmc_host/mmc0/"
		  "mmc0:aaaa/block/mmcblk0",
		    "mmc" },
		{ "/sys/devices/virtual/block/loop3", "loop" },
		{ "/sys/devices/virtual/block/md127", "md" },
		{ "/sys/devices/virtual/block/dm-0", "dm" },
		{ "/sys/devices/virtual/block/zram0", NULL },
	};
	size_t i, n = sizeof cases / sizeof cases[0];
	struct tran_case *v = cr_malloc(n * sizeof *v);

	for (i = 0; i < n; i++) {
		v[i].syspath = unit_strdup(cases[i][0]);
		v[i].want = unit_strdup(cases[i][1]);
	}
	return cr_make_param_array(struct tran_case, v, n, free_tran);
}

ParameterizedTest(struct tran_case *c, disk_scan,
    guesses_transport_from_sysfs_path)
{
	const char *got = disk_transport_from_syspath(c->syspath);

	if (c->want == NULL)
		cr_expect_null(got, "%s: got %s", c->syspath, got);
	else
		cr_expect(got != NULL && strcmp(got, c->want) == 0,
		    "%s: got %s, want %s", c->syspath, got ? got : "NULL",
		    c->want);
}

Test(disk_list, sorts_naturally_with_partitions_under_their_disk)
{
	static const char *const want[] = {
		"loop2",
		"loop10",
		"nvme0n1",
		"nvme0n1p1",
		"nvme0n1p2",
		"nvme0n1p10",
		"sda",
		"sda1",
	};
	struct disk_list l;
	size_t i;

	disk_list_init(&l);
	unit_disk_add(&l, "sda1", 8, 1, "sda");
	unit_disk_add(&l, "nvme0n1p10", 259, 3, "nvme0n1");
	unit_disk_add(&l, "loop10", 7, 10, NULL);
	unit_disk_add(&l, "nvme0n1p2", 259, 2, "nvme0n1");
	unit_disk_add(&l, "sda", 8, 0, NULL);
	unit_disk_add(&l, "nvme0n1", 259, 0, NULL);
	unit_disk_add(&l, "loop2", 7, 2, NULL);
	unit_disk_add(&l, "nvme0n1p1", 259, 1, "nvme0n1");
	disk_list_link(&l);
	cr_assert_eq(l.n, 8);
	for (i = 0; i < l.n; i++)
		cr_expect_str_eq(l.v[i].name, want[i]);
	cr_assert_eq(get(&l, "nvme0n1")->n_partitions, 3);
	cr_expect_str_eq(get(&l, "nvme0n1")->partitions[2], "nvme0n1p10");
	disk_list_done(&l);
}

Test(disk_list, find_reports_missing_and_non_block_paths)
{
	struct disk_list l;
	struct disk *d;
	struct err e;

	disk_list_init(&l);
	unit_disk_add(&l, "sda", 8, 0, NULL);
	cr_assert_eq(disk_list_find(&l, "sda", &d, &e), 0);
	cr_expect_str_eq(d->name, "sda");
	cr_expect_eq(disk_list_find(&l, "/etc/hostname-missing", &d, &e),
	    -ENOENT);
	cr_expect_null(d);
	err_clear(&e);
	cr_expect_eq(disk_list_find(&l, "/dev/null", &d, &e), -ENOTBLK);
	cr_expect(strstr(e.msg, "/dev/null") != NULL, "%s", e.msg);
	disk_list_done(&l);
}

Test(disk_list, hides_empty_loops_and_ram_disks)
{
	struct disk_list l;
	struct disk *d;

	disk_list_init(&l);
	d = unit_disk_add(&l, "loop0", 7, 0, NULL);
	d->type = DISK_TYPE_LOOP;
	cr_expect(disk_is_hidden(d));
	d->backing_file = xstrdup("/tmp/x");
	cr_expect(!disk_is_hidden(d));
	cr_expect(disk_is_hidden(unit_disk_add(&l, "zram0", 252, 0, NULL)));
	cr_expect(disk_is_hidden(unit_disk_add(&l, "ram3", 1, 3, NULL)));
	cr_expect(!disk_is_hidden(unit_disk_add(&l, "sda", 8, 0, NULL)));
	disk_list_done(&l);
}

Test(disk_json, has_every_field_and_stable_tokens)
{
	static const char *const keys[] = {
		"name",
		"path",
		"major",
		"minor",
		"size",
		"log_sec",
		"phy_sec",
		"rotational",
		"removable",
		"read_only",
		"model",
		"vendor",
		"serial",
		"transport",
		"pttype",
		"fstype",
		"label",
		"uuid",
		"mountpoints",
		"swap",
		"holders",
		"backing_file",
		"parent",
		"partitions",
		"root",
		"verdict",
		"reason",
	};
	struct disk_list l;
	json_t *o, *devs, *sdb;
	size_t i;

	build_machine(&l);
	o = disk_list_to_json(&l, NULL, NULL);
	devs = json_object_get(o, "devices");
	cr_assert(json_is_array(devs));
	cr_assert_eq(json_array_size(devs), l.n);
	sdb = json_array_get(devs, 4);
	cr_assert_str_eq(json_string_value(json_object_get(sdb, "name")),
	    "sdb");
	for (i = 0; i < sizeof keys / sizeof keys[0]; i++)
		cr_expect_not_null(json_object_get(sdb, keys[i]), "%s",
		    keys[i]);
	cr_expect_str_eq(json_string_value(json_object_get(sdb, "verdict")),
	    "busy");
	cr_expect_str_eq(json_string_value(
			     json_array_get(json_object_get(sdb, "partitions"),
				 0)),
	    "sdb1");
	cr_expect(json_is_null(json_object_get(sdb, "label")));
	json_decref(o);
	disk_list_done(&l);
}

static void
check_table(unsigned flags, const char *last_marker)
{
	struct disk_list l;
	struct disk_table t;
	struct disk *d;
	size_t i;

	build_machine(&l);
	d = get(&l, "sda");
	d->model = xstrdup("Samsung SSD 970 EVO Plus 2TB with a long name");
	d->transport = xstrdup("nvme");
	disk_table_build(&t, &l, NULL, NULL, 80, flags);
	cr_assert_eq(t.n, l.n + 1);
	cr_expect(strncmp(t.lines[0], "NAME", 4) == 0, "%s", t.lines[0]);
	for (i = 0; i < t.n; i++)
		cr_expect_leq(disk_table_width(t.lines[i]), 80, "%zu: '%s'", i,
		    t.lines[i]);
	cr_expect(strncmp(t.lines[4], last_marker, strlen(last_marker)) == 0,
	    "'%s'", t.lines[4]);
	cr_expect(strstr(t.lines[2], "Sams") != NULL, "%s", t.lines[2]);
	cr_expect(strstr(t.lines[6], "sdb1") != NULL, "%s", t.lines[6]);
	cr_expect(strstr(t.lines[6], "busy") != NULL, "%s", t.lines[6]);
	disk_table_done(&t);
	disk_list_done(&l);
}

Test(disk_table, fits_80_columns_with_ascii_tree)
{
	setlocale(LC_ALL, "C");
	check_table(0, "`-sda2");
}

Test(disk_table, fits_80_columns_with_utf8_tree)
{
	if (setlocale(LC_ALL, "C.UTF-8") == NULL)
		cr_skip_test("no C.UTF-8 locale");
	check_table(DISK_TABLE_UTF8, "\u2514\u2500sda2");
}

Test(disk_table, narrow_terminal_drops_model_before_reason)
{
	struct disk_list l;
	struct disk_table t;
	size_t i;

	setlocale(LC_ALL, "C");
	build_machine(&l);
	disk_table_build(&t, &l, NULL, NULL, 50, 0);
	for (i = 0; i < t.n; i++)
		cr_expect_leq(strlen(t.lines[i]), 50, "'%s'", t.lines[i]);
	cr_expect(strstr(t.lines[0], "MODEL") == NULL, "%s", t.lines[0]);
	cr_expect(strstr(t.lines[0], "REASON") != NULL, "%s", t.lines[0]);
	disk_table_done(&t);
	disk_list_done(&l);
}

/* A loop device attached and detached is an event the Disks screen sees
   (root: loop devices; skipped where no monitor can be made). */
Test(disk_watch, sees_a_loop_device_attached)
{
	char img[] = "/tmp/raidlab-watch.XXXXXX", cmd[256];
	struct disk_watch *w;
	struct pollfd p;
	int fd;

	if (geteuid() != 0)
		cr_skip_test("needs root (loop devices)");
	if ((w = disk_watch_new()) == NULL)
		cr_skip_test("no block uevent monitor here");
	fd = mkstemp(img);
	cr_assert_geq(fd, 0);
	cr_assert_eq(ftruncate(fd, 8 << 20), 0);
	close(fd);
	snprintf(cmd, sizeof cmd,
	    "d=$(losetup -f --show %s) && losetup -d \"$d\"", img);
	cr_assert_eq(system(cmd), 0);
	p.fd = disk_watch_fd(w);
	p.events = POLLIN;
	cr_expect_eq(poll(&p, 1, 2000), 1, "no event within 2 s");
	cr_expect(disk_watch_drain(w));
	unlink(img);
	disk_watch_free(w);
}

/* Without udevd, a signature written on a device that stays attached is
   an event too: the watch sees the writer close the node (root: loop
   devices; with udevd its own change event does this). */
Test(disk_watch, sees_a_writer_close_a_node)
{
	char img[] = "/tmp/raidlab-watch.XXXXXX", cmd[256], dev[64] = "";
	struct disk_watch *w;
	struct pollfd p;
	bool quiet = false;
	FILE *f;
	int fd;

	if (geteuid() != 0)
		cr_skip_test("needs root (loop devices)");
	if ((w = disk_watch_new()) == NULL)
		cr_skip_test("no block uevent monitor here");
	if (strcmp(disk_watch_source(w), "kernel") != 0)
		cr_skip_test("udevd reports writes here");
	fd = mkstemp(img);
	cr_assert_geq(fd, 0);
	cr_assert_eq(ftruncate(fd, 8 << 20), 0);
	close(fd);
	snprintf(cmd, sizeof cmd, "losetup -f --show %s", img);
	cr_assert_not_null(f = popen(cmd, "r"));
	cr_assert_not_null(fgets(dev, sizeof dev, f));
	cr_assert_eq(pclose(f), 0);
	dev[strcspn(dev, "\n")] = '\0';
	p.fd = disk_watch_fd(w);
	p.events = POLLIN;
	disk_watch_node(w, dev);
	/* A reader closing it is no change. The kernel's uevents of other
	   devices (tests attaching loop devices meanwhile) come on the same
	   descriptor: quiet in one of three tries is enough. */
	for (int i = 0; i < 3 && !quiet; i++) {
		while (poll(&p, 1, 500) == 1) /* the attach's own events */
			(void)disk_watch_drain(w);
		cr_assert_geq(fd = open(dev, O_RDONLY), 0);
		close(fd);
		quiet = poll(&p, 1, 300) == 0;
	}
	cr_expect(quiet, "a reader's close was an event");
	cr_assert_geq(fd = open(dev, O_WRONLY), 0);
	cr_expect_eq(write(fd, "raidlab", 7), 7);
	close(fd);
	cr_expect_eq(poll(&p, 1, 2000), 1, "no event within 2 s");
	cr_expect(disk_watch_drain(w));
	snprintf(cmd, sizeof cmd, "losetup -d %s", dev);
	cr_expect_eq(system(cmd), 0);
	unlink(img);
	disk_watch_free(w);
}
