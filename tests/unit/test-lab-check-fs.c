/*
 * lab_check() rules for a variant's filesystem (lab-check-fs), as a user
 * meets them: the engine that builds its own, data= modes, external
 * journals and logs, stripe geometry and mount options. Each case must be
 * refused with exactly its one message (see test-lab-check.c). Part of
 * the test-lab-check program (unit-lab-check.h).
 */
#include "config.h"

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "unit-lab-check.h"

/* Variants, between PRE and POST. */
static const struct bad_case bad_fs[] = {
	{ "btrfs_engine_with_ext4",
	    "{ name = \"b\";\n"
	    "  array = { engine = \"btrfs\"; level = \"raid1\";\n"
	    "    devices = [\"/dev/sdb\", \"/dev/sdc\"]; };\n"
	    "  fs = { type = \"ext4\"; }; }",
	    "lab.cfg:7: variants.b.fs.type: engine btrfs (line 5) builds the "
	    "filesystem itself: fs.type must be btrfs, not ext4" },
	{ "xfs_with_data_journal",
	    "{ name = \"x\";\n"
	    "  array = { level = 1; devices = [\"/dev/sdb\", \"/dev/sdc\"]; "
	    "};\n"
	    "  fs = { type = \"xfs\";\n"
	    "    data = \"journal\"; }; }",
	    "lab.cfg:7: variants.x.fs.data: xfs has no data= mode: "
	    "data=journal "
	    "is an ext3/ext4 journaling mode (xfs journals metadata only)" },
	{ "ext2_with_data_mode",
	    "{ name = \"e\";\n"
	    "  array = { level = 1; devices = [\"/dev/sdb\", \"/dev/sdc\"]; "
	    "};\n"
	    "  fs = { type = \"ext2\"; data = \"writeback\"; }; }",
	    "lab.cfg:6: variants.e.fs.data: ext2 has no journal: data= modes "
	    "need ext3 or ext4" },
	{ "ext2_with_external_journal",
	    "{ name = \"e\";\n"
	    "  array = { level = 1; devices = [\"/dev/sdb\", \"/dev/sdc\"]; "
	    "};\n"
	    "  fs = { type = \"ext2\";\n"
	    "    journal = { device = \"/dev/sdd\"; }; }; }",
	    "lab.cfg:7: variants.e.fs.journal: ext2 has no journal: an "
	    "external journal needs ext3 or ext4" },
	{ "xfs_log_under_64m",
	    "{ name = \"x\";\n"
	    "  array = { level = 1; devices = [\"/dev/sdb\", \"/dev/sdc\"]; "
	    "};\n"
	    "  fs = { type = \"xfs\";\n"
	    "    journal = { device = \"/dev/sdd\"; size = \"32M\"; }; }; }",
	    "lab.cfg:7: variants.x.fs.journal.size: xfs refuses a log smaller "
	    "than 64M (xfsprogs 6.1), got 32M" },
	{ "stride_on_xfs",
	    "{ name = \"x\";\n"
	    "  array = { level = 1; devices = [\"/dev/sdb\", \"/dev/sdc\"]; "
	    "};\n"
	    "  fs = { type = \"xfs\";\n"
	    "    geometry = { stride = 16; stripe_width = 32; }; }; }",
	    "lab.cfg:7: variants.x.fs.geometry.stride: stride and stripe_width "
	    "are ext2/3/4 options (mke2fs -E); xfs takes su and sw" },
	{ "su_on_ext4",
	    "{ name = \"e\";\n"
	    "  array = { level = 1; devices = [\"/dev/sdb\", \"/dev/sdc\"]; "
	    "};\n"
	    "  fs = { type = \"ext4\";\n"
	    "    geometry = { su = \"64K\"; sw = 2; }; }; }",
	    "lab.cfg:7: variants.e.fs.geometry.su: su and sw are xfs options "
	    "(mkfs.xfs -d); ext4 takes stride and stripe_width" },
	{ "stripe_width_not_a_multiple_of_stride",
	    "{ name = \"e\";\n"
	    "  array = { level = 0; devices = [\"/dev/sdb\", \"/dev/sdc\"]; "
	    "};\n"
	    "  fs = { type = \"ext4\";\n"
	    "    geometry = { stride = 16; stripe_width = 40; }; }; }",
	    "lab.cfg:7: variants.e.fs.geometry.stripe_width: stripe_width 40 "
	    "is not a multiple of stride 16: a stripe is a whole number of "
	    "chunks" },
	{ "xfs_su_not_a_multiple_of_the_block",
	    "{ name = \"x\";\n"
	    "  array = { level = 0; devices = [\"/dev/sdb\", \"/dev/sdc\"]; "
	    "};\n"
	    "  fs = { type = \"xfs\";\n"
	    "    geometry = { su = \"6K\"; sw = 2; }; }; }",
	    "lab.cfg:7: variants.x.fs.geometry.su: su 6K is not a multiple of "
	    "the 4K filesystem block, which mkfs.xfs requires" },
	{ "logdev_in_mount_options_with_external_log",
	    "{ name = \"x\";\n"
	    "  array = { level = 1; devices = [\"/dev/sdb\", \"/dev/sdc\"]; "
	    "};\n"
	    "  fs = { type = \"xfs\"; journal = { device = \"/dev/sdd\"; };\n"
	    "    mount_options = \"noatime,logdev=/dev/sdd\"; }; }",
	    "lab.cfg:7: variants.x.fs.mount_options: logdev= is added by "
	    "raidlab from fs.journal (line 6): remove it from mount_options" },
	{ "data_in_mount_options_and_data_key",
	    "{ name = \"e\";\n"
	    "  array = { level = 1; devices = [\"/dev/sdb\", \"/dev/sdc\"]; "
	    "};\n"
	    "  fs = { type = \"ext3\"; data = \"journal\";\n"
	    "    mount_options = \"data=ordered\"; }; }",
	    "lab.cfg:7: variants.e.fs.mount_options: data= here contradicts "
	    "fs.data (line 6): give the mode once, as fs.data" },
};

ParameterizedTestParameters(lab_check, reports_each_impossible_fs)
{
	return bad_cases(bad_fs, sizeof bad_fs / sizeof bad_fs[0], NULL, 0);
}

ParameterizedTest(struct lab_case *c, lab_check, reports_each_impossible_fs)
{
	expect_one_message(c);
}
