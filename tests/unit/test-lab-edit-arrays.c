/*
 * The arrays inside a variant, in the editor (lab-edit-array,
 * lab-edit-legs). The engine carries the level (btrfs makes the fs
 * btrfs, and leaving gives the fs type back), RAID1 forgets layout and
 * chunk, every array setter survives save and load, a write journal and
 * a bitmap exclude each other, bad values name their field. Nesting:
 * RAID0+1 from a RAID1 of four scratch disks splits them in order over
 * two RAID0 legs, what seed 002 compares; RAID1+0 from a RAID0; the legs'
 * level and chunk; the picker's member list split again; going back
 * hands the devices to the array. A journal or log on an md RAID1 of its
 * own (seed 000's XFS log). Every step survives save and load, and
 * lab_check agrees. Part of the test-lab-edit program (unit-lab-edit.h).
 */
#include "config.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "lab/lab-edit.h"
#include "lab/lab.h"
#include "unit-lab-edit.h"

static const char lab_text[] =
    "name = \"legs\";\n"
    "variants = (\n"
    "  { name = \"m\"; scratch = { count = 4; size = \"1G\"; };\n"
    "    array = { level = \"1\"; }; },\n"
    "  { name = \"s\"; array = { level = \"0\"; chunk = \"64K\"; devices = "
    "[ \"/dev/vdb\", \"/dev/vdc\", \"/dev/vdd\", \"/dev/vde\", "
    "\"/dev/vdf\" ]; }; },\n"
    "  { name = \"b\"; scratch = { count = 2; size = \"1G\"; };\n"
    "    array = { engine = \"btrfs\"; level = \"raid1\"; }; }\n"
    ");\n"
    "workloads = ( { type = \"smallfiles\"; } );\n";

static char *
devs(const struct lab_array *a)
{
	char *out = calloc(1, 256);

	for (size_t i = 0; i < a->devices.n; i++) {
		strcat(out, i ? " " : "");
		strcat(out, a->devices.v[i]);
	}
	return out;
}

static void
expect_leg(const struct lab_array *leg, const char *level, const char *members)
{
	char *d = devs(leg);

	cr_expect_str_eq(leg->level_text, level);
	cr_expect_str_eq(d, members);
	free(d);
}

static void
expect_clean(const struct lab *lab, const char *variant)
{
	char *m = check_msgs(lab, variant);

	cr_expect_str_empty(m, "%s: lab_check says:\n%s", variant, m);
	free(m);
}

Test(lab_edit, raid1_of_four_scratch_disks_becomes_raid01)
{
	struct lab *lab = load(lab_text), *back;
	const struct lab_array *a = &lab->variants[0].array;
	struct err e;

	err_clear(&e);
	cr_assert_eq(lab_edit_legs(lab, 0, 2, &e), 0, "%s", e.msg);
	cr_assert_eq(a->nlegs, 2);
	cr_expect_eq(a->md_level, LAB_MD_LEVEL_1);
	expect_leg(&a->legs[0], "0", "scratch:0 scratch:1");
	expect_leg(&a->legs[1], "0", "scratch:2 scratch:3");
	cr_expect_eq(a->devices.n, 0);
	cr_expect(a_own(&lab->variants[0], LAB_A_LEGS));
	cr_expect_str_eq(a->legs[1].where, "array.legs[1]");
	expect_clean(lab, "variants.m");

	cr_assert_eq(lab_edit_leg_chunk(lab, 0, 256 * 1024), 0);
	cr_expect_eq(a->legs[0].chunk, 256 * 1024);
	cr_expect_eq(a->legs[1].chunk, 256 * 1024);
	back = roundtrip(lab);
	cr_expect_eq(back->variants[0].array.nlegs, 2);
	cr_expect_eq(back->variants[0].array.legs[1].chunk, 256 * 1024);
	lab_free(back);
	lab_free(lab);
}

Test(lab_edit, raid0_nests_as_raid10_and_keeps_its_chunk_for_the_legs)
{
	struct lab *lab = load(lab_text), *back;
	const struct lab_array *a = &lab->variants[1].array;
	struct err e;

	err_clear(&e);
	cr_assert_eq(lab_edit_legs(lab, 1, 2, &e), 0, "%s", e.msg);
	cr_expect_eq(a->md_level, LAB_MD_LEVEL_0);
	/* Five devices over two legs: the first takes the odd one. */
	expect_leg(&a->legs[0], "1", "/dev/vdb /dev/vdc /dev/vdd");
	expect_leg(&a->legs[1], "1", "/dev/vde /dev/vdf");
	cr_expect_eq(a->legs[0].chunk, 0, "a RAID1 leg has no chunk");
	/* Mirrors of 3 and 2 disks hold the same: no complaint; a RAID0 of
	   them stripes. */
	expect_clean(lab, "variants.s");
	back = roundtrip(lab);
	lab_free(back);
	lab_free(lab);
}

Test(lab_edit, leg_level_count_and_members_split_again)
{
	struct lab *lab = load(lab_text);
	const struct lab_array *a = &lab->variants[0].array;
	const char *six[] = { "scratch:0", "scratch:1", "scratch:2",
		"scratch:3", "/dev/vdx", "/dev/vdy" };
	struct err e;
	char *m;

	err_clear(&e);
	cr_assert_eq(lab_edit_legs(lab, 0, 2, &e), 0);
	cr_assert_eq(lab_edit_leg_level(lab, 0, LAB_MD_LEVEL_5), 0);
	expect_leg(&a->legs[1], "5", "scratch:2 scratch:3");
	/* A RAID5 of two disks: lab_check names the leg. */
	m = check_msgs(lab, "variants.m.array.legs[0]");
	cr_expect(strstr(m, "RAID5 needs at least 3") != NULL, "%s", m);
	free(m);
	/* The picker's list (lab_edit_devices) is split over the legs. */
	cr_assert_eq(lab_edit_devices(lab, 0, LAB_A_DEVICES, six, 6, &e), 0,
	    "%s", e.msg);
	expect_leg(&a->legs[0], "5", "scratch:0 scratch:1 scratch:2");
	expect_leg(&a->legs[1], "5", "scratch:3 /dev/vdx /dev/vdy");
	cr_assert_eq(lab_edit_legs(lab, 0, 3, &e), 0);
	expect_leg(&a->legs[2], "5", "/dev/vdx /dev/vdy");
	cr_assert_eq(lab_edit_leg_level(lab, 0, LAB_MD_LEVEL_0), 0);
	expect_clean(lab, "variants.m");
	lab_free(lab);
}

Test(lab_edit, no_legs_hands_the_devices_back)
{
	struct lab *lab = load(lab_text), *back;
	const struct lab_array *a = &lab->variants[0].array;
	char *d;
	struct err e;

	err_clear(&e);
	cr_assert_eq(lab_edit_legs(lab, 0, 2, &e), 0);
	cr_assert_eq(lab_edit_legs(lab, 0, 0, &e), 0);
	cr_expect_eq(a->nlegs, 0);
	d = devs(a);
	cr_expect_str_eq(d, "scratch:0 scratch:1 scratch:2 scratch:3");
	free(d);
	/* Reset (Del in the form) does the same; so does a level that has
	   no legs. */
	cr_assert_eq(lab_edit_legs(lab, 0, 2, &e), 0);
	cr_assert_eq(lab_edit_array_reset(lab, 0, LAB_A_LEGS), 0);
	cr_expect_eq(a->devices.n, 4);
	cr_assert_eq(lab_edit_legs(lab, 0, 2, &e), 0);
	cr_assert_eq(lab_edit_md_level(lab, 0, LAB_MD_LEVEL_5), 0);
	cr_expect_eq(a->nlegs, 0);
	cr_expect_eq(a->devices.n, 4);
	expect_clean(lab, "variants.m");
	back = roundtrip(lab);
	lab_free(back);
	lab_free(lab);
}

Test(lab_edit, legs_are_refused_with_the_reason)
{
	struct lab *lab = load(lab_text);
	struct err e;

	err_clear(&e);
	cr_expect_eq(lab_edit_legs(lab, 2, 2, &e), -EINVAL);
	cr_expect(strstr(e.msg, "engine btrfs cannot have legs") != NULL, "%s",
	    e.msg);
	err_clear(&e);
	cr_expect_eq(lab_edit_legs(lab, 0, 1, &e), -EINVAL);
	cr_expect(strstr(e.msg, "at least 2 legs") != NULL, "%s", e.msg);
	err_clear(&e);
	cr_expect_eq(lab_edit_legs(lab, 0, 5, &e), -EINVAL);
	cr_expect(strstr(e.msg,
		      "5 legs need at least 5 devices, the variant "
		      "has 4") != NULL,
	    "%s", e.msg);
	cr_expect_str_eq(e.field, "variants.m.array.legs");
	cr_expect_eq(lab->variants[0].array.nlegs, 0, "nothing changed");
	lab_free(lab);
}

Test(lab_edit, xfs_log_on_an_md_raid1_of_its_own)
{
	struct lab *lab = load(lab_text), *back;
	const struct lab_variant *v = &lab->variants[0];
	const char *log[] = { "scratch:4", "scratch:5" };
	const struct lab_array *ja;
	struct err e;
	char *d;

	err_clear(&e);
	cr_assert_eq(lab_edit_scratch_count(lab, 0, 6, &e), 0);
	cr_assert_eq(lab_edit_fs_type(lab, 0, LAB_FS_XFS), 0);
	cr_assert_eq(lab_edit_journal_size(lab, 0, 64 << 20), 0);
	cr_assert_eq(lab_edit_journal_array(lab, 0, LAB_MD_LEVEL_1, log, 2, &e),
	    0, "%s", e.msg);
	ja = v->fs.journal_array;
	cr_assert_not_null(ja);
	cr_expect_eq(v->fs.journal, LAB_JOURNAL_ARRAY);
	cr_expect_eq(ja->md_level, LAB_MD_LEVEL_1);
	cr_expect_eq(v->fs.journal_size, 64 << 20, "the size is kept");
	d = devs(ja);
	cr_expect_str_eq(d, "scratch:4 scratch:5");
	free(d);
	/* The log's disks are no members: the array takes the other four. */
	cr_assert_eq(lab_edit_legs(lab, 0, 2, &e), 0, "%s", e.msg);
	expect_leg(&v->array.legs[1], "0", "scratch:2 scratch:3");
	expect_clean(lab, "variants.m");
	back = roundtrip(lab);
	cr_expect_eq(back->variants[0].fs.journal, LAB_JOURNAL_ARRAY);
	cr_expect_str_eq(back->variants[0].fs.journal_array->where,
	    "fs.journal.array");
	lab_free(back);
	/* Another level over the array's own devices (the form's level
	   choice does this; ASan sees a use of the freed list). */
	ja = v->fs.journal_array;
	cr_assert_eq(lab_edit_journal_array(lab, 0, LAB_MD_LEVEL_0,
			 (const char *const *)ja->devices.v, ja->devices.n, &e),
	    0);
	d = devs(v->fs.journal_array);
	cr_expect_str_eq(d, "scratch:4 scratch:5");
	free(d);
	cr_expect_eq(v->fs.journal_array->md_level, LAB_MD_LEVEL_0);
	/* A device journal replaces the array; an empty list is refused. */
	err_clear(&e);
	cr_expect_eq(lab_edit_journal_array(lab, 0, LAB_MD_LEVEL_1, log, 0, &e),
	    -EINVAL);
	cr_expect_str_eq(e.field, "variants.m.fs.journal.array");
	cr_assert_eq(lab_edit_fs_journal(lab, 0, LAB_JOURNAL_DEVICE,
			 "scratch:5", &e),
	    0);
	cr_expect_null(v->fs.journal_array);
	lab_free(lab);
}

/* The Disks screen's m and s: implicit scratch members become a list, a
   member toggled out and in again, a spare taken from the members and
   back, a nested array split again; refusals name the reason. */
Test(lab_edit, toggle_members_and_spares_from_the_disks_screen)
{
	struct lab *lab = load(lab_text), *back;
	const struct lab_array *a = &lab->variants[0].array;
	bool now = false;
	char *d;
	struct err e;

	err_clear(&e);
	cr_assert_eq(lab_edit_toggle_device(lab, 0, "/dev/vdx", LAB_A_DEVICES,
			 &now, &e),
	    0, "%s", e.msg);
	cr_expect(now);
	d = devs(a);
	cr_expect_str_eq(d, "scratch:0 scratch:1 scratch:2 scratch:3 /dev/vdx");
	free(d);
	cr_assert_eq(lab_edit_toggle_device(lab, 0, "scratch:3", LAB_A_SPARES,
			 &now, &e),
	    0, "%s", e.msg);
	cr_expect(now);
	d = devs(a);
	cr_expect_str_eq(d, "scratch:0 scratch:1 scratch:2 /dev/vdx");
	free(d);
	cr_expect_eq(a->spares.n, 1);
	cr_expect_str_eq(a->spares.v[0], "scratch:3");
	cr_assert_eq(lab_edit_toggle_device(lab, 0, "scratch:3", LAB_A_DEVICES,
			 &now, &e),
	    0, "%s", e.msg);
	cr_expect(now);
	cr_expect_eq(a->spares.n, 0);
	cr_assert_eq(lab_edit_toggle_device(lab, 0, "/dev/vdx", LAB_A_DEVICES,
			 &now, &e),
	    0, "%s", e.msg);
	cr_expect_not(now);
	d = devs(a);
	cr_expect_str_eq(d, "scratch:0 scratch:1 scratch:2 scratch:3");
	free(d);
	back = roundtrip(lab);
	cr_expect_eq(back->variants[0].array.devices.n, 4);
	lab_free(back);

	/* Nested: a member more is split over the legs again. */
	cr_assert_eq(lab_edit_legs(lab, 0, 2, &e), 0, "%s", e.msg);
	cr_assert_eq(lab_edit_toggle_device(lab, 0, "/dev/vdy", LAB_A_DEVICES,
			 &now, &e),
	    0, "%s", e.msg);
	expect_leg(&a->legs[0], "0", "scratch:0 scratch:1 scratch:2");
	expect_leg(&a->legs[1], "0", "scratch:3 /dev/vdy");

	/* btrfs takes no spares; a directory variant no devices. */
	err_clear(&e);
	cr_expect_eq(lab_edit_toggle_device(lab, 2, "/dev/vdz", LAB_A_SPARES,
			 &now, &e),
	    -EINVAL);
	cr_expect(strstr(e.msg, "takes no spares") != NULL, "%s", e.msg);
	cr_expect_str_eq(e.field, "variants.b.array.spares");
	lab_free(lab);
}

Test(lab_edit, toggle_refuses_the_journal_and_directories)
{
	struct lab *lab =
	    load("name = \"j\";\n"
		 "variants = (\n"
		 "  { name = \"x\"; array = { level = \"5\"; "
		 "journal = \"/dev/vdj\"; devices = [ \"/dev/vdb\", "
		 "\"/dev/vdc\", \"/dev/vdd\" ]; }; },\n"
		 "  { name = \"d\"; directory = \"/tmp\"; }\n"
		 ");\n"
		 "workloads = ( { type = \"smallfiles\"; } );\n");
	bool now;
	struct err e;

	err_clear(&e);
	cr_expect_eq(lab_edit_toggle_device(lab, 0, "/dev/vdj", LAB_A_DEVICES,
			 &now, &e),
	    -EINVAL);
	cr_expect(strstr(e.msg, "journal or log device of x") != NULL, "%s",
	    e.msg);
	cr_expect_eq(lab->variants[0].array.devices.n, 3);
	err_clear(&e);
	cr_expect_eq(lab_edit_toggle_device(lab, 1, "/dev/vdb", LAB_A_DEVICES,
			 &now, &e),
	    -EINVAL);
	cr_expect(strstr(e.msg, "is a directory") != NULL, "%s", e.msg);
	lab_free(lab);
}

/* ---------------------------------------------------------------- array */

Test(lab_edit, engine_btrfs_carries_the_level_and_makes_fs_btrfs)
{
	struct lab *lab = load(base_lab), *back;
	const struct lab_variant *v;

	cr_assert_eq(lab_edit_engine(lab, R10, LAB_ENGINE_BTRFS), 0);
	v = &lab->variants[R10];
	cr_assert_str_eq(v->array.level_text, "raid10");
	cr_assert_eq(v->array.profile, LAB_PROFILE_RAID10);
	cr_assert_eq(v->fs.type, LAB_FS_BTRFS);
	/* md's layout and the inherited chunk mean nothing to btrfs. */
	cr_assert_null(v->array.layout);
	cr_assert(!a_own(v, LAB_A_LAYOUT));
	cr_assert(!lab_edit_array_applies(&v->array, LAB_A_CHUNK));
	/* data= is ext3/ext4's: forgotten with the fs now btrfs. */
	cr_assert(!f_own(v, LAB_F_DATA));
	back = roundtrip(lab);
	cr_assert_eq(back->variants[R10].array.engine, LAB_ENGINE_BTRFS);
	cr_assert_eq(back->variants[R10].array.profile, LAB_PROFILE_RAID10);
	lab_free(back);
	/* And back: raid10 is md level 10 again. */
	cr_assert_eq(lab_edit_engine(lab, R10, LAB_ENGINE_MD), 0);
	cr_assert_str_eq(lab->variants[R10].array.level_text, "10");
	cr_assert_eq(lab->variants[R10].array.md_level, LAB_MD_LEVEL_10);
	back = roundtrip(lab);
	lab_free(back);
	lab_free(lab);
}

/* Engine btrfs makes the fs btrfs; leaving it gives the old type back. */
Test(lab_edit, leaving_engine_btrfs_gives_the_fs_type_back)
{
	struct lab *lab = load(base_lab), *back;
	const struct lab_variant *v = &lab->variants[R10];

	/* inherited ext4 (the defaults'): inherited again, not written */
	cr_assert_eq(lab_edit_engine(lab, R10, LAB_ENGINE_BTRFS), 0);
	cr_assert_eq(v->fs.type, LAB_FS_BTRFS);
	cr_assert_eq(lab_edit_engine(lab, R10, LAB_ENGINE_MD), 0);
	cr_assert_eq(v->fs.type, LAB_FS_EXT4);
	cr_assert(!f_own(v, LAB_F_TYPE));
	back = roundtrip(lab);
	cr_assert(!f_own(&back->variants[R10], LAB_F_TYPE));
	cr_assert_eq(back->variants[R10].fs.type, LAB_FS_EXT4);
	lab_free(back);

	/* its own xfs: xfs again, through single too */
	cr_assert_eq(lab_edit_fs_type(lab, R5, LAB_FS_XFS), 0);
	cr_assert_eq(lab_edit_engine(lab, R5, LAB_ENGINE_BTRFS), 0);
	cr_assert_eq(lab->variants[R5].fs.type, LAB_FS_BTRFS);
	cr_assert_eq(lab_edit_engine(lab, R5, LAB_ENGINE_SINGLE), 0);
	cr_assert_eq(lab->variants[R5].fs.type, LAB_FS_XFS);
	cr_assert(f_own(&lab->variants[R5], LAB_F_TYPE));

	/* a type chosen while on btrfs is kept */
	cr_assert_eq(lab_edit_engine(lab, R5, LAB_ENGINE_BTRFS), 0);
	cr_assert_eq(lab_edit_fs_type(lab, R5, LAB_FS_BTRFS), 0);
	cr_assert_eq(lab_edit_engine(lab, R5, LAB_ENGINE_MD), 0);
	cr_assert_eq(lab->variants[R5].fs.type, LAB_FS_BTRFS);
	back = roundtrip(lab);
	cr_assert_eq(back->variants[R5].fs.type, LAB_FS_BTRFS);
	lab_free(back);
	lab_free(lab);
}

Test(lab_edit, inherited_level_is_translated_for_btrfs)
{
	struct lab *lab = load(base_lab), *back;

	/* r5 inherits level "5" from defaults: not a btrfs profile. */
	cr_assert_eq(lab_edit_engine(lab, R5, LAB_ENGINE_BTRFS), 0);
	cr_assert_str_eq(lab->variants[R5].array.level_text, "raid5");
	cr_assert(a_own(&lab->variants[R5], LAB_A_LEVEL));
	back = roundtrip(lab);
	lab_free(back);
	lab_free(lab);
}

Test(lab_edit, raid1_forgets_layout_and_chunk)
{
	struct lab *lab = load(base_lab), *back;
	const struct lab_variant *v = &lab->variants[R10];

	cr_assert_eq(lab_edit_chunk(lab, R10, 64 * 1024), 0);
	cr_assert(a_own(v, LAB_A_CHUNK));
	cr_assert_eq(lab_edit_md_level(lab, R10, LAB_MD_LEVEL_1), 0);
	cr_assert_eq(v->array.md_level, LAB_MD_LEVEL_1);
	cr_assert(!a_own(v, LAB_A_LAYOUT));
	cr_assert(!a_own(v, LAB_A_CHUNK));
	cr_assert(!lab_edit_array_applies(&v->array, LAB_A_LAYOUT));
	cr_assert(
	    lab_edit_array_applies(&lab->variants[R5].array, LAB_A_LAYOUT));
	back = roundtrip(lab);
	cr_assert_eq(back->variants[R10].array.md_level, LAB_MD_LEVEL_1);
	lab_free(back);
	lab_free(lab);
}

Test(lab_edit, array_setters_round_trip)
{
	struct lab *lab = load(base_lab), *back;
	const char *devs[] = { "scratch:0", "scratch:1", "scratch:2" };
	const char *spare[] = { "scratch:3" };
	const struct lab_array *a;

	cr_assert_eq(lab_edit_layout(lab, R5, "left-asymmetric", NULL), 0);
	cr_assert_eq(lab_edit_chunk(lab, R5, 256 * 1024), 0);
	cr_assert_eq(lab_edit_devices(lab, R5, LAB_A_DEVICES, devs, 3, NULL),
	    0);
	cr_assert_eq(lab_edit_devices(lab, R5, LAB_A_SPARES, spare, 1, NULL),
	    0);
	cr_assert_eq(lab_edit_array_value(lab, R5, LAB_A_METADATA,
			 LAB_MD_METADATA_1_0, NULL),
	    0);
	cr_assert_eq(lab_edit_bitmap(lab, R5, LAB_BITMAP_FILE, "/var/bm", NULL),
	    0);
	cr_assert_eq(lab_edit_bitmap_chunk(lab, R5, 64 << 20), 0);
	cr_assert_eq(lab_edit_array_value(lab, R5, LAB_A_ASSUME_CLEAN, 1, NULL),
	    0);
	back = roundtrip(lab);
	a = &back->variants[R5].array;
	cr_assert_str_eq(a->layout, "left-asymmetric");
	cr_assert_eq(a->chunk, 256 * 1024);
	cr_assert_eq(a->devices.n, 3);
	cr_assert_str_eq(a->spares.v[0], "scratch:3");
	cr_assert_eq(a->metadata, LAB_MD_METADATA_1_0);
	cr_assert_eq(a->bitmap, LAB_BITMAP_FILE);
	cr_assert_str_eq(a->bitmap_file, "/var/bm");
	cr_assert_eq(a->bitmap_chunk, 64 << 20);
	cr_assert(a->assume_clean);
	lab_free(back);
	/* The btrfs metadata profile. */
	cr_assert_eq(lab_edit_array_value(lab, BT, LAB_A_METADATA_PROFILE,
			 LAB_PROFILE_RAID1C3, NULL),
	    0);
	cr_assert_eq(lab_edit_profile(lab, BT, LAB_PROFILE_RAID10), 0);
	back = roundtrip(lab);
	cr_assert_eq(back->variants[BT].array.metadata_profile,
	    LAB_PROFILE_RAID1C3);
	cr_assert_eq(back->variants[BT].array.profile, LAB_PROFILE_RAID10);
	lab_free(back);
	lab_free(lab);
}

Test(lab_edit, write_journal_and_bitmap_exclude_each_other)
{
	struct lab *lab = load(base_lab), *back;
	const struct lab_array *a = &lab->variants[R5].array;

	cr_assert_eq(lab_edit_bitmap(lab, R5, LAB_BITMAP_INTERNAL, NULL, NULL),
	    0);
	cr_assert_eq(lab_edit_md_journal(lab, R5, "scratch:3", NULL), 0);
	cr_assert_eq(a->bitmap, LAB_BITMAP_NONE);
	cr_assert(!lab_edit_array_applies(a, LAB_A_BITMAP));
	cr_assert(lab_edit_array_applies(a, LAB_A_JOURNAL));
	back = roundtrip(lab);
	cr_assert_str_eq(back->variants[R5].array.journal, "scratch:3");
	lab_free(back);
	cr_assert_eq(lab_edit_bitmap(lab, R5, LAB_BITMAP_INTERNAL, NULL, NULL),
	    0);
	cr_assert_null(a->journal);
	cr_assert(!lab_edit_array_applies(a, LAB_A_JOURNAL));
	back = roundtrip(lab);
	lab_free(back);
	lab_free(lab);
}

Test(lab_edit, bad_values_are_refused_with_their_field)
{
	struct lab *lab = load(base_lab);
	const char *bad[] = { "sdb" };
	struct err e;

	err_clear(&e);
	cr_assert_eq(lab_edit_devices(lab, R5, LAB_A_DEVICES, bad, 1, &e),
	    -EINVAL);
	cr_assert_str_eq(e.field, "variants.r5.array.devices");
	cr_assert(strstr(e.msg, "'sdb' is neither a device path") != NULL, "%s",
	    e.msg);
	err_clear(&e);
	cr_assert_eq(lab_edit_bitmap(lab, R5, LAB_BITMAP_FILE, "bm", &e),
	    -EINVAL);
	cr_assert_str_eq(e.field, "variants.r5.array.bitmap.file");
	err_clear(&e);
	cr_assert_eq(lab_edit_scratch_count(lab, R5, 65, &e), -EINVAL);
	cr_assert_str_eq(e.field, "variants.r5.scratch.count");
	cr_assert_eq(lab_edit_md_level(lab, 99, LAB_MD_LEVEL_1), -ERANGE);
	/* Nothing changed. */
	cr_assert_eq(lab->variants[R5].array.devices.n, 0);
	lab_free(lab);
}
