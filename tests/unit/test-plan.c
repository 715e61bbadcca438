/*
 * plan_build() as a table: a variant (lab text, checked by lab_check) ->
 * the exact setup commands, one per line ("WAIT dev" for a resync wait),
 * and the teardown. Scratch disks resolve to /dev/sN. Also the geometry
 * rule per level and layout, and md names.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/err.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "build/geom.h"
#include "build/plan.h"
#include "lab/lab.h"

#define PRE                                                                    \
	"name = \"t\";\nworkloads = ( { type = \"fio\"; } );\nvariants = (\n"
#define POST "\n);\n"

static const char *const scratch[] = { "/dev/s0", "/dev/s1", "/dev/s2",
	"/dev/s3", "/dev/s4", "/dev/s5" };

/* The plan of the only variant of a lab; fails the test if invalid. */
static struct plan *
plan_of(const char *variants)
{
	struct plan_env env = { .scratch = scratch,
		.nscratch = 6,
		.state_dir = "/run/rl",
		.run = "42" };
	struct errlist errs;
	struct lab *lab = NULL;
	struct plan *p = NULL;
	struct err e;
	char *text;
	char b[2048];

	text = malloc(strlen(PRE) + strlen(variants) + strlen(POST) + 1);
	strcpy(text, PRE);
	strcat(text, variants);
	strcat(text, POST);
	errlist_init(&errs);
	if (lab_load_string(text, "lab.cfg", &lab, &errs) < 0 ||
	    lab_check(lab, &errs) < 0)
		cr_assert_fail("invalid lab: %s\n%s",
		    errs.n ? err_format(&errs.v[0], b, sizeof b) : "?", text);
	errlist_done(&errs);
	free(text);
	err_clear(&e);
	cr_assert_eq(plan_build(&lab->variants[0], &env, &p, &e), 0, "%s",
	    err_format(&e, b, sizeof b));
	lab_free(lab);
	return p;
}

static void
add_argv(struct strbuf *b, char **argv)
{
	for (char **a = argv; *a != NULL; a++)
		strbuf_printf(b, "%s%s", a == argv ? "" : " ", *a);
	strbuf_add(b, "\n");
}

static char *
setup_text(const struct plan *p)
{
	struct strbuf b;

	strbuf_init(&b);
	for (size_t i = 0; i < p->nsteps; i++) {
		if (p->steps[i].kind == PLAN_WAIT_SYNC)
			strbuf_printf(&b, "WAIT %s\n", p->steps[i].device);
		else if (p->steps[i].kind == PLAN_SYSFS)
			strbuf_printf(&b, "SYSFS %s %s %s\n",
			    p->steps[i].device, p->steps[i].attr,
			    p->steps[i].value);
		else
			add_argv(&b, p->steps[i].argv);
	}
	return strbuf_take(&b);
}

static char *
teardown_text(const struct plan *p)
{
	struct strbuf b;

	strbuf_init(&b);
	for (size_t i = p->nsteps; i-- > 0;)
		for (char ***u = p->steps[i].undo; u != NULL && *u; u++)
			add_argv(&b, *u);
	return strbuf_take(&b);
}

static const struct {
	const char *name, *lab, *setup;
} table[] = {
	{ "raid10_f2_256k_ext4_seed003",
	    "{ name = \"a\"; scratch = { count = 4; size = \"1G\"; };\n"
	    "  array = { level = 10; layout = \"f2\"; chunk = \"256K\";"
	    " assume_clean = true; };\n"
	    "  fs = { type = \"ext4\"; mount_options = \"noatime,commit=600\";"
	    " }; readahead = \"512K\"; }",
	    "wipefs --all /dev/s0 /dev/s1 /dev/s2 /dev/s3\n"
	    "mdadm --create /dev/md/rl-a --run --level=10 --raid-devices=4 "
	    "--layout=f2 --chunk=256K --metadata=1.2 --bitmap=none "
	    "--assume-clean /dev/s0 /dev/s1 /dev/s2 /dev/s3\n"
	    "mkfs.ext4 -F -b 4096 -E stride=64,stripe-width=128 /dev/md/rl-a\n"
	    "mount -t ext4 -o noatime,commit=600,noinit_itable /dev/md/rl-a "
	    "/run/rl/mnt/42-a\n"
	    "blockdev --setra 1024 /dev/md/rl-a\n" },
	{ "raid5_internal_bitmap_xfs_external_log",
	    "{ name = \"b\"; scratch = { count = 5; size = \"1G\"; };\n"
	    "  array = { level = 5; bitmap = \"internal\"; bitmap_chunk = "
	    "\"64M\"; chunk = \"64K\"; devices = [\"scratch:0\", "
	    "\"scratch:1\", \"scratch:2\", \"scratch:3\"]; };\n"
	    "  fs = { type = \"xfs\"; journal = { device = \"scratch:4\"; "
	    "size = \"64M\"; }; }; }",
	    "wipefs --all /dev/s0 /dev/s1 /dev/s2 /dev/s3 /dev/s4\n"
	    "mdadm --create /dev/md/rl-b --run --level=5 --raid-devices=4 "
	    "--layout=left-symmetric --chunk=64K --metadata=1.2 "
	    "--bitmap=internal --bitmap-chunk=64M /dev/s0 /dev/s1 /dev/s2 "
	    "/dev/s3\n"
	    "WAIT /dev/md/rl-b\n"
	    "mkfs.xfs -f -l logdev=/dev/s4,size=67108864 -d su=65536,sw=3 "
	    "/dev/md/rl-b\n"
	    "mount -t xfs -o logdev=/dev/s4 /dev/md/rl-b /run/rl/mnt/42-b\n" },
	{ "raid5_write_journal_has_no_bitmap",
	    "{ name = \"c\"; array = { level = 5; devices = [\"/dev/vdb\", "
	    "\"/dev/vdc\", \"/dev/vdd\"]; journal = \"/dev/vde\"; "
	    "assume_clean = true; }; fs = { type = \"ext4\"; geometry = "
	    "\"none\"; }; }",
	    "wipefs --all /dev/vdb /dev/vdc /dev/vdd /dev/vde\n"
	    "mdadm --create /dev/md/rl-c --run --level=5 --raid-devices=3 "
	    "--layout=left-symmetric --chunk=512K --metadata=1.2 "
	    "--write-journal=/dev/vde --assume-clean /dev/vdb /dev/vdc "
	    "/dev/vdd\n"
	    "mkfs.ext4 -F -b 4096 /dev/md/rl-c\n"
	    "mount -t ext4 -o noinit_itable /dev/md/rl-c /run/rl/mnt/42-c\n" },
	{ "raid6_five_devices_spare_xfs",
	    "{ name = \"d\"; array = { level = 6; chunk = \"128K\"; devices = "
	    "[\"/dev/vdb\", \"/dev/vdc\", \"/dev/vdd\", \"/dev/vde\", "
	    "\"/dev/vdf\"]; spares = [\"/dev/vdg\"]; }; fs = { type = "
	    "\"xfs\"; }; }",
	    "wipefs --all /dev/vdb /dev/vdc /dev/vdd /dev/vde /dev/vdf "
	    "/dev/vdg\n"
	    "mdadm --create /dev/md/rl-d --run --level=6 --raid-devices=5 "
	    "--spare-devices=1 --layout=left-symmetric --chunk=128K "
	    "--metadata=1.2 --bitmap=none /dev/vdb /dev/vdc /dev/vdd /dev/vde "
	    "/dev/vdf /dev/vdg\n"
	    "WAIT /dev/md/rl-d\n"
	    "mkfs.xfs -f -d su=131072,sw=3 /dev/md/rl-d\n"
	    "mount -t xfs /dev/md/rl-d /run/rl/mnt/42-d\n" },
	{ "raid0_has_no_bitmap_and_no_resync",
	    "{ name = \"e\"; array = { level = 0; chunk = \"64K\"; devices = "
	    "[\"/dev/vdb\", \"/dev/vdc\", \"/dev/vdd\"]; }; fs = { type = "
	    "\"ext2\"; }; }",
	    "wipefs --all /dev/vdb /dev/vdc /dev/vdd\n"
	    "mdadm --create /dev/md/rl-e --run --level=0 --raid-devices=3 "
	    "--chunk=64K --metadata=1.2 /dev/vdb /dev/vdc /dev/vdd\n"
	    "mkfs.ext2 -F -b 4096 -E stride=16,stripe-width=48 /dev/md/rl-e\n"
	    "mount -t ext2 /dev/md/rl-e /run/rl/mnt/42-e\n" },
	{ "raid01_nested_legs",
	    "{ name = \"f\"; array = { level = 1; assume_clean = true; legs = "
	    "( { level = 0; chunk = \"64K\"; devices = [\"/dev/vdb\", "
	    "\"/dev/vdc\"]; }, { level = 0; chunk = \"64K\"; devices = "
	    "[\"/dev/vdd\", \"/dev/vde\"]; } ); }; fs = { type = \"ext3\"; "
	    "data = \"journal\"; }; }",
	    "wipefs --all /dev/vdb /dev/vdc /dev/vdd /dev/vde\n"
	    "mdadm --create /dev/md/rl-f-leg0 --run --level=0 "
	    "--raid-devices=2 --chunk=64K --metadata=1.2 /dev/vdb /dev/vdc\n"
	    "mdadm --create /dev/md/rl-f-leg1 --run --level=0 "
	    "--raid-devices=2 --chunk=64K --metadata=1.2 /dev/vdd /dev/vde\n"
	    "mdadm --create /dev/md/rl-f --run --level=1 --raid-devices=2 "
	    "--metadata=1.2 --bitmap=none --assume-clean /dev/md/rl-f-leg0 "
	    "/dev/md/rl-f-leg1\n"
	    "mkfs.ext3 -F -b 4096 -E stride=16,stripe-width=32 /dev/md/rl-f\n"
	    "mount -t ext3 -o data=journal /dev/md/rl-f /run/rl/mnt/42-f\n" },
	{ "btrfs_raid10_metadata_raid1",
	    "{ name = \"g\"; scratch = { count = 4; size = \"1G\"; };\n"
	    "  array = { engine = \"btrfs\"; level = \"raid10\"; "
	    "metadata_profile = \"raid1\"; }; fs = { type = \"btrfs\"; "
	    "mount_options = \"noatime\"; }; readahead = \"1M\"; }",
	    "wipefs --all /dev/s0 /dev/s1 /dev/s2 /dev/s3\n"
	    "mkfs.btrfs -f -d raid10 -m raid1 /dev/s0 /dev/s1 /dev/s2 /dev/s3\n"
	    "btrfs device scan /dev/s0 /dev/s1 /dev/s2 /dev/s3\n"
	    "mount -t btrfs -o noatime /dev/s0 /run/rl/mnt/42-g\n"
	    "blockdev --setra 2048 /dev/s0\n"
	    "blockdev --setra 2048 /dev/s1\n"
	    "blockdev --setra 2048 /dev/s2\n"
	    "blockdev --setra 2048 /dev/s3\n" },
	{ "single_ext4_external_journal",
	    "{ name = \"h\"; scratch = { count = 2; size = \"1G\"; };\n"
	    "  array = { engine = \"single\"; devices = [\"scratch:0\"]; };\n"
	    "  fs = { type = \"ext4\"; data = \"writeback\"; journal = { "
	    "device = \"scratch:1\"; }; }; }",
	    "wipefs --all /dev/s0 /dev/s1\n"
	    "mke2fs -F -O journal_dev -b 4096 /dev/s1\n"
	    "mkfs.ext4 -F -b 4096 -J device=/dev/s1 /dev/s0\n"
	    "mount -t ext4 -o data=writeback,noinit_itable /dev/s0 "
	    "/run/rl/mnt/42-h\n" },
	{ "implicit_scratch_members_skip_the_log_array",
	    "{ name = \"i\"; scratch = { count = 6; size = \"512M\"; };\n"
	    "  array = { level = 5; chunk = \"64K\"; assume_clean = true; };\n"
	    "  fs = { type = \"xfs\"; journal = { array = { level = 1; "
	    "assume_clean = true; devices = [\"scratch:4\", \"scratch:5\"]; "
	    "}; }; }; }",
	    "wipefs --all /dev/s0 /dev/s1 /dev/s2 /dev/s3 /dev/s4 /dev/s5\n"
	    "mdadm --create /dev/md/rl-i-log --run --level=1 "
	    "--raid-devices=2 --metadata=1.2 --bitmap=none --assume-clean "
	    "/dev/s4 /dev/s5\n"
	    "mdadm --create /dev/md/rl-i --run --level=5 --raid-devices=4 "
	    "--layout=left-symmetric --chunk=64K --metadata=1.2 "
	    "--bitmap=none --assume-clean /dev/s0 /dev/s1 /dev/s2 /dev/s3\n"
	    "mkfs.xfs -f -l logdev=/dev/md/rl-i-log -d su=65536,sw=3 "
	    "/dev/md/rl-i\n"
	    "mount -t xfs -o logdev=/dev/md/rl-i-log /dev/md/rl-i "
	    "/run/rl/mnt/42-i\n" },
	{ "explicit_ext_geometry_is_kept",
	    "{ name = \"j\"; array = { level = 10; layout = \"o2\"; chunk = "
	    "\"64K\"; devices = [\"/dev/vdb\", \"/dev/vdc\", \"/dev/vdd\", "
	    "\"/dev/vde\"]; assume_clean = true; }; fs = { geometry = { "
	    "stride = 16; stripe_width = 64; }; }; }",
	    "wipefs --all /dev/vdb /dev/vdc /dev/vdd /dev/vde\n"
	    "mdadm --create /dev/md/rl-j --run --level=10 --raid-devices=4 "
	    "--layout=o2 --chunk=64K --metadata=1.2 --bitmap=none "
	    "--assume-clean /dev/vdb /dev/vdc /dev/vdd /dev/vde\n"
	    "mkfs.ext4 -F -b 4096 -E stride=16,stripe-width=64 /dev/md/rl-j\n"
	    "mount -t ext4 -o noinit_itable /dev/md/rl-j /run/rl/mnt/42-j\n" },
	{ "btrfs_filesystem_on_md_raid5",
	    "{ name = \"k\"; array = { level = 5; devices = [\"/dev/vdb\", "
	    "\"/dev/vdc\", \"/dev/vdd\"]; assume_clean = true; }; fs = { "
	    "type = \"btrfs\"; mount_options = \"noatime\"; }; }",
	    "wipefs --all /dev/vdb /dev/vdc /dev/vdd\n"
	    "mdadm --create /dev/md/rl-k --run --level=5 --raid-devices=3 "
	    "--layout=left-symmetric --chunk=512K --metadata=1.2 "
	    "--bitmap=none --assume-clean /dev/vdb /dev/vdc /dev/vdd\n"
	    "mkfs.btrfs -f /dev/md/rl-k\n"
	    "btrfs device scan /dev/md/rl-k\n"
	    "mount -t btrfs -o noatime /dev/md/rl-k /run/rl/mnt/42-k\n" },
	{ "btrfs_filesystem_on_a_single_disk",
	    "{ name = \"l\"; array = { engine = \"single\"; devices = "
	    "[\"/dev/vdb\"]; }; fs = { type = \"btrfs\"; }; }",
	    "wipefs --all /dev/vdb\n"
	    "mkfs.btrfs -f /dev/vdb\n"
	    "btrfs device scan /dev/vdb\n"
	    "mount -t btrfs /dev/vdb /run/rl/mnt/42-l\n" },
	{ "raid5_ppl_and_stripe_cache_knobs_in_sysfs",
	    "{ name = \"m\"; scratch = { count = 4; size = \"1G\"; };\n"
	    "  array = { level = 5; chunk = \"64K\"; assume_clean = true;\n"
	    "    consistency_policy = \"ppl\"; stripe_cache_size = 4096;\n"
	    "    group_thread_cnt = 2; skip_copy = true;\n"
	    "    preread_bypass_threshold = 0; }; }",
	    "wipefs --all /dev/s0 /dev/s1 /dev/s2 /dev/s3\n"
	    "mdadm --create /dev/md/rl-m --run --level=5 --raid-devices=4 "
	    "--layout=left-symmetric --chunk=64K --metadata=1.2 "
	    "--bitmap=none --consistency-policy=ppl --assume-clean /dev/s0 "
	    "/dev/s1 /dev/s2 /dev/s3\n"
	    "SYSFS /dev/md/rl-m md/stripe_cache_size 4096\n"
	    "SYSFS /dev/md/rl-m md/group_thread_cnt 2\n"
	    "SYSFS /dev/md/rl-m md/skip_copy 1\n"
	    "SYSFS /dev/md/rl-m md/preread_bypass_threshold 0\n"
	    "mkfs.ext4 -F -b 4096 -E stride=16,stripe-width=48 /dev/md/rl-m\n"
	    "mount -t ext4 -o noinit_itable /dev/md/rl-m /run/rl/mnt/42-m\n" },
	{ "raid5_write_back_journal",
	    "{ name = \"n\"; array = { level = 5; devices = [\"/dev/vdb\", "
	    "\"/dev/vdc\", \"/dev/vdd\"]; journal = \"/dev/vde\"; "
	    "journal_mode = \"write-back\"; consistency_policy = "
	    "\"journal\"; assume_clean = true; }; fs = { type = \"ext4\"; "
	    "geometry = \"none\"; }; }",
	    "wipefs --all /dev/vdb /dev/vdc /dev/vdd /dev/vde\n"
	    "mdadm --create /dev/md/rl-n --run --level=5 --raid-devices=3 "
	    "--layout=left-symmetric --chunk=512K --metadata=1.2 "
	    "--write-journal=/dev/vde --consistency-policy=journal "
	    "--assume-clean /dev/vdb /dev/vdc /dev/vdd\n"
	    "SYSFS /dev/md/rl-n md/journal_mode write-back\n"
	    "mkfs.ext4 -F -b 4096 /dev/md/rl-n\n"
	    "mount -t ext4 -o noinit_itable /dev/md/rl-n /run/rl/mnt/42-n\n" },
	{ "raid1_write_mostly_and_write_behind",
	    "{ name = \"o\"; scratch = { count = 3; size = \"1G\"; };\n"
	    "  array = { level = 1; bitmap = \"internal\"; write_behind = "
	    "1024;\n"
	    "    write_mostly = [\"scratch:1\", \"scratch:2\"]; }; }",
	    "wipefs --all /dev/s0 /dev/s1 /dev/s2\n"
	    "mdadm --create /dev/md/rl-o --run --level=1 --raid-devices=3 "
	    "--metadata=1.2 --bitmap=internal --write-behind=1024 /dev/s0 "
	    "--write-mostly /dev/s1 /dev/s2\n"
	    "WAIT /dev/md/rl-o\n"
	    "mkfs.ext4 -F -b 4096 /dev/md/rl-o\n"
	    "mount -t ext4 -o noinit_itable /dev/md/rl-o /run/rl/mnt/42-o\n" },
	{ "raid10_write_mostly_member_between_others",
	    "{ name = \"p\"; array = { level = 10; assume_clean = true; "
	    "devices = [\"/dev/vdb\", \"/dev/vdc\", \"/dev/vdd\", "
	    "\"/dev/vde\"]; write_mostly = [\"/dev/vdc\"]; "
	    "bitmap = \"lockless\"; }; fs = { geometry = \"none\"; }; }",
	    "wipefs --all /dev/vdb /dev/vdc /dev/vdd /dev/vde\n"
	    "mdadm --create /dev/md/rl-p --run --level=10 --raid-devices=4 "
	    "--layout=n2 --chunk=512K --metadata=1.2 --bitmap=lockless "
	    "--assume-clean /dev/vdb --write-mostly /dev/vdc --readwrite "
	    "/dev/vdd /dev/vde\n"
	    "mkfs.ext4 -F -b 4096 /dev/md/rl-p\n"
	    "mount -t ext4 -o noinit_itable /dev/md/rl-p /run/rl/mnt/42-p\n" },
	{ "raid6_rebuild_fails_the_last_two_then_adds_them_back",
	    "{ name = \"q\"; scratch = { count = 4; size = \"1G\"; };\n"
	    "  array = { level = 6; chunk = \"64K\"; assume_clean = true;\n"
	    "    phase = \"rebuild\"; fail = 2; sync_speed_max = 50000; }; "
	    "fs = { geometry = \"none\"; }; }",
	    "wipefs --all /dev/s0 /dev/s1 /dev/s2 /dev/s3\n"
	    "mdadm --create /dev/md/rl-q --run --level=6 --raid-devices=4 "
	    "--layout=left-symmetric --chunk=64K --metadata=1.2 "
	    "--bitmap=none --assume-clean /dev/s0 /dev/s1 /dev/s2 /dev/s3\n"
	    "mkfs.ext4 -F -b 4096 /dev/md/rl-q\n"
	    "mount -t ext4 -o noinit_itable /dev/md/rl-q /run/rl/mnt/42-q\n"
	    "SYSFS /dev/md/rl-q md/sync_speed_max 50000\n"
	    "mdadm --fail /dev/md/rl-q /dev/s2\n"
	    "mdadm --remove /dev/md/rl-q /dev/s2\n"
	    "mdadm --fail /dev/md/rl-q /dev/s3\n"
	    "mdadm --remove /dev/md/rl-q /dev/s3\n"
	    "mdadm --zero-superblock /dev/s2\n"
	    "mdadm --add /dev/md/rl-q /dev/s2\n"
	    "mdadm --zero-superblock /dev/s3\n"
	    "mdadm --add /dev/md/rl-q /dev/s3\n" },
	{ "btrfs_raid1_degraded_loses_its_last_member",
	    "{ name = \"s\"; scratch = { count = 3; size = \"1G\"; };\n"
	    "  array = { engine = \"btrfs\"; level = \"raid1c3\"; "
	    "metadata_profile = \"raid1c3\"; phase = \"degraded\"; fail = 2; "
	    "}; }",
	    "wipefs --all /dev/s0 /dev/s1 /dev/s2\n"
	    "mkfs.btrfs -f -d raid1c3 -m raid1c3 /dev/s0 /dev/s1 /dev/s2\n"
	    "btrfs device scan /dev/s0 /dev/s1 /dev/s2\n"
	    "wipefs --all /dev/s1\n"
	    "btrfs device scan --forget /dev/s1\n"
	    "wipefs --all /dev/s2\n"
	    "btrfs device scan --forget /dev/s2\n"
	    "mount -t btrfs -o degraded /dev/s0 /run/rl/mnt/42-s\n" },
	{ "raid1_check_starts_a_scrub",
	    "{ name = \"r\"; array = { level = 1; "
	    "devices = [\"/dev/vdb\", \"/dev/vdc\"]; phase = \"check\"; }; }",
	    "wipefs --all /dev/vdb /dev/vdc\n"
	    "mdadm --create /dev/md/rl-r --run --level=1 --raid-devices=2 "
	    "--metadata=1.2 --bitmap=none /dev/vdb /dev/vdc\n"
	    "WAIT /dev/md/rl-r\n"
	    "mkfs.ext4 -F -b 4096 /dev/md/rl-r\n"
	    "mount -t ext4 -o noinit_itable /dev/md/rl-r /run/rl/mnt/42-r\n"
	    "SYSFS /dev/md/rl-r md/sync_action check\n" },
	/* Each member's queue, right after the wipe: the depth after the
	   scheduler, whose switch resets it. */
	{ "btrfs_raid1_members_scheduler_and_depth",
	    "{ name = \"q\"; scratch = { count = 2; size = \"1G\"; };\n"
	    "  array = { engine = \"btrfs\"; level = \"raid1\"; };\n"
	    "  scheduler = \"mq-deadline\"; nr_requests = 64; }",
	    "wipefs --all /dev/s0 /dev/s1\n"
	    "SYSFS /dev/s0 queue/scheduler mq-deadline\n"
	    "SYSFS /dev/s0 queue/nr_requests 64\n"
	    "SYSFS /dev/s1 queue/scheduler mq-deadline\n"
	    "SYSFS /dev/s1 queue/nr_requests 64\n"
	    "mkfs.btrfs -f -d raid1 /dev/s0 /dev/s1\n"
	    "btrfs device scan /dev/s0 /dev/s1\n"
	    "mount -t btrfs /dev/s0 /run/rl/mnt/42-q\n" },
	/* md: the disks (legs' members and spares), never the md device. */
	{ "md_raid1_members_and_spare_get_the_scheduler",
	    "{ name = \"k\"; array = { level = 1; assume_clean = true; "
	    "devices = [\"/dev/vdb\", \"/dev/vdc\"]; spares = "
	    "[\"/dev/vdd\"]; }; scheduler = \"bfq\"; }",
	    "wipefs --all /dev/vdb /dev/vdc /dev/vdd\n"
	    "SYSFS /dev/vdb queue/scheduler bfq\n"
	    "SYSFS /dev/vdc queue/scheduler bfq\n"
	    "SYSFS /dev/vdd queue/scheduler bfq\n"
	    "mdadm --create /dev/md/rl-k --run --level=1 --raid-devices=2 "
	    "--spare-devices=1 --metadata=1.2 --bitmap=none --assume-clean "
	    "/dev/vdb /dev/vdc /dev/vdd\n"
	    "mkfs.ext4 -F -b 4096 /dev/md/rl-k\n"
	    "mount -t ext4 -o noinit_itable /dev/md/rl-k /run/rl/mnt/42-k\n" },
	{ "single_device_depth_only",
	    "{ name = \"o\"; array = { engine = \"single\"; devices = "
	    "[\"/dev/vdb\"]; }; nr_requests = 32; }",
	    "wipefs --all /dev/vdb\n"
	    "SYSFS /dev/vdb queue/nr_requests 32\n"
	    "mkfs.ext4 -F -b 4096 /dev/vdb\n"
	    "mount -t ext4 -o noinit_itable /dev/vdb /run/rl/mnt/42-o\n" },
	{ "btrfs_check_scrubs_once_mounted",
	    "{ name = \"t\"; scratch = { count = 2; size = \"1G\"; };\n"
	    "  array = { engine = \"btrfs\"; level = \"raid1\"; "
	    "phase = \"check\"; }; }",
	    "wipefs --all /dev/s0 /dev/s1\n"
	    "mkfs.btrfs -f -d raid1 /dev/s0 /dev/s1\n"
	    "btrfs device scan /dev/s0 /dev/s1\n"
	    "mount -t btrfs /dev/s0 /run/rl/mnt/42-t\n"
	    "btrfs scrub start /run/rl/mnt/42-t\n" },
	{ "btrfs_rebuild_replaces_the_lost_member_onto_itself_wiped",
	    "{ name = \"u\"; scratch = { count = 3; size = \"1G\"; };\n"
	    "  array = { engine = \"btrfs\"; level = \"raid1\"; "
	    "phase = \"rebuild\"; }; }",
	    "wipefs --all /dev/s0 /dev/s1 /dev/s2\n"
	    "mkfs.btrfs -f -d raid1 /dev/s0 /dev/s1 /dev/s2\n"
	    "btrfs device scan /dev/s0 /dev/s1 /dev/s2\n"
	    "wipefs --all /dev/s2\n"
	    "btrfs device scan --forget /dev/s2\n"
	    "mount -t btrfs -o degraded /dev/s0 /run/rl/mnt/42-u\n"
	    "btrfs replace start 3 /dev/s2 /run/rl/mnt/42-u\n" },
};

Test(plan, table)
{
	for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
		struct plan *p = plan_of(table[i].lab);
		char *s = setup_text(p), *want;

		/* Every plan starts with the run's own mount point (the
		   variant is named with one letter in the table). */
		want = xasprintf("mkdir /run/rl/mnt/42-%s\n%s", p->variant,
		    table[i].setup);
		cr_expect_str_eq(s, want, "%s: got\n%s", table[i].name, s);
		free(want);
		free(s);
		plan_free(p);
	}
}

/* What `raidlab plan` prints for a sysfs write: the shell line that does
   the same, and the stripe cache's memory. */
Test(plan, sysfs_writes_read_as_shell_lines_with_their_cost)
{
	struct plan *p =
	    plan_of("{ name = \"m\"; scratch = { count = 4; size = \"1G\"; };\n"
		    "  array = { level = 5; stripe_cache_size = 4096; }; }");
	struct strbuf b;
	char *want;
	long page = sysconf(_SC_PAGESIZE);

	strbuf_init(&b);
	plan_format(p, &b);
	cr_expect(strstr(b.s,
		      "echo 4096 > /sys/block/$(basename $(realpath "
		      "/dev/md/rl-m))/md/stripe_cache_size\n") != NULL,
	    "%s", b.s);
	want = xasprintf("%ldK pages x 4 members x 4096 stripes = %ldM of "
			 "memory",
	    page / 1024, page * 4 * 4096 / (1024 * 1024));
	cr_expect(strstr(b.s, want) != NULL, "%s\nwant: %s", b.s, want);
	free(want);
	strbuf_done(&b);
	plan_free(p);
}

/* The lab of the table's case name. */
static const char *
lab_named(const char *name)
{
	for (size_t i = 0; i < sizeof table / sizeof *table; i++)
		if (strcmp(table[i].name, name) == 0)
			return table[i].lab;
	cr_assert_fail("no case %s", name);
	return NULL;
}

/* A member's queue write as the shell line that does it (a partition's
   goes to its disk's queue), marked to be put back, and the teardown's
   line for it, newest first. */
Test(plan, queue_writes_read_as_shell_lines_put_back_at_teardown)
{
	struct plan *p =
	    plan_of(lab_named("btrfs_raid1_members_scheduler_and_depth"));
	struct strbuf b;
	const char *setup, *down;
	json_t *j;

	strbuf_init(&b);
	plan_format(p, &b);
	cr_expect(strstr(b.s,
		      "q=/sys/class/block/$(basename $(realpath /dev/s1)); "
		      "[ -e $q/partition ] && q=$q/..; echo 64 > "
		      "$q/queue/nr_requests\n"
		      "    # requests the member's queue holds at once: deeper "
		      "lets the scheduler merge more, at the cost of "
		      "latency; put back as found at teardown\n") != NULL,
	    "%s", b.s);
	setup = strstr(b.s, "# setup");
	down = strstr(b.s, "# teardown\n");
	cr_assert(setup != NULL && down != NULL, "%s", b.s);
	cr_expect(strstr(down,
		      "btrfs device scan --forget /dev/s0 /dev/s1\n"
		      "# put back queue/nr_requests of /dev/s1 as step 6 "
		      "found it\n"
		      "# put back queue/scheduler of /dev/s1 as step 5 found "
		      "it\n"
		      "# put back queue/nr_requests of /dev/s0 as step 4 "
		      "found it\n"
		      "# put back queue/scheduler of /dev/s0 as step 3 found "
		      "it\n"
		      "rmdir /run/rl/mnt/42-q\n") != NULL,
	    "%s", down);
	for (size_t i = 0; i < p->nsteps; i++)
		cr_expect_eq(p->steps[i].restore,
		    p->steps[i].kind == PLAN_SYSFS, "step %zu", i + 1);
	j = plan_json(p);
	cr_expect_eq(json_array_size(json_object_get(j, "restore")), 4);
	cr_expect_str_eq(json_string_value(
			     json_object_get(json_array_get(json_object_get(j,
								"restore"),
						 0),
				 "attr")),
	    "queue/nr_requests");
	json_decref(j);
	strbuf_done(&b);
	plan_free(p);
}

/* Without the keys a member's queue is left as found: no step. */
Test(plan, queue_left_as_found_without_the_keys)
{
	struct plan *p = plan_of(table[0].lab);

	for (size_t i = 0; i < p->nsteps; i++)
		cr_expect(!p->steps[i].restore &&
			p->steps[i].kind != PLAN_SYSFS,
		    "step %zu", i + 1);
	plan_free(p);
}

Test(plan, teardown_undoes_in_reverse)
{
	struct plan *p = plan_of(table[1].lab);
	char *s = teardown_text(p);

	cr_expect_str_eq(s,
	    "umount /run/rl/mnt/42-b\n"
	    "wipefs --all /dev/md/rl-b\n"
	    "wipefs --all /dev/s4\n"
	    "mdadm --stop /dev/md/rl-b\n"
	    "mdadm --zero-superblock /dev/s0 /dev/s1 /dev/s2 /dev/s3\n"
	    "wipefs --all /dev/s0 /dev/s1 /dev/s2 /dev/s3\n"
	    "rmdir /run/rl/mnt/42-b\n",
	    "got\n%s", s);
	free(s);
	plan_free(p);
}

Test(plan, btrfs_teardown_forgets_the_members)
{
	struct plan *p = plan_of(table[6].lab);
	char *s = teardown_text(p);

	cr_expect_str_eq(s,
	    "umount /run/rl/mnt/42-g\n"
	    "wipefs --all /dev/s0 /dev/s1 /dev/s2 /dev/s3\n"
	    "btrfs device scan --forget /dev/s0 /dev/s1 /dev/s2 /dev/s3\n"
	    "rmdir /run/rl/mnt/42-g\n",
	    "got\n%s", s);
	free(s);
	plan_free(p);
}

/* A running scrub holds the mount: the teardown cancels it first, and
   the scrub is the step the phase's watch starts after. */
Test(plan, btrfs_check_teardown_cancels_the_scrub_before_umount)
{
	struct plan *p = plan_of(table[sizeof table / sizeof table[0] - 2].lab);
	char *s = teardown_text(p);

	cr_expect_str_eq(s,
	    "btrfs scrub cancel /run/rl/mnt/42-t\n"
	    "umount /run/rl/mnt/42-t\n"
	    "wipefs --all /dev/s0 /dev/s1\n"
	    "btrfs device scan --forget /dev/s0 /dev/s1\n"
	    "rmdir /run/rl/mnt/42-t\n",
	    "got\n%s", s);
	cr_assert_geq(p->phase_step, 0);
	cr_expect_str_eq(p->steps[p->phase_step].argv[1], "scrub");
	cr_expect_str_eq(p->phase, "check");
	cr_expect_null(p->phase_md);
	cr_expect_str_eq(p->steps[p->phase_step].label,
	    "scrub /run/rl/mnt/42-t");
	free(s);
	plan_free(p);
}

/* A replace left running would only be suspended by the umount, and
   resumed by the next mount: the teardown cancels it first. */
Test(plan, btrfs_rebuild_teardown_cancels_the_replace_before_umount)
{
	struct plan *p = plan_of(table[sizeof table / sizeof table[0] - 1].lab);
	char *s = teardown_text(p);

	cr_expect_str_eq(s,
	    "btrfs replace cancel /run/rl/mnt/42-u\n"
	    "umount /run/rl/mnt/42-u\n"
	    "wipefs --all /dev/s0 /dev/s1 /dev/s2\n"
	    "btrfs device scan --forget /dev/s0 /dev/s1 /dev/s2\n"
	    "rmdir /run/rl/mnt/42-u\n",
	    "got\n%s", s);
	cr_assert_geq(p->phase_step, 0);
	cr_expect_str_eq(p->steps[p->phase_step].argv[1], "replace");
	cr_expect_str_eq(p->phase, "rebuild");
	cr_expect_eq(p->nfailed, 1);
	free(s);
	plan_free(p);
}

Test(plan, devices_and_roles_for_the_guards)
{
	struct plan *p = plan_of(table[3].lab);

	cr_assert_eq(p->ndevs, 6);
	cr_expect_str_eq(p->devs[0].path, "/dev/vdb");
	cr_expect_eq(p->devs[0].role, PLAN_ROLE_MEMBER);
	cr_expect_str_eq(p->devs[0].field, "variants.d.array.devices");
	cr_expect_eq(p->devs[0].line, 4);
	cr_expect_str_eq(p->devs[5].path, "/dev/vdg");
	cr_expect_eq(p->devs[5].role, PLAN_ROLE_SPARE);
	cr_expect(!p->scratch);
	plan_free(p);
	p = plan_of(table[7].lab);
	cr_expect(p->scratch);
	cr_expect_eq(p->devs[1].role, PLAN_ROLE_FSLOG);
	cr_expect_eq(p->devs[1].scratch, 1);
	plan_free(p);
}

Test(plan, the_geometry_states_its_rule)
{
	struct plan *p = plan_of(table[0].lab);

	cr_expect(strstr(p->geometry,
		      "stripe-width = stride x data disks = "
		      "128") != NULL,
	    "%s", p->geometry);
	cr_expect(strstr(p->geometry, "4 devices / 2 copies = 2 data disks") !=
		NULL,
	    "%s", p->geometry);
	plan_free(p);
	p = plan_of(table[9].lab);
	cr_expect(strstr(p->geometry,
		      "the rule gives stride=16, "
		      "stripe-width=32") != NULL,
	    "%s", p->geometry);
	plan_free(p);
}

Test(plan, unresolved_scratch_disks_show_as_placeholders)
{
	struct errlist errs;
	struct lab *lab = NULL;
	struct plan_env env = { 0 };
	struct plan *p = NULL;
	struct err e;

	errlist_init(&errs);
	cr_assert_eq(lab_load_string(PRE
			 "{ name = \"a\"; scratch = { count = 2; size = "
			 "\"1G\"; }; array = { level = 1; }; }" POST,
			 "lab.cfg", &lab, &errs),
	    0);
	cr_assert_eq(plan_build(&lab->variants[0], &env, &p, &e), 0);
	cr_expect_str_eq(p->steps[1].argv[2], "<scratch:0>");
	cr_expect_str_eq(p->mountpoint, "/run/raidlab/mnt/<pid>-a");
	plan_free(p);
	lab_free(lab);
	errlist_done(&errs);
}

Test(plan, directory_variants_have_no_plan)
{
	struct errlist errs;
	struct lab *lab = NULL;
	struct plan_env env = { 0 };
	struct plan *p = NULL;
	struct err e;

	errlist_init(&errs);
	cr_assert_eq(lab_load_string(PRE "{ name = \"d\"; directory = "
					 "\"/tmp\"; }" POST,
			 "lab.cfg", &lab, &errs),
	    0);
	err_clear(&e);
	cr_expect_eq(plan_build(&lab->variants[0], &env, &p, &e), -EINVAL);
	cr_expect_null(p);
	cr_expect(strstr(e.msg, "not an array variant") != NULL, "%s", e.msg);
	lab_free(lab);
	errlist_done(&errs);
}

Test(geom, data_disks_per_level_and_layout)
{
	static const struct {
		const char *lab;
		unsigned n, data;
	} t[] = {
		{ "level = 0;", 4, 4 },
		{ "level = 5;", 4, 3 },
		{ "level = 4;", 3, 2 },
		{ "level = 6;", 6, 4 },
		{ "level = 10; layout = \"n2\";", 4, 2 },
		{ "level = 10; layout = \"f2\";", 4, 2 },
		{ "level = 10; layout = \"o2\";", 4, 2 },
		{ "level = 10; layout = \"n3\";", 6, 2 },
		{ "level = 10; layout = \"n2\";", 3, 0 },
		{ "level = 1;", 2, 0 },
	};

	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		char text[512];
		struct errlist errs;
		struct lab *lab = NULL;
		struct geom g;

		snprintf(text, sizeof text,
		    PRE "{ name = \"x\"; array = { %s devices = "
			"[\"/dev/a\"]; }; }" POST,
		    t[i].lab);
		errlist_init(&errs);
		cr_assert_eq(lab_load_string(text, "lab.cfg", &lab, &errs), 0);
		geom_of(&lab->variants[0].array, t[i].n, &g);
		cr_expect_eq(g.data_disks, t[i].data, "%s over %u: %u",
		    t[i].lab, t[i].n, g.data_disks);
		lab_free(lab);
		errlist_done(&errs);
	}
}

/* Nested legs: alike legs give one leg's stripe; legs that differ in
   level, chunk or width give none, and lab_legs_differ says which. */
Test(geom, nested_legs_alike_or_not)
{
	static const struct {
		const char *leg0, *leg1;
		bool striped;
		unsigned data;
		const char *differ; /* L level, C chunk, D devices */
	} t[] = {
		{ "level = 0; chunk = \"64K\"; devices = [\"/dev/a\", "
		  "\"/dev/b\"];",
		    "level = 0; chunk = \"64K\"; devices = [\"/dev/c\", "
		    "\"/dev/d\"];",
		    true, 2, "" },
		{ "level = 0; chunk = \"64K\"; devices = [\"/dev/a\", "
		  "\"/dev/b\"];",
		    "level = 0; chunk = \"256K\"; devices = [\"/dev/c\", "
		    "\"/dev/d\"];",
		    false, 0, "C" },
		{ "level = 0; devices = [\"/dev/a\", \"/dev/b\"];",
		    "level = 0; devices = [\"/dev/c\", \"/dev/d\", "
		    "\"/dev/e\"];",
		    false, 0, "D" },
		{ "level = 0; devices = [\"/dev/a\", \"/dev/b\"];",
		    "level = 5; devices = [\"/dev/c\", \"/dev/d\"];", false, 0,
		    "L" },
	};

	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		char text[1024], differ[4] = "";
		struct errlist errs;
		struct lab *lab = NULL;
		const struct lab_array *a;
		struct geom g;
		bool striped;

		snprintf(text, sizeof text,
		    PRE "{ name = \"x\"; array = { level = 1; legs = ( { %s }, "
			"{ %s } ); }; }" POST,
		    t[i].leg0, t[i].leg1);
		errlist_init(&errs);
		cr_assert_eq(lab_load_string(text, "lab.cfg", &lab, &errs), 0);
		a = &lab->variants[0].array;
		striped = geom_of(a, 2, &g);
		cr_expect_eq(striped, t[i].striped, "case %zu: %s", i, g.rule);
		cr_expect_eq(g.data_disks, t[i].data, "case %zu", i);
		if (!t[i].striped)
			cr_expect(strstr(g.rule, "legs differ") != NULL,
			    "case %zu: %s", i, g.rule);
		if (lab_legs_differ(a, LAB_A_LEVEL))
			strcat(differ, "L");
		if (lab_legs_differ(a, LAB_A_CHUNK))
			strcat(differ, "C");
		if (lab_legs_differ(a, LAB_A_DEVICES))
			strcat(differ, "D");
		cr_expect_str_eq(differ, t[i].differ, "case %zu", i);
		lab_free(lab);
		errlist_done(&errs);
	}
}

Test(plan, md_names_fit_and_stay_distinct)
{
	char *a = plan_md_name("a-rather-long-variant-name-one", "-leg1");
	char *b = plan_md_name("a-rather-long-variant-name-two", "-leg1");
	char *c = plan_md_name("short", "");

	cr_expect_str_eq(c, "/dev/md/rl-short");
	cr_expect_leq(strlen(a) - strlen("/dev/md/"), 24);
	cr_expect_str_neq(a, b);
	cr_expect(strstr(a, "-leg1") != NULL);
	free(a);
	free(b);
	free(c);
}
