/*
 * The report's tail latency (report-int.h): the comparison of the same
 * records with the latency columns in (compare.h's latency part: p50,
 * p99 and p99.9 of each test's dominant operation, one figure per
 * round, judged like any column), and its "Tail latency" section in the
 * text and Markdown reports: per test a table of the variants with each
 * percentile's mean and verdict, then the answers and the reasons for
 * the marks. The HTML report's is in report-html-lat.c. The thread that
 * owns the records.
 */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/i18n.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "compare.h"
#include "measure/result.h"
#include "report-int.h"
#include "report.h"

#define W REPORT_TEXT_WIDTH
/* The text table's columns: the variant, then each percentile. */
#define NAME_W 16
#define CELL_W 17

bool
report_lat_compare(const struct report *s, struct compare *lc)
{
	bool any = false;

	compare_init(lc);
	/* the report's method, were one chosen */
	lc->test = s->cmp.test;
	lc->margin = s->cmp.margin;
	lc->method_chosen = s->cmp.method_chosen;
	compare_set_latency(lc, true);
	for (size_t i = 0; i < s->nrecs; i++)
		compare_add(lc, s->recs[i], NULL);
	/* the same records in the same order: the same rows */
	if (lc->nrows != s->cmp.nrows) {
		compare_done(lc);
		return false;
	}
	compare_set_baseline(lc, s->cmp.baseline);
	for (size_t k = 0; k < lc->ncols; k++)
		any = any || lc->cols[k].lat_q > 0;
	if (!any)
		compare_done(lc);
	return any;
}

size_t
report_lat_rate_col(const struct compare *lc, const struct compare_col *col)
{
	for (size_t k = 0; k < lc->ncols; k++) {
		const struct compare_col *x = &lc->cols[k];

		if (x->lat_q == 0 && x->unit == col->unit &&
		    strcmp(x->workload, col->workload) == 0 &&
		    strcmp(x->key, col->key) == 0 &&
		    strcmp(x->params, col->params) == 0)
			return k;
	}
	return COMPARE_NONE;
}

bool
report_lat_cols(const struct compare *lc, size_t k, size_t *j)
{
	for (size_t q = 0; q < COMPARE_LAT_NQ; q++) {
		j[q] = compare_lat_col(lc, k, compare_lat_quantile(q));
		if (j[q] == COMPARE_NONE)
			return false;
	}
	return true;
}

const char *
report_lat_verdict(const struct compare *lc, size_t row, size_t col, char *buf,
    size_t len)
{
	const struct compare_cell *x = compare_cell(lc, row, col);

	if (x->n > 0 && x->verdict == COMPARE_V_NONE &&
	    (x->marks & COMPARE_MARK_FEWLAT))
		snprintf(buf, len, "%s", _("few samples"));
	else
		compare_format_verdict(lc, row, col, buf, len);
	return buf;
}

/* A latency cell's figure: the mean of its rounds' percentiles, "*"
   before a proven best. */
static const char *
value(const struct compare *lc, size_t row, size_t col, char *buf, size_t len)
{
	const struct compare_cell *x = compare_cell(lc, row, col);
	char v[COMPARE_NUM_BUF];

	if (x->n == 0)
		snprintf(buf, len, "%s", x->failed > 0 ? _("failed") : "-");
	else
		snprintf(buf, len, "%s%s", lc->cols[col].best == row ? "*" : "",
		    compare_format_value(x->mean, WL_UNIT_USEC, v, sizeof v));
	return buf;
}

/* "µs" as "us" in place: the text report is ASCII. */
static void
no_mu(char *b)
{
	char *p;

	while ((p = strstr(b, "\u00b5")) != NULL) {
		*p = 'u';
		memmove(p + 1, p + 2, strlen(p + 2) + 1);
	}
}

/* The trailing blanks of a table line. */
static void
trim(struct strbuf *b)
{
	while (b->len > 0 && b->s[b->len - 1] == ' ')
		b->s[--b->len] = '\0';
}

const char *
report_lat_intro(void)
{
	return _("Each figure is the mean over the repeats of each repeat's "
		 "own percentile of the test's main operation (lower is "
		 "better); a change is judged across the repeats' "
		 "percentiles, as the rates are. \"few samples\": a repeat "
		 "had under 10 operations beyond the percentile (p99 needs "
		 "1000, p99.9 10000): shown, not judged.");
}

/* "small: 1000 files of 4K in 10 dirs, write latency" */
static char *
lat_title(const struct compare *lc, size_t k, const size_t *j)
{
	return xasprintf(_("%s: %s, %s latency"), lc->cols[k].workload,
	    lc->cols[k].title, wl_op_name((enum wl_op)lc->cols[j[0]].lat_op));
}

/*
 * Row i's reasons for its marks on the percentiles j, each said once
 * with the percentiles it holds for: "b, p50 p99: CV 12.0% over the 5%
 * limit". Into r (COMPARE_LAT_NQ, the caller frees each); returns how
 * many.
 */
static size_t
reasons(const struct report *s, const struct compare *lc, size_t i,
    const size_t *j, char **r)
{
	char *m[COMPARE_LAT_NQ], *name = report_row_name(s, i);
	size_t n = 0;

	for (size_t q = 0; q < COMPARE_LAT_NQ; q++)
		m[q] = compare_marks_text(lc, i, j[q]);
	for (size_t q = 0; q < COMPARE_LAT_NQ; q++) {
		bool said = m[q][0] == '\0';
		struct strbuf qs;

		for (size_t e = 0; e < q && !said; e++)
			said = strcmp(m[e], m[q]) == 0;
		if (said)
			continue;
		strbuf_init(&qs);
		for (size_t e = q; e < COMPARE_LAT_NQ; e++)
			if (strcmp(m[e], m[q]) == 0)
				strbuf_printf(&qs, "%s%s", qs.len ? " " : "",
				    compare_lat_name(lc->cols[j[e]].lat_q));
		r[n++] = xasprintf("%s, %s: %s", name, qs.s, m[q]);
		strbuf_done(&qs);
	}
	for (size_t q = 0; q < COMPARE_LAT_NQ; q++)
		free(m[q]);
	free(name);
	return n;
}

/* ---------------------------------------------------------------- text */

/* After a test's table: each answer and each sample's reasons, with the
   percentile they are about. */
static void
text_words(const struct report *s, const struct compare *lc, const size_t *j,
    struct strbuf *out)
{
	for (size_t q = 0; q < COMPARE_LAT_NQ; q++)
		for (size_t i = 0; i < lc->nrows; i++) {
			char *a = compare_answer_bare(lc, i, j[q]), *t;

			if (a == NULL)
				continue;
			t = xasprintf("- %s: %s",
			    compare_lat_name(lc->cols[j[q]].lat_q), a);
			no_mu(t);
			strbuf_add(out, "  ");
			report_wrap(out, t, 2, 6, W);
			free(t);
			free(a);
		}
	for (size_t i = 0; i < lc->nrows; i++) {
		char *r[COMPARE_LAT_NQ];
		size_t n = reasons(s, lc, i, j, r);

		for (size_t e = 0; e < n; e++) {
			char *t = xasprintf("! %s", r[e]);

			no_mu(t);
			strbuf_add(out, "  ");
			report_wrap(out, t, 2, 4, W);
			free(t);
			free(r[e]);
		}
	}
}

static void
text_test(const struct report *s, const struct compare *lc, size_t k,
    const size_t *j, struct strbuf *out)
{
	char *t = lat_title(lc, k, j);
	struct strbuf line;

	strbuf_add(out, "\n");
	report_wrap(out, t, 0, 4, W);
	free(t);
	strbuf_init(&line);
	strbuf_printf(&line, "  %-*s", NAME_W + 2, "");
	for (size_t q = 0; q < COMPARE_LAT_NQ; q++)
		strbuf_printf(&line, "%-*s", CELL_W,
		    compare_lat_name(lc->cols[j[q]].lat_q));
	trim(&line);
	report_wrap(out, line.s, 0, 0, W);
	for (size_t i = 0; i < lc->nrows; i++) {
		char *name = report_row_name(s, i), b[64];

		if (compare_cell(lc, i, j[0])->n == 0 &&
		    compare_cell(lc, i, j[0])->failed == 0) {
			free(name);
			continue; /* the variant has no such test */
		}
		strbuf_done(&line);
		strbuf_init(&line);
		/* cut to the column: the answers name it in full */
		strbuf_printf(&line, "%-*.*s  ", NAME_W, NAME_W, name);
		for (size_t q = 0; q < COMPARE_LAT_NQ; q++) {
			value(lc, i, j[q], b, sizeof b);
			no_mu(b);
			strbuf_printf(&line, "%-*s", CELL_W, b);
		}
		trim(&line);
		strbuf_add(out, "  ");
		report_wrap(out, line.s, 2, 4, W);
		strbuf_done(&line);
		strbuf_init(&line);
		strbuf_printf(&line, "  %-*s", NAME_W + 2, "");
		for (size_t q = 0; q < COMPARE_LAT_NQ; q++)
			strbuf_printf(&line, "%-*s", CELL_W,
			    report_lat_verdict(lc, i, j[q], b, sizeof b));
		trim(&line);
		report_wrap(out, line.s, 0, 4, W);
		free(name);
	}
	strbuf_done(&line);
	text_words(s, lc, j, out);
}

void
report_lat_text(const struct report *s, struct strbuf *out)
{
	struct compare lc;
	size_t j[COMPARE_LAT_NQ];
	const char *title = _("Tail latency");

	if (!report_lat_compare(s, &lc))
		return;
	strbuf_printf(out, "\n%s\n", title);
	for (size_t i = 0; i < strlen(title); i++)
		strbuf_add(out, "-");
	strbuf_add(out, "\n");
	report_wrap(out, report_lat_intro(), 0, 0, W);
	for (size_t k = 0; k < lc.ncols; k++)
		if (lc.cols[k].lat_q == 0 && report_lat_cols(&lc, k, j))
			text_test(s, &lc, k, j, out);
	compare_done(&lc);
}

/* ------------------------------------------------------------ markdown */

static void
md_test(const struct report *s, const struct compare *lc, size_t k,
    const size_t *j, struct strbuf *out)
{
	char *t = lat_title(lc, k, j), v[64], b[64];

	strbuf_add(out, "### ");
	report_md_text(out, t, false);
	strbuf_add(out, "\n\n");
	free(t);
	strbuf_printf(out, "| %s |", _("Variant"));
	for (size_t q = 0; q < COMPARE_LAT_NQ; q++)
		strbuf_printf(out, " %s |",
		    compare_lat_name(lc->cols[j[q]].lat_q));
	strbuf_add(out, "\n|---|---:|---:|---:|\n");
	for (size_t i = 0; i < lc->nrows; i++) {
		char *name;

		if (compare_cell(lc, i, j[0])->n == 0 &&
		    compare_cell(lc, i, j[0])->failed == 0)
			continue;
		name = report_row_name(s, i);
		strbuf_add(out, "| ");
		report_md_text(out, name, true);
		strbuf_add(out, " |");
		for (size_t q = 0; q < COMPARE_LAT_NQ; q++) {
			strbuf_add(out, " ");
			report_md_text(out, value(lc, i, j[q], v, sizeof v),
			    true);
			if (report_lat_verdict(lc, i, j[q], b, sizeof b)[0]) {
				strbuf_add(out, " (");
				report_md_text(out, b, true);
				strbuf_add(out, ")");
			}
			strbuf_add(out, " |");
		}
		strbuf_add(out, "\n");
		free(name);
	}
	strbuf_add(out, "\n");
	for (size_t q = 0; q < COMPARE_LAT_NQ; q++)
		for (size_t i = 0; i < lc->nrows; i++) {
			char *a = compare_answer_bare(lc, i, j[q]);

			if (a != NULL) {
				strbuf_printf(out, "- %s: ",
				    compare_lat_name(lc->cols[j[q]].lat_q));
				report_md_text(out, a, false);
				strbuf_add(out, "\n");
			}
			free(a);
		}
	for (size_t i = 0; i < lc->nrows; i++) {
		char *r[COMPARE_LAT_NQ];
		size_t n = reasons(s, lc, i, j, r);

		for (size_t e = 0; e < n; e++) {
			strbuf_add(out, "- ! ");
			report_md_text(out, r[e], false);
			strbuf_add(out, "\n");
			free(r[e]);
		}
	}
	strbuf_add(out, "\n");
}

void
report_lat_markdown(const struct report *s, struct strbuf *out)
{
	struct compare lc;
	size_t j[COMPARE_LAT_NQ];

	if (!report_lat_compare(s, &lc))
		return;
	strbuf_printf(out, "## %s\n\n", _("Tail latency"));
	report_md_text(out, report_lat_intro(), false);
	strbuf_add(out, "\n\n");
	for (size_t k = 0; k < lc.ncols; k++)
		if (lc.cols[k].lat_q == 0 && report_lat_cols(&lc, k, j))
			md_test(s, &lc, k, j, out);
	compare_done(&lc);
}
