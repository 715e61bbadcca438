/*
 * The fs group's schema (lab-schema.h): a line per key of struct lab_fs
 * and the rules of where each key applies, by the filesystem a variant
 * builds. The thread that owns the lab.
 */
#include "config.h"

#include <stddef.h>

#include "base/i18n.h"
#include "lab-edit.h"
#include "lab-load.h"
#include "lab-schema.h"
#include "lab.h"

#define FOFF(m) offsetof(struct lab_fs, m)
#define EXT (LAB_KEY_FS(LAB_FS_EXT2) | EXT34)
#define EXT34 (LAB_KEY_FS(LAB_FS_EXT3) | LAB_KEY_FS(LAB_FS_EXT4))
#define XFS LAB_KEY_FS(LAB_FS_XFS)
/* ext3/4 journal or xfs log: ext2 has none, btrfs its own. */
#define JOURNALED (EXT34 | XFS)

/* ---------------------------------------------------------------- rules */

static bool
journal_device(const void *g)
{
	const struct lab_fs *fs = g;

	return fs->journal == LAB_JOURNAL_DEVICE;
}

static bool
journal_array(const void *g)
{
	const struct lab_fs *fs = g;

	return fs->journal == LAB_JOURNAL_ARRAY;
}

static bool
geometry_ext(const void *g)
{
	const struct lab_fs *fs = g;

	return fs->geometry == LAB_GEOMETRY_EXT;
}

static bool
geometry_xfs(const void *g)
{
	const struct lab_fs *fs = g;

	return fs->geometry == LAB_GEOMETRY_XFS;
}

/* ---------------------------------------------------------------- table */

/* In enum lab_f_field order: lab_fs_schema() indexes it (and
   tests/unit/test-lab-schema.c checks that). */
const struct lab_key lab_fs_keys[] = {
	{ "type", LAB_KEY_ENUM, LAB_F_TYPE, FOFF(type),
	    .names = lab_fs_type_names, .dflt = LAB_FS_EXT4,
	    .where = LAB_KEY_FS_ANY, .label = N_("filesystem") },
	{ "mkfs_options", LAB_KEY_STRING, LAB_F_MKFS_OPTIONS,
	    FOFF(mkfs_options), .where = LAB_KEY_FS_ANY,
	    .flags = LAB_KEY_FORM | LAB_KEY_FORM_LAST,
	    .label = N_("mkfs options"), .unset = N_("none") },
	{ "journal", LAB_KEY_SPECIAL, LAB_F_JOURNAL, .merge = LAB_MERGE_WHOLE,
	    .where = JOURNALED, .label = N_("journal") },
	{ "journal.device", LAB_KEY_DEVICE, LAB_F_JOURNAL_DEVICE,
	    FOFF(journal_device), .merge = LAB_MERGE_SUB, .where = JOURNALED,
	    .applies = journal_device, .label = N_("journal device") },
	{ "journal.array", LAB_KEY_SPECIAL, LAB_F_JOURNAL_ARRAY,
	    .merge = LAB_MERGE_SUB, .where = JOURNALED,
	    .applies = journal_array, .label = N_("journal array") },
	{ "journal.size", LAB_KEY_SIZE, LAB_F_JOURNAL_SIZE, FOFF(journal_size),
	    .merge = LAB_MERGE_SUB, .where = JOURNALED,
	    .label = N_("journal size") },
	{ "data", LAB_KEY_ENUM, LAB_F_DATA, FOFF(data),
	    .names = lab_data_mode_names, .dflt = LAB_DATA_ORDERED,
	    .where = EXT34, .flags = LAB_KEY_FORM, .label = N_("data mode") },
	{ "geometry", LAB_KEY_SPECIAL, LAB_F_GEOMETRY, .merge = LAB_MERGE_WHOLE,
	    .where = EXT | XFS, .label = N_("geometry") },
	{ "geometry.stride", LAB_KEY_INT, LAB_F_GEOMETRY_STRIDE, FOFF(stride),
	    .min = 1, .max = 1 << 20, .merge = LAB_MERGE_SUB, .where = EXT,
	    .applies = geometry_ext, .label = N_("stride") },
	{ "geometry.stripe_width", LAB_KEY_INT, LAB_F_GEOMETRY_STRIPE_WIDTH,
	    FOFF(stripe_width), .min = 1, .max = 1 << 20,
	    .merge = LAB_MERGE_SUB, .where = EXT, .applies = geometry_ext,
	    .label = N_("stripe width") },
	{ "geometry.su", LAB_KEY_SIZE, LAB_F_GEOMETRY_SU, FOFF(su),
	    .merge = LAB_MERGE_SUB, .where = XFS, .applies = geometry_xfs,
	    .label = N_("su") },
	{ "geometry.sw", LAB_KEY_INT, LAB_F_GEOMETRY_SW, FOFF(sw), .min = 1,
	    .max = 1 << 20, .merge = LAB_MERGE_SUB, .where = XFS,
	    .applies = geometry_xfs, .label = N_("sw") },
	{ "mount_options", LAB_KEY_STRING, LAB_F_MOUNT_OPTIONS,
	    FOFF(mount_options), .where = LAB_KEY_FS_ANY,
	    .flags = LAB_KEY_FORM | LAB_KEY_FORM_LAST,
	    .label = N_("mount options"), .unset = N_("none") },
	{ NULL },
};

const struct lab_key *
lab_fs_schema(enum lab_f_field f)
{
	if ((int)f < 0 || f >= LAB_F__COUNT)
		return NULL;
	return &lab_fs_keys[f];
}

bool
lab_fs_key_applies(const struct lab_variant *v, enum lab_f_field f)
{
	const struct lab_key *k = lab_fs_schema(f);
	enum lab_fs_type t = lab_edit_fs_built(v);

	if (k == NULL || !(k->where & LAB_KEY_FS(t)))
		return false;
	return k->applies == NULL || k->applies(&v->fs);
}
