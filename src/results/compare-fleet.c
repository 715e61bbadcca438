/*
 * The fleet comparison's figures: which rows are which host's, each
 * host's own verdict of a variant against the baseline variant, their
 * combination over the hosts and the two families' corrections. The
 * words and the JSON are compare-fleet-text.c's. See compare-fleet.h.
 * The thread that owns the table.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/xalloc.h"
#include "compare-fleet.h"
#include "compare.h"
#include "figures/stats.h"

/* Under this many repeats a side, as in the table, no verdict. */
#define FLEET_FEW 3

const char *
compare_record_host(const json_t *root)
{
	const char *h = json_string_value(
	    json_object_get(json_object_get(root, "fleet"), "host"));

	if (h != NULL && h[0] != '\0')
		return h;
	h = json_string_value(
	    json_object_get(json_object_get(root, "host"), "hostname"));
	return h != NULL && h[0] != '\0' ? h : NULL;
}

/* Row i is the first with its host. */
static bool
host_first(const struct compare *c, size_t i)
{
	if (c->rows[i].host == NULL)
		return false;
	for (size_t j = 0; j < i; j++)
		if (c->rows[j].host != NULL &&
		    strcmp(c->rows[j].host, c->rows[i].host) == 0)
			return false;
	return true;
}

size_t
compare_host_count(const struct compare *c)
{
	size_t n = 0;

	for (size_t i = 0; i < c->nrows; i++)
		n += host_first(c, i);
	return n;
}

bool
compare_by_host(const struct compare *c)
{
	size_t n = compare_host_count(c);

	for (size_t i = 0; i < c->nrows; i++)
		if (c->rows[i].host == NULL)
			return false;
	return n > 1 && n == c->nrecords;
}

/* The row of variant on host, of that host's first record; else
   COMPARE_NONE. */
static size_t
host_row(const struct compare *c, const char *host, const char *variant)
{
	size_t rec = COMPARE_NONE;

	for (size_t i = 0; i < c->nrows; i++) {
		const struct compare_row *r = &c->rows[i];

		if (r->host == NULL || strcmp(r->host, host) != 0)
			continue;
		if (rec == COMPARE_NONE)
			rec = r->record;
		if (r->record == rec && strcmp(r->variant, variant) == 0)
			return i;
	}
	return COMPARE_NONE;
}

static bool
positive(const struct compare_cell *x)
{
	for (size_t i = 0; i < x->n; i++)
		if (!(x->v[i] > 0) || !isfinite(x->v[i]))
			return false;
	return true;
}

/* What keeps host h's pair from a verdict, or COMPARE_V_UNSURE: the
   family decides. The table's rules (compare-verdict.c). */
static enum compare_verdict
host_pre(const struct compare_cell *x, const struct compare_cell *b)
{
	if ((x->marks | b->marks) & COMPARE_MARK_FEWLAT)
		return COMPARE_V_NONE;
	if (x->interrupted || b->interrupted)
		return COMPARE_V_STOPPED;
	if (x->too_fast || b->too_fast)
		return COMPARE_V_FAST;
	if (x->n < FLEET_FEW || b->n < FLEET_FEW)
		return COMPARE_V_FEW;
	if (!positive(x) || !positive(b))
		return COMPARE_V_NONE; /* no log-ratio */
	if (x->d.sd == 0 && b->d.sd == 0 && x->mean != b->mean)
		return COMPARE_V_EXACT;
	return COMPARE_V_UNSURE;
}

static void
host_init(const struct compare *c, struct compare_fleet_host *h, size_t col)
{
	const struct compare_cell *x = compare_cell(c, h->row, col);
	const struct compare_cell *b = compare_cell(c, h->base, col);

	h->q = h->eq_lo = h->eq_hi = NAN;
	stats_log_compare(b->v, b->n, x->v, x->n, STATS_CONF, &h->ch);
	h->verdict = host_pre(x, b);
}

/* The item of col and variant, its hosts those with both variants'
   figures in col. False when fewer than 2 hosts have them. */
static bool
item_make(const struct compare *c, size_t col, const char *variant,
    const char *base, struct compare_fleet_item *it)
{
	memset(it, 0, sizeof *it);
	it->col = col;
	it->variant = variant;
	it->base = base;
	it->hosts = xcalloc(c->nrows + 1, sizeof *it->hosts);
	for (size_t i = 0; i < c->nrows; i++) {
		struct compare_fleet_host *h = &it->hosts[it->nhosts];

		if (!host_first(c, i))
			continue;
		h->host = c->rows[i].host;
		h->base = host_row(c, h->host, base);
		h->row = host_row(c, h->host, variant);
		if (h->base == COMPARE_NONE || h->row == COMPARE_NONE ||
		    compare_cell(c, h->base, col)->n == 0 ||
		    compare_cell(c, h->row, col)->n == 0)
			continue;
		host_init(c, h, col);
		it->nhosts++;
	}
	if (it->nhosts < 2) {
		free(it->hosts);
		return false;
	}
	return true;
}

/* The variants other than base, each once, in row order. */
static bool
variant_first(const struct compare *c, size_t i, const char *base)
{
	if (strcmp(c->rows[i].variant, base) == 0 || c->rows[i].host == NULL)
		return false;
	for (size_t j = 0; j < i; j++)
		if (strcmp(c->rows[j].variant, c->rows[i].variant) == 0)
			return false;
	return true;
}

static bool
judged(enum compare_verdict v)
{
	return v == COMPARE_V_UNSURE || v == COMPARE_V_SAME ||
	    v == COMPARE_V_BETTER || v == COMPARE_V_WORSE;
}

/* Better or worse by q, else the same by TOST, else can't tell. */
static enum compare_verdict
settle(double q, double diff, double eq_lo, double eq_hi, double margin,
    bool lower_better)
{
	if (q < COMPARE_ALPHA)
		return (diff < 0) == lower_better ? COMPARE_V_BETTER
						  : COMPARE_V_WORSE;
	if (eq_lo > -margin && eq_hi < margin)
		return COMPARE_V_SAME;
	return COMPARE_V_UNSURE;
}

/* Benjamini-Hochberg over every judged host of every item; each host's
   interval again at the level that keeps it in step. */
static void
hosts_judge(struct compare_fleet *f, const struct compare *c)
{
	size_t n = 0, at = 0;
	double *p, *q;

	for (size_t i = 0; i < f->nitems; i++)
		n += f->items[i].nhosts;
	p = xcalloc(n + 1, sizeof *p);
	q = xcalloc(n + 1, sizeof *q);
	for (size_t i = 0; i < f->nitems; i++)
		for (size_t h = 0; h < f->items[i].nhosts; h++) {
			const struct compare_fleet_host *x =
			    &f->items[i].hosts[h];

			p[at++] =
			    x->verdict == COMPARE_V_UNSURE ? x->ch.p : NAN;
		}
	f->host_family = stats_bh(p, n, q);
	for (size_t j = 0; j < n; j++)
		f->host_rejected += !isnan(p[j]) && q[j] < COMPARE_ALPHA;
	f->host_conf =
	    stats_fcr_conf(f->host_family, f->host_rejected, COMPARE_ALPHA);
	at = 0;
	for (size_t i = 0; i < f->nitems; i++) {
		struct compare_fleet_item *it = &f->items[i];
		bool lower = c->cols[it->col].lower_better;

		for (size_t h = 0; h < it->nhosts; h++) {
			struct compare_fleet_host *x = &it->hosts[h];
			const struct compare_cell *a, *b;
			struct stats_change eq;
			double pv = x->ch.p;

			x->q = q[at++];
			if (x->verdict != COMPARE_V_UNSURE)
				continue;
			a = compare_cell(c, x->base, it->col);
			b = compare_cell(c, x->row, it->col);
			stats_log_compare(a->v, a->n, b->v, b->n, f->host_conf,
			    &x->ch);
			x->ch.p = pv;
			stats_log_compare(a->v, a->n, b->v, b->n,
			    1 - 2 * (1 - STATS_CONF), &eq);
			x->eq_lo = eq.pct_lo;
			x->eq_hi = eq.pct_hi;
			x->verdict = settle(x->q, x->ch.diff, x->eq_lo,
			    x->eq_hi, f->margin, lower);
		}
	}
	free(p);
	free(q);
}

/* The judged hosts' log-ratios combined at conf into *m. */
static void
item_meta(const struct compare_fleet_item *it, double conf,
    struct stats_meta *m)
{
	double *lr = xcalloc(it->nhosts + 1, sizeof *lr);
	double *se = xcalloc(it->nhosts + 1, sizeof *se);
	double *df = xcalloc(it->nhosts + 1, sizeof *df);
	size_t k = 0;

	for (size_t h = 0; h < it->nhosts; h++) {
		const struct compare_fleet_host *x = &it->hosts[h];

		if (!judged(x->verdict) && x->verdict != COMPARE_V_EXACT)
			continue;
		lr[k] = x->ch.diff;
		se[k] = x->ch.se;
		/* both variances 0: an exact ratio, no df */
		df[k++] = x->ch.se > 0 ? x->ch.df : INFINITY;
	}
	stats_meta_blocks(lr, se, df, k, conf, m);
	free(lr);
	free(se);
	free(df);
}

/* The hosts' verdicts counted, the range of their changes. */
static void
item_count(struct compare_fleet_item *it)
{
	it->spread_lo = it->spread_hi = NAN;
	for (size_t h = 0; h < it->nhosts; h++) {
		const struct compare_fleet_host *x = &it->hosts[h];
		double pct = x->ch.pct;

		it->better += x->verdict == COMPARE_V_BETTER;
		it->worse += x->verdict == COMPARE_V_WORSE;
		it->same += x->verdict == COMPARE_V_SAME;
		it->unsure += x->verdict == COMPARE_V_UNSURE;
		it->other += !judged(x->verdict);
		if (!judged(x->verdict) && x->verdict != COMPARE_V_EXACT)
			continue;
		it->used++;
		if (!(pct >= it->spread_lo))
			it->spread_lo = pct;
		if (!(pct <= it->spread_hi))
			it->spread_hi = pct;
	}
}

/* The combined verdicts, corrected over the items. */
static void
items_judge(struct compare_fleet *f, const struct compare *c)
{
	double *p = xcalloc(f->nitems + 1, sizeof *p);
	double *q = xcalloc(f->nitems + 1, sizeof *q);

	for (size_t i = 0; i < f->nitems; i++) {
		struct compare_fleet_item *it = &f->items[i];

		item_count(it);
		item_meta(it, STATS_CONF, &it->m);
		p[i] = it->used >= 2 ? it->m.p : NAN;
	}
	f->family = stats_bh(p, f->nitems, q);
	for (size_t i = 0; i < f->nitems; i++)
		f->rejected += !isnan(p[i]) && q[i] < COMPARE_ALPHA;
	f->conf = stats_fcr_conf(f->family, f->rejected, COMPARE_ALPHA);
	for (size_t i = 0; i < f->nitems; i++) {
		struct compare_fleet_item *it = &f->items[i];
		struct stats_meta eq;

		it->q = q[i];
		it->pct = it->lo = it->hi = it->eq_lo = it->eq_hi = NAN;
		it->verdict = COMPARE_V_NONE;
		if (isnan(p[i]))
			continue;
		item_meta(it, f->conf, &it->m);
		it->m.p = p[i];
		item_meta(it, 1 - 2 * (1 - STATS_CONF), &eq);
		it->pct = expm1(it->m.mean) * 100;
		it->lo = expm1(it->m.lo) * 100;
		it->hi = expm1(it->m.hi) * 100;
		it->eq_lo = expm1(eq.lo) * 100;
		it->eq_hi = expm1(eq.hi) * 100;
		it->verdict = settle(it->q, it->m.mean, it->eq_lo, it->eq_hi,
		    f->margin, c->cols[it->col].lower_better);
	}
	free(p);
	free(q);
}

/*
 * The hosts are blocks: a variant is only ever compared with the
 * baseline variant on its own host, so that a faster controller on one
 * host is not read as a faster variant.
 */
void
compare_fleet_build(struct compare_fleet *f, const struct compare *c)
{
	const char *base;

	memset(f, 0, sizeof *f);
	f->conf = f->host_conf = STATS_CONF;
	f->margin = c->margin;
	f->nhosts = compare_host_count(c);
	if (f->nhosts < 2 || c->baseline == COMPARE_NONE)
		return;
	base = c->rows[c->baseline].variant;
	f->items = xcalloc(c->ncols * c->nrows + 1, sizeof *f->items);
	for (size_t k = 0; k < c->ncols; k++)
		for (size_t i = 0; i < c->nrows; i++)
			if (variant_first(c, i, base) &&
			    item_make(c, k, c->rows[i].variant, base,
				&f->items[f->nitems]))
				f->nitems++;
	hosts_judge(f, c);
	items_judge(f, c);
}

void
compare_fleet_done(struct compare_fleet *f)
{
	for (size_t i = 0; i < f->nitems; i++)
		free(f->items[i].hosts);
	free(f->items);
	memset(f, 0, sizeof *f);
}
