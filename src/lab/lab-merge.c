/*
 * The defaults merge: a variant's unset fields take the defaults group's
 * values, groups (scratch, array, fs) key by key; alternatives that only
 * make sense whole (bitmap mode and file, legs, fs journal, geometry) are
 * taken as one. Inherited fields are marked set but not own, so that
 * lab_format() writes the variant back as it was written. The thread that
 * owns the lab.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "lab-load.h"
#include "lab-schema.h"
#include "lab.h"

/* Take field f from d when v lacks it; true when taken. */
#define TAKE(v, d, f)                                                          \
	(((d)->set & LAB_BIT(f)) && !((v)->set & LAB_BIT(f))                   \
		? ((v)->set |= LAB_BIT(f), (v)->lines[f] = (d)->lines[f],      \
		      true)                                                    \
		: false)

/* Also carry a sub-key's line and set bit (bitmap.file, geometry.su). */
#define CARRY(v, d, f)                                                         \
	do {                                                                   \
		(v)->set = ((v)->set & ~LAB_BIT(f)) | ((d)->set & LAB_BIT(f)); \
		(v)->lines[f] = (d)->lines[f];                                 \
	} while (0)

static void
merge_array(struct lab_array *a, const struct lab_array *d)
{
	const struct lab_key *k;
	size_t i;

	for (k = lab_array_keys; k->name != NULL; k++) {
		if (k->merge == LAB_MERGE_SUB || !TAKE(a, d, k->field))
			continue;
		if (k->field == LAB_A_BITMAP) {
			a->bitmap = d->bitmap;
			a->bitmap_file = xstrdup_null(d->bitmap_file);
			CARRY(a, d, LAB_A_BITMAP_FILE);
		} else if (k->field == LAB_A_LEGS) {
			a->nlegs = d->nlegs;
			a->legs = xcalloc(d->nlegs, sizeof *a->legs);
			for (i = 0; i < d->nlegs; i++)
				lab_array_copy(&a->legs[i], &d->legs[i]);
		} else {
			lab_key_copy(k, a, d);
		}
	}
}

/* The journal and the geometry: a mode and its keys, taken as one. */
static void
merge_fs_whole(struct lab_fs *fs, const struct lab_fs *d, enum lab_f_field f)
{
	if (f == LAB_F_JOURNAL) {
		fs->journal = d->journal;
		fs->journal_device = xstrdup_null(d->journal_device);
		fs->journal_size = d->journal_size;
		if (d->journal_array != NULL) {
			fs->journal_array = xmalloc(sizeof *fs->journal_array);
			lab_array_copy(fs->journal_array, d->journal_array);
		}
		CARRY(fs, d, LAB_F_JOURNAL_DEVICE);
		CARRY(fs, d, LAB_F_JOURNAL_ARRAY);
		CARRY(fs, d, LAB_F_JOURNAL_SIZE);
	} else if (f == LAB_F_GEOMETRY) {
		fs->geometry = d->geometry;
		fs->stride = d->stride;
		fs->stripe_width = d->stripe_width;
		fs->su = d->su;
		fs->sw = d->sw;
		CARRY(fs, d, LAB_F_GEOMETRY_STRIDE);
		CARRY(fs, d, LAB_F_GEOMETRY_STRIPE_WIDTH);
		CARRY(fs, d, LAB_F_GEOMETRY_SU);
		CARRY(fs, d, LAB_F_GEOMETRY_SW);
	}
}

static void
merge_fs(struct lab_fs *fs, const struct lab_fs *d)
{
	const struct lab_key *k;

	for (k = lab_fs_keys; k->name != NULL; k++) {
		if (k->merge == LAB_MERGE_SUB || !TAKE(fs, d, k->field))
			continue;
		if (k->merge == LAB_MERGE_WHOLE)
			merge_fs_whole(fs, d, (enum lab_f_field)k->field);
		else
			lab_key_copy(k, fs, d);
	}
}

/* The array or fs group: the whole when the variant has none, else key
   by key. */
static void
merge_group(struct lab_variant *v, const struct lab_variant *d,
    enum lab_v_field f)
{
	bool whole;

	if (!lab_variant_isset(d, f))
		return;
	whole = TAKE(v, d, f);
	if (f == LAB_V_ARRAY && whole) {
		lab_array_done(&v->array);
		lab_array_copy(&v->array, &d->array);
		v->array.own = 0;
	} else if (f == LAB_V_ARRAY) {
		merge_array(&v->array, &d->array);
	} else if (whole) {
		lab_fs_done(&v->fs);
		lab_fs_copy(&v->fs, &d->fs);
		v->fs.own = 0;
	} else {
		merge_fs(&v->fs, &d->fs);
	}
}

void
lab_merge_defaults(struct lab_variant *v, const struct lab_variant *d)
{
	const struct lab_key *k;

	for (k = lab_variant_keys; k->name != NULL; k++) {
		if (k->flags & LAB_KEY_NOT_DEFAULTS)
			continue;
		if (k->field == LAB_V_ARRAY || k->field == LAB_V_FS)
			merge_group(v, d, (enum lab_v_field)k->field);
		else if (!TAKE(v, d, k->field))
			continue;
		else if (k->field == LAB_V_DIRECTORY) {
			v->directory = xstrdup_null(d->directory);
			v->directory_text = xstrdup_null(d->directory_text);
		} else {
			lab_key_copy(k, v, d); /* scratch: the group marked */
		}
	}
}
