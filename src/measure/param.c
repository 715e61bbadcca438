/*
 * Workload parameter schemas: see param.h. The thread that owns the lab.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/i18n.h"
#include "base/suggest.h"
#include "base/units.h"
#include "base/xalloc.h"
#include "param.h"

size_t
param_count(const struct param *params)
{
	size_t n = 0;

	while (params[n].name != NULL)
		n++;
	return n;
}

int
param_index(const struct param *params, const char *name)
{
	int i;

	for (i = 0; params[i].name != NULL; i++)
		if (strcmp(params[i].name, name) == 0)
			return i;
	return -1;
}

const struct param *
param_find(const struct param *params, const char *name)
{
	int i = param_index(params, name);

	return i < 0 ? NULL : &params[i];
}

const char *
param_kind_name(enum param_kind kind)
{
	switch (kind) {
	case PARAM_INT:
		return _("an integer");
	case PARAM_SIZE:
		return _("a size");
	case PARAM_BOOL:
		return _("true or false");
	case PARAM_STRING:
		return _("a string");
	case PARAM_ENUM:
		return _("a string");
	case PARAM_INT_LIST:
		return _("a list of integers");
	}
	return "?";
}

static int
enum_index(const struct param *p, const char *s)
{
	int i;

	for (i = 0; p->values != NULL && p->values[i] != NULL; i++)
		if (strcmp(p->values[i], s) == 0)
			return i;
	return -1;
}

/* Parse "[1, 2, 3]" (a default from a table) into v. */
static void
parse_list_default(const char *s, struct param_value *v)
{
	char *end;

	while (*s != '\0') {
		if (*s == '[' || *s == ',' || *s == ' ' || *s == ']') {
			s++;
			continue;
		}
		v->list = xreallocarray(v->list, v->nlist + 1, sizeof *v->list);
		v->list[v->nlist++] = strtoll(s, &end, 10);
		s = end;
	}
}

static void
value_default(const struct param *p, struct param_value *v)
{
	memset(v, 0, sizeof *v);
	if (p->def == NULL)
		return;
	if ((p->flags & PARAM_AUTO) && strcmp(p->def, "auto") == 0) {
		v->is_auto = true;
		return;
	}
	switch (p->kind) {
	case PARAM_INT:
		v->i = strtoll(p->def, NULL, 10);
		break;
	case PARAM_SIZE:
		if (units_parse_size(p->def, &v->size) < 0)
			v->size = 0;
		break;
	case PARAM_BOOL:
		v->i = strcmp(p->def, "true") == 0;
		break;
	case PARAM_STRING:
		v->s = xstrdup(p->def);
		break;
	case PARAM_ENUM:
		v->i = enum_index(p, p->def);
		break;
	case PARAM_INT_LIST:
		parse_list_default(p->def, v);
		break;
	}
}

void
param_values_init(const struct param *params, struct param_value *vals)
{
	size_t i;

	for (i = 0; params[i].name != NULL; i++)
		value_default(&params[i], &vals[i]);
}

void
param_values_done(const struct param *params, struct param_value *vals,
    size_t n)
{
	size_t i;

	(void)params;
	for (i = 0; i < n; i++) {
		free(vals[i].s);
		free(vals[i].list);
		memset(&vals[i], 0, sizeof vals[i]);
	}
}

void
param_values_copy(const struct param *params, struct param_value *dst,
    const struct param_value *src)
{
	size_t i, n = param_count(params);

	for (i = 0; i < n; i++) {
		dst[i] = src[i];
		dst[i].s = src[i].s != NULL ? xstrdup(src[i].s) : NULL;
		dst[i].list = NULL;
		if (src[i].nlist > 0) {
			dst[i].list =
			    xcalloc(src[i].nlist, sizeof *dst[i].list);
			memcpy(dst[i].list, src[i].list,
			    src[i].nlist * sizeof *dst[i].list);
		}
	}
}

bool
param_value_equal(const struct param *p, const struct param_value *a,
    const struct param_value *b)
{
	if (a->set != b->set || a->is_auto != b->is_auto)
		return false;
	if (a->is_auto)
		return true;
	switch (p->kind) {
	case PARAM_INT:
	case PARAM_BOOL:
	case PARAM_ENUM:
		return a->i == b->i;
	case PARAM_SIZE:
		return a->size == b->size;
	case PARAM_STRING:
		if (a->s == NULL || b->s == NULL)
			return a->s == b->s;
		return strcmp(a->s, b->s) == 0;
	case PARAM_INT_LIST:
		return a->nlist == b->nlist &&
		    (a->nlist == 0 ||
			memcmp(a->list, b->list, a->nlist * sizeof *a->list) ==
			    0);
	}
	return false;
}

/* ---------------------------------------------------------------- load */

struct pctx {
	const char *file;
	const char *prefix;
	struct errlist *errs;
	int nerr;
};

static void perr(struct pctx *c, const config_setting_t *s, const char *key,
    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void
perr(struct pctx *c, const config_setting_t *s, const char *key,
    const char *fmt, ...)
{
	char field[ERR_FIELD_MAX], msg[ERR_MSG_MAX];
	va_list ap;

	snprintf(field, sizeof field, "%s.%s", c->prefix, key);
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	errlist_add(c->errs, -EINVAL, c->file,
	    (int)config_setting_source_line(s), field, "%s", msg);
	c->nerr++;
}

static bool
is_int(const config_setting_t *s)
{
	int t = config_setting_type(s);

	return t == CONFIG_TYPE_INT || t == CONFIG_TYPE_INT64;
}

static bool
check_range(struct pctx *c, const config_setting_t *s, const struct param *p,
    int64_t v)
{
	if (v < p->min || (p->max != 0 && v > p->max)) {
		if (p->max != 0)
			perr(c, s, p->name,
			    _("%" PRId64 " is out of range (%" PRId64
			      "..%" PRId64 ")"),
			    v, p->min, p->max);
		else
			perr(c, s, p->name,
			    _("%" PRId64 " is out of range (at least %" PRId64
			      ")"),
			    v, p->min);
		return false;
	}
	return true;
}

static bool
load_size(struct pctx *c, const config_setting_t *s, const struct param *p,
    struct param_value *v)
{
	const char *text;
	uint64_t bytes;
	int64_t n;

	if (is_int(s)) {
		n = config_setting_get_int64(s);
		if (n < 0) {
			perr(c, s, p->name, _("a size cannot be negative"));
			return false;
		}
		bytes = (uint64_t)n;
	} else if (config_setting_type(s) == CONFIG_TYPE_STRING) {
		text = config_setting_get_string(s);
		if ((p->flags & PARAM_AUTO) && strcmp(text, "auto") == 0) {
			v->is_auto = true;
			return true;
		}
		if (units_parse_size(text, &bytes) < 0) {
			perr(c, s, p->name,
			    _("'%s' is not a size (like 4K, 64M, 2G)"), text);
			return false;
		}
	} else {
		perr(c, s, p->name, _("expected %s"), param_kind_name(p->kind));
		return false;
	}
	if (bytes > INT64_MAX || !check_range(c, s, p, (int64_t)bytes))
		return false;
	v->is_auto = false;
	v->size = bytes;
	return true;
}

static bool
load_list(struct pctx *c, const config_setting_t *s, const struct param *p,
    struct param_value *v)
{
	int i, n;
	int t = config_setting_type(s);

	if (t != CONFIG_TYPE_ARRAY && t != CONFIG_TYPE_LIST) {
		perr(c, s, p->name, _("expected %s"), param_kind_name(p->kind));
		return false;
	}
	n = config_setting_length(s);
	if (n == 0) {
		perr(c, s, p->name, _("the list is empty"));
		return false;
	}
	free(v->list);
	v->list = xcalloc((size_t)n, sizeof *v->list);
	v->nlist = 0;
	for (i = 0; i < n; i++) {
		const config_setting_t *e =
		    config_setting_get_elem(s, (unsigned)i);

		if (!is_int(e)) {
			perr(c, s, p->name, _("expected %s"),
			    param_kind_name(p->kind));
			return false;
		}
		if (!check_range(c, s, p, config_setting_get_int64(e)))
			return false;
		v->list[v->nlist++] = config_setting_get_int64(e);
	}
	return true;
}

static bool
load_one(struct pctx *c, const config_setting_t *s, const struct param *p,
    struct param_value *v)
{
	const char *text;
	char *choices;
	int i;

	switch (p->kind) {
	case PARAM_INT:
		if (config_setting_type(s) == CONFIG_TYPE_STRING &&
		    (p->flags & PARAM_AUTO) &&
		    strcmp(config_setting_get_string(s), "auto") == 0) {
			v->is_auto = true;
			return true;
		}
		if (!is_int(s)) {
			perr(c, s, p->name, _("expected %s"),
			    param_kind_name(p->kind));
			return false;
		}
		if (!check_range(c, s, p, config_setting_get_int64(s)))
			return false;
		v->i = config_setting_get_int64(s);
		v->is_auto = false;
		return true;
	case PARAM_SIZE:
		return load_size(c, s, p, v);
	case PARAM_BOOL:
		if (config_setting_type(s) != CONFIG_TYPE_BOOL) {
			perr(c, s, p->name, _("expected %s"),
			    param_kind_name(p->kind));
			return false;
		}
		v->i = config_setting_get_bool(s);
		return true;
	case PARAM_STRING:
	case PARAM_ENUM:
		if (config_setting_type(s) != CONFIG_TYPE_STRING) {
			perr(c, s, p->name, _("expected %s"),
			    param_kind_name(p->kind));
			return false;
		}
		text = config_setting_get_string(s);
		if (p->kind == PARAM_STRING) {
			free(v->s);
			v->s = xstrdup(text);
			return true;
		}
		if ((i = enum_index(p, text)) < 0) {
			choices = xstrdup("");
			for (i = 0; p->values[i] != NULL; i++) {
				char *t = xasprintf("%s%s%s", choices,
				    i ? ", " : "", p->values[i]);

				free(choices);
				choices = t;
			}
			perr(c, s, p->name, _("'%s' is not one of: %s"), text,
			    choices);
			free(choices);
			return false;
		}
		v->i = i;
		return true;
	case PARAM_INT_LIST:
		return load_list(c, s, p, v);
	}
	return false;
}

static bool
in_list(const char *const *list, const char *s)
{
	for (; list != NULL && *list != NULL; list++)
		if (strcmp(*list, s) == 0)
			return true;
	return false;
}

static void
unknown_param(struct pctx *c, const config_setting_t *s,
    const struct param *params, const char *const *skip)
{
	const char *name = config_setting_name(s);
	size_t n = param_count(params), k = 0, i;
	const char **cands;
	const char *near;

	for (i = 0; skip != NULL && skip[i] != NULL; i++)
		k++;
	cands = xcalloc(n + k + 1, sizeof *cands);
	for (i = 0; i < n; i++)
		cands[i] = params[i].name;
	for (i = 0; i < k; i++)
		cands[n + i] = skip[i];
	near = suggest_nearest(name, cands, n + k);
	if (near != NULL)
		perr(c, s, name, _("unknown key; did you mean '%s'?"), near);
	else
		perr(c, s, name, _("unknown key"));
	free(cands);
}

int
param_load(const struct param *params, const config_setting_t *group,
    const char *const *skip, struct param_value *vals, const char *file,
    const char *prefix, struct errlist *errs)
{
	struct pctx c = { file, prefix, errs, 0 };
	const config_setting_t *s;
	unsigned i, n;
	int k, other;

	n = (unsigned)config_setting_length(group);
	for (i = 0; i < n; i++) {
		s = config_setting_get_elem(group, i);
		if (in_list(skip, config_setting_name(s)))
			continue;
		k = param_index(params, config_setting_name(s));
		if (k < 0) {
			unknown_param(&c, s, params, skip);
			continue;
		}
		if (load_one(&c, s, &params[k], &vals[k])) {
			vals[k].set = true;
			vals[k].line = (int)config_setting_source_line(s);
		}
	}
	for (k = 0; params[k].name != NULL; k++) {
		if (params[k].conflicts == NULL || !vals[k].set)
			continue;
		other = param_index(params, params[k].conflicts);
		if (other > k && vals[other].set) {
			s = config_setting_get_member(group,
			    params[other].name);
			perr(&c, s, params[other].name,
			    _("cannot be set together with '%s'"),
			    params[k].name);
		}
	}
	return c.nerr;
}

/* ---------------------------------------------------------------- text */

char *
param_quote(const char *s)
{
	size_t len = strlen(s), o = 0;
	char *out = xmalloc(len * 4 + 3);

	out[o++] = '"';
	for (; *s != '\0'; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\') {
			out[o++] = '\\';
			out[o++] = (char)ch;
		} else if (ch == '\n') {
			out[o++] = '\\';
			out[o++] = 'n';
		} else if (ch == '\t') {
			out[o++] = '\\';
			out[o++] = 't';
		} else if (ch < 0x20 || ch == 0x7f) {
			o += (size_t)snprintf(out + o, 5, "\\x%02x", ch);
		} else {
			out[o++] = (char)ch;
		}
	}
	out[o++] = '"';
	out[o] = '\0';
	return out;
}

char *
param_value_format(const struct param *p, const struct param_value *v)
{
	char buf[UNITS_BUF], *out, *t;
	size_t i;

	if (v->is_auto)
		return xstrdup("\"auto\"");
	switch (p->kind) {
	case PARAM_INT:
		return xasprintf("%" PRId64, v->i);
	case PARAM_SIZE:
		return xasprintf("\"%s\"",
		    units_format_exact(v->size, buf, sizeof buf));
	case PARAM_BOOL:
		return xstrdup(v->i ? "true" : "false");
	case PARAM_ENUM:
		return xasprintf("\"%s\"", p->values[v->i]);
	case PARAM_STRING:
		return param_quote(v->s != NULL ? v->s : "");
	case PARAM_INT_LIST:
		out = xstrdup("[");
		for (i = 0; i < v->nlist; i++) {
			t = xasprintf("%s%s%" PRId64, out, i ? ", " : "",
			    v->list[i]);
			free(out);
			out = t;
		}
		t = xasprintf("%s]", out);
		free(out);
		return t;
	}
	return xstrdup("");
}
