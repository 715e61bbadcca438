/*
 * The answer every report leads with (report.h), in the words the text,
 * Markdown and HTML reports and the Compare screen share, so that none
 * words a verdict differently: a cell's verdict as a word and in a table
 * column, each variant's verdict on a test in a few words (better or
 * worse with the corrected q, the same within the margin, or can't tell
 * with its interval and what would settle it), a test's name, and what
 * could not be measured. The thread that owns the records.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/i18n.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "compare-fleet.h"
#include "report-int.h"
#include "report.h"

/* Either side of row's verdict on col is unstable. */
static bool
unstable(const struct compare *c, size_t row, size_t col)
{
	unsigned m = compare_cell(c, row, col)->marks;

	if (c->baseline != COMPARE_NONE)
		m |= compare_cell(c, c->baseline, col)->marks;
	return (m & COMPARE_UNSTABLE) != 0;
}

double
report_cell_change(const struct compare_cell *x)
{
	return isfinite(x->ch.pct) ? x->ch.pct : x->pct;
}

/* An interval's end in few columns: "-7.0" under 10, "+12" above. */
static const char *
short_pct(double v, char *buf, size_t len)
{
	snprintf(buf, len, fabs(v) < 10 ? "%+.1f" : "%+.0f", v);
	return buf;
}

const char *
report_verdict_word(const struct compare *c, size_t row, size_t col, char *buf,
    size_t len)
{
	const struct compare_cell *x = compare_cell(c, row, col);
	char *bang;

	switch (x->verdict) {
	case COMPARE_V_BETTER:
		snprintf(buf, len, "%s", _("better"));
		break;
	case COMPARE_V_WORSE:
		snprintf(buf, len, "%s", _("worse"));
		break;
	case COMPARE_V_SAME:
		snprintf(buf, len, _("same ±%g%%"), c->margin);
		break;
	case COMPARE_V_UNSURE:
		snprintf(buf, len, "%s", _("can't tell"));
		break;
	default:
		compare_format_verdict(c, row, col, buf, len);
		/* the mark is the caller's to add */
		if ((bang = strstr(buf, " !")) != NULL && bang[2] == '\0')
			*bang = '\0';
		break;
	}
	return buf;
}

const char *
report_verdict_short(const struct compare *c, size_t row, size_t col, char *buf,
    size_t len)
{
	const struct compare_cell *x = compare_cell(c, row, col);
	bool ci = isfinite(x->ch.pct_lo) && isfinite(x->ch.pct_hi);
	const char *mark = unstable(c, row, col) ? " !" : "";
	char w[64], lo[COMPARE_NUM_BUF], hi[COMPARE_NUM_BUF];

	report_verdict_word(c, row, col, w, sizeof w);
	switch (x->verdict) {
	case COMPARE_V_BETTER:
	case COMPARE_V_WORSE:
		if (ci)
			snprintf(buf, len, "%+.1f%% ±%.1f%% %s%s",
			    report_cell_change(x),
			    (x->ch.pct_hi - x->ch.pct_lo) / 2, w, mark);
		else
			snprintf(buf, len, "%+.1f%% ±? %s%s",
			    report_cell_change(x), w, mark);
		break;
	case COMPARE_V_UNSURE:
		if (ci)
			snprintf(buf, len, "%s %s..%s%%%s", w,
			    short_pct(x->ch.pct_lo, lo, sizeof lo),
			    short_pct(x->ch.pct_hi, hi, sizeof hi), mark);
		else
			snprintf(buf, len, "%s%s", w, mark);
		break;
	case COMPARE_V_NONE:
	case COMPARE_V_FEW:
	case COMPARE_V_STOPPED:
	case COMPARE_V_FAST:
		snprintf(buf, len, "%s", w);
		break;
	default:
		snprintf(buf, len, "%s%s", w, mark);
		break;
	}
	return buf;
}

const char *
report_change_text(const struct report *s, size_t row, size_t col, char *buf,
    size_t len)
{
	return report_verdict_short(&s->cmp, row, col, buf, len);
}

/* ------------------------------------------------------------ in words */

/* "q = 0.002", "q < 0.001": the p-value after the correction ("p" when
   there was one comparison: nothing to correct); "" without one. */
static void
q_text(const struct compare *c, double q, char *buf, size_t len)
{
	const char *name = c->family > 1 ? "q" : "p";

	if (!isfinite(q))
		snprintf(buf, len, "%s", "");
	else if (q < 0.001)
		snprintf(buf, len, "%s < 0.001", name);
	else
		snprintf(buf, len, "%s = %.3f", name, q);
}

/* "two 12.3% faster than one (q = 0.002)", or in time for seconds, or
   in bytes written for a write amplification. */
static void
words_change(const struct compare *c, const struct compare_cell *x,
    const struct compare_col *col, const char *name, const char *base,
    struct strbuf *out)
{
	double pct = report_cell_change(x);
	char q[32];

	if (col->unit == WL_UNIT_RATIO)
		strbuf_printf(out,
		    pct < 0 ? _("%s wrote %.1f%% less to its devices than %s")
			    : _("%s wrote %.1f%% more to its devices than %s"),
		    name, fabs(pct), base);
	else if (col->lower_better)
		strbuf_printf(out,
		    pct < 0 ? _("%s took %.1f%% less time than %s")
			    : _("%s took %.1f%% more time than %s"),
		    name, fabs(pct), base);
	else
		strbuf_printf(out,
		    pct < 0 ? _("%s %.1f%% slower than %s")
			    : _("%s %.1f%% faster than %s"),
		    name, fabs(pct), base);
	q_text(c, x->q, q, sizeof q);
	if (q[0] != '\0')
		strbuf_printf(out, " (%s)", q);
}

void
report_settle_text(const struct compare *c, size_t row, size_t col,
    struct strbuf *out)
{
	const struct compare_cell *x = compare_cell(c, row, col);
	size_t n = x->n;

	/* as compare_answer() counts them: beyond the side with more */
	if (c->baseline != COMPARE_NONE &&
	    compare_cell(c, c->baseline, col)->n > n)
		n = compare_cell(c, c->baseline, col)->n;
	if (x->settle > n)
		strbuf_printf(out,
		    ngettext("about %zu more repeat each would settle it",
			"about %zu more repeats each would settle it",
			(unsigned long)(x->settle - n)),
		    x->settle - n);
}

/* "two: can't tell against one (-7.0% to +9.0%; about 6 more repeats
   each would settle it)": how far either way it may be, and what would
   tell. */
static void
words_unsure(const struct compare *c, size_t row, size_t col, const char *name,
    const char *base, struct strbuf *out)
{
	const struct compare_cell *x = compare_cell(c, row, col);
	struct strbuf settle;

	strbuf_init(&settle);
	strbuf_add(&settle, "");
	report_settle_text(c, row, col, &settle);
	strbuf_printf(out, _("%s: can't tell against %s"), name, base);
	if (isfinite(x->ch.pct_lo) && isfinite(x->ch.pct_hi))
		strbuf_printf(out, _(" (%+.1f%% to %+.1f%%%s%s)"), x->ch.pct_lo,
		    x->ch.pct_hi, settle.len > 0 ? "; " : "", settle.s);
	else if (settle.len > 0)
		strbuf_printf(out, " (%s)", settle.s);
	strbuf_done(&settle);
}

void
report_verdict_words(const struct report *s, size_t row, size_t col,
    struct strbuf *out)
{
	const struct compare *c = &s->cmp;
	const struct compare_cell *x = compare_cell(c, row, col);
	char *name = report_row_name(s, row),
	     *base = report_row_name(s, c->baseline);
	char buf[64];

	switch (x->verdict) {
	case COMPARE_V_BETTER:
	case COMPARE_V_WORSE:
		words_change(c, x, &c->cols[col], name, base, out);
		break;
	case COMPARE_V_SAME:
		strbuf_printf(out, _("%s the same as %s within ±%g%%"), name,
		    base, c->margin);
		break;
	case COMPARE_V_UNSURE:
		words_unsure(c, row, col, name, base, out);
		break;
	case COMPARE_V_FEW:
		strbuf_printf(out, _("%s: too few repeats to tell (n<3)"),
		    name);
		break;
	case COMPARE_V_FAST:
		strbuf_printf(out, _("%s: too fast to measure (+++++)"), name);
		break;
	case COMPARE_V_STOPPED:
		strbuf_printf(out,
		    _("%s: not judged (only stopped runs had a figure)"), name);
		break;
	default:
		strbuf_printf(out, "%s: %s", name,
		    report_verdict_word(c, row, col, buf, sizeof buf));
		break;
	}
	if (unstable(c, row, col) && x->verdict != COMPARE_V_FEW)
		strbuf_add(out, " !");
	free(name);
	free(base);
}

bool
report_judged(const struct report *s, size_t row, size_t col)
{
	enum compare_verdict v = compare_cell(&s->cmp, row, col)->verdict;

	return v != COMPARE_V_NONE && v != COMPARE_V_BASELINE;
}

const char *
report_nothing_judged(const struct report *s)
{
	return s->cmp.baseline == COMPARE_NONE
	    ? _("no baseline to judge against")
	    : _("nothing to judge against the baseline");
}

char *
report_test_name(const struct report *s, size_t col)
{
	const struct compare_col *k = &s->cmp.cols[col];

	return xasprintf("%s: %s", k->workload, k->label);
}

void
report_unmeasured(const struct report *s, char ***v, size_t *n)
{
	const struct compare *c = &s->cmp;

	*v = NULL;
	*n = 0;
	for (size_t i = 0; i < c->nrows; i++) {
		char *name = report_row_name(s, i);

		if (c->rows[i].why != NULL)
			report_strv_push(v, n,
			    xasprintf("%s: %s", name, c->rows[i].why));
		for (size_t k = 0; k < c->ncols; k++)
			if (compare_cell(c, i, k)->too_fast)
				report_strv_push(v, n,
				    xasprintf(_("%s, %s: %s: too fast to "
						"measure (+++++)"),
					name, c->cols[k].workload,
					c->cols[k].label));
		free(name);
	}
}

void
report_fleet(const struct report *s, char ***v, size_t *n, char **method)
{
	struct compare_fleet f;

	*v = NULL;
	*n = 0;
	*method = NULL;
	compare_fleet_build(&f, &s->cmp);
	for (size_t i = 0; i < f.nitems; i++) {
		char *name = report_test_name(s, f.items[i].col);
		char *a = compare_fleet_answer(&f, &s->cmp, i);

		report_strv_push(v, n, xasprintf("%s: %s", name, a));
		free(name);
		free(a);
	}
	if (f.nitems > 0)
		*method = compare_fleet_method_text(&f);
	compare_fleet_done(&f);
}

char *
report_wamp_note(const struct report *s, size_t col)
{
	const struct compare *c = &s->cmp;
	struct strbuf b;

	if (!compare_col_is_wamp(c, col))
		return NULL;
	strbuf_init(&b);
	strbuf_add(&b,
	    _("Bytes the member devices wrote per byte the workload wrote "
	      "(an md array is counted by its members, a nested one by its "
	      "bottom disks). Parity rotates over the members of RAID5/6, "
	      "so their bytes cannot tell parity from data."));
	for (size_t i = 0; i < c->nrows; i++) {
		const struct compare_cell *x = compare_cell(c, i, col);
		char *t, *name;

		if (x->n == 0 || (t = compare_wamp_ideal_text(c, i)) == NULL)
			continue;
		name = report_row_name(s, i);
		strbuf_printf(&b, " %s: %s.", name, t);
		free(name);
		free(t);
	}
	return strbuf_take(&b);
}
