/*
 * The comparison table of result records: rows per record and variant
 * (every variant, with why it has no figure), columns per workload, its
 * parameters and test, the figures of each cell picked by kind, the best
 * cell of each column, the default baseline. The statistics and
 * verdicts are compare-verdict.c's, the JSON compare-json.c's, the
 * listing of a results directory compare-files.c's, the figures' text
 * compare-format.c's. See compare.h. The thread that owns the records
 * (the UI thread).
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/err.h"
#include "base/i18n.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "compare-fleet.h"
#include "compare-int.h"
#include "compare.h"
#include "lab/lab.h"
#include "measure/result.h"
#include "record.h"

void
compare_init(struct compare *c)
{
	memset(c, 0, sizeof *c);
	c->baseline = COMPARE_NONE;
	c->test = STATS_TEST_LOG;
	c->margin = COMPARE_MARGIN_DEFAULT;
	c->conf_shown = STATS_CONF;
}

static void
cell_reset(struct compare_cell *cell)
{
	memset(cell, 0, sizeof *cell);
	cell->mean = cell->sd = cell->pct = NAN;
	cell->q = cell->eq_lo = cell->eq_hi = cell->mde = NAN;
	cell->tau = cell->trend_p = cell->wall = NAN;
	stats_describe(NULL, 0, STATS_CONF, &cell->d);
}

static void
cell_free(struct compare_cell *cell)
{
	free(cell->v);
	free(cell->outlier);
	free(cell->all);
	free(cell->walls);
	free(cell->kind);
	free(cell->lat);
}

static void
row_done(struct compare_row *r, size_t ncols)
{
	for (size_t k = 0; k < ncols; k++)
		cell_free(&r->cells[k]);
	free(r->cells);
	free(r->variant);
	free(r->source);
	free(r->path);
	free(r->host);
	free(r->text);
	free(r->scaled);
	free(r->why);
	free(r->wamp_how);
}

static void
col_done(struct compare_col *col)
{
	free(col->workload);
	free(col->type);
	free(col->key);
	free(col->params);
	free(col->apart);
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
	return u == WL_UNIT_SECONDS || u == WL_UNIT_USEC || u == WL_UNIT_RATIO;
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

/* The figures of the kind that means most, and their tests' median
   duration; compare_judge() does the statistics. */
static void
cell_pick(struct compare_cell *cell)
{
	unsigned char use = FIG_STOPPED;
	double *w;
	size_t nw = 0;

	for (size_t i = 0; i < cell->nall; i++)
		if (cell->kind[i] < use)
			use = cell->kind[i];
	cell->n = cell->fast = cell->stopped = 0;
	cell->v = xreallocarray(cell->v, cell->nall + 1, sizeof *cell->v);
	w = xcalloc(cell->nall + 1, sizeof *w);
	for (size_t i = 0; i < cell->nall; i++) {
		cell->fast += cell->kind[i] == FIG_FAST;
		cell->stopped += cell->kind[i] == FIG_STOPPED;
		if (cell->kind[i] != use)
			continue;
		cell->v[cell->n++] = cell->all[i];
		if (isfinite(cell->walls[i]))
			w[nw++] = cell->walls[i];
	}
	cell->interrupted = cell->n > 0 && use == FIG_STOPPED;
	cell->too_fast = cell->n > 0 && use == FIG_FAST;
	stats_describe(cell->v, cell->n, STATS_CONF, &cell->d);
	/* Rates and durations are above 0: their interval is the geometric
	   mean's, which stays above 0 where mean -/+ t sd/sqrt(n) of a few
	   noisy repeats does not. */
	stats_log_interval(cell->v, cell->n, STATS_CONF, &cell->d.ci_lo,
	    &cell->d.ci_hi);
	cell->d.ci_half = (cell->d.ci_hi - cell->d.ci_lo) / 2;
	cell->mean = cell->d.mean;
	cell->sd = cell->d.sd;
	if (nw > 0) {
		struct stats_desc d;

		stats_describe(w, nw, STATS_CONF, &d);
		cell->wall = d.median;
	} else {
		cell->wall = NAN;
	}
	free(w);
}

/* A cell that competes for best: a finite mean that means something. */
static bool
counts(const struct compare_cell *cell)
{
	return cell->n > 0 && !cell->too_fast && !cell->interrupted &&
	    isfinite(cell->mean);
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

/* A row whose figures can be judged: some cell counts. */
static bool
judgeable(const struct compare *c, size_t i)
{
	for (size_t k = 0; k < c->ncols; k++)
		if (counts(&c->rows[i].cells[k]))
			return true;
	return false;
}

/* Unless the user chose one: the first row with figures that count. A
   failed variant first in its record would leave every verdict empty. */
static void
default_baseline(struct compare *c)
{
	if (c->baseline_chosen)
		return;
	c->baseline = COMPARE_NONE;
	for (size_t i = 0; i < c->nrows; i++)
		if (judgeable(c, i)) {
			c->baseline = i;
			return;
		}
	if (c->nrows > 0)
		c->baseline = 0;
}

static void drop_col(struct compare *c, size_t k);

/* Means, bests, verdicts after rows or columns changed. */
static void
update(struct compare *c)
{
	/* The latency columns follow their rate columns' rounds and
	   dominant operation: made again. */
	for (size_t k = c->ncols; k-- > 0;)
		if (c->cols[k].lat_q > 0)
			drop_col(c, k);
	if (c->latency)
		compare_lat_build(c);
	for (size_t i = 0; i < c->nrows; i++)
		for (size_t k = 0; k < c->ncols; k++)
			cell_pick(&c->rows[i].cells[k]);
	for (size_t k = 0; k < c->ncols; k++)
		col_best(c, k);
	default_baseline(c);
	compare_judge(c);
}

void
compare_set_latency(struct compare *c, bool on)
{
	c->latency = on;
	update(c);
}

void
compare_set_baseline(struct compare *c, size_t row)
{
	c->baseline = row < c->nrows ? row : COMPARE_NONE;
	c->baseline_chosen = true;
	compare_judge(c);
}

double
compare_score(const struct compare *c, size_t row, size_t col)
{
	const struct compare_cell *cell = &c->rows[row].cells[col];
	const struct compare_col *k = &c->cols[col];

	if (!counts(cell) || !isfinite(k->min) || !cell->proven)
		return -1;
	if (k->max == k->min)
		return 1;
	return k->lower_better ? (k->max - cell->mean) / (k->max - k->min)
			       : (cell->mean - k->min) / (k->max - k->min);
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
col_find(struct compare *c, const char *workload, const char *params,
    const struct wl_test *t)
{
	for (size_t k = 0; k < c->ncols; k++)
		if (c->cols[k].lat_q == 0 &&
		    strcmp(c->cols[k].workload, workload) == 0 &&
		    strcmp(c->cols[k].params, params) == 0 &&
		    strcmp(c->cols[k].key, t->key) == 0 &&
		    c->cols[k].unit == t->unit)
			return k;
	return COMPARE_NONE;
}

/* The workload's parameters as compact JSON with sorted keys: like is
   compared with like only. */
static char *
params_of(const struct record_run *run)
{
	const json_t *w = json_object_get(run->json, "workload");
	char *s = json_dumps(json_object_get(w, "params"),
	    JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);

	return s != NULL ? s : xstrdup("null");
}

/* The column of test t of workload, added (with empty cells in every
   row) when new. */
static size_t
col_get(struct compare *c, const struct record_run *run, const char *params,
    const struct wl_test *t)
{
	size_t k = col_find(c, run->workload, params, t);
	struct compare_col *col;

	if (k != COMPARE_NONE)
		return k;
	c->cols = xreallocarray(c->cols, c->ncols + 1, sizeof *c->cols);
	col = &c->cols[c->ncols];
	memset(col, 0, sizeof *col);
	col->workload = xstrdup(run->workload);
	col->type = xstrdup(run->type);
	col->key = xstrdup(t->key);
	col->params = xstrdup(params);
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
	r->wamp_ideal = NAN;
	r->source = xstrdup(label);
	r->path = rec->path ? xstrdup(rec->path) : NULL;
	r->host = compare_record_host(rec->root)
	    ? xstrdup(compare_record_host(rec->root))
	    : NULL;
	r->text = json_str(v, "text") ? xstrdup(json_str(v, "text")) : NULL;
	r->scratch = run->scratch;
	r->scaled =
	    record_scaled(rec->root) ? xstrdup(record_scaled(rec->root)) : NULL;
	r->record = recno;
	r->cv_limit = record_cv_limit(rec->root);
	r->test = (enum stats_test)record_test(rec->root);
	r->margin = record_equivalence(rec->root) * 100;
	r->cells = xcalloc(c->ncols ? c->ncols : 1, sizeof *r->cells);
	for (size_t k = 0; k < c->ncols; k++)
		cell_reset(&r->cells[k]);
	return c->nrows++;
}

static void
cell_push(struct compare_cell *cell, double v, double wall, enum fig_kind kind)
{
	cell->all = xreallocarray(cell->all, cell->nall + 1, sizeof *cell->all);
	cell->walls =
	    xreallocarray(cell->walls, cell->nall + 1, sizeof *cell->walls);
	cell->kind =
	    xreallocarray(cell->kind, cell->nall + 1, sizeof *cell->kind);
	cell->all[cell->nall] = v;
	cell->walls[cell->nall] = wall;
	cell->kind[cell->nall++] = (unsigned char)kind;
}

/* One figure per column for a run: the mean of its tests under that
   column's key (compilebench has one per operation) of the best kind
   among them, and their mean duration. */
struct run_fig {
	double sum[3], wall[3];
	size_t n[3];
	double stalled; /* the longest stall of its tests, seconds */
};

/* A run's figure for a column into its cell: of the best kind among
   its tests; a failed run's is only counted. */
static void
run_push(struct compare_cell *cell, const struct run_fig *f,
    enum wl_status status)
{
	if (f->stalled > 0 && status != WL_FAILED) {
		cell->stalled++;
		if (f->stalled > cell->stalled_s)
			cell->stalled_s = f->stalled;
	}
	for (int kd = FIG_REAL; kd <= FIG_STOPPED; kd++) {
		if (f->n[kd] == 0)
			continue;
		if (status == WL_FAILED)
			cell->failed++;
		else
			cell_push(cell, f->sum[kd] / (double)f->n[kd],
			    f->wall[kd] / (double)f->n[kd], (enum fig_kind)kd);
		return;
	}
}

/* A stopped run's figures are all stopped ones, even those of tests it
   finished: the run is not what the lab asked for. A stalled test's
   figure counts time nothing ran: as good as stopped. */
static enum fig_kind
kind_of(const struct wl_result *res, const struct wl_test *t)
{
	bool stopped =
	    t->interrupted || t->stalled > 0 || res->status == WL_INTERRUPTED;

	return stopped ? FIG_STOPPED : t->too_fast ? FIG_FAST : FIG_REAL;
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
	struct compare_lat_acc *lat;
	struct run_fig *f;
	size_t *col;
	char *params;

	if (res == NULL) {
		if (run->skipped != NULL && c->rows[row].why == NULL)
			c->rows[row].why = xstrdup(run->skipped);
		return;
	}
	/* the columns first: col_get may add some (and move the rows'
	   cells, not the rows) */
	params = params_of(run);
	col = xcalloc(res->ntests + 1, sizeof *col);
	for (size_t t = 0; t < res->ntests; t++)
		if (res->tests[t].key != NULL)
			col[t] = col_get(c, run, params, &res->tests[t]);
	free(params);
	f = xcalloc(c->ncols + 1, sizeof *f);
	lat = compare_lat_acc_new(c->ncols);
	for (size_t t = 0; t < res->ntests; t++) {
		const struct wl_test *test = &res->tests[t];
		enum fig_kind kd = kind_of(res, test);

		/* a figure a record holds as null (or one past a double) is
		   no figure */
		if (test->key == NULL || !isfinite(test->value))
			continue;
		f[col[t]].sum[kd] += test->value;
		f[col[t]].wall[kd] += test->wall;
		f[col[t]].n[kd]++;
		if (test->stalled > f[col[t]].stalled)
			f[col[t]].stalled = test->stalled;
		compare_lat_acc_take(lat, col[t], kd, test);
	}
	for (size_t k = 0; k < c->ncols; k++)
		run_push(&c->rows[row].cells[k], &f[k], res->status);
	compare_lat_acc_push(lat, &c->rows[row], res->status);
	compare_lat_acc_free(lat);
	free(f);
	free(col);
	params = params_of(run);
	compare_wamp_add(c, rec, row, run, params);
	free(params);
}

/* The lab's variants a stopped run never reached get their row too, so
   that no variant vanishes from the table. */
static void
add_unreached(struct compare *c, const struct record *rec, size_t recno,
    const char *label)
{
	const json_t *lj = json_object_get(rec->root, "lab");
	const char *text = json_str(lj, "text");
	struct errlist errs;
	struct lab *lab = NULL;

	if (text == NULL || text[0] == '\0')
		return;
	errlist_init(&errs);
	if (lab_load_string(text, json_str(lj, "path"), &lab, &errs) == 0) {
		for (size_t v = 0; v < lab->nvariants; v++) {
			const char *name = lab->variants[v].name;
			struct record_run run = { 0 };
			size_t i;

			if (name == NULL)
				continue;
			for (i = 0; i < c->nrows; i++)
				if (c->rows[i].record == recno &&
				    strcmp(c->rows[i].variant, name) == 0)
					break;
			if (i < c->nrows)
				continue;
			run.variant = xstrdup(name);
			i = row_get(c, rec, recno, &run, label);
			free(run.variant);
			c->rows[i].why = xstrdup(
			    _("not reached: the run was stopped first"));
		}
	}
	lab_free(lab);
	errlist_done(&errs);
}

/* One clause of params_diff(): "counts [100] against [1000]". */
static void
diff_one(const char *key, const json_t *va, const json_t *vb,
    struct strbuf *out)
{
	char *x = va ? json_dumps(va, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
	char *y = vb ? json_dumps(vb, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;

	strbuf_printf(out, _("%s%s %s against %s"), out->len ? ", " : "", key,
	    x ? x : _("unknown"), y ? y : _("unknown"));
	free(x);
	free(y);
}

/* The parameters two columns of the same test differ in. */
static char *
params_diff(const char *a, const char *b)
{
	json_t *ja = json_loads(a, JSON_DECODE_ANY, NULL);
	json_t *jb = json_loads(b, JSON_DECODE_ANY, NULL);
	struct strbuf out;
	void *it;

	strbuf_init(&out);
	for (it = json_object_iter(ja); it != NULL;
	     it = json_object_iter_next(ja, it)) {
		const char *key = json_object_iter_key(it);
		json_t *va = json_object_iter_value(it);
		json_t *vb = json_object_get(jb, key);

		if (vb == NULL || !json_equal(va, vb))
			diff_one(key, va, vb, &out);
	}
	for (it = json_object_iter(jb); it != NULL;
	     it = json_object_iter_next(jb, it))
		if (json_object_get(ja, json_object_iter_key(it)) == NULL)
			diff_one(json_object_iter_key(it), NULL,
			    json_object_iter_value(it), &out);
	json_decref(ja);
	json_decref(jb);
	if (out.len == 0)
		strbuf_printf(&out, "%s", _("other parameters"));
	return strbuf_take(&out);
}

/* Columns of one workload test run with other parameters: each says why
   it stands apart from the first of them. */
static void
set_apart(struct compare *c)
{
	for (size_t k = 0; k < c->ncols; k++) {
		struct compare_col *col = &c->cols[k];

		free(col->apart);
		col->apart = NULL;
		/* a latency column's is its rate column's */
		for (size_t j = 0; j < c->ncols && col->lat_q == 0; j++) {
			const struct compare_col *o = &c->cols[j];
			char *d;

			if (j == k || o->lat_q > 0 ||
			    strcmp(o->workload, col->workload) != 0 ||
			    strcmp(o->key, col->key) != 0 ||
			    o->unit != col->unit)
				continue;
			d = params_diff(col->params, o->params);
			col->apart = xasprintf(
			    _("kept apart: run with other parameters (%s)"), d);
			free(d);
			break;
		}
	}
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
	compare_phase_add(c, rec, recno);
	if (st != NULL && strcmp(st, "interrupted") == 0)
		add_unreached(c, rec, recno, def);
	free(def);
	set_apart(c);
	update(c);
	return c->nrows - before;
}

/* compare-int.h: the cells compare-lat.c builds latency columns
   with, and the columns compare-wamp.c adds. */
size_t
compare_col_get(struct compare *c, const struct record_run *run,
    const char *params, const struct wl_test *t)
{
	return col_get(c, run, params, t);
}

void
compare_cell_init(struct compare_cell *cell)
{
	cell_reset(cell);
}

void
compare_cell_add(struct compare_cell *cell, double v, double wall,
    unsigned char kind)
{
	cell_push(cell, v, wall, (enum fig_kind)kind);
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
		/* the records after it move up: "#2" becomes "#1", as the
		   front ends number what is left */
		if (c->rows[i].record > record)
			c->rows[i].record--;
		c->rows[w++] = c->rows[i];
	}
	c->nrows = w;
	if (record < c->nrecords)
		c->nrecords--;
	set_apart(c);
	if (base == COMPARE_NONE)
		c->baseline_chosen = false; /* its record went */
	c->baseline = base;
	for (size_t k = c->ncols; k-- > 0;)
		if (!col_used(c, k))
			drop_col(c, k);
	update(c);
}

static bool
cell_used(const struct compare *c, size_t row, size_t col)
{
	const struct compare_cell *cell = &c->rows[row].cells[col];

	return cell->nall > 0 || cell->failed > 0;
}

/* Rows a and b ran one workload with other parameters. */
static bool
params_differ(const struct compare *c, size_t a, size_t b)
{
	for (size_t k = 0; k < c->ncols; k++) {
		const struct compare_col *x = &c->cols[k];

		if (!cell_used(c, a, k))
			continue;
		for (size_t j = 0; j < c->ncols; j++) {
			const struct compare_col *y = &c->cols[j];

			/* any test: the parameters may name the tests
			   ("files_40" against "files_20") */
			if (j != k && cell_used(c, b, j) &&
			    strcmp(x->workload, y->workload) == 0 &&
			    strcmp(x->params, y->params) != 0)
				return true;
		}
	}
	return false;
}

/*
 * Scaling another way matters only where it changed what ran: a --set
 * that makes the parameters equal to the other record's puts both in
 * the same columns, and those figures compare.
 */
bool
compare_scaled_differ(const struct compare *c)
{
	for (size_t i = 0; i < c->nrows; i++)
		for (size_t j = i + 1; j < c->nrows; j++) {
			const char *a = c->rows[i].scaled;
			const char *b = c->rows[j].scaled;

			if (((a == NULL) != (b == NULL) ||
				(a != NULL && strcmp(a, b) != 0)) &&
			    params_differ(c, i, j))
				return true;
		}
	return false;
}
