/*
 * The report as one HTML5 file (report.h): no script, no font, no image,
 * no reference outside the file, so it reads offline, attaches to a mail
 * and prints. The page: the question, then the answer (each variant over
 * all tests, a line per test, how it was judged, what could not be
 * measured, the caveats: report-html-answer.c), with records of several
 * hosts the answers over the hosts (report-html-fleet.c), then the
 * evidence: every
 * test's mean at a glance coloured per test from worst to best where
 * proven (as bon_csv2html colours bonnie++'s), per test a bar chart with
 * 95% whiskers and the baseline beside its table (the change, its
 * verdict's word coloured as in the answer) and the answers in words
 * (the text report's sentences, each sample's reasons once), the time
 * series, the member disks' activity, the latency percentiles, then the
 * provenance.
 * The thread that owns the records.
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
#include "record.h"
#include "report-html-int.h"
#include "report-int.h"
#include "report-svg.h"
#include "report.h"

/* Laptop screen first: two columns (chart, table) from 1100px, one
   below; print: no contents, nothing split across pages, colours kept. */
static const char css[] =
    "body{font:15px/1.45 system-ui,\"Segoe UI\",\"DejaVu Sans\","
    "\"Liberation Sans\",sans-serif;color:#111;background:#fff;"
    "max-width:1240px;margin:0 auto;padding:0 20px 40px}\n"
    "h1{font-size:1.6em;margin:.8em 0 .3em}\n"
    "h2{font-size:1.3em;border-bottom:1px solid #bbb;margin:1.8em 0 .6em}\n"
    "h3{font-size:1.08em;margin:1.6em 0 .4em}\n"
    "h3 small{font-weight:normal;color:#444}\n"
    "nav ol{margin:.2em 0;padding-left:1.4em}\n"
    ".question{font-size:1.1em}\n"
    ".caveats{border-left:4px solid #e69f00;background:#fff7e0;"
    "padding:.3em 1em .3em 1.6em;margin:1em 0}\n"
    ".fig{display:flex;flex-wrap:wrap;gap:10px 28px;align-items:flex-start;"
    "margin:.5em 0 1.2em;break-inside:avoid;page-break-inside:avoid}\n"
    ".fig figure{margin:0;flex:0 1 560px;min-width:280px}\n"
    ".fig .side{flex:1 1 400px;min-width:280px;overflow-x:auto}\n"
    "svg.chart{width:100%;height:auto;display:block;font-family:inherit}\n"
    "figcaption{font-size:.82em;color:#333;margin-top:.3em}\n"
    "table{border-collapse:collapse;font-size:.88em;margin:.2em 0 .8em}\n"
    "th,td{border:1px solid #aaa;padding:2px 7px;text-align:left;"
    "vertical-align:top}\n"
    "thead th{background:#eee}\n"
    "caption{text-align:left;font-size:.95em;padding:2px 0}\n"
    "td.num{text-align:right;white-space:nowrap;"
    "font-variant-numeric:tabular-nums}\n"
    ".best{font-weight:bold}\n"
    ".swatch{margin-right:.3em}\n"
    ".answers{margin:.2em 0;padding-left:1.2em;font-size:.9em}\n"
    "ul.answer li,ul.overall li{margin:.15em 0}\n"
    ".v-better,.v-worse,.v-same{padding:0 .25em;border-radius:3px}\n"
    ".v-better{background:#92c5de}\n"
    ".v-worse{background:#f4a582}\n"
    ".v-same{background:#e4e4e4}\n"
    ".warn{color:#8a2b00}\n"
    "table.fleet tr.combined td{border-top:2px solid #555;"
    "font-weight:bold}\n"
    "table.fleet td.host{white-space:nowrap}\n"
    ".note{font-size:.9em;color:#333}\n"
    "pre{background:#f5f5f5;border:1px solid #ddd;padding:6px 8px;"
    "font-size:.82em;white-space:pre-wrap;overflow-wrap:anywhere}\n"
    "dl.facts{display:grid;grid-template-columns:max-content auto;"
    "gap:2px 14px;margin:.3em 0}\n"
    "dl.facts dt{font-weight:bold}\n"
    "dl.facts dd{margin:0}\n"
    "@page{margin:14mm}\n"
    "@media print{body{font-size:10pt;max-width:none;padding:0}\n"
    "nav{display:none}\n"
    "h2,h3{break-after:avoid;page-break-after:avoid}\n"
    "figure,table,pre,.fig{break-inside:avoid;page-break-inside:avoid}\n"
    ".fig figure{flex-basis:60%}\n"
    "*{-webkit-print-color-adjust:exact;print-color-adjust:exact}}\n";

void
html_text(struct strbuf *out, const char *s)
{
	svg_escape(out, s);
}

void
html_elem(struct strbuf *out, const char *tag, const char *s)
{
	size_t n = strcspn(tag, " ");

	strbuf_printf(out, "<%s>", tag);
	svg_escape(out, s);
	strbuf_printf(out, "</%.*s>", (int)n, tag);
}

void
html_h2(struct strbuf *out, struct html_toc *toc, const char *id,
    const char *title)
{
	strbuf_printf(out, "<h2 id=\"%s\">", id);
	html_text(out, title);
	strbuf_add(out, "</h2>\n");
	if (toc->n < HTML_TOC_MAX) {
		toc->id[toc->n] = id;
		toc->title[toc->n++] = xstrdup(title);
	}
}

void
html_fig_open(struct strbuf *out)
{
	strbuf_add(out, "<div class=\"fig\">\n<figure>\n");
}

void
html_fig_side(struct strbuf *out, const char *caption)
{
	if (caption != NULL)
		html_elem(out, "figcaption", caption);
	strbuf_add(out, "\n</figure>\n<div class=\"side\">\n");
}

void
html_fig_close(struct strbuf *out)
{
	strbuf_add(out, "</div>\n</div>\n");
}

/* The workload's parameters as compare.c keys a column by them. */
static char *
params_of(const struct record_run *run)
{
	const json_t *w = json_object_get(run->json, "workload");
	char *p = json_dumps(json_object_get(w, "params"),
	    JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);

	return p != NULL ? p : xstrdup("null");
}

bool
report_html_run_of(const struct report *s, size_t row, size_t col,
    const struct record_run *run)
{
	const struct compare_row *r = &s->cmp.rows[row];
	const struct compare_col *c = &s->cmp.cols[col];
	bool same;
	char *p;

	if (r->record >= s->nrecs || run->res == NULL ||
	    strcmp(run->variant, r->variant) != 0 ||
	    strcmp(run->workload, c->workload) != 0)
		return false;
	p = params_of(run);
	same = strcmp(p, c->params) == 0;
	free(p);
	return same;
}

size_t
report_html_workloads(const struct report *s, size_t *first)
{
	size_t n = 0;

	for (size_t k = 0; k < s->cmp.ncols; k++) {
		const struct compare_col *c = &s->cmp.cols[k];
		bool seen = false;

		for (size_t i = 0; i < n && !seen; i++) {
			const struct compare_col *o = &s->cmp.cols[first[i]];

			seen = strcmp(o->workload, c->workload) == 0 &&
			    strcmp(o->params, c->params) == 0;
		}
		if (!seen)
			first[n++] = k;
	}
	return n;
}

/* ------------------------------------------------------------ colours */

/*
 * A cell's background from the column's worst (score 0) to its best (1):
 * light vermilion through white to light blue, which colour-blind readers
 * tell apart and black text stays readable on, printed too.
 */
static void
score_colour(double score, char *buf, size_t len)
{
	static const double lo[3] = { 244, 165, 130 },
			    mid[3] = { 247, 247, 247 },
			    hi[3] = { 146, 197, 222 };
	double c[3];

	for (int i = 0; i < 3; i++)
		c[i] = score < 0.5
		    ? lo[i] + (mid[i] - lo[i]) * score * 2
		    : mid[i] + (hi[i] - mid[i]) * (score - 0.5) * 2;
	snprintf(buf, len, "#%02x%02x%02x", (unsigned)lround(c[0]),
	    (unsigned)lround(c[1]), (unsigned)lround(c[2]));
}

/* A number cell coloured by its score; the best in bold. */
static void
td_score(struct strbuf *out, const struct report *s, size_t row, size_t col,
    const char *text)
{
	double score = compare_score(&s->cmp, row, col);
	bool best = s->cmp.cols[col].best == row;
	char bg[16];

	strbuf_add(out, "<td class=\"num");
	if (best)
		strbuf_add(out, " best");
	strbuf_add(out, "\"");
	if (score >= 0) {
		score_colour(score, bg, sizeof bg);
		strbuf_printf(out, " style=\"background:%s\"", bg);
	}
	strbuf_add(out, ">");
	if (best)
		strbuf_add(out, "\xe2\x98\x85 ");
	html_text(out, text);
	strbuf_add(out, "</td>");
}

/* The row's name with its colour's swatch (the charts' colour). */
static void
row_head(struct strbuf *out, const struct report *s, size_t row)
{
	char *name = report_row_name(s, row);

	strbuf_printf(out,
	    "<th scope=\"row\"><span class=\"swatch\" "
	    "style=\"color:%s\">\xe2\x96\xa0</span>",
	    svg_colour(row));
	html_text(out, name);
	strbuf_add(out, "</th>");
	free(name);
}

/* ------------------------------------------------------------ summary */

/* What a cell is besides its figure, in short words for a table. */
static char *
cell_notes(const struct report *s, size_t row, size_t col)
{
	const struct compare_cell *x = compare_cell(&s->cmp, row, col);
	struct strbuf b;
	char *keys = compare_marks_keys(x->marks & COMPARE_UNSTABLE);

	strbuf_init(&b);
	strbuf_add(&b, "");
	if (x->interrupted)
		strbuf_add(&b,
		    _("stopped: only interrupted runs had a figure"));
	else if (x->too_fast)
		strbuf_add(&b, _("too fast to measure (+++++)"));
	if (keys[0] != '\0')
		strbuf_printf(&b, "%s%s: %s", b.len ? "; " : "", _("unstable"),
		    keys);
	if (x->failed > 0)
		strbuf_printf(&b,
		    ngettext("%s%zu failed run left out",
			"%s%zu failed runs left out", x->failed),
		    b.len ? "; " : "", x->failed);
	if (x->n == 0 && s->cmp.rows[row].why != NULL)
		strbuf_printf(&b, "%s%s", b.len ? "; " : "",
		    s->cmp.rows[row].why);
	free(keys);
	return strbuf_take(&b);
}

/* All tests at a glance: a row per test (tests outnumber variants, and
   a page is taller than wide), a column per variant, each mean coloured
   from its test's worst to its best. */
static void
summary(const struct report *s, struct html_toc *toc, struct strbuf *out)
{
	const struct compare *c = &s->cmp;
	char v[COMPARE_NUM_BUF];

	html_h2(out, toc, "summary", _("Every test at a glance"));
	strbuf_add(out, "<div class=\"side\">\n<table class=\"summary\">\n");
	html_elem(out, "caption",
	    _("The mean of each test, coloured per test from the worst "
	      "(vermilion) to the best (blue) where a difference is proven, "
	      "white where none is; \xe2\x98\x85 a proven best, ! an "
	      "unstable sample, +++++ too fast to measure."));
	strbuf_add(out, "\n<thead><tr><th scope=\"col\">");
	html_text(out, _("Test"));
	strbuf_add(out, "</th>");
	for (size_t i = 0; i < c->nrows; i++) {
		char *name = report_row_name(s, i);

		strbuf_printf(out,
		    "<th scope=\"col\"><span class=\"swatch\" "
		    "style=\"color:%s\">\xe2\x96\xa0</span>",
		    svg_colour(i));
		html_text(out, name);
		strbuf_add(out, "</th>");
		free(name);
	}
	strbuf_add(out, "</tr></thead>\n<tbody>\n");
	for (size_t k = 0; k < c->ncols; k++) {
		strbuf_printf(out, "<tr><th scope=\"row\"><a href=\"#t-%zu\">",
		    k);
		html_text(out, c->cols[k].workload);
		strbuf_add(out, ": ");
		html_text(out, c->cols[k].title);
		strbuf_add(out, "</a> <small>");
		html_text(out, wl_unit_name(c->cols[k].unit));
		strbuf_add(out, "</small></th>");
		for (size_t i = 0; i < c->nrows; i++) {
			const struct compare_cell *x = compare_cell(c, i, k);
			char t[COMPARE_NUM_BUF + 16];

			compare_format_value(x->mean, c->cols[k].unit, v,
			    sizeof v);
			snprintf(t, sizeof t, "%s%s%s", v,
			    x->too_fast ? " +++++" : "",
			    x->marks & COMPARE_UNSTABLE ? " !" : "");
			td_score(out, s, i, k, t);
		}
		strbuf_add(out, "</tr>\n");
	}
	strbuf_add(out, "</tbody>\n</table>\n</div>\n");
}

/* ------------------------------------------------------------ per test */

static void
test_bars(struct strbuf *out, const struct report *s, size_t k)
{
	const struct compare *c = &s->cmp;
	struct svg_bar *b = xcalloc(c->nrows + 1, sizeof *b);
	char **names = xcalloc(c->nrows + 1, sizeof *names);
	struct svg_bars_opts o = { 0 };
	char *title =
	    xasprintf("%s: %s", c->cols[k].workload, c->cols[k].label);
	char unit[64];

	for (size_t i = 0; i < c->nrows; i++) {
		const struct compare_cell *x = compare_cell(c, i, k);

		names[i] = report_row_name(s, i);
		b[i] = (struct svg_bar){ .label = names[i],
			.value = x->mean,
			.lo = x->d.ci_lo,
			.hi = x->d.ci_hi,
			.colour = i,
			.best = c->cols[k].best == i };
		if (x->n == 0) {
			b[i].kind = SVG_BAR_NONE;
			b[i].note = x->failed ? _("failed") : _("no figure");
		} else if (x->interrupted) {
			b[i].kind = SVG_BAR_STOPPED;
			b[i].note = _("stopped");
		} else if (x->too_fast) {
			b[i].kind = SVG_BAR_FAST;
			b[i].note = _("too fast");
		} else if (x->marks & COMPARE_UNSTABLE) {
			b[i].kind = SVG_BAR_UNSTABLE;
			b[i].note = _("? unstable");
		} else if (x->n < 2) {
			b[i].note = "n=1";
		}
	}
	snprintf(unit, sizeof unit, "%s (%s)", wl_unit_name(c->cols[k].unit),
	    c->cols[k].lower_better ? _("lower is better")
				    : _("higher is better"));
	o.title = title;
	o.unit = unit;
	o.baseline = c->baseline != COMPARE_NONE
	    ? compare_cell(c, c->baseline, k)->mean
	    : NAN;
	o.baseline_label = _("baseline");
	svg_bars(out, b, c->nrows, &o);
	for (size_t i = 0; i < c->nrows; i++)
		free(names[i]);
	free(names);
	free(b);
	free(title);
}

/* The change with its interval: "+27.1% (+22.9% to +31.3%)". */
static void
change_cell(struct strbuf *out, const struct compare_cell *x)
{
	char p[COMPARE_NUM_BUF], lo[COMPARE_NUM_BUF], hi[COMPARE_NUM_BUF];
	char buf[3 * COMPARE_NUM_BUF + 16];

	compare_format_pct(report_cell_change(x), p, sizeof p);
	if (x->verdict == COMPARE_V_BASELINE || x->verdict == COMPARE_V_NONE)
		p[0] = '\0';
	else if (isfinite(x->ch.pct_lo) && isfinite(x->ch.pct_hi)) {
		compare_format_pct(x->ch.pct_lo, lo, sizeof lo);
		compare_format_pct(x->ch.pct_hi, hi, sizeof hi);
		snprintf(buf, sizeof buf, "%s (%s \xe2\x80\x93 %s)", p, lo, hi);
		html_elem(out, "td class=\"num\"", buf);
		return;
	}
	html_elem(out, "td class=\"num\"", p);
}

static void
test_table(struct strbuf *out, const struct report *s, size_t k)
{
	const struct compare *c = &s->cmp;
	const enum wl_unit u = c->cols[k].unit;
	static const char *const heads[] = { N_("Variant"), N_("n"), N_("Mean"),
		/* xgettext:no-c-format */ N_("95% CI of the mean"), NULL,
		N_("Verdict"), N_("Notes") };
	char v[COMPARE_NUM_BUF], lo[COMPARE_NUM_BUF], hi[COMPARE_NUM_BUF];
	char buf[128], conf[16];

	strbuf_add(out, "<table>\n<thead><tr>");
	for (size_t h = 0; h < sizeof heads / sizeof heads[0]; h++) {
		/* the change's interval is at the corrected level */
		if (heads[h] == NULL)
			snprintf(buf, sizeof buf, _("Change, %s%% CI"),
			    compare_conf_text(c->conf_shown, conf,
				sizeof conf));
		strbuf_add(out, "<th scope=\"col\">");
		html_text(out, heads[h] ? _(heads[h]) : buf);
		strbuf_add(out, "</th>");
	}
	strbuf_add(out, "</tr></thead>\n<tbody>\n");
	for (size_t i = 0; i < c->nrows; i++) {
		const struct compare_cell *x = compare_cell(c, i, k);
		char *notes = cell_notes(s, i, k), *td;

		strbuf_add(out, "<tr>");
		row_head(out, s, i);
		strbuf_printf(out, "<td class=\"num\">%zu</td>", x->n);
		td_score(out, s, i, k,
		    compare_format_value(x->mean, u, v, sizeof v));
		compare_format_value(x->d.ci_lo, u, lo, sizeof lo);
		compare_format_value(x->d.ci_hi, u, hi, sizeof hi);
		snprintf(buf, sizeof buf, "%s \xe2\x80\x93 %s", lo, hi);
		html_elem(out, "td class=\"num\"",
		    isfinite(x->d.ci_lo) ? buf : "-");
		change_cell(out, x);
		td = xasprintf("td class=\"%s\"",
		    html_verdict_class(x->verdict));
		html_elem(out, td,
		    report_verdict_word(c, i, k, buf, sizeof buf));
		free(td);
		html_elem(out, "td", notes);
		strbuf_add(out, "</tr>\n");
		free(notes);
	}
	strbuf_add(out, "</tbody>\n</table>\n");
}

/* The answers in words, and the reasons for every mark. */
static void
test_answers(struct strbuf *out, const struct report *s, size_t k)
{
	const struct compare *c = &s->cmp;
	bool open = false;

	/* bare: a sample's reasons are said once, in its own line */
	for (size_t i = 0; i < c->nrows; i++) {
		char *a = compare_answer_bare(c, i, k),
		     *m = compare_marks_text(c, i, k);

		if ((a != NULL || m[0] != '\0') && !open) {
			strbuf_add(out, "<ul class=\"answers\">\n");
			open = true;
		}
		if (a != NULL) {
			html_elem(out, "li", a);
			strbuf_add(out, "\n");
		}
		if (m[0] != '\0') {
			char *name = report_row_name(s, i);

			strbuf_add(out, "<li class=\"warn\">! ");
			html_text(out, name);
			strbuf_add(out, ": ");
			html_text(out, m);
			strbuf_add(out, "</li>\n");
			free(name);
		}
		free(a);
		free(m);
	}
	if (open)
		strbuf_add(out, "</ul>\n");
}

static void
test_section(struct strbuf *out, const struct report *s, size_t k)
{
	const struct compare_col *col = &s->cmp.cols[k];
	char *cap;

	strbuf_printf(out, "<section id=\"t-%zu\">\n<h3>", k);
	html_text(out, col->workload);
	strbuf_add(out, ": ");
	html_text(out, col->label);
	strbuf_add(out, " <small>");
	html_text(out, wl_unit_name(col->unit));
	strbuf_add(out, ", ");
	html_text(out,
	    col->lower_better ? _("lower is better") : _("higher is better"));
	strbuf_add(out, "</small></h3>\n");
	if (col->apart != NULL)
		html_elem(out, "p class=\"note\"", col->apart);
	if ((cap = report_wamp_note(s, k)) != NULL)
		html_elem(out, "p class=\"note\"", cap);
	free(cap);
	html_fig_open(out);
	test_bars(out, s, k);
	cap = xstrdup(
	    /* xgettext:no-c-format */
	    _("Bars: the mean of the repeats; whiskers: the 95% "
	      "interval of the geometric mean; dashed line: the baseline; "
	      "\xe2\x98\x85 the best, where proven. Hatched bars are not plain "
	      "results (unstable, stopped or too fast): the table "
	      "says why."));
	html_fig_side(out, cap);
	free(cap);
	test_table(out, s, k);
	test_answers(out, s, k);
	html_fig_close(out);
	strbuf_add(out, "</section>\n");
}

static void
results(const struct report *s, struct html_toc *toc, struct strbuf *out)
{
	const struct compare *c = &s->cmp;

	html_h2(out, toc, "results", _("Results"));
	if (c->baseline != COMPARE_NONE) {
		char *b = report_row_name(s, c->baseline), conf[16];
		char *t =
		    xasprintf(_("Each figure is the mean of n repeats with "
				"the 95%% confidence interval of their "
				"geometric mean (on the log scale: never "
				"below 0); the change is against %s, with "
				"its %s%% interval, and its verdict: better "
				"or worse, the same within the margin, or "
				"can't tell."),
			b, compare_conf_text(c->conf_shown, conf, sizeof conf));

		html_elem(out, "p", t);
		free(t);
		free(b);
	} else {
		html_elem(out, "p",
		    /* xgettext:no-c-format */
		    _("Each figure is the mean of n repeats with the 95% "
		      "confidence interval of their geometric mean (on the "
		      "log scale: never below 0)."));
	}
	for (size_t k = 0; k < c->ncols; k++)
		test_section(out, s, k);
}

/* ------------------------------------------------------------ the page */

static void
head(const struct report *s, struct strbuf *out)
{
	/* TRANSLATORS: the language code of the HTML report (lang="en"). */
	const char *lang = _("en");

	strbuf_add(out, "<!DOCTYPE html>\n<html lang=\"");
	html_text(out, lang);
	strbuf_add(out,
	    "\">\n<head>\n<meta charset=\"utf-8\">\n"
	    "<meta name=\"viewport\" content=\"width=device-width, "
	    "initial-scale=1\">\n"
	    "<meta name=\"generator\" content=\"raidlab\">\n<title>");
	html_text(out, s->title);
	strbuf_printf(out, "</title>\n<style>\n%s</style>\n</head>\n", css);
}

static void
toc_write(struct strbuf *out, struct html_toc *toc)
{
	strbuf_add(out, "<nav>\n<ol>\n");
	for (size_t i = 0; i < toc->n; i++) {
		strbuf_printf(out, "<li><a href=\"#%s\">", toc->id[i]);
		html_text(out, toc->title[i]);
		strbuf_add(out, "</a></li>\n");
		free(toc->title[i]);
	}
	strbuf_add(out, "</ol>\n</nav>\n");
}

void
report_html(const struct report *s, struct strbuf *out)
{
	struct html_toc toc = { 0 };
	struct strbuf body;
	bool same = s->nrecs > 0 && s->r[0].question != NULL;

	for (size_t i = 1; i < s->nrecs && same; i++)
		same = s->r[i].question != NULL &&
		    strcmp(s->r[i].question, s->r[0].question) == 0;
	strbuf_init(&body);
	strbuf_add(&body, "");
	report_html_answer(s, &toc, &body);
	report_html_fleet(s, &toc, &body);
	summary(s, &toc, &body);
	results(s, &toc, &body);
	report_html_series(s, &toc, &body);
	report_html_latency(s, &toc, &body);
	report_html_provenance(s, &toc, &body);

	head(s, out);
	strbuf_add(out, "<body>\n<header>\n");
	html_elem(out, "h1", s->title);
	strbuf_add(out, "\n");
	if (same && strcmp(s->r[0].question, s->title) != 0)
		html_elem(out, "p class=\"question\"", s->r[0].question);
	strbuf_add(out, "</header>\n");
	toc_write(out, &toc);
	strbuf_add(out, "<main>\n");
	strbuf_add(out, body.s);
	strbuf_add(out, "</main>\n</body>\n</html>\n");
	strbuf_done(&body);
}
