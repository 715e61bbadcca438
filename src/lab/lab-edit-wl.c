/*
 * Editing a lab's workloads: add (by type), rename, delete, move, and
 * parameters set from text as a user types it, read with the same rules
 * (and messages) as param_load() applies to a lab file. See lab-edit.h.
 * The thread that owns the lab.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/i18n.h"
#include "base/units.h"
#include "base/xalloc.h"
#include "lab-edit-int.h"
#include "lab-edit.h"
#include "lab-load.h"
#include "lab.h"
#include "measure/param.h"
#include "measure/workload.h"

/* ---------------------------------------------------------------- list */

static bool
workload_named(const struct lab *lab, const char *name, size_t except)
{
	for (size_t i = 0; i < lab->nworkloads; i++)
		if (i != except && lab->workloads[i].name != NULL &&
		    strcmp(lab->workloads[i].name, name) == 0)
			return true;
	return false;
}

char *
lab_edit_workload_unique(const struct lab *lab, const char *base)
{
	char *name = lab_edit_name_k(base, 1);

	for (int k = 2; workload_named(lab, name, (size_t)-1); k++) {
		free(name);
		name = lab_edit_name_k(base, k);
	}
	return name;
}

static void
renumber(struct lab *lab)
{
	for (size_t i = 0; i < lab->nworkloads; i++)
		lab->workloads[i].index = i;
}

int
lab_edit_workload_add(struct lab *lab, const char *type, const char *name,
    struct err *e)
{
	const struct workload *wl = workload_find(type != NULL ? type : "");
	struct lab_workload *w;
	int rc;

	if (wl == NULL)
		return err_set(e, -EINVAL, NULL, 0, "workloads.type",
		    _("unknown workload type '%s'"), type ? type : "");
	rc = lab_edit_check_name(name, "workloads.name",
	    name != NULL && workload_named(lab, name, (size_t)-1), e);
	if (rc < 0)
		return rc;
	lab->workloads = xreallocarray(lab->workloads, lab->nworkloads + 1,
	    sizeof *lab->workloads);
	w = &lab->workloads[lab->nworkloads];
	memset(w, 0, sizeof *w);
	w->index = lab->nworkloads++;
	w->name = xstrdup(name);
	w->type = xstrdup(wl->name);
	w->wl = wl;
	w->nvalues = param_count(wl->params);
	w->values = xcalloc(w->nvalues + 1, sizeof *w->values);
	param_values_init(wl->params, w->values);
	w->set = LAB_BIT(LAB_W_NAME) | LAB_BIT(LAB_W_TYPE);
	w->own = w->set;
	lab->set |= LAB_BIT(LAB_L_WORKLOADS);
	lab->own |= LAB_BIT(LAB_L_WORKLOADS);
	return (int)w->index;
}

int
lab_edit_workload_rename(struct lab *lab, size_t wi, const char *name,
    struct err *e)
{
	char field[LAB_PATH_MAX];
	struct lab_workload *w;
	int rc;

	if (wi >= lab->nworkloads)
		return lab_edit_bad_index(e);
	w = &lab->workloads[wi];
	lab_workload_path(w, "name", field, sizeof field);
	rc = lab_edit_check_name(name, field, workload_named(lab, name, wi), e);
	if (rc < 0)
		return rc;
	free(w->name);
	w->name = xstrdup(name);
	w->set |= LAB_BIT(LAB_W_NAME);
	w->own |= LAB_BIT(LAB_W_NAME);
	w->lines[LAB_W_NAME] = 0;
	return 0;
}

int
lab_edit_workload_delete(struct lab *lab, size_t wi)
{
	if (wi >= lab->nworkloads)
		return -ERANGE;
	lab_workload_done(&lab->workloads[wi]);
	memmove(&lab->workloads[wi], &lab->workloads[wi + 1],
	    (lab->nworkloads - wi - 1) * sizeof *lab->workloads);
	lab->nworkloads--;
	renumber(lab);
	return 0;
}

int
lab_edit_workload_move(struct lab *lab, size_t wi, size_t to)
{
	struct lab_workload tmp;

	if (wi >= lab->nworkloads || to >= lab->nworkloads)
		return -ERANGE;
	tmp = lab->workloads[wi];
	if (to < wi)
		memmove(&lab->workloads[to + 1], &lab->workloads[to],
		    (wi - to) * sizeof tmp);
	else
		memmove(&lab->workloads[wi], &lab->workloads[wi + 1],
		    (to - wi) * sizeof tmp);
	lab->workloads[to] = tmp;
	renumber(lab);
	return 0;
}

/* ---------------------------------------------------------------- values */

/* Messages for one parameter, with its field path. */
struct pe {
	struct err *e;
	char field[LAB_PATH_MAX];
};

static bool
in_range(struct pe *c, const struct param *p, int64_t v)
{
	if (v >= p->min && (p->max == 0 || v <= p->max))
		return true;
	if (p->max != 0)
		err_set(c->e, -EINVAL, NULL, 0, c->field,
		    _("%" PRId64 " is out of range (%" PRId64 "..%" PRId64 ")"),
		    v, p->min, p->max);
	else
		err_set(c->e, -EINVAL, NULL, 0, c->field,
		    _("%" PRId64 " is out of range (at least %" PRId64 ")"), v,
		    p->min);
	return false;
}

static bool
parse_int(const char *s, int64_t *out)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno != 0 || end == s)
		return false;
	while (isspace((unsigned char)*end))
		end++;
	*out = v;
	return *end == '\0';
}

static bool
expected(struct pe *c, const struct param *p)
{
	err_set(c->e, -EINVAL, NULL, 0, c->field, _("expected %s"),
	    param_kind_name(p->kind));
	return false;
}

/* "100, 1000" or "[100, 1000]". */
static bool
parse_list(struct pe *c, const struct param *p, const char *s,
    struct param_value *v)
{
	char *copy = xstrdup(s), *w, *save = NULL;
	int64_t n;
	bool ok = true;

	for (w = strtok_r(copy, "[], \t", &save); w != NULL && ok;
	     w = strtok_r(NULL, "[], \t", &save)) {
		if (!parse_int(w, &n))
			ok = expected(c, p);
		else if ((ok = in_range(c, p, n))) {
			v->list = xreallocarray(v->list, v->nlist + 1,
			    sizeof *v->list);
			v->list[v->nlist++] = n;
		}
	}
	free(copy);
	if (ok && v->nlist == 0) {
		err_set(c->e, -EINVAL, NULL, 0, c->field, "%s",
		    _("the list is empty"));
		ok = false;
	}
	return ok;
}

static bool
parse_bool(const char *s, int64_t *out)
{
	static const char *const yes[] = { "true", "yes", "on", "1", NULL };
	static const char *const no[] = { "false", "no", "off", "0", NULL };

	for (size_t i = 0; yes[i] != NULL; i++) {
		if (strcasecmp(s, yes[i]) == 0) {
			*out = 1;
			return true;
		}
		if (strcasecmp(s, no[i]) == 0) {
			*out = 0;
			return true;
		}
	}
	return false;
}

static bool
parse_enum(struct pe *c, const struct param *p, const char *s, int64_t *out)
{
	char *choices;

	for (int64_t i = 0; p->values != NULL && p->values[i] != NULL; i++) {
		if (strcmp(p->values[i], s) == 0) {
			*out = i;
			return true;
		}
	}
	choices = lab_choices(p->values);
	err_set(c->e, -EINVAL, NULL, 0, c->field, _("'%s' is not one of: %s"),
	    s, choices);
	free(choices);
	return false;
}

static bool
parse_size(struct pe *c, const struct param *p, const char *s, uint64_t *out)
{
	if (units_parse_size(s, out) < 0) {
		err_set(c->e, -EINVAL, NULL, 0, c->field,
		    _("'%s' is not a size (like 4K, 64M, 2G)"), s);
		return false;
	}
	if (*out > INT64_MAX) {
		err_set(c->e, -ERANGE, NULL, 0, c->field, "%s",
		    _("the size is too large"));
		return false;
	}
	return in_range(c, p, (int64_t)*out);
}

/* Read text into v (fresh, zeroed) as param_load() would. */
static bool
parse_value(struct pe *c, const struct param *p, const char *s,
    struct param_value *v)
{
	if ((p->flags & PARAM_AUTO) && strcmp(s, "auto") == 0 &&
	    (p->kind == PARAM_INT || p->kind == PARAM_SIZE)) {
		v->is_auto = true;
		return true;
	}
	switch (p->kind) {
	case PARAM_INT:
		if (!parse_int(s, &v->i))
			return expected(c, p);
		return in_range(c, p, v->i);
	case PARAM_SIZE:
		return parse_size(c, p, s, &v->size);
	case PARAM_BOOL:
		return parse_bool(s, &v->i) || expected(c, p);
	case PARAM_STRING:
		v->s = xstrdup(s);
		return true;
	case PARAM_ENUM:
		return parse_enum(c, p, s, &v->i);
	case PARAM_INT_LIST:
		return parse_list(c, p, s, v);
	}
	return false;
}

static void
value_reset(const struct param *params, struct param_value *vals, int k)
{
	size_t n = param_count(params);
	struct param_value *tmp = xcalloc(n + 1, sizeof *tmp);

	param_values_init(params, tmp);
	param_values_done(params, &vals[k], 1);
	vals[k] = tmp[k];
	memset(&tmp[k], 0, sizeof tmp[k]);
	param_values_done(params, tmp, n);
	free(tmp);
}

int
lab_edit_param(struct lab *lab, size_t wi, const char *param, const char *text,
    const char **conflict, struct err *e)
{
	struct param_value v;
	struct lab_workload *w;
	const struct param *p;
	struct pe c = { e, "" };
	char *s;
	int k, other;
	bool ok;

	if (conflict != NULL)
		*conflict = NULL;
	if (wi >= lab->nworkloads || lab->workloads[wi].wl == NULL)
		return lab_edit_bad_index(e);
	w = &lab->workloads[wi];
	lab_workload_path(w, param, c.field, sizeof c.field);
	if ((k = param_index(w->wl->params, param)) < 0)
		return err_set(e, -EINVAL, NULL, 0, c.field, "%s",
		    _("unknown key"));
	p = &w->wl->params[k];
	s = xstrdup(text != NULL ? text : "");
	for (size_t n = strlen(s); n > 0 && isspace((unsigned char)s[n - 1]);)
		s[--n] = '\0';
	memset(&v, 0, sizeof v);
	ok = parse_value(&c, p,
	    p->kind == PARAM_STRING ? s : s + strspn(s, " \t"), &v);
	free(s);
	if (!ok) {
		param_values_done(w->wl->params, &v, 1);
		return -EINVAL;
	}
	param_values_done(w->wl->params, &w->values[k], 1);
	v.set = true;
	w->values[k] = v;
	/* Two parameters that exclude each other: the older one goes. */
	for (other = 0; w->wl->params[other].name != NULL; other++) {
		const struct param *q = &w->wl->params[other];

		if (other == k || !w->values[other].set ||
		    !((p->conflicts && strcmp(p->conflicts, q->name) == 0) ||
			(q->conflicts && strcmp(q->conflicts, p->name) == 0)))
			continue;
		value_reset(w->wl->params, w->values, other);
		if (conflict != NULL)
			*conflict = q->name;
	}
	return 0;
}

int
lab_edit_param_reset(struct lab *lab, size_t wi, const char *param)
{
	struct lab_workload *w;
	int k;

	if (wi >= lab->nworkloads || lab->workloads[wi].wl == NULL)
		return -ERANGE;
	w = &lab->workloads[wi];
	if ((k = param_index(w->wl->params, param)) < 0)
		return -EINVAL;
	value_reset(w->wl->params, w->values, k);
	return 0;
}
