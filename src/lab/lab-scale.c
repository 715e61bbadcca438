/*
 * --scale and --set on a loaded lab: see lab-scale.h. The disks
 * (--disk) are lab-scale-disk.c's. The thread that owns the lab.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <libconfig.h>
#include <math.h> /* isfinite, floor: builtins, no libm */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/i18n.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "lab-scale.h"
#include "lab.h"
#include "measure/param.h"
#include "measure/workload.h"

/* The sizes and counts a workload's data set and duration grow with.
   Shapes (dirs, chunk, bs, threads, seekers) are left alone: a scaled run
   does the same kind of I/O, less of it. */
const struct lab_scale_rule lab_scale_rules[] = {
	{ "bonnie", "size", 16 << 20 },
	{ "bonnie", "files", 1 },
	{ "bonnie", "seeks", 100 },
	{ "bonnie", "char_size", 64 << 10 },
	{ "smallfiles", "count", 10 },
	{ "smallfiles", "counts", 10 },
	{ "untar", "synthetic_files", 100 },
	{ "untar", "synthetic_size", 1 << 20 },
	{ "compilebench", "initial", 1 },
	{ "compilebench", "runs", 1 },
	{ "compilebench", "files", 100 },
	{ "compilebench", "size", 1 << 20 },
	{ "fio", "size", 1 << 20 },
	{ "fio", "runtime", 1 },
	{ NULL, NULL, 0 },
};

void
lab_scale_init(struct lab_scale *s)
{
	memset(s, 0, sizeof *s);
}

void
lab_scale_done(struct lab_scale *s)
{
	for (size_t i = 0; i < s->nsets; i++) {
		free(s->sets[i].workload);
		free(s->sets[i].key);
		free(s->sets[i].value);
	}
	free(s->sets);
	for (size_t i = 0; i < s->ndisks; i++)
		free(s->disks[i].path);
	free(s->disks);
	lab_scale_clear_changes(s);
	memset(s, 0, sizeof *s);
}

void
lab_scale_clear_changes(struct lab_scale *s)
{
	for (size_t i = 0; i < s->nchanges; i++)
		free(s->changes[i]);
	free(s->changes);
	s->changes = NULL;
	s->nchanges = 0;
}

bool
lab_scale_empty(const struct lab_scale *s)
{
	return s->fraction == 0 && s->nsets == 0 && s->ndisks == 0;
}

int
lab_scale_parse_fraction(struct lab_scale *s, const char *arg, struct err *e)
{
	char *end;
	double f;

	errno = 0;
	f = strtod(arg, &end);
	if (errno != 0 || end == arg || *end != '\0' || !isfinite(f) ||
	    f < LAB_SCALE_MIN || f > 1)
		return err_set(e, -EINVAL, NULL, 0, "--scale",
		    _("%s is not a fraction from %g to 1"), arg, LAB_SCALE_MIN);
	s->fraction = f;
	return 0;
}

int
lab_scale_add_set(struct lab_scale *s, const char *arg, struct err *e)
{
	const char *eq = strchr(arg, '='), *dot;
	struct lab_scale_set *t;

	dot = eq ? memchr(arg, '.', (size_t)(eq - arg)) : NULL;
	if (eq == NULL || dot == NULL || dot == arg || dot + 1 == eq ||
	    eq[1] == '\0')
		return err_set(e, -EINVAL, NULL, 0, "--set",
		    _("%s: expected WORKLOAD.KEY=VALUE"), arg);
	s->sets = xreallocarray(s->sets, s->nsets + 1, sizeof *s->sets);
	t = &s->sets[s->nsets++];
	t->workload = xstrndup(arg, (size_t)(dot - arg));
	t->key = xstrndup(dot + 1, (size_t)(eq - dot - 1));
	t->value = xstrdup(eq + 1);
	return 0;
}

static void
change(struct lab_scale *s, const struct lab_workload *w, const char *key,
    const char *from, const char *to)
{
	char path[LAB_PATH_MAX];

	s->changes =
	    xreallocarray(s->changes, s->nchanges + 1, sizeof *s->changes);
	s->changes[s->nchanges++] = xasprintf("%s: %s -> %s",
	    lab_workload_path(w, key, path, sizeof path), from, to);
}

/* n x f rounded to the nearest, at least floor unless n was under it;
   0 stays 0 (it means "none" where it is allowed). */
static int64_t
scale_count(int64_t n, double f, int64_t least)
{
	double x = floor((double)n * f + 0.5);

	if (n <= 0 || n <= least)
		return n;
	return x < (double)least ? least : (int64_t)x;
}

/* The same for bytes, rounded down to whole multiples of unit. */
static uint64_t
scale_size(uint64_t n, double f, uint64_t least, uint64_t unit)
{
	uint64_t x;

	if (n == 0 || n <= least)
		return n;
	x = (uint64_t)((double)n * f);
	if (unit > 1)
		x -= x % unit;
	return x < least ? least : x;
}

/* bonnie's size = "auto" is twice the RAM (its ram, or this machine's):
   scaled, it becomes that figure times f, in whole chunks. */
static void
scale_auto_size(struct lab_workload *w, struct param_value *v, double f,
    int64_t least)
{
	const struct param_value *ram = lab_workload_param(w, "ram");
	const struct param_value *chunk = lab_workload_param(w, "chunk");
	uint64_t full;

	if (ram == NULL || chunk == NULL)
		return;
	full = 2 * (ram->is_auto ? workload_ram_bytes() : ram->size);
	v->is_auto = false;
	v->size = scale_size(full, f, (uint64_t)least, chunk->size);
}

/* One parameter of w times f; the change is listed. */
static void
scale_param(struct lab_scale *s, struct lab_workload *w, int k,
    const struct lab_scale_rule *r)
{
	const struct param *p = &w->wl->params[k];
	struct param_value *v = &w->values[k];
	char *from = param_value_format(p, v), *to;
	double f = s->fraction;

	switch (p->kind) {
	case PARAM_INT:
		if (!v->is_auto)
			v->i = scale_count(v->i, f, r->floor);
		break;
	case PARAM_SIZE:
		if (v->is_auto && strcmp(p->name, "size") == 0)
			scale_auto_size(w, v, f, r->floor);
		else if (!v->is_auto)
			v->size =
			    scale_size(v->size, f, (uint64_t)r->floor, 4096);
		break;
	case PARAM_INT_LIST:
		for (size_t i = 0; i < v->nlist; i++)
			v->list[i] = scale_count(v->list[i], f, r->floor);
		break;
	default:
		break;
	}
	to = param_value_format(p, v);
	if (strcmp(from, to) != 0) {
		/* The value is the run's now, as if the lab said it. */
		v->set = true;
		change(s, w, p->name, from, to);
	}
	free(from);
	free(to);
}

static uint64_t
bound_value(const struct param *p, const struct param_value *v)
{
	return p->kind == PARAM_SIZE ? v->size : (uint64_t)v->i;
}

/* A bound (files <= size, bs <= size) that scaling broke: the bounding
   value goes back up to the bounded one. */
static void
scale_bounds(struct lab_scale *s, struct lab_workload *w)
{
	const struct param *ps = w->wl->params;

	for (const struct param_bound *b = w->wl->bounds; b && b->param; b++) {
		int lo = param_index(ps, b->param),
		    hi = param_index(ps, b->at_most);
		struct param_value *vl, *vh;
		char *from, *to;

		if (lo < 0 || hi < 0)
			continue;
		vl = &w->values[lo];
		vh = &w->values[hi];
		if (vl->is_auto || vh->is_auto ||
		    bound_value(&ps[lo], vl) <= bound_value(&ps[hi], vh))
			continue;
		from = param_value_format(&ps[hi], vh);
		if (ps[hi].kind == PARAM_SIZE)
			vh->size = bound_value(&ps[lo], vl);
		else
			vh->i = (int64_t)bound_value(&ps[lo], vl);
		to = param_value_format(&ps[hi], vh);
		change(s, w, ps[hi].name, from, to);
		free(from);
		free(to);
	}
}

static void
scale_workload(struct lab_scale *s, struct lab_workload *w)
{
	for (const struct lab_scale_rule *r = lab_scale_rules; r->type; r++) {
		int k;

		const struct param *p;
		int other;

		if (strcmp(r->type, w->wl->name) != 0 ||
		    (k = param_index(w->wl->params, r->param)) < 0)
			continue;
		/* count when the entry gives counts: not in play */
		p = &w->wl->params[k];
		other = p->conflicts ? param_index(w->wl->params, p->conflicts)
				     : -1;
		if (!w->values[k].set && other >= 0 && w->values[other].set)
			continue;
		scale_param(s, w, k, r);
	}
	scale_bounds(s, w);
}

/* Repeats are a count too: times f, but at least 3, the fewest that
   give an interval and so a verdict (fewer stay as the lab says). */
static void
scale_repeats(struct lab_scale *s, struct lab *lab)
{
	int64_t n =
	    scale_count(lab->repeats, s->fraction, LAB_SCALE_MIN_REPEATS);

	if (n == lab->repeats)
		return;
	s->changes =
	    xreallocarray(s->changes, s->nchanges + 1, sizeof *s->changes);
	s->changes[s->nchanges++] =
	    xasprintf("repeats: %" PRId64 " -> %" PRId64, lab->repeats, n);
	lab->repeats = n;
	/* A range keeps its goal: fewer rounds at most, no fewer than 1.
	   Under 3 rounds no interval can be had, and a lab file's range
	   starts at 3: it becomes that count, so the record's lab text
	   stays a lab that raidlab run takes. */
	if (lab->repeats_min > n)
		lab->repeats_min = n;
	if (lab->repeats_ci != 0 && n < 3) {
		lab->repeats_min = 0;
		lab->repeats_ci = 0;
	}
	lab->set |= 1u << LAB_L_REPEATS;
	lab->own |= 1u << LAB_L_REPEATS;
}

/* A character that continues a word or a number: an integer literal
   followed by one (10abc, 1e3, 4G, 10L) is not a plain integer. */
static bool
word_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '.';
}

/*
 * VALUE with an L after each integer literal outside quotes that does
 * not fit in 32 bits: the libconfig here would cut 4294967297 to 1
 * without a word, while an int64 literal is kept whole and range-checked
 * as it should be. NULL when a literal does not fit in 64 bits either.
 * *tail: a ';', '#' or comment opener outside quotes.
 */
static char *
widen_ints(const char *in, bool *tail)
{
	struct strbuf b;
	bool quoted = false;

	strbuf_init(&b);
	*tail = false;
	for (const char *p = in; *p != '\0';) {
		const char *q = p;
		unsigned long long n;
		char *end;

		/* a second statement or a comment: more than one value */
		if (!quoted &&
		    (*p == ';' || *p == '#' ||
			(*p == '/' && (p[1] == '/' || p[1] == '*'))))
			*tail = true;
		if (quoted || *p == '"' || !isdigit((unsigned char)*p) ||
		    (p > in && word_char(p[-1]))) {
			if (*p == '"')
				quoted = !quoted;
			else if (quoted && *p == '\\' && p[1] != '\0')
				strbuf_printf(&b, "%c", *p++);
			strbuf_printf(&b, "%c", *p++);
			continue;
		}
		errno = 0;
		n = strtoull(p, &end, 0);
		for (q = end; word_char(*q); q++)
			;
		strbuf_printf(&b, "%.*s", (int)(q - p), p);
		if (q == end && (errno == ERANGE || n > INT64_MAX)) {
			strbuf_done(&b);
			return NULL;
		}
		if (q == end && n > INT32_MAX)
			strbuf_add(&b, "L");
		p = q;
	}
	return strbuf_take(&b);
}

/* "KEY = VALUE;" as libconfig reads it; a VALUE that is not a libconfig
   value is taken as a string (sizes and enums need no quotes). */
static bool
read_value(config_t *cf, const struct lab_scale_set *t, const char *value,
    bool *quoted)
{
	char *text = xasprintf("%s = %s;", t->key, value);
	bool ok = config_read_string(cf, text) == CONFIG_TRUE;

	free(text);
	*quoted = !ok;
	if (!ok) {
		char *q = param_quote(t->value);

		text = xasprintf("%s = %s;", t->key, q);
		ok = config_read_string(cf, text) == CONFIG_TRUE;
		free(q);
		free(text);
	}
	return ok;
}

/* t's value read into cf, alone: a number too large, or text after the
   value (10; sync = true: a second key, or a comment) is said and
   refused, not half applied while lab.scaled shows all of it. Text
   libconfig cannot read is one string (a path with a ';' in it). */
static int
read_checked(config_t *cf, const struct lab_scale_set *t, struct errlist *errs)
{
	const config_setting_t *root, *s;
	bool ok, tail, quoted;
	char *value = widen_ints(t->value, &tail);

	if (value == NULL)
		return errlist_add(errs, -EINVAL, "--set", 0, NULL,
		    _("%s.%s=%s: the number is too large"), t->workload, t->key,
		    t->value);
	ok = read_value(cf, t, value, &quoted);
	free(value);
	if (!ok)
		return errlist_add(errs, -EINVAL, "--set", 0, NULL,
		    _("%s.%s=%s: not a key and a value"), t->workload, t->key,
		    t->value);
	/* the root a read made (each read replaces it) */
	root = config_root_setting(cf);
	s = config_setting_get_elem(root, 0);
	if ((tail && !quoted) || config_setting_length(root) != 1 ||
	    s == NULL || strcmp(config_setting_name(s), t->key) != 0)
		return errlist_add(errs, -EINVAL, "--set", 0, NULL,
		    _("%s.%s=%s: text after the value"), t->workload, t->key,
		    t->value);
	return 0;
}

/* One --set on the workload w, typed by its schema. */
static int
set_one(struct lab_scale *s, struct lab_workload *w,
    const struct lab_scale_set *t, struct errlist *errs)
{
	const struct param *ps = w->wl->params;
	size_t n = param_count(ps), first = errs->n;
	struct param_value *vals = xcalloc(n, sizeof *vals);
	char *from = NULL, *to;
	config_t cf;
	int k, other, rc = 0;

	config_init(&cf);
	if ((rc = read_checked(&cf, t, errs)) < 0)
		goto out;
	param_values_init(ps, vals);
	if (param_load(ps, config_root_setting(&cf), NULL, vals, "--set",
		lab_workload_name(w), errs) > 0) {
		/* said as "--set: small.count: reason", without a line */
		for (size_t i = first; i < errs->n; i++)
			errs->v[i].line = 0;
		rc = -EINVAL;
		goto out;
	}
	k = param_index(ps, t->key);
	from = param_value_format(&ps[k], &w->values[k]);
	/* the value moves over; vals[k] keeps nothing to free */
	param_values_done(&ps[k], &w->values[k], 1);
	w->values[k] = vals[k];
	w->values[k].line = 0;
	memset(&vals[k], 0, sizeof vals[k]);
	/* count replaces counts, and the other way round: the other back
	   to its default, unset (vals[other] is that default) */
	if (ps[k].conflicts != NULL &&
	    (other = param_index(ps, ps[k].conflicts)) >= 0) {
		param_values_done(&ps[other], &w->values[other], 1);
		w->values[other] = vals[other];
		memset(&vals[other], 0, sizeof vals[other]);
	}
	to = param_value_format(&ps[k], &w->values[k]);
	change(s, w, ps[k].name, from, to);
	free(to);
out:
	free(from);
	param_values_done(ps, vals, n);
	free(vals);
	config_destroy(&cf);
	return rc;
}

int
lab_scale_apply(struct lab *lab, struct lab_scale *s, struct errlist *errs)
{
	int rc = 0;

	if (s->ndisks > 0 && lab_scale_disks(lab, s, errs) < 0)
		rc = -EINVAL;
	if (s->fraction > 0) {
		scale_repeats(s, lab);
		for (size_t i = 0; i < lab->nworkloads; i++)
			scale_workload(s, &lab->workloads[i]);
	}
	for (size_t i = 0; i < s->nsets; i++) {
		const struct lab_scale_set *t = &s->sets[i];
		bool found = false;

		for (size_t k = 0; k < lab->nworkloads; k++) {
			struct lab_workload *w = &lab->workloads[k];

			if (strcmp(lab_workload_name(w), t->workload) != 0)
				continue;
			found = true;
			if (set_one(s, w, t, errs) < 0)
				rc = -EINVAL;
		}
		if (!found)
			rc = errlist_add(errs, -EINVAL, "--set", 0, NULL,
			    _("%s: the lab has no workload named %s"),
			    lab->path ? lab->path : "<string>", t->workload);
	}
	return rc;
}

char *
lab_scale_describe(const struct lab_scale *s)
{
	struct strbuf b;

	if (lab_scale_empty(s))
		return NULL;
	strbuf_init(&b);
	if (s->fraction > 0)
		strbuf_printf(&b, "--scale %g", s->fraction);
	for (size_t i = 0; i < s->nsets; i++)
		strbuf_printf(&b, "%s--set %s.%s=%s", b.len ? " " : "",
		    s->sets[i].workload, s->sets[i].key, s->sets[i].value);
	for (size_t i = 0; i < s->ndisks; i++)
		strbuf_printf(&b, "%s--disk scratch:%d=%s", b.len ? " " : "",
		    s->disks[i].index, s->disks[i].path);
	return strbuf_take(&b);
}
