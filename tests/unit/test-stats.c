/*
 * The statistics of the verdicts against published and independently
 * computed figures: Student's t quantiles from the tables (R's qt), Welch's
 * test on R's own sleep example, a second Welch and Fieller case from
 * tests/unit/stats-ref.py, Mann-Kendall's exact p-values by hand, the
 * median/MAD outliers and the warm-up rule.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>

#include "figures/stats.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* |got - want| <= tol, with both values in the failure message. */
#define assert_near(got, want, tol)                                            \
	do {                                                                   \
		double g_ = (got), w_ = (want);                                \
		cr_assert(fabs(g_ - w_) <= (tol),                              \
		    "%s = %.17g, want %.17g +- %g", #got, g_, w_,              \
		    (double)(tol));                                            \
	} while (0)

/* ---------------------------------------------------------------- t */

/* R: qt(0.975, df) and qt(0.995, 5), as printed to 8 figures (they agree
   with the tables of any statistics text). */
Test(stats, t_quantiles_match_the_tables)
{
	static const struct {
		double p, df, t;
	} tab[] = {
		{ 0.975, 1, 12.7062047 },
		{ 0.975, 2, 4.3026527 },
		{ 0.975, 3, 3.1824463 },
		{ 0.975, 4, 2.7764451 },
		{ 0.975, 5, 2.5705818 },
		{ 0.975, 9, 2.2621572 },
		{ 0.975, 10, 2.2281389 },
		{ 0.975, 30, 2.0422725 },
		{ 0.975, 100, 1.9839715 },
		{ 0.995, 5, 4.0321430 },
	};

	for (size_t i = 0; i < N(tab); i++) {
		assert_near(stats_t_quantile(tab[i].p, tab[i].df), tab[i].t,
		    6e-8);
		assert_near(stats_t_quantile(1 - tab[i].p, tab[i].df),
		    -tab[i].t, 6e-8);
	}
}

/* The normal's 0.975 quantile, qnorm(0.975) = 1.959964 (1.95996398454);
   at df = 1e6 the t's is 1.9599663568 by the Cornish-Fisher expansion z +
   (z^3 + z) / 4df + (5z^5 + 16z^3 + 3z) / 96df^2. */
Test(stats, t_approaches_the_normal_for_large_df)
{
	assert_near(stats_t_quantile(0.975, 1e6), 1.9599663568, 1e-9);
	assert_near(stats_t_quantile(0.975, 1e9), 1.959964, 1e-6);
	assert_near(stats_t_quantile(0.975, 1e15), 1.95996398454, 1e-10);
	assert_near(stats_t_cdf(1.95996398454, 1e15), 0.975, 1e-11);
}

Test(stats, t_median_is_zero)
{
	static const double dfs[] = { 0.5, 1, 2.5, 17.776, 1e3, 1e6, 1e12 };

	for (size_t i = 0; i < N(dfs); i++) {
		cr_assert_eq(stats_t_quantile(0.5, dfs[i]), 0);
		cr_assert_eq(stats_t_cdf(0, dfs[i]), 0.5);
	}
}

Test(stats, t_cdf_is_symmetric)
{
	static const double dfs[] = { 0.5, 1, 3, 17.776, 1e4, 1e6 };
	static const double ts[] = { 1e-6, 0.3, 1, 2.5, 7, 40, 1e5 };

	for (size_t i = 0; i < N(dfs); i++)
		for (size_t j = 0; j < N(ts); j++) {
			double lo = stats_t_cdf(-ts[j], dfs[i]);
			double hi = stats_t_cdf(ts[j], dfs[i]);

			assert_near(lo + hi, 1, 1e-15);
			cr_assert(lo < 0.5 && hi > 0.5);
		}
}

/* The quantile inverts the CDF to 1e-10 of the smaller tail. */
Test(stats, t_quantile_round_trips_the_cdf)
{
	static const double dfs[] = { 0.5, 1, 2.5, 10, 17.776, 1e3, 1e6 };
	static const double ps[] = { 1e-12, 1e-6, 1e-3, 0.025, 0.2, 0.5, 0.7,
		0.975, 0.999, 0.999999 };

	for (size_t i = 0; i < N(dfs); i++)
		for (size_t j = 0; j < N(ps); j++) {
			double p = ps[j], t = stats_t_quantile(p, dfs[i]);

			assert_near(stats_t_cdf(t, dfs[i]), p,
			    1e-10 * fmin(p, 1 - p) + 1e-16);
		}
}

/* Values of the Cauchy distribution (df 1), whose CDF is 1/2 + atan(t)/pi,
   and of df 2, whose CDF is 1/2 + t / (2 sqrt(2 + t^2)): closed forms,
   written for t < 0 as atan(1/|t|)/pi and 1 / (s (s + |t|)), s = sqrt(2 +
   t^2), so that the lower tails keep their digits. */
Test(stats, t_cdf_matches_closed_forms)
{
	static const double ts[] = { -1e4, -30, -3, -1, -0.1 };

	for (size_t j = 0; j < N(ts); j++) {
		double t = ts[j], s = sqrt(2 + t * t);
		double c1 = atan(1 / fabs(t)) / M_PI;
		double c2 = 1 / (s * (s + fabs(t)));

		assert_near(stats_t_cdf(t, 1), c1, 1e-10 * c1);
		assert_near(stats_t_cdf(-t, 1), 1 - c1, 1e-10 * c1);
		assert_near(stats_t_cdf(t, 2), c2, 1e-10 * c2);
		assert_near(stats_t_cdf(-t, 2), 1 - c2, 1e-10 * c2);
	}
	cr_assert(isnan(stats_t_cdf(1, 0)));
	cr_assert(isnan(stats_t_quantile(0, 5)));
	cr_assert(isnan(stats_t_quantile(1, 5)));
}

/* ---------------------------------------------------------------- one */

/* R's sleep data (datasets::sleep), group 1. R: mean 0.75, sd 1.789010,
   median 0.35, t.test(extra[group == 1]) 95% CI -0.5297804 2.0297804. */
static const double sleep1[] = { 0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8,
	0.0, 2.0 };
/* Group 2. */
static const double sleep2[] = { 1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6,
	3.4 };

Test(stats, describe_matches_r_on_sleep)
{
	struct stats_desc d;

	stats_describe(sleep1, N(sleep1), STATS_CONF, &d);
	cr_assert_eq(d.n, 10);
	assert_near(d.mean, 0.75, 1e-12);
	assert_near(d.sd, 1.789010, 1e-6);
	assert_near(d.cv, 1.789010 / 0.75, 1e-6);
	assert_near(d.median, 0.35, 1e-12);
	assert_near(d.min, -1.6, 0);
	assert_near(d.max, 3.7, 0);
	assert_near(d.ci_lo, -0.5297804, 1e-7);
	assert_near(d.ci_hi, 2.0297804, 1e-7);
	assert_near(d.ci_half, 2.0297804 - 0.75, 1e-7);
}

Test(stats, describe_odd_median_and_small_samples)
{
	static const double v[] = { 3, 1, 2 };
	static const double one[] = { 42 };
	struct stats_desc d;

	stats_describe(v, N(v), STATS_CONF, &d);
	cr_assert_eq(d.median, 2);
	cr_assert_eq(d.sd, 1);

	stats_describe(one, 1, STATS_CONF, &d);
	cr_assert_eq(d.n, 1);
	cr_assert_eq(d.mean, 42);
	cr_assert_eq(d.sd, 0);
	cr_assert_eq(d.median, 42);
	cr_assert_eq(d.min, 42);
	cr_assert_eq(d.max, 42);
	cr_assert(isnan(d.cv) && isnan(d.ci_lo) && isnan(d.ci_hi) &&
	    isnan(d.ci_half));

	stats_describe(NULL, 0, STATS_CONF, &d);
	cr_assert_eq(d.n, 0);
	cr_assert(isnan(d.mean) && isnan(d.sd) && isnan(d.cv) &&
	    isnan(d.median) && isnan(d.min) && isnan(d.max) && isnan(d.ci_lo) &&
	    isnan(d.ci_hi) && isnan(d.ci_half));
}

/* Equal values have sd exactly 0 even when their sum rounds (3 x 0.1). */
Test(stats, describe_equal_values_have_no_spread)
{
	static const double v[] = { 0.1, 0.1, 0.1 };
	struct stats_desc d;

	stats_describe(v, N(v), STATS_CONF, &d);
	cr_assert_eq(d.mean, 0.1);
	cr_assert_eq(d.sd, 0);
	cr_assert_eq(d.cv, 0);
	cr_assert_eq(d.ci_half, 0);
	cr_assert_eq(d.ci_lo, 0.1);
}

/* 1, 10, 100: logs ln 10 x {0, 1, 2}, mean and sd ln 10, so the interval
   is 10^(1 -/+ t/sqrt(3)) with t = qt(0.975, 2) = 4.3026527 (R): above 0
   where the interval of the mean (37 -/+ 134) is not. */
Test(stats, log_interval_is_the_geometric_means_and_above_0)
{
	static const double v[] = { 1, 10, 100 };
	static const double zero[] = { 5, 0, 7 };
	struct stats_desc d;
	double lo, hi;

	stats_describe(v, N(v), STATS_CONF, &d);
	cr_assert(d.ci_lo < 0);
	stats_log_interval(v, N(v), STATS_CONF, &lo, &hi);
	assert_near(lo, 0.032799128, 1e-8);
	assert_near(hi, 3048.8615, 1e-3);
	stats_log_interval(v, 1, STATS_CONF, &lo, &hi);
	cr_assert(isnan(lo) && isnan(hi));
	stats_log_interval(zero, N(zero), STATS_CONF, &lo, &hi);
	cr_assert(isnan(lo) && isnan(hi));
}

/* ---------------------------------------------------------------- two */

/* R's documented example, t.test(extra ~ group, data = sleep), Welch by
   default: t = -1.8608, df = 17.776, p-value = 0.07939, 95% CI of mean 1
   - mean 2: -3.3654832 0.2054832, means 0.75 and 2.33. With group 2 as
   the baseline a, b - a is R's x - y. */
Test(stats, welch_matches_r_on_sleep)
{
	struct stats_change c;
	double half;

	stats_compare(sleep2, N(sleep2), sleep1, N(sleep1), STATS_CONF, &c);
	cr_assert_eq(c.kind, STATS_NO_DIFFERENCE);
	assert_near(c.diff, 0.75 - 2.33, 1e-12);
	assert_near(c.t, -1.8608, 5e-5);
	assert_near(c.df, 17.776, 5e-4);
	assert_near(c.p, 0.07939, 5e-6);
	half = stats_t_quantile(0.975, c.df) * fabs(c.diff / c.t);
	assert_near(c.diff - half, -3.3654832, 1e-7);
	assert_near(c.diff + half, 0.2054832, 1e-7);
	assert_near(c.pct, (0.75 / 2.33 - 1) * 100, 1e-9);
	/* Not different: Fieller's interval holds 0%. */
	cr_assert(c.pct_lo < 0 && c.pct_hi > 0, "%g %g", c.pct_lo, c.pct_hi);

	/* The other way round only t's sign changes. */
	stats_compare(sleep1, N(sleep1), sleep2, N(sleep2), STATS_CONF, &c);
	assert_near(c.t, 1.8608, 5e-5);
	assert_near(c.p, 0.07939, 5e-6);
}

/*
 * tests/unit/stats-ref.py (python3, math only): means and variances, Welch's
 * t and df, p = 1 - 2 x the integral of the t density over [0, |t|] by
 * Simpson's rule with 200000 intervals, the 0.975 quantile by bisecting
 * that integral, and Fieller's bounds as the roots of (ma^2 - qA) r^2 - 2
 * ma mb r + mb^2 - qB = 0 by the quadratic formula. It printed:
 *   ma 100 va 2.5 mb 106.6666667 vb 7.866666667
 *   t 4.953774046 df 8.073107367 p 0.001086060874 tcrit 2.302374324
 *   pct 6.666666667 pct_lo 3.537544067 pct_hi 9.852347484
 */
Test(stats, welch_and_fieller_match_the_reference_script)
{
	static const double a[] = { 100, 102, 98, 101, 99 };
	static const double b[] = { 104, 109, 103, 108, 106, 110 };
	struct stats_change c;

	stats_compare(a, N(a), b, N(b), STATS_CONF, &c);
	cr_assert_eq(c.kind, STATS_DIFFERENT);
	assert_near(c.t, 4.953774046, 1e-8);
	assert_near(c.df, 8.073107367, 1e-8);
	assert_near(c.p, 0.001086060874, 1e-11);
	assert_near(stats_t_quantile(0.975, c.df), 2.302374324, 1e-8);
	assert_near(c.pct, 6.666666667, 1e-8);
	assert_near(c.pct_lo, 3.537544067, 1e-8);
	assert_near(c.pct_hi, 9.852347484, 1e-8);
	cr_assert(c.pct_lo > 0 && c.pct_lo < c.pct && c.pct < c.pct_hi);
	cr_assert_eq(c.test, STATS_TEST_WELCH);
	/* se of the difference of means: sqrt(va/na + vb/nb). */
	assert_near(c.se, sqrt(2.5 / 5 + 7.866666667 / 6), 1e-9);
}

Test(stats, compare_needs_two_each)
{
	static const double two[] = { 1, 2 }, one[] = { 1 };
	struct stats_change c;

	stats_compare(two, 2, one, 1, STATS_CONF, &c);
	cr_assert_eq(c.kind, STATS_TOO_FEW);
	cr_assert(isnan(c.t) && isnan(c.df) && isnan(c.p));
	cr_assert(isnan(c.pct_lo) && isnan(c.pct_hi) && isnan(c.se));
	assert_near(c.diff, 1 - 1.5, 0);
	assert_near(c.pct, (1 / 1.5 - 1) * 100, 1e-12);

	stats_compare(NULL, 0, two, 2, STATS_CONF, &c);
	cr_assert_eq(c.kind, STATS_TOO_FEW);
	cr_assert(isnan(c.diff) && isnan(c.pct) && isnan(c.p));
}

Test(stats, zero_variance_both_sides)
{
	static const double five[] = { 5, 5, 5 }, five2[] = { 5, 5 };
	static const double six[] = { 6, 6, 6 };
	struct stats_change c;

	stats_compare(five, N(five), five2, N(five2), STATS_CONF, &c);
	cr_assert_eq(c.kind, STATS_NO_DIFFERENCE);
	cr_assert_eq(c.p, 1);
	cr_assert_eq(c.t, 0);
	cr_assert_eq(c.pct, 0);
	cr_assert_eq(c.pct_lo, 0);
	cr_assert_eq(c.pct_hi, 0);

	stats_compare(five, N(five), six, N(six), STATS_CONF, &c);
	cr_assert_eq(c.kind, STATS_DIFFERENT);
	cr_assert_eq(c.p, 0);
	assert_near(c.pct, 20, 1e-12);
	cr_assert_eq(c.pct_lo, c.pct);
	cr_assert_eq(c.pct_hi, c.pct);
}

/* With one variance 0, Welch's df is the other sample's n - 1 and t is
   diff / (sd_b / sqrt(n_b)) = 2 / (1 / sqrt(3)). */
Test(stats, zero_variance_one_side)
{
	static const double five[] = { 5, 5, 5 }, b[] = { 6, 7, 8 };
	struct stats_change c;

	stats_compare(five, N(five), b, N(b), STATS_CONF, &c);
	assert_near(c.df, 2, 1e-12);
	assert_near(c.t, 2 * sqrt(3), 1e-12);
	/* df 2: p = 1 - t / sqrt(2 + t^2) = 1 - sqrt(12/14). */
	assert_near(c.p, 1 - sqrt(12.0 / 14), 1e-12);
	cr_assert_eq(c.kind, STATS_NO_DIFFERENCE);
	cr_assert(c.pct_lo < 0 && c.pct_hi > 40, "%g %g", c.pct_lo, c.pct_hi);
}

Test(stats, identical_samples)
{
	static const double v[] = { 10, 11, 12, 10.5 };
	struct stats_change c;

	stats_compare(v, N(v), v, N(v), STATS_CONF, &c);
	cr_assert_eq(c.kind, STATS_NO_DIFFERENCE);
	cr_assert_eq(c.t, 0);
	cr_assert_eq(c.p, 1);
	cr_assert_eq(c.pct, 0);
	cr_assert(c.pct_lo < 0 && c.pct_hi > 0);
}

/* The issue's falling /var/tmp repeats against a steady 100000: the
   variant's mean is not clearly above 0, so Fieller's lower root is
   negative; a rate cannot fall by more than 100%, and the interval is
   cut there. */
Test(stats, fieller_stops_at_minus_100_percent)
{
	static const double a[] = { 100000, 101000, 99000, 100500 };
	static const double b[] = { 44214, 14330, 7167, 5267 };
	struct stats_change c;

	stats_compare(a, N(a), b, N(b), STATS_CONF, &c);
	cr_assert_float_eq(c.pct_lo, -100.0, 1e-12);
	cr_assert(c.pct_hi > c.pct && c.pct_hi < 0, "%g", c.pct_hi);
}

Test(stats, baseline_near_zero_has_no_ratio)
{
	static const double zero[] = { -1, 1 }, b[] = { 1, 2 };
	static const double spans[] = { -1, 1, 2 }, c10[] = { 10, 11, 12 };
	struct stats_change c;

	/* Mean 0: no percentage at all. */
	stats_compare(zero, N(zero), b, N(b), STATS_CONF, &c);
	cr_assert(isnan(c.pct) && isnan(c.pct_lo) && isnan(c.pct_hi));
	cr_assert(!isnan(c.p));

	/* Mean 2/3 whose own interval holds 0: a percentage but unbounded. */
	stats_compare(spans, N(spans), c10, N(c10), STATS_CONF, &c);
	assert_near(c.pct, (11 / (2.0 / 3) - 1) * 100, 1e-9);
	cr_assert(isnan(c.pct_lo) && isnan(c.pct_hi));
	cr_assert_eq(c.kind, STATS_DIFFERENT);
}

/*
 * By hand. n_needed, cv 0.01 each so cva^2 + cvb^2 = 2e-4: n = 3 gives
 * t(0.975, 4) sqrt(2e-4 / 3) 100 = 2.7764 x 0.0081650 x 100 = 2.267 and
 * n = 4 gives t(0.975, 6) sqrt(5e-5) 100 = 2.4469 x 0.0070711 x 100 =
 * 1.730: 5% needs 3, 2% needs 4, 0.01% is out of reach of 10 (n = 10:
 * 2.1009 x 0.0044721 x 100 = 0.94).
 * rounds_needed, cv 0.1, goal 0.1: t(0.975, n-1) 0.1 / sqrt(n) is 0.898,
 * 0.248, 0.159, 0.124, 0.105 for n = 2..6 and 2.4469 x 0.1 / 2.6458 =
 * 0.0925 for n = 7.
 */
Test(stats, sample_sizes_by_hand)
{
	cr_assert_eq(stats_n_needed(0.01, 0.01, 5, STATS_CONF, 100), 3);
	cr_assert_eq(stats_n_needed(0.01, 0.01, -5, STATS_CONF, 100), 3);
	cr_assert_eq(stats_n_needed(0.01, 0.01, 2, STATS_CONF, 100), 4);
	cr_assert_eq(stats_n_needed(0.01, 0.01, 0.01, STATS_CONF, 10), 0);
	cr_assert_eq(stats_n_needed(0.01, 0.01, 0, STATS_CONF, 100), 0);
	cr_assert_eq(stats_n_needed(NAN, 0.01, 5, STATS_CONF, 100), 0);
	cr_assert_eq(stats_n_needed(0.01, 0.01, NAN, STATS_CONF, 100), 0);

	/* A rise weighs the variant's CV by the ratio r = 1 + pct/100:
	   n tells when t(2n-2) sqrt((0.01 + r^2 0.01) / n) < pct/100.
	   +100%: at 3, 2.776 x sqrt(0.05 / 3) = 0.36 < 1: 3.
	   +20%: at 3, 2.776 x sqrt(0.0244 / 3) = 0.250 > 0.2; at 4,
	   2.447 x sqrt(0.0244 / 4) = 0.191 < 0.2: 4.
	   +25%: at 3, 2.776 x sqrt(0.025625 / 3) = 0.257 > 0.25; at 4,
	   0.196: 4 (without r^2 it would be 2.776 x 0.0816 = 0.227: 3). */
	cr_assert_eq(stats_n_needed(0.1, 0.1, 100, STATS_CONF, 100), 3);
	cr_assert_eq(stats_n_needed(0.1, 0.1, 20, STATS_CONF, 100), 4);
	cr_assert_eq(stats_n_needed(0.1, 0.1, 25, STATS_CONF, 100), 4);

	cr_assert_eq(stats_rounds_needed(0.1, 0.1, STATS_CONF, 100), 7);
	cr_assert_eq(stats_rounds_needed(0.1, 0.1, STATS_CONF, 5), 5);
	cr_assert_eq(stats_rounds_needed(0, 0.02, STATS_CONF, 100), 2);
	cr_assert_eq(stats_rounds_needed(NAN, 0.02, STATS_CONF, 30), 30);
}

/* ---------------------------------------------------------------- stable */

/* Exact Mann-Kendall: n values falling at every step are 1 of the n!
   orderings with |S| = n(n-1)/2, as is the rising one: p = 2/n!. */
Test(stats, trend_exact_p_for_monotonic_runs)
{
	static const double f3[] = { 3, 2, 1 }, f4[] = { 4, 3, 2, 1 };
	static const double f5[] = { 5, 4, 3, 2, 1 };
	static const double issue[] = { 44214, 14330, 7167, 5267 };
	double tau;

	assert_near(stats_trend(f3, N(f3), &tau), 1.0 / 3, 1e-15);
	cr_assert_eq(tau, -1);
	assert_near(stats_trend(f4, N(f4), &tau), 1.0 / 12, 1e-15);
	cr_assert_eq(tau, -1);
	assert_near(stats_trend(f5, N(f5), &tau), 2.0 / 120, 1e-15);
	cr_assert_eq(tau, -1);
	assert_near(stats_trend(issue, N(issue), &tau), 1.0 / 12, 1e-15);
	cr_assert_eq(tau, -1);
}

/* 1 2 4 3: S = 5 - 1 = 4 (tau 2/3); of the 24 orderings, |S| >= 4 for
   those with 0, 1, 5 or 6 inversions: 1 + 3 + 3 + 1 = 8, p = 1/3. */
Test(stats, trend_exact_p_counts_inversions)
{
	static const double v[] = { 1, 2, 4, 3 };
	double tau;

	assert_near(stats_trend(v, N(v), &tau), 1.0 / 3, 1e-15);
	assert_near(tau, 4.0 / 6, 1e-15);
}

Test(stats, trend_flat_noise_is_not_a_trend)
{
	static const double v[] = { 10, 12, 9, 11, 10.5, 9.5, 11.5, 10.2 };
	double tau;
	double p = stats_trend(v, N(v), &tau);

	cr_assert(p > 0.5 && p <= 1, "p = %g", p);
	cr_assert(fabs(tau) < 0.3);
}

/* Twelve rising values with ties: the normal path, tie-corrected. S = 60
   (66 pairs, 6 of them tied); the tied groups have 2, 3, 2, 2 values, so
   the sum of t(t-1)(2t+5) is 18 + 66 + 18 + 18 = 120 and Var S = (12 x 11
   x 29 - 120) / 18 = 206; with the continuity correction z = 59 /
   sqrt(206) = 4.111, p = erfc(z / sqrt 2) = 3.9e-5. */
Test(stats, trend_with_ties_uses_the_normal)
{
	static const double v[] = { 1, 2, 2, 3, 3, 3, 4, 5, 5, 6, 7, 7 };
	static const double flat[] = { 4, 4, 4, 4 };
	double tau;
	double p = stats_trend(v, N(v), &tau);

	assert_near(tau, 60.0 / 66, 1e-15);
	assert_near(p, erfc(59 / sqrt(206.0) / sqrt(2.0)), 1e-15);
	cr_assert(p > 0 && p <= 1);

	p = stats_trend(flat, N(flat), &tau);
	cr_assert_eq(p, 1);
	cr_assert_eq(tau, 0);
}

Test(stats, trend_needs_three)
{
	static const double v[] = { 1, 2 };
	double tau = 0;

	cr_assert(isnan(stats_trend(v, N(v), &tau)));
	cr_assert(isnan(tau));
}

Test(stats, outliers_by_median_and_mad)
{
	static const double v[] = { 10, 10.1, 9.9, 10, 30 };
	static const double mad0[] = { 5, 5, 5, 5, 6 };
	static const double mad0_near[] = { 100, 100, 100, 101 };
	static const double two[] = { 1, 100 };
	bool out[5];

	cr_assert_eq(stats_outliers(v, N(v), out), 1);
	for (size_t i = 0; i < 4; i++)
		cr_assert(!out[i]);
	cr_assert(out[4]);

	/* MAD 0: a value more than 5% off the median counts (6 is 20%
	   off 5), one within 5% does not: figures printed to a few digits
	   repeat exactly. */
	cr_assert_eq(stats_outliers(mad0, N(mad0), out), 1);
	cr_assert(out[4] && !out[0]);
	cr_assert_eq(stats_outliers(mad0_near, N(mad0_near), out), 0);

	out[0] = out[1] = true;
	cr_assert_eq(stats_outliers(two, N(two), out), 0);
	cr_assert(!out[0] && !out[1]);
}

Test(stats, warmup_first_repeat)
{
	static const double warm[] = { 30, 10, 10.2, 9.9, 10.1 };
	static const double cold[] = { 10, 10.2, 9.9, 10.1 };
	static const double mad0_far[] = { 12, 10, 10, 10 };
	static const double mad0_near[] = { 10.4, 10, 10, 10 };

	cr_assert(stats_warmup(warm, N(warm)));
	cr_assert(!stats_warmup(cold, N(cold)));
	cr_assert(stats_warmup(mad0_far, N(mad0_far)));
	cr_assert(!stats_warmup(mad0_near, N(mad0_near)));
	cr_assert(!stats_warmup(warm, 2));
}
