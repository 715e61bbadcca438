/*
 * Tail latency as compared figures (compare.h, the latency part): each
 * run's latency histograms reduced to per-round percentiles while the run
 * is added, and from them the p50, p99 and p99.9 columns of each rate
 * column's dominant operation, one figure per round. The thread that
 * owns the table.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "compare-int.h"
#include "compare.h"
#include "figures/hist.h"
#include "measure/result.h"

/* The figure kinds of compare.c (real, too fast, stopped). */
#define NKINDS 3

static const double quantiles[COMPARE_LAT_NQ] = { 0.5, 0.99, 0.999 };

double
compare_lat_quantile(size_t i)
{
	return i < COMPARE_LAT_NQ ? quantiles[i] : NAN;
}

const char *
compare_lat_name(double q)
{
	return q == 0.5  ? "p50"
	    : q == 0.99  ? "p99"
	    : q == 0.999 ? "p99.9"
			 : "p?";
}

uint64_t
compare_lat_need(double q)
{
	/* n (1 - q) >= 10, with the rounding of 1 - 0.999 kept out */
	return (uint64_t)ceil(COMPARE_LAT_BEYOND / (1 - q) - 1e-6);
}

size_t
compare_lat_col(const struct compare *c, size_t k, double q)
{
	for (size_t j = 0; j < c->ncols; j++)
		if (c->cols[j].lat_q == q && c->cols[j].lat_of == k)
			return j;
	return COMPARE_NONE;
}

/* ------------------------------------------------------------ gathering */

struct acc_col {
	struct hist h[NKINDS][WL_OP__COUNT];
	double wall[NKINDS];
	size_t n[NKINDS];
};

struct compare_lat_acc {
	struct acc_col *v;
	size_t n;
};

struct compare_lat_acc *
compare_lat_acc_new(size_t ncols)
{
	struct compare_lat_acc *a = xcalloc(1, sizeof *a);

	a->n = ncols;
	a->v = xcalloc(ncols + 1, sizeof *a->v);
	for (size_t k = 0; k < ncols; k++)
		for (int kd = 0; kd < NKINDS; kd++)
			for (int op = 0; op < WL_OP__COUNT; op++)
				hist_init(&a->v[k].h[kd][op]);
	return a;
}

void
compare_lat_acc_free(struct compare_lat_acc *a)
{
	if (a == NULL)
		return;
	for (size_t k = 0; k < a->n; k++)
		for (int kd = 0; kd < NKINDS; kd++)
			for (int op = 0; op < WL_OP__COUNT; op++)
				hist_done(&a->v[k].h[kd][op]);
	free(a->v);
	free(a);
}

void
compare_lat_acc_take(struct compare_lat_acc *a, size_t col, int kind,
    const struct wl_test *t)
{
	struct acc_col *x;

	if (col >= a->n || kind < 0 || kind >= NKINDS)
		return;
	x = &a->v[col];
	for (int op = 0; op < WL_OP__COUNT; op++)
		hist_merge(&x->h[kind][op], &t->lat[op]);
	x->wall[kind] += t->wall;
	x->n[kind]++;
}

/* The round of column x: its best kind's histograms as percentiles;
   false when that kind has no sample. */
static bool
acc_round(const struct acc_col *x, struct compare_lat_round *r)
{
	int kd;
	bool any = false;

	for (kd = 0; kd < NKINDS && x->n[kd] == 0; kd++)
		;
	if (kd == NKINDS)
		return false;
	memset(r, 0, sizeof *r);
	r->kind = (unsigned char)kd;
	r->wall = x->wall[kd] / (double)x->n[kd];
	for (int op = 0; op < WL_OP__COUNT; op++) {
		const struct hist *h = &x->h[kd][op];

		r->n[op] = h->n;
		any = any || h->n > 0;
		for (size_t i = 0; i < COMPARE_LAT_NQ; i++)
			r->q[op][i] = h->n > 0
			    ? (double)hist_quantile(h, quantiles[i])
			    : NAN;
	}
	return any;
}

void
compare_lat_acc_push(const struct compare_lat_acc *a, struct compare_row *row,
    enum wl_status status)
{
	/* a failed run's figures are counted, not averaged */
	if (status == WL_FAILED)
		return;
	for (size_t k = 0; k < a->n; k++) {
		struct compare_cell *cell = &row->cells[k];
		struct compare_lat_round r;

		if (!acc_round(&a->v[k], &r))
			continue;
		cell->lat =
		    xreallocarray(cell->lat, cell->nlat + 1, sizeof *cell->lat);
		cell->lat[cell->nlat++] = r;
	}
}

/* ------------------------------------------------------------- columns */

/* The operation with most samples in column k over every row; -1 when
   none has any. */
static int
dominant_op(const struct compare *c, size_t k)
{
	uint64_t n[WL_OP__COUNT] = { 0 }, best = 0;
	int found = -1;

	for (size_t i = 0; i < c->nrows; i++) {
		const struct compare_cell *x = &c->rows[i].cells[k];

		for (size_t r = 0; r < x->nlat; r++)
			for (int op = 0; op < WL_OP__COUNT; op++)
				n[op] += x->lat[r].n[op];
	}
	for (int op = 0; op < WL_OP__COUNT; op++)
		if (n[op] > best) {
			best = n[op];
			found = op;
		}
	return found;
}

static void
col_init(struct compare_col *col, const struct compare_col *rate, size_t qi,
    int op, size_t of)
{
	const char *qn = compare_lat_name(quantiles[qi]);

	memset(col, 0, sizeof *col);
	col->workload = xstrdup(rate->workload);
	col->type = xstrdup(rate->type);
	col->key = xstrdup(rate->key);
	col->params = xstrdup(rate->params);
	col->apart = rate->apart ? xstrdup(rate->apart) : NULL;
	col->label = xasprintf("%s, %s %s latency", rate->title, qn,
	    wl_op_name((enum wl_op)op));
	/* the percentile first: a narrow header keeps it */
	col->title = xasprintf("%s %s", qn, rate->title);
	col->unit = WL_UNIT_USEC;
	col->lower_better = compare_lower_better(WL_UNIT_USEC);
	col->best = COMPARE_NONE;
	col->min = col->max = NAN;
	col->lat_q = quantiles[qi];
	col->lat_op = op;
	col->lat_of = of;
}

/* The cell of quantile qi of op from the rate cell x's rounds: each
   round's percentile in microseconds. */
static void
cell_fill(struct compare_cell *cell, const struct compare_cell *x, size_t qi,
    int op)
{
	uint64_t fewest[NKINDS] = { UINT64_MAX, UINT64_MAX, UINT64_MAX };
	unsigned char use = NKINDS;

	compare_cell_init(cell);
	for (size_t r = 0; r < x->nlat; r++) {
		const struct compare_lat_round *l = &x->lat[r];

		if (l->n[op] == 0)
			continue;
		compare_cell_add(cell, l->q[op][qi] / 1e3, l->wall, l->kind);
		if (l->n[op] < fewest[l->kind])
			fewest[l->kind] = l->n[op];
		if (l->kind < use)
			use = l->kind;
	}
	/* the rounds cell_pick() will average are those of the best kind */
	cell->lat_ops = use < NKINDS ? fewest[use] : 0;
	cell->lat_few =
	    use < NKINDS && cell->lat_ops < compare_lat_need(quantiles[qi]);
	cell->failed = x->failed;
	cell->stalled = x->stalled;
	cell->stalled_s = x->stalled_s;
}

void
compare_lat_build(struct compare *c)
{
	size_t nrate = c->ncols, n = 0, w;
	int *op = xcalloc(nrate + 1, sizeof *op);
	size_t *from = NULL;
	struct compare_col *cols;

	for (size_t k = 0; k < nrate; k++) {
		op[k] = dominant_op(c, k);
		n += op[k] >= 0 ? 1 + COMPARE_LAT_NQ : 1;
	}
	if (n == nrate) {
		free(op);
		return;
	}
	/* from[w]: the rate column a new column w is or comes from */
	from = xcalloc(n, sizeof *from);
	cols = xcalloc(n, sizeof *cols);
	w = 0;
	for (size_t k = 0; k < nrate; k++) {
		size_t at = w;

		cols[w] = c->cols[k];
		from[w++] = k;
		for (size_t qi = 0; op[k] >= 0 && qi < COMPARE_LAT_NQ; qi++) {
			col_init(&cols[w], &c->cols[k], qi, op[k], at);
			from[w++] = k;
		}
	}
	for (size_t i = 0; i < c->nrows; i++) {
		struct compare_row *r = &c->rows[i];
		struct compare_cell *cells = xcalloc(n, sizeof *cells);

		for (w = 0; w < n; w++) {
			const struct compare_cell *x = &r->cells[from[w]];

			if (cols[w].lat_q == 0) {
				cells[w] = *x;
				continue;
			}
			cell_fill(&cells[w], x,
			    (size_t)(w - cols[w].lat_of - 1), cols[w].lat_op);
		}
		free(r->cells);
		r->cells = cells;
	}
	free(c->cols);
	c->cols = cols;
	c->ncols = n;
	free(from);
	free(op);
}
