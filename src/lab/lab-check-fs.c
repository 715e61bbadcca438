/*
 * lab_check() rules for a variant's filesystem: data= modes, external
 * journals and logs, stripe geometry and mount options. See lab-check.h.
 * The thread that owns the lab.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/i18n.h"
#include "base/units.h"
#include "base/xalloc.h"
#include "lab-check.h"
#include "lab.h"

/* ---------------------------------------------------------------- fs */

#define XFS_SECTOR 512
#define XFS_BLOCK 4096

static bool
is_ext(enum lab_fs_type t)
{
	return t == LAB_FS_EXT2 || t == LAB_FS_EXT3 || t == LAB_FS_EXT4;
}

static bool
has_journal(enum lab_fs_type t)
{
	return t == LAB_FS_EXT3 || t == LAB_FS_EXT4 || t == LAB_FS_XFS;
}

/* The filesystem that will really be built. */
static enum lab_fs_type
fs_type(const struct lab_variant *v)
{
	return v->array.engine == LAB_ENGINE_BTRFS ? LAB_FS_BTRFS : v->fs.type;
}

static void
fs_data(struct lab_chk *c, const struct lab_variant *v)
{
	const struct lab_fs *fs = &v->fs;
	const char *mode = lab_data_mode_name(fs->data);
	enum lab_fs_type t = fs_type(v);

	if (!lab_chk_fs_own(fs, LAB_F_DATA))
		return;
	if (t == LAB_FS_EXT2)
		lab_chk_fs(c, v, LAB_F_DATA,
		    _("ext2 has no journal: data= "
		      "modes need ext3 or ext4"));
	else if (!is_ext(t))
		lab_chk_fs(c, v, LAB_F_DATA,
		    _("%s has no data= mode: data=%s "
		      "is an ext3/ext4 journaling mode (%s journals metadata "
		      "only)"),
		    lab_fs_type_name(t), mode, lab_fs_type_name(t));
}

static void
fs_journal(struct lab_chk *c, const struct lab_variant *v)
{
	const struct lab_fs *fs = &v->fs;
	enum lab_fs_type t = fs_type(v);
	char b[UNITS_BUF];

	if (fs->journal != LAB_JOURNAL_INTERNAL &&
	    lab_chk_fs_own(fs, LAB_F_JOURNAL)) {
		if (t == LAB_FS_EXT2)
			lab_chk_fs(c, v, LAB_F_JOURNAL,
			    _("ext2 has no "
			      "journal: an external journal needs ext3 or "
			      "ext4"));
		else if (t == LAB_FS_BTRFS)
			lab_chk_fs(c, v, LAB_F_JOURNAL,
			    _("btrfs has no "
			      "external journal or log device"));
	}
	if (lab_fs_isset(fs, LAB_F_JOURNAL_SIZE)) {
		if (!has_journal(t) && lab_chk_fs_own(fs, LAB_F_JOURNAL_SIZE))
			lab_chk_fs(c, v, LAB_F_JOURNAL_SIZE,
			    _("%s has no "
			      "journal to size"),
			    lab_fs_type_name(t));
		else if (t == LAB_FS_XFS && fs->journal_size < XFS_MIN_LOG)
			lab_chk_fs(c, v, LAB_F_JOURNAL_SIZE,
			    _("xfs refuses a "
			      "log smaller than 64M (xfsprogs 6.1), got %s"),
			    lab_chk_size(fs->journal_size, b));
	}
	if (fs->journal == LAB_JOURNAL_ARRAY && fs->journal_array != NULL &&
	    has_journal(t))
		lab_chk_check_array(c, v, fs->journal_array, LAB_CHK_JOURNAL,
		    -1);
}

static void
fs_geometry_ext(struct lab_chk *c, const struct lab_variant *v)
{
	const struct lab_fs *fs = &v->fs;

	if (fs->stride > 0 && fs->stripe_width > 0 &&
	    fs->stripe_width % fs->stride != 0)
		lab_chk_fs(c, v, LAB_F_GEOMETRY_STRIPE_WIDTH,
		    _("stripe_width "
		      "%lld is not a multiple of stride %lld: a stripe is a "
		      "whole number of chunks"),
		    (long long)fs->stripe_width, (long long)fs->stride);
}

static void
fs_geometry_xfs(struct lab_chk *c, const struct lab_variant *v)
{
	const struct lab_fs *fs = &v->fs;
	char b[UNITS_BUF];

	if (lab_fs_isset(fs, LAB_F_GEOMETRY_SU) && fs->su % XFS_SECTOR != 0)
		lab_chk_fs(c, v, LAB_F_GEOMETRY_SU,
		    _("su %s is not a "
		      "multiple of the 512-byte sector"),
		    lab_chk_size(fs->su, b));
	else if (lab_fs_isset(fs, LAB_F_GEOMETRY_SU) && fs->su % XFS_BLOCK != 0)
		lab_chk_fs(c, v, LAB_F_GEOMETRY_SU,
		    _("su %s is not a "
		      "multiple of the 4K filesystem block, which mkfs.xfs "
		      "requires"),
		    lab_chk_size(fs->su, b));
	if (lab_fs_isset(fs, LAB_F_GEOMETRY_SW) && fs->sw < 1)
		lab_chk_fs(c, v, LAB_F_GEOMETRY_SW,
		    _("sw must be at least 1 "
		      "(data disks per stripe), got %lld"),
		    (long long)fs->sw);
}

static void
fs_geometry(struct lab_chk *c, const struct lab_variant *v)
{
	const struct lab_fs *fs = &v->fs;
	enum lab_fs_type t = fs_type(v);
	bool own = lab_chk_fs_own(fs, LAB_F_GEOMETRY);

	if (fs->geometry == LAB_GEOMETRY_EXT) {
		if (is_ext(t))
			fs_geometry_ext(c, v);
		else if (own && t == LAB_FS_XFS)
			lab_chk_fs(c, v, LAB_F_GEOMETRY_STRIDE,
			    _("stride and "
			      "stripe_width are ext2/3/4 options (mke2fs -E); "
			      "xfs takes su and sw"));
		else if (own)
			lab_chk_fs(c, v, LAB_F_GEOMETRY_STRIDE,
			    _("btrfs takes "
			      "no stripe geometry: its profile places the "
			      "data"));
	} else if (fs->geometry == LAB_GEOMETRY_XFS) {
		if (t == LAB_FS_XFS)
			fs_geometry_xfs(c, v);
		else if (own && is_ext(t))
			lab_chk_fs(c, v, LAB_F_GEOMETRY_SU,
			    _("su and sw are "
			      "xfs options (mkfs.xfs -d); %s takes stride and "
			      "stripe_width"),
			    lab_fs_type_name(t));
		else if (own)
			lab_chk_fs(c, v, LAB_F_GEOMETRY_SU,
			    _("btrfs takes "
			      "no stripe geometry: its profile places the "
			      "data"));
	}
}

/* The option named key ("data") in a comma list, or NULL. */
static const char *
find_opt(const char *opts, const char *key)
{
	size_t k = strlen(key);
	const char *p = opts;

	while (p != NULL && *p != '\0') {
		if (strncmp(p, key, k) == 0 && p[k] == '=')
			return p;
		p = strchr(p, ',');
		if (p != NULL)
			p++;
	}
	return NULL;
}

static void
fs_mount_options(struct lab_chk *c, const struct lab_variant *v)
{
	const struct lab_fs *fs = &v->fs;
	const char *o = fs->mount_options;
	enum lab_fs_type t = fs_type(v);

	if (o == NULL)
		return;
	if (find_opt(o, "logdev") != NULL) {
		if (t != LAB_FS_XFS)
			lab_chk_fs(c, v, LAB_F_MOUNT_OPTIONS,
			    _("logdev= is an "
			      "xfs mount option; %s has none"),
			    lab_fs_type_name(t));
		else if (fs->journal != LAB_JOURNAL_INTERNAL)
			lab_chk_fs(c, v, LAB_F_MOUNT_OPTIONS,
			    _("logdev= is "
			      "added by raidlab from fs.journal (line %d): "
			      "remove it from mount_options"),
			    lab_fs_line(fs, LAB_F_JOURNAL));
		else
			lab_chk_fs(c, v, LAB_F_MOUNT_OPTIONS,
			    _("logdev= names "
			      "an external log, but the log is internal (no "
			      "fs.journal): the mount would fail"));
	}
	if (find_opt(o, "data") != NULL) {
		if (t != LAB_FS_EXT3 && t != LAB_FS_EXT4)
			lab_chk_fs(c, v, LAB_F_MOUNT_OPTIONS,
			    _("data= is an "
			      "ext3/ext4 mount option; %s has none"),
			    lab_fs_type_name(t));
		else if (lab_fs_isset(fs, LAB_F_DATA))
			lab_chk_fs(c, v, LAB_F_MOUNT_OPTIONS,
			    _("data= here "
			      "contradicts fs.data (line %d): give the mode "
			      "once, "
			      "as fs.data"),
			    lab_fs_line(fs, LAB_F_DATA));
	}
}

void
lab_chk_check_fs(struct lab_chk *c, const struct lab_variant *v)
{
	const struct lab_fs *fs = &v->fs;

	if (v->array.engine == LAB_ENGINE_BTRFS &&
	    lab_chk_fs_own(fs, LAB_F_TYPE) && fs->type != LAB_FS_BTRFS)
		lab_chk_fs(c, v, LAB_F_TYPE,
		    _("engine btrfs (line %d) builds "
		      "the filesystem itself: fs.type must be btrfs, not %s"),
		    lab_array_line(&v->array, LAB_A_ENGINE),
		    lab_fs_type_name(fs->type));
	fs_data(c, v);
	fs_journal(c, v);
	fs_geometry(c, v);
	fs_mount_options(c, v);
}
