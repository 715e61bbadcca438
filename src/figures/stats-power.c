/*
 * Power, stated: the smallest change a comparison could show, and the
 * repeats that would settle a change as measured. See stats.h. Pure
 * functions of their arguments, callable from any thread.
 *
 * The log and rank tests work on ln(figure): a sample with coefficient of
 * variation cv has, were it lognormal, a log variance of ln(1 + cv^2), and
 * a change of pct percent is a shift of ln(1 + pct / 100). The rank test
 * needs pi / 3 times the repeats of the log test for the same power (its
 * asymptotic relative efficiency against the t-test under normal errors
 * is 3 / pi), so its standard error is taken as sqrt(pi / 3) times the
 * log test's. Welch's test works on the figures in units of the
 * baseline's mean: a change of pct / 100, the baseline's variance cva^2
 * and the variant's (1 + pct / 100)^2 cvb^2, its spread growing with its
 * mean as a multiplicative noise's does. So Welch's t cannot pass
 * sqrt(nb) / cvb however large a rise: with 3 repeats and a CV of 1 no
 * rise is ever shown, where the log test has no such ceiling.
 */
#include "config.h"

#include <math.h>

#include "stats-int.h"
#include "stats.h"

/* The squared standard errors of the two means for na and nb repeats, on
   the test's scale, before any change. */
static void
spread_of(enum stats_test t, double cva, double cvb, double na, double nb,
    double *A, double *B)
{
	if (t == STATS_TEST_WELCH) {
		*A = cva * cva / na;
		*B = cvb * cvb / nb;
	} else {
		*A = log1p(cva * cva) / na;
		*B = log1p(cvb * cvb) / nb;
	}
}

/*
 * The standard error of a change x (on the test's scale) and its
 * Welch-Satterthwaite df, for na and nb repeats; s is 0 (df NAN) when
 * both CVs are 0. Welch's variant spreads with its mean: B (1 + x)^2.
 */
static void
change_se(enum stats_test t, double cva, double cvb, double na, double nb,
    double x, double *s, double *df)
{
	double A, B;

	spread_of(t, cva, cvb, na, nb, &A, &B);
	if (t == STATS_TEST_WELCH)
		B *= (1 + x) * (1 + x);
	*s = sqrt(A + B);
	*df = (A + B) * (A + B) / (A * A / (na - 1) + B * B / (nb - 1));
	if (t == STATS_TEST_RANK)
		*s *= sqrt(M_PI / 3);
}

/* A change of pct percent on the test's scale (-INFINITY at -100% and
   below for the log and rank tests). */
static double
change_of(enum stats_test t, double pct)
{
	if (t == STATS_TEST_WELCH)
		return pct / 100;
	return pct <= -100 ? -INFINITY : log1p(pct / 100);
}

/* t(conf, df) + t(power, df): how many standard errors a change needs. */
static double
needed_k(double conf, double power, double df)
{
	return stats_t_crit(conf, df) + stats_t_quantile(power, df);
}

/*
 * Welch's smallest rise x with x = k sqrt(A + (1 + x)^2 B): for a fixed k
 * the positive root of (1 - k^2 B) x^2 - 2 k^2 B x - k^2 (A + B) = 0,
 * none when k^2 B >= 1; k itself moves with x through df, so the root is
 * taken again at the df of the last one until it settles.
 */
static double
welch_mde(double cva, double cvb, double na, double nb, double conf,
    double power)
{
	double A, B, x = 0;

	spread_of(STATS_TEST_WELCH, cva, cvb, na, nb, &A, &B);
	for (int i = 0; i < 100; i++) {
		double s, df, k, k2, g, next;

		change_se(STATS_TEST_WELCH, cva, cvb, na, nb, x, &s, &df);
		k = needed_k(conf, power, df);
		k2 = k * k;
		g = 1 - k2 * B;
		if (!(g > 0))
			return INFINITY;
		next = (k2 * B + sqrt(k2 * k2 * B * B + g * k2 * (A + B))) / g;
		if (fabs(next - x) <= 1e-13 * next)
			return next;
		x = next;
	}
	return x;
}

double
stats_mde(enum stats_test t, double cva, double cvb, size_t na, size_t nb,
    double conf, double power)
{
	double s, df;

	if (isnan(cva) || isnan(cvb) || na < 2 || nb < 2)
		return NAN;
	change_se(t, cva, cvb, (double)na, (double)nb, 0, &s, &df);
	if (s == 0)
		return 0;
	if (t == STATS_TEST_WELCH)
		return welch_mde(cva, cvb, (double)na, (double)nb, conf,
			   power) *
		    100;
	return expm1(needed_k(conf, power, df) * s) * 100;
}

/* The settling question for one n (repeats a side). */
struct settle {
	enum stats_test t;
	double cva, cvb, conf, power;
	bool tost; /* show it inside lo..hi, else tell it from 0 */
	double d, lo, hi; /* the change and the margins, test's scale */
};

/*
 * Telling the change from 0 with probability power: |d| / s >= t(conf,
 * df) + t(power, df) (the far tail neglected), as stats_mde(). Showing
 * it inside the margins: both one-sided tests at 1 - conf reject, with
 * probability P(T < (hi - d)/s - t1) + P(T < (d - lo)/s - t1) - 1, t1
 * the one-sided quantile at conf.
 */
static bool
settles(const struct settle *q, size_t n)
{
	double s, df, t1;

	change_se(q->t, q->cva, q->cvb, (double)n, (double)n, q->d, &s, &df);
	if (s == 0)
		return q->tost ? q->d > q->lo && q->d < q->hi : q->d != 0;
	if (!q->tost)
		return needed_k(q->conf, q->power, df) <= fabs(q->d) / s;
	t1 = stats_t_quantile(q->conf, df);
	return stats_t_cdf((q->hi - q->d) / s - t1, df) +
	    stats_t_cdf((q->d - q->lo) / s - t1, df) - 1 >=
	    q->power;
}

/* Both conditions only get easier as n grows (s falls, the quantiles fall
   with df), so the smallest n that settles is found by bisection. */
size_t
stats_n_settle(enum stats_test t, double cva, double cvb, double pct,
    double margin, double conf, double power, size_t max)
{
	struct settle q = { t, cva, cvb, conf, power, false, 0, 0, 0 };
	size_t lo = 3, hi = max;

	if (isnan(cva) || isnan(cvb) || isnan(pct) || isnan(margin) ||
	    isnan(conf) || isnan(power) || max < 3 || fabs(pct) == margin)
		return 0;
	q.tost = fabs(pct) < margin;
	q.d = change_of(t, pct);
	q.lo = change_of(t, -margin);
	q.hi = change_of(t, margin);
	if (settles(&q, lo))
		return lo;
	if (!settles(&q, hi))
		return 0;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (settles(&q, mid))
			hi = mid;
		else
			lo = mid;
	}
	return hi;
}
