/*
 * The robust verdicts of issue 22 against independently computed figures:
 * Welch's test on the logs, Mann-Whitney U with the Hodges-Lehmann shift
 * and Moses's interval, equivalence by two one-sided tests, the
 * Benjamini-Hochberg and Holm adjustments, the power figures and the
 * geometric-mean summary. Every pinned figure was printed by
 * tests/unit/stats-ref-rank.py (scipy, numpy, and U's null distribution
 * by enumerating every split of the ranks); the many-case cross-check
 * against scipy is tests/unit/stats-scipy.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

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

/* The issue's case, tmpfs (a) against ext4 on a loop device (b), small
   files with fsync, 5 repeats each: a has mean 26335 and sd 23637 (five
   skewed figures with the recorded mean and sd), b mean 229.1 and sd
   35.3, every b below every a. */
static const double issue_a[] = { 5890, 9235, 14505, 41925, 60120 };
static const double issue_b[] = { 187, 208, 227, 244, 279.5 };

/* Overlapping samples without ties, 6 against 7. */
static const double ov_a[] = { 10.2, 11.9, 9.7, 12.4, 10.8, 13.1 };
static const double ov_b[] = { 11.5, 13.8, 12.9, 14.6, 12.2, 15.3, 13.4 };

/* ---------------------------------------------------------------- issue */

/* scipy: ttest_ind(b, a, equal_var=False) p = 0.068974319791; on the
   logs t = -9.79910224314, df 4.19170224609, p = 0.00048096814364, the
   interval -99.6315226491% .. -95.7728721023%; mannwhitneyu exact U = 0,
   p = 2/252 = 0.00793650793651. */
Test(stats_robust, issue_case_is_called_by_log_and_rank_but_not_welch)
{
	struct stats_change w, l, r;

	stats_compare(issue_a, 5, issue_b, 5, STATS_CONF, &w);
	cr_assert_eq(w.kind, STATS_NO_DIFFERENCE);
	assert_near(w.p, 0.068974319791, 1e-11);

	stats_log_compare(issue_a, 5, issue_b, 5, STATS_CONF, &l);
	cr_assert_eq(l.kind, STATS_DIFFERENT);
	cr_assert_eq(l.test, STATS_TEST_LOG);
	assert_near(l.p, 0.00048096814364, 1e-14);
	cr_assert(l.pct_lo > -100 && l.pct_hi < 0);
	assert_near(l.pct_lo, -99.6315226491, 1e-9);
	assert_near(l.pct_hi, -95.7728721023, 1e-9);

	stats_rank_compare(issue_a, 5, issue_b, 5, STATS_CONF, &r);
	cr_assert_eq(r.kind, STATS_DIFFERENT);
	cr_assert_eq(r.test, STATS_TEST_RANK);
	cr_assert_eq(r.t, 0);
	assert_near(r.p, 2.0 / 252, 1e-15);
	cr_assert(r.pct_lo > -100 && r.pct_hi < 0);
}

/* ---------------------------------------------------------------- log */

/* ttest_ind on the logs: d 0.166488091148, t 2.73332769006, df
   9.90805790067, p 0.0212395173921, pct 18.1149469652, interval
   3.10733568962 .. 35.3069653413, se 0.0609104030055. */
Test(stats_robust, log_test_matches_scipy)
{
	struct stats_change c;

	stats_log_compare(ov_a, N(ov_a), ov_b, N(ov_b), STATS_CONF, &c);
	cr_assert_eq(c.kind, STATS_DIFFERENT);
	assert_near(c.diff, 0.166488091148, 1e-11);
	assert_near(c.t, 2.73332769006, 1e-10);
	assert_near(c.df, 9.90805790067, 1e-10);
	assert_near(c.p, 0.0212395173921, 1e-12);
	assert_near(c.pct, 18.1149469652, 1e-9);
	assert_near(c.pct_lo, 3.10733568962, 1e-9);
	assert_near(c.pct_hi, 35.3069653413, 1e-9);
	assert_near(c.se, 0.0609104030055, 1e-12);
}

/* On paper the interval excludes 0% exactly when p < 1 - conf; at the
   conf where p sits, the bound sits at 0%. */
Test(stats_robust, log_interval_agrees_with_p)
{
	struct stats_change c, at;

	stats_log_compare(ov_a, N(ov_a), ov_b, N(ov_b), STATS_CONF, &c);
	stats_log_compare(ov_a, N(ov_a), ov_b, N(ov_b), 1 - c.p, &at);
	assert_near(at.pct_lo, 0, 1e-9);
	stats_log_compare(ov_a, N(ov_a), ov_b, N(ov_b), 1 - c.p * 1.01, &at);
	cr_assert(at.pct_lo > 0);
	stats_log_compare(ov_a, N(ov_a), ov_b, N(ov_b), 1 - c.p * 0.99, &at);
	cr_assert(at.pct_lo < 0);
}

/* A figure at or below 0 or not finite has no log: no verdict, no
   figure; one repeat a side still gives the change. */
Test(stats_robust, log_test_needs_positive_figures)
{
	static const double bad[][3] = { { 1, 0, 2 }, { 1, -3, 2 },
		{ 1, NAN, 2 }, { 1, INFINITY, 2 } };
	static const double ok[] = { 1, 2, 3 }, one[] = { 4 };
	struct stats_change c;

	for (size_t i = 0; i < N(bad); i++) {
		stats_log_compare(ok, 3, bad[i], 3, STATS_CONF, &c);
		cr_assert_eq(c.kind, STATS_TOO_FEW);
		cr_assert(isnan(c.diff) && isnan(c.pct) && isnan(c.p));
		cr_assert(isnan(c.pct_lo) && isnan(c.se));
		stats_log_compare(bad[i], 3, ok, 3, STATS_CONF, &c);
		cr_assert_eq(c.kind, STATS_TOO_FEW);
		cr_assert(isnan(c.pct));
	}
	stats_log_compare(ok, 3, one, 1, STATS_CONF, &c);
	cr_assert_eq(c.kind, STATS_TOO_FEW);
	/* The geometric mean of 1, 2, 3 is 6^(1/3). */
	assert_near(c.pct, (4 / cbrt(6) - 1) * 100, 1e-12);
	cr_assert(isnan(c.p) && isnan(c.pct_lo) && isnan(c.t));
}

Test(stats_robust, log_test_with_nothing_varying)
{
	static const double five[] = { 5, 5, 5 }, ten[] = { 10, 10 };
	struct stats_change c;

	stats_log_compare(five, 3, five, 3, STATS_CONF, &c);
	cr_assert_eq(c.kind, STATS_NO_DIFFERENCE);
	cr_assert(c.p == 1 && c.t == 0 && isnan(c.df) && c.se == 0);
	cr_assert(c.pct == 0 && c.pct_lo == 0 && c.pct_hi == 0);

	stats_log_compare(five, 3, ten, 2, STATS_CONF, &c);
	cr_assert_eq(c.kind, STATS_DIFFERENT);
	cr_assert(c.p == 0 && c.t == INFINITY);
	assert_near(c.pct, 100, 1e-12);
	cr_assert(c.pct_lo == c.pct && c.pct_hi == c.pct);
}

/* ---------------------------------------------------------------- rank */

/* mannwhitneyu(b, a, method="exact"): U 36, p 0.034965034965; numpy's
   median of the pairwise log differences 0.166773102982; Moses's 95%
   interval 2.29007633588% .. 38.1443298969% (k = 7), 90% 4.03225806452
   .. 35.1851851852 (k = 9). */
Test(stats_robust, rank_exact_matches_scipy)
{
	struct stats_change c;

	stats_rank_compare(ov_a, N(ov_a), ov_b, N(ov_b), STATS_CONF, &c);
	cr_assert_eq(c.kind, STATS_DIFFERENT);
	cr_assert_eq(c.t, 36);
	cr_assert(isnan(c.df));
	assert_near(c.p, 0.034965034965, 1e-12);
	assert_near(c.diff, 0.166773102982, 1e-12);
	assert_near(c.pct, expm1(0.166773102982) * 100, 1e-9);
	assert_near(c.pct_lo, 2.29007633588, 1e-9);
	assert_near(c.pct_hi, 38.1443298969, 1e-9);
	cr_assert(c.se > 0);

	stats_rank_compare(ov_a, N(ov_a), ov_b, N(ov_b), 0.90, &c);
	assert_near(c.pct_lo, 4.03225806452, 1e-9);
	assert_near(c.pct_hi, 35.1851851852, 1e-9);
}

/* The smallest two-sided p of 3 against 3 is 2/20: never below 0.05, no
   95% interval, and the 90% one is the whole range (ratios 4/3 .. 6/1). */
Test(stats_robust, rank_three_against_three_cannot_reach_95)
{
	static const double a[] = { 1, 2, 3 }, b[] = { 4, 5, 6 };
	struct stats_change c;

	stats_rank_compare(a, 3, b, 3, STATS_CONF, &c);
	cr_assert_eq(c.kind, STATS_NO_DIFFERENCE);
	assert_near(c.p, 0.1, 1e-15);
	cr_assert(isnan(c.pct_lo) && isnan(c.pct_hi));
	cr_assert(c.se > 0, "se from the whole range");
	stats_rank_compare(a, 3, b, 3, 0.90, &c);
	assert_near(c.pct_lo, (4.0 / 3 - 1) * 100, 1e-9);
	assert_near(c.pct_hi, 500, 1e-9);
}

/* Two against two: p is at least 2/6. */
Test(stats_robust, rank_two_against_two)
{
	static const double a[] = { 1, 2 }, b[] = { 3, 4 };
	struct stats_change c;

	stats_rank_compare(a, 2, b, 2, STATS_CONF, &c);
	cr_assert_eq(c.kind, STATS_NO_DIFFERENCE);
	assert_near(c.p, 1.0 / 3, 1e-15);
	cr_assert_eq(c.t, 4);
	/* Differences ln 3/2, ln 4/2, ln 3/1, ln 4/1: median of the middle
	   two, ln 2 and ln 3, is ln sqrt(6). */
	assert_near(c.diff, log(sqrt(6)), 1e-12);
}

/* mannwhitneyu(b, a, method="asymptotic", use_continuity=True) with ties:
   U 43, p 0.0874803339252; shift 0.182321556794 (ln 1.2). */
Test(stats_robust, rank_ties_use_the_corrected_normal)
{
	static const double a[] = { 5, 5, 6, 7, 7, 7, 8, 9 };
	static const double b[] = { 6, 7, 8, 8, 9, 9, 10 };
	struct stats_change c;

	stats_rank_compare(a, N(a), b, N(b), STATS_CONF, &c);
	cr_assert_eq(c.kind, STATS_NO_DIFFERENCE);
	cr_assert_eq(c.t, 43);
	assert_near(c.p, 0.0874803339252, 1e-12);
	assert_near(c.diff, 0.182321556794, 1e-12);
	cr_assert(c.pct_lo <= 0 && c.pct_hi > 0);
}

/* 25 against 20 lognormal figures (500 pairs, past the exact limit):
   asymptotic U 375, p 0.0044581762917, shift 0.455137238019, Moses by
   the normal k = 164: 16.8142766886% .. 103.807623045%. */
Test(stats_robust, rank_large_uses_the_normal)
{
	static const double a[] = { 11.483976, 12.408680, 11.930431, 15.657121,
		35.834533, 10.585387, 29.300008, 33.281070, 17.423428,
		15.174639, 24.260411, 32.649289, 47.570485, 28.695049,
		37.998134, 16.774894, 14.158472, 10.095509, 12.660906,
		17.367949, 21.697518, 11.878853, 27.838901, 19.274451,
		15.535373 };
	static const double b[] = { 19.963079, 60.841694, 29.011472, 18.931541,
		18.511776, 56.550258, 21.513048, 43.618512, 47.909296,
		10.699954, 46.543621, 24.943846, 17.572735, 21.812060,
		33.931993, 31.487499, 32.143352, 20.288244, 45.224254,
		49.444567 };
	struct stats_change c;

	cr_assert_gt(N(a) * N(b), STATS_RANK_EXACT_MAX);
	stats_rank_compare(a, N(a), b, N(b), STATS_CONF, &c);
	cr_assert_eq(c.kind, STATS_DIFFERENT);
	cr_assert_eq(c.t, 375);
	assert_near(c.p, 0.0044581762917, 1e-12);
	assert_near(c.diff, 0.455137238019, 1e-12);
	assert_near(c.pct_lo, 16.8142766886, 1e-9);
	assert_near(c.pct_hi, 103.807623045, 1e-9);
}

Test(stats_robust, rank_all_tied_is_no_difference)
{
	static const double a[] = { 7, 7, 7, 7 }, b[] = { 7, 7, 7, 7 };
	struct stats_change c;

	stats_rank_compare(a, N(a), b, N(b), STATS_CONF, &c);
	cr_assert_eq(c.kind, STATS_NO_DIFFERENCE);
	cr_assert(c.p == 1 && c.t == 8 && c.diff == 0);
	cr_assert(c.pct_lo == 0 && c.pct_hi == 0 && c.se == 0);
}

Test(stats_robust, rank_test_needs_positive_figures)
{
	static const double ok[] = { 1, 2, 3 }, bad[] = { 1, 0, 2 };
	static const double nan3[] = { 1, NAN, 2 };
	struct stats_change c;

	stats_rank_compare(ok, 3, bad, 3, STATS_CONF, &c);
	cr_assert_eq(c.kind, STATS_TOO_FEW);
	cr_assert(isnan(c.p) && isnan(c.diff) && isnan(c.t));
	stats_rank_compare(nan3, 3, ok, 3, STATS_CONF, &c);
	cr_assert_eq(c.kind, STATS_TOO_FEW);
	cr_assert(isnan(c.pct) && isnan(c.se));
	stats_rank_compare(ok, 3, ok, 1, STATS_CONF, &c);
	cr_assert_eq(c.kind, STATS_TOO_FEW);
	/* The median of ln 1 - ln 1, ln 1 - ln 2, ln 1 - ln 3. */
	assert_near(c.diff, -log(2), 1e-15);
	cr_assert(isnan(c.p));
}

/* A fixed stream of figures (xorshift), no libc state. */
static double
draw(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return 1 + (double)(*s >> 11) / 9007199254740992.0 * 99;
}

/* 10000 against 10000 (1e8 pairs): b is a doubled, so the shift is ln 2
   (the median difference of a against itself is 0 by symmetry) and the
   interval is tight around it. */
Test(stats_robust, rank_huge_samples)
{
	enum { HUGE_N = 10000 };
	double *a = malloc(HUGE_N * sizeof *a), *b = malloc(HUGE_N * sizeof *b);
	uint64_t s = 22;
	struct stats_change c;

	for (size_t i = 0; i < HUGE_N; i++) {
		a[i] = draw(&s);
		b[i] = 2 * a[i];
	}
	stats_rank_compare(a, HUGE_N, b, HUGE_N, STATS_CONF, &c);
	cr_assert_eq(c.kind, STATS_DIFFERENT);
	assert_near(c.diff, log(2), 1e-12);
	cr_assert(c.pct_lo < 100 && c.pct_hi > 100);
	cr_assert(c.pct_hi - c.pct_lo < 10);
	stats_rank_compare(a, HUGE_N, a, HUGE_N, STATS_CONF, &c);
	cr_assert_eq(c.kind, STATS_NO_DIFFERENCE);
	cr_assert(c.p == 1 && c.diff == 0);
	free(a);
	free(b);
}

/* ---------------------------------------------------------------- choice */

Test(stats_robust, test_keys_round_trip)
{
	for (int i = 0; i < STATS_TEST__COUNT; i++) {
		enum stats_test t = STATS_TEST__COUNT;

		cr_assert_not_null(stats_test_key((enum stats_test)i));
		cr_assert_eq(stats_test_parse(stats_test_key(i), &t), 0);
		cr_assert_eq((int)t, i);
	}
	cr_assert_str_eq(stats_test_key(STATS_TEST_LOG), "log");
	cr_assert_str_eq(stats_test_key(STATS_TEST_WELCH), "welch");
	cr_assert_str_eq(stats_test_key(STATS_TEST_RANK), "rank");
	cr_assert_null(stats_test_key(STATS_TEST__COUNT));
	cr_assert_null(stats_test_key((enum stats_test) - 1));
	{
		enum stats_test t = STATS_TEST_RANK;

		cr_assert_eq(stats_test_parse("t-test", &t), -1);
		cr_assert_eq(stats_test_parse("", &t), -1);
		cr_assert_eq(stats_test_parse("Log", &t), -1);
		cr_assert_eq(stats_test_parse(NULL, &t), -1);
		cr_assert_eq(t, STATS_TEST_RANK, "untouched on failure");
	}
}

/* Every filler says which test it is and fills se. */
Test(stats_robust, compare_by_dispatches_and_names_the_test)
{
	struct stats_change c;

	for (int i = 0; i < STATS_TEST__COUNT; i++) {
		stats_compare_by((enum stats_test)i, ov_a, N(ov_a), ov_b,
		    N(ov_b), STATS_CONF, &c);
		cr_assert_eq(c.test, i);
		cr_assert(c.se > 0 && isfinite(c.se));
		cr_assert(c.pct_lo < c.pct && c.pct < c.pct_hi);
	}
	/* Welch's se is in the figures' units: sqrt(va/na + vb/nb). */
	stats_compare_by(STATS_TEST_WELCH, ov_a, N(ov_a), ov_b, N(ov_b),
	    STATS_CONF, &c);
	assert_near(c.se, c.diff / c.t, 1e-12);
}

/* ---------------------------------------------------------------- same */

/*
 * TOST at 5% a side is the 90% interval inside the margin. Samples within
 * 0.3% of each other with 0.2% noise are the same within 2%; the same
 * with 10% noise cannot be told; a 5% change is not the same.
 */
Test(stats_robust, equivalence_is_the_90_interval_inside_the_margin)
{
	static const double a[] = { 100.1, 99.8, 100.3, 99.9, 100.0 };
	static const double b[] = { 100.4, 100.1, 100.2, 100.5, 100.3 };
	static const double noisy[] = { 90, 112, 101, 95, 108 };
	static const double moved[] = { 105.2, 104.9, 105.1, 105.0, 104.8 };
	double lo, hi;
	struct stats_change c;

	for (int i = 0; i < STATS_TEST__COUNT; i++) {
		enum stats_test t = (enum stats_test)i;

		cr_assert(stats_equivalent(t, a, 5, b, 5, 0.05, 2, &lo, &hi),
		    "%s", stats_test_key(t));
		stats_compare_by(t, a, 5, b, 5, 0.90, &c);
		cr_assert(lo == c.pct_lo && hi == c.pct_hi);
		cr_assert(lo > -2 && hi < 2);
		cr_assert(
		    !stats_equivalent(t, a, 5, noisy, 5, 0.05, 2, &lo, &hi));
		cr_assert(lo < -2 || hi > 2);
		cr_assert(
		    !stats_equivalent(t, a, 5, moved, 5, 0.05, 2, &lo, &hi));
	}
	/* 3 against 3 by rank: the 90% interval is the whole range. */
	{
		static const double a3[] = { 100, 100.5, 99.8 };
		static const double b3[] = { 100.2, 99.9, 100.4 };

		cr_assert(stats_equivalent(STATS_TEST_RANK, a3, 3, b3, 3, 0.05,
		    2, &lo, &hi));
		assert_near(lo, (99.9 / 100.5 - 1) * 100, 1e-9);
	}
	cr_assert(
	    !stats_equivalent(STATS_TEST_LOG, a, 1, b, 5, 0.05, 2, &lo, &hi));
	cr_assert(isnan(lo) && isnan(hi));
}

/* ---------------------------------------------------------------- many */

/* By the definitions (stats-ref-rank.py): p 0.01 0.04 0.03 0.5 0.002
   0.2 give BH q 0.03 0.06 0.06 0.5 0.012 0.24 and Holm 0.05 0.12 0.12
   0.5 0.012 0.4. */
Test(stats_robust, bh_and_holm_by_the_definitions)
{
	static const double p[] = { 0.01, 0.04, 0.03, 0.5, 0.002, 0.2 };
	static const double bh[] = { 0.03, 0.06, 0.06, 0.5, 0.012, 0.24 };
	static const double holm[] = { 0.05, 0.12, 0.12, 0.5, 0.012, 0.4 };
	double q[N(p)];

	cr_assert_eq(stats_bh(p, N(p), q), N(p));
	for (size_t i = 0; i < N(p); i++)
		assert_near(q[i], bh[i], 1e-15);
	cr_assert_eq(stats_holm(p, N(p), q), N(p));
	for (size_t i = 0; i < N(p); i++)
		assert_near(q[i], holm[i], 1e-15);
}

/* A NAN is no test: the others adjust as a family of their own. */
Test(stats_robust, adjustments_skip_nan_and_stay_at_most_1)
{
	static const double p[] = { NAN, 0.01, 0.9, NAN, 0.02 };
	static const double big[] = { 0.6, 0.7, 0.8 };
	double q[N(p)], r[N(big)];

	cr_assert_eq(stats_bh(p, N(p), q), 3);
	cr_assert(isnan(q[0]) && isnan(q[3]));
	assert_near(q[1], 0.03, 1e-15);
	assert_near(q[4], 0.03, 1e-15);
	assert_near(q[2], 0.9, 1e-15);
	cr_assert_eq(stats_holm(p, N(p), q), 3);
	assert_near(q[1], 0.03, 1e-15);
	assert_near(q[4], 0.04, 1e-15);
	assert_near(q[2], 0.9, 1e-15);
	cr_assert_eq(stats_holm(big, N(big), r), 3);
	for (size_t i = 0; i < N(big); i++)
		cr_assert(r[i] == 1);
	cr_assert_eq(stats_bh(NULL, 0, NULL), 0);
}

Test(stats_robust, fcr_conf_widens_with_the_family)
{
	assert_near(stats_fcr_conf(0, 0, 0.05), 0.95, 1e-15);
	assert_near(stats_fcr_conf(1, 0, 0.05), 0.95, 1e-15);
	assert_near(stats_fcr_conf(10, 0, 0.05), 0.995, 1e-15);
	assert_near(stats_fcr_conf(10, 2, 0.05), 0.99, 1e-15);
	assert_near(stats_fcr_conf(10, 10, 0.05), 0.95, 1e-15);
}

/*
 * Two log-ratios 0.1 and 0.2 with se 0.05 each, one with df 8, one
 * normal (the rank test's NAN): df* = (0.005)^2 / (0.0025^2 / 8) = 32,
 * t(0.975, 32) = 2.0369333 (R: qt(0.975, 32)), half-width 2.0369333 x
 * sqrt(0.005) / 2.
 */
Test(stats_robust, geomean_ratio_by_hand)
{
	static const double lr[] = { 0.1, 0.2 }, se[] = { 0.05, 0.05 };
	static const double df[] = { 8, NAN }, zero[] = { 0, 0 };
	double gm, lo, hi, h = 2.0369333 * sqrt(0.005) / 2;

	stats_geomean_ratio(lr, se, df, 2, STATS_CONF, &gm, &lo, &hi);
	assert_near(gm, exp(0.15), 1e-15);
	assert_near(lo, exp(0.15 - h), 1e-7);
	assert_near(hi, exp(0.15 + h), 1e-7);

	stats_geomean_ratio(lr, zero, df, 2, STATS_CONF, &gm, &lo, &hi);
	cr_assert(lo == gm && hi == gm);
	stats_geomean_ratio(lr, se, df, 0, STATS_CONF, &gm, &lo, &hi);
	cr_assert(isnan(gm) && isnan(lo) && isnan(hi));
	{
		static const double bad[] = { 0.1, NAN };

		stats_geomean_ratio(bad, se, df, 2, STATS_CONF, &gm, &lo, &hi);
		cr_assert(isnan(gm) && isnan(lo));
	}
}

/* ---------------------------------------------------------------- power */

/* scipy's t (stats-ref-rank.py), cv 0.1 and 0.15, 5 and 6 repeats: log
   26.9388433771%, Welch 29.1820859791% (its variant spreading with its
   mean: Brent's root of x = k(df(x)) se(x)), rank 27.6471305074%. */
Test(stats_robust, mde_matches_scipy)
{
	assert_near(stats_mde(STATS_TEST_LOG, 0.1, 0.15, 5, 6, 0.95, 0.8),
	    26.9388433771, 1e-9);
	assert_near(stats_mde(STATS_TEST_WELCH, 0.1, 0.15, 5, 6, 0.95, 0.8),
	    29.1820859791, 1e-9);
	assert_near(stats_mde(STATS_TEST_RANK, 0.1, 0.15, 5, 6, 0.95, 0.8),
	    27.6471305074, 1e-9);
	cr_assert(isnan(stats_mde(STATS_TEST_LOG, NAN, 0.1, 5, 5, 0.95, 0.8)));
	cr_assert(isnan(stats_mde(STATS_TEST_LOG, 0.1, 0.1, 1, 5, 0.95, 0.8)));
	cr_assert(stats_mde(STATS_TEST_LOG, 0, 0, 3, 3, 0.95, 0.8) == 0);
	/* Welch's t cannot pass sqrt(3) / 1 < t(0.975, 2) + t(0.8, 2). */
	cr_assert(isinf(stats_mde(STATS_TEST_WELCH, 1, 1, 3, 3, 0.95, 0.8)));
	cr_assert(isfinite(stats_mde(STATS_TEST_LOG, 1, 1, 3, 3, 0.95, 0.8)));
	/* More repeats, a smaller change. */
	cr_assert(stats_mde(STATS_TEST_LOG, 0.1, 0.1, 10, 10, 0.95, 0.8) <
	    stats_mde(STATS_TEST_LOG, 0.1, 0.1, 5, 5, 0.95, 0.8));
}

/* stats-ref-rank.py searched n for cv 0.1 a side, log test, margin 2%:
   a 10% change is told from 0 at 19 repeats, 0.5% shown inside +-2% at
   569. */
Test(stats_robust, n_settle_matches_a_search)
{
	size_t n =
	    stats_n_settle(STATS_TEST_LOG, 0.1, 0.1, 10, 2, 0.95, 0.8, 1000);

	cr_assert_eq(n, 19);
	/* The same as the smallest n whose mde is within the change. */
	cr_assert(stats_mde(STATS_TEST_LOG, 0.1, 0.1, n, n, 0.95, 0.8) <= 10);
	cr_assert(
	    stats_mde(STATS_TEST_LOG, 0.1, 0.1, n - 1, n - 1, 0.95, 0.8) > 10);
	cr_assert_eq(stats_n_settle(STATS_TEST_LOG, 0.1, 0.1, -10, 2, 0.95, 0.8,
			 1000),
	    16, "a fall of 10%% is a larger log shift than a rise");
	cr_assert_eq(stats_n_settle(STATS_TEST_LOG, 0.1, 0.1, 0.5, 2, 0.95, 0.8,
			 1000),
	    569);
	cr_assert_eq(stats_n_settle(STATS_TEST_LOG, 0.1, 0.1, 0.5, 2, 0.95, 0.8,
			 500),
	    0, "over max");
	cr_assert_eq(stats_n_settle(STATS_TEST_LOG, 0.1, 0.1, 2, 2, 0.95, 0.8,
			 1000),
	    0, "at the margin");
	cr_assert_eq(stats_n_settle(STATS_TEST_LOG, NAN, 0.1, 5, 2, 0.95, 0.8,
			 1000),
	    0);
	cr_assert_eq(stats_n_settle(STATS_TEST_LOG, 0.01, 0.01, 50, 2, 0.95,
			 0.8, 1000),
	    3, "at least 3");
	cr_assert_eq(stats_n_settle(STATS_TEST_LOG, 0, 0, 0, 2, 0.95, 0.8, 9),
	    3, "nothing varies");
}
