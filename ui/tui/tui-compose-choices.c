/*
 * The Compose screen's choices: for each field that is a choice, the
 * values it offers (md levels and layouts, btrfs profiles, sizes in
 * steps, the devices a journal may take, the nesting) with labels, which
 * one the variant has, and what each means as a value for the setters.
 * UI thread.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/i18n.h"
#include "base/units.h"
#include "base/xalloc.h"
#include "lab/lab-edit.h"
#include "lab/lab-schema.h"
#include "lab/lab.h"
#include "tui-compose.h"

bool
compose_is_directory(const struct lab_variant *v)
{
	bool dir =
	    v->directory != NULL && lab_variant_isset(v, LAB_V_DIRECTORY);
	bool arr = lab_variant_isset(v, LAB_V_ARRAY);

	return dir &&
	    (!arr ||
		(!lab_variant_inherited(v, LAB_V_DIRECTORY) &&
		    lab_variant_inherited(v, LAB_V_ARRAY)));
}

static void
cl_add(struct clist *c, const char *label, const char *value)
{
	if (c->n == CL_MAX)
		return;
	c->label[c->n] = xstrdup(label);
	c->value[c->n] = value != NULL ? xstrdup(value) : NULL;
	c->n++;
}

void
compose_clist_done(struct clist *c)
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

/* Legs set apart in the lab file: shown as they are until one value is
   chosen for all of them. */
static void
cl_mixed(struct clist *c)
{
	cl_add(c, _("each leg its own"), CL_KEEP);
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

/* RAID0 ... RAID10, each meaning its md level. */
static void
cl_md_levels(struct clist *c)
{
	for (size_t i = 0; i < N(md_levels); i++) {
		char *l = xasprintf("RAID%s", md_levels[i]);

		cl_add(c, l, md_levels[i]);
		free(l);
	}
}

static void
level_choices(const struct lab_array *a, struct clist *c)
{
	bool set = lab_array_isset(a, LAB_A_LEVEL);

	if (a->engine == LAB_ENGINE_MD) {
		if (!set)
			cl_add(c, _("not set"), NULL);
		cl_md_levels(c);
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

/* Devices for a journal: the candidates that are not members or spares,
   nor busy (the disk holding /: refused here as in the picker; one the
   lab already names stays listed, so the choice shows as it is). */
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
		if (s->cands[i].busy &&
		    (cur == NULL || strcmp(cur, s->cands[i].dev) != 0))
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

/* Nesting: how many legs, and their shared level and chunk. */
static void
leg_choices(const struct lab_array *a, int id, struct clist *c)
{
	const struct lab_array *leg = a->nlegs > 0 ? &a->legs[0] : NULL;
	char b[32];

	switch (id) {
	case CF_LEGS:
		cl_add(c, _("no"), "0");
		for (int i = 2; i <= 4; i++) {
			snprintf(b, sizeof b, "%d", i);
			cl_add(c, b, b);
		}
		if (a->nlegs > 0) {
			snprintf(b, sizeof b, "%zu", a->nlegs);
			cl_pick(c, b);
		}
		break;
	case CF_LEG_LEVEL:
		cl_md_levels(c);
		if (lab_legs_differ(a, LAB_A_LEVEL))
			cl_mixed(c);
		else if (leg != NULL)
			cl_pick(c, lab_md_level_name(leg->md_level));
		break;
	case CF_LEG_CHUNK:
		cl_size_key(c, _("mdadm default (512K)"), 4096, 4 << 20, 2,
		    leg != NULL && lab_array_isset(leg, LAB_A_CHUNK),
		    leg != NULL ? leg->chunk : 0);
		if (lab_legs_differ(a, LAB_A_CHUNK))
			cl_mixed(c);
		break;
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
	case CF_LAYOUT:
		layout_choices(a, c);
		break;
	case CF_CHUNK:
		cl_size_key(c, _("mdadm default (512K)"), 4096, 4 << 20, 2,
		    lab_array_isset(a, LAB_A_CHUNK), a->chunk);
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
	}
}

/* A table key of the array or fs (lab-schema.h): its values, each as the
   number lab_edit_key_value() takes; none for a key typed as text. */
static void
key_choices(const struct lab_variant *v, int id, struct clist *c)
{
	enum lab_v_field g = LAB_V_ARRAY;
	const struct lab_key *k = compose_schema_key(id, &g);
	const void *grp = &v->array;
	size_t base = 0;
	bool isset;
	char num[24];

	if (k == NULL || (k->kind != LAB_KEY_BOOL && k->kind != LAB_KEY_ENUM))
		return;
	if (g == LAB_V_FS)
		grp = &v->fs;
	isset = g == LAB_V_ARRAY ? lab_array_isset(&v->array, k->field)
				 : lab_fs_isset(&v->fs, k->field);
	if (k->unset != NULL) {
		cl_add(c, _(k->unset), NULL);
		base = 1;
	}
	if (k->kind == LAB_KEY_BOOL) {
		cl_add(c, _("no"), "0");
		cl_add(c, _("yes"), "1");
	} else if (k->kind == LAB_KEY_ENUM) {
		for (int i = 0; k->names[i] != NULL; i++) {
			snprintf(num, sizeof num, "%d", i);
			cl_add(c, k->names[i], num);
		}
	}
	c->cur = base + (size_t)lab_key_get(k, grp);
	if (base > 0 && !isset)
		c->cur = 0;
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
		cl_add(c, _("md array"), "array");
		c->cur = fs->journal;
		break;
	case CF_FSJOURNAL_LEVEL:
		cl_md_levels(c);
		if (fs->journal_array != NULL)
			cl_pick(c,
			    lab_md_level_name(fs->journal_array->md_level));
		break;
	case CF_FSJOURNAL_DEV:
		device_choices(s, v, fs->journal_device, c);
		break;
	case CF_FSJOURNAL_SIZE:
		cl_size_key(c, _("mkfs decides"), 16 << 20, 1 << 30, 2,
		    lab_fs_isset(fs, LAB_F_JOURNAL_SIZE), fs->journal_size);
		break;
	case CF_GEOMETRY:
		cl_add(c, _("auto"), "auto");
		cl_add(c, _("none"), "none");
		cl_add(c, _("by hand"), "manual");
		c->cur = fs->geometry >= LAB_GEOMETRY_EXT ? 2 : fs->geometry;
		break;
	}
}

void
compose_choices(struct compose *s, const struct lab_variant *v, int id,
    struct clist *c)
{
	memset(c, 0, sizeof *c);
	switch (id) {
	case CF_TARGET:
		cl_add(c, _("array"), "array");
		cl_add(c, _("directory"), "directory");
		c->cur = compose_is_directory(v);
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
	case CF_LEGS:
	case CF_LEG_LEVEL:
	case CF_LEG_CHUNK:
		leg_choices(&v->array, id, c);
		break;
	default: /* each knows its own fields */
		if ((id >= CF_AKEY && id <= CF_AKEY_END) ||
		    (id >= CF_FKEY && id <= CF_FKEY_END)) {
			key_choices(v, id, c);
			break;
		}
		array_choices(s, v, id, c);
		if (c->n == 0)
			fs_choices(s, v, id, c);
		break;
	}
}

bool
compose_choice_value(struct compose *s, const struct lab_variant *v, int id,
    size_t idx, char **value)
{
	struct clist c;
	bool ok;

	compose_choices(s, v, id, &c);
	ok = idx < c.n;
	*value = ok && c.value[idx] != NULL ? xstrdup(c.value[idx]) : NULL;
	compose_clist_done(&c);
	return ok;
}
