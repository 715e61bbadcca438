/*
 * Writing a lab back: lab_format() renders the model as normalized
 * libconfig text (the defaults group as written, each variant's own keys
 * only, sizes in exact units) and lab_save() replaces the file atomically.
 * The thread that owns the lab.
 */
#include "config.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/afile.h"
#include "base/err.h"
#include "base/units.h"
#include "base/xalloc.h"
#include "lab-load.h"
#include "lab-schema.h"
#include "lab.h"
#include "measure/param.h"
#include "measure/workload.h"

struct out {
	char *p;
	size_t len, cap;
	int depth;
};

static void
put(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (o->len + (size_t)n + 1 > o->cap) {
		o->cap = (o->len + (size_t)n + 1) * 2;
		o->p = xrealloc(o->p, o->cap);
	}
	va_start(ap, fmt);
	vsnprintf(o->p + o->len, o->cap - o->len, fmt, ap);
	va_end(ap);
	o->len += (size_t)n;
}

static void
indent(struct out *o)
{
	int i;

	for (i = 0; i < o->depth; i++)
		put(o, "  ");
}

static void
kv_str(struct out *o, const char *key, const char *val)
{
	char *q = param_quote(val != NULL ? val : "");

	indent(o);
	put(o, "%s = %s;\n", key, q);
	free(q);
}

static void
kv_int(struct out *o, const char *key, int64_t v)
{
	indent(o);
	put(o, "%s = %" PRId64 ";\n", key, v);
}

static void
kv_size(struct out *o, const char *key, uint64_t v)
{
	char buf[UNITS_BUF];

	indent(o);
	put(o, "%s = \"%s\";\n", key, units_format_exact(v, buf, sizeof buf));
}

static void
kv_bool(struct out *o, const char *key, bool v)
{
	indent(o);
	put(o, "%s = %s;\n", key, v ? "true" : "false");
}

static void
kv_strv(struct out *o, const char *key, const struct lab_strv *sv)
{
	size_t i;
	char *q;

	indent(o);
	put(o, "%s = [ ", key);
	for (i = 0; i < sv->n; i++) {
		q = param_quote(sv->v[i]);
		put(o, "%s%s", i ? ", " : "", q);
		free(q);
	}
	put(o, " ];\n");
}

static void
open_group(struct out *o, const char *key)
{
	indent(o);
	if (key != NULL)
		put(o, "%s = {\n", key);
	else
		put(o, "{\n");
	o->depth++;
}

static void
close_group(struct out *o, const char *end)
{
	o->depth--;
	indent(o);
	put(o, "}%s\n", end);
}

#define OWN(x, f) (((x)->own & LAB_BIT(f)) != 0)

static void format_array(struct out *o, const char *key,
    const struct lab_array *a, const char *end);

static void
format_legs(struct out *o, const struct lab_array *a)
{
	size_t i;

	indent(o);
	put(o, "legs = (\n");
	o->depth++;
	for (i = 0; i < a->nlegs; i++)
		format_array(o, NULL, &a->legs[i], i + 1 < a->nlegs ? "," : "");
	o->depth--;
	indent(o);
	put(o, ");\n");
}

static void
format_bitmap(struct out *o, const struct lab_array *a)
{
	if (a->bitmap != LAB_BITMAP_FILE) {
		kv_str(o, "bitmap", lab_bitmap_name(a->bitmap));
		return;
	}
	open_group(o, "bitmap");
	kv_str(o, "file", a->bitmap_file);
	close_group(o, ";");
}

/* A key of a schema by its kind (not LAB_KEY_SPECIAL); a key inside a
   group under its own name ("count" for scratch.count). */
static void
format_key(struct out *o, const struct lab_key *k, const void *group)
{
	const void *p = lab_key_cptr(k, group);
	const char *name = strrchr(k->name, '.');
	char pc[LAB_PERCENT_LEN];

	name = name != NULL ? name + 1 : k->name;
	switch (k->kind) {
	case LAB_KEY_BOOL:
		kv_bool(o, name, *(const bool *)p);
		break;
	case LAB_KEY_INT:
		kv_int(o, name, *(const int64_t *)p);
		break;
	case LAB_KEY_SIZE:
		kv_size(o, name, *(const uint64_t *)p);
		break;
	case LAB_KEY_ENUM:
		kv_str(o, name, k->names[*(const int *)p]);
		break;
	case LAB_KEY_STRING:
	case LAB_KEY_DEVICE:
	case LAB_KEY_NAME:
		kv_str(o, name, *(char *const *)p);
		break;
	case LAB_KEY_PERCENT:
		kv_str(o, name,
		    lab_percent_format(*(const int32_t *)p, pc, sizeof pc));
		break;
	case LAB_KEY_DEVICES:
		kv_strv(o, name, p);
		break;
	case LAB_KEY_NAMES: /* one name as a string, as it is written */
		if (((const struct lab_strv *)p)->n == 1)
			kv_str(o, name, ((const struct lab_strv *)p)->v[0]);
		else
			kv_strv(o, name, p);
		break;
	case LAB_KEY_SPECIAL:
		break;
	}
}

/* An array group; key NULL for an entry of a legs list. */
static void
format_array(struct out *o, const char *key, const struct lab_array *a,
    const char *end)
{
	const struct lab_key *k;

	open_group(o, key);
	for (k = lab_array_keys; k->name != NULL; k++) {
		if (!OWN(a, k->field) || lab_key_nested(k))
			continue;
		if (k->field == LAB_A_BITMAP)
			format_bitmap(o, a);
		else if (k->field == LAB_A_LEGS)
			format_legs(o, a);
		else
			format_key(o, k, a);
	}
	close_group(o, end);
}

static void
format_journal(struct out *o, const struct lab_fs *fs)
{
	if (fs->journal == LAB_JOURNAL_INTERNAL &&
	    !(fs->set & LAB_BIT(LAB_F_JOURNAL_SIZE))) {
		kv_str(o, "journal", "internal");
		return;
	}
	open_group(o, "journal");
	if (fs->journal == LAB_JOURNAL_DEVICE)
		kv_str(o, "device", fs->journal_device);
	else if (fs->journal == LAB_JOURNAL_ARRAY)
		format_array(o, "array", fs->journal_array, ";");
	if (fs->set & LAB_BIT(LAB_F_JOURNAL_SIZE))
		kv_size(o, "size", fs->journal_size);
	close_group(o, ";");
}

static void
format_geometry(struct out *o, const struct lab_fs *fs)
{
	if (fs->geometry == LAB_GEOMETRY_AUTO ||
	    fs->geometry == LAB_GEOMETRY_NONE) {
		kv_str(o, "geometry", lab_geometry_name(fs->geometry));
		return;
	}
	open_group(o, "geometry");
	if (fs->set & LAB_BIT(LAB_F_GEOMETRY_STRIDE))
		kv_int(o, "stride", fs->stride);
	if (fs->set & LAB_BIT(LAB_F_GEOMETRY_STRIPE_WIDTH))
		kv_int(o, "stripe_width", fs->stripe_width);
	if (fs->set & LAB_BIT(LAB_F_GEOMETRY_SU))
		kv_size(o, "su", fs->su);
	if (fs->set & LAB_BIT(LAB_F_GEOMETRY_SW))
		kv_int(o, "sw", fs->sw);
	close_group(o, ";");
}

static void
format_fs(struct out *o, const struct lab_fs *fs)
{
	const struct lab_key *k;

	open_group(o, "fs");
	for (k = lab_fs_keys; k->name != NULL; k++) {
		if (!OWN(fs, k->field) || lab_key_nested(k))
			continue;
		if (k->field == LAB_F_JOURNAL)
			format_journal(o, fs);
		else if (k->field == LAB_F_GEOMETRY)
			format_geometry(o, fs);
		else
			format_key(o, k, fs);
	}
	close_group(o, ";");
}

/* The scratch group: the keys of lab_variant_keys[] inside it. */
static void
format_scratch(struct out *o, const struct lab_variant *v)
{
	const struct lab_key *k;

	open_group(o, "scratch");
	for (k = lab_variant_keys; k->name != NULL; k++) {
		if (!OWN(v, k->field) || strncmp(k->name, "scratch.", 8) != 0)
			continue;
		format_key(o, k, v);
	}
	close_group(o, ";");
}

/* The keys a variant (or defaults) wrote itself. */
static void
format_variant_body(struct out *o, const struct lab_variant *v)
{
	const struct lab_key *k;

	for (k = lab_variant_keys; k->name != NULL; k++) {
		if (!OWN(v, k->field) || lab_key_nested(k))
			continue;
		if (k->field == LAB_V_DIRECTORY)
			kv_str(o, "directory",
			    v->directory_text ? v->directory_text
					      : v->directory);
		else if (k->field == LAB_V_SCRATCH)
			format_scratch(o, v);
		else if (k->field == LAB_V_ARRAY)
			format_array(o, "array", &v->array, ";");
		else if (k->field == LAB_V_FS)
			format_fs(o, &v->fs);
		else
			format_key(o, k, v);
	}
}

static void
format_workload(struct out *o, const struct lab_workload *w, bool last)
{
	const struct param *p;
	size_t i;
	char *text;

	open_group(o, NULL);
	if (w->name != NULL)
		kv_str(o, "name", w->name);
	kv_str(o, "type", w->type);
	for (i = 0; i < w->nvalues; i++) {
		p = &w->wl->params[i];
		if (!w->values[i].set)
			continue;
		text = param_value_format(p, &w->values[i]);
		indent(o);
		put(o, "%s = %s;\n", p->name, text);
		free(text);
	}
	close_group(o, last ? "" : ",");
}

static void
format_repeats(struct out *o, const struct lab *lab)
{
	char pc[LAB_PERCENT_LEN];

	if (!lab_repeats_range(lab)) {
		kv_int(o, "repeats", lab->repeats);
		return;
	}
	indent(o);
	put(o,
	    "repeats = { min = %" PRId64 "; max = %" PRId64
	    "; ci = \"%s\"; };\n",
	    lab->repeats_min, lab->repeats,
	    lab_percent_format(lab->repeats_ci, pc, sizeof pc));
}

/* The hosts list: each host's keys in lab_host_keys[] order. */
static void
format_hosts(struct out *o, const struct lab *lab)
{
	const struct lab_key *k;

	put(o, "\nhosts = (\n");
	o->depth++;
	for (size_t i = 0; i < lab->nhosts; i++) {
		const struct lab_host *h = &lab->hosts[i];

		open_group(o, NULL);
		for (k = lab_host_keys; k->name != NULL; k++)
			if (h->own & (1u << k->field))
				format_key(o, k, h);
		close_group(o, i + 1 < lab->nhosts ? "," : "");
	}
	o->depth--;
	put(o, ");\n");
}

/* The top-level keys up to the defaults group; the lists follow. */
static void
format_top(struct out *o, const struct lab *lab)
{
	const struct lab_key *k;

	for (k = lab_keys; k->name != NULL; k++) {
		if (k->field == LAB_L_HOSTS &&
		    (OWN(lab, k->field) || lab->nhosts > 0))
			format_hosts(o, lab);
		if (k->field == LAB_L_DEFAULTS && lab->defaults != NULL) {
			put(o, "\n");
			open_group(o, "defaults");
			format_variant_body(o, lab->defaults);
			close_group(o, ";");
		}
		if (!OWN(lab, k->field) || k->kind == LAB_KEY_SPECIAL) {
			if (k->field == LAB_L_REPEATS && OWN(lab, k->field))
				format_repeats(o, lab);
			continue;
		}
		format_key(o, k, lab);
	}
}

char *
lab_format(const struct lab *lab)
{
	struct out o = { NULL, 0, 0, 0 };
	size_t i;

	put(&o, "# raidlab lab file: see raidlab.lab(5)\n");
	format_top(&o, lab);
	if (OWN(lab, LAB_L_VARIANTS) || lab->nvariants > 0) {
		put(&o, "\nvariants = (\n");
		o.depth++;
		for (i = 0; i < lab->nvariants; i++) {
			open_group(&o, NULL);
			format_variant_body(&o, &lab->variants[i]);
			close_group(&o, i + 1 < lab->nvariants ? "," : "");
		}
		o.depth--;
		put(&o, ");\n");
	}
	if (OWN(lab, LAB_L_WORKLOADS) || lab->nworkloads > 0) {
		put(&o, "\nworkloads = (\n");
		o.depth++;
		for (i = 0; i < lab->nworkloads; i++)
			format_workload(&o, &lab->workloads[i],
			    i + 1 == lab->nworkloads);
		o.depth--;
		put(&o, ");\n");
	}
	return o.p;
}

int
lab_save(const struct lab *lab, const char *path, struct err *e)
{
	char *text = lab_format(lab);
	int rc;

	rc = afile_write(path, text, strlen(text), e);
	free(text);
	return rc;
}
