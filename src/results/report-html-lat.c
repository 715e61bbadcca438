/*
 * The HTML report's latency (report-html-int.h): per test with latency
 * histograms, its dominant operation (the one with most samples, as
 * raidlab show picks it), and per variant p50, p90, p99, p99.9 and the
 * maximum of its repeats' histograms pooled, as a percentile chart on a
 * log scale beside the table; under it the comparison of p50, p99 and
 * p99.9 (report-lat.c: each repeat's own percentile, judged across the
 * repeats) with the verdicts and answers. The thread that owns the
 * records.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/i18n.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "figures/hist.h"
#include "measure/result.h"
#include "record.h"
#include "report-html-int.h"
#include "report-int.h"
#include "report-svg.h"
#include "report.h"

#define NQ 5
static const double quantiles[NQ] = { 0.5, 0.9, 0.99, 0.999, 1 };
static const char *const qnames[NQ] = { "p50", "p90", "p99", "p99.9", "max" };

/* The tests under col's key in a run that counts for latency: it did
   not fail and the test was not stopped (compilebench has several). */
static void
run_hists(const struct record_run *r, const char *key, int op, struct hist *sum,
    uint64_t *per_op)
{
	const struct wl_result *res = r->res;

	if (res->status == WL_FAILED)
		return;
	for (size_t t = 0; t < res->ntests; t++) {
		const struct wl_test *x = &res->tests[t];

		if (x->key == NULL || strcmp(x->key, key) != 0 ||
		    x->interrupted)
			continue;
		for (int o = 0; per_op != NULL && o < WL_OP__COUNT; o++)
			per_op[o] += x->lat[o].n;
		if (sum != NULL && op >= 0)
			hist_merge(sum, &x->lat[op]);
	}
}

/* Every repeat of row behind column col, op's histograms pooled into h
   (with op < 0: per_op counts the samples of each operation). */
static void
row_hists(const struct report *s, size_t row, size_t col, int op,
    struct hist *h, uint64_t *per_op)
{
	const struct record *rec;

	if (s->cmp.rows[row].record >= s->nrecs)
		return;
	rec = s->recs[s->cmp.rows[row].record];
	for (size_t i = 0; i < rec->nruns; i++)
		if (report_html_run_of(s, row, col, &rec->runs[i]))
			run_hists(&rec->runs[i], s->cmp.cols[col].key, op, h,
			    per_op);
}

/* The operation with most samples over every row, or -1. */
static int
dominant_op(const struct report *s, size_t col)
{
	uint64_t n[WL_OP__COUNT] = { 0 }, best = 0;
	int found = -1;

	for (size_t i = 0; i < s->cmp.nrows; i++)
		row_hists(s, i, col, -1, NULL, n);
	for (int op = 0; op < WL_OP__COUNT; op++)
		if (n[op] > best) {
			best = n[op];
			found = op;
		}
	return found;
}

struct lat {
	struct hist *h; /* per row */
	double q[NQ]; /* in the chart's unit; NaN without samples */
};

/* "µs" below a millisecond's median, else "ms": the scale as nanoseconds. */
static double
lat_unit(const struct lat *l, size_t n, const char **name)
{
	double top = 0;

	for (size_t i = 0; i < n; i++)
		if (l[i].h->n > 0)
			top = fmax(top, (double)hist_quantile(l[i].h, 0.5));
	*name = top >= 1e6 ? "ms" : "\xc2\xb5s";
	return top >= 1e6 ? 1e6 : 1e3;
}

static void
lat_table(struct strbuf *out, const struct report *s, const struct lat *l,
    const char *unit)
{
	char buf[48];

	strbuf_add(out, "<table>\n<thead><tr>");
	html_elem(out, "th scope=\"col\"", _("Variant"));
	html_elem(out, "th scope=\"col\"", _("Samples"));
	for (size_t q = 0; q < NQ; q++) {
		snprintf(buf, sizeof buf, "%s, %s", qnames[q], unit);
		html_elem(out, "th scope=\"col\"", buf);
	}
	strbuf_add(out, "</tr></thead>\n<tbody>\n");
	for (size_t i = 0; i < s->cmp.nrows; i++) {
		char *name = report_row_name(s, i);

		strbuf_printf(out,
		    "<tr><th scope=\"row\"><span class=\"swatch\" "
		    "style=\"color:%s\">\xe2\x96\xa0</span>",
		    svg_colour(i));
		html_text(out, name);
		strbuf_printf(out, "</th><td class=\"num\">%llu</td>",
		    (unsigned long long)l[i].h->n);
		for (size_t q = 0; q < NQ; q++) {
			if (isfinite(l[i].q[q]))
				snprintf(buf, sizeof buf, "%.3g", l[i].q[q]);
			else
				snprintf(buf, sizeof buf, "-");
			html_elem(out, "td class=\"num\"", buf);
		}
		strbuf_add(out, "</tr>\n");
		free(name);
	}
	strbuf_add(out, "</tbody>\n</table>\n");
}

static void
lat_chart(struct strbuf *out, const struct report *s, size_t col, int op,
    struct lat *l, const char *unit)
{
	size_t nr = s->cmp.nrows, nl = 0;
	struct svg_line *lines = xcalloc(nr + 1, sizeof *lines);
	char **names = xcalloc(nr + 1, sizeof *names);
	static const double x[NQ] = { 0, 1, 2, 3, 4 };
	char *title =
	    xasprintf(_("%s: %s, latency of %s"), s->cmp.cols[col].workload,
		s->cmp.cols[col].label, wl_op_name((enum wl_op)op));
	struct svg_lines_opts o = { .title = title,
		.kind = "latency",
		.categories = qnames,
		.ncategories = NQ,
		.ylog = true,
		.markers = true,
		.yunit = unit,
		.xunit = _("percentile") };

	for (size_t i = 0; i < nr; i++) {
		if (l[i].h->n == 0)
			continue;
		names[i] = report_row_name(s, i);
		lines[nl++] = (struct svg_line){ .label = names[i],
			.x = x,
			.y = l[i].q,
			.n = NQ,
			.colour = i };
	}
	svg_lines(out, lines, nl, &o);
	for (size_t i = 0; i < nr; i++)
		free(names[i]);
	free(names);
	free(lines);
	free(title);
}

static void
lat_fig(struct strbuf *out, const struct report *s, size_t col, int op)
{
	size_t nr = s->cmp.nrows;
	struct lat *l = xcalloc(nr + 1, sizeof *l);
	const char *unit;
	double scale;
	char *cap;

	for (size_t i = 0; i < nr; i++) {
		l[i].h = xmalloc(sizeof *l[i].h);
		hist_init(l[i].h);
		row_hists(s, i, col, op, l[i].h, NULL);
	}
	scale = lat_unit(l, nr, &unit);
	for (size_t i = 0; i < nr; i++)
		for (size_t q = 0; q < NQ; q++)
			l[i].q[q] = l[i].h->n
			    ? (double)hist_quantile(l[i].h, quantiles[q]) /
				scale
			    : NAN;
	strbuf_add(out, "<h3>");
	html_text(out, s->cmp.cols[col].workload);
	strbuf_add(out, ": ");
	html_text(out, s->cmp.cols[col].label);
	strbuf_add(out, " <small>");
	html_text(out, wl_op_name((enum wl_op)op));
	strbuf_add(out, "</small></h3>\n");
	html_fig_open(out);
	lat_chart(out, s, col, op, l, unit);
	cap = xasprintf(_("The latency of each %s, every repeat of a variant "
			  "pooled, on a log scale; percentiles are histogram "
			  "bucket bounds, within 6%% of the value."),
	    wl_op_name((enum wl_op)op));
	html_fig_side(out, cap);
	lat_table(out, s, l, unit);
	html_fig_close(out);
	for (size_t i = 0; i < nr; i++) {
		hist_done(l[i].h);
		free(l[i].h);
	}
	free(l);
	free(cap);
}

/* The percentiles compared: a row per variant, each percentile's mean
   over the repeats with its verdict; then the answers and reasons. */
static void
lat_verdicts(struct strbuf *out, const struct report *s,
    const struct compare *lc, const size_t *j)
{
	char v[COMPARE_NUM_BUF], b[96];
	size_t said = 0;

	strbuf_add(out, "<table>\n<thead><tr>");
	html_elem(out, "th scope=\"col\"", _("Variant"));
	for (size_t q = 0; q < COMPARE_LAT_NQ; q++)
		html_elem(out, "th scope=\"col\"",
		    compare_lat_name(lc->cols[j[q]].lat_q));
	strbuf_add(out, "</tr></thead>\n<tbody>\n");
	for (size_t i = 0; i < lc->nrows; i++) {
		char *name;

		if (compare_cell(lc, i, j[0])->n == 0)
			continue;
		name = report_row_name(s, i);
		strbuf_add(out, "<tr>");
		html_elem(out, "th scope=\"row\"", name);
		for (size_t q = 0; q < COMPARE_LAT_NQ; q++) {
			const struct compare_cell *x =
			    compare_cell(lc, i, j[q]);

			strbuf_add(out, "<td class=\"num\">");
			if (lc->cols[j[q]].best == i)
				strbuf_add(out, "\xe2\x98\x85 ");
			html_text(out,
			    x->n > 0 ? compare_format_value(x->mean,
					   WL_UNIT_USEC, v, sizeof v)
				     : "-");
			if (report_lat_verdict(lc, i, j[q], b, sizeof b)[0]) {
				strbuf_add(out, "<br><small>");
				html_text(out, b);
				strbuf_add(out, "</small>");
			}
			strbuf_add(out, "</td>");
		}
		strbuf_add(out, "</tr>\n");
		free(name);
	}
	strbuf_add(out, "</tbody>\n</table>\n");
	for (size_t q = 0; q < COMPARE_LAT_NQ; q++)
		for (size_t i = 0; i < lc->nrows; i++) {
			char *a = compare_answer_bare(lc, i, j[q]), *t;

			if (a == NULL)
				continue;
			if (!said++)
				strbuf_add(out, "<ul>\n");
			t = xasprintf("%s: %s",
			    compare_lat_name(lc->cols[j[q]].lat_q), a);
			html_elem(out, "li", t);
			strbuf_add(out, "\n");
			free(t);
			free(a);
		}
	if (said)
		strbuf_add(out, "</ul>\n");
}

void
report_html_latency(const struct report *s, struct html_toc *toc,
    struct strbuf *out)
{
	struct compare lc;
	bool head = false, cmp = report_lat_compare(s, &lc);

	for (size_t k = 0; k < s->cmp.ncols; k++) {
		int op = dominant_op(s, k);
		size_t j[COMPARE_LAT_NQ], lk;

		if (op < 0)
			continue;
		if (!head) {
			html_h2(out, toc, "latency", _("Tail latency"));
			if (cmp)
				html_elem(out, "p", report_lat_intro());
		}
		head = true;
		lat_fig(out, s, k, op);
		lk = cmp ? report_lat_rate_col(&lc, &s->cmp.cols[k])
			 : COMPARE_NONE;
		if (lk != COMPARE_NONE && report_lat_cols(&lc, lk, j))
			lat_verdicts(out, s, &lc, j);
	}
	if (cmp)
		compare_done(&lc);
}
