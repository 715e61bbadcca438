/*
 * Welch's t-test on the logarithms of the figures, the choice among the
 * three tests (by key and by call), and equivalence by two one-sided
 * tests. See stats.h. Pure functions of their arguments, callable from any
 * thread.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "stats-int.h"
#include "stats.h"

static const char *const test_keys[STATS_TEST__COUNT] = {
	[STATS_TEST_LOG] = "log",
	[STATS_TEST_WELCH] = "welch",
	[STATS_TEST_RANK] = "rank",
};

const char *
stats_test_key(enum stats_test t)
{
	if ((unsigned)t >= STATS_TEST__COUNT)
		return NULL;
	return test_keys[t];
}

int
stats_test_parse(const char *key, enum stats_test *t)
{
	for (int i = 0; i < STATS_TEST__COUNT; i++)
		if (key != NULL && strcmp(key, test_keys[i]) == 0) {
			*t = (enum stats_test)i;
			return 0;
		}
	return -1;
}

/* The logs of v[0..n) in a new array; NULL when a figure is not finite
   and above 0. */
static double *
logs_of(const double *v, size_t n)
{
	double *l = xmalloc((n > 0 ? n : 1) * sizeof *l);

	for (size_t i = 0; i < n; i++) {
		if (!(v[i] > 0) || !isfinite(v[i])) {
			free(l);
			return NULL;
		}
		l[i] = log(v[i]);
	}
	return l;
}

/*
 * The interval is Welch's on the logs, exponentiated: it excludes 0%
 * (a log-ratio of 0) exactly when |t| > t(conf, df), i.e. p < 1 - conf;
 * as in stats_compare() the kind is decided by p.
 */
void
stats_log_compare(const double *a, size_t na, const double *b, size_t nb,
    double conf, struct stats_change *c)
{
	double *la, *lb, ma, va, mb, vb;

	c->kind = STATS_TOO_FEW;
	c->test = STATS_TEST_LOG;
	c->diff = c->t = c->df = c->p = c->pct = c->se = NAN;
	c->pct_lo = c->pct_hi = NAN;
	if (na == 0 || nb == 0)
		return;
	la = logs_of(a, na);
	lb = logs_of(b, nb);
	if (la == NULL || lb == NULL)
		goto out;
	stats_mean_var(la, na, &ma, &va);
	stats_mean_var(lb, nb, &mb, &vb);
	c->diff = mb - ma;
	c->pct = expm1(c->diff) * 100;
	if (na < 2 || nb < 2)
		goto out;
	stats_welch(ma, va, na, mb, vb, nb, conf, c);
	if (c->se == 0) {
		c->pct_lo = c->pct_hi = c->pct;
	} else {
		double h = stats_t_crit(conf, c->df) * c->se;

		c->pct_lo = expm1(c->diff - h) * 100;
		c->pct_hi = expm1(c->diff + h) * 100;
	}
out:
	free(la);
	free(lb);
}

void
stats_compare_by(enum stats_test t, const double *a, size_t na, const double *b,
    size_t nb, double conf, struct stats_change *c)
{
	switch (t) {
	case STATS_TEST_WELCH:
		stats_compare(a, na, b, nb, conf, c);
		break;
	case STATS_TEST_RANK:
		stats_rank_compare(a, na, b, nb, conf, c);
		break;
	case STATS_TEST_LOG:
	default:
		stats_log_compare(a, na, b, nb, conf, c);
		break;
	}
}

/*
 * Each one-sided test at alpha rejects exactly when its bound of the
 * (1 - 2 alpha) two-sided interval lies past the margin, so both reject
 * when the whole interval lies strictly inside -margin..+margin.
 */
bool
stats_equivalent(enum stats_test t, const double *a, size_t na, const double *b,
    size_t nb, double alpha, double margin, double *lo, double *hi)
{
	struct stats_change c;

	*lo = *hi = NAN;
	if (!(alpha > 0 && alpha < 0.5) || !(margin >= 0))
		return false;
	stats_compare_by(t, a, na, b, nb, 1 - 2 * alpha, &c);
	*lo = c.pct_lo;
	*hi = c.pct_hi;
	return c.pct_lo > -margin && c.pct_hi < margin;
}
