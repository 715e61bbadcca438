/*
 * Editing a variant's filesystem: the fs setters of lab-edit.h (type,
 * journal or log, data=, geometry, options), which fs keys apply to the
 * filesystem really built, and the fs part of the tidying after a choice.
 * The journal and geometry groups are merged from defaults as one, so a
 * variant that writes one of their keys owns the whole group. The thread
 * that owns the lab.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/i18n.h"
#include "base/xalloc.h"
#include "lab-edit-int.h"
#include "lab-edit.h"
#include "lab-load.h"
#include "lab-schema.h"
#include "lab.h"

#define OWN_SET(x, f)                                                          \
	((x)->set |= LAB_BIT(f), (x)->own |= LAB_BIT(f), (x)->lines[f] = 0)
#define FORGET(x, f)                                                           \
	((x)->set &= ~LAB_BIT(f), (x)->own &= ~LAB_BIT(f), (x)->lines[f] = 0)
#define OWNS(x, f) (((x)->own & LAB_BIT(f)) != 0)

#define JOURNAL_KEYS                                                           \
	(LAB_BIT(LAB_F_JOURNAL_DEVICE) | LAB_BIT(LAB_F_JOURNAL_ARRAY) |        \
	    LAB_BIT(LAB_F_JOURNAL_SIZE))
#define GEOMETRY_KEYS                                                          \
	(LAB_BIT(LAB_F_GEOMETRY_STRIDE) |                                      \
	    LAB_BIT(LAB_F_GEOMETRY_STRIPE_WIDTH) |                             \
	    LAB_BIT(LAB_F_GEOMETRY_SU) | LAB_BIT(LAB_F_GEOMETRY_SW))

enum lab_fs_type
lab_edit_fs_built(const struct lab_variant *v)
{
	return v->array.engine == LAB_ENGINE_BTRFS ? LAB_FS_BTRFS : v->fs.type;
}

static bool
is_ext(enum lab_fs_type t)
{
	return t == LAB_FS_EXT2 || t == LAB_FS_EXT3 || t == LAB_FS_EXT4;
}

bool
lab_edit_fs_applies(const struct lab_variant *v, enum lab_f_field f)
{
	return lab_fs_key_applies(v, f);
}

static void
drop_journal_array(struct lab_fs *fs)
{
	if (fs->journal_array != NULL) {
		lab_array_done(fs->journal_array);
		free(fs->journal_array);
		fs->journal_array = NULL;
	}
	FORGET(fs, LAB_F_JOURNAL_ARRAY);
}

static void
clear_geometry(struct lab_fs *fs)
{
	fs->stride = fs->stripe_width = fs->sw = 0;
	fs->su = 0;
	fs->set &= ~GEOMETRY_KEYS;
	fs->own &= ~GEOMETRY_KEYS;
}

static void
forget_fs(struct lab_fs *fs, enum lab_f_field f)
{
	switch (f) {
	case LAB_F_JOURNAL:
	case LAB_F_JOURNAL_DEVICE:
	case LAB_F_JOURNAL_ARRAY:
		fs->journal = LAB_JOURNAL_INTERNAL;
		lab_edit_set_str(&fs->journal_device, NULL);
		drop_journal_array(fs);
		fs->journal_size = 0;
		fs->set &= ~JOURNAL_KEYS;
		fs->own &= ~JOURNAL_KEYS;
		f = LAB_F_JOURNAL;
		break;
	case LAB_F_GEOMETRY:
	case LAB_F_GEOMETRY_STRIDE:
	case LAB_F_GEOMETRY_STRIPE_WIDTH:
	case LAB_F_GEOMETRY_SU:
	case LAB_F_GEOMETRY_SW:
		fs->geometry = LAB_GEOMETRY_AUTO;
		clear_geometry(fs);
		f = LAB_F_GEOMETRY;
		break;
	case LAB_F__COUNT:
		return;
	default:
		lab_key_reset(lab_fs_schema(f), fs);
		break;
	}
	FORGET(fs, f);
}

void
lab_edit_tidy_fs(struct lab_variant *v)
{
	struct lab_fs *fs = &v->fs;
	enum lab_fs_type t = lab_edit_fs_built(v);

	if (OWNS(fs, LAB_F_DATA) && !lab_edit_fs_applies(v, LAB_F_DATA))
		forget_fs(fs, LAB_F_DATA);
	if (OWNS(fs, LAB_F_JOURNAL) && !lab_edit_fs_applies(v, LAB_F_JOURNAL))
		forget_fs(fs, LAB_F_JOURNAL);
	if (OWNS(fs, LAB_F_GEOMETRY) &&
	    (t == LAB_FS_BTRFS ||
		(fs->geometry == LAB_GEOMETRY_EXT && !is_ext(t)) ||
		(fs->geometry == LAB_GEOMETRY_XFS && t != LAB_FS_XFS)))
		forget_fs(fs, LAB_F_GEOMETRY);
}

/* ---------------------------------------------------------------- setters */

static struct lab_fs *
own_fs(struct lab *lab, size_t vi, struct lab_variant **vp)
{
	struct lab_variant *v = lab_edit_variant_at(lab, vi);

	if (v == NULL)
		return NULL;
	lab_edit_own_fs(v);
	*vp = v;
	return &v->fs;
}

/* The journal (geometry) group is merged as one: owning it owns its keys. */
static void
own_group(struct lab_fs *fs, enum lab_f_field f, uint32_t keys)
{
	OWN_SET(fs, f);
	fs->own |= fs->set & keys;
}

int
lab_edit_fs_type(struct lab *lab, size_t vi, enum lab_fs_type t)
{
	struct lab_variant *v = NULL;
	struct lab_fs *fs = own_fs(lab, vi, &v);

	if (fs == NULL)
		return -ERANGE;
	fs->type = t;
	OWN_SET(fs, LAB_F_TYPE);
	fs->type_by_engine = false; /* chosen: an engine change keeps it */
	return lab_edit_done(lab, v);
}

int
lab_edit_mkfs_options(struct lab *lab, size_t vi, const char *opts)
{
	return lab_edit_key_text(lab, vi, LAB_V_FS, LAB_F_MKFS_OPTIONS, opts,
	    NULL);
}

int
lab_edit_fs_journal(struct lab *lab, size_t vi, enum lab_fs_journal j,
    const char *dev, struct err *e)
{
	struct lab_variant *v = lab_edit_variant_at(lab, vi);
	char field[LAB_PATH_MAX];
	struct lab_fs *fs;

	if (v == NULL)
		return lab_edit_bad_index(e);
	fs = &v->fs;
	if (j == LAB_JOURNAL_ARRAY)
		return err_set(e, -EINVAL, NULL, 0,
		    lab_fs_path(v, LAB_F_JOURNAL_ARRAY, field, sizeof field),
		    "%s", _("a journal array comes with its devices"));
	if (j == LAB_JOURNAL_DEVICE && !lab_edit_device_ok(dev))
		return err_set(e, -EINVAL, NULL, 0,
		    lab_fs_path(v, LAB_F_JOURNAL_DEVICE, field, sizeof field),
		    _("'%s' is neither a device path nor scratch:N"),
		    dev ? dev : "");
	lab_edit_own_fs(v);
	fs->journal = j;
	drop_journal_array(fs);
	lab_edit_set_str(&fs->journal_device,
	    j == LAB_JOURNAL_DEVICE ? dev : NULL);
	if (j == LAB_JOURNAL_DEVICE)
		OWN_SET(fs, LAB_F_JOURNAL_DEVICE);
	else
		FORGET(fs, LAB_F_JOURNAL_DEVICE);
	own_group(fs, LAB_F_JOURNAL, JOURNAL_KEYS);
	return lab_edit_done(lab, v);
}

int
lab_edit_journal_array(struct lab *lab, size_t vi, enum lab_md_level l,
    const char *const *devs, size_t n, struct err *e)
{
	struct lab_variant *v = lab_edit_variant_at(lab, vi);
	char field[LAB_PATH_MAX];
	struct lab_array *ja;
	struct lab_fs *fs;

	if (v == NULL)
		return lab_edit_bad_index(e);
	fs = &v->fs;
	for (size_t i = 0; i < n; i++)
		if (!lab_edit_device_ok(devs[i]))
			return err_set(e, -EINVAL, NULL, 0,
			    lab_fs_path(v, LAB_F_JOURNAL_ARRAY, field,
				sizeof field),
			    _("'%s' is neither a device path nor scratch:N"),
			    devs[i]);
	if (n == 0)
		return err_set(e, -EINVAL, NULL, 0,
		    lab_fs_path(v, LAB_F_JOURNAL_ARRAY, field, sizeof field),
		    "%s", _("a journal array needs devices"));
	lab_edit_own_fs(v);
	ja = xmalloc(sizeof *ja); /* before the old goes: devs may be its */
	lab_array_init(ja);
	snprintf(ja->where, sizeof ja->where, "fs.journal.array");
	ja->level_text = xstrdup(lab_md_level_name(l));
	ja->md_level = l;
	ja->set = ja->own = LAB_BIT(LAB_A_LEVEL) | LAB_BIT(LAB_A_DEVICES);
	for (size_t i = 0; i < n; i++)
		lab_strv_push(&ja->devices, devs[i]);
	drop_journal_array(fs);
	fs->journal_array = ja;
	fs->journal = LAB_JOURNAL_ARRAY;
	lab_edit_set_str(&fs->journal_device, NULL);
	FORGET(fs, LAB_F_JOURNAL_DEVICE);
	OWN_SET(fs, LAB_F_JOURNAL_ARRAY);
	own_group(fs, LAB_F_JOURNAL, JOURNAL_KEYS);
	return lab_edit_done(lab, v);
}

int
lab_edit_journal_size(struct lab *lab, size_t vi, uint64_t bytes)
{
	struct lab_variant *v = NULL;
	struct lab_fs *fs = own_fs(lab, vi, &v);

	if (fs == NULL)
		return -ERANGE;
	fs->journal_size = bytes;
	OWN_SET(fs, LAB_F_JOURNAL_SIZE);
	own_group(fs, LAB_F_JOURNAL, JOURNAL_KEYS);
	return lab_edit_done(lab, v);
}

int
lab_edit_data_mode(struct lab *lab, size_t vi, enum lab_data_mode d)
{
	return lab_edit_fs_value(lab, vi, LAB_F_DATA, d, NULL);
}

int
lab_edit_geometry(struct lab *lab, size_t vi, enum lab_geometry g,
    struct err *e)
{
	struct lab_variant *v = lab_edit_variant_at(lab, vi);
	char field[LAB_PATH_MAX];

	if (v == NULL)
		return lab_edit_bad_index(e);
	if (g != LAB_GEOMETRY_AUTO && g != LAB_GEOMETRY_NONE)
		return err_set(e, -EINVAL, NULL, 0,
		    lab_fs_path(v, LAB_F_GEOMETRY, field, sizeof field), "%s",
		    _("give stride and stripe_width (ext) or su and sw (xfs)"));
	lab_edit_own_fs(v);
	v->fs.geometry = g;
	clear_geometry(&v->fs);
	own_group(&v->fs, LAB_F_GEOMETRY, GEOMETRY_KEYS);
	return lab_edit_done(lab, v);
}

int
lab_edit_geometry_value(struct lab *lab, size_t vi, enum lab_f_field f,
    uint64_t value, struct err *e)
{
	struct lab_variant *v = lab_edit_variant_at(lab, vi);
	bool ext =
	    f == LAB_F_GEOMETRY_STRIDE || f == LAB_F_GEOMETRY_STRIPE_WIDTH;
	enum lab_geometry g = ext ? LAB_GEOMETRY_EXT : LAB_GEOMETRY_XFS;
	char field[LAB_PATH_MAX];
	struct lab_fs *fs;

	if (v == NULL)
		return lab_edit_bad_index(e);
	if (!ext && f != LAB_F_GEOMETRY_SU && f != LAB_F_GEOMETRY_SW)
		return -EINVAL;
	if (f != LAB_F_GEOMETRY_SU && (value < 1 || value > (1u << 20)))
		return err_set(e, -EINVAL, NULL, 0,
		    lab_fs_path(v, (int)f, field, sizeof field),
		    _("%lld is out of range (%lld..%lld)"), (long long)value,
		    1LL, (long long)(1 << 20));
	fs = &v->fs;
	lab_edit_own_fs(v);
	if (fs->geometry != g)
		clear_geometry(fs);
	fs->geometry = g;
	if (f == LAB_F_GEOMETRY_STRIDE)
		fs->stride = (int64_t)value;
	else if (f == LAB_F_GEOMETRY_STRIPE_WIDTH)
		fs->stripe_width = (int64_t)value;
	else if (f == LAB_F_GEOMETRY_SU)
		fs->su = value;
	else
		fs->sw = (int64_t)value;
	OWN_SET(fs, f);
	own_group(fs, LAB_F_GEOMETRY, GEOMETRY_KEYS);
	return lab_edit_done(lab, v);
}

int
lab_edit_mount_options(struct lab *lab, size_t vi, const char *opts)
{
	return lab_edit_key_text(lab, vi, LAB_V_FS, LAB_F_MOUNT_OPTIONS, opts,
	    NULL);
}

int
lab_edit_fs_reset(struct lab *lab, size_t vi, enum lab_f_field f)
{
	struct lab_variant *v = lab_edit_variant_at(lab, vi);
	enum lab_f_field g = f;

	if (v == NULL)
		return -ERANGE;
	if ((int)f < 0 || f >= LAB_F__COUNT)
		return -EINVAL;
	if (f == LAB_F_JOURNAL_DEVICE || f == LAB_F_JOURNAL_ARRAY)
		g = LAB_F_JOURNAL;
	else if (f >= LAB_F_GEOMETRY_STRIDE && f <= LAB_F_GEOMETRY_SW)
		g = LAB_F_GEOMETRY;
	if (!OWNS(&v->fs, g))
		return 0;
	forget_fs(&v->fs, g);
	lab_edit_refresh(lab, v);
	return lab_edit_done(lab, v);
}
