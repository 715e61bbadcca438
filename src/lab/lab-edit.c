/*
 * Editing a lab in place: the lab's own keys, the variant list (add,
 * clone, rename, delete, move) and a variant's own keys (target, scratch
 * disks, readahead), plus what every setter shares: the defaults merge
 * and level interpretation redone after a key is forgotten. The array
 * setters are in lab-edit-array.c, the fs ones in lab-edit-fs.c,
 * workloads in lab-edit-wl.c. See lab-edit.h. The thread that owns the
 * lab.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/i18n.h"
#include "base/xalloc.h"
#include "figures/stats.h"
#include "lab-edit-int.h"
#include "lab-edit.h"
#include "lab-load.h"
#include "lab-schema.h"
#include "lab.h"

/* ---------------------------------------------------------------- shared */

struct lab_variant *
lab_edit_variant_at(struct lab *lab, size_t vi)
{
	return lab != NULL && vi < lab->nvariants ? &lab->variants[vi] : NULL;
}

/*
 * After keys were forgotten: take them from defaults again (the merge
 * only fills what is unset) and interpret the level for the engine, as
 * lab_load() does. The level values start from zero as in a fresh load.
 */
void
lab_edit_refresh(struct lab *lab, struct lab_variant *v)
{
	struct errlist errs;
	struct lab_ctx c;
	char prefix[LAB_PATH_MAX];

	if (lab->defaults != NULL)
		lab_merge_defaults(v, lab->defaults);
	errlist_init(&errs);
	c.file = lab->path != NULL ? lab->path : "<edit>";
	c.errs = &errs;
	c.nerr = 0;
	lab_variant_path(v, -1, prefix, sizeof prefix);
	v->array.md_level = LAB_MD_LEVEL_0;
	v->array.profile = LAB_PROFILE_SINGLE;
	if (lab_variant_isset(v, LAB_V_ARRAY))
		lab_resolve_array(&c, prefix, &v->array);
	if (lab_variant_isset(v, LAB_V_FS) && v->fs.journal_array != NULL)
		lab_resolve_array(&c, prefix, v->fs.journal_array);
	errlist_done(&errs);
}

void
lab_edit_own_array(struct lab_variant *v)
{
	v->set |= LAB_BIT(LAB_V_ARRAY);
	v->own |= LAB_BIT(LAB_V_ARRAY);
}

void
lab_edit_own_fs(struct lab_variant *v)
{
	v->set |= LAB_BIT(LAB_V_FS);
	v->own |= LAB_BIT(LAB_V_FS);
}

int
lab_edit_bad_index(struct err *e)
{
	return err_set(e, -ERANGE, NULL, 0, NULL, "%s",
	    _("no such entry in the lab"));
}

void
lab_edit_set_str(char **dst, const char *s)
{
	char *copy = s != NULL ? xstrdup(s) : NULL;

	free(*dst);
	*dst = copy;
}

bool
lab_edit_device_ok(const char *d)
{
	if (d == NULL)
		return false;
	if (strncmp(d, "scratch:", 8) == 0)
		return lab_scratch_index(d) >= 0;
	return d[0] == '/' && d[1] != '\0';
}

/* ---------------------------------------------------------------- names */

bool
lab_edit_name_ok(const char *s)
{
	return s != NULL && lab_name_ok(s);
}

static bool
variant_named(const struct lab *lab, const char *name, size_t except)
{
	for (size_t i = 0; i < lab->nvariants; i++)
		if (i != except && lab->variants[i].name != NULL &&
		    strcmp(lab->variants[i].name, name) == 0)
			return true;
	return false;
}

char *
lab_edit_name_k(const char *base, int k)
{
	char sfx[16] = "";
	size_t keep = strlen(base), room;

	if (k >= 2)
		snprintf(sfx, sizeof sfx, "-%d", k);
	room = LAB_NAME_MAX - strlen(sfx);
	return xasprintf("%.*s%s", (int)(keep < room ? keep : room), base, sfx);
}

char *
lab_edit_variant_unique(const struct lab *lab, const char *base)
{
	char *name = lab_edit_name_k(base, 1);

	for (int k = 2; variant_named(lab, name, (size_t)-1); k++) {
		free(name);
		name = lab_edit_name_k(base, k);
	}
	return name;
}

int
lab_edit_check_name(const char *name, const char *field, bool taken,
    struct err *e)
{
	char why[ERR_MSG_MAX];

	if (lab_name_problem(name != NULL ? name : "", why, sizeof why) != NULL)
		return err_set(e, -EINVAL, NULL, 0, field, "%s", why);
	if (taken)
		return err_set(e, -EINVAL, NULL, 0, field,
		    _("the name %s is already used"), name);
	return 0;
}

/* ---------------------------------------------------------------- lab */

#define OWN_SET(x, f) ((x)->set |= LAB_BIT(f), (x)->own |= LAB_BIT(f))
#define FORGET(x, f)                                                           \
	((x)->set &= ~LAB_BIT(f), (x)->own &= ~LAB_BIT(f), (x)->lines[f] = 0)

int
lab_edit_name(struct lab *lab, const char *name, struct err *e)
{
	int rc = lab_edit_check_name(name, lab_key(LAB_L_NAME), false, e);

	if (rc < 0)
		return rc;
	lab_edit_set_str(&lab->name, name);
	OWN_SET(lab, LAB_L_NAME);
	return 0;
}

int
lab_edit_about(struct lab *lab, const char *text)
{
	if (text == NULL || text[0] == '\0')
		return lab_edit_reset(lab, LAB_L_DESCRIPTION);
	lab_edit_set_str(&lab->description, text);
	OWN_SET(lab, LAB_L_DESCRIPTION);
	return 0;
}

int
lab_edit_repeats(struct lab *lab, int64_t repeats, struct err *e)
{
	if (repeats < 1 || repeats > 1000)
		return err_set(e, -EINVAL, NULL, 0, lab_key(LAB_L_REPEATS),
		    _("%lld is out of range (%lld..%lld)"), (long long)repeats,
		    1LL, 1000LL);
	/* A count typed in replaces a range: the form edits a count. */
	lab->repeats = repeats;
	lab->repeats_min = 0;
	lab->repeats_ci = 0;
	OWN_SET(lab, LAB_L_REPEATS);
	return 0;
}

void
lab_edit_new_defaults(struct lab *lab)
{
	struct err e;

	/* In range: it cannot fail. */
	lab_edit_repeats(lab, LAB_EDIT_NEW_REPEATS, &e);
}

int
lab_edit_order(struct lab *lab, enum lab_order o)
{
	lab->order = o;
	OWN_SET(lab, LAB_L_ORDER);
	return 0;
}

int
lab_edit_cache(struct lab *lab, enum lab_cache c)
{
	lab->cache = c;
	OWN_SET(lab, LAB_L_CACHE);
	return 0;
}

int
lab_edit_reset(struct lab *lab, enum lab_l_field f)
{
	switch (f) {
	case LAB_L_NAME:
		lab_edit_set_str(&lab->name, NULL);
		break;
	case LAB_L_DESCRIPTION:
		lab_edit_set_str(&lab->description, NULL);
		break;
	case LAB_L_REPEATS:
		lab->repeats = 1;
		lab->repeats_min = 0;
		lab->repeats_ci = 0;
		break;
	case LAB_L_ORDER:
		lab->order = LAB_ORDER_INTERLEAVED;
		break;
	case LAB_L_CV_LIMIT:
		lab->cv_limit = LAB_CV_LIMIT_DEFAULT;
		break;
	case LAB_L_TEST:
		lab->test = STATS_TEST_LOG;
		break;
	case LAB_L_EQUIVALENCE:
		lab->equivalence = LAB_EQUIVALENCE_DEFAULT;
		break;
	case LAB_L_CACHE:
		lab->cache = LAB_CACHE_DROP;
		break;
	case LAB_L_RESULTS:
		lab_edit_set_str(&lab->results, NULL);
		break;
	case LAB_L_BARRIER:
		lab->barrier = false;
		break;
	default:
		return -EINVAL;
	}
	FORGET(lab, f);
	return 0;
}

/* ---------------------------------------------------------------- list */

static void
renumber(struct lab *lab)
{
	for (size_t i = 0; i < lab->nvariants; i++)
		lab->variants[i].index = i;
}

/* Make room for a variant at position at; returns it, zeroed. */
static struct lab_variant *
insert_at(struct lab *lab, size_t at)
{
	struct lab_variant *v;

	lab->variants = xreallocarray(lab->variants, lab->nvariants + 1,
	    sizeof *lab->variants);
	memmove(&lab->variants[at + 1], &lab->variants[at],
	    (lab->nvariants - at) * sizeof *lab->variants);
	lab->nvariants++;
	v = &lab->variants[at];
	memset(v, 0, sizeof *v);
	lab->set |= LAB_BIT(LAB_L_VARIANTS);
	lab->own |= LAB_BIT(LAB_L_VARIANTS);
	return v;
}

int
lab_edit_variant_add(struct lab *lab, const char *name, struct err *e)
{
	struct lab_variant *v;
	size_t at = lab->nvariants;
	int rc;

	rc = lab_edit_check_name(name, "variants.name",
	    variant_named(lab, name, (size_t)-1), e);
	if (rc < 0)
		return rc;
	v = insert_at(lab, at);
	lab_variant_init(v);
	v->name = xstrdup(name);
	OWN_SET(v, LAB_V_NAME);
	renumber(lab);
	lab_edit_refresh(lab, v);
	return (int)at;
}

int
lab_edit_variant_clone(struct lab *lab, size_t i, const char *name,
    struct err *e)
{
	struct lab_variant copy, *v;
	int rc;

	if (i >= lab->nvariants)
		return lab_edit_bad_index(e);
	rc = lab_edit_check_name(name, "variants.name",
	    variant_named(lab, name, (size_t)-1), e);
	if (rc < 0)
		return rc;
	lab_variant_copy(&copy, &lab->variants[i]);
	v = insert_at(lab, i + 1);
	*v = copy;
	lab_edit_set_str(&v->name, name);
	OWN_SET(v, LAB_V_NAME);
	renumber(lab);
	return (int)i + 1;
}

int
lab_edit_variant_rename(struct lab *lab, size_t i, const char *name,
    struct err *e)
{
	char field[LAB_PATH_MAX];
	struct lab_variant *v = lab_edit_variant_at(lab, i);
	int rc;

	if (v == NULL)
		return lab_edit_bad_index(e);
	lab_variant_path(v, LAB_V_NAME, field, sizeof field);
	rc = lab_edit_check_name(name, field, variant_named(lab, name, i), e);
	if (rc < 0)
		return rc;
	lab_edit_set_str(&v->name, name);
	OWN_SET(v, LAB_V_NAME);
	return 0;
}

int
lab_edit_variant_delete(struct lab *lab, size_t i)
{
	if (i >= lab->nvariants)
		return -ERANGE;
	lab_variant_done(&lab->variants[i]);
	memmove(&lab->variants[i], &lab->variants[i + 1],
	    (lab->nvariants - i - 1) * sizeof *lab->variants);
	lab->nvariants--;
	renumber(lab);
	return 0;
}

int
lab_edit_variant_move(struct lab *lab, size_t i, size_t to)
{
	struct lab_variant tmp;

	if (i >= lab->nvariants || to >= lab->nvariants)
		return -ERANGE;
	tmp = lab->variants[i];
	if (to < i)
		memmove(&lab->variants[to + 1], &lab->variants[to],
		    (i - to) * sizeof tmp);
	else
		memmove(&lab->variants[i], &lab->variants[i + 1],
		    (to - i) * sizeof tmp);
	lab->variants[to] = tmp;
	renumber(lab);
	return 0;
}

/* ---------------------------------------------------------------- variant */

int
lab_edit_description(struct lab *lab, size_t vi, const char *text)
{
	struct lab_variant *v = lab_edit_variant_at(lab, vi);

	if (v == NULL)
		return -ERANGE;
	if (text == NULL || *text == '\0')
		return lab_edit_variant_reset(lab, vi, LAB_V_DESCRIPTION);
	lab_edit_set_str(&v->description, text);
	OWN_SET(v, LAB_V_DESCRIPTION);
	v->lines[LAB_V_DESCRIPTION] = 0;
	return 0;
}

#define SCRATCH_KEYS                                                           \
	(LAB_BIT(LAB_V_SCRATCH_COUNT) | LAB_BIT(LAB_V_SCRATCH_SIZE) |          \
	    LAB_BIT(LAB_V_SCRATCH_DIR))

/* Forget one key; the caller refreshes. */
static void
forget_variant(struct lab_variant *v, enum lab_v_field f)
{
	switch (f) {
	case LAB_V_DIRECTORY:
		lab_edit_set_str(&v->directory, NULL);
		lab_edit_set_str(&v->directory_text, NULL);
		break;
	case LAB_V_ARRAY:
		lab_array_done(&v->array);
		lab_array_init(&v->array);
		break;
	case LAB_V_FS:
		lab_fs_done(&v->fs);
		lab_fs_init(&v->fs);
		break;
	case LAB_V_NAME: /* a variant keeps its name */
	case LAB_V_SCRATCH: /* the group goes with its last key */
	case LAB_V__COUNT:
		return;
	default:
		lab_key_reset(lab_variant_schema(f), v);
		break;
	}
	FORGET(v, f);
	/* A scratch group with no key of its own left is not the variant's. */
	if ((v->own & SCRATCH_KEYS) == 0)
		FORGET(v, LAB_V_SCRATCH);
}

int
lab_edit_variant_reset(struct lab *lab, size_t vi, enum lab_v_field f)
{
	struct lab_variant *v = lab_edit_variant_at(lab, vi);

	if (v == NULL)
		return -ERANGE;
	if (f == LAB_V_NAME || f == LAB_V_SCRATCH)
		return -EINVAL;
	if ((v->own & LAB_BIT(f)) == 0)
		return 0;
	forget_variant(v, f);
	lab_edit_refresh(lab, v);
	return 0;
}

int
lab_edit_target(struct lab *lab, size_t vi, enum lab_v_field target,
    const char *path, struct err *e)
{
	struct lab_variant *v = lab_edit_variant_at(lab, vi);
	char field[LAB_PATH_MAX], why[ERR_MSG_MAX], *dir;

	if (v == NULL)
		return lab_edit_bad_index(e);
	if (target == LAB_V_ARRAY) {
		if (v->own & LAB_BIT(LAB_V_DIRECTORY))
			forget_variant(v, LAB_V_DIRECTORY);
		lab_edit_own_array(v);
		lab_edit_refresh(lab, v);
		return 0;
	}
	if (target != LAB_V_DIRECTORY)
		return -EINVAL;
	if (path == NULL || *path == '\0')
		return err_set(e, -EINVAL, NULL, 0,
		    lab_variant_path(v, LAB_V_DIRECTORY, field, sizeof field),
		    "%s", _("give the directory to test"));
	if ((dir = lab_expand_directory(path, why, sizeof why)) == NULL)
		return err_set(e, -EINVAL, NULL, 0,
		    lab_variant_path(v, LAB_V_DIRECTORY, field, sizeof field),
		    "%s: %s", path, why);
	free(v->directory);
	v->directory = dir;
	lab_edit_set_str(&v->directory_text,
	    strcmp(path, dir) != 0 ? path : NULL);
	OWN_SET(v, LAB_V_DIRECTORY);
	v->lines[LAB_V_DIRECTORY] = 0;
	if (v->own & LAB_BIT(LAB_V_ARRAY))
		forget_variant(v, LAB_V_ARRAY);
	if (v->own & LAB_BIT(LAB_V_FS))
		forget_variant(v, LAB_V_FS);
	forget_variant(v, LAB_V_SCRATCH_COUNT);
	forget_variant(v, LAB_V_SCRATCH_SIZE);
	forget_variant(v, LAB_V_SCRATCH_DIR);
	lab_edit_refresh(lab, v);
	return 0;
}

static void
own_scratch(struct lab_variant *v, enum lab_v_field f)
{
	OWN_SET(v, f);
	OWN_SET(v, LAB_V_SCRATCH);
	v->lines[f] = 0;
}

int
lab_edit_scratch_count(struct lab *lab, size_t vi, int64_t n, struct err *e)
{
	struct lab_variant *v = lab_edit_variant_at(lab, vi);
	char field[LAB_PATH_MAX];

	if (v == NULL)
		return lab_edit_bad_index(e);
	if (n < 1 || n > 64)
		return err_set(e, -EINVAL, NULL, 0,
		    lab_variant_path(v, LAB_V_SCRATCH_COUNT, field,
			sizeof field),
		    _("%lld is out of range (%lld..%lld)"), (long long)n, 1LL,
		    64LL);
	v->scratch_count = n;
	own_scratch(v, LAB_V_SCRATCH_COUNT);
	return 0;
}

int
lab_edit_scratch_size(struct lab *lab, size_t vi, uint64_t bytes)
{
	struct lab_variant *v = lab_edit_variant_at(lab, vi);

	if (v == NULL)
		return -ERANGE;
	v->scratch_size = bytes;
	own_scratch(v, LAB_V_SCRATCH_SIZE);
	return 0;
}

int
lab_edit_scratch_dir(struct lab *lab, size_t vi, const char *dir, struct err *e)
{
	struct lab_variant *v = lab_edit_variant_at(lab, vi);

	if (v == NULL)
		return lab_edit_bad_index(e);
	if (dir == NULL || *dir == '\0')
		return lab_edit_variant_reset(lab, vi, LAB_V_SCRATCH_DIR);
	lab_edit_set_str(&v->scratch_dir, dir);
	own_scratch(v, LAB_V_SCRATCH_DIR);
	return 0;
}

int
lab_edit_readahead(struct lab *lab, size_t vi, uint64_t bytes)
{
	struct lab_variant *v = lab_edit_variant_at(lab, vi);

	if (v == NULL)
		return -ERANGE;
	v->readahead = bytes;
	OWN_SET(v, LAB_V_READAHEAD);
	v->lines[LAB_V_READAHEAD] = 0;
	return 0;
}
