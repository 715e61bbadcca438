/*
 * Editing a variant's array: the setters of lab-edit.h for the top array
 * (engine, level, layout, chunk, devices, bitmap, write journal...), which
 * keys apply to which engine and level, and the tidying that forgets the
 * variant's own keys a new choice has no use for (the fs part is in
 * lab-edit-fs.c). The thread that owns the lab.
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

static int
bad_device(struct err *e, const struct lab_variant *v,
    const struct lab_array *a, enum lab_a_field f, const char *d)
{
	char field[LAB_PATH_MAX];

	return err_set(e, -EINVAL, NULL, 0,
	    lab_array_path(v, a, (int)f, field, sizeof field),
	    _("'%s' is neither a device path nor scratch:N"), d ? d : "");
}

/* ---------------------------------------------------------------- applies */

bool
lab_edit_array_applies(const struct lab_array *a, enum lab_a_field f)
{
	if (!lab_array_key_applies(a, f))
		return false;
	/* One of bitmap and write journal: the unused one goes. */
	if (f == LAB_A_BITMAP && a->journal != NULL)
		return a->bitmap != LAB_BITMAP_NONE;
	if (f == LAB_A_JOURNAL && a->bitmap != LAB_BITMAP_NONE)
		return a->journal != NULL;
	return true;
}

/* ---------------------------------------------------------------- forget */

static void
forget_array(struct lab_array *a, enum lab_a_field f)
{
	switch (f) {
	case LAB_A_BITMAP:
	case LAB_A_BITMAP_FILE:
		a->bitmap = LAB_BITMAP_NONE;
		lab_edit_set_str(&a->bitmap_file, NULL);
		FORGET(a, LAB_A_BITMAP_FILE);
		f = LAB_A_BITMAP;
		break;
	case LAB_A_LEGS:
		lab_edit_unnest(a);
		break;
	case LAB_A__COUNT:
		return;
	default:
		lab_key_reset(lab_array_schema(f), a);
		break;
	}
	FORGET(a, f);
}

/* The variant's own keys that its choices leave without use. */
static void
tidy(struct lab_variant *v)
{
	struct lab_array *a = &v->array;

	for (int f = 0; f < LAB_A__COUNT; f++)
		if (OWNS(a, f) && f != LAB_A_BITMAP_FILE &&
		    !lab_array_key_applies(a, (enum lab_a_field)f))
			forget_array(a, (enum lab_a_field)f);
	lab_edit_tidy_fs(v);
}

/* ---------------------------------------------------------------- array */

/* The variant's array, owned from now on; NULL for a bad index. */
static struct lab_array *
own_array(struct lab *lab, size_t vi, struct lab_variant **vp)
{
	struct lab_variant *v = lab_edit_variant_at(lab, vi);

	if (v == NULL)
		return NULL;
	lab_edit_own_array(v);
	*vp = v;
	return &v->array;
}

int
lab_edit_done(struct lab *lab, struct lab_variant *v)
{
	tidy(v);
	lab_edit_refresh(lab, v);
	return 0;
}

static const enum lab_profile md_to_profile[] = {
	[LAB_MD_LEVEL_0] = LAB_PROFILE_RAID0,
	[LAB_MD_LEVEL_1] = LAB_PROFILE_RAID1,
	[LAB_MD_LEVEL_4] = LAB_PROFILE_RAID5,
	[LAB_MD_LEVEL_5] = LAB_PROFILE_RAID5,
	[LAB_MD_LEVEL_6] = LAB_PROFILE_RAID6,
	[LAB_MD_LEVEL_10] = LAB_PROFILE_RAID10,
};
static const enum lab_md_level profile_to_md[] = {
	[LAB_PROFILE_SINGLE] = LAB_MD_LEVEL_0,
	[LAB_PROFILE_DUP] = LAB_MD_LEVEL_1,
	[LAB_PROFILE_RAID0] = LAB_MD_LEVEL_0,
	[LAB_PROFILE_RAID1] = LAB_MD_LEVEL_1,
	[LAB_PROFILE_RAID1C3] = LAB_MD_LEVEL_1,
	[LAB_PROFILE_RAID1C4] = LAB_MD_LEVEL_1,
	[LAB_PROFILE_RAID10] = LAB_MD_LEVEL_10,
	[LAB_PROFILE_RAID5] = LAB_MD_LEVEL_5,
	[LAB_PROFILE_RAID6] = LAB_MD_LEVEL_6,
};

static bool
md_parse(const char *text, enum lab_md_level *l)
{
	if (strncmp(text, "raid", 4) == 0)
		text += 4;
	return lab_md_level_parse(text, l) == 0;
}

/* The level text names a level of engine eng. */
static bool
level_fits(const char *text, enum lab_engine eng)
{
	enum lab_md_level l;
	enum lab_profile p;

	if (eng == LAB_ENGINE_MD)
		return md_parse(text, &l);
	return lab_profile_parse(text, &p) == 0;
}

/* The level as engine to names it; NULL when text is no level at all. */
static const char *
map_level(const char *text, enum lab_engine to)
{
	enum lab_md_level l;
	enum lab_profile p;

	if (to == LAB_ENGINE_MD && lab_profile_parse(text, &p) == 0)
		return lab_md_level_name(profile_to_md[p]);
	if (to == LAB_ENGINE_BTRFS && md_parse(text, &l))
		return lab_profile_name(md_to_profile[l]);
	return NULL;
}

static void
set_level(struct lab_array *a, const char *text)
{
	lab_edit_set_str(&a->level_text, text);
	OWN_SET(a, LAB_A_LEVEL);
}

/* Engine btrfs makes the filesystem itself: fs.type becomes btrfs, and
   the type it replaced comes back when the engine changes again (unless
   the type was set since). Other fs keys btrfs has no use for stay
   forgotten. */
static void
engine_fs_type(struct lab_variant *v, enum lab_engine from, enum lab_engine to)
{
	struct lab_fs *fs = &v->fs;

	if (to == LAB_ENGINE_BTRFS && from != LAB_ENGINE_BTRFS) {
		lab_edit_own_fs(v);
		fs->type_by_engine = true;
		fs->type_was = fs->type;
		fs->type_was_own = OWNS(fs, LAB_F_TYPE);
		fs->type = LAB_FS_BTRFS;
		OWN_SET(fs, LAB_F_TYPE);
	} else if (to != LAB_ENGINE_BTRFS && from == LAB_ENGINE_BTRFS &&
	    fs->type_by_engine) {
		fs->type_by_engine = false;
		fs->type = fs->type_was;
		if (!fs->type_was_own) { /* inherited: the defaults' again */
			fs->own &= ~LAB_BIT(LAB_F_TYPE);
			fs->set &= ~LAB_BIT(LAB_F_TYPE);
		}
	}
}

int
lab_edit_engine(struct lab *lab, size_t vi, enum lab_engine eng)
{
	struct lab_variant *v = NULL;
	struct lab_array *a = own_array(lab, vi, &v);
	enum lab_md_level l;
	const char *mapped;

	if (a == NULL)
		return -ERANGE;
	engine_fs_type(v, a->engine, eng);
	a->engine = eng;
	OWN_SET(a, LAB_A_ENGINE);
	if (eng != LAB_ENGINE_SINGLE && a->level_text != NULL &&
	    lab_array_isset(a, LAB_A_LEVEL) &&
	    !level_fits(a->level_text, eng)) {
		mapped = map_level(a->level_text, eng);
		if (mapped != NULL)
			set_level(a, mapped);
		else if (OWNS(a, LAB_A_LEVEL))
			forget_array(a, LAB_A_LEVEL);
	} else if (eng == LAB_ENGINE_MD && OWNS(a, LAB_A_LEVEL) &&
	    md_parse(a->level_text, &l)) {
		set_level(a, lab_md_level_name(l)); /* "raid10" -> "10" */
	}
	/* Resolve the level for the new engine before judging keys by it. */
	lab_edit_refresh(lab, v);
	return lab_edit_done(lab, v);
}

int
lab_edit_md_level(struct lab *lab, size_t vi, enum lab_md_level l)
{
	struct lab_variant *v = NULL;
	struct lab_array *a = own_array(lab, vi, &v);

	if (a == NULL)
		return -ERANGE;
	set_level(a, lab_md_level_name(l));
	a->md_level = l;
	return lab_edit_done(lab, v);
}

int
lab_edit_profile(struct lab *lab, size_t vi, enum lab_profile p)
{
	struct lab_variant *v = NULL;
	struct lab_array *a = own_array(lab, vi, &v);

	if (a == NULL)
		return -ERANGE;
	set_level(a, lab_profile_name(p));
	a->profile = p;
	return lab_edit_done(lab, v);
}

int
lab_edit_layout(struct lab *lab, size_t vi, const char *layout, struct err *e)
{
	struct lab_variant *v = NULL;
	struct lab_array *a = own_array(lab, vi, &v);

	if (a == NULL)
		return lab_edit_bad_index(e);
	if (layout == NULL || *layout == '\0')
		return lab_edit_array_reset(lab, vi, LAB_A_LAYOUT);
	lab_edit_set_str(&a->layout, layout);
	OWN_SET(a, LAB_A_LAYOUT);
	return lab_edit_done(lab, v);
}

int
lab_edit_chunk(struct lab *lab, size_t vi, uint64_t bytes)
{
	struct lab_variant *v = NULL;
	struct lab_array *a = own_array(lab, vi, &v);

	if (a == NULL)
		return -ERANGE;
	a->chunk = bytes;
	OWN_SET(a, LAB_A_CHUNK);
	return lab_edit_done(lab, v);
}

int
lab_edit_devices(struct lab *lab, size_t vi, enum lab_a_field which,
    const char *const *devs, size_t n, struct err *e)
{
	struct lab_variant *v = lab_edit_variant_at(lab, vi);
	struct lab_strv *sv;

	if (v == NULL)
		return lab_edit_bad_index(e);
	if (which != LAB_A_DEVICES && which != LAB_A_SPARES)
		return -EINVAL;
	if (which == LAB_A_DEVICES && v->array.nlegs > 0)
		return lab_edit_legs_devices(lab, vi, devs, n, e);
	for (size_t i = 0; i < n; i++)
		if (!lab_edit_device_ok(devs[i]))
			return bad_device(e, v, &v->array, which, devs[i]);
	if (n == 0)
		return lab_edit_array_reset(lab, vi, which);
	lab_edit_own_array(v);
	sv = which == LAB_A_DEVICES ? &v->array.devices : &v->array.spares;
	lab_strv_done(sv);
	for (size_t i = 0; i < n; i++)
		lab_strv_push(sv, devs[i]);
	OWN_SET(&v->array, which);
	return lab_edit_done(lab, v);
}

/* Take s out of sv; true when it was there. */
static bool
strv_remove(struct lab_strv *sv, const char *s)
{
	for (size_t i = 0; i < sv->n; i++) {
		if (strcmp(sv->v[i], s) == 0) {
			free(sv->v[i]);
			memmove(&sv->v[i], &sv->v[i + 1],
			    (sv->n - i - 1) * sizeof *sv->v);
			sv->n--;
			return true;
		}
	}
	return false;
}

static int
toggle_refused(const struct lab_variant *v, const char *dev,
    enum lab_a_field which, struct err *e)
{
	char field[LAB_PATH_MAX];

	lab_array_path(v, &v->array, (int)which, field, sizeof field);
	if (v->directory != NULL)
		return err_set(e, -EINVAL, NULL, 0, NULL,
		    _("variant %s is a directory: make it an array first"),
		    v->name);
	if (which == LAB_A_SPARES &&
	    !lab_edit_array_applies(&v->array, LAB_A_SPARES))
		return err_set(e, -EINVAL, NULL, 0, field, "%s",
		    _("this array takes no spares (md RAID 1, 4, 5, 6 and 10 "
		      "do)"));
	if ((v->array.journal != NULL && strcmp(v->array.journal, dev) == 0) ||
	    (v->fs.journal_device != NULL &&
		strcmp(v->fs.journal_device, dev) == 0) ||
	    (v->fs.journal_array != NULL &&
		lab_edit_strv_has(&v->fs.journal_array->devices, dev)))
		return err_set(e, -EINVAL, NULL, 0, field,
		    _("%s is a journal or log device of %s: change that "
		      "first"),
		    dev, v->name);
	if (!lab_edit_device_ok(dev))
		return bad_device(e, v, &v->array, which, dev);
	return 0;
}

int
lab_edit_toggle_device(struct lab *lab, size_t vi, const char *dev,
    enum lab_a_field which, bool *now, struct err *e)
{
	struct lab_variant *v = lab_edit_variant_at(lab, vi);
	struct lab_strv m = { 0 }, sp = { 0 };
	struct lab_strv *mine = which == LAB_A_SPARES ? &sp : &m;
	struct lab_strv *other = which == LAB_A_SPARES ? &m : &sp;
	int rc;

	if (v == NULL)
		return lab_edit_bad_index(e);
	if (which != LAB_A_DEVICES && which != LAB_A_SPARES)
		return -EINVAL;
	if ((rc = toggle_refused(v, dev, which, e)) < 0)
		return rc;
	lab_edit_members_of(v, &m);
	lab_strv_copy(&sp, &v->array.spares);
	*now = !strv_remove(mine, dev);
	if (*now) {
		strv_remove(other, dev);
		lab_strv_push(mine, dev);
	}
	rc = lab_edit_devices(lab, vi, LAB_A_DEVICES, (const char *const *)m.v,
	    m.n, e);
	if (rc == 0 && lab_edit_array_applies(&v->array, LAB_A_SPARES))
		rc = lab_edit_devices(lab, vi, LAB_A_SPARES,
		    (const char *const *)sp.v, sp.n, e);
	lab_strv_done(&m);
	lab_strv_done(&sp);
	return rc;
}

int
lab_edit_bitmap(struct lab *lab, size_t vi, enum lab_bitmap b, const char *file,
    struct err *e)
{
	struct lab_variant *v = lab_edit_variant_at(lab, vi);
	char field[LAB_PATH_MAX];
	struct lab_array *a;

	if (v == NULL)
		return lab_edit_bad_index(e);
	a = &v->array;
	if (b == LAB_BITMAP_FILE && (file == NULL || file[0] != '/'))
		return err_set(e, -EINVAL, NULL, 0,
		    lab_array_path(v, a, LAB_A_BITMAP_FILE, field,
			sizeof field),
		    _("'%s' is not an absolute path"), file ? file : "");
	lab_edit_own_array(v);
	a->bitmap = b;
	lab_edit_set_str(&a->bitmap_file, b == LAB_BITMAP_FILE ? file : NULL);
	OWN_SET(a, LAB_A_BITMAP);
	if (b == LAB_BITMAP_FILE)
		OWN_SET(a, LAB_A_BITMAP_FILE);
	else
		FORGET(a, LAB_A_BITMAP_FILE);
	if (b != LAB_BITMAP_NONE && OWNS(a, LAB_A_JOURNAL))
		forget_array(a, LAB_A_JOURNAL);
	return lab_edit_done(lab, v);
}

int
lab_edit_bitmap_chunk(struct lab *lab, size_t vi, uint64_t bytes)
{
	struct lab_variant *v = NULL;
	struct lab_array *a = own_array(lab, vi, &v);

	if (a == NULL)
		return -ERANGE;
	a->bitmap_chunk = bytes;
	OWN_SET(a, LAB_A_BITMAP_CHUNK);
	return lab_edit_done(lab, v);
}

int
lab_edit_md_journal(struct lab *lab, size_t vi, const char *dev, struct err *e)
{
	struct lab_variant *v = lab_edit_variant_at(lab, vi);
	struct lab_array *a;

	if (v == NULL)
		return lab_edit_bad_index(e);
	a = &v->array;
	if (dev == NULL || *dev == '\0')
		return lab_edit_array_reset(lab, vi, LAB_A_JOURNAL);
	if (!lab_edit_device_ok(dev))
		return bad_device(e, v, a, LAB_A_JOURNAL, dev);
	lab_edit_own_array(v);
	lab_edit_set_str(&a->journal, dev);
	OWN_SET(a, LAB_A_JOURNAL);
	if (a->bitmap != LAB_BITMAP_NONE) {
		a->bitmap = LAB_BITMAP_NONE;
		lab_edit_set_str(&a->bitmap_file, NULL);
		OWN_SET(a, LAB_A_BITMAP);
		FORGET(a, LAB_A_BITMAP_FILE);
		if (OWNS(a, LAB_A_BITMAP_CHUNK))
			forget_array(a, LAB_A_BITMAP_CHUNK);
	}
	return lab_edit_done(lab, v);
}

int
lab_edit_array_reset(struct lab *lab, size_t vi, enum lab_a_field f)
{
	struct lab_variant *v = lab_edit_variant_at(lab, vi);

	if (v == NULL)
		return -ERANGE;
	if ((int)f < 0 || f >= LAB_A__COUNT)
		return -EINVAL;
	if (!OWNS(&v->array, f))
		return 0;
	forget_array(&v->array, f);
	lab_edit_refresh(lab, v);
	return lab_edit_done(lab, v);
}

/* ---------------------------------------------------------------- fs */
