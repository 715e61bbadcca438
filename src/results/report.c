/*
 * The report's comparison and provenance (report.h): the records are
 * compared as `raidlab compare` does, then every fact a reader needs to
 * trust or rerun the figures is read from the records' documents: the
 * lab's question and text, the host, how each variant was built and what
 * the kernel said it built, the disks, and the caveats. The thread that
 * owns the records.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libconfig.h>

#include "base/afile.h"
#include "base/err.h"
#include "base/i18n.h"
#include "base/strbuf.h"
#include "base/units.h"
#include "base/xalloc.h"
#include "compare-fleet.h"
#include "record.h"
#include "report-int.h"
#include "report.h"

static char *
dup_or_null(const char *s)
{
	return s != NULL && s[0] != '\0' ? xstrdup(s) : NULL;
}

void
report_strv_push(char ***v, size_t *n, char *s)
{
	*v = xreallocarray(*v, *n + 1, sizeof **v);
	(*v)[(*n)++] = s;
}

void
report_strv_free(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* ------------------------------------------------------------ records */

/* "vm: Linux 6.1.0-13-amd64 x86_64; Intel Xeon (2 cores); 23.5 GiB RAM" */
static char *
host_line(const json_t *h, uint64_t *ram)
{
	const char *name = json_string_value(json_object_get(h, "hostname"));
	const char *kern = json_string_value(json_object_get(h, "kernel"));
	const char *arch = json_string_value(json_object_get(h, "arch"));
	const char *cpu = json_string_value(json_object_get(h, "cpu_model"));
	json_int_t cores = json_integer_value(json_object_get(h, "cores"));
	const json_t *r = json_object_get(h, "ram_bytes");
	struct strbuf b;
	char sz[32];

	*ram = json_is_integer(r) ? (uint64_t)json_integer_value(r) : 0;
	if (name == NULL && kern == NULL && cpu == NULL && *ram == 0)
		return NULL;
	strbuf_init(&b);
	strbuf_printf(&b, "%s:", name ? name : _("unknown host"));
	if (kern != NULL)
		strbuf_printf(&b, " Linux %s%s%s;", kern, arch ? " " : "",
		    arch ? arch : "");
	if (cpu != NULL)
		strbuf_printf(&b, " %s", cpu);
	if (cores > 0)
		strbuf_printf(&b,
		    ngettext(" (%lld core);", " (%lld cores);", (long)cores),
		    (long long)cores);
	else if (cpu != NULL)
		strbuf_add(&b, ";");
	if (*ram > 0)
		strbuf_printf(&b, _(" %s RAM"),
		    units_format_size(*ram, sz, sizeof sz));
	return strbuf_take(&b);
}

/* "bonnie++ 1.01b text, from FILE" for an import, else NULL. */
static void
import_facts(struct report_record *r, const json_t *root)
{
	const json_t *im = json_object_get(root, "imported");
	const json_t *miss = json_object_get(im, "missing");
	const char *from = json_string_value(json_object_get(im, "from"));
	const char *file = json_string_value(json_object_get(im, "file"));
	struct strbuf b;
	size_t i;
	const json_t *m;

	if (!json_is_object(im))
		return;
	r->imported = file != NULL
	    ? xasprintf(_("%s, from %s"), from ? from : _("another tool"), file)
	    : xstrdup(from ? from : _("another tool"));
	if (!json_is_array(miss) || json_array_size(miss) == 0)
		return;
	strbuf_init(&b);
	json_array_foreach(miss, i, m) if (json_is_string(m)) strbuf_printf(&b,
	    "%s%s", b.len > 0 ? ", " : "", json_string_value(m));
	r->missing = strbuf_take(&b);
}

static void
record_facts(struct report *s, size_t i)
{
	const struct record *rec = s->recs[i];
	struct report_record *r = &s->r[i];
	const json_t *root = rec->root, *lab = json_object_get(root, "lab");
	char when[64];
	struct tm tm;

	r->rec = rec;
	r->path = dup_or_null(rec->path);
	r->lab = dup_or_null(json_string_value(json_object_get(lab, "name")));
	r->lab_text =
	    dup_or_null(json_string_value(json_object_get(lab, "text")));
	r->status = dup_or_null(record_status(root));
	r->version = dup_or_null(
	    json_string_value(json_object_get(root, "raidlab_version")));
	r->host = host_line(json_object_get(root, "host"), &r->ram);
	r->scaled = dup_or_null(record_scaled(root));
	r->rounds = dup_or_null(record_rounds_why(root));
	if (rec->created != 0 && gmtime_r(&rec->created, &tm) != NULL) {
		strftime(when, sizeof when, "%Y-%m-%d %H:%M UTC", &tm);
		r->created = xstrdup(when);
	}
	import_facts(r, root);
	if (r->lab_text != NULL) {
		/* libconfig alone: the description is wanted even from a lab
		   text this raidlab would refuse (an older one's). */
		config_t cfg;
		const char *d;

		config_init(&cfg);
		if (config_read_string(&cfg, r->lab_text) == CONFIG_TRUE &&
		    config_lookup_string(&cfg, "description", &d) ==
			CONFIG_TRUE)
			r->question = dup_or_null(d);
		config_destroy(&cfg);
	}
	for (size_t k = 0; k < s->cmp.nrows; k++)
		if (s->cmp.rows[k].record == i) {
			r->label = xstrdup(s->cmp.rows[k].source);
			break;
		}
	if (r->label == NULL)
		r->label = xstrdup(r->lab ? r->lab : _("record"));
}

/* ------------------------------------------------------------ variants */

/* The first run of the record for variant name, or NULL. */
static const struct record_run *
first_run(const struct record *rec, const char *name)
{
	for (size_t i = 0; i < rec->nruns; i++)
		if (strcmp(rec->runs[i].variant, name) == 0 &&
		    rec->runs[i].json != NULL &&
		    json_object_get(rec->runs[i].json, "target") != NULL)
			return &rec->runs[i];
	for (size_t i = 0; i < rec->nruns; i++)
		if (strcmp(rec->runs[i].variant, name) == 0)
			return &rec->runs[i];
	return NULL;
}

/* The variant's build that got furthest: the first that succeeded, else
   the last one. */
static const json_t *
find_build(const json_t *root, const char *name, size_t *n)
{
	const json_t *builds = json_object_get(root, "builds"), *b,
		     *last = NULL, *ok = NULL;
	size_t i;

	*n = 0;
	json_array_foreach(builds, i, b)
	{
		const char *v =
		    json_string_value(json_object_get(b, "variant"));
		const char *st =
		    json_string_value(json_object_get(b, "status"));

		if (v == NULL || strcmp(v, name) != 0)
			continue;
		(*n)++;
		if (ok == NULL && st != NULL && strcmp(st, "ok") == 0)
			ok = b;
		last = b;
	}
	return ok != NULL ? ok : last;
}

static char *
target_line(const json_t *t)
{
	const char *fs = json_string_value(json_object_get(t, "fstype"));
	const char *src = json_string_value(json_object_get(t, "source"));
	const char *path = json_string_value(json_object_get(t, "path"));
	const char *opts =
	    json_string_value(json_object_get(t, "mount_options"));

	if (fs == NULL && path == NULL)
		return NULL;
	return xasprintf(_("%s on %s at %s (%s)"), fs ? fs : "?",
	    src ? src : "?", path ? path : "?", opts ? opts : "");
}

/* The steps that ran, as their command lines. */
static void
build_commands(struct report_variant *v, const json_t *build)
{
	const json_t *steps = json_object_get(build, "steps"), *st;
	size_t i;

	json_array_foreach(steps, i, st)
	{
		const char *cmd =
		    json_string_value(json_object_get(st, "command"));
		const char *status =
		    json_string_value(json_object_get(st, "status"));

		if (cmd == NULL)
			continue;
		if (status != NULL && strcmp(status, "ok") != 0)
			report_strv_push(&v->commands, &v->ncommands,
			    xasprintf(_("%s   # %s"), cmd, status));
		else
			report_strv_push(&v->commands, &v->ncommands,
			    xstrdup(cmd));
	}
}

static void
variant_facts(struct report *s, size_t row)
{
	const struct compare_row *cr = &s->cmp.rows[row];
	const struct record *rec = s->recs[cr->record];
	struct report_variant *v = &s->v[row];
	const struct record_run *run = first_run(rec, cr->variant);
	size_t nbuilds;
	const json_t *build = find_build(rec->root, cr->variant, &nbuilds);
	const json_t *var = run ? json_object_get(run->json, "variant") : NULL;
	const char *kind = json_string_value(json_object_get(var, "kind"));

	v->name = xstrdup(cr->variant);
	v->row = row;
	v->record = cr->record;
	v->scratch = cr->scratch;
	v->nbuilds = nbuilds;
	v->text = dup_or_null(cr->text);
	v->array =
	    build != NULL || (kind != NULL && strcmp(kind, "array") == 0);
	if (run != NULL)
		v->target = target_line(json_object_get(run->json, "target"));
	if (build == NULL)
		return;
	build_commands(v, build);
	v->geometry = dup_or_null(json_string_value(
	    json_object_get(json_object_get(build, "plan"), "geometry")));
	report_settings(v, json_object_get(build, "facts"));
	report_phase(v, build);
}

/* --------------------------------------------------------------- disks */

static struct report_disk *
disk_find(struct report *s, const char *name)
{
	for (size_t i = 0; i < s->ndisks; i++)
		if (strcmp(s->disks[i].name, name) == 0)
			return &s->disks[i];
	return NULL;
}

static char *
disk_kind(const json_t *d)
{
	const char *type = json_string_value(json_object_get(d, "type"));
	const char *tr = json_string_value(json_object_get(d, "transport"));
	const char *bf = json_string_value(json_object_get(d, "backing_file"));
	const json_t *rot = json_object_get(d, "rotational");

	if (bf != NULL)
		return xasprintf(_("loop on %s"), bf);
	return xasprintf("%s%s%s%s%s", type ? type : "",
	    json_is_boolean(rot) ? ", " : "",
	    json_is_boolean(rot)
		? (json_is_true(rot) ? _("rotational") : _("non-rotational"))
		: "",
	    tr ? ", " : "", tr ? tr : "");
}

static void
disk_add(struct report *s, const json_t *d, const char *variant)
{
	const char *name = json_string_value(json_object_get(d, "name"));
	const char *model = json_string_value(json_object_get(d, "model"));
	const char *vendor = json_string_value(json_object_get(d, "vendor"));
	const json_t *size = json_object_get(d, "size");
	struct report_disk *k;
	char sz[32];

	if (name == NULL)
		return;
	if ((k = disk_find(s, name)) != NULL) {
		if (strstr(k->used_by, variant) == NULL) {
			char *u = xasprintf("%s, %s", k->used_by, variant);

			free(k->used_by);
			k->used_by = u;
		}
		return;
	}
	s->disks = xreallocarray(s->disks, s->ndisks + 1, sizeof *s->disks);
	k = &s->disks[s->ndisks++];
	memset(k, 0, sizeof *k);
	k->name = xstrdup(name);
	if (model != NULL)
		k->model = vendor != NULL ? xasprintf("%s %s", vendor, model)
					  : xstrdup(model);
	if (json_is_integer(size) && json_integer_value(size) > 0)
		k->size = xstrdup(
		    units_format_size((uint64_t)json_integer_value(size), sz,
			sizeof sz));
	k->kind = disk_kind(d);
	k->used_by = xstrdup(variant);
}

static void
collect_disks(struct report *s)
{
	for (size_t r = 0; r < s->nrecs; r++) {
		const struct record *rec = s->recs[r];

		for (size_t i = 0; i < rec->nruns; i++) {
			const json_t *t =
			    json_object_get(rec->runs[i].json, "target");
			const json_t *devs = json_object_get(t, "devices"), *d;
			size_t j;

			json_array_foreach(devs, j, d)
			    disk_add(s, d, rec->runs[i].variant);
		}
	}
}

/* --------------------------------------------------------------- API */

int
report_init(struct report *s, struct record *const *recs, size_t nrecs,
    const char *baseline)
{
	memset(s, 0, sizeof *s);
	compare_init(&s->cmp);
	s->recs = recs;
	s->nrecs = nrecs;
	for (size_t i = 0; i < nrecs; i++)
		compare_add(&s->cmp, recs[i], NULL);
	if (baseline != NULL)
		for (size_t i = 0; i < s->cmp.nrows; i++)
			if (strcmp(s->cmp.rows[i].variant, baseline) == 0) {
				compare_set_baseline(&s->cmp, i);
				break;
			}
	s->r = xcalloc(nrecs > 0 ? nrecs : 1, sizeof *s->r);
	for (size_t i = 0; i < nrecs; i++)
		record_facts(s, i);
	s->nv = s->cmp.nrows;
	s->v = xcalloc(s->nv > 0 ? s->nv : 1, sizeof *s->v);
	for (size_t i = 0; i < s->nv; i++)
		variant_facts(s, i);
	collect_disks(s);
	report_caveats(s);
	if (nrecs > 0 && s->r[0].question != NULL)
		s->title = xstrdup(s->r[0].question);
	else
		s->title = xasprintf(_("raidlab: %s"),
		    nrecs > 0 && s->r[0].lab ? s->r[0].lab : _("results"));
	return s->cmp.ncols > 0 ? 0 : -ENOENT;
}

void
report_done(struct report *s)
{
	for (size_t i = 0; s->r != NULL && i < s->nrecs; i++) {
		struct report_record *r = &s->r[i];

		free(r->label);
		free(r->path);
		free(r->lab);
		free(r->question);
		free(r->created);
		free(r->status);
		free(r->version);
		free(r->host);
		free(r->imported);
		free(r->missing);
		free(r->scaled);
		free(r->rounds);
		free(r->lab_text);
	}
	for (size_t i = 0; i < s->nv; i++) {
		struct report_variant *v = &s->v[i];

		free(v->name);
		free(v->text);
		free(v->target);
		report_strv_free(v->commands, v->ncommands);
		free(v->geometry);
		report_strv_free(v->settings, v->nsettings);
	}
	for (size_t i = 0; i < s->ndisks; i++) {
		free(s->disks[i].name);
		free(s->disks[i].model);
		free(s->disks[i].size);
		free(s->disks[i].kind);
		free(s->disks[i].used_by);
	}
	free(s->r);
	free(s->v);
	free(s->disks);
	report_strv_free(s->caveats, s->ncaveats);
	free(s->title);
	compare_done(&s->cmp);
	memset(s, 0, sizeof *s);
}

/* ------------------------------------------------------------- helpers */

const char *
report_cell_text(const struct report *s, size_t row, size_t col, char *buf,
    size_t len)
{
	const struct compare_cell *x = compare_cell(&s->cmp, row, col);
	enum wl_unit u = s->cmp.cols[col].unit;
	char m[COMPARE_NUM_BUF];

	if (x->n == 0) {
		snprintf(buf, len, "%s", x->failed > 0 ? _("failed") : "-");
		return buf;
	}
	if (x->too_fast) {
		snprintf(buf, len, "+++++");
		return buf;
	}
	compare_format_value(x->mean, u, m, sizeof m);
	if (x->n > 1 && isfinite(x->d.ci_lo) && isfinite(x->d.ci_hi) &&
	    x->mean > 0) {
		char lo[COMPARE_NUM_BUF], hi[COMPARE_NUM_BUF];

		compare_format_pct((x->d.ci_lo / x->mean - 1) * 100, lo,
		    sizeof lo);
		compare_format_pct((x->d.ci_hi / x->mean - 1) * 100, hi,
		    sizeof hi);
		/* The geometric mean's interval is lopsided around the
		   mean when the repeats are noisy: both ends then. */
		if (lo[0] == '-' && hi[0] == '+' && strcmp(lo + 1, hi + 1) == 0)
			snprintf(buf, len, "%s ±%s%s", m, hi + 1,
			    x->interrupted ? _(" stopped") : "");
		else
			snprintf(buf, len, "%s %.*s/%s%s", m,
			    (int)strlen(lo) - 1, lo, hi,
			    x->interrupted ? _(" stopped") : "");
	} else
		snprintf(buf, len, "%s (n=%zu)%s", m, x->n,
		    x->interrupted ? _(" stopped") : "");
	return buf;
}

char *
report_row_name(const struct report *s, size_t row)
{
	const struct compare_row *r = &s->cmp.rows[row];

	/* a fleet's rows by host, as raidlab compare names them */
	if (compare_by_host(&s->cmp))
		return xasprintf("%s@%s", r->variant, r->host);
	return s->cmp.nrecords > 1
	    ? xasprintf("%s #%zu", r->variant, r->record + 1)
	    : xstrdup(r->variant);
}

/* --------------------------------------------------------------- files */

void
report_render(const struct report *s, enum report_format f, struct strbuf *out)
{
	switch (f) {
	case REPORT_MARKDOWN:
		report_markdown(s, out);
		break;
	case REPORT_HTML:
		report_html(s, out);
		break;
	case REPORT_TEXT:
		report_text(s, out);
		break;
	}
}

const char *
report_format_ext(enum report_format f)
{
	return f == REPORT_HTML ? "html" : f == REPORT_MARKDOWN ? "md" : "txt";
}

char *
report_default_path(const struct report *s, enum report_format f,
    const char *dir)
{
	const char *path = NULL, *base, *slash;
	size_t n;

	for (size_t i = 0; i < s->nrecs && path == NULL; i++)
		path = s->recs[i]->path;
	if (path == NULL)
		return xasprintf("%s/report-%s.%s", dir,
		    s->nrecs > 0 && s->r[0].lab ? s->r[0].lab : "raidlab",
		    report_format_ext(f));
	slash = strrchr(path, '/');
	base = slash ? slash + 1 : path;
	n = strlen(base);
	if (n > 5 && strcmp(base + n - 5, ".json") == 0)
		n -= 5;
	return xasprintf("%.*sreport-%.*s.%s", (int)(base - path), path, (int)n,
	    base, report_format_ext(f));
}

int
report_save(const struct report *s, enum report_format f, const char *path,
    struct err *e)
{
	struct strbuf b;
	int rc;

	strbuf_init(&b);
	strbuf_add(&b, "");
	report_render(s, f, &b);
	rc = afile_write(path, b.s, b.len, e);
	strbuf_done(&b);
	return rc;
}
