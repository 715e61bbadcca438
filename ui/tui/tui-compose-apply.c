/*
 * The Compose screen's form events applied to the current variant: a
 * choice, typed text or "back to the default" becomes a lab-edit.h
 * setter call. Choices that need more than the value chosen (a bitmap
 * file, a journal device, the numbers of a geometry given by hand) start
 * from a sensible value the user then edits. UI thread.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/i18n.h"
#include "base/strbuf.h"
#include "base/units.h"
#include "base/xalloc.h"
#include "lab/lab-edit.h"
#include "lab/lab-schema.h"
#include "lab/lab.h"
#include "tui-compose.h"
#include "tui.h"

/* Size text as typed or chosen; an error names the field. */
static int
size_of(const char *text, uint64_t *out, struct err *e)
{
	if (units_parse_size(text, out) < 0)
		return err_set(e, -EINVAL, NULL, 0, NULL,
		    _("'%s' is not a size (like 4K, 64M, 2G)"), text);
	return 0;
}

static int
number_of(const char *text, uint64_t *out, struct err *e)
{
	char *end;
	unsigned long long n;

	n = strtoull(text, &end, 10);
	if (end == text || *end != '\0' || text[0] == '-')
		return err_set(e, -EINVAL, NULL, 0, NULL,
		    _("'%s' is not a number"), text);
	*out = n;
	return 0;
}

/*
 * Up to want devices for an external journal or log, into at[] (indexes
 * of s->cands, in the picker's order); returns how many. The journal
 * device the variant has comes first; then unused devices of the kind
 * the variant is built on (a variant on scratch disks never gets a real
 * disk offered to wipe); then scratch disks that are members only
 * because no device list is given, from the last (naming one elsewhere
 * takes it out of the array).
 */
static size_t
free_devices(struct compose *s, const struct lab_variant *v, size_t *at,
    size_t want)
{
	bool scratch = lab_variant_isset(v, LAB_V_SCRATCH);
	const char *had =
	    v->fs.journal == LAB_JOURNAL_DEVICE ? v->fs.journal_device : NULL;
	size_t n = 0;

	compose_cands(s, v, true);
	for (size_t i = 0; i < s->ncands && n < want; i++)
		if (had != NULL && strcmp(s->cands[i].dev, had) == 0)
			at[n++] = i;
	for (size_t i = 0; i < s->ncands && n < want; i++)
		if (s->cands[i].state == ' ' && !s->cands[i].busy &&
		    (lab_scratch_index(s->cands[i].dev) >= 0) == scratch)
			at[n++] = i;
	for (size_t i = s->ncands; i-- > 0 && n < want;)
		if (s->cands[i].implicit)
			at[n++] = i;
	for (size_t i = 1; i < n; i++) /* insertion sort: a few entries */
		for (size_t k = i; k > 0 && at[k - 1] > at[k]; k--) {
			size_t x = at[k];

			at[k] = at[k - 1];
			at[k - 1] = x;
		}
	return n;
}

/* Something to start from: an array of two 1G scratch disks, RAID1. */
void
compose_starting_point(struct tui *t, size_t i)
{
	struct lab_variant *v = &t->lab->variants[i];

	if (!lab_variant_isset(v, LAB_V_ARRAY) &&
	    !lab_variant_isset(v, LAB_V_DIRECTORY))
		lab_edit_target(t->lab, i, LAB_V_ARRAY, NULL, NULL);
	if (v->directory != NULL)
		return;
	if (!lab_variant_isset(v, LAB_V_SCRATCH) &&
	    !lab_array_isset(&v->array, LAB_A_DEVICES) && v->array.nlegs == 0) {
		lab_edit_scratch_count(t->lab, i, 2, NULL);
		lab_edit_scratch_size(t->lab, i, 1ULL << 30);
	}
	if (!lab_array_isset(&v->array, LAB_A_LEVEL) &&
	    v->array.engine == LAB_ENGINE_MD)
		lab_edit_md_level(t->lab, i, LAB_MD_LEVEL_1);
}

/*
 * A new directory variant's default: the user's own (%u), in /var/tmp
 * where anyone may make a directory first; a % in the variant's name
 * is doubled so that it stays a %.
 */
static char *
default_directory(const struct lab_variant *v)
{
	const char *name = v->name ? v->name : "dir";
	struct strbuf b;

	strbuf_init(&b);
	strbuf_add(&b, "/var/tmp/raidlab-%u-");
	for (const char *p = name; *p != '\0'; p++)
		strbuf_printf(&b, "%s%c", *p == '%' ? "%" : "", *p);
	return strbuf_take(&b);
}

static int
apply_target(struct tui *t, const struct lab_variant *v, const char *val,
    struct err *e)
{
	char *dir;
	int rc;

	if (strcmp(val, "array") == 0) {
		rc = lab_edit_target(t->lab, t->variant, LAB_V_ARRAY, NULL, e);
		if (rc == 0)
			compose_starting_point(t, t->variant);
		return rc;
	}
	dir = v->directory != NULL
	    ? xstrdup(v->directory_text ? v->directory_text : v->directory)
	    : default_directory(v);
	rc = lab_edit_target(t->lab, t->variant, LAB_V_DIRECTORY, dir, e);
	free(dir);
	return rc;
}

/* Scratch disks need a size: 1G unless one is given or inherited. */
static int
apply_count(struct tui *t, const struct lab_variant *v, const char *val,
    struct err *e)
{
	bool sized = lab_variant_isset(v, LAB_V_SCRATCH_SIZE);
	int rc;

	rc = lab_edit_scratch_count(t->lab, t->variant, atoll(val), e);
	if (rc == 0 && !sized)
		rc = lab_edit_scratch_size(t->lab, t->variant, 1ULL << 30);
	return rc;
}

/* Geometry by hand starts from what auto would compute. */
static int
apply_geometry(struct compose *s, struct tui *t, const struct lab_variant *v,
    const char *val, struct err *e)
{
	size_t vi = t->variant;
	int rc;

	if (strcmp(val, "auto") == 0)
		return lab_edit_geometry(t->lab, vi, LAB_GEOMETRY_AUTO, e);
	if (strcmp(val, "none") == 0)
		return lab_edit_geometry(t->lab, vi, LAB_GEOMETRY_NONE, e);
	if (!s->geom_ok)
		return err_set(e, -EINVAL, NULL, 0, NULL, "%s",
		    _("this array has no stripe to describe (a mirror, or "
		      "not valid yet)"));
	if (lab_edit_fs_built(v) == LAB_FS_XFS) {
		rc = lab_edit_geometry_value(t->lab, vi, LAB_F_GEOMETRY_SU,
		    s->su, e);
		return rc < 0 ? rc
			      : lab_edit_geometry_value(t->lab, vi,
				    LAB_F_GEOMETRY_SW, s->sw, e);
	}
	rc = lab_edit_geometry_value(t->lab, vi, LAB_F_GEOMETRY_STRIDE,
	    s->stride, e);
	return rc < 0 ? rc
		      : lab_edit_geometry_value(t->lab, vi,
			    LAB_F_GEOMETRY_STRIPE_WIDTH, s->stripe_width, e);
}

/* A journal or log on an md RAID1 of its own, over two free_devices(). */
static int
journal_array(struct compose *s, struct tui *t, const struct lab_variant *v,
    struct err *e)
{
	size_t at[2], n = free_devices(s, v, at, 2);
	const char *two[2];

	for (size_t i = 0; i < n; i++)
		two[i] = s->cands[at[i]].dev;
	if (n < 2)
		return err_set(e, -EINVAL, NULL, 0, NULL, "%s",
		    _("a mirrored log needs 2 devices no array uses: add "
		      "scratch disks"));
	return lab_edit_journal_array(t->lab, t->variant, LAB_MD_LEVEL_1, two,
	    2, e);
}

static int
apply_fs_journal(struct compose *s, struct tui *t, const struct lab_variant *v,
    const char *val, struct err *e)
{
	const char *dev;
	size_t at;

	if (strcmp(val, "internal") == 0)
		return lab_edit_fs_journal(t->lab, t->variant,
		    LAB_JOURNAL_INTERNAL, NULL, e);
	if (strcmp(val, "array") == 0)
		return journal_array(s, t, v, e);
	dev = v->fs.journal_device;
	if (dev == NULL && free_devices(s, v, &at, 1) == 1)
		dev = s->cands[at].dev;
	if (dev == NULL)
		return err_set(e, -EINVAL, NULL, 0, NULL, "%s",
		    _("no free device for it: add a scratch disk"));
	return lab_edit_fs_journal(t->lab, t->variant, LAB_JOURNAL_DEVICE, dev,
	    e);
}

static int
apply_bitmap(struct tui *t, const struct lab_variant *v, const char *val,
    struct err *e)
{
	enum lab_bitmap b;
	char *file;
	int rc;

	if (strcmp(val, "file") != 0) {
		if (lab_bitmap_parse(val, &b) < 0)
			return -EINVAL;
		return lab_edit_bitmap(t->lab, t->variant, b, NULL, e);
	}
	file = v->array.bitmap_file != NULL
	    ? xstrdup(v->array.bitmap_file)
	    : xasprintf("/var/tmp/raidlab-%s.bitmap",
		  v->name != NULL ? v->name : "md");
	rc = lab_edit_bitmap(t->lab, t->variant, LAB_BITMAP_FILE, file, e);
	free(file);
	return rc;
}

static int
apply_level(struct tui *t, const struct lab_variant *v, const char *val)
{
	enum lab_md_level l;
	enum lab_profile p;

	if (v->array.engine == LAB_ENGINE_MD) {
		if (lab_md_level_parse(val, &l) < 0)
			return -EINVAL;
		return lab_edit_md_level(t->lab, t->variant, l);
	}
	if (lab_profile_parse(val, &p) < 0)
		return -EINVAL;
	return lab_edit_profile(t->lab, t->variant, p);
}

/* A size-valued choice. */
static int
apply_size(struct tui *t, int id, const char *val, struct err *e)
{
	size_t vi = t->variant;
	uint64_t n;
	int rc = size_of(val, &n, e);

	if (rc < 0)
		return rc;
	switch (id) {
	case CF_CHUNK:
		return lab_edit_chunk(t->lab, vi, n);
	case CF_SCRATCH_SIZE:
		return lab_edit_scratch_size(t->lab, vi, n);
	case CF_BITMAP_CHUNK:
		return lab_edit_bitmap_chunk(t->lab, vi, n);
	case CF_FSJOURNAL_SIZE:
		return lab_edit_journal_size(t->lab, vi, n);
	case CF_READAHEAD:
		return lab_edit_readahead(t->lab, vi, n);
	case CF_LEG_CHUNK:
		return lab_edit_leg_chunk(t->lab, vi, n);
	default:
		return -EINVAL;
	}
}

static int
apply_enum(struct tui *t, int id, const char *val)
{
	size_t vi = t->variant;
	union {
		enum lab_engine eng;
		enum lab_fs_type ft;
	} u;

	switch (id) {
	case CF_ENGINE:
		return lab_engine_parse(val, &u.eng) < 0
		    ? -EINVAL
		    : lab_edit_engine(t->lab, vi, u.eng);
	case CF_FSTYPE:
		return lab_fs_type_parse(val, &u.ft) < 0
		    ? -EINVAL
		    : lab_edit_fs_type(t->lab, vi, u.ft);
	default:
		return -EINVAL;
	}
}

static int
apply_choice(struct compose *s, struct tui *t, const struct lab_variant *v,
    int id, const char *val, struct err *e)
{
	const struct lab_key *k;
	enum lab_v_field g;
	enum lab_md_level l;

	switch (id) {
	case CF_TARGET:
		return apply_target(t, v, val, e);
	case CF_LEVEL:
		return apply_level(t, v, val);
	case CF_LEGS:
		return lab_edit_legs(t->lab, t->variant, strtoul(val, NULL, 10),
		    e);
	case CF_LEG_LEVEL:
		return lab_md_level_parse(val, &l) < 0
		    ? -EINVAL
		    : lab_edit_leg_level(t->lab, t->variant, l);
	case CF_FSJOURNAL_LEVEL:
		if (lab_md_level_parse(val, &l) < 0 ||
		    v->fs.journal_array == NULL)
			return -EINVAL;
		return lab_edit_journal_array(t->lab, t->variant, l,
		    (const char *const *)v->fs.journal_array->devices.v,
		    v->fs.journal_array->devices.n, e);
	case CF_LAYOUT:
		return lab_edit_layout(t->lab, t->variant, val, e);
	case CF_SCRATCH_COUNT:
		return apply_count(t, v, val, e);
	case CF_BITMAP:
		return apply_bitmap(t, v, val, e);
	case CF_MD_JOURNAL:
		return lab_edit_md_journal(t->lab, t->variant, val, e);
	case CF_FSJOURNAL:
		return apply_fs_journal(s, t, v, val, e);
	case CF_FSJOURNAL_DEV:
		return lab_edit_fs_journal(t->lab, t->variant,
		    LAB_JOURNAL_DEVICE, val, e);
	case CF_GEOMETRY:
		return apply_geometry(s, t, v, val, e);
	case CF_CHUNK:
	case CF_SCRATCH_SIZE:
	case CF_BITMAP_CHUNK:
	case CF_FSJOURNAL_SIZE:
	case CF_READAHEAD:
	case CF_LEG_CHUNK:
		return apply_size(t, id, val, e);
	default:
		if ((k = compose_schema_key(id, &g)) != NULL)
			return lab_edit_key_value(t->lab, t->variant, g,
			    k->field, strtoll(val, NULL, 10), e);
		return apply_enum(t, id, val);
	}
}

static int
apply_text(struct tui *t, int id, const char *text, struct err *e)
{
	size_t vi = t->variant;
	const struct lab_key *k;
	enum lab_v_field g;
	uint64_t n;
	int rc;

	switch (id) {
	case CF_NAME:
		return lab_edit_variant_rename(t->lab, vi, text, e);
	case CF_DESC:
		return lab_edit_description(t->lab, vi, text);
	case CF_DIRECTORY:
		return lab_edit_target(t->lab, vi, LAB_V_DIRECTORY, text, e);
	case CF_SCRATCH_DIR:
		return lab_edit_scratch_dir(t->lab, vi, text, e);
	case CF_BITMAP_FILE:
		return lab_edit_bitmap(t->lab, vi, LAB_BITMAP_FILE, text, e);
	case CF_SU:
		if ((rc = size_of(text, &n, e)) < 0)
			return rc;
		return lab_edit_geometry_value(t->lab, vi, LAB_F_GEOMETRY_SU, n,
		    e);
	case CF_STRIDE:
	case CF_STRIPE_WIDTH:
	case CF_SW:
		if ((rc = number_of(text, &n, e)) < 0)
			return rc;
		return lab_edit_geometry_value(t->lab, vi,
		    id == CF_STRIDE   ? LAB_F_GEOMETRY_STRIDE
			: id == CF_SW ? LAB_F_GEOMETRY_SW
				      : LAB_F_GEOMETRY_STRIPE_WIDTH,
		    n, e);
	default:
		if ((k = compose_schema_key(id, &g)) != NULL)
			return lab_edit_key_text(t->lab, vi, g, k->field, text,
			    e);
		return -EINVAL;
	}
}

int
compose_apply(struct compose *s, struct tui *t, int event,
    const struct tui_form_ev *ev, struct err *e)
{
	const struct lab_variant *v;
	char *val = NULL;
	int rc;

	if (t->lab == NULL || t->variant >= t->lab->nvariants)
		return -ERANGE;
	v = &t->lab->variants[t->variant];
	switch (event) {
	case TUI_FORM_CHOSE:
		if (!compose_choice_value(s, v, ev->id, ev->choice, &val))
			return -EINVAL;
		rc = val == NULL ? compose_reset(t, ev->id, e)
		    : strcmp(val, CL_KEEP) == 0
		    ? 0
		    : apply_choice(s, t, v, ev->id, val, e);
		free(val);
		return rc;
	case TUI_FORM_EDITED:
		return apply_text(t, ev->id, ev->text, e);
	case TUI_FORM_RESET:
		return compose_reset(t, ev->id, e);
	default:
		return 0;
	}
}
