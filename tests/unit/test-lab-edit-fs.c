/*
 * The filesystem of a variant, in the editor (lab-edit-fs): every setter
 * survives save and load, xfs forgets ext4's data mode, messages name no
 * line 0, a reset mount option is inherited again. Part of the
 * test-lab-edit program (unit-lab-edit.h).
 */
#include "config.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "lab/lab-edit.h"
#include "lab/lab-schema.h"
#include "lab/lab.h"
#include "unit-lab-edit.h"

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

/* The setters of the plain keys: the fs group's through the same path as
   the array's, text refused with the sentence lab_load() gives. */
Test(lab_edit, key_setters_fs)
{
	struct lab *lab = load(base_lab), *back;
	struct lab_variant *v = &lab->variants[R5];
	struct err e;

	err_clear(&e);
	cr_assert_eq(lab_edit_fs_type(lab, R5, LAB_FS_EXT4), 0);
	cr_assert_eq(lab_edit_fs_value(lab, R5, LAB_F_DATA, LAB_DATA_WRITEBACK,
			 &e),
	    0, "%s", e.msg);
	cr_assert(f_own(v, LAB_F_DATA));
	cr_assert_eq(lab_edit_fs_value(lab, R5, LAB_F_DATA, 7, &e), -ERANGE);
	cr_assert_eq(v->fs.data, LAB_DATA_WRITEBACK);
	cr_assert_eq(lab_edit_key_text(lab, R5, LAB_V_FS, LAB_F_DATA, "bogus",
			 &e),
	    -EINVAL);
	cr_assert_str_eq(e.msg,
	    "'bogus' is not one of: ordered, writeback, journal");
	cr_assert_eq(lab_edit_key_text(lab, R5, LAB_V_FS, LAB_F_DATA, "journal",
			 &e),
	    0, "%s", e.msg);
	cr_assert_eq(lab_edit_key_text(lab, R5, LAB_V_FS, LAB_F_MKFS_OPTIONS,
			 "-E lazy_itable_init=0", &e),
	    0, "%s", e.msg);
	/* A key inside a group is its group's setter's. */
	cr_assert_eq(lab_edit_key_text(lab, R5, LAB_V_FS, LAB_F_JOURNAL_SIZE,
			 "64M", &e),
	    -EINVAL);
	back = roundtrip(lab);
	cr_assert_eq(back->variants[R5].fs.data, LAB_DATA_JOURNAL);
	cr_assert_str_eq(back->variants[R5].fs.mkfs_options,
	    "-E lazy_itable_init=0");
	lab_free(back);
	cr_assert_eq(lab_edit_key_text(lab, R5, LAB_V_FS, LAB_F_MKFS_OPTIONS,
			 "", &e),
	    0);
	cr_assert(!f_own(v, LAB_F_MKFS_OPTIONS));
	lab_free(lab);
}

/* Typed int and size values: load's sentences, the group unchanged. */
Test(lab_edit, key_parse_messages)
{
	struct lab_fs fs = { 0 };
	char why[256];

	cr_assert_eq(lab_key_parse(lab_fs_schema(LAB_F_GEOMETRY_STRIDE), &fs,
			 "0", why, sizeof why),
	    -ERANGE);
	cr_assert_str_eq(why, "0 is out of range (1..1048576)");
	cr_assert_eq(lab_key_parse(lab_fs_schema(LAB_F_GEOMETRY_STRIDE), &fs,
			 "x", why, sizeof why),
	    -EINVAL);
	cr_assert_str_eq(why, "expected an integer");
	cr_assert_eq(lab_key_parse(lab_fs_schema(LAB_F_GEOMETRY_SU), &fs,
			 "lots", why, sizeof why),
	    -EINVAL);
	cr_assert_str_eq(why, "'lots' is not a size (like 4K, 64M, 2G)");
	cr_assert_eq(lab_key_parse(lab_fs_schema(LAB_F_GEOMETRY_SU), &fs, "-4",
			 why, sizeof why),
	    -ERANGE);
	cr_assert_str_eq(why, "a size cannot be negative");
	cr_assert_eq(fs.stride, 0);
	cr_assert_eq(fs.su, 0);
	cr_assert_eq(lab_key_parse(lab_fs_schema(LAB_F_GEOMETRY_SU), &fs, "64K",
			 why, sizeof why),
	    0);
	cr_assert_eq(fs.su, 64 * 1024);
}
