/*
 * The verdicts as one family: every cell judged against the baseline, over
 * all the comparison's columns and rows, is corrected together
 * (Benjamini-Hochberg), so that a lab of identical variants rarely shows
 * a difference anywhere; then each cell gets its final answer (better or
 * worse, the same within the margin by TOST, or can't tell with what
 * would settle it) and the power of its repeats. Also the one-line
 * summary of a variant over every test, and how the verdicts were
 * reached. See compare.h. The thread that owns the table.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/i18n.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "compare-int.h"
#include "compare.h"
#include "figures/stats.h"

/* The most repeats an answer suggests: past it, "no practical number". */
#define SETTLE_MAX 1000

void
compare_set_method(struct compare *c, enum stats_test t, double margin)
{
	c->test = t;
	c->margin = margin;
	c->method_chosen = true;
	compare_judge(c);
}

double
compare_family_level(const struct compare *c)
{
	/* With no family (no baseline, or nothing judged against it) a star
	   still claims one best per column: Bonferroni over the columns. */
	if (c->family == 0)
		return COMPARE_ALPHA / (double)(c->ncols > 0 ? c->ncols : 1);
	return (double)(c->rejected > 0 ? c->rejected : 1) * COMPARE_ALPHA /
	    (double)c->family;
}

/* The final answer of a judged cell x against b, its q known. */
static void
settle_cell(const struct compare *c, struct compare_cell *x,
    const struct compare_cell *b, bool lower_better)
{
	enum stats_test t = (enum stats_test)x->ch.test;
	double p = x->ch.p;
	bool same;

	/* The interval at the level that the correction left: it excludes
	   0% exactly where q < 5% (the p-value does not change). */
	stats_compare_by(t, b->v, b->n, x->v, x->n, c->conf_shown, &x->ch);
	x->ch.test = (int)t;
	x->ch.p = p;
	x->mde = stats_mde(t, b->d.cv, x->d.cv, b->n, x->n, STATS_CONF,
	    COMPARE_POWER);
	same = stats_equivalent(t, b->v, b->n, x->v, x->n, 1 - STATS_CONF,
	    c->margin, &x->eq_lo, &x->eq_hi);
	x->settle = 0;
	if (x->q < COMPARE_ALPHA) {
		x->verdict = (x->ch.diff < 0) == lower_better ? COMPARE_V_BETTER
							      : COMPARE_V_WORSE;
	} else if (same) {
		x->verdict = COMPARE_V_SAME;
	} else {
		double pct = compare_change(x);

		x->verdict = COMPARE_V_UNSURE;
		/* A difference must clear the corrected level to be told;
		   sameness is TOST at 5% a side, as judged above. */
		x->settle = stats_n_settle(t, b->d.cv, x->d.cv, pct, c->margin,
		    fabs(pct) >= c->margin ? c->conf_shown : STATS_CONF,
		    COMPARE_POWER, SETTLE_MAX);
	}
}

void
compare_family_judge(struct compare *c)
{
	size_t n = c->nrows * c->ncols, r = 0;
	double *p = xcalloc(n + 1, sizeof *p), *q = xcalloc(n + 1, sizeof *q);

	for (size_t i = 0; i < c->nrows; i++)
		for (size_t k = 0; k < c->ncols; k++) {
			const struct compare_cell *x = compare_cell(c, i, k);

			p[i * c->ncols + k] = compare_judged(x) ? x->ch.p : NAN;
		}
	c->family = n > 0 ? stats_bh(p, n, q) : 0;
	for (size_t j = 0; j < n; j++)
		r += !isnan(p[j]) && q[j] < COMPARE_ALPHA;
	c->rejected = r;
	c->conf_shown = c->family > 0
	    ? stats_fcr_conf(c->family, r, COMPARE_ALPHA)
	    : STATS_CONF;
	for (size_t i = 0; i < c->nrows; i++)
		for (size_t k = 0; k < c->ncols; k++) {
			struct compare_cell *x = &c->rows[i].cells[k];

			if (!compare_judged(x))
				continue;
			x->q = q[i * c->ncols + k];
			settle_cell(c, x, compare_cell(c, c->baseline, k),
			    c->cols[k].lower_better);
		}
	free(p);
	free(q);
}

/* ---------------------------------------------------------------- summary */

/*
 * The cell's change as a log-ratio turned so that above 0 is better, its
 * standard error and degrees of freedom: the log test's own, the rank
 * test's (its df taken as na + nb - 2: Mann-Whitney has none), and for
 * Welch's test the delta method, ln(mean ratio) with se sqrt(cva^2/na +
 * cvb^2/nb). False when there is none (an exact tie has se 0: nothing
 * to weigh).
 */
static bool
log_ratio(const struct compare_cell *x, const struct compare_cell *b,
    bool lower_better, double *lr, double *se, double *df)
{
	switch (x->ch.test) {
	case STATS_TEST_LOG:
		*lr = x->ch.diff;
		*se = x->ch.se;
		*df = x->ch.df;
		break;
	case STATS_TEST_RANK:
		*lr = x->ch.diff;
		*se = x->ch.se;
		*df = (double)(x->n + b->n) - 2;
		break;
	default:
		if (!(x->mean > 0) || !(b->mean > 0))
			return false;
		*lr = log(x->mean / b->mean);
		*se = sqrt(x->d.cv * x->d.cv / (double)x->n +
		    b->d.cv * b->d.cv / (double)b->n);
		*df = x->ch.df;
		break;
	}
	if (lower_better)
		*lr = -*lr;
	return isfinite(*lr) && isfinite(*se) && *se > 0 && isfinite(*df) &&
	    *df > 0;
}

void
compare_summarise(const struct compare *c, size_t row,
    struct compare_summary *s)
{
	double *lr, *se, *df;

	memset(s, 0, sizeof *s);
	s->gm = s->gm_lo = s->gm_hi = NAN;
	if (c->baseline == COMPARE_NONE || row == c->baseline ||
	    row >= c->nrows)
		return;
	lr = xcalloc(c->ncols + 1, sizeof *lr);
	se = xcalloc(c->ncols + 1, sizeof *se);
	df = xcalloc(c->ncols + 1, sizeof *df);
	for (size_t k = 0; k < c->ncols; k++) {
		const struct compare_cell *x = compare_cell(c, row, k);
		size_t *count = &s->other;

		/* the overall answer is about the workloads' speed: bytes
		   written and a rebuild's time are answered in their own
		   columns */
		if (c->cols[k].unit == WL_UNIT_RATIO ||
		    compare_col_is_phase(c, k))
			continue;
		if (x->verdict == COMPARE_V_NONE ||
		    x->verdict == COMPARE_V_BASELINE)
			continue;
		s->tests++;
		if (x->verdict == COMPARE_V_BETTER)
			count = &s->better;
		else if (x->verdict == COMPARE_V_WORSE)
			count = &s->worse;
		else if (x->verdict == COMPARE_V_SAME)
			count = &s->same;
		else if (x->verdict == COMPARE_V_UNSURE)
			count = &s->unsure;
		(*count)++;
		if (compare_judged(x) &&
		    log_ratio(x, compare_cell(c, c->baseline, k),
			c->cols[k].lower_better, &lr[s->gm_tests],
			&se[s->gm_tests], &df[s->gm_tests]))
			s->gm_tests++;
	}
	if (s->gm_tests > 0)
		stats_geomean_ratio(lr, se, df, s->gm_tests, STATS_CONF, &s->gm,
		    &s->gm_lo, &s->gm_hi);
	free(lr);
	free(se);
	free(df);
}

/* ": 2 worse, 7 the same, 3 can't tell, 1 not judged" (those > 0). */
static void
counts_text(const struct compare_summary *s, struct strbuf *out)
{
	const struct {
		size_t n;
		const char *what;
	} parts[] = {
		{ s->better, N_("better") },
		{ s->worse, N_("worse") },
		{ s->same, N_("the same") },
		{ s->unsure, N_("can't tell") },
		{ s->other, N_("not judged") },
	};
	bool first = true;

	for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
		if (parts[i].n == 0)
			continue;
		strbuf_printf(out, "%s%zu %s", first ? ": " : ", ", parts[i].n,
		    _(parts[i].what));
		first = false;
	}
}

char *
compare_summary_text(const struct compare *c, size_t row)
{
	struct compare_summary s;
	struct strbuf out;
	char *name, *base;
	double pct;

	compare_summarise(c, row, &s);
	if (s.tests == 0)
		return NULL;
	name = compare_row_label(c, row);
	base = compare_row_label(c, c->baseline);
	strbuf_init(&out);
	if (isfinite(s.gm)) {
		pct = (s.gm - 1) * 100;
		strbuf_printf(&out,
		    pct < 0 ? _("%s: %.1f%% slower than %s overall")
			    : _("%s: %.1f%% faster than %s overall"),
		    name, fabs(pct), base);
		strbuf_printf(&out,
		    ngettext(" (geometric mean of %zu test",
			" (geometric mean of %zu tests", s.gm_tests),
		    s.gm_tests);
		if (isfinite(s.gm_lo) && isfinite(s.gm_hi))
			strbuf_printf(&out, _(", 95%% CI %+.1f%% to %+.1f%%"),
			    (s.gm_lo - 1) * 100, (s.gm_hi - 1) * 100);
		strbuf_add(&out, ")");
	} else {
		strbuf_printf(&out, _("%s against %s"), name, base);
	}
	counts_text(&s, &out);
	free(name);
	free(base);
	return strbuf_take(&out);
}

char *
compare_method_text(const struct compare *c)
{
	static const char *const how[] = {
		[STATS_TEST_LOG] =
		    N_("the log test (Welch's t-test on logarithms)"),
		[STATS_TEST_WELCH] =
		    N_("Welch's t-test on the figures (Fieller's interval)"),
		[STATS_TEST_RANK] = N_("the rank test (Mann-Whitney U, "
				       "Hodges-Lehmann shift)"),
	};
	struct strbuf out;
	char conf[16];

	strbuf_init(&out);
	strbuf_printf(&out, _("%s; same = within %s%g%% (TOST); "),
	    _(how[c->test < STATS_TEST__COUNT ? c->test : STATS_TEST_LOG]),
	    compare_pm(), c->margin);
	compare_conf_text(c->conf_shown, conf, sizeof conf);
	if (c->family > 1)
		strbuf_printf(&out,
		    _("%zu comparisons, Benjamini-Hochberg at %g%%, intervals "
		      "at %s%%"),
		    c->family, COMPARE_ALPHA * 100, conf);
	else
		strbuf_printf(&out,
		    ngettext("%zu comparison, intervals at %s%%",
			"%zu comparisons, intervals at %s%%", c->family),
		    c->family, conf);
	return strbuf_take(&out);
}
