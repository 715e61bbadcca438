/*
 * Reading a lab file: libconfig parsing, the top level, variants, the
 * defaults group and workload entries, and the typed getters the array
 * and fs groups (lab-load-array.c) share. See lab_load() in lab.h. The
 * thread that owns the lab.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/i18n.h"
#include "base/strmap.h"
#include "base/suggest.h"
#include "base/units.h"
#include "base/xalloc.h"
#include "lab-include.h"
#include "lab-ints.h"
#include "lab-load.h"
#include "lab-read.h"
#include "lab-schema.h"
#include "lab.h"
#include "measure/param.h"
#include "measure/workload.h"

void
lab_ctx_error(struct lab_ctx *c, int line, const char *field, const char *fmt,
    ...)
{
	char msg[ERR_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	errlist_add(c->errs, -EINVAL, c->file, line, field, "%s", msg);
	c->nerr++;
}

int
lab_line_of(const config_setting_t *s)
{
	return (int)config_setting_source_line(s);
}

void
lab_load_unknown_keys(struct lab_ctx *c, const config_setting_t *g,
    const char *const *known, const char *prefix)
{
	const config_setting_t *s;
	const char *name, *near;
	char field[LAB_PATH_MAX];
	size_t k;
	unsigned i;
	bool found;

	for (i = 0; (s = config_setting_get_elem(g, i)) != NULL; i++) {
		name = config_setting_name(s);
		found = false;
		for (k = 0; known[k] != NULL; k++)
			found = found || strcmp(known[k], name) == 0;
		if (found)
			continue;
		if (prefix[0] != '\0')
			lab_join(field, sizeof field, prefix, name);
		else
			snprintf(field, sizeof field, "%s", name);
		near = suggest_nearest(name, known, (size_t)-1);
		if (near != NULL)
			lab_ctx_error(c, lab_line_of(s), field,
			    _("unknown key; did you mean '%s'?"), near);
		else
			lab_ctx_error(c, lab_line_of(s), field,
			    _("unknown key"));
	}
}

static bool
is_int(const config_setting_t *s)
{
	int t = config_setting_type(s);

	return t == CONFIG_TYPE_INT || t == CONFIG_TYPE_INT64;
}

bool
lab_get_string(struct lab_ctx *c, const config_setting_t *s, const char *field,
    char **out)
{
	if (config_setting_type(s) != CONFIG_TYPE_STRING) {
		lab_ctx_error(c, lab_line_of(s), field, _("expected a string"));
		return false;
	}
	free(*out);
	*out = xstrdup(config_setting_get_string(s));
	return true;
}

bool
lab_get_int(struct lab_ctx *c, const config_setting_t *s, const char *field,
    int64_t min, int64_t max, int64_t *out)
{
	int64_t v;

	if (!is_int(s)) {
		lab_ctx_error(c, lab_line_of(s), field,
		    _("expected an integer"));
		return false;
	}
	v = config_setting_get_int64(s);
	if (v < min || v > max) {
		lab_ctx_error(c, lab_line_of(s), field,
		    _("%lld is out of range (%lld..%lld)"), (long long)v,
		    (long long)min, (long long)max);
		return false;
	}
	*out = v;
	return true;
}

bool
lab_get_bool(struct lab_ctx *c, const config_setting_t *s, const char *field,
    bool *out)
{
	if (config_setting_type(s) != CONFIG_TYPE_BOOL) {
		lab_ctx_error(c, lab_line_of(s), field,
		    _("expected true or false"));
		return false;
	}
	*out = config_setting_get_bool(s) != 0;
	return true;
}

bool
lab_get_size(struct lab_ctx *c, const config_setting_t *s, const char *field,
    uint64_t *out)
{
	const char *text;
	long long n;

	if (is_int(s)) {
		n = config_setting_get_int64(s);
		if (n < 0) {
			lab_ctx_error(c, lab_line_of(s), field,
			    _("a size cannot be negative"));
			return false;
		}
		*out = (uint64_t)n;
		return true;
	}
	if (config_setting_type(s) != CONFIG_TYPE_STRING) {
		lab_ctx_error(c, lab_line_of(s), field,
		    _("expected a size (like \"64K\")"));
		return false;
	}
	text = config_setting_get_string(s);
	if (units_parse_size(text, out) < 0) {
		lab_ctx_error(c, lab_line_of(s), field,
		    _("'%s' is not a size (like 4K, 64M, 2G)"), text);
		return false;
	}
	return true;
}

static bool
device_ok(const char *d)
{
	if (strncmp(d, "scratch:", 8) == 0)
		return lab_scratch_index(d) >= 0;
	return d[0] == '/' && d[1] != '\0';
}

bool
lab_get_strv(struct lab_ctx *c, const config_setting_t *s, const char *field,
    bool devices, struct lab_strv *out)
{
	const config_setting_t *e;
	int t = config_setting_type(s);
	struct lab_strv sv = { NULL, 0 };
	const char *d;
	unsigned i;
	bool ok = true;

	if (t != CONFIG_TYPE_ARRAY && t != CONFIG_TYPE_LIST) {
		lab_ctx_error(c, lab_line_of(s), field,
		    _("expected a list of strings"));
		return false;
	}
	if (config_setting_length(s) == 0) {
		lab_ctx_error(c, lab_line_of(s), field, _("the list is empty"));
		return false;
	}
	for (i = 0; (e = config_setting_get_elem(s, i)) != NULL; i++) {
		if (config_setting_type(e) != CONFIG_TYPE_STRING) {
			lab_ctx_error(c, lab_line_of(s), field,
			    _("expected a list of strings"));
			ok = false;
			break;
		}
		d = config_setting_get_string(e);
		if (devices && !device_ok(d)) {
			lab_ctx_error(c, lab_line_of(s), field,
			    _("'%s' is neither a device path nor scratch:N"),
			    d);
			ok = false;
			continue;
		}
		lab_strv_push(&sv, d);
	}
	if (!ok) {
		lab_strv_done(&sv);
		return false;
	}
	lab_strv_done(out);
	*out = sv;
	return true;
}

char *
lab_choices(const char *const *names)
{
	char *out = xstrdup(""), *t;
	size_t i;

	for (i = 0; names[i] != NULL; i++) {
		t = xasprintf("%s%s%s", out, i ? ", " : "", names[i]);
		free(out);
		out = t;
	}
	return out;
}

bool
lab_get_name(struct lab_ctx *c, const config_setting_t *s, const char *field,
    char **out)
{
	char why[ERR_MSG_MAX];

	if (!lab_get_string(c, s, field, out))
		return false;
	if (lab_name_problem(*out, why, sizeof why) != NULL) {
		lab_ctx_error(c, lab_line_of(s), field, "%s", why);
		free(*out);
		*out = NULL;
		return false;
	}
	return true;
}

/* A string key of an enum: one of names, index in *out. */
bool
lab_get_enum(struct lab_ctx *c, const config_setting_t *s, const char *field,
    const char *const *names, int *out)
{
	const char *text;
	char *choices;
	int i;

	if (config_setting_type(s) != CONFIG_TYPE_STRING) {
		lab_ctx_error(c, lab_line_of(s), field, _("expected a string"));
		return false;
	}
	text = config_setting_get_string(s);
	for (i = 0; names[i] != NULL; i++) {
		if (strcmp(names[i], text) == 0) {
			*out = i;
			return true;
		}
	}
	choices = lab_choices(names);
	lab_ctx_error(c, lab_line_of(s), field, _("'%s' is not one of: %s"),
	    text, choices);
	free(choices);
	return false;
}

/* ---------------------------------------------------------------- variant */

#define VSET(v, f, s)                                                          \
	do {                                                                   \
		(v)->lines[f] = lab_line_of(s);                                \
		(v)->set |= LAB_BIT(f);                                        \
	} while (0)

/* The scratch group: its keys are lines of lab_variant_keys[]. */
static void
load_scratch(struct lab_ctx *c, const config_setting_t *g, const char *prefix,
    struct lab_variant *v)
{
	const char *known[LAB_V__COUNT + 1], *key;
	char field[LAB_PATH_MAX];
	const config_setting_t *s;
	const struct lab_key *k;
	size_t n = 0;

	lab_join(field, sizeof field, prefix, "scratch");
	if (!config_setting_is_group(g)) {
		lab_ctx_error(c, lab_line_of(g), field, _("expected a group"));
		return;
	}
	VSET(v, LAB_V_SCRATCH, g);
	for (k = lab_variant_keys; k->name != NULL; k++)
		if (strncmp(k->name, "scratch.", 8) == 0)
			known[n++] = k->name + 8;
	known[n] = NULL;
	lab_load_unknown_keys(c, g, known, field);
	for (k = lab_variant_keys; k->name != NULL; k++) {
		if (strncmp(k->name, "scratch.", 8) != 0)
			continue;
		key = k->name + 8;
		if ((s = config_setting_get_member(g, key)) != NULL &&
		    lab_key_load(c, k, s,
			lab_join(field, sizeof field, prefix, k->name), v))
			VSET(v, k->field, s);
	}
}

/* directory, expanded (lab_expand_directory); the text as written is
   kept for saving when it differs. */
static bool
load_directory(struct lab_ctx *c, const config_setting_t *s, const char *field,
    struct lab_variant *v)
{
	char why[ERR_MSG_MAX], *text = NULL, *dir;

	if (!lab_get_string(c, s, field, &text))
		return false;
	if ((dir = lab_expand_directory(text, why, sizeof why)) == NULL) {
		lab_ctx_error(c, lab_line_of(s), field, "%s: %s", text, why);
		free(text);
		return false;
	}
	free(v->directory);
	free(v->directory_text);
	v->directory = dir;
	v->directory_text = strcmp(text, dir) != 0 ? text : NULL;
	if (v->directory_text == NULL)
		free(text);
	return true;
}

/* An array or fs group of a variant. */
static void
load_group(struct lab_ctx *c, const config_setting_t *s, const char *prefix,
    enum lab_v_field f, struct lab_variant *v)
{
	char field[LAB_PATH_MAX];

	lab_join(field, sizeof field, prefix, lab_variant_key(f));
	if (!config_setting_is_group(s)) {
		lab_ctx_error(c, lab_line_of(s), field, _("expected a group"));
		return;
	}
	VSET(v, f, s);
	if (f == LAB_V_ARRAY)
		lab_load_array(c, s, field, false, &v->array);
	else
		lab_load_fs(c, s, field, &v->fs);
}

/* Load one variant entry (or the defaults group) into v. The name
   first: the other keys' messages name the variant by it. */
static void
load_variant(struct lab_ctx *c, const config_setting_t *g, bool defaults,
    struct lab_variant *v)
{
	char prefix[LAB_PATH_MAX], field[LAB_PATH_MAX];
	const char *known[LAB_V__COUNT + 1];
	const config_setting_t *s;
	const struct lab_key *k;

	v->line = lab_line_of(g);
	v->is_defaults = defaults;
	if (!defaults && (s = config_setting_get_member(g, "name")) != NULL &&
	    lab_key_load(c, &lab_variant_keys[LAB_V_NAME], s,
		lab_variant_path(v, LAB_V_NAME, field, sizeof field), v))
		VSET(v, LAB_V_NAME, s);
	lab_variant_path(v, -1, prefix, sizeof prefix);
	lab_key_names(lab_variant_keys, defaults ? LAB_KEY_NOT_DEFAULTS : 0,
	    known, LAB_V__COUNT + 1);
	lab_load_unknown_keys(c, g, known, prefix);
	for (k = lab_variant_keys; k->name != NULL; k++) {
		if (k->field == LAB_V_NAME || lab_key_nested(k) ||
		    (defaults && (k->flags & LAB_KEY_NOT_DEFAULTS)) ||
		    (s = config_setting_get_member(g, k->name)) == NULL)
			continue;
		lab_variant_path(v, k->field, field, sizeof field);
		if (k->field == LAB_V_DIRECTORY) {
			if (load_directory(c, s, field, v))
				VSET(v, k->field, s);
		} else if (k->field == LAB_V_SCRATCH) {
			load_scratch(c, s, prefix, v);
		} else if (k->field == LAB_V_ARRAY || k->field == LAB_V_FS) {
			load_group(c, s, prefix, k->field, v);
		} else if (lab_key_load(c, k, s, field, v)) {
			VSET(v, k->field, s);
		}
	}
	v->own = v->set;
}

static void
load_variants(struct lab_ctx *c, const config_setting_t *list, struct lab *lab)
{
	const config_setting_t *g;
	char field[LAB_PATH_MAX];
	size_t i, j, n = (size_t)config_setting_length(list);
	struct strmap names;

	strmap_init(&names);
	lab->variants = xcalloc(n ? n : 1, sizeof *lab->variants);
	for (i = 0; i < n; i++) {
		struct lab_variant *v = &lab->variants[i];

		g = config_setting_get_elem(list, (unsigned)i);
		lab_variant_init(v);
		v->index = i;
		lab->nvariants++;
		if (!config_setting_is_group(g)) {
			snprintf(field, sizeof field, "variants[%zu]", i);
			lab_ctx_error(c, lab_line_of(g), field,
			    _("expected a group"));
			continue;
		}
		load_variant(c, g, false, v);
		if (v->name == NULL || strmap_add(&names, v->name, i, &j))
			continue;
		snprintf(field, sizeof field, "variants[%zu].name", i);
		lab_ctx_error(c, lab_variant_line(v, LAB_V_NAME), field,
		    _("duplicate variant name '%s' (first at line %d)"),
		    v->name, lab_variant_line(&lab->variants[j], LAB_V_NAME));
	}
	strmap_done(&names);
}

/* ---------------------------------------------------------------- workload */

static void
load_workload_type(struct lab_ctx *c, const config_setting_t *g,
    const char *prefix, struct lab_workload *w)
{
	const char *names[16];
	char field[LAB_PATH_MAX];
	const config_setting_t *s;
	const char *near;
	size_t i;

	lab_join(field, sizeof field, prefix, "type");
	if ((s = config_setting_get_member(g, "type")) == NULL) {
		lab_ctx_error(c, lab_line_of(g), field,
		    _("missing; the workload type is one of: bonnie, "
		      "smallfiles, untar, compilebench, fio"));
		return;
	}
	if (!lab_get_string(c, s, field, &w->type))
		return;
	w->lines[LAB_W_TYPE] = lab_line_of(s);
	w->set |= LAB_BIT(LAB_W_TYPE);
	if ((w->wl = workload_find(w->type)) != NULL)
		return;
	for (i = 0; workload_table[i] != NULL && i + 1 < 16; i++)
		names[i] = workload_table[i]->name;
	names[i] = NULL;
	if ((near = suggest_nearest(w->type, names, i)) != NULL)
		lab_ctx_error(c, lab_line_of(s), field,
		    _("unknown workload type '%s'; did you mean '%s'?"),
		    w->type, near);
	else
		lab_ctx_error(c, lab_line_of(s), field,
		    _("unknown workload type '%s'"), w->type);
}

static void
load_workload(struct lab_ctx *c, const config_setting_t *g,
    struct lab_workload *w)
{
	static const char *const skip[] = { "name", "type", NULL };
	char prefix[LAB_PATH_MAX], field[LAB_PATH_MAX];
	const config_setting_t *s;

	w->line = lab_line_of(g);
	if ((s = config_setting_get_member(g, "name")) != NULL &&
	    lab_get_name(c, s,
		lab_workload_path(w, "name", field, sizeof field), &w->name)) {
		w->lines[LAB_W_NAME] = lab_line_of(s);
		w->set |= LAB_BIT(LAB_W_NAME);
	}
	lab_workload_path(w, NULL, prefix, sizeof prefix);
	load_workload_type(c, g, prefix, w);
	if (w->wl == NULL)
		return;
	w->nvalues = param_count(w->wl->params);
	w->values = xcalloc(w->nvalues + 1, sizeof *w->values);
	param_values_init(w->wl->params, w->values);
	c->nerr += param_load(w->wl->params, g, skip, w->values, c->file,
	    prefix, c->errs);
	w->own = w->set;
}

static void
load_workloads(struct lab_ctx *c, const config_setting_t *list, struct lab *lab)
{
	const config_setting_t *g;
	char field[LAB_PATH_MAX];
	size_t i, j, n = (size_t)config_setting_length(list);
	struct strmap names;

	strmap_init(&names);
	lab->workloads = xcalloc(n ? n : 1, sizeof *lab->workloads);
	for (i = 0; i < n; i++) {
		struct lab_workload *w = &lab->workloads[i];

		g = config_setting_get_elem(list, (unsigned)i);
		w->index = i;
		lab->nworkloads++;
		if (!config_setting_is_group(g)) {
			w->line = lab_line_of(g);
			snprintf(field, sizeof field, "workloads[%zu]", i);
			lab_ctx_error(c, lab_line_of(g), field,
			    _("expected a group"));
			continue;
		}
		load_workload(c, g, w);
		if (w->name == NULL || strmap_add(&names, w->name, i, &j))
			continue;
		snprintf(field, sizeof field, "workloads[%zu].name", i);
		lab_ctx_error(c, lab_workload_line(w, LAB_W_NAME), field,
		    _("duplicate workload name '%s' (first at line %d)"),
		    w->name, lab_workload_line(&lab->workloads[j], LAB_W_NAME));
	}
	strmap_done(&names);
}

/* ---------------------------------------------------------------- top */

#define LSET(lab, f, s)                                                        \
	do {                                                                   \
		(lab)->lines[f] = lab_line_of(s);                              \
		(lab)->set |= LAB_BIT(f);                                      \
	} while (0)

static void
load_list(struct lab_ctx *c, const config_setting_t *root, struct lab *lab,
    enum lab_l_field f)
{
	const config_setting_t *s;
	const char *key = lab_key(f);

	if ((s = config_setting_get_member(root, key)) == NULL)
		return;
	if (!config_setting_is_list(s)) {
		lab_ctx_error(c, lab_line_of(s), key,
		    _("expected a list of groups: %s = ( { ... }, ... );"),
		    key);
		return;
	}
	LSET(lab, f, s);
	if (f == LAB_L_VARIANTS)
		load_variants(c, s, lab);
	else
		load_workloads(c, s, lab);
}

static void
load_defaults(struct lab_ctx *c, const config_setting_t *s, struct lab *lab)
{
	if (!config_setting_is_group(s)) {
		lab_ctx_error(c, lab_line_of(s), "defaults",
		    _("expected a group"));
		return;
	}
	LSET(lab, LAB_L_DEFAULTS, s);
	lab->defaults = xmalloc(sizeof *lab->defaults);
	lab_variant_init(lab->defaults);
	load_variant(c, s, true, lab->defaults);
}

static void
load_top(struct lab_ctx *c, const config_setting_t *root, struct lab *lab)
{
	const char *known[LAB_L__COUNT + 1];
	const config_setting_t *s;
	const struct lab_key *k;

	lab_key_names(lab_keys, 0, known, LAB_L__COUNT + 1);
	lab_load_unknown_keys(c, root, known, "");
	for (k = lab_keys; k->name != NULL; k++) {
		if (k->field == LAB_L_VARIANTS || k->field == LAB_L_WORKLOADS) {
			load_list(c, root, lab, (enum lab_l_field)k->field);
			continue;
		}
		if ((s = config_setting_get_member(root, k->name)) == NULL)
			continue;
		if (k->field == LAB_L_REPEATS)
			lab_load_repeats(c, s, lab);
		else if (k->field == LAB_L_DEFAULTS)
			load_defaults(c, s, lab);
		else if (k->field == LAB_L_HOSTS)
			lab_load_hosts(c, s, lab);
		else if (lab_key_load(c, k, s, k->name, lab))
			LSET(lab, k->field, s);
	}
	lab->own = lab->set;
}

/* Merge defaults and interpret levels, once every entry is loaded. */
static void
resolve(struct lab_ctx *c, struct lab *lab)
{
	char prefix[LAB_PATH_MAX];
	size_t i;

	for (i = 0; i < lab->nvariants; i++) {
		struct lab_variant *v = &lab->variants[i];

		if (lab->defaults != NULL)
			lab_merge_defaults(v, lab->defaults);
		lab_variant_path(v, -1, prefix, sizeof prefix);
		if (lab_variant_isset(v, LAB_V_ARRAY))
			lab_resolve_array(c, prefix, &v->array);
		if (lab_variant_isset(v, LAB_V_FS) &&
		    v->fs.journal_array != NULL)
			lab_resolve_array(c, prefix, v->fs.journal_array);
	}
}

static int
finish(struct lab_ctx *c, config_t *cfg, const char *name, struct lab **out)
{
	struct lab *lab = lab_new();

	lab->path = xstrdup(name);
	load_top(c, config_root_setting(cfg), lab);
	resolve(c, lab);
	if (c->nerr > 0) {
		lab_free(lab);
		return -EINVAL;
	}
	*out = lab;
	return 0;
}

static int
syntax_error(struct lab_ctx *c, const config_t *cfg)
{
	const char *file = config_error_file(cfg);
	const char *text = config_error_text(cfg);

	/* libconfig's own message is often just "syntax error". */
	if (text == NULL || strcmp(text, "syntax error") == 0)
		errlist_add(c->errs, -EINVAL, file != NULL ? file : c->file,
		    config_error_line(cfg), NULL, _("syntax error"));
	else
		errlist_add(c->errs, -EINVAL, file != NULL ? file : c->file,
		    config_error_line(cfg), NULL, _("syntax error: %s"), text);
	return -EINVAL;
}

/* What libconfig would misread in the text, before it reads it: every
   such problem, so that a lab with both kinds reports both. */
static int
check_text(const char *text, const char *file, struct errlist *errs)
{
	int includes = lab_include_check(text, file, errs);
	int ints = lab_ints_check(text, file, errs);

	return includes > 0 ? -EINVAL : ints > 0 ? -ERANGE : 0;
}

int
lab_load(const char *path, struct lab **out, struct errlist *errs)
{
	struct lab_ctx c = { path, errs, 0 };
	config_t cfg;
	char *text;
	int rc;

	*out = NULL;
	if ((text = lab_read_file(path, errs)) == NULL)
		return errs->n ? errs->v[errs->n - 1].code : -EIO;
	if ((rc = check_text(text, path, errs)) < 0) {
		free(text);
		return rc;
	}
	config_init(&cfg);
	if (config_read_string(&cfg, text) != CONFIG_TRUE)
		rc = syntax_error(&c, &cfg);
	else
		rc = finish(&c, &cfg, path, out);
	config_destroy(&cfg);
	free(text);
	return rc;
}

int
lab_load_string(const char *text, const char *name, struct lab **out,
    struct errlist *errs)
{
	struct lab_ctx c = { name != NULL ? name : "<string>", errs, 0 };
	config_t cfg;
	int rc;

	*out = NULL;
	if ((rc = check_text(text, c.file, errs)) < 0)
		return rc;
	config_init(&cfg);
	if (config_read_string(&cfg, text) != CONFIG_TRUE)
		rc = syntax_error(&c, &cfg);
	else
		rc = finish(&c, &cfg, c.file, out);
	config_destroy(&cfg);
	return rc;
}
