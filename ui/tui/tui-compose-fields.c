/*
 * The Compose screen's form: the current variant as fields (only those
 * that mean something for its engine, level, bitmap, filesystem and
 * geometry), choices offered as lists wherever the values are known
 * (tui-compose-choices.c), defaults greyed, the nesting's legs and the
 * journal's own array included, and "back to the default" through the
 * lab-edit.h setters. The array and fs keys that are one plain line of
 * the schema (LAB_KEY_FORM in lab-schema.h) are fields CF_AKEY and
 * CF_FKEY + their field, labelled, offered, typed and set from the
 * table. Which field a lab_check() message belongs to is decided here
 * too, from the field paths of lab.h. UI thread.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/i18n.h"
#include "base/units.h"
#include "base/xalloc.h"
#include "build/geom.h"
#include "lab/lab-edit.h"
#include "lab/lab-schema.h"
#include "lab/lab.h"
#include "tui-compose.h"
#include "tui.h"

/* ---------------------------------------------------------------- fields */

enum ck { CK_NONE, CK_V, CK_A, CK_F, CK_ENTRY };

struct cfkey {
	enum ck kind;
	int f;
};

/* Which model key each field edits (paths, own/default, reset); the
   table keys' fields are mapped by cf_key(). */
static const struct cfkey cfmap[CF__COUNT] = {
	[CF_NAME] = { CK_V, LAB_V_NAME },
	[CF_DESC] = { CK_V, LAB_V_DESCRIPTION },
	[CF_TARGET] = { CK_ENTRY, -1 },
	[CF_DIRECTORY] = { CK_V, LAB_V_DIRECTORY },
	[CF_ENGINE] = { CK_A, LAB_A_ENGINE },
	[CF_LEVEL] = { CK_A, LAB_A_LEVEL },
	[CF_LEGS] = { CK_A, LAB_A_LEGS },
	[CF_LEG_LEVEL] = { CK_NONE, -1 },
	[CF_LEG_CHUNK] = { CK_NONE, -1 },
	[CF_LEG_INFO] = { CK_NONE, -1 },
	[CF_LAYOUT] = { CK_A, LAB_A_LAYOUT },
	[CF_CHUNK] = { CK_A, LAB_A_CHUNK },
	[CF_DEVICES] = { CK_A, LAB_A_DEVICES },
	[CF_SPARES] = { CK_A, LAB_A_SPARES },
	[CF_SCRATCH_COUNT] = { CK_V, LAB_V_SCRATCH_COUNT },
	[CF_SCRATCH_SIZE] = { CK_V, LAB_V_SCRATCH_SIZE },
	[CF_SCRATCH_DIR] = { CK_V, LAB_V_SCRATCH_DIR },
	[CF_BITMAP] = { CK_A, LAB_A_BITMAP },
	[CF_BITMAP_FILE] = { CK_A, LAB_A_BITMAP_FILE },
	[CF_BITMAP_CHUNK] = { CK_A, LAB_A_BITMAP_CHUNK },
	[CF_MD_JOURNAL] = { CK_A, LAB_A_JOURNAL },
	[CF_FSTYPE] = { CK_F, LAB_F_TYPE },
	[CF_FSJOURNAL] = { CK_F, LAB_F_JOURNAL },
	[CF_FSJOURNAL_DEV] = { CK_F, LAB_F_JOURNAL_DEVICE },
	[CF_FSJOURNAL_LEVEL] = { CK_NONE, -1 },
	[CF_FSJOURNAL_ARRAY] = { CK_F, LAB_F_JOURNAL_ARRAY },
	[CF_FSJOURNAL_SIZE] = { CK_F, LAB_F_JOURNAL_SIZE },
	[CF_GEOMETRY] = { CK_F, LAB_F_GEOMETRY },
	[CF_GEOMETRY_AUTO] = { CK_NONE, -1 },
	[CF_STRIDE] = { CK_F, LAB_F_GEOMETRY_STRIDE },
	[CF_STRIPE_WIDTH] = { CK_F, LAB_F_GEOMETRY_STRIPE_WIDTH },
	[CF_SU] = { CK_F, LAB_F_GEOMETRY_SU },
	[CF_SW] = { CK_F, LAB_F_GEOMETRY_SW },
	[CF_READAHEAD] = { CK_V, LAB_V_READAHEAD },
	[CF_PROBLEMS] = { CK_NONE, -1 },
};

static struct cfkey
cf_key(int id)
{
	if (id >= CF_AKEY && id <= CF_AKEY_END)
		return (struct cfkey){ CK_A, id - CF_AKEY };
	if (id >= CF_FKEY && id <= CF_FKEY_END)
		return (struct cfkey){ CK_F, id - CF_FKEY };
	return cfmap[id];
}

const struct lab_key *
compose_schema_key(int id, enum lab_v_field *group)
{
	if (id >= CF_AKEY && id <= CF_AKEY_END) {
		*group = LAB_V_ARRAY;
		return lab_array_schema((enum lab_a_field)(id - CF_AKEY));
	}
	if (id >= CF_FKEY && id <= CF_FKEY_END) {
		*group = LAB_V_FS;
		return lab_fs_schema((enum lab_f_field)(id - CF_FKEY));
	}
	return NULL;
}

static struct lab_variant *
cur_variant(const struct tui *t)
{
	if (t->lab == NULL || t->variant >= t->lab->nvariants)
		return NULL;
	return &t->lab->variants[t->variant];
}

/* The variant wrote the key itself (else it is a default: greyed). */
static bool
owns(const struct lab_variant *v, int id)
{
	struct cfkey m = cf_key(id);
	uint32_t bit = 1u << (unsigned)(m.f < 0 ? 0 : m.f);

	switch (m.kind) {
	case CK_V:
		return (v->own & bit) != 0;
	case CK_A:
		return (v->array.own & bit) != 0;
	case CK_F:
		return (v->fs.own & bit) != 0;
	default:
		return true;
	}
}

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* ---------------------------------------------------------------- build */

static void
choice(struct compose *s, const struct lab_variant *v, int id,
    const char *label)
{
	struct clist c;

	compose_choices(s, v, id, &c);
	tui_form_choice(s->form, id, label, (const char *const *)c.label, c.n,
	    c.cur, !owns(v, id));
	compose_clist_done(&c);
}

static void
text(struct compose *s, const struct lab_variant *v, int id, const char *label,
    const char *value, const char *dflt)
{
	tui_form_text(s->form, id, label, value,
	    value == NULL || *value == '\0' ? dflt : NULL, !owns(v, id));
}

/* "scratch:0..3" for a run of scratch disks, else the names. */
static char *
devices_text(const struct lab_strv *sv)
{
	char *out = xstrdup(""), *t;
	size_t i;

	for (i = 0; i < sv->n; i++)
		if (lab_scratch_index(sv->v[i]) != (int)i)
			break;
	if (i == sv->n && sv->n > 2) {
		free(out);
		return xasprintf("scratch:0..%zu (%zu)", sv->n - 1, sv->n);
	}
	for (i = 0; i < sv->n; i++) {
		t = xasprintf("%s%s%s", out, i ? " " : "", sv->v[i]);
		free(out);
		out = t;
	}
	return out;
}

/* A nested array's members: its legs' devices, in order. */
static char *
legs_devices_text(const struct lab_array *a)
{
	struct lab_strv all = { 0 };
	size_t n = 0;
	char *d, *text;

	for (size_t i = 0; i < a->nlegs; i++)
		n += a->legs[i].devices.n;
	all.v = xcalloc(n + 1, sizeof *all.v);
	for (size_t i = 0; i < a->nlegs; i++)
		for (size_t k = 0; k < a->legs[i].devices.n; k++)
			all.v[all.n++] = a->legs[i].devices.v[k];
	d = devices_text(&all);
	text = xasprintf(_("%s over %zu legs"), d, a->nlegs);
	free(d);
	free(all.v);
	return text;
}

static void
devices_field(struct compose *s, const struct lab_variant *v, int id)
{
	const struct lab_array *a = &v->array;
	const struct lab_strv *sv = id == CF_DEVICES ? &a->devices : &a->spares;
	char *text;

	if (sv->n > 0)
		text = devices_text(sv);
	else if (id == CF_DEVICES && a->nlegs > 0)
		text = legs_devices_text(a);
	else if (id == CF_DEVICES && lab_variant_isset(v, LAB_V_SCRATCH) &&
	    compose_members(v) == (unsigned)v->scratch_count)
		text = xasprintf(_("every scratch disk (%lld)"),
		    (long long)v->scratch_count);
	else if (id == CF_DEVICES && lab_variant_isset(v, LAB_V_SCRATCH))
		text = xasprintf(_("the other scratch disks (%u)"),
		    compose_members(v));
	else
		text = xstrdup(_("none: Enter picks"));
	tui_form_button(s->form, id,
	    id == CF_DEVICES ? _("devices") : _("spares"), text, !owns(v, id));
	free(text);
	s->shown[id] = true;
}

static void
show(struct compose *s, int id)
{
	s->shown[id] = true;
}

/*
 * A table key's field, when it is a plain one (LAB_KEY_FORM): a choice
 * for a bool or an enum, typed text for the rest, showing .unset (else
 * the default) when the variant has no value.
 */
static bool
key_field(struct compose *s, const struct lab_variant *v, int id)
{
	enum lab_v_field g = LAB_V_ARRAY;
	const struct lab_key *k = compose_schema_key(id, &g);
	const void *grp = &v->array;
	const char *val, *dflt;
	bool isset;
	char buf[32];

	if (k == NULL || !(k->flags & LAB_KEY_FORM))
		return false;
	if (g == LAB_V_FS)
		grp = &v->fs;
	isset = g == LAB_V_ARRAY ? lab_array_isset(&v->array, k->field)
				 : lab_fs_isset(&v->fs, k->field);
	dflt = k->unset != NULL ? _(k->unset) : NULL;
	if (k->kind == LAB_KEY_BOOL || k->kind == LAB_KEY_ENUM) {
		choice(s, v, id, _(k->label));
	} else {
		val = lab_key_text(k, grp, buf, sizeof buf);
		if (k->kind != LAB_KEY_STRING && !isset && dflt != NULL)
			val = NULL;
		text(s, v, id, _(k->label), val, dflt);
	}
	show(s, id);
	return true;
}

/* The keys after the members, in table order, where they apply. */
static void
tail_fields(struct compose *s, const struct lab_variant *v)
{
	const struct lab_array *a = &v->array;

	for (int i = LAB_A_METADATA; i < LAB_A__COUNT; i++) {
		enum lab_a_field f = (enum lab_a_field)i;

		if (f == LAB_A_LEGS || !lab_edit_array_applies(a, f) ||
		    key_field(s, v, CF_AKEY + (int)f))
			continue;
		if (f == LAB_A_BITMAP) {
			choice(s, v, CF_BITMAP, _("bitmap"));
			show(s, CF_BITMAP);
		} else if (f == LAB_A_BITMAP_FILE) {
			text(s, v, CF_BITMAP_FILE, _("bitmap file"),
			    a->bitmap_file, NULL);
			show(s, CF_BITMAP_FILE);
		} else if (f == LAB_A_BITMAP_CHUNK) {
			choice(s, v, CF_BITMAP_CHUNK, _("bitmap chunk"));
			show(s, CF_BITMAP_CHUNK);
		} else if (f == LAB_A_JOURNAL) {
			choice(s, v, CF_MD_JOURNAL, _("write journal"));
			show(s, CF_MD_JOURNAL);
		}
	}
}

/* A leg's devices; its level and chunk too when the legs differ. */
static void
leg_info(struct compose *s, const struct lab_array *l, size_t i, bool mixed)
{
	char *label = xasprintf(_("leg %zu"), i);
	char *d = devices_text(&l->devices), *text = d, cb[UNITS_BUF];

	if (mixed && l->md_level == LAB_MD_LEVEL_1)
		text = xasprintf(_("RAID1: %s"), d);
	else if (mixed)
		text = xasprintf(_("RAID%d, chunk %s: %s"),
		    lab_md_level_number(l->md_level),
		    l->chunk ? units_format_exact(l->chunk, cb, sizeof cb)
			     : _("default"),
		    d);
	tui_form_info(s->form, CF_LEG_INFO, label, text);
	if (text != d)
		free(text);
	free(label);
	free(d);
}

/* "RAID0+1: a RAID1 over 2 RAID0 legs", then each leg's devices. */
static void
leg_fields(struct compose *s, const struct lab_variant *v)
{
	const struct lab_array *a = &v->array;
	int top = lab_md_level_number(a->md_level);
	int leg = a->nlegs > 0 ? lab_md_level_number(a->legs[0].md_level) : 0;
	bool mixed =
	    lab_legs_differ(a, LAB_A_LEVEL) || lab_legs_differ(a, LAB_A_CHUNK);
	char *text;

	if (!lab_edit_array_applies(a, LAB_A_LEGS) && a->nlegs == 0)
		return;
	choice(s, v, CF_LEGS, _("nested legs"));
	show(s, CF_LEGS);
	if (a->nlegs == 0)
		return;
	choice(s, v, CF_LEG_LEVEL, _("leg level"));
	show(s, CF_LEG_LEVEL);
	if (a->legs[0].md_level != LAB_MD_LEVEL_1 || mixed) {
		choice(s, v, CF_LEG_CHUNK, _("leg chunk"));
		show(s, CF_LEG_CHUNK);
	}
	if (mixed)
		text = xasprintf(_("a RAID%d over %zu legs that differ"), top,
		    a->nlegs);
	else
		text = xasprintf(_("RAID%d+%d: a RAID%d over %zu RAID%d legs, "
				   "the members split in order"),
		    leg, top, top, a->nlegs, leg);
	tui_form_info(s->form, CF_LEG_INFO, "", text);
	free(text);
	for (size_t i = 0; i < a->nlegs; i++)
		leg_info(s, &a->legs[i], i, mixed);
	show(s, CF_LEG_INFO);
}

static void
scratch_fields(struct compose *s, const struct lab_variant *v)
{
	choice(s, v, CF_SCRATCH_COUNT, _("scratch disks"));
	show(s, CF_SCRATCH_COUNT);
	if (!lab_variant_isset(v, LAB_V_SCRATCH))
		return;
	choice(s, v, CF_SCRATCH_SIZE, _("scratch size"));
	text(s, v, CF_SCRATCH_DIR, _("scratch dir"), v->scratch_dir,
	    LAB_SCRATCH_DIR_DEFAULT);
	show(s, CF_SCRATCH_SIZE);
	show(s, CF_SCRATCH_DIR);
}

static void
array_fields(struct compose *s, const struct lab_variant *v)
{
	const struct lab_array *a = &v->array;
	static const struct {
		int id;
		enum lab_a_field f;
		const char *label;
	} opt[] = {
		{ CF_LEVEL, LAB_A_LEVEL, N_("level") },
		{ -1, LAB_A_METADATA_PROFILE, NULL }, /* a table field */
		{ CF_LAYOUT, LAB_A_LAYOUT, N_("layout") },
		{ CF_CHUNK, LAB_A_CHUNK, N_("chunk") },
	};

	tui_form_heading(s->form, _("Array"));
	choice(s, v, CF_ENGINE, _("engine"));
	show(s, CF_ENGINE);
	for (size_t i = 0; i < N(opt); i++) {
		if (!lab_edit_array_applies(a, opt[i].f) ||
		    key_field(s, v, CF_AKEY + (int)opt[i].f))
			continue;
		choice(s, v, opt[i].id, _(opt[i].label));
		show(s, opt[i].id);
		if (opt[i].id == CF_LEVEL && a->engine == LAB_ENGINE_MD)
			leg_fields(s, v);
	}
	devices_field(s, v, CF_DEVICES);
	if (lab_edit_array_applies(a, LAB_A_SPARES))
		devices_field(s, v, CF_SPARES);
	scratch_fields(s, v);
	tail_fields(s, v);
}

static void
geometry_fields(struct compose *s, const struct lab_variant *v)
{
	const struct lab_fs *fs = &v->fs;
	char b[32], u[UNITS_BUF];

	if (!lab_edit_fs_applies(v, LAB_F_GEOMETRY))
		return;
	choice(s, v, CF_GEOMETRY, _("geometry"));
	show(s, CF_GEOMETRY);
	if (fs->geometry == LAB_GEOMETRY_AUTO) {
		tui_form_info(s->form, CF_GEOMETRY_AUTO, "",
		    s->geometry != NULL ? s->geometry
					: _("computed once the variant is "
					    "valid"));
		return;
	}
	if (fs->geometry == LAB_GEOMETRY_EXT) {
		snprintf(b, sizeof b, "%lld", (long long)fs->stride);
		text(s, v, CF_STRIDE, _("stride"), b, NULL);
		snprintf(b, sizeof b, "%lld", (long long)fs->stripe_width);
		text(s, v, CF_STRIPE_WIDTH, _("stripe width"), b, NULL);
		show(s, CF_STRIDE);
		show(s, CF_STRIPE_WIDTH);
	} else if (fs->geometry == LAB_GEOMETRY_XFS) {
		text(s, v, CF_SU, _("su"),
		    units_format_exact(fs->su, u, sizeof u), NULL);
		snprintf(b, sizeof b, "%lld", (long long)fs->sw);
		text(s, v, CF_SW, _("sw"), b, NULL);
		show(s, CF_SU);
		show(s, CF_SW);
	}
}

/* The fs keys that are plain table lines, in table order, where they
   apply: those the form shows before the geometry, or (last) after. */
static void
fs_key_fields(struct compose *s, const struct lab_variant *v, bool last)
{
	for (int i = 0; i < LAB_F__COUNT; i++) {
		enum lab_f_field f = (enum lab_f_field)i;
		const struct lab_key *k = lab_fs_schema(f);

		if (((k->flags & LAB_KEY_FORM_LAST) != 0) == last &&
		    lab_edit_fs_applies(v, f))
			(void)key_field(s, v, CF_FKEY + i);
	}
}

static void
fs_fields(struct compose *s, const struct lab_variant *v)
{
	const struct lab_fs *fs = &v->fs;
	bool xfs = lab_edit_fs_built(v) == LAB_FS_XFS;

	tui_form_heading(s->form, _("Filesystem"));
	if (v->array.engine == LAB_ENGINE_BTRFS)
		tui_form_info(s->form, CF_FSTYPE, _("type"),
		    _("btrfs (the engine makes it)"));
	else
		choice(s, v, CF_FSTYPE, _("type"));
	show(s, CF_FSTYPE);
	if (lab_edit_fs_applies(v, LAB_F_JOURNAL)) {
		choice(s, v, CF_FSJOURNAL, xfs ? _("log") : _("journal"));
		show(s, CF_FSJOURNAL);
		if (fs->journal == LAB_JOURNAL_DEVICE) {
			choice(s, v, CF_FSJOURNAL_DEV,
			    xfs ? _("log device") : _("journal device"));
			show(s, CF_FSJOURNAL_DEV);
		}
		if (fs->journal == LAB_JOURNAL_ARRAY && fs->journal_array) {
			char *d = devices_text(&fs->journal_array->devices);

			choice(s, v, CF_FSJOURNAL_LEVEL,
			    xfs ? _("log array level") : _("journal level"));
			tui_form_button(s->form, CF_FSJOURNAL_ARRAY,
			    xfs ? _("log array") : _("journal array"), d,
			    false);
			free(d);
			show(s, CF_FSJOURNAL_LEVEL);
			show(s, CF_FSJOURNAL_ARRAY);
		}
		choice(s, v, CF_FSJOURNAL_SIZE,
		    xfs ? _("log size") : _("journal size"));
		show(s, CF_FSJOURNAL_SIZE);
	}
	fs_key_fields(s, v, false);
	geometry_fields(s, v);
	fs_key_fields(s, v, true);
}

/*
 * The form's field list. The keys that are one plain schema line come
 * from the table (key_field(): assume clean, superblock, the metadata
 * profile, the data mode, the mkfs and mount options, and any key given
 * LAB_KEY_FORM later). The rest stay special, each with its own code
 * here and in tui-compose-choices.c and tui-compose-apply.c, because
 * choosing them changes other keys or they need a picker or a shape of
 * their own: engine, level, layout, chunk (the level's sizes), the
 * nesting, devices and spares (the picker), the scratch group, bitmap,
 * the md write journal, the fs type, the journal or log placement and
 * its device, array and size (labelled for xfs), the geometry, and
 * readahead.
 */
void
compose_fields(struct compose *s, struct tui *t)
{
	struct lab_variant *v = cur_variant(t);

	memset(s->shown, 0, sizeof s->shown);
	if (v == NULL)
		return;
	tui_form_heading(s->form, _("Variant"));
	text(s, v, CF_NAME, _("name"), v->name, _("(no name)"));
	/* "(no description)", dim: a word "none" would read as the text. */
	tui_form_text(s->form, CF_DESC, _("description"), v->description,
	    v->description == NULL || *v->description == '\0'
		? _("(no description)")
		: NULL,
	    !owns(v, CF_DESC) || v->description == NULL ||
		*v->description == '\0');
	choice(s, v, CF_TARGET, _("target"));
	show(s, CF_NAME);
	show(s, CF_DESC);
	show(s, CF_TARGET);
	if (compose_is_directory(v)) {
		/* As written (%u kept): what the lab file gets. */
		text(s, v, CF_DIRECTORY, _("directory"),
		    v->directory_text ? v->directory_text : v->directory, NULL);
		show(s, CF_DIRECTORY);
		return;
	}
	array_fields(s, v);
	fs_fields(s, v);
	choice(s, v, CF_READAHEAD, _("readahead"));
	show(s, CF_READAHEAD);
}

/* ---------------------------------------------------------------- paths */

static const char *
path_of(const struct lab_variant *v, int id, char *buf, size_t len)
{
	struct cfkey m = cf_key(id);

	switch (m.kind) {
	case CK_V:
		return lab_variant_path(v, m.f, buf, len);
	case CK_A:
		return lab_array_path(v, &v->array, m.f, buf, len);
	case CK_F:
		return lab_fs_path(v, m.f, buf, len);
	case CK_ENTRY:
		return lab_variant_path(v, -1, buf, len);
	default:
		return NULL;
	}
}

int
compose_field_of(struct compose *s, const struct tui *t, const char *field)
{
	const struct lab_variant *v = cur_variant(t);
	char p[LAB_PATH_MAX];
	size_t best = 0;
	int id = -1;

	if (v == NULL)
		return -1;
	for (int i = 0; i < CF__COUNT; i++) {
		size_t k;

		if (!s->shown[i] || path_of(v, i, p, sizeof p) == NULL)
			continue;
		k = strlen(p);
		if (strcmp(field, p) == 0)
			return i;
		/* A key inside this one (bitmap.file, legs[0].chunk); the
		   entry itself takes exact matches only. */
		if (cf_key(i).kind != CK_ENTRY && k > best &&
		    strncmp(field, p, k) == 0 &&
		    (field[k] == '.' || field[k] == '['))
			best = k, id = i;
	}
	return id;
}

/* ---------------------------------------------------------------- events */

int
compose_reset(struct tui *t, int id, struct err *e)
{
	struct lab_variant *v = cur_variant(t);
	size_t vi = t->variant;
	struct cfkey m = cf_key(id);
	int f = m.f;

	if (v == NULL)
		return -ERANGE;
	switch (m.kind) {
	case CK_V:
		if (f == LAB_V_NAME)
			return err_set(e, -EINVAL, NULL, 0, NULL, "%s",
			    _("a variant keeps its name: type another one"));
		return lab_edit_variant_reset(t->lab, vi, (enum lab_v_field)f);
	case CK_A:
		return lab_edit_array_reset(t->lab, vi, (enum lab_a_field)f);
	case CK_F:
		return lab_edit_fs_reset(t->lab, vi, (enum lab_f_field)f);
	case CK_NONE: /* the legs' chunk is the one default among these */
		return id == CF_LEG_CHUNK ? lab_edit_leg_chunk(t->lab, vi, 0)
					  : 0;
	case CK_ENTRY:
		if (owns(v, CF_DIRECTORY) &&
		    (v->own & (1u << LAB_V_DIRECTORY)) != 0)
			return lab_edit_variant_reset(t->lab, vi,
			    LAB_V_DIRECTORY);
		return 0;
	default:
		return 0;
	}
}
