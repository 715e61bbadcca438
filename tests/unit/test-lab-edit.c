/*
 * Editing a lab (lab-edit.h), the model side of the interactive lab's
 * forms: every setter's value survives lab_format -> lab_load_string
 * (lab_equal), set fields become the entry's own and "reset" hands them
 * back to the defaults group, choices forget the keys they make
 * meaningless, lab_check sees each change, and the variant and workload
 * lists can be added to, cloned, renamed, reordered and cut.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "lab-edit.h"
#include "lab.h"
#include "param.h"
#include "unit-lab-edit.h"
#include "unit.h"
#include "workload.h"
#include "xalloc.h"

/* A lab with a defaults group, an md variant, a btrfs one, a directory. */
static const char base_lab[] =
    "name = \"edit\";\n"
    "defaults = {\n"
    "  scratch = { count = 4; size = \"1G\"; };\n"
    "  array = { level = \"5\"; chunk = \"128K\"; };\n"
    "  fs = { type = \"ext4\"; mount_options = \"noatime\"; };\n"
    "  readahead = \"256K\";\n"
    "};\n"
    "variants = (\n"
    "  { name = \"r5\"; array = { engine = \"md\"; }; },\n"
    "  { name = \"r10\"; array = { level = \"10\"; layout = \"f2\"; };\n"
    "    fs = { data = \"writeback\"; }; },\n"
    "  { name = \"bt\"; array = { engine = \"btrfs\"; level = \"raid1\"; };\n"
    "    fs = { type = \"btrfs\"; }; },\n"
    "  { name = \"dir\"; directory = \"/var/tmp/x\"; }\n"
    ");\n"
    "workloads = (\n"
    "  { name = \"small\"; type = \"smallfiles\"; count = 100; }\n"
    ");\n";

#define R5 0
#define R10 1
#define BT 2
#define DIR 3

static char *
errs_text(const struct errlist *errs)
{
	char buf[ERR_FILE_MAX + ERR_FIELD_MAX + ERR_MSG_MAX], *out, *t;

	out = xstrdup("");
	for (size_t i = 0; i < errs->n; i++) {
		t = xasprintf("%s%s\n", out,
		    err_format(&errs->v[i], buf, sizeof buf));
		free(out);
		out = t;
	}
	return out;
}

struct lab *
load(const char *text)
{
	struct errlist errs;
	struct lab *lab = NULL;
	char *msgs;
	int rc;

	errlist_init(&errs);
	rc = lab_load_string(text, "edit.lab", &lab, &errs);
	msgs = errs_text(&errs);
	cr_assert_eq(rc, 0, "does not load:\n%s\n--- text:\n%s", msgs, text);
	free(msgs);
	errlist_done(&errs);
	return lab;
}

/* Save and load again: the same lab comes back. The copy is returned. */
struct lab *
roundtrip(const struct lab *lab)
{
	char *text = lab_format(lab);
	struct lab *back = load(text);

	cr_assert(lab_equal(lab, back),
	    "the lab changed through save and load:\n%s", text);
	free(text);
	return back;
}

/* The messages lab_check has for the field path or inside it, joined;
   caller frees. */
char *
check_msgs(const struct lab *lab, const char *field)
{
	struct errlist errs;
	char *out = xstrdup(""), *t;

	errlist_init(&errs);
	lab_check(lab, &errs);
	for (size_t i = 0; i < errs.n; i++) {
		size_t k = strlen(field);

		if (strncmp(errs.v[i].field, field, k) != 0 ||
		    (errs.v[i].field[k] != '\0' && errs.v[i].field[k] != '.'))
			continue;
		t = xasprintf("%s%s\n", out, errs.v[i].msg);
		free(out);
		out = t;
	}
	errlist_done(&errs);
	return out;
}

bool
a_own(const struct lab_variant *v, enum lab_a_field f)
{
	return lab_array_isset(&v->array, f) &&
	    !lab_array_inherited(&v->array, f);
}

static bool
f_own(const struct lab_variant *v, enum lab_f_field f)
{
	return lab_fs_isset(&v->fs, f) && !lab_fs_inherited(&v->fs, f);
}

/* ---------------------------------------------------------------- loads */

Test(lab_edit, base_lab_round_trips_untouched)
{
	struct lab *lab = load(base_lab);
	struct lab *back = roundtrip(lab);

	lab_free(back);
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
	cr_assert_eq(lab_edit_md_metadata(lab, R5, LAB_MD_METADATA_1_0), 0);
	cr_assert_eq(lab_edit_bitmap(lab, R5, LAB_BITMAP_FILE, "/var/bm", NULL),
	    0);
	cr_assert_eq(lab_edit_bitmap_chunk(lab, R5, 64 << 20), 0);
	cr_assert_eq(lab_edit_assume_clean(lab, R5, true), 0);
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
	cr_assert_eq(lab_edit_metadata_profile(lab, BT, LAB_PROFILE_RAID1C3),
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

/* ---------------------------------------------------------------- defaults */

Test(lab_edit, set_owns_and_reset_inherits_again)
{
	struct lab *lab = load(base_lab), *back;
	struct lab_variant *v = &lab->variants[R5];

	cr_assert(lab_variant_inherited(v, LAB_V_READAHEAD));
	cr_assert_eq(lab_edit_readahead(lab, R5, 1 << 20), 0);
	cr_assert(!lab_variant_inherited(v, LAB_V_READAHEAD));
	cr_assert_eq(v->readahead, 1 << 20);
	back = roundtrip(lab);
	cr_assert_eq(back->variants[R5].readahead, 1 << 20);
	lab_free(back);
	cr_assert_eq(lab_edit_variant_reset(lab, R5, LAB_V_READAHEAD), 0);
	cr_assert(lab_variant_inherited(v, LAB_V_READAHEAD));
	cr_assert_eq(v->readahead, 256 * 1024);
	/* Array keys: chunk inherited, set, reset. */
	cr_assert(lab_array_inherited(&v->array, LAB_A_CHUNK));
	cr_assert_eq(lab_edit_chunk(lab, R5, 64 * 1024), 0);
	cr_assert(a_own(v, LAB_A_CHUNK));
	cr_assert_eq(lab_edit_array_reset(lab, R5, LAB_A_CHUNK), 0);
	cr_assert(lab_array_inherited(&v->array, LAB_A_CHUNK));
	cr_assert_eq(v->array.chunk, 128 * 1024);
	/* The level too: reset takes "5" from defaults again. */
	cr_assert_eq(lab_edit_md_level(lab, R5, LAB_MD_LEVEL_6), 0);
	cr_assert_eq(lab_edit_array_reset(lab, R5, LAB_A_LEVEL), 0);
	cr_assert_eq(v->array.md_level, LAB_MD_LEVEL_5);
	cr_assert(lab_array_inherited(&v->array, LAB_A_LEVEL));
	back = roundtrip(lab);
	lab_free(back);
	lab_free(lab);
}

Test(lab_edit, scratch_keys_own_the_group_and_reset_returns_it)
{
	struct lab *lab = load(base_lab), *back;
	struct lab_variant *v = &lab->variants[R5];

	cr_assert_eq(lab_edit_scratch_count(lab, R5, 6, NULL), 0);
	cr_assert_eq(lab_edit_scratch_size(lab, R5, 2ULL << 30), 0);
	cr_assert_eq(lab_edit_scratch_dir(lab, R5, "/srv/scratch", NULL), 0);
	back = roundtrip(lab);
	cr_assert_eq(back->variants[R5].scratch_count, 6);
	cr_assert_eq(back->variants[R5].scratch_size, 2ULL << 30);
	cr_assert_str_eq(back->variants[R5].scratch_dir, "/srv/scratch");
	lab_free(back);
	cr_assert_eq(lab_edit_variant_reset(lab, R5, LAB_V_SCRATCH_COUNT), 0);
	cr_assert_eq(lab_edit_variant_reset(lab, R5, LAB_V_SCRATCH_SIZE), 0);
	cr_assert_eq(lab_edit_variant_reset(lab, R5, LAB_V_SCRATCH_DIR), 0);
	cr_assert_eq(v->scratch_count, 4);
	cr_assert(lab_variant_inherited(v, LAB_V_SCRATCH));
	back = roundtrip(lab);
	lab_free(back);
	lab_free(lab);
}

Test(lab_edit, reset_without_defaults_gives_the_documented_default)
{
	struct lab *lab = load("name = \"x\";\n"
			       "variants = ( { name = \"a\"; scratch = { "
			       "count = 2; size = \"1G\"; };\n"
			       "  array = { level = 1; metadata = \"1.0\"; }; "
			       "} );\n"),
		   *back;

	cr_assert_eq(lab_edit_array_reset(lab, 0, LAB_A_METADATA), 0);
	cr_assert_eq(lab->variants[0].array.metadata, LAB_MD_METADATA_1_2);
	cr_assert(!lab_array_isset(&lab->variants[0].array, LAB_A_METADATA));
	back = roundtrip(lab);
	lab_free(back);
	lab_free(lab);
}

/* ---------------------------------------------------------------- check */

Test(lab_edit, lab_check_sees_raid6_on_three_disks)
{
	struct lab *lab = load(base_lab);
	char *msgs;

	cr_assert_eq(lab_edit_scratch_count(lab, R5, 3, NULL), 0);
	msgs = check_msgs(lab, "variants.r5.scratch.count");
	cr_assert_str_eq(msgs, "");
	free(msgs);
	cr_assert_eq(lab_edit_md_level(lab, R5, LAB_MD_LEVEL_6), 0);
	msgs = check_msgs(lab, "variants.r5.scratch.count");
	cr_assert(strstr(msgs, "RAID6 needs at least 4 devices, got 3") != NULL,
	    "%s", msgs);
	free(msgs);
	cr_assert_eq(lab_edit_scratch_count(lab, R5, 4, NULL), 0);
	msgs = check_msgs(lab, "variants.r5.scratch.count");
	cr_assert_str_eq(msgs, "");
	free(msgs);
	lab_free(lab);
}

Test(lab_edit, lab_check_sees_a_bad_layout_and_its_fix)
{
	struct lab *lab = load(base_lab);
	char *msgs;

	cr_assert_eq(lab_edit_layout(lab, R5, "f2", NULL), 0);
	msgs = check_msgs(lab, "variants.r5.array.layout");
	cr_assert(strstr(msgs, "f2 is a RAID10 layout") != NULL, "%s", msgs);
	free(msgs);
	cr_assert_eq(lab_edit_md_level(lab, R5, LAB_MD_LEVEL_10), 0);
	msgs = check_msgs(lab, "variants.r5.array.layout");
	cr_assert_str_eq(msgs, "");
	free(msgs);
	lab_free(lab);
}

/* ---------------------------------------------------------------- fs */

Test(lab_edit, fs_setters_round_trip)
{
	struct lab *lab = load(base_lab), *back;
	const struct lab_fs *fs;

	cr_assert_eq(lab_edit_fs_type(lab, R5, LAB_FS_XFS), 0);
	cr_assert_eq(lab_edit_fs_journal(lab, R5, LAB_JOURNAL_DEVICE,
			 "/dev/sdz1", NULL),
	    0);
	cr_assert_eq(lab_edit_journal_size(lab, R5, 128 << 20), 0);
	cr_assert_eq(lab_edit_geometry_value(lab, R5, LAB_F_GEOMETRY_SU,
			 256 * 1024, NULL),
	    0);
	cr_assert_eq(lab_edit_geometry_value(lab, R5, LAB_F_GEOMETRY_SW, 3,
			 NULL),
	    0);
	cr_assert_eq(lab_edit_mkfs_options(lab, R5, "-K"), 0);
	cr_assert_eq(lab_edit_mount_options(lab, R5, "noatime,logbsize=256k"),
	    0);
	back = roundtrip(lab);
	fs = &back->variants[R5].fs;
	cr_assert_eq(fs->type, LAB_FS_XFS);
	cr_assert_eq(fs->journal, LAB_JOURNAL_DEVICE);
	cr_assert_str_eq(fs->journal_device, "/dev/sdz1");
	cr_assert_eq(fs->journal_size, 128 << 20);
	cr_assert_eq(fs->geometry, LAB_GEOMETRY_XFS);
	cr_assert_eq(fs->su, 256 * 1024);
	cr_assert_eq(fs->sw, 3);
	cr_assert_str_eq(fs->mkfs_options, "-K");
	lab_free(back);
	/* ext4 by hand: stride and stripe width replace su and sw. */
	cr_assert_eq(lab_edit_fs_type(lab, R5, LAB_FS_EXT4), 0);
	cr_assert_eq(lab->variants[R5].fs.geometry, LAB_GEOMETRY_AUTO);
	cr_assert_eq(lab_edit_geometry_value(lab, R5, LAB_F_GEOMETRY_STRIDE, 32,
			 NULL),
	    0);
	cr_assert_eq(lab_edit_geometry_value(lab, R5,
			 LAB_F_GEOMETRY_STRIPE_WIDTH, 96, NULL),
	    0);
	cr_assert_eq(lab_edit_data_mode(lab, R5, LAB_DATA_JOURNAL), 0);
	back = roundtrip(lab);
	fs = &back->variants[R5].fs;
	cr_assert_eq(fs->geometry, LAB_GEOMETRY_EXT);
	cr_assert_eq(fs->stride, 32);
	cr_assert_eq(fs->stripe_width, 96);
	cr_assert_eq(fs->su, 0);
	cr_assert_eq(fs->data, LAB_DATA_JOURNAL);
	lab_free(back);
	cr_assert_eq(lab_edit_geometry(lab, R5, LAB_GEOMETRY_NONE, NULL), 0);
	cr_assert_eq(lab_edit_fs_journal(lab, R5, LAB_JOURNAL_INTERNAL, NULL,
			 NULL),
	    0);
	back = roundtrip(lab);
	cr_assert_eq(back->variants[R5].fs.geometry, LAB_GEOMETRY_NONE);
	cr_assert_eq(back->variants[R5].fs.journal, LAB_JOURNAL_INTERNAL);
	/* The journal size stays with the internal journal. */
	cr_assert_eq(back->variants[R5].fs.journal_size, 128 << 20);
	lab_free(back);
	lab_free(lab);
}

Test(lab_edit, xfs_forgets_data_mode)
{
	struct lab *lab = load(base_lab), *back;

	cr_assert(f_own(&lab->variants[R10], LAB_F_DATA));
	cr_assert_eq(lab_edit_fs_type(lab, R10, LAB_FS_XFS), 0);
	cr_assert(!lab_fs_isset(&lab->variants[R10].fs, LAB_F_DATA));
	cr_assert(!lab_edit_fs_applies(&lab->variants[R10], LAB_F_DATA));
	back = roundtrip(lab);
	lab_free(back);
	lab_free(lab);
}

/* A value set here has no line: a message about it says none, not
   "(line 0)". */
Test(lab_edit, messages_name_no_line_0)
{
	struct lab *lab = load("name = \"t\";\n"
			       "variants = ( { name = \"d\"; directory = "
			       "\"/var/tmp/x\"; } );\n"
			       "workloads = ( { type = \"fio\"; } );\n");
	struct err e;
	char *m;

	err_clear(&e);
	cr_assert_eq(lab_edit_variant_add(lab, "n", &e), 1, "%s", e.msg);
	cr_assert_eq(lab_edit_scratch_count(lab, 1, 2, &e), 0, "%s", e.msg);
	cr_assert_eq(lab_edit_engine(lab, 1, LAB_ENGINE_MD), 0);
	cr_assert_eq(lab_edit_md_level(lab, 1, LAB_MD_LEVEL_1), 0);
	cr_assert_eq(lab_edit_fs_type(lab, 1, LAB_FS_EXT4), 0);
	cr_assert_eq(lab_edit_data_mode(lab, 1, LAB_DATA_WRITEBACK), 0);
	cr_assert_eq(lab_edit_mount_options(lab, 1, "noatime,data=journal"), 0);
	m = check_msgs(lab, "variants.n");
	cr_assert(strstr(m, "data= here contradicts fs.data: give") != NULL,
	    "%s", m);
	cr_assert(strstr(m, "line 0") == NULL, "%s", m);
	free(m);
	lab_free(lab);
}

Test(lab_edit, fs_reset_inherits_mount_options)
{
	struct lab *lab = load(base_lab), *back;
	struct lab_variant *v = &lab->variants[R5];

	cr_assert_eq(lab_edit_mount_options(lab, R5, "sync"), 0);
	cr_assert(f_own(v, LAB_F_MOUNT_OPTIONS));
	cr_assert_eq(lab_edit_fs_reset(lab, R5, LAB_F_MOUNT_OPTIONS), 0);
	cr_assert_str_eq(v->fs.mount_options, "noatime");
	cr_assert(lab_fs_inherited(&v->fs, LAB_F_MOUNT_OPTIONS));
	back = roundtrip(lab);
	lab_free(back);
	lab_free(lab);
}

/* ---------------------------------------------------------------- variants */

Test(lab_edit, add_takes_defaults_and_round_trips)
{
	struct lab *lab = load(base_lab), *back;
	char *name = lab_edit_variant_unique(lab, "r5");
	int i;

	cr_assert_str_eq(name, "r5-2");
	i = lab_edit_variant_add(lab, name, NULL);
	cr_assert_eq(i, 4);
	cr_assert_eq(lab->variants[i].scratch_count, 4);
	cr_assert_eq(lab->variants[i].array.md_level, LAB_MD_LEVEL_5);
	cr_assert(lab_variant_inherited(&lab->variants[i], LAB_V_ARRAY));
	cr_assert_eq(lab_edit_engine(lab, (size_t)i, LAB_ENGINE_BTRFS), 0);
	cr_assert_eq(lab_edit_profile(lab, (size_t)i, LAB_PROFILE_RAID10), 0);
	back = roundtrip(lab);
	cr_assert_str_eq(back->variants[4].name, "r5-2");
	cr_assert_eq(back->variants[4].array.profile, LAB_PROFILE_RAID10);
	lab_free(back);
	free(name);
	lab_free(lab);
}

Test(lab_edit, add_refuses_bad_and_taken_names)
{
	struct lab *lab = load(base_lab);
	struct err e;

	err_clear(&e);
	cr_assert_lt(lab_edit_variant_add(lab, "r5", &e), 0);
	cr_assert(strstr(e.msg, "already used") != NULL, "%s", e.msg);
	cr_assert_lt(lab_edit_variant_add(lab, "a b", &e), 0);
	cr_assert_lt(lab_edit_variant_rename(lab, R5, "r10", &e), 0);
	cr_assert_eq(lab->nvariants, 4);
	lab_free(lab);
}

Test(lab_edit, clone_rename_move_delete)
{
	struct lab *lab = load(base_lab), *back;

	cr_assert_eq(lab_edit_variant_clone(lab, R10, "r10-copy", NULL), 2);
	cr_assert_str_eq(lab->variants[2].array.layout, "f2");
	cr_assert_eq(lab->variants[3].index, 3);
	back = roundtrip(lab);
	cr_assert_str_eq(back->variants[2].name, "r10-copy");
	lab_free(back);
	cr_assert_eq(lab_edit_variant_rename(lab, 2, "r10-n2", NULL), 0);
	cr_assert_eq(lab_edit_layout(lab, 2, "n2", NULL), 0);
	cr_assert_str_eq(lab->variants[R10].array.layout, "f2");
	cr_assert_eq(lab_edit_variant_move(lab, 2, 0), 0);
	cr_assert_str_eq(lab->variants[0].name, "r10-n2");
	cr_assert_str_eq(lab->variants[1].name, "r5");
	cr_assert_eq(lab_edit_variant_move(lab, 0, 4), 0);
	cr_assert_str_eq(lab->variants[4].name, "r10-n2");
	cr_assert_str_eq(lab->variants[0].name, "r5");
	back = roundtrip(lab);
	lab_free(back);
	cr_assert_eq(lab_edit_variant_delete(lab, 0), 0);
	cr_assert_eq(lab->nvariants, 4);
	cr_assert_str_eq(lab->variants[0].name, "r10");
	cr_assert_eq(lab->variants[0].index, 0);
	back = roundtrip(lab);
	lab_free(back);
	while (lab->nvariants > 0)
		cr_assert_eq(lab_edit_variant_delete(lab, 0), 0);
	back = roundtrip(lab);
	lab_free(back);
	lab_free(lab);
}

Test(lab_edit, target_directory_and_back)
{
	struct lab *lab = load(base_lab), *back;
	struct lab_variant *v = &lab->variants[R10];
	char *msgs;

	cr_assert_eq(lab_edit_target(lab, R10, LAB_V_DIRECTORY, "/srv/t", NULL),
	    0);
	cr_assert(!(v->own & (1u << LAB_V_ARRAY)));
	cr_assert_str_eq(v->directory, "/srv/t");
	msgs = check_msgs(lab, "variants.r10.directory");
	cr_assert_str_eq(msgs, "");
	free(msgs);
	back = roundtrip(lab);
	lab_free(back);
	cr_assert_eq(lab_edit_target(lab, DIR, LAB_V_ARRAY, NULL, NULL), 0);
	cr_assert_null(lab->variants[DIR].directory);
	cr_assert(lab_variant_isset(&lab->variants[DIR], LAB_V_ARRAY));
	back = roundtrip(lab);
	lab_free(back);
	lab_free(lab);
}

Test(lab_edit, new_lab_from_nothing_round_trips)
{
	struct lab *lab = lab_new(), *back;
	char *msgs;

	cr_assert_eq(lab_edit_name(lab, "fresh", NULL), 0);
	cr_assert_eq(lab_edit_variant_add(lab, "b10", NULL), 0);
	cr_assert_eq(lab_edit_scratch_count(lab, 0, 4, NULL), 0);
	cr_assert_eq(lab_edit_scratch_size(lab, 0, 1ULL << 30), 0);
	cr_assert_eq(lab_edit_engine(lab, 0, LAB_ENGINE_BTRFS), 0);
	cr_assert_eq(lab_edit_profile(lab, 0, LAB_PROFILE_RAID10), 0);
	msgs = check_msgs(lab, "variants.b10");
	cr_assert_str_eq(msgs, "");
	free(msgs);
	back = roundtrip(lab);
	cr_assert_eq(back->variants[0].array.engine, LAB_ENGINE_BTRFS);
	lab_free(back);
	lab_free(lab);
}

/* ---------------------------------------------------------------- lab */

/* An empty lab (the TUI's new lab) keeps the name and description it is
   given: they were once set without being the lab's own, and lost. */
Test(lab_edit, new_lab_keeps_its_name_and_description)
{
	struct lab *lab = lab_new(), *back;

	cr_assert_eq(lab_edit_name(lab, "walk", NULL), 0);
	cr_assert_eq(lab_edit_about(lab, "two btrfs profiles"), 0);
	back = roundtrip(lab);
	cr_assert_str_eq(back->name, "walk");
	cr_assert_str_eq(back->description, "two btrfs profiles");
	lab_free(back);
	cr_assert_eq(lab_edit_about(lab, ""), 0);
	cr_assert_null(lab->description);
	cr_assert(!lab_isset(lab, LAB_L_DESCRIPTION));
	back = roundtrip(lab);
	cr_assert_null(back->description);
	lab_free(back);
	lab_free(lab);
}

Test(lab_edit, repeats_and_cache)
{
	struct lab *lab = load(base_lab), *back;
	struct err e;

	err_clear(&e);
	cr_assert_eq(lab_edit_repeats(lab, 0, &e), -EINVAL);
	cr_assert_str_eq(e.field, "repeats");
	cr_assert_eq(lab_edit_repeats(lab, 5, NULL), 0);
	cr_assert_eq(lab_edit_cache(lab, LAB_CACHE_KEEP), 0);
	back = roundtrip(lab);
	cr_assert_eq(back->repeats, 5);
	cr_assert_eq(back->cache, LAB_CACHE_KEEP);
	lab_free(back);
	cr_assert_eq(lab_edit_reset(lab, LAB_L_REPEATS), 0);
	cr_assert_eq(lab->repeats, 1);
	cr_assert(!lab_isset(lab, LAB_L_REPEATS));
	back = roundtrip(lab);
	lab_free(back);
	lab_free(lab);
}

/* ---------------------------------------------------------------- workloads */

static const struct param_value *
pv(const struct lab *lab, size_t wi, const char *name)
{
	return lab_workload_param(&lab->workloads[wi], name);
}

Test(lab_edit, every_workload_type_can_be_added)
{
	struct lab *lab = load(base_lab), *back;

	for (size_t i = 0; workload_table[i] != NULL; i++) {
		char *name =
		    lab_edit_workload_unique(lab, workload_table[i]->name);

		cr_assert_geq(lab_edit_workload_add(lab,
				  workload_table[i]->name, name, NULL),
		    0);
		free(name);
	}
	back = roundtrip(lab);
	cr_assert_str_eq(back->workloads[1].name, "bonnie");
	lab_free(back);
	cr_assert_lt(lab_edit_workload_add(lab, "nope", "n", NULL), 0);
	lab_free(lab);
}

Test(lab_edit, params_of_each_kind_round_trip)
{
	struct lab *lab = load(base_lab), *back;
	int f = lab_edit_workload_add(lab, "fio", "f", NULL);
	int b = lab_edit_workload_add(lab, "bonnie", "b", NULL);
	int u = lab_edit_workload_add(lab, "untar", "u", NULL);

	cr_assert_eq(lab_edit_param(lab, (size_t)f, "rw", "randwrite", NULL,
			 NULL),
	    0);
	cr_assert_eq(lab_edit_param(lab, (size_t)f, "bs", "64K", NULL, NULL),
	    0);
	cr_assert_eq(lab_edit_param(lab, (size_t)f, "threads", " 8 ", NULL,
			 NULL),
	    0);
	cr_assert_eq(lab_edit_param(lab, (size_t)f, "direct", "yes", NULL,
			 NULL),
	    0);
	cr_assert_eq(lab_edit_param(lab, (size_t)b, "size", "auto", NULL, NULL),
	    0);
	cr_assert_eq(lab_edit_param(lab, (size_t)u, "tarball",
			 "/srv/linux 2.6.tar", NULL, NULL),
	    0);
	cr_assert_eq(lab_edit_param(lab, 0, "dirs", "20", NULL, NULL), 0);
	back = roundtrip(lab);
	cr_assert_eq(pv(back, (size_t)f, "bs")->size, 64 * 1024);
	cr_assert_eq(pv(back, (size_t)f, "threads")->i, 8);
	cr_assert_eq(pv(back, (size_t)f, "direct")->i, 1);
	cr_assert(pv(back, (size_t)b, "size")->is_auto);
	cr_assert(pv(back, (size_t)b, "size")->set);
	cr_assert_str_eq(pv(back, (size_t)u, "tarball")->s,
	    "/srv/linux 2.6.tar");
	lab_free(back);
	lab_free(lab);
}

Test(lab_edit, a_list_replaces_its_conflicting_param)
{
	struct lab *lab = load(base_lab), *back;
	const char *gone = NULL;

	cr_assert(pv(lab, 0, "count")->set);
	cr_assert_eq(lab_edit_param(lab, 0, "counts", "[100, 1000]", &gone,
			 NULL),
	    0);
	cr_assert_str_eq(gone, "count");
	cr_assert(!pv(lab, 0, "count")->set);
	cr_assert_eq(pv(lab, 0, "count")->i, 1000); /* the default again */
	back = roundtrip(lab);
	cr_assert_eq(pv(back, 0, "counts")->nlist, 2);
	cr_assert_eq(pv(back, 0, "counts")->list[1], 1000);
	lab_free(back);
	cr_assert_eq(lab_edit_param_reset(lab, 0, "counts"), 0);
	cr_assert(!pv(lab, 0, "counts")->set);
	back = roundtrip(lab);
	lab_free(back);
	lab_free(lab);
}

Test(lab_edit, bad_params_say_why)
{
	struct lab *lab = load(base_lab);
	int f = lab_edit_workload_add(lab, "fio", "f", NULL);
	struct err e;

	err_clear(&e);
	cr_assert_eq(lab_edit_param(lab, 0, "count", "0", NULL, &e), -EINVAL);
	cr_assert_str_eq(e.field, "workloads.small.count");
	cr_assert(strstr(e.msg, "out of range") != NULL, "%s", e.msg);
	cr_assert_eq(lab_edit_param(lab, 0, "size", "big", NULL, &e), -EINVAL);
	cr_assert(strstr(e.msg, "is not a size") != NULL, "%s", e.msg);
	cr_assert_eq(lab_edit_param(lab, (size_t)f, "rw", "sideways", NULL, &e),
	    -EINVAL);
	cr_assert(strstr(e.msg, "is not one of") != NULL, "%s", e.msg);
	cr_assert_eq(lab_edit_param(lab, 0, "fsync", "maybe", NULL, &e),
	    -EINVAL);
	cr_assert_eq(lab_edit_param(lab, 0, "counts", " , ", NULL, &e),
	    -EINVAL);
	cr_assert_eq(lab_edit_param(lab, 0, "nope", "1", NULL, &e), -EINVAL);
	/* The old value stays. */
	cr_assert_eq(pv(lab, 0, "count")->i, 100);
	lab_free(lab);
}

Test(lab_edit, workload_list_rename_move_delete)
{
	struct lab *lab = load(base_lab), *back;

	cr_assert_eq(lab_edit_workload_add(lab, "untar", "u", NULL), 1);
	cr_assert_eq(lab_edit_workload_rename(lab, 1, "kernel", NULL), 0);
	cr_assert_lt(lab_edit_workload_rename(lab, 1, "small", NULL), 0);
	cr_assert_eq(lab_edit_workload_move(lab, 1, 0), 0);
	cr_assert_str_eq(lab->workloads[0].name, "kernel");
	cr_assert_eq(lab->workloads[1].index, 1);
	back = roundtrip(lab);
	lab_free(back);
	cr_assert_eq(lab_edit_workload_delete(lab, 0), 0);
	cr_assert_eq(lab->nworkloads, 1);
	cr_assert_eq(lab_edit_workload_delete(lab, 0), 0);
	back = roundtrip(lab);
	lab_free(back);
	lab_free(lab);
}

/* The Compose and Workloads screens name things through these: the rule
   of the loader (at most 64 bytes, no leading '.' or '-'), said as the
   loader says it, and the names they suggest stay within it. */
Test(lab_edit, names_follow_the_loader_rule)
{
	struct lab *lab = load(base_lab), *back;
	char n64[65], n65[66], *name;
	struct err e;

	memset(n64, 'x', 64);
	n64[64] = '\0';
	memset(n65, 'y', 65);
	n65[65] = '\0';
	err_clear(&e);
	cr_assert_lt(lab_edit_variant_rename(lab, R5, n65, &e), 0);
	cr_assert_str_eq(e.msg,
	    "'yyyyyyyyyyyyyyyyyyyyyyyy...' is 65 bytes long: a name has at "
	    "most 64 (it becomes part of file and directory names)");
	cr_assert_lt(lab_edit_variant_add(lab, "..", &e), 0);
	cr_assert(strstr(e.msg, "must start with a letter") != NULL, "%s",
	    e.msg);
	cr_assert_lt(lab_edit_workload_rename(lab, 0, n65, &e), 0);
	cr_assert_lt(lab_edit_workload_add(lab, "fio", "-x", &e), 0);
	cr_assert_lt(lab_edit_name(lab, n65, &e), 0);
	cr_assert_str_eq(lab->variants[R5].name, "r5");
	cr_assert_eq(lab_edit_variant_rename(lab, R5, n64, &e), 0, "%s", e.msg);
	cr_assert_eq(lab_edit_workload_rename(lab, 0, n64, &e), 0, "%s", e.msg);
	cr_assert_eq(lab_edit_name(lab, n64, &e), 0, "%s", e.msg);
	/* A clone of the 64-byte name: cut to make room for "-2". */
	name = lab_edit_variant_unique(lab, n64);
	cr_assert_eq(strlen(name), 64);
	cr_assert_str_eq(name + 60, "xx-2");
	cr_assert_eq(lab_edit_variant_clone(lab, R5, name, &e), 1, "%s", e.msg);
	free(name);
	name = lab_edit_workload_unique(lab, n64);
	cr_assert_eq(strlen(name), 64);
	cr_assert(lab_name_ok(name), "%s", name);
	free(name);
	back = roundtrip(lab);
	lab_free(back);
	lab_free(lab);
}
