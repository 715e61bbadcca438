/*
 * Reading the array and fs groups of a variant (or of defaults), legs and
 * journal arrays included, and interpreting `level` once the engine is
 * known (after the defaults merge). See lab_load() in lab.h. The thread
 * that owns the lab.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/i18n.h"
#include "base/xalloc.h"
#include "lab-load.h"
#include "lab-schema.h"
#include "lab.h"

static const char *const bitmap_keys[] = { "file", "chunk", NULL };
static const char *const journal_keys[] = { "device", "array", "size", NULL };
static const char *const geometry_keys[] = { "stride", "stripe_width", "su",
	"sw", NULL };

#define ASET(a, f, s)                                                          \
	do {                                                                   \
		(a)->lines[f] = lab_line_of(s);                                \
		(a)->set |= LAB_BIT(f);                                        \
	} while (0)

/* level = "5" or level = 5: kept as text until the engine is known. */
bool
lab_load_level(struct lab_ctx *c, const config_setting_t *s, const char *field,
    void *group)
{
	struct lab_array *a = group;
	int t = config_setting_type(s);

	if (t == CONFIG_TYPE_INT || t == CONFIG_TYPE_INT64)
		a->level_text =
		    xasprintf("%lld", (long long)config_setting_get_int64(s));
	else if (t == CONFIG_TYPE_STRING)
		a->level_text = xstrdup(config_setting_get_string(s));
	else {
		lab_ctx_error(c, lab_line_of(s), field,
		    _("expected a string or an integer"));
		return false;
	}
	return true;
}

/* metadata = "1.2"; also the unquoted 1.2 and 0.90 libconfig reads as floats.
 */
bool
lab_load_md_metadata(struct lab_ctx *c, const config_setting_t *s,
    const char *field, void *group)
{
	static const double vals[] = { 1.2, 0.9, 1.0, 1.1 };
	struct lab_array *a = group;
	double d;
	int i;

	if (config_setting_type(s) == CONFIG_TYPE_FLOAT) {
		d = config_setting_get_float(s);
		for (i = 0; i < 4; i++) {
			if (fabs(d - vals[i]) < 1e-9) {
				a->metadata = (enum lab_md_metadata)i;
				return true;
			}
		}
		lab_ctx_error(c, lab_line_of(s), field,
		    _("'%g' is not one of: 1.2, 0.90, 1.0, 1.1"), d);
		return false;
	}
	if (!lab_get_enum(c, s, field, lab_md_metadata_names, &i))
		return false;
	a->metadata = (enum lab_md_metadata)i;
	return true;
}

/* bitmap_chunk, unless the bitmap group gave its chunk already. */
bool
lab_load_bitmap_chunk(struct lab_ctx *c, const config_setting_t *s,
    const char *field, void *group)
{
	struct lab_array *a = group;

	if (lab_array_isset(a, LAB_A_BITMAP_CHUNK)) {
		lab_ctx_error(c, lab_line_of(s), field,
		    _("set twice: here and as chunk in the bitmap "
		      "group"));
		return false;
	}
	return lab_get_size(c, s, field, &a->bitmap_chunk);
}

static void
load_bitmap_group(struct lab_ctx *c, const config_setting_t *g,
    const char *field, struct lab_array *a)
{
	const config_setting_t *s;
	char f[LAB_PATH_MAX];

	lab_load_unknown_keys(c, g, bitmap_keys, field);
	if ((s = config_setting_get_member(g, "chunk")) != NULL &&
	    lab_get_size(c, s, lab_join(f, sizeof f, field, "chunk"),
		&a->bitmap_chunk))
		ASET(a, LAB_A_BITMAP_CHUNK, s);
	if ((s = config_setting_get_member(g, "file")) == NULL) {
		lab_ctx_error(c, lab_line_of(g),
		    lab_join(f, sizeof f, field, "file"),
		    _("missing: the bitmap group names the bitmap file"));
		return;
	}
	if (!lab_get_string(c, s, lab_join(f, sizeof f, field, "file"),
		&a->bitmap_file))
		return;
	if (a->bitmap_file[0] != '/') {
		lab_ctx_error(c, lab_line_of(s), f,
		    _("'%s' is not an absolute path"), a->bitmap_file);
		return;
	}
	a->bitmap = LAB_BITMAP_FILE;
	ASET(a, LAB_A_BITMAP_FILE, s);
	ASET(a, LAB_A_BITMAP, g);
}

static void
load_bitmap(struct lab_ctx *c, const config_setting_t *s, const char *prefix,
    struct lab_array *a)
{
	char field[LAB_PATH_MAX];
	int v;

	lab_join(field, sizeof field, prefix, "bitmap");
	if (config_setting_is_group(s)) {
		load_bitmap_group(c, s, field, a);
		return;
	}
	if (config_setting_type(s) != CONFIG_TYPE_STRING) {
		lab_ctx_error(c, lab_line_of(s), field,
		    _("expected \"none\", \"internal\" or a group "
		      "{ file = \"...\"; }"));
		return;
	}
	if (lab_get_enum(c, s, field, lab_bitmap_names, &v)) {
		a->bitmap = (enum lab_bitmap)v;
		ASET(a, LAB_A_BITMAP, s);
	}
}

static void
load_legs(struct lab_ctx *c, const config_setting_t *s, const char *prefix,
    struct lab_array *a)
{
	const config_setting_t *g;
	char field[LAB_PATH_MAX], idx[32];
	size_t i, n;

	lab_join(field, sizeof field, prefix, "legs");
	if (!config_setting_is_list(s) || config_setting_length(s) == 0) {
		lab_ctx_error(c, lab_line_of(s), field,
		    _("expected a list of groups: legs = ( { ... }, ... );"));
		return;
	}
	n = (size_t)config_setting_length(s);
	a->legs = xcalloc(n, sizeof *a->legs);
	for (i = 0; i < n; i++) {
		struct lab_array *leg = &a->legs[i];

		g = config_setting_get_elem(s, (unsigned)i);
		lab_array_init(leg);
		a->nlegs++;
		snprintf(idx, sizeof idx, "legs[%zu]", i);
		lab_join(leg->where, sizeof leg->where, a->where, idx);
		lab_join(field, sizeof field, prefix, idx);
		if (!config_setting_is_group(g)) {
			lab_ctx_error(c, lab_line_of(g), field,
			    _("expected a group"));
			continue;
		}
		lab_load_array(c, g, field, true, leg);
	}
	ASET(a, LAB_A_LEGS, s);
}

/* The keys read by hand: the bitmap mode or group, and the legs. */
static void
load_special(struct lab_ctx *c, const config_setting_t *s, const char *prefix,
    const struct lab_key *k, struct lab_array *a)
{
	if (k->field == LAB_A_BITMAP)
		load_bitmap(c, s, prefix, a);
	else if (k->field == LAB_A_LEGS)
		load_legs(c, s, prefix, a);
}

void
lab_load_array(struct lab_ctx *c, const config_setting_t *g, const char *prefix,
    bool leg, struct lab_array *a)
{
	const char *known[LAB_A__COUNT + 1];
	const config_setting_t *s;
	const struct lab_key *k;
	char f[LAB_PATH_MAX];

	a->line = lab_line_of(g);
	lab_key_names(lab_array_keys, leg ? LAB_KEY_NOT_LEG : 0, known,
	    LAB_A__COUNT + 1);
	lab_load_unknown_keys(c, g, known, prefix);
	for (k = lab_array_keys; k->name != NULL; k++) {
		if (lab_key_nested(k) ||
		    (leg && (k->flags & LAB_KEY_NOT_LEG)) ||
		    (s = config_setting_get_member(g, k->name)) == NULL)
			continue;
		if (k->kind == LAB_KEY_SPECIAL)
			load_special(c, s, prefix, k, a);
		else if (lab_key_load(c, k, s,
			     lab_join(f, sizeof f, prefix, k->name), a))
			ASET(a, k->field, s);
	}
	a->own = a->set;
}

/* ---------------------------------------------------------------- fs */

#define FSET(fs, f, s)                                                         \
	do {                                                                   \
		(fs)->lines[f] = lab_line_of(s);                               \
		(fs)->set |= LAB_BIT(f);                                       \
	} while (0)

static void
load_journal_group(struct lab_ctx *c, const config_setting_t *g,
    const char *field, struct lab_fs *fs)
{
	const config_setting_t *dev, *arr, *s;
	char f[LAB_PATH_MAX];

	lab_load_unknown_keys(c, g, journal_keys, field);
	dev = config_setting_get_member(g, "device");
	arr = config_setting_get_member(g, "array");
	if (dev != NULL && arr != NULL) {
		lab_ctx_error(c, lab_line_of(arr),
		    lab_join(f, sizeof f, field, "array"),
		    _("give a device or an array, not both"));
		return;
	}
	if ((s = config_setting_get_member(g, "size")) != NULL &&
	    lab_get_size(c, s, lab_join(f, sizeof f, field, "size"),
		&fs->journal_size))
		FSET(fs, LAB_F_JOURNAL_SIZE, s);
	if (dev != NULL) {
		lab_join(f, sizeof f, field, "device");
		if (!lab_get_string(c, dev, f, &fs->journal_device))
			return;
		if (lab_scratch_index(fs->journal_device) < 0 &&
		    fs->journal_device[0] != '/') {
			lab_ctx_error(c, lab_line_of(dev), f,
			    _("'%s' is neither a device path nor scratch:N"),
			    fs->journal_device);
			return;
		}
		fs->journal = LAB_JOURNAL_DEVICE;
		FSET(fs, LAB_F_JOURNAL_DEVICE, dev);
	} else if (arr != NULL) {
		lab_join(f, sizeof f, field, "array");
		if (!config_setting_is_group(arr)) {
			lab_ctx_error(c, lab_line_of(arr), f,
			    _("expected a group"));
			return;
		}
		fs->journal_array = xmalloc(sizeof *fs->journal_array);
		lab_array_init(fs->journal_array);
		snprintf(fs->journal_array->where,
		    sizeof fs->journal_array->where, "fs.journal.array");
		lab_load_array(c, arr, f, false, fs->journal_array);
		fs->journal = LAB_JOURNAL_ARRAY;
		FSET(fs, LAB_F_JOURNAL_ARRAY, arr);
	}
	FSET(fs, LAB_F_JOURNAL, g);
}

static void
load_journal(struct lab_ctx *c, const config_setting_t *s, const char *prefix,
    struct lab_fs *fs)
{
	char field[LAB_PATH_MAX];

	lab_join(field, sizeof field, prefix, "journal");
	if (config_setting_is_group(s)) {
		load_journal_group(c, s, field, fs);
		return;
	}
	if (config_setting_type(s) != CONFIG_TYPE_STRING ||
	    strcmp(config_setting_get_string(s), "internal") != 0) {
		lab_ctx_error(c, lab_line_of(s), field,
		    _("expected \"internal\" or a group { device = \"...\"; "
		      "} or { array = { ... }; }"));
		return;
	}
	fs->journal = LAB_JOURNAL_INTERNAL;
	FSET(fs, LAB_F_JOURNAL, s);
}

static bool
geometry_int(struct lab_ctx *c, const config_setting_t *g, const char *field,
    const char *key, int64_t *out)
{
	const config_setting_t *s = config_setting_get_member(g, key);
	char f[LAB_PATH_MAX];

	if (s == NULL)
		return false;
	return lab_get_int(c, s, lab_join(f, sizeof f, field, key), 1, 1 << 20,
	    out);
}

static void
load_geometry_group(struct lab_ctx *c, const config_setting_t *g,
    const char *field, struct lab_fs *fs)
{
	const config_setting_t *s;
	char f[LAB_PATH_MAX];
	bool ext, xfs;

	lab_load_unknown_keys(c, g, geometry_keys, field);
	ext = config_setting_get_member(g, "stride") != NULL ||
	    config_setting_get_member(g, "stripe_width") != NULL;
	xfs = config_setting_get_member(g, "su") != NULL ||
	    config_setting_get_member(g, "sw") != NULL;
	if (ext == xfs) {
		lab_ctx_error(c, lab_line_of(g), field,
		    ext ? _("give stride/stripe_width (ext) or su/sw (xfs), "
			    "not both")
			: _("expected stride/stripe_width (ext) or "
			    "su/sw (xfs)"));
		return;
	}
	fs->geometry = ext ? LAB_GEOMETRY_EXT : LAB_GEOMETRY_XFS;
	if (geometry_int(c, g, field, "stride", &fs->stride))
		FSET(fs, LAB_F_GEOMETRY_STRIDE,
		    config_setting_get_member(g, "stride"));
	if (geometry_int(c, g, field, "stripe_width", &fs->stripe_width))
		FSET(fs, LAB_F_GEOMETRY_STRIPE_WIDTH,
		    config_setting_get_member(g, "stripe_width"));
	if ((s = config_setting_get_member(g, "su")) != NULL &&
	    lab_get_size(c, s, lab_join(f, sizeof f, field, "su"), &fs->su))
		FSET(fs, LAB_F_GEOMETRY_SU, s);
	if (geometry_int(c, g, field, "sw", &fs->sw))
		FSET(fs, LAB_F_GEOMETRY_SW, config_setting_get_member(g, "sw"));
	FSET(fs, LAB_F_GEOMETRY, g);
}

static void
load_geometry(struct lab_ctx *c, const config_setting_t *s, const char *prefix,
    struct lab_fs *fs)
{
	char field[LAB_PATH_MAX];
	int v;

	lab_join(field, sizeof field, prefix, "geometry");
	if (config_setting_is_group(s)) {
		load_geometry_group(c, s, field, fs);
		return;
	}
	if (config_setting_type(s) != CONFIG_TYPE_STRING) {
		lab_ctx_error(c, lab_line_of(s), field,
		    _("expected \"auto\", \"none\" or a group"));
		return;
	}
	if (lab_get_enum(c, s, field, lab_geometry_names, &v)) {
		fs->geometry = (enum lab_geometry)v;
		FSET(fs, LAB_F_GEOMETRY, s);
	}
}

void
lab_load_fs(struct lab_ctx *c, const config_setting_t *g, const char *prefix,
    struct lab_fs *fs)
{
	const char *known[LAB_F__COUNT + 1];
	const config_setting_t *s;
	const struct lab_key *k;
	char f[LAB_PATH_MAX];

	fs->line = lab_line_of(g);
	lab_key_names(lab_fs_keys, 0, known, LAB_F__COUNT + 1);
	lab_load_unknown_keys(c, g, known, prefix);
	for (k = lab_fs_keys; k->name != NULL; k++) {
		if (lab_key_nested(k) ||
		    (s = config_setting_get_member(g, k->name)) == NULL)
			continue;
		if (k->field == LAB_F_JOURNAL)
			load_journal(c, s, prefix, fs);
		else if (k->field == LAB_F_GEOMETRY)
			load_geometry(c, s, prefix, fs);
		else if (lab_key_load(c, k, s,
			     lab_join(f, sizeof f, prefix, k->name), fs))
			FSET(fs, k->field, s);
	}
	fs->own = fs->set;
}

/* ---------------------------------------------------------------- level */

static void
resolve_md_level(struct lab_ctx *c, const char *field, struct lab_array *a)
{
	const char *t = a->level_text;

	if (strncmp(t, "raid", 4) == 0)
		t += 4;
	if (lab_md_level_parse(t, &a->md_level) < 0)
		lab_ctx_error(c, lab_array_line(a, LAB_A_LEVEL), field,
		    _("'%s' is not an md level (0, 1, 4, 5, 6, 10)"),
		    a->level_text);
}

void
lab_resolve_array(struct lab_ctx *c, const char *prefix, struct lab_array *a)
{
	char field[LAB_PATH_MAX], *choices;
	size_t i;

	snprintf(field, sizeof field, "%s.%s.level", prefix, a->where);
	if (lab_array_isset(a, LAB_A_LEVEL) && a->level_text != NULL) {
		if (a->engine == LAB_ENGINE_MD) {
			resolve_md_level(c, field, a);
		} else if (a->engine == LAB_ENGINE_BTRFS &&
		    lab_profile_parse(a->level_text, &a->profile) < 0) {
			choices = lab_choices(lab_profile_names);
			lab_ctx_error(c, lab_array_line(a, LAB_A_LEVEL), field,
			    _("'%s' is not a btrfs profile (%s)"),
			    a->level_text, choices);
			free(choices);
		}
	}
	for (i = 0; i < a->nlegs; i++) {
		a->legs[i].engine = LAB_ENGINE_MD;
		lab_resolve_array(c, prefix, &a->legs[i]);
	}
}
