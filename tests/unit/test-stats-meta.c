/*
 * One effect over many hosts (stats_meta_blocks()): the equal-weight mean
 * of the hosts' log-ratios, the wider of the between-host and the
 * within-host interval with the matching p, and the heterogeneity. The
 * figures are worked by hand in the comments (t quantiles from tables);
 * tests/unit/stats-scipy.py checks random cases against scipy's
 * one-sample t-test.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <math.h>

#include "figures/stats.h"

#define CLOSE(got, want, tol)                                                  \
	cr_assert(fabs((got) - (want)) <= (tol), "%s = %.12g, not %.12g",      \
	    #got, (double)(got), (double)(want))

/*
 * lr 0.10, 0.12, 0.14; se 0.01, 0.02, 0.01; df 8 each. mean 0.12; sd of
 * lr 0.02, so se_between 0.02 / sqrt 3 = 0.0115470 on 2 df, t(0.975, 2)
 * = 4.302653: half-width 0.0496828. se_within sqrt(0.0006) / 3 =
 * 0.0081650, df 0.0006^2 / (1.8e-7 / 8) = 16, t 2.119905: 0.0173090.
 * The between-host one is wider. Q with weights 1e4, 2500, 1e4 around
 * 0.12: 4 + 0 + 4 = 8; I^2 (8 - 2) / 8 = 75%; tau^2 6 / (22500 -
 * 2.0625e8 / 22500) = 0.00045.
 */
Test(stats_meta, hosts_that_disagree_take_the_between_host_interval)
{
	const double lr[] = { 0.10, 0.12, 0.14 }, se[] = { 0.01, 0.02, 0.01 };
	const double df[] = { 8, 8, 8 };
	struct stats_meta m;

	stats_meta_blocks(lr, se, df, 3, 0.95, &m);
	cr_assert_eq(m.k, 3);
	CLOSE(m.mean, 0.12, 1e-15);
	cr_assert(m.between);
	CLOSE(m.se_between, 0.0115470053838, 1e-12);
	CLOSE(m.se_within, 0.00816496580928, 1e-12);
	CLOSE(m.df_within, 16, 1e-9);
	CLOSE(m.df, 2, 0);
	CLOSE(m.lo, 0.0703172457631, 1e-9);
	CLOSE(m.hi, 0.169682754237, 1e-9);
	/* t = 0.12 / 0.011547 = 10.392 on 2 df */
	CLOSE(m.p, 0.00913261138628, 1e-9);
	CLOSE(m.q_stat, 8, 1e-9);
	CLOSE(m.i2, 75, 1e-9);
	CLOSE(m.tau2, 0.00045, 1e-12);
}

/*
 * Three hosts with the same log-ratio 0.05 by chance: no spread between
 * them, which alone would prove anything. The within-host interval
 * stands: se sqrt(3 x 0.0004) / 3 = 0.0115470, df (0.0012)^2 / (3 x
 * 0.0004^2 / 4) = 12, t(0.975, 12) = 2.178813: 0.05 -/+ 0.0251588.
 */
Test(stats_meta, hosts_that_agree_by_chance_keep_their_own_noise)
{
	const double lr[] = { 0.05, 0.05, 0.05 }, se[] = { 0.02, 0.02, 0.02 };
	const double df[] = { 4, 4, 4 };
	struct stats_meta m;

	stats_meta_blocks(lr, se, df, 3, 0.95, &m);
	cr_assert_not(m.between);
	CLOSE(m.se_between, 0, 0);
	CLOSE(m.df, 12, 1e-9);
	CLOSE(m.lo, 0.0248412365256, 1e-9);
	CLOSE(m.hi, 0.0751587634744, 1e-9);
	CLOSE(m.p, 0.000978488712899, 1e-9);
	CLOSE(m.i2, 0, 0);
	CLOSE(m.tau2, 0, 0);
}

/* p and the interval tell the same story at every level. */
Test(stats_meta, the_interval_excludes_zero_exactly_when_p_is_under_the_level)
{
	const double se[] = { 0.01, 0.03, 0.02, 0.015 };
	const double df[] = { 4, 9, NAN, 30 };
	const double confs[] = { 0.9, 0.95, 0.99, 0.995 };

	for (int s = -40; s <= 40; s++)
		for (size_t c = 0; c < 4; c++) {
			double lr[] = { 0.001 * s, 0.0013 * s + 0.004,
				0.0008 * s - 0.003, 0.001 * s };
			struct stats_meta m;
			bool excl;

			stats_meta_blocks(lr, se, df, 4, confs[c], &m);
			excl = m.lo > 0 || m.hi < 0;
			cr_assert_eq(excl, m.p < 1 - confs[c],
			    "s %d conf %g: [%g, %g] p %g", s, confs[c], m.lo,
			    m.hi, m.p);
		}
}

Test(stats_meta, fewer_than_two_hosts_or_bad_input_give_nothing)
{
	const double lr[] = { 0.1, 0.2 }, se[] = { 0.01, -1 }, df[] = { 4, 4 };
	const double ok[] = { 0.01, 0.01 };
	struct stats_meta m;

	stats_meta_blocks(lr, ok, df, 1, 0.95, &m);
	cr_assert(isnan(m.mean) && isnan(m.lo) && isnan(m.p));
	stats_meta_blocks(lr, se, df, 2, 0.95, &m);
	cr_assert(isnan(m.mean) && isnan(m.hi));
	stats_meta_blocks(lr, ok, df, 2, 1.5, &m);
	cr_assert(isnan(m.lo));
}

/* An exact host (se 0) has an infinite weight: no Q, no I^2. */
Test(stats_meta, an_exact_host_leaves_heterogeneity_unknown)
{
	const double lr[] = { 0.1, 0.2 }, se[] = { 0, 0.01 };
	const double df[] = { INFINITY, 4 };
	struct stats_meta m;

	stats_meta_blocks(lr, se, df, 2, 0.95, &m);
	CLOSE(m.mean, 0.15, 1e-15);
	cr_assert(isfinite(m.lo));
	cr_assert(isnan(m.i2) && isnan(m.q_stat) && isnan(m.tau2));
}
