/*
 * The Compose screen's form: the current variant as fields (only those
 * that mean something for its engine, level, bitmap, filesystem and
 * geometry), choices offered as lists wherever the values are known,
 * defaults greyed, and the form's events applied to the model through
 * the lab-edit.h setters. Which field a lab_check() message belongs to is
 * decided here too, from the field paths of lab.h. UI thread.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "geom.h"
#include "i18n.h"
#include "lab-edit.h"
#include "lab.h"
#include "tui-compose.h"
#include "tui.h"
#include "units.h"
#include "xalloc.h"

/* ---------------------------------------------------------------- fields */

enum ck { CK_NONE, CK_V, CK_A, CK_F, CK_ENTRY };

/* Which model key each field edits (paths, own/default, reset). */
static const struct {
	enum ck kind;
	int f;
} cfmap[CF__COUNT] = {
	[CF_NAME] = { CK_V, LAB_V_NAME },
	[CF_DESC] = { CK_V, LAB_V_DESCRIPTION },
	[CF_TARGET] = { CK_ENTRY, -1 },
	[CF_DIRECTORY] = { CK_V, LAB_V_DIRECTORY },
	[CF_ENGINE] = { CK_A, LAB_A_ENGINE },
	[CF_LEVEL] = { CK_A, LAB_A_LEVEL },
	[CF_MPROFILE] = { CK_A, LAB_A_METADATA_PROFILE },
	[CF_LAYOUT] = { CK_A, LAB_A_LAYOUT },
	[CF_CHUNK] = { CK_A, LAB_A_CHUNK },
	[CF_DEVICES] = { CK_A, LAB_A_DEVICES },
	[CF_SPARES] = { CK_A, LAB_A_SPARES },
	[CF_SCRATCH_COUNT] = { CK_V, LAB_V_SCRATCH_COUNT },
	[CF_SCRATCH_SIZE] = { CK_V, LAB_V_SCRATCH_SIZE },
	[CF_SCRATCH_DIR] = { CK_V, LAB_V_SCRATCH_DIR },
	[CF_METADATA] = { CK_A, LAB_A_METADATA },
	[CF_BITMAP] = { CK_A, LAB_A_BITMAP },
	[CF_BITMAP_FILE] = { CK_A, LAB_A_BITMAP_FILE },
	[CF_BITMAP_CHUNK] = { CK_A, LAB_A_BITMAP_CHUNK },
	[CF_MD_JOURNAL] = { CK_A, LAB_A_JOURNAL },
	[CF_ASSUME_CLEAN] = { CK_A, LAB_A_ASSUME_CLEAN },
	[CF_LEGS] = { CK_A, LAB_A_LEGS },
	[CF_FSTYPE] = { CK_F, LAB_F_TYPE },
	[CF_FSJOURNAL] = { CK_F, LAB_F_JOURNAL },
	[CF_FSJOURNAL_DEV] = { CK_F, LAB_F_JOURNAL_DEVICE },
	[CF_FSJOURNAL_SIZE] = { CK_F, LAB_F_JOURNAL_SIZE },
	[CF_DATA] = { CK_F, LAB_F_DATA },
	[CF_GEOMETRY] = { CK_F, LAB_F_GEOMETRY },
	[CF_GEOMETRY_AUTO] = { CK_NONE, -1 },
	[CF_STRIDE] = { CK_F, LAB_F_GEOMETRY_STRIDE },
	[CF_STRIPE_WIDTH] = { CK_F, LAB_F_GEOMETRY_STRIPE_WIDTH },
	[CF_SU] = { CK_F, LAB_F_GEOMETRY_SU },
	[CF_SW] = { CK_F, LAB_F_GEOMETRY_SW },
	[CF_MKFS_OPTS] = { CK_F, LAB_F_MKFS_OPTIONS },
	[CF_MOUNT_OPTS] = { CK_F, LAB_F_MOUNT_OPTIONS },
	[CF_READAHEAD] = { CK_V, LAB_V_READAHEAD },
	[CF_PROBLEMS] = { CK_NONE, -1 },
};

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
	uint32_t bit = 1u << (unsigned)(cfmap[id].f < 0 ? 0 : cfmap[id].f);

	switch (cfmap[id].kind) {
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

static bool
is_directory(const struct lab_variant *v)
{
	bool dir =
	    v->directory != NULL && lab_variant_isset(v, LAB_V_DIRECTORY);
	bool arr = lab_variant_isset(v, LAB_V_ARRAY);

	return dir &&
	    (!arr ||
		(!lab_variant_inherited(v, LAB_V_DIRECTORY) &&
		    lab_variant_inherited(v, LAB_V_ARRAY)));
}

/* ---------------------------------------------------------------- choices */

#define CL_MAX 96

/* A choice list: labels shown, values applied (NULL: the default). */
struct clist {
	char *label[CL_MAX];
	char *value[CL_MAX];
	size_t n, cur;
};

static void
cl_add(struct clist *c, const char *label, const char *value)
{
	if (c->n == CL_MAX)
		return;
	c->label[c->n] = xstrdup(label);
	c->value[c->n] = value != NULL ? xstrdup(value) : NULL;
	c->n++;
}

static void
cl_done(struct clist *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->label[i]);
		free(c->value[i]);
	}
	memset(c, 0, sizeof *c);
}

/* Select the entry of value, adding it when the list lacks it. */
static void
cl_pick(struct clist *c, const char *value)
{
	for (size_t i = 0; i < c->n; i++) {
		if (c->value[i] != NULL && strcmp(c->value[i], value) == 0) {
			c->cur = i;
			return;
		}
	}
	cl_add(c, value, value);
	c->cur = c->n - 1;
}

static void
cl_names(struct clist *c, const char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		cl_add(c, names[i], names[i]);
}

/* Sizes from lo to hi, each step times mul. */
static void
cl_sizes(struct clist *c, uint64_t lo, uint64_t hi, unsigned mul)
{
	char b[UNITS_BUF];

	for (uint64_t x = lo; x <= hi; x *= mul) {
		units_format_exact(x, b, sizeof b);
		cl_add(c, b, b);
	}
}

/* A size key: "default" entry, the sizes, the value when set. */
static void
cl_size_key(struct clist *c, const char *dflt, uint64_t lo, uint64_t hi,
    unsigned mul, bool set, uint64_t val)
{
	char b[UNITS_BUF];

	cl_add(c, dflt, NULL);
	cl_sizes(c, lo, hi, mul);
	if (set)
		cl_pick(c, units_format_exact(val, b, sizeof b));
}

static const char *const md_levels[] = { "0", "1", "4", "5", "6", "10" };
static const char *const profiles[] = { "single", "dup", "raid0", "raid1",
	"raid1c3", "raid1c4", "raid10", "raid5", "raid6" };
static const char *const r0_layouts[] = { "original", "alternate" };
static const char *const r5_layouts[] = { "left-symmetric", "left-asymmetric",
	"right-symmetric", "right-asymmetric", "parity-first", "parity-last" };
static const char *const r6_layouts[] = { "left-symmetric-6",
	"left-asymmetric-6", "right-symmetric-6", "right-asymmetric-6",
	"parity-first-6" };
static const char *const r10_layouts[] = { "n2", "n3", "f2", "f3", "o2", "o3" };

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void
level_choices(const struct lab_array *a, struct clist *c)
{
	bool set = lab_array_isset(a, LAB_A_LEVEL);

	if (a->engine == LAB_ENGINE_MD) {
		if (!set)
			cl_add(c, _("not set"), NULL);
		for (size_t i = 0; i < N(md_levels); i++) {
			char *l = xasprintf("RAID%s", md_levels[i]);

			cl_add(c, l, md_levels[i]);
			free(l);
		}
		if (set)
			cl_pick(c, lab_md_level_name(a->md_level));
		return;
	}
	if (!set)
		cl_add(c, _("mkfs default"), NULL);
	cl_names(c, profiles, N(profiles));
	if (set)
		cl_pick(c, lab_profile_name(a->profile));
}

static void
layout_choices(const struct lab_array *a, struct clist *c)
{
	cl_add(c, _("mdadm default"), NULL);
	if (a->md_level == LAB_MD_LEVEL_0)
		cl_names(c, r0_layouts, N(r0_layouts));
	else if (a->md_level == LAB_MD_LEVEL_10)
		cl_names(c, r10_layouts, N(r10_layouts));
	else
		cl_names(c, r5_layouts, N(r5_layouts));
	if (a->md_level == LAB_MD_LEVEL_6)
		cl_names(c, r6_layouts, N(r6_layouts));
	if (a->layout != NULL && lab_array_isset(a, LAB_A_LAYOUT))
		cl_pick(c, a->layout);
}

/* Devices for a journal: the candidates that are not members or spares. */
static void
device_choices(struct compose *s, const struct lab_variant *v, const char *cur,
    struct clist *c)
{
	compose_cands(s, v, true);
	for (size_t i = 0; i < s->ncands; i++) {
		char *l;

		/* Naming an implicit member takes it out of the array. */
		if (s->cands[i].state != ' ' && !s->cands[i].implicit)
			continue;
		l = xasprintf("%s  %s", s->cands[i].dev, s->cands[i].about);
		cl_add(c, l, s->cands[i].dev);
		free(l);
	}
	if (cur != NULL)
		cl_pick(c, cur);
}

static void
count_choices(const struct lab_variant *v, struct clist *c)
{
	char b[16];

	cl_add(c, _("none"), NULL);
	for (int i = 1; i <= 16; i++) {
		snprintf(b, sizeof b, "%d", i);
		cl_add(c, b, b);
	}
	if (lab_variant_isset(v, LAB_V_SCRATCH_COUNT)) {
		snprintf(b, sizeof b, "%lld", (long long)v->scratch_count);
		cl_pick(c, b);
	}
}

static void
array_choices(struct compose *s, const struct lab_variant *v, int id,
    struct clist *c)
{
	const struct lab_array *a = &v->array;

	switch (id) {
	case CF_ENGINE:
		cl_names(c, (const char *const[]){ "md", "btrfs", "single" },
		    3);
		c->cur = a->engine;
		break;
	case CF_LEVEL:
		level_choices(a, c);
		break;
	case CF_MPROFILE:
		cl_add(c, _("mkfs decides"), NULL);
		cl_names(c, profiles, N(profiles));
		if (lab_array_isset(a, LAB_A_METADATA_PROFILE))
			cl_pick(c, lab_profile_name(a->metadata_profile));
		break;
	case CF_LAYOUT:
		layout_choices(a, c);
		break;
	case CF_CHUNK:
		cl_size_key(c, _("mdadm default (512K)"), 4096, 4 << 20, 2,
		    lab_array_isset(a, LAB_A_CHUNK), a->chunk);
		break;
	case CF_METADATA:
		cl_names(c,
		    (const char *const[]){ "1.2", "0.90", "1.0", "1.1" }, 4);
		c->cur = a->metadata;
		break;
	case CF_BITMAP:
		cl_add(c, _("none"), "none");
		cl_add(c, _("internal"), "internal");
		cl_add(c, _("external file"), "file");
		c->cur = a->bitmap;
		break;
	case CF_BITMAP_CHUNK:
		cl_size_key(c, _("mdadm decides"), 4096, 256 << 20, 4,
		    lab_array_isset(a, LAB_A_BITMAP_CHUNK), a->bitmap_chunk);
		break;
	case CF_MD_JOURNAL:
		cl_add(c, _("none"), NULL);
		device_choices(s, v, a->journal, c);
		break;
	case CF_ASSUME_CLEAN:
		cl_add(c, _("no"), "false");
		cl_add(c, _("yes"), "true");
		c->cur = a->assume_clean;
		break;
	}
}

static void
fs_choices(struct compose *s, const struct lab_variant *v, int id,
    struct clist *c)
{
	const struct lab_fs *fs = &v->fs;

	switch (id) {
	case CF_FSTYPE:
		cl_names(c,
		    (const char *const[]){ "ext2", "ext3", "ext4", "xfs",
			"btrfs" },
		    5);
		c->cur = fs->type;
		break;
	case CF_FSJOURNAL:
		cl_add(c, _("internal"), "internal");
		cl_add(c, _("device"), "device");
		if (fs->journal == LAB_JOURNAL_ARRAY)
			cl_add(c, _("array (as the lab file says)"), "array");
		c->cur = fs->journal;
		break;
	case CF_FSJOURNAL_DEV:
		device_choices(s, v, fs->journal_device, c);
		break;
	case CF_FSJOURNAL_SIZE:
		cl_size_key(c, _("mkfs decides"), 16 << 20, 1 << 30, 2,
		    lab_fs_isset(fs, LAB_F_JOURNAL_SIZE), fs->journal_size);
		break;
	case CF_DATA:
		cl_names(c,
		    (const char *const[]){ "ordered", "writeback", "journal" },
		    3);
		c->cur = fs->data;
		break;
	case CF_GEOMETRY:
		cl_add(c, _("auto"), "auto");
		cl_add(c, _("none"), "none");
		cl_add(c, _("by hand"), "manual");
		c->cur = fs->geometry >= LAB_GEOMETRY_EXT ? 2 : fs->geometry;
		break;
	}
}

/* The choices of field id for variant v. */
static void
choices(struct compose *s, const struct lab_variant *v, int id, struct clist *c)
{
	memset(c, 0, sizeof *c);
	switch (id) {
	case CF_TARGET:
		cl_add(c, _("array"), "array");
		cl_add(c, _("directory"), "directory");
		c->cur = is_directory(v);
		break;
	case CF_SCRATCH_COUNT:
		count_choices(v, c);
		break;
	case CF_SCRATCH_SIZE:
		cl_size_key(c, _("not set"), 64 << 20, 128ULL << 30, 2,
		    lab_variant_isset(v, LAB_V_SCRATCH_SIZE), v->scratch_size);
		break;
	case CF_READAHEAD:
		cl_size_key(c, _("untouched"), 128 << 10, 16 << 20, 2,
		    lab_variant_isset(v, LAB_V_READAHEAD), v->readahead);
		break;
	default:
		if (cfmap[id].kind == CK_A)
			array_choices(s, v, id, c);
		else
			fs_choices(s, v, id, c);
		break;
	}
}

/* ---------------------------------------------------------------- build */

static void
choice(struct compose *s, const struct lab_variant *v, int id,
    const char *label)
{
	struct clist c;

	choices(s, v, id, &c);
	tui_form_choice(s->form, id, label, (const char *const *)c.label, c.n,
	    c.cur, !owns(v, id));
	cl_done(&c);
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

static void
devices_field(struct compose *s, const struct lab_variant *v, int id)
{
	const struct lab_array *a = &v->array;
	const struct lab_strv *sv = id == CF_DEVICES ? &a->devices : &a->spares;
	char *text;

	if (sv->n > 0)
		text = devices_text(sv);
	else if (id == CF_DEVICES && a->nlegs > 0)
		text = xasprintf(_("the %zu legs"), a->nlegs);
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

static void
md_fields(struct compose *s, const struct lab_variant *v)
{
	const struct lab_array *a = &v->array;
	char b[UNITS_BUF];

	choice(s, v, CF_METADATA, _("superblock"));
	show(s, CF_METADATA);
	if (lab_edit_array_applies(a, LAB_A_BITMAP)) {
		choice(s, v, CF_BITMAP, _("bitmap"));
		show(s, CF_BITMAP);
	}
	if (lab_edit_array_applies(a, LAB_A_BITMAP_FILE)) {
		text(s, v, CF_BITMAP_FILE, _("bitmap file"), a->bitmap_file,
		    NULL);
		show(s, CF_BITMAP_FILE);
	}
	if (lab_edit_array_applies(a, LAB_A_BITMAP_CHUNK)) {
		choice(s, v, CF_BITMAP_CHUNK, _("bitmap chunk"));
		show(s, CF_BITMAP_CHUNK);
	}
	if (lab_edit_array_applies(a, LAB_A_JOURNAL)) {
		choice(s, v, CF_MD_JOURNAL, _("write journal"));
		show(s, CF_MD_JOURNAL);
	}
	choice(s, v, CF_ASSUME_CLEAN, _("assume clean"));
	show(s, CF_ASSUME_CLEAN);
	if (a->nlegs > 0) {
		snprintf(b, sizeof b, "%zu", a->nlegs);
		tui_form_info(s->form, CF_LEGS, _("legs"), b);
		show(s, CF_LEGS);
	}
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
		{ CF_MPROFILE, LAB_A_METADATA_PROFILE, N_("metadata profile") },
		{ CF_LAYOUT, LAB_A_LAYOUT, N_("layout") },
		{ CF_CHUNK, LAB_A_CHUNK, N_("chunk") },
	};

	tui_form_heading(s->form, _("Array"));
	choice(s, v, CF_ENGINE, _("engine"));
	show(s, CF_ENGINE);
	for (size_t i = 0; i < N(opt); i++) {
		if (!lab_edit_array_applies(a, opt[i].f))
			continue;
		choice(s, v, opt[i].id, _(opt[i].label));
		show(s, opt[i].id);
	}
	devices_field(s, v, CF_DEVICES);
	if (lab_edit_array_applies(a, LAB_A_SPARES))
		devices_field(s, v, CF_SPARES);
	scratch_fields(s, v);
	if (a->engine == LAB_ENGINE_MD)
		md_fields(s, v);
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
		choice(s, v, CF_FSJOURNAL_SIZE,
		    xfs ? _("log size") : _("journal size"));
		show(s, CF_FSJOURNAL_SIZE);
	}
	if (lab_edit_fs_applies(v, LAB_F_DATA)) {
		choice(s, v, CF_DATA, _("data mode"));
		show(s, CF_DATA);
	}
	geometry_fields(s, v);
	text(s, v, CF_MKFS_OPTS, _("mkfs options"), fs->mkfs_options,
	    _("none"));
	text(s, v, CF_MOUNT_OPTS, _("mount options"), fs->mount_options,
	    _("none"));
	show(s, CF_MKFS_OPTS);
	show(s, CF_MOUNT_OPTS);
}

void
compose_fields(struct compose *s, struct tui *t)
{
	struct lab_variant *v = cur_variant(t);

	memset(s->shown, 0, sizeof s->shown);
	if (v == NULL)
		return;
	tui_form_heading(s->form, _("Variant"));
	text(s, v, CF_NAME, _("name"), v->name, _("(no name)"));
	text(s, v, CF_DESC, _("description"), v->description, _("none"));
	choice(s, v, CF_TARGET, _("target"));
	show(s, CF_NAME);
	show(s, CF_DESC);
	show(s, CF_TARGET);
	if (is_directory(v)) {
		text(s, v, CF_DIRECTORY, _("directory"), v->directory, NULL);
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
	switch (cfmap[id].kind) {
	case CK_V:
		return lab_variant_path(v, cfmap[id].f, buf, len);
	case CK_A:
		return lab_array_path(v, &v->array, cfmap[id].f, buf, len);
	case CK_F:
		return lab_fs_path(v, cfmap[id].f, buf, len);
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
		if (cfmap[i].kind != CK_ENTRY && k > best &&
		    strncmp(field, p, k) == 0 &&
		    (field[k] == '.' || field[k] == '['))
			best = k, id = i;
	}
	return id;
}

/* ---------------------------------------------------------------- events */

bool
compose_choice_value(struct compose *s, const struct lab_variant *v, int id,
    size_t idx, char **value)
{
	struct clist c;
	bool ok;

	choices(s, v, id, &c);
	ok = idx < c.n;
	*value = ok && c.value[idx] != NULL ? xstrdup(c.value[idx]) : NULL;
	cl_done(&c);
	return ok;
}

int
compose_reset(struct tui *t, int id, struct err *e)
{
	struct lab_variant *v = cur_variant(t);
	size_t vi = t->variant;
	int f = cfmap[id].f;

	if (v == NULL)
		return -ERANGE;
	switch (cfmap[id].kind) {
	case CK_V:
		if (f == LAB_V_NAME)
			return err_set(e, -EINVAL, NULL, 0, NULL, "%s",
			    _("a variant keeps its name: type another one"));
		return lab_edit_variant_reset(t->lab, vi, (enum lab_v_field)f);
	case CK_A:
		return lab_edit_array_reset(t->lab, vi, (enum lab_a_field)f);
	case CK_F:
		return lab_edit_fs_reset(t->lab, vi, (enum lab_f_field)f);
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
