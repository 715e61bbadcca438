/*
 * The setters of the keys that are one plain line of the schema
 * (lab-schema.h), one mechanism for the array and fs groups: the value is
 * checked against the key's line before anything changes, with the
 * sentence lab_load() gives for it, then the variant owns its group and
 * the key. The thread that owns the lab.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>

#include "base/err.h"
#include "lab-edit-int.h"
#include "lab-edit.h"
#include "lab-load.h"
#include "lab-schema.h"
#include "lab.h"

/* Where one key of a variant's array or fs group lives. */
struct slot {
	const struct lab_key *k;
	void *group;
	uint32_t *set, *own;
	int *line;
	char field[LAB_PATH_MAX];
};

static int
slot_of(struct lab_variant *v, enum lab_v_field group, int f, struct slot *s)
{
	if (group == LAB_V_ARRAY && (s->k = lab_array_schema(f)) != NULL) {
		s->group = &v->array;
		s->set = &v->array.set, s->own = &v->array.own;
		s->line = &v->array.lines[f];
		lab_array_path(v, &v->array, f, s->field, sizeof s->field);
	} else if (group == LAB_V_FS && (s->k = lab_fs_schema(f)) != NULL) {
		s->group = &v->fs;
		s->set = &v->fs.set, s->own = &v->fs.own;
		s->line = &v->fs.lines[f];
		lab_fs_path(v, f, s->field, sizeof s->field);
	} else
		return -EINVAL;
	/* A group's keys (bitmap.file, journal.size) own the group: its
	   own setter writes them. */
	if (s->k->kind == LAB_KEY_SPECIAL || s->k->merge == LAB_MERGE_SUB)
		return -EINVAL;
	return 0;
}

/* The variant owns the group and the key, whose value is in place. */
static int
slot_own(struct lab *lab, struct lab_variant *v, enum lab_v_field group,
    const struct slot *s)
{
	if (group == LAB_V_ARRAY)
		lab_edit_own_array(v);
	else
		lab_edit_own_fs(v);
	*s->set |= LAB_BIT(s->k->field);
	*s->own |= LAB_BIT(s->k->field);
	*s->line = 0;
	return lab_edit_done(lab, v);
}

/* A probe for a value not yet taken: any group's key, at its offset. */
union probe {
	struct lab_array a;
	struct lab_fs fs;
};

int
lab_edit_key_value(struct lab *lab, size_t vi, enum lab_v_field group, int f,
    int64_t value, struct err *e)
{
	struct lab_variant *v = lab_edit_variant_at(lab, vi);
	char why[ERR_MSG_MAX];
	struct slot s;
	int rc;

	if (v == NULL)
		return lab_edit_bad_index(e);
	if (slot_of(v, group, f, &s) < 0)
		return -EINVAL;
	/* A refused value leaves the variant as it was. */
	if ((rc = lab_key_check(s.k, value, why, sizeof why)) < 0)
		return err_set(e, rc, NULL, 0, s.field, "%s", why);
	(void)lab_key_set(s.k, s.group, value);
	return slot_own(lab, v, group, &s);
}

int
lab_edit_key_text(struct lab *lab, size_t vi, enum lab_v_field group, int f,
    const char *text, struct err *e)
{
	struct lab_variant *v = lab_edit_variant_at(lab, vi);
	union probe probe = { 0 };
	char why[ERR_MSG_MAX];
	struct slot s;
	int rc;

	if (v == NULL)
		return lab_edit_bad_index(e);
	if (slot_of(v, group, f, &s) < 0)
		return -EINVAL;
	if (text == NULL || *text == '\0')
		return group == LAB_V_ARRAY
		    ? lab_edit_array_reset(lab, vi, (enum lab_a_field)f)
		    : lab_edit_fs_reset(lab, vi, (enum lab_f_field)f);
	if (s.k->kind == LAB_KEY_STRING) {
		lab_edit_set_str(lab_key_ptr(s.k, s.group), text);
		return slot_own(lab, v, group, &s);
	}
	/* Checked on the probe: a refused value changes nothing. */
	if ((rc = lab_key_parse(s.k, &probe, text, why, sizeof why)) < 0)
		return err_set(e, rc, NULL, 0, s.field, "%s", why);
	(void)lab_key_set(s.k, s.group, lab_key_get(s.k, &probe));
	return slot_own(lab, v, group, &s);
}

int
lab_edit_array_value(struct lab *lab, size_t vi, enum lab_a_field f,
    int64_t value, struct err *e)
{
	return lab_edit_key_value(lab, vi, LAB_V_ARRAY, (int)f, value, e);
}

int
lab_edit_fs_value(struct lab *lab, size_t vi, enum lab_f_field f, int64_t value,
    struct err *e)
{
	return lab_edit_key_value(lab, vi, LAB_V_FS, (int)f, value, e);
}
