/*
 * The comparison table of result records: rows per record and variant,
 * columns per workload test, mean and stddev over repeats, percentages
 * against a baseline row, the best cell of each column; and the listing
 * of a results directory for pickers. See compare.h. The thread that owns
 * the records (the UI thread).
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "compare.h"
#include "err.h"
#include "i18n.h"
#include "record.h"
#include "result.h"
#include "xalloc.h"

void
compare_init(struct compare *c)
{
	memset(c, 0, sizeof *c);
	c->baseline = COMPARE_NONE;
}

static void
cell_reset(struct compare_cell *cell)
{
	memset(cell, 0, sizeof *cell);
	cell->mean = cell->sd = cell->pct = NAN;
}

static void
cell_free(struct compare_cell *cell)
{
	free(cell->v);
	free(cell->all);
	free(cell->kind);
}

/* What a repeat's figure is, best first: the mean takes the first kind
   any repeat has (raidlab show's rule). */
enum fig_kind { FIG_REAL, FIG_FAST, FIG_STOPPED };

static void
row_done(struct compare_row *r, size_t ncols)
{
	for (size_t k = 0; k < ncols; k++)
		cell_free(&r->cells[k]);
	free(r->cells);
	free(r->variant);
	free(r->source);
	free(r->path);
	free(r->text);
	free(r->scaled);
}

static void
col_done(struct compare_col *col)
{
	free(col->workload);
	free(col->type);
	free(col->key);
	free(col->label);
	free(col->title);
}

void
compare_done(struct compare *c)
{
	for (size_t i = 0; i < c->nrows; i++)
		row_done(&c->rows[i], c->ncols);
	for (size_t k = 0; k < c->ncols; k++)
		col_done(&c->cols[k]);
	free(c->rows);
	free(c->cols);
	compare_init(c);
}

bool
compare_lower_better(enum wl_unit u)
{
	return u == WL_UNIT_SECONDS;
}

const struct compare_cell *
compare_cell(const struct compare *c, size_t row, size_t col)
{
	return &c->rows[row].cells[col];
}

bool
compare_has_path(const struct compare *c, const char *path)
{
	for (size_t i = 0; i < c->nrows; i++)
		if (c->rows[i].path != NULL &&
		    strcmp(c->rows[i].path, path) == 0)
			return true;
	return false;
}

/* ---------------------------------------------------------------- numbers */

/* Square root by Newton's method: the core does not link libm. */
static double
root(double x)
{
	double r = x > 1 ? x : 1, prev = 0;

	if (!(x > 0))
		return 0;
	for (int i = 0; i < 200 && r != prev; i++) {
		prev = r;
		r = (r + x / r) / 2;
	}
	return r;
}

static void
cell_stats(struct compare_cell *cell)
{
	unsigned char use = FIG_STOPPED;
	double s = 0, q = 0;

	for (size_t i = 0; i < cell->nall; i++)
		if (cell->kind[i] < use)
			use = cell->kind[i];
	cell->n = cell->fast = 0;
	cell->v = xreallocarray(cell->v, cell->nall + 1, sizeof *cell->v);
	for (size_t i = 0; i < cell->nall; i++) {
		cell->fast += cell->kind[i] == FIG_FAST;
		if (cell->kind[i] == use)
			cell->v[cell->n++] = cell->all[i];
	}
	cell->interrupted = cell->n > 0 && use == FIG_STOPPED;
	if (cell->n == 0) {
		cell->mean = cell->sd = NAN;
		cell->too_fast = false;
		return;
	}
	for (size_t i = 0; i < cell->n; i++)
		s += cell->v[i];
	cell->mean = s / (double)cell->n;
	for (size_t i = 0; i < cell->n; i++)
		q += (cell->v[i] - cell->mean) * (cell->v[i] - cell->mean);
	cell->sd = cell->n > 1 ? root(q / (double)(cell->n - 1)) : 0;
	cell->too_fast = use == FIG_FAST;
}

/* A cell that competes for best: a finite mean that means something. */
static bool
counts(const struct compare_cell *cell)
{
	return cell->n > 0 && !cell->too_fast && isfinite(cell->mean);
}

static bool
better(const struct compare_col *col, double a, double b)
{
	return col->lower_better ? a < b : a > b;
}

static void
col_best(struct compare *c, size_t k)
{
	struct compare_col *col = &c->cols[k];
	size_t found = 0;

	col->best = COMPARE_NONE;
	col->min = col->max = NAN;
	for (size_t i = 0; i < c->nrows; i++) {
		const struct compare_cell *cell = &c->rows[i].cells[k];

		if (!counts(cell))
			continue;
		if (found++ == 0) {
			col->best = i;
			col->min = col->max = cell->mean;
			continue;
		}
		if (better(col, cell->mean, c->rows[col->best].cells[k].mean))
			col->best = i;
		if (cell->mean < col->min)
			col->min = cell->mean;
		if (cell->mean > col->max)
			col->max = cell->mean;
	}
	if (found < 2)
		col->best = COMPARE_NONE;
}

static void
update_pct(struct compare *c)
{
	for (size_t k = 0; k < c->ncols; k++) {
		const struct compare_cell *base = c->baseline != COMPARE_NONE
		    ? &c->rows[c->baseline].cells[k]
		    : NULL;

		for (size_t i = 0; i < c->nrows; i++) {
			struct compare_cell *cell = &c->rows[i].cells[k];

			/* "+++++" on either side is no figure to compare */
			cell->pct = NAN;
			if (base != NULL && base->n > 0 && base->mean != 0 &&
			    !base->too_fast && cell->n > 0 && !cell->too_fast)
				cell->pct = (cell->mean - base->mean) /
				    base->mean * 100;
		}
	}
}

/* Means, bests and percentages after rows or columns changed. */
static void
update(struct compare *c)
{
	for (size_t i = 0; i < c->nrows; i++)
		for (size_t k = 0; k < c->ncols; k++)
			cell_stats(&c->rows[i].cells[k]);
	for (size_t k = 0; k < c->ncols; k++)
		col_best(c, k);
	if (c->baseline == COMPARE_NONE && c->nrows > 0)
		c->baseline = 0;
	update_pct(c);
}

void
compare_set_baseline(struct compare *c, size_t row)
{
	c->baseline = row < c->nrows ? row : COMPARE_NONE;
	update_pct(c);
}

double
compare_score(const struct compare *c, size_t row, size_t col)
{
	const struct compare_cell *cell = &c->rows[row].cells[col];
	const struct compare_col *k = &c->cols[col];

	if (!counts(cell) || !isfinite(k->min))
		return -1;
	if (k->max == k->min)
		return 1;
	return k->lower_better ? (k->max - cell->mean) / (k->max - k->min)
			       : (cell->mean - k->min) / (k->max - k->min);
}

const char *
compare_format_value(double v, enum wl_unit u, char *buf, size_t len)
{
	if (!isfinite(v))
		snprintf(buf, len, "-");
	else if (u == WL_UNIT_SECONDS || fabs(v) < 100)
		snprintf(buf, len, "%.2f", v);
	else if (fabs(v) < 10000)
		snprintf(buf, len, "%.1f", v);
	else
		snprintf(buf, len, "%.0f", v);
	return buf;
}

const char *
compare_format_pct(double pct, char *buf, size_t len)
{
	if (!isfinite(pct))
		snprintf(buf, len, "%s", "");
	else if (fabs(pct) >= 99.95)
		snprintf(buf, len, "%+.0f%%", pct);
	else
		snprintf(buf, len, "%+.1f%%", pct);
	return buf;
}

/* ---------------------------------------------------------------- adding */

/* The label up to a trailing " (...)": bonnie's specs stay out of
   column headers. */
static char *
title_of(const char *label)
{
	const char *p = strstr(label, " (");

	return p != NULL && p > label && label[strlen(label) - 1] == ')'
	    ? xstrndup(label, (size_t)(p - label))
	    : xstrdup(label);
}

static size_t
col_find(struct compare *c, const char *workload, const struct wl_test *t)
{
	for (size_t k = 0; k < c->ncols; k++)
		if (strcmp(c->cols[k].workload, workload) == 0 &&
		    strcmp(c->cols[k].key, t->key) == 0 &&
		    c->cols[k].unit == t->unit)
			return k;
	return COMPARE_NONE;
}

/* The column of test t of workload, added (with empty cells in every
   row) when new. */
static size_t
col_get(struct compare *c, const struct record_run *run,
    const struct wl_test *t)
{
	size_t k = col_find(c, run->workload, t);
	struct compare_col *col;

	if (k != COMPARE_NONE)
		return k;
	c->cols = xreallocarray(c->cols, c->ncols + 1, sizeof *c->cols);
	col = &c->cols[c->ncols];
	memset(col, 0, sizeof *col);
	col->workload = xstrdup(run->workload);
	col->type = xstrdup(run->type);
	col->key = xstrdup(t->key);
	col->label = xstrdup(t->label ? t->label : t->key);
	col->title = title_of(col->label);
	col->unit = t->unit;
	col->lower_better = compare_lower_better(t->unit);
	col->best = COMPARE_NONE;
	for (size_t i = 0; i < c->nrows; i++) {
		struct compare_row *r = &c->rows[i];

		r->cells =
		    xreallocarray(r->cells, c->ncols + 1, sizeof *r->cells);
		cell_reset(&r->cells[c->ncols]);
	}
	return c->ncols++;
}

static const char *
json_str(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

/* The row of variant in record number rec, added when new. */
static size_t
row_get(struct compare *c, const struct record *rec, size_t recno,
    const struct record_run *run, const char *label)
{
	const json_t *v = json_object_get(run->json, "variant");
	struct compare_row *r;
	size_t i;

	for (i = 0; i < c->nrows; i++)
		if (c->rows[i].record == recno &&
		    strcmp(c->rows[i].variant, run->variant) == 0)
			return i;
	c->rows = xreallocarray(c->rows, c->nrows + 1, sizeof *c->rows);
	r = &c->rows[c->nrows];
	memset(r, 0, sizeof *r);
	r->variant = xstrdup(run->variant);
	r->source = xstrdup(label);
	r->path = rec->path ? xstrdup(rec->path) : NULL;
	r->text = json_str(v, "text") ? xstrdup(json_str(v, "text")) : NULL;
	r->scratch = run->scratch;
	r->scaled =
	    record_scaled(rec->root) ? xstrdup(record_scaled(rec->root)) : NULL;
	r->record = recno;
	r->cells = xcalloc(c->ncols ? c->ncols : 1, sizeof *r->cells);
	for (size_t k = 0; k < c->ncols; k++)
		cell_reset(&r->cells[k]);
	return c->nrows++;
}

static void
cell_push(struct compare_cell *cell, double v, enum fig_kind kind)
{
	cell->all = xreallocarray(cell->all, cell->nall + 1, sizeof *cell->all);
	cell->kind =
	    xreallocarray(cell->kind, cell->nall + 1, sizeof *cell->kind);
	cell->all[cell->nall] = v;
	cell->kind[cell->nall++] = (unsigned char)kind;
}

/* One figure per column for a run: the mean of its tests under that
   column's key (compilebench has one per operation) of the best kind
   among them. */
struct run_fig {
	double sum[3];
	size_t n[3];
};

static enum fig_kind
kind_of(const struct wl_test *t)
{
	return t->interrupted ? FIG_STOPPED : t->too_fast ? FIG_FAST : FIG_REAL;
}

/* "quick 2026-11-30 07:41", or the file's name without a date. */
static char *
default_label(const struct record *rec)
{
	const char *lab = json_str(json_object_get(rec->root, "lab"), "name");
	char when[32] = "";
	struct tm tm;

	if (rec->created != 0 && localtime_r(&rec->created, &tm) != NULL)
		strftime(when, sizeof when, "%Y-%m-%d %H:%M", &tm);
	if (when[0] == '\0' && rec->path != NULL) {
		const char *base = strrchr(rec->path, '/');

		return xstrdup(base ? base + 1 : rec->path);
	}
	return xasprintf("%s%s%s", lab ? lab : "?", when[0] ? " " : "", when);
}

static void
add_run(struct compare *c, const struct record *rec, size_t recno,
    const struct record_run *run, const char *label)
{
	size_t row = row_get(c, rec, recno, run, label);
	const struct wl_result *res = run->res;
	struct run_fig *f;
	size_t *col;

	if (res == NULL)
		return;
	/* the columns first: col_get may add some (and move the rows'
	   cells, not the rows) */
	col = xcalloc(res->ntests + 1, sizeof *col);
	for (size_t t = 0; t < res->ntests; t++)
		if (res->tests[t].key != NULL)
			col[t] = col_get(c, run, &res->tests[t]);
	f = xcalloc(c->ncols + 1, sizeof *f);
	for (size_t t = 0; t < res->ntests; t++) {
		const struct wl_test *test = &res->tests[t];
		enum fig_kind kd = kind_of(test);

		if (test->key == NULL)
			continue;
		f[col[t]].sum[kd] += test->value;
		f[col[t]].n[kd]++;
	}
	for (size_t k = 0; k < c->ncols; k++)
		for (int kd = FIG_REAL; kd <= FIG_STOPPED; kd++) {
			if (f[k].n[kd] == 0)
				continue;
			if (res->status == WL_FAILED)
				c->rows[row].cells[k].failed++;
			else
				cell_push(&c->rows[row].cells[k],
				    f[k].sum[kd] / (double)f[k].n[kd],
				    (enum fig_kind)kd);
			break;
		}
	free(f);
	free(col);
}

size_t
compare_add(struct compare *c, const struct record *rec, const char *label)
{
	size_t before = c->nrows, recno = c->nrecords++;
	char *def = label ? xstrdup(label) : default_label(rec);
	const char *st = record_status(rec->root);

	/* Its runs are real, but the record is not a whole run of the lab:
	   a stopped one, or one whose raidlab was killed while running. */
	if (st != NULL && strcmp(st, "interrupted") == 0) {
		char *l = xasprintf(_("%s (interrupted)"), def);

		free(def);
		def = l;
	}
	for (size_t i = 0; i < rec->nruns; i++)
		add_run(c, rec, recno, &rec->runs[i], def);
	free(def);
	update(c);
	return c->nrows - before;
}

/* ---------------------------------------------------------------- removing */

static bool
col_used(const struct compare *c, size_t k)
{
	for (size_t i = 0; i < c->nrows; i++)
		if (c->rows[i].cells[k].nall > 0 ||
		    c->rows[i].cells[k].failed > 0)
			return true;
	return false;
}

static void
drop_col(struct compare *c, size_t k)
{
	col_done(&c->cols[k]);
	memmove(&c->cols[k], &c->cols[k + 1],
	    (c->ncols - k - 1) * sizeof *c->cols);
	for (size_t i = 0; i < c->nrows; i++) {
		struct compare_cell *cells = c->rows[i].cells;

		cell_free(&cells[k]);
		memmove(&cells[k], &cells[k + 1],
		    (c->ncols - k - 1) * sizeof *cells);
	}
	c->ncols--;
}

void
compare_remove_record(struct compare *c, size_t record)
{
	size_t w = 0, base = COMPARE_NONE;

	for (size_t i = 0; i < c->nrows; i++) {
		if (c->rows[i].record == record) {
			row_done(&c->rows[i], c->ncols);
			continue;
		}
		if (i == c->baseline)
			base = w;
		c->rows[w++] = c->rows[i];
	}
	c->nrows = w;
	c->baseline = base;
	for (size_t k = c->ncols; k-- > 0;)
		if (!col_used(c, k))
			drop_col(c, k);
	update(c);
}

/* ---------------------------------------------------------------- files */

static void
file_done(struct compare_file *f)
{
	free(f->path);
	free(f->lab);
	free(f->status);
	free(f->error);
}

void
compare_files_done(struct compare_files *l)
{
	for (size_t i = 0; i < l->n; i++)
		file_done(&l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

static size_t
count_variants(const json_t *runs)
{
	size_t n = 0, i, j;

	for (i = 0; i < json_array_size(runs); i++) {
		const char *v =
		    json_str(json_object_get(json_array_get(runs, i),
				 "variant"),
			"name");
		bool seen = v == NULL;

		for (j = 0; j < i && !seen; j++) {
			const char *w =
			    json_str(json_object_get(json_array_get(runs, j),
					 "variant"),
				"name");

			seen = w != NULL && strcmp(v, w) == 0;
		}
		n += !seen;
	}
	return n;
}

/* What the picker shows of one file: read the JSON, not the results. */
static void
file_read(struct compare_file *f)
{
	json_error_t jerr;
	json_t *root = json_load_file(f->path, 0, &jerr);
	const char *fmt, *s;

	if (root == NULL) {
		f->error = xasprintf(_("line %d: %s"), jerr.line, jerr.text);
		return;
	}
	fmt = json_str(root, "format");
	if (fmt == NULL || strcmp(fmt, RECORD_FORMAT) != 0) {
		f->error = xstrdup(_("not a raidlab result record"));
	} else {
		f->ok = true;
		if ((s = json_str(json_object_get(root, "lab"), "name")))
			f->lab = xstrdup(s);
		if ((s = record_status(root)) != NULL)
			f->status = xstrdup(s);
		f->created = record_parse_time(json_str(root, "created"));
		f->nruns = json_array_size(json_object_get(root, "runs"));
		f->nvariants = count_variants(json_object_get(root, "runs"));
	}
	json_decref(root);
}

static int
file_cmp(const void *a, const void *b)
{
	const struct compare_file *x = a, *y = b;

	if (x->created != y->created)
		return x->created < y->created ? 1 : -1;
	return -strcmp(x->path, y->path);
}

static bool
is_json_file(const char *dir, const char *name)
{
	size_t len = strlen(name);
	struct stat st;
	char *p;
	bool ok;

	if (len <= 5 || strcmp(name + len - 5, ".json") != 0 || name[0] == '.')
		return false;
	p = xasprintf("%s/%s", dir, name);
	ok = stat(p, &st) == 0 && S_ISREG(st.st_mode);
	free(p);
	return ok;
}

int
compare_files_scan(struct compare_files *l, const char *dir, struct err *e)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	l->v = NULL;
	l->n = 0;
	if (d == NULL)
		return errno == ENOENT
		    ? 0
		    : err_set(e, -errno, dir, 0, NULL, _("cannot list: %s"),
			  strerror(errno));
	while ((de = readdir(d)) != NULL) {
		struct compare_file *f;

		if (!is_json_file(dir, de->d_name))
			continue;
		l->v = xreallocarray(l->v, l->n + 1, sizeof *l->v);
		f = &l->v[l->n++];
		memset(f, 0, sizeof *f);
		f->path = xasprintf("%s/%s", dir, de->d_name);
		file_read(f);
	}
	closedir(d);
	if (l->n > 1)
		qsort(l->v, l->n, sizeof *l->v, file_cmp);
	return 0;
}

bool
compare_scaled_differ(const struct compare *c)
{
	for (size_t i = 1; i < c->nrows; i++) {
		const char *a = c->rows[0].scaled, *b = c->rows[i].scaled;

		if ((a == NULL) != (b == NULL) ||
		    (a != NULL && strcmp(a, b) != 0))
			return true;
	}
	return false;
}
