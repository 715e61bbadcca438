/*
 * The statistics of the comparison table and their words: each cell's
 * stability marks, its raw verdict against the baseline (src/figures/stats.h:
 * the comparison's test, log-Welch, Welch or Mann-Whitney), which bests and
 * colours are proven, and the texts front ends show: a short verdict for
 * a table column, the one-sentence answer, the marks' reasons. The
 * correction over the family of verdicts, and the final three answers,
 * are compare-family.c's. See compare.h. The thread that owns the table.
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
#include "compare-fleet.h"
#include "compare-int.h"
#include "compare.h"
#include "figures/plot.h"
#include "figures/stats.h"
#include "record.h"

/* Below this many repeats noise cannot be told from a difference: the
   t quantile of 1 degree of freedom is 12.7, and Mann-Kendall's smallest
   p for 3 values is 1/3 (ministat needs 3 as well). */
#define FEW_REPEATS 3

/* ---------------------------------------------------------------- marks */

static void
cell_marks(struct compare_cell *x, double cv_limit)
{
	x->marks = 0;
	x->tau = x->trend_p = NAN;
	free(x->outlier);
	x->outlier = xcalloc(x->n + 1, sizeof *x->outlier);
	if (x->n == 0)
		return;
	if (x->interrupted)
		x->marks |= COMPARE_MARK_STOPPED;
	if (x->stalled > 0)
		x->marks |= COMPARE_MARK_STALLED;
	if (x->lat_few)
		x->marks |= COMPARE_MARK_FEWLAT;
	if (x->too_fast)
		return; /* "+++++" says it all */
	if (x->n >= 2 && isfinite(x->d.cv) && x->d.cv > cv_limit)
		x->marks |= COMPARE_MARK_CV;
	if (x->n >= 3)
		x->trend_p = stats_trend(x->v, x->n, &x->tau);
	/* Three values can never show a trend at 10%: p is 1/3 at best. */
	if (x->n >= 4 && x->trend_p <= COMPARE_TREND_P)
		x->marks |= COMPARE_MARK_TREND;
	/* From 4 repeats: of 3, the median absolute deviation is the
	   smaller of two distances, and any lopsided triple would do. A
	   warm-up is the better name for a first repeat that is both. */
	if (x->n >= 4 && stats_outliers(x->v, x->n, x->outlier) > 0)
		x->marks |= COMPARE_MARK_OUTLIER;
	if (stats_warmup(x->v, x->n)) {
		bool other = false;

		x->marks |= COMPARE_MARK_WARMUP;
		x->outlier[0] = false;
		for (size_t i = 1; i < x->n; i++)
			other |= x->outlier[i];
		if (!other)
			x->marks &= ~(unsigned)COMPARE_MARK_OUTLIER;
	}
	if (isfinite(x->wall) && x->wall < COMPARE_SHORT_S)
		x->marks |= COMPARE_MARK_SHORT;
}

/* ---------------------------------------------------------------- verdict */

static void
change_reset(struct stats_change *ch)
{
	memset(ch, 0, sizeof *ch);
	ch->kind = STATS_TOO_FEW;
	ch->test = -1;
	ch->diff = ch->t = ch->df = ch->p = ch->se = NAN;
	ch->pct = ch->pct_lo = ch->pct_hi = NAN;
}

/* Every figure is above 0: the log and rank tests work on logarithms. */
static bool
positive(const struct compare_cell *x)
{
	for (size_t i = 0; i < x->n; i++)
		if (!(x->v[i] > 0) || !isfinite(x->v[i]))
			return false;
	return true;
}

/*
 * The verdict of x against b (neither the baseline's own cell) before the
 * correction, its change by test t at STATS_CONF into *ch (Welch's when a
 * figure is 0 or below: ch->test says which) and *pct, the repeats that
 * would tell into *needed. A pair to judge comes back COMPARE_V_UNSURE:
 * the family decides (compare-family.c). Pure: compare_proven_better()
 * asks it of any two rows.
 */
static enum compare_verdict
pair_verdict(const struct compare_cell *x, const struct compare_cell *b,
    enum stats_test t, struct stats_change *ch, double *pct, size_t *needed)
{
	*pct = NAN;
	*needed = 0;
	change_reset(ch);
	if (x->n == 0 || b->n == 0)
		return COMPARE_V_NONE;
	/* A percentile on too few operations is shown, never judged. */
	if ((x->marks | b->marks) & COMPARE_MARK_FEWLAT)
		return COMPARE_V_NONE;
	if (x->interrupted || b->interrupted)
		return COMPARE_V_STOPPED;
	if (x->too_fast || b->too_fast)
		return COMPARE_V_FAST;
	if (b->mean != 0)
		*pct = (x->mean - b->mean) / b->mean * 100;
	if (t != STATS_TEST_WELCH && (!positive(x) || !positive(b)))
		t = STATS_TEST_WELCH;
	if (x->n >= 2 && b->n >= 2) {
		stats_compare_by(t, b->v, b->n, x->v, x->n, STATS_CONF, ch);
		ch->test = (int)t;
	}
	if (x->n < FEW_REPEATS || b->n < FEW_REPEATS) {
		*needed =
		    stats_n_needed(b->d.cv, x->d.cv, *pct, STATS_CONF, 1000);
		return COMPARE_V_FEW;
	}
	if (!isfinite(ch->p) || !isfinite(*pct))
		return COMPARE_V_NONE; /* overflowing figures */
	if (x->d.sd == 0 && b->d.sd == 0 && x->mean != b->mean)
		return COMPARE_V_EXACT;
	return COMPARE_V_UNSURE;
}

static void
cell_verdict(struct compare_cell *x, const struct compare_cell *b, bool is_base,
    enum stats_test t)
{
	x->q = x->eq_lo = x->eq_hi = x->mde = NAN;
	x->settle = 0;
	if (b == NULL || x->n == 0 || b->n == 0) {
		x->verdict = COMPARE_V_NONE;
		x->pct = NAN;
		x->needed = 0;
		change_reset(&x->ch);
		return;
	}
	if (is_base) {
		x->verdict = COMPARE_V_BASELINE;
		x->pct = b->mean != 0 && !b->too_fast ? 0 : NAN;
		x->needed = 0;
		change_reset(&x->ch);
		return;
	}
	x->verdict = pair_verdict(x, b, t, &x->ch, &x->pct, &x->needed);
}

bool
compare_judged(const struct compare_cell *x)
{
	return x->verdict == COMPARE_V_SAME || x->verdict == COMPARE_V_UNSURE ||
	    x->verdict == COMPARE_V_BETTER || x->verdict == COMPARE_V_WORSE;
}

double
compare_change(const struct compare_cell *x)
{
	return isfinite(x->ch.pct) ? x->ch.pct : x->pct;
}

bool
compare_proven_better(const struct compare *c, size_t a, size_t b, size_t col)
{
	struct stats_change ch;
	double pct;
	size_t needed;

	if (a == b ||
	    pair_verdict(compare_cell(c, a, col), compare_cell(c, b, col),
		c->test, &ch, &pct, &needed) != COMPARE_V_UNSURE)
		return false;
	return ch.p < compare_family_level(c) &&
	    (ch.diff < 0) == c->cols[col].lower_better;
}

/*
 * Which cells of column k may wear a colour, and whether its best mean
 * is a proven best: a star or a colour is the answer a reader takes
 * away, so neither may claim what no verdict says.
 */
static void
col_proven(struct compare *c, size_t k)
{
	struct compare_col *col = &c->cols[k];
	bool best_ok = col->best != COMPARE_NONE;

	for (size_t i = 0; i < c->nrows; i++)
		c->rows[i].cells[k].proven = false;
	for (size_t i = 0; i < c->nrows; i++)
		for (size_t j = 0; j < c->nrows; j++) {
			if (i == j || c->rows[j].cells[k].n == 0 ||
			    c->rows[j].cells[k].too_fast ||
			    c->rows[j].cells[k].interrupted)
				continue;
			if (compare_proven_better(c, i, j, k)) {
				c->rows[i].cells[k].proven = true;
				c->rows[j].cells[k].proven = true;
			} else if (i == col->best) {
				best_ok = false;
			}
		}
	if (!best_ok)
		col->best = COMPARE_NONE;
}

/* The test and margin: compare_set_method()'s, else the baseline
   record's (the first row's without a baseline). */
static void
method_take(struct compare *c)
{
	size_t r = c->baseline != COMPARE_NONE ? c->baseline : 0;

	if (c->method_chosen)
		return;
	c->test = STATS_TEST_LOG;
	c->margin = COMPARE_MARGIN_DEFAULT;
	if (r < c->nrows) {
		c->test = c->rows[r].test;
		c->margin = c->rows[r].margin;
	}
}

void
compare_judge(struct compare *c)
{
	method_take(c);
	for (size_t i = 0; i < c->nrows; i++)
		for (size_t k = 0; k < c->ncols; k++)
			cell_marks(&c->rows[i].cells[k], c->rows[i].cv_limit);
	for (size_t k = 0; k < c->ncols; k++) {
		const struct compare_cell *b = c->baseline != COMPARE_NONE
		    ? &c->rows[c->baseline].cells[k]
		    : NULL;

		for (size_t i = 0; i < c->nrows; i++)
			cell_verdict(&c->rows[i].cells[k], b, i == c->baseline,
			    c->test);
	}
	compare_family_judge(c);
	for (size_t k = 0; k < c->ncols; k++)
		col_proven(c, k);
}

const char *
compare_verdict_key(enum compare_verdict v)
{
	switch (v) {
	case COMPARE_V_BASELINE:
		return "baseline";
	case COMPARE_V_STOPPED:
		return "stopped";
	case COMPARE_V_FAST:
		return "too_fast";
	case COMPARE_V_FEW:
		return "too_few";
	case COMPARE_V_EXACT:
		return "exact";
	case COMPARE_V_SAME:
		return "same";
	case COMPARE_V_UNSURE:
		return "unsure";
	case COMPARE_V_BETTER:
		return "better";
	case COMPARE_V_WORSE:
		return "worse";
	case COMPARE_V_NONE:
		break;
	}
	return "none";
}

/* ---------------------------------------------------------------- words */

const char *
compare_pm(void)
{
	return plot_utf8_locale() ? "±" : "+-";
}

const char *
compare_conf_text(double conf, char *buf, size_t len)
{
	/* 95% is "95", 99.79% "99.8", 99.995% "99.995": never a rounded
	   "100", and within a twentieth of a percent. */
	for (int d = 0; d <= 4; d++) {
		double v;

		snprintf(buf, len, "%.*f", d, conf * 100);
		v = strtod(buf, NULL);
		if (v < 100 && fabs(v - conf * 100) <= 0.05)
			break;
	}
	return buf;
}

const char *
compare_test_words(enum stats_test t)
{
	switch (t) {
	case STATS_TEST_WELCH:
		return _("Welch's t-test");
	case STATS_TEST_RANK:
		return _("the Mann-Whitney rank test");
	case STATS_TEST_LOG:
	case STATS_TEST__COUNT:
		break;
	}
	return _("the log t-test");
}

/* Either side's repeats are unstable. */
static bool
unstable(const struct compare *c, size_t row, size_t col)
{
	const struct compare_cell *x = compare_cell(c, row, col);
	const struct compare_cell *b = c->baseline != COMPARE_NONE
	    ? compare_cell(c, c->baseline, col)
	    : NULL;

	return (x->marks & COMPARE_UNSTABLE) != 0 ||
	    (b != NULL && (b->marks & COMPARE_UNSTABLE) != 0);
}

/* "-7.0" under 10 in size, "-12" above: an interval end in few columns. */
static const char *
short_pct(double v, char *buf, size_t len)
{
	snprintf(buf, len, fabs(v) < 10 ? "%+.1f" : "%+.0f", v);
	return buf;
}

const char *
compare_format_verdict(const struct compare *c, size_t row, size_t col,
    char *buf, size_t len)
{
	const struct compare_cell *x = compare_cell(c, row, col);
	const char *mark = unstable(c, row, col) ? " !" : "";
	bool ci = isfinite(x->ch.pct_lo) && isfinite(x->ch.pct_hi);
	char lo[COMPARE_NUM_BUF], hi[COMPARE_NUM_BUF];

	switch (x->verdict) {
	case COMPARE_V_NONE:
		snprintf(buf, len, "%s", "");
		break;
	case COMPARE_V_BASELINE:
		snprintf(buf, len, "%s%s", _("baseline"), mark);
		break;
	case COMPARE_V_STOPPED:
		snprintf(buf, len, "%s", _("stopped"));
		break;
	case COMPARE_V_FAST:
		snprintf(buf, len, "%s", "+++++");
		break;
	case COMPARE_V_FEW:
		snprintf(buf, len, "%s", _("n<3"));
		break;
	case COMPARE_V_EXACT:
		snprintf(buf, len, _("%+.1f%% exact?"), x->pct);
		break;
	case COMPARE_V_SAME:
		snprintf(buf, len, _("same %s%g%%%s"), compare_pm(), c->margin,
		    mark);
		break;
	case COMPARE_V_UNSURE:
		if (ci)
			snprintf(buf, len, "? %s..%s%%%s",
			    short_pct(x->ch.pct_lo, lo, sizeof lo),
			    short_pct(x->ch.pct_hi, hi, sizeof hi), mark);
		else
			snprintf(buf, len, "? p=%.2f%s", x->ch.p, mark);
		break;
	case COMPARE_V_BETTER:
	case COMPARE_V_WORSE:
		if (ci)
			snprintf(buf, len, "%+.1f%% %s%.1f%%%s",
			    compare_change(x), compare_pm(),
			    (x->ch.pct_hi - x->ch.pct_lo) / 2, mark);
		else
			snprintf(buf, len, "%+.1f%% %s?%s", compare_change(x),
			    compare_pm(), mark);
		break;
	}
	return buf;
}

char *
compare_row_label(const struct compare *c, size_t i)
{
	const struct compare_row *r = &c->rows[i];

	/* a fleet's records are its hosts: "v2@h2" says which */
	if (compare_by_host(c))
		return xasprintf("%s@%s", r->variant, r->host);
	return c->nrecords > 1 ? xasprintf("%s #%zu", r->variant, r->record + 1)
			       : xstrdup(r->variant);
}

void
compare_p_text(double p, char *buf, size_t len)
{
	if (p < 0.001)
		snprintf(buf, len, "< 0.001");
	else
		snprintf(buf, len, "= %.3f", p);
}

/* "p = 0.004, 0.030 after correcting for 24 comparisons; n = 5 and 5":
   with one comparison there is nothing to correct. */
static void
p_and_q(const struct compare *c, const struct compare_cell *x,
    const struct compare_cell *b, struct strbuf *out)
{
	char p[32], q[32];

	compare_p_text(x->ch.p, p, sizeof p);
	strbuf_printf(out, "p %s", p);
	if (c->family > 1 && isfinite(x->q)) {
		compare_p_text(x->q, q, sizeof q);
		/* "0.030", not "= 0.030", after the comma */
		strbuf_printf(out,
		    ngettext(", %s after correcting for %zu comparison",
			", %s after correcting for %zu comparisons",
			(unsigned long)c->family),
		    q[0] == '=' ? q + 2 : q, c->family);
	}
	strbuf_printf(out, _("; n = %zu and %zu"), x->n, b->n);
}

void
compare_change_words(const struct compare *c, size_t col, double pct,
    const char *base, struct strbuf *out)
{
	double a = fabs(pct);

	if (c->cols[col].unit == WL_UNIT_RATIO)
		strbuf_printf(out,
		    pct < 0 ? _("wrote %.1f%% less to its devices than %s")
			    : _("wrote %.1f%% more to its devices than %s"),
		    a, base);
	else if (c->cols[col].lower_better)
		strbuf_printf(out,
		    pct < 0 ? _("took %.1f%% less time than %s")
			    : _("took %.1f%% more time than %s"),
		    a, base);
	else
		strbuf_printf(out,
		    pct < 0 ? _("%.1f%% slower than %s")
			    : _("%.1f%% faster than %s"),
		    a, base);
}

/* "b: 27.1% faster than a by the log t-test (99.6% CI 22.9% to 31.3%;
   p ...)", the interval in magnitudes as the sentence reads. */
static void
answer_diff(const struct compare *c, size_t col, const struct compare_cell *x,
    const struct compare_cell *b, const char *base, struct strbuf *out)
{
	double pct = compare_change(x), a = fabs(pct);
	int sign = pct < 0 ? -1 : 1;
	char conf[16];

	compare_change_words(c, col, pct, base, out);
	strbuf_printf(out, _(" by %s ("), compare_test_words(x->ch.test));
	if (isfinite(x->ch.pct_lo) && isfinite(x->ch.pct_hi)) {
		double lo = sign * x->ch.pct_lo, hi = sign * x->ch.pct_hi;

		strbuf_printf(out, _("%s%% CI %.1f%% to %.1f%%; "),
		    compare_conf_text(c->conf_shown, conf, sizeof conf),
		    lo < hi ? lo : hi, lo < hi ? hi : lo);
	}
	p_and_q(c, x, b, out);
	strbuf_add(out, ")");
	if (a < c->margin)
		strbuf_printf(out, _(" (within the %s%g%% margin)"),
		    compare_pm(), c->margin);
}

static void
answer_same(const struct compare *c, const struct compare_cell *x,
    const struct compare_cell *b, const char *base, struct strbuf *out)
{
	strbuf_printf(out,
	    _("the same as %s within %s%g%% by %s (%+.1f%%, 90%% CI "
	      "%+.1f%% to %+.1f%%: both one-sided tests reject; "),
	    base, compare_pm(), c->margin, compare_test_words(x->ch.test),
	    compare_change(x), x->eq_lo, x->eq_hi);
	p_and_q(c, x, b, out);
	strbuf_add(out, ")");
}

static void
answer_unsure(const struct compare *c, const struct compare_cell *x,
    const struct compare_cell *b, const char *base, struct strbuf *out)
{
	size_t n = x->n > b->n ? x->n : b->n;
	char conf[16];

	strbuf_printf(out, _("can't tell against %s by %s"), base,
	    compare_test_words(x->ch.test));
	if (isfinite(x->ch.pct_lo) && isfinite(x->ch.pct_hi))
		strbuf_printf(out, _(": the %s%% CI spans %+.1f%% to %+.1f%%"),
		    compare_conf_text(c->conf_shown, conf, sizeof conf),
		    x->ch.pct_lo, x->ch.pct_hi);
	strbuf_printf(out, " (%+.1f%%; ", compare_change(x));
	p_and_q(c, x, b, out);
	strbuf_add(out, ")");
	if (x->settle > n)
		strbuf_printf(out,
		    ngettext("; about %zu more repeat each would settle it",
			"; about %zu more repeats each would settle it",
			(unsigned long)(x->settle - n)),
		    x->settle - n);
	else if (x->settle > 0)
		strbuf_add(out,
		    _("; as many repeats again would likely settle it"));
	else
		strbuf_printf(out,
		    _("; no practical number of repeats would settle it (the "
		      "change lies at the %s%g%% margin, or beyond 1000 "
		      "repeats)"),
		    compare_pm(), c->margin);
}

static void
answer_change(const struct compare *c, size_t col, const struct compare_cell *x,
    const struct compare_cell *b, const char *base, struct strbuf *out)
{
	if (x->verdict == COMPARE_V_SAME)
		answer_same(c, x, b, base, out);
	else if (x->verdict == COMPARE_V_UNSURE)
		answer_unsure(c, x, b, base, out);
	else
		answer_diff(c, col, x, b, base, out);
	if (isfinite(x->mde))
		strbuf_printf(out,
		    _("; the smallest change these repeats could show is "
		      "%.1f%% (%.0f%% power)"),
		    x->mde, COMPARE_POWER * 100);
}

static void
answer_few(const struct compare_cell *x, const struct compare_cell *b,
    const char *base, struct strbuf *out)
{
	/* The count of b is "of" base's: the plural follows x's. */
	strbuf_printf(out,
	    ngettext("%zu repeat against %zu of %s: noise cannot be told "
		     "from a difference",
		"%zu repeats against %zu of %s: noise cannot be told from "
		"a difference",
		(unsigned long)x->n),
	    x->n, b->n, base);
	if (x->needed > 0)
		strbuf_printf(out,
		    ngettext("; about %zu repeat each would tell a change "
			     "of %.1f%% from it",
			"; about %zu repeats each would tell a change of "
			"%.1f%% from it",
			(unsigned long)x->needed),
		    x->needed, fabs(x->pct));
	else
		strbuf_printf(out, "%s",
		    _("; at least 3 repeats each are needed"));
}

/* "; the verdict rests on an unstable sample: b: CV ...": the answer
   carries its own caveat wherever it is pasted (tests too short to
   trust count as unstable here). */
static void
answer_marks(const struct compare *c, size_t row, size_t col,
    struct strbuf *out)
{
	size_t sides[2] = { c->baseline, row };
	bool said = false;

	for (int s = 0; s < 2; s++) {
		const struct compare_cell *x = compare_cell(c, sides[s], col);
		char *m, *name;

		if ((x->marks & COMPARE_UNSTABLE) == 0)
			continue;
		m = compare_marks_text(c, sides[s], col);
		name = compare_row_label(c, sides[s]);
		strbuf_printf(out, "; %s%s: %s",
		    said ? "" : _("the verdict rests on an unstable sample: "),
		    name, m);
		said = true;
		free(m);
		free(name);
	}
}

static char *
answer(const struct compare *c, size_t row, size_t col, bool marks)
{
	const struct compare_cell *x = compare_cell(c, row, col), *b;
	char *name, *base;
	struct strbuf out;

	if (x->verdict == COMPARE_V_NONE || x->verdict == COMPARE_V_BASELINE)
		return NULL;
	b = compare_cell(c, c->baseline, col);
	name = compare_row_label(c, row);
	base = compare_row_label(c, c->baseline);
	strbuf_init(&out);
	strbuf_printf(&out, "%s: ", name);
	switch (x->verdict) {
	case COMPARE_V_STOPPED:
		strbuf_printf(&out,
		    _("no verdict against %s: a side has only "
		      "figures of stopped runs"),
		    base);
		break;
	case COMPARE_V_FAST:
		strbuf_printf(&out,
		    _("no verdict against %s: a side was too "
		      "fast to measure (+++++)"),
		    base);
		break;
	case COMPARE_V_FEW:
		answer_few(x, b, base, &out);
		break;
	case COMPARE_V_EXACT:
		strbuf_printf(&out,
		    _("%+.1f%% against %s, but each side repeats one figure "
		      "exactly (n = %zu and %zu): that is the figures' "
		      "resolution, not certainty, and no interval can be "
		      "given"),
		    x->pct, base, x->n, b->n);
		break;
	default:
		answer_change(c, col, x, b, base, &out);
		break;
	}
	if (marks)
		answer_marks(c, row, col, &out);
	free(name);
	free(base);
	return strbuf_take(&out);
}

char *
compare_answer(const struct compare *c, size_t row, size_t col)
{
	return answer(c, row, col, true);
}

char *
compare_answer_bare(const struct compare *c, size_t row, size_t col)
{
	return answer(c, row, col, false);
}

char *
compare_marks_keys(unsigned marks)
{
	static const struct {
		unsigned bit;
		const char *key;
	} keys[] = {
		{ COMPARE_MARK_CV, "cv" },
		{ COMPARE_MARK_TREND, "trend" },
		{ COMPARE_MARK_OUTLIER, "outlier" },
		{ COMPARE_MARK_WARMUP, "warm-up" },
		{ COMPARE_MARK_SHORT, "short" },
		{ COMPARE_MARK_STOPPED, "stopped" },
		{ COMPARE_MARK_STALLED, "stalled" },
		{ COMPARE_MARK_FEWLAT, "few-samples" },
	};
	struct strbuf out;

	strbuf_init(&out);
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
		if (marks & keys[i].bit)
			strbuf_printf(&out, "%s%s", out.len ? " " : "",
			    keys[i].key);
	return strbuf_take(&out);
}

static void
outliers_text(const struct compare_cell *x, enum wl_unit u, struct strbuf *out)
{
	char v[COMPARE_NUM_BUF], m[COMPARE_NUM_BUF];
	size_t n = 0;

	for (size_t i = 0; i < x->n; i++)
		n += x->outlier[i];
	strbuf_printf(out, ngettext("%zu outlier (", "%zu outliers (", n), n);
	for (size_t i = 0, said = 0; i < x->n; i++)
		if (x->outlier[i])
			strbuf_printf(out, "%s%s", said++ ? ", " : "",
			    compare_format_value(x->v[i], u, v, sizeof v));
	strbuf_printf(out, _(" against a median of %s)"),
	    compare_format_value(x->d.median, u, m, sizeof m));
}

char *
compare_marks_text(const struct compare *c, size_t row, size_t col)
{
	const struct compare_cell *x = compare_cell(c, row, col);
	enum wl_unit u = c->cols[col].unit;
	char v[COMPARE_NUM_BUF];
	struct strbuf out;

	strbuf_init(&out);
	if (x->marks & COMPARE_MARK_CV)
		strbuf_printf(&out, _("CV %.1f%% over the %g%% limit"),
		    x->d.cv * 100, c->rows[row].cv_limit * 100);
	if (x->marks & COMPARE_MARK_TREND)
		strbuf_printf(&out,
		    x->tau < 0 ? _("%sfalls across the repeats "
				   "(Mann-Kendall tau %.2f, p = %.2f)")
			       : _("%srises across the repeats "
				   "(Mann-Kendall tau %.2f, p = %.2f)"),
		    out.len ? "; " : "", x->tau, x->trend_p);
	if (x->marks & COMPARE_MARK_OUTLIER) {
		if (out.len)
			strbuf_add(&out, "; ");
		outliers_text(x, u, &out);
	}
	if (x->marks & COMPARE_MARK_WARMUP)
		strbuf_printf(&out,
		    _("%sthe first repeat (%s) is far from the rest: a "
		      "warm-up?"),
		    out.len ? "; " : "",
		    compare_format_value(x->v[0], u, v, sizeof v));
	if (x->marks & COMPARE_MARK_SHORT)
		strbuf_printf(&out,
		    _("%sthe tests lasted %.2g s: too short to trust"),
		    out.len ? "; " : "", x->wall);
	if (x->marks & COMPARE_MARK_STOPPED)
		strbuf_printf(&out, "%s%s", out.len ? "; " : "",
		    _("only stopped runs had a figure: shown, never judged"));
	if (x->marks & COMPARE_MARK_STALLED)
		strbuf_printf(&out,
		    ngettext("%s%zu repeat stalled for up to %.1f s (raidlab "
			     "was stopped, or the machine suspended, while "
			     "it was timed)%s",
			"%s%zu repeats stalled for up to %.1f s (raidlab "
			"was stopped, or the machine suspended, while it "
			"was timed)%s",
			x->stalled),
		    out.len ? "; " : "", x->stalled, x->stalled_s,
		    x->interrupted ? "" : _(": left out"));
	if (x->marks & COMPARE_MARK_FEWLAT)
		strbuf_printf(&out,
		    _("%s%s rests on %llu operations in a round: it needs "
		      "%llu (%d beyond it), so it is not judged"),
		    out.len ? "; " : "", compare_lat_name(c->cols[col].lat_q),
		    (unsigned long long)x->lat_ops,
		    (unsigned long long)compare_lat_need(c->cols[col].lat_q),
		    COMPARE_LAT_BEYOND);
	return strbuf_take(&out);
}
