/*
 * The HTML report's time series (report-html-int.h): per workload, the
 * MB/s written and read and the files/s of each variant's typical repeat
 * (the one of median duration), the variants overlaid; then per variant
 * the activity of its member disks, from the run's "series" "members"
 * (absent in older records: nothing is drawn). Samples may be uneven
 * (merged ones): every value is drawn flat over its own interval, from
 * t - dt to t, never by index; a long series is thinned to at most
 * THIN_MAX points a line by merging neighbours (rates over their summed
 * time). The thread that owns the records.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/i18n.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "figures/series.h"
#include "record.h"
#include "report-html-int.h"
#include "report-svg.h"
#include "report.h"

#define THIN_MAX 600

/* A run's samples grouped for drawing: group g is samples end[g - 1]
   (0 for g = 0) up to end[g]. */
struct groups {
	size_t *end;
	size_t n;
	bool thinned; /* fewer groups than samples */
};

/* Groups of neighbours spanning at least 1/THIN_MAX of the run each. */
static void
groups_make(struct groups *g, const struct series *se)
{
	double t0, span, acc = 0;

	g->end = xcalloc(se->n + 1, sizeof *g->end);
	g->n = 0;
	g->thinned = false;
	if (se->n == 0)
		return;
	t0 = series_at(se, 0)->t - series_at(se, 0)->dt;
	span = series_at(se, se->n - 1)->t - t0;
	for (size_t i = 0; i < se->n; i++) {
		acc += series_at(se, i)->dt;
		if (se->n <= THIN_MAX || acc >= span / THIN_MAX ||
		    i + 1 == se->n) {
			g->end[g->n++] = i + 1;
			acc = 0;
		}
	}
	g->thinned = g->n < se->n;
}

/* What a line plots of a sample: bytes written, read, files. */
enum measure { M_WRITE, M_READ, M_FILES, M__COUNT };

static double
sample_count(const struct sample *x, enum measure m)
{
	return m == M_WRITE ? (double)x->bytes_written
	    : m == M_READ   ? (double)x->bytes_read
			    : (double)x->files;
}

/* The line's points: per group its interval and rate. */
struct pts {
	double *x0, *x, *y;
	size_t n;
};

static void
pts_alloc(struct pts *p, size_t n)
{
	p->x0 = xcalloc(n + 1, sizeof *p->x0);
	p->x = xcalloc(n + 1, sizeof *p->x);
	p->y = xcalloc(n + 1, sizeof *p->y);
	p->n = n;
}

static void
pts_free(struct pts *p)
{
	free(p->x0);
	free(p->x);
	free(p->y);
}

/* The intervals of the groups: from the first sample's start to the
   last one's end. */
static void
pts_times(struct pts *p, const struct groups *g, const struct series *se)
{
	for (size_t k = 0, i = 0; k < g->n; i = g->end[k++]) {
		const struct sample *a = series_at(se, i);

		p->x0[k] = a->t - a->dt;
		p->x[k] = series_at(se, g->end[k] - 1)->t;
	}
}

static double
measure_scale(enum measure m)
{
	return m == M_FILES ? 1 : 1e6;
}

static void
pts_measure(struct pts *p, const struct groups *g, const struct series *se,
    enum measure m)
{
	pts_alloc(p, g->n);
	pts_times(p, g, se);
	for (size_t k = 0, i = 0; k < g->n; i = g->end[k++]) {
		double sum = 0, dt = 0;

		for (size_t j = i; j < g->end[k]; j++) {
			sum += sample_count(series_at(se, j), m);
			dt += series_at(se, j)->dt;
		}
		p->y[k] = dt > 0 ? sum / dt / measure_scale(m) : NAN;
	}
}

/* The repeat drawn for row in the workload of column col: of the runs
   that did not fail and have samples, the one of median duration. */
static const struct record_run *
typical_run(const struct report *s, size_t row, size_t col)
{
	const struct record *rec = s->recs[s->cmp.rows[row].record];
	const struct record_run **v = xcalloc(rec->nruns + 1, sizeof *v);
	const struct record_run *pick = NULL;
	size_t n = 0;

	for (size_t i = 0; i < rec->nruns; i++) {
		const struct record_run *r = &rec->runs[i];

		if (report_html_run_of(s, row, col, r) &&
		    r->res->status != WL_FAILED && r->res->series.n > 0)
			v[n++] = r;
	}
	/* insertion sort by wall: a handful of repeats */
	for (size_t i = 1; i < n; i++)
		for (size_t j = i;
		     j > 0 && v[j]->res->wall < v[j - 1]->res->wall; j--) {
			const struct record_run *t = v[j];

			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	if (n > 0)
		pick = v[(n - 1) / 2];
	free(v);
	return pick;
}

/* The whole run's rate of m, and the highest of its drawn points. */
static void
run_rates(const struct record_run *r, enum measure m, const struct pts *p,
    double *mean, double *peak)
{
	const struct series *se = &r->res->series;
	double sum = 0, dt = 0;

	for (size_t i = 0; i < se->n; i++) {
		sum += sample_count(series_at(se, i), m);
		dt += series_at(se, i)->dt;
	}
	*mean = dt > 0 ? sum / dt / measure_scale(m) : NAN;
	*peak = NAN;
	for (size_t k = 0; k < p->n; k++)
		if (isfinite(p->y[k]) && !(p->y[k] <= *peak))
			*peak = p->y[k];
}

static const char *
measure_name(enum measure m)
{
	return m == M_WRITE ? _("Written, MB/s")
	    : m == M_READ   ? _("Read, MB/s")
			    : _("Files, files/s");
}

static void
num_td(struct strbuf *out, double v, int dec, const char *suffix)
{
	char buf[48];

	if (isfinite(v))
		snprintf(buf, sizeof buf, "%.*f%s", dec, v, suffix);
	else
		snprintf(buf, sizeof buf, "-");
	html_elem(out, "td class=\"num\"", buf);
}

static void
measure_table(struct strbuf *out, const struct report *s,
    const struct record_run *const *runs, const struct pts *p, enum measure m)
{
	static const char *const heads[] = { N_("Variant"), N_("Repeat"),
		N_("Duration, s"), N_("Mean"), N_("Peak") };

	strbuf_add(out, "<table>\n<thead><tr>");
	for (size_t h = 0; h < sizeof heads / sizeof heads[0]; h++)
		html_elem(out, "th scope=\"col\"", _(heads[h]));
	strbuf_add(out, "</tr></thead>\n<tbody>\n");
	for (size_t i = 0; i < s->cmp.nrows; i++) {
		char *name;
		double mean, peak;

		if (runs[i] == NULL)
			continue;
		name = report_row_name(s, i);
		run_rates(runs[i], m, &p[i], &mean, &peak);
		strbuf_printf(out,
		    "<tr><th scope=\"row\"><span class=\"swatch\" "
		    "style=\"color:%s\">\xe2\x96\xa0</span>",
		    svg_colour(i));
		html_text(out, name);
		strbuf_printf(out, "</th><td class=\"num\">%d</td>",
		    runs[i]->repeat);
		num_td(out, runs[i]->res->wall, 2, "");
		num_td(out, mean, 1, "");
		num_td(out, peak, 1, "");
		strbuf_add(out, "</tr>\n");
		free(name);
	}
	strbuf_add(out, "</tbody>\n</table>\n");
}

static const char *
thin_caption(bool thinned)
{
	return thinned ? _("Each line is the variant's repeat of median "
			   "duration (the table says which), each value flat "
			   "over its interval; neighbouring samples are merged "
			   "so that a line has at most 600 points.")
		       : _("Each line is the variant's repeat of median "
			   "duration (the table says which), each value flat "
			   "over its sample's interval.");
}

/* One chart of m for the workload, a line per row that ran it. */
static void
measure_fig(struct strbuf *out, const struct report *s, size_t col,
    const struct record_run *const *runs, enum measure m)
{
	size_t nr = s->cmp.nrows, nl = 0;
	struct svg_line *l = xcalloc(nr + 1, sizeof *l);
	struct pts *p = xcalloc(nr + 1, sizeof *p);
	char **names = xcalloc(nr + 1, sizeof *names);
	struct svg_lines_opts o = { 0 };
	char *title =
	    xasprintf("%s: %s", s->cmp.cols[col].workload, measure_name(m));
	bool thinned = false;

	for (size_t i = 0; i < nr; i++) {
		struct groups g;

		if (runs[i] == NULL)
			continue;
		groups_make(&g, &runs[i]->res->series);
		pts_measure(&p[i], &g, &runs[i]->res->series, m);
		thinned = thinned || g.thinned;
		free(g.end);
		names[i] = report_row_name(s, i);
		l[nl++] = (struct svg_line){ .label = names[i],
			.x = p[i].x,
			.x0 = p[i].x0,
			.y = p[i].y,
			.n = p[i].n,
			.colour = i };
	}
	o = (struct svg_lines_opts){ .title = title,
		.kind = "series",
		.xunit = _("seconds since the start"),
		.yunit = m == M_FILES ? "files/s" : "MB/s",
		.step = true };
	html_elem(out, "h4", measure_name(m));
	html_fig_open(out);
	svg_lines(out, l, nl, &o);
	html_fig_side(out, thin_caption(thinned));
	measure_table(out, s, runs, p, m);
	html_fig_close(out);
	for (size_t i = 0; i < nr; i++) {
		pts_free(&p[i]);
		free(names[i]);
	}
	free(names);
	free(p);
	free(l);
	free(title);
}

/* Whether any drawn run counted something of m. */
static bool
measure_any(const struct report *s, const struct record_run *const *runs,
    enum measure m)
{
	for (size_t i = 0; i < s->cmp.nrows; i++) {
		const struct series *se =
		    runs[i] ? &runs[i]->res->series : NULL;

		for (size_t k = 0; se != NULL && k < se->n; k++)
			if (sample_count(series_at(se, k), m) > 0)
				return true;
	}
	return false;
}

static void
workload_head(struct strbuf *out, const struct report *s, size_t col)
{
	const struct compare_col *c = &s->cmp.cols[col];

	strbuf_add(out, "<h3>");
	html_text(out, c->workload);
	strbuf_add(out, " <small>");
	html_text(out, c->type);
	strbuf_add(out, "</small></h3>\n");
}

/* ------------------------------------------------------------ members */

/* A member's array (read_bytes, write_bytes, busy) as doubles, NaN for
   null; NULL unless it has one value a sample. */
static double *
member_values(const json_t *m, const char *key, size_t n)
{
	const json_t *a = json_object_get(m, key);
	double *v;

	if (!json_is_array(a) || json_array_size(a) != n)
		return NULL;
	v = xcalloc(n + 1, sizeof *v);
	for (size_t i = 0; i < n; i++) {
		const json_t *x = json_array_get(a, i);

		v[i] = json_is_number(x) ? json_number_value(x) : NAN;
	}
	return v;
}

static const json_t *
run_members(const struct record_run *r)
{
	const json_t *m;

	if (r == NULL)
		return NULL;
	m = json_object_get(json_object_get(r->json, "series"), "members");
	return json_is_array(m) && json_array_size(m) > 0 ? m : NULL;
}

/* Busy as % per group: weighted by the samples' time, nulls left out. */
static void
pts_busy(struct pts *p, const struct groups *g, const struct series *se,
    const double *busy)
{
	pts_alloc(p, g->n);
	pts_times(p, g, se);
	for (size_t k = 0, i = 0; k < g->n; i = g->end[k++]) {
		double sum = 0, dt = 0;

		for (size_t j = i; j < g->end[k]; j++)
			if (isfinite(busy[j])) {
				sum += busy[j] * series_at(se, j)->dt;
				dt += series_at(se, j)->dt;
			}
		p->y[k] = dt > 0 ? sum / dt * 100 : NAN;
	}
}

static double
sum_finite(const double *v, size_t n)
{
	double s = 0;

	for (size_t i = 0; v != NULL && i < n; i++)
		if (isfinite(v[i]))
			s += v[i];
	return s;
}

/* A member's row: read and written MB, mean and peak busy %. */
static void
member_row(struct strbuf *out, const json_t *m, const struct series *se,
    size_t colour, const struct pts *p)
{
	size_t n = se->n;
	double *rd = member_values(m, "read_bytes", n);
	double *wr = member_values(m, "write_bytes", n);
	double *busy = member_values(m, "busy", n), bsum = 0, dt = 0,
	       peak = NAN;

	for (size_t i = 0; busy != NULL && i < n; i++)
		if (isfinite(busy[i])) {
			bsum += busy[i] * series_at(se, i)->dt;
			dt += series_at(se, i)->dt;
		}
	for (size_t k = 0; p != NULL && k < p->n; k++)
		if (isfinite(p->y[k]) && !(p->y[k] <= peak))
			peak = p->y[k];
	strbuf_printf(out,
	    "<tr><th scope=\"row\"><span class=\"swatch\" "
	    "style=\"color:%s\">\xe2\x96\xa0</span>",
	    svg_colour(colour));
	html_text(out, json_string_value(json_object_get(m, "name")));
	strbuf_add(out, "</th>");
	num_td(out, rd ? sum_finite(rd, n) / 1e6 : NAN, 1, "");
	num_td(out, wr ? sum_finite(wr, n) / 1e6 : NAN, 1, "");
	num_td(out, dt > 0 ? bsum / dt * 100 : NAN, 0, "%");
	num_td(out, peak, 0, "%");
	strbuf_add(out, "</tr>\n");
	free(rd);
	free(wr);
	free(busy);
}

static void
members_table(struct strbuf *out, const json_t *ms, const struct series *se,
    const struct pts *p)
{
	static const char *const heads[] = { N_("Member"), N_("Read, MB"),
		N_("Written, MB"), N_("Busy, mean"), N_("Busy, peak") };
	size_t i;
	const json_t *m;

	strbuf_add(out, "<table>\n<thead><tr>");
	for (size_t h = 0; h < sizeof heads / sizeof heads[0]; h++)
		html_elem(out, "th scope=\"col\"", _(heads[h]));
	strbuf_add(out, "</tr></thead>\n<tbody>\n");
	json_array_foreach(ms, i, m)
	    member_row(out, m, se, i, p[i].n ? &p[i] : NULL);
	strbuf_add(out, "</tbody>\n</table>\n");
}

/* The busy time of row's members in the drawn repeat. */
static void
members_fig(struct strbuf *out, const struct report *s, size_t row, size_t col,
    const struct record_run *r)
{
	const json_t *ms = run_members(r), *m;
	const struct series *se = &r->res->series;
	size_t nm = json_array_size(ms), nl = 0, i;
	struct svg_line *l = xcalloc(nm + 1, sizeof *l);
	struct pts *p = xcalloc(nm + 1, sizeof *p);
	char *name = report_row_name(s, row), *title, *head;
	struct svg_lines_opts o = { 0 };
	struct groups g;

	groups_make(&g, se);
	json_array_foreach(ms, i, m)
	{
		double *busy = member_values(m, "busy", se->n);
		const char *mn = json_string_value(json_object_get(m, "name"));

		if (busy == NULL)
			continue;
		pts_busy(&p[i], &g, se, busy);
		free(busy);
		l[nl++] = (struct svg_line){ .label = mn ? mn : "?",
			.x = p[i].x,
			.x0 = p[i].x0,
			.y = p[i].y,
			.n = p[i].n,
			.colour = i };
	}
	head = xasprintf(_("%s, repeat %d: busy time of each member disk"),
	    name, r->repeat);
	title = xasprintf("%s: %s", s->cmp.cols[col].workload, head);
	o = (struct svg_lines_opts){ .title = title,
		.kind = "members",
		.xunit = _("seconds since the start"),
		.yunit = _("busy, %"),
		.step = true,
		.ymax = 100 };
	html_elem(out, "h4", head);
	html_fig_open(out);
	svg_lines(out, l, nl, &o);
	html_fig_side(out,
	    _("The share of each interval the member disk was busy (as "
	      "iostat's %util), during the repeat drawn above."));
	members_table(out, ms, se, p);
	html_fig_close(out);
	for (i = 0; i < nm; i++)
		pts_free(&p[i]);
	free(g.end);
	free(p);
	free(l);
	free(head);
	free(title);
	free(name);
}

/* ------------------------------------------------------------ sections */

/* The drawn repeat of every row for the workload of col; false when no
   row has samples. */
static bool
workload_runs(const struct report *s, size_t col,
    const struct record_run **runs)
{
	bool any = false;

	for (size_t i = 0; i < s->cmp.nrows; i++) {
		runs[i] = typical_run(s, i, col);
		any = any || runs[i] != NULL;
	}
	return any;
}

void
report_html_series(const struct report *s, struct html_toc *toc,
    struct strbuf *out)
{
	size_t *first = xcalloc(s->cmp.ncols + 1, sizeof *first);
	size_t nw = report_html_workloads(s, first);
	const struct record_run **runs =
	    xcalloc(s->cmp.nrows + 1, sizeof *runs);
	bool head = false, members = false;

	for (size_t w = 0; w < nw; w++) {
		if (!workload_runs(s, first[w], runs))
			continue;
		if (!head)
			html_h2(out, toc, "series", _("Time series"));
		head = true;
		workload_head(out, s, first[w]);
		for (int m = 0; m < M__COUNT; m++)
			if (measure_any(s, runs, (enum measure)m))
				measure_fig(out, s, first[w], runs,
				    (enum measure)m);
		for (size_t i = 0; i < s->cmp.nrows; i++)
			members = members || run_members(runs[i]) != NULL;
	}
	for (size_t w = 0; members && w < nw; w++) {
		bool wh = false;

		workload_runs(s, first[w], runs);
		for (size_t i = 0; i < s->cmp.nrows; i++) {
			if (run_members(runs[i]) == NULL)
				continue;
			if (!wh) {
				if (toc->n == 0 ||
				    strcmp(toc->id[toc->n - 1], "members") != 0)
					html_h2(out, toc, "members",
					    _("Disk activity"));
				workload_head(out, s, first[w]);
				wh = true;
			}
			members_fig(out, s, i, first[w], runs[i]);
		}
	}
	free(runs);
	free(first);
}
