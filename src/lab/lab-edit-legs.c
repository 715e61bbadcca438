/*
 * Nested md arrays in the editor: RAID0+1 (a RAID1 over RAID0 legs) and
 * RAID1+0 (a RAID0 over RAID1 legs). The members are split over the legs
 * in order, the first legs taking one more when they do not divide
 * evenly, as a sysadmin lays them out by hand; the editor gives every leg
 * the same level and chunk (a lab file may give each its own). Going back
 * to no legs hands the legs' devices to the array, so nothing composed is
 * lost. The thread that owns the lab.
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
#include "lab.h"

#define OWN_SET(x, f)                                                          \
	((x)->set |= LAB_BIT(f), (x)->own |= LAB_BIT(f), (x)->lines[f] = 0)
#define FORGET(x, f)                                                           \
	((x)->set &= ~LAB_BIT(f), (x)->own &= ~LAB_BIT(f), (x)->lines[f] = 0)

bool
lab_edit_strv_has(const struct lab_strv *sv, const char *s)
{
	for (size_t i = 0; s != NULL && i < sv->n; i++)
		if (strcmp(sv->v[i], s) == 0)
			return true;
	return false;
}

/* Named as something else than a member: a spare or a journal. */
static bool
taken(const struct lab_variant *v, const char *dev)
{
	const struct lab_array *a = &v->array;
	const struct lab_fs *fs = &v->fs;

	if (lab_edit_strv_has(&a->spares, dev) ||
	    (a->journal != NULL && strcmp(a->journal, dev) == 0))
		return true;
	if (fs->journal == LAB_JOURNAL_DEVICE && fs->journal_device != NULL)
		return strcmp(fs->journal_device, dev) == 0;
	return fs->journal == LAB_JOURNAL_ARRAY && fs->journal_array != NULL &&
	    lab_edit_strv_has(&fs->journal_array->devices, dev);
}

/*
 * The members as one list: the array's devices, else its legs' devices
 * in order, else the scratch disks named nowhere else (what "no device
 * list" means).
 */
void
lab_edit_members_of(const struct lab_variant *v, struct lab_strv *out)
{
	const struct lab_array *a = &v->array;
	char dev[32];

	memset(out, 0, sizeof *out);
	if (a->devices.n > 0) {
		lab_strv_copy(out, &a->devices);
		return;
	}
	for (size_t i = 0; i < a->nlegs; i++)
		for (size_t k = 0; k < a->legs[i].devices.n; k++)
			lab_strv_push(out, a->legs[i].devices.v[k]);
	if (out->n > 0 || !lab_variant_isset(v, LAB_V_SCRATCH))
		return;
	for (long long i = 0; i < (long long)v->scratch_count; i++) {
		snprintf(dev, sizeof dev, "scratch:%lld", i);
		if (!taken(v, dev))
			lab_strv_push(out, dev);
	}
}

static void
free_legs(struct lab_array *a)
{
	for (size_t i = 0; i < a->nlegs; i++)
		lab_array_done(&a->legs[i]);
	free(a->legs);
	a->legs = NULL;
	a->nlegs = 0;
}

/* n legs of level l (chunk: 0 for mdadm's) over the members m. */
static void
split(struct lab_array *a, const struct lab_strv *m, size_t n,
    enum lab_md_level l, uint64_t chunk)
{
	size_t next = 0;
	char idx[32];

	free_legs(a);
	a->legs = xcalloc(n, sizeof *a->legs);
	a->nlegs = n;
	for (size_t i = 0; i < n; i++) {
		struct lab_array *leg = &a->legs[i];
		size_t take = m->n / n + (i < m->n % n ? 1 : 0);

		lab_array_init(leg);
		snprintf(idx, sizeof idx, "legs[%zu]", i);
		lab_join(leg->where, sizeof leg->where, a->where, idx);
		leg->level_text = xstrdup(lab_md_level_name(l));
		leg->md_level = l;
		OWN_SET(leg, LAB_A_LEVEL);
		if (chunk != 0 && l != LAB_MD_LEVEL_1) {
			leg->chunk = chunk;
			OWN_SET(leg, LAB_A_CHUNK);
		}
		for (size_t k = 0; k < take; k++)
			lab_strv_push(&leg->devices, m->v[next++]);
		OWN_SET(leg, LAB_A_DEVICES);
	}
	OWN_SET(a, LAB_A_LEGS);
	lab_strv_done(&a->devices);
	FORGET(a, LAB_A_DEVICES);
}

void
lab_edit_unnest(struct lab_array *a)
{
	if (a->devices.n == 0 && a->nlegs > 0) {
		for (size_t i = 0; i < a->nlegs; i++)
			for (size_t k = 0; k < a->legs[i].devices.n; k++)
				lab_strv_push(&a->devices,
				    a->legs[i].devices.v[k]);
		if (a->devices.n > 0)
			OWN_SET(a, LAB_A_DEVICES);
	}
	free_legs(a);
	FORGET(a, LAB_A_LEGS);
}

static int
too_few(struct err *e, const struct lab_variant *v, size_t n, size_t have)
{
	char field[LAB_PATH_MAX];

	return err_set(e, -EINVAL, NULL, 0,
	    lab_array_path(v, &v->array, LAB_A_LEGS, field, sizeof field),
	    _("%zu legs need at least %zu devices, the variant has %zu: add "
	      "scratch disks or devices first"),
	    n, n, have);
}

/* Split m over n legs, keeping the legs' level and chunk if any. */
static int
nest(struct lab *lab, struct lab_variant *v, const struct lab_strv *m, size_t n,
    struct err *e)
{
	struct lab_array *a = &v->array;
	enum lab_md_level l;
	uint64_t chunk;

	bool striped =
	    lab_array_isset(a, LAB_A_LEVEL) && a->md_level == LAB_MD_LEVEL_0;

	if (m->n < n)
		return too_few(e, v, n, m->n);
	if (a->nlegs > 0) {
		l = a->legs[0].md_level;
		chunk = a->legs[0].chunk;
	} else {
		/* 0+1, unless the array stripes already: then 1+0. */
		l = striped ? LAB_MD_LEVEL_1 : LAB_MD_LEVEL_0;
		chunk = lab_array_isset(a, LAB_A_CHUNK) ? a->chunk : 0;
	}
	lab_edit_own_array(v);
	if (!striped &&
	    !(lab_array_isset(a, LAB_A_LEVEL) &&
		a->md_level == LAB_MD_LEVEL_1)) {
		lab_edit_set_str(&a->level_text,
		    lab_md_level_name(LAB_MD_LEVEL_1));
		a->md_level = LAB_MD_LEVEL_1;
		OWN_SET(a, LAB_A_LEVEL);
	}
	split(a, m, n, l, chunk);
	return lab_edit_done(lab, v);
}

int
lab_edit_legs(struct lab *lab, size_t vi, size_t n, struct err *e)
{
	struct lab_variant *v = lab_edit_variant_at(lab, vi);
	char field[LAB_PATH_MAX];
	struct lab_strv m;
	int rc;

	if (v == NULL)
		return lab_edit_bad_index(e);
	if (v->array.engine != LAB_ENGINE_MD)
		return err_set(e, -EINVAL, NULL, 0,
		    lab_array_path(v, &v->array, LAB_A_LEGS, field,
			sizeof field),
		    _("legs nest md arrays: engine %s cannot have legs"),
		    lab_engine_name(v->array.engine));
	if (n == 0) {
		if (v->array.nlegs == 0)
			return 0;
		lab_edit_own_array(v);
		lab_edit_unnest(&v->array);
		return lab_edit_done(lab, v);
	}
	if (n < 2)
		return err_set(e, -EINVAL, NULL, 0,
		    lab_array_path(v, &v->array, LAB_A_LEGS, field,
			sizeof field),
		    _("a nested array needs at least 2 legs, got %zu"), n);
	lab_edit_members_of(v, &m);
	rc = nest(lab, v, &m, n, e);
	lab_strv_done(&m);
	return rc;
}

int
lab_edit_legs_devices(struct lab *lab, size_t vi, const char *const *devs,
    size_t n, struct err *e)
{
	struct lab_variant *v = lab_edit_variant_at(lab, vi);
	struct lab_strv m = { 0 };
	int rc;

	if (v == NULL)
		return lab_edit_bad_index(e);
	for (size_t i = 0; i < n; i++)
		lab_strv_push(&m, devs[i]);
	rc = nest(lab, v, &m, v->array.nlegs, e);
	lab_strv_done(&m);
	return rc;
}

/* Variant vi when it has legs, its array owned from now on; else NULL. */
static struct lab_variant *
nested(struct lab *lab, size_t vi)
{
	struct lab_variant *v = lab_edit_variant_at(lab, vi);

	if (v == NULL || v->array.nlegs == 0)
		return NULL;
	lab_edit_own_array(v);
	return v;
}

int
lab_edit_leg_level(struct lab *lab, size_t vi, enum lab_md_level l)
{
	struct lab_variant *v = nested(lab, vi);

	if (v == NULL)
		return -ERANGE;
	for (size_t i = 0; i < v->array.nlegs; i++) {
		struct lab_array *leg = &v->array.legs[i];

		lab_edit_set_str(&leg->level_text, lab_md_level_name(l));
		leg->md_level = l;
		OWN_SET(leg, LAB_A_LEVEL);
		if (l == LAB_MD_LEVEL_1) { /* a mirror has no chunk */
			leg->chunk = 0;
			FORGET(leg, LAB_A_CHUNK);
		}
	}
	OWN_SET(&v->array, LAB_A_LEGS);
	return lab_edit_done(lab, v);
}

int
lab_edit_leg_chunk(struct lab *lab, size_t vi, uint64_t bytes)
{
	struct lab_variant *v = nested(lab, vi);

	if (v == NULL)
		return -ERANGE;
	for (size_t i = 0; i < v->array.nlegs; i++) {
		struct lab_array *leg = &v->array.legs[i];

		leg->chunk = bytes;
		if (bytes != 0)
			OWN_SET(leg, LAB_A_CHUNK);
		else
			FORGET(leg, LAB_A_CHUNK);
	}
	OWN_SET(&v->array, LAB_A_LEGS);
	return lab_edit_done(lab, v);
}
