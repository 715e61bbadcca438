/*
 * The statistics behind every verdict, without curses or I/O: what one
 * sample of repeats says (mean, sd, CV, median, range, the confidence
 * interval of the mean by Student's t), what two samples say against each
 * other (Welch's t-test for unequal variances, and the change in percent
 * with Fieller's confidence interval for a ratio of means, which stays
 * right when the change is large and agrees with the t-test: the interval
 * excludes 0% exactly when p < 1 - conf), and whether a sample is stable
 * (a monotonic trend by Mann-Kendall, outliers by the median/MAD score,
 * a warm-up first repeat). Pure functions of their arguments, callable
 * from any thread. Inputs are finite doubles; NAN in an output means "no
 * figure" and the caller says why in words.
 */
#ifndef RAIDLAB_STATS_H
#define RAIDLAB_STATS_H

#include <stdbool.h>
#include <stddef.h>

/* The confidence level every verdict uses. */
#define STATS_CONF 0.95

/* ---------------------------------------------------------------- one */

struct stats_desc {
	size_t n;
	double mean; /* NAN when n is 0 */
	double sd; /* sample (n - 1) sd; 0 when n is 1, NAN when 0 */
	double cv; /* sd / |mean|; NAN when n < 2 or mean is 0 */
	double median, min, max; /* NAN when n is 0 */
	/* The conf interval of the mean, mean -/+ t(conf, n-1) sd/sqrt(n);
	   all three NAN when n < 2. ci_half / |mean| is the relative
	   half-width repeat-until-sure compares with its goal. */
	double ci_lo, ci_hi, ci_half;
};

void
stats_describe(const double *v, size_t n, double conf, struct stats_desc *d);

/*
 * The conf interval of the geometric mean of positive figures (rates,
 * durations): the t interval of the mean of their logs, exponentiated,
 * exp(mean(ln v) -/+ t(conf, n-1) sd(ln v)/sqrt(n)). It never reaches 0
 * however noisy the figures, where the interval of the mean can go below
 * 0. Both NAN when n < 2 or a figure is not finite and above 0.
 */
void stats_log_interval(const double *v, size_t n, double conf, double *lo,
    double *hi);

/* Student's t distribution with df > 0 degrees of freedom (df need not be
   an integer: Welch's is not): P(T <= t), and its inverse for 0 < p < 1;
   NAN outside those domains. About 1e-10 relative (of the smaller tail)
   for df up to 1e6; above 1e8 the normal with its 1/df correction. */
double stats_t_cdf(double t, double df);
double stats_t_quantile(double p, double df);

/* ---------------------------------------------------------------- two */

enum stats_change_kind {
	STATS_TOO_FEW, /* a sample has n < 2: no variance to judge by */
	STATS_NO_DIFFERENCE, /* the interval holds 0% (p >= 1 - conf) */
	STATS_DIFFERENT, /* the interval excludes 0% (p < 1 - conf) */
};

struct stats_change {
	enum stats_change_kind kind;
	int test; /* enum stats_test that filled it (declared below) */
	double diff; /* mean(b) - mean(a); NAN when a sample is empty */
	double t, df, p; /* Welch's t, its Welch-Satterthwaite df, and the
			    two-sided p-value; NAN with STATS_TOO_FEW.
			    With both variances 0, t is 0 or +-INFINITY
			    and df is NAN. */
	double pct; /* (mean(b) / mean(a) - 1) x 100; NAN when mean(a) is
		       0 */
	/* Fieller's conf interval of pct. Unbounded (both NAN) when the
	   baseline's own mean is not clearly away from 0 (its interval
	   holds 0), or with STATS_TOO_FEW. Cut at -100% when the
	   variant's own mean is not clearly above 0 (a ratio of positive
	   figures). When both samples have zero variance, lo = hi = pct
	   and p is 0 (means differ) or 1. */
	double pct_lo, pct_hi;
	/* The standard error of diff, for summing changes over tests: in
	   the figures' units for Welch's test (sqrt(va/na + vb/nb)), of
	   the log-ratio for the log and rank tests; 0 when nothing
	   varies, NAN with STATS_TOO_FEW. */
	double se;
};

/* b (a variant) against a (the baseline) by Welch's test (c->test is
   STATS_TEST_WELCH). The kind is decided by p; on paper Fieller's
   interval then agrees, and where rounding at the very boundary could
   make them differ, p wins. */
void stats_compare(const double *a, size_t na, const double *b, size_t nb,
    double conf, struct stats_change *c);

/*
 * Which test a verdict rests on (the lab's `test` key, compare --test):
 *   STATS_TEST_LOG   Welch's t-test on the logarithms of the figures.
 *                    The change is the ratio of geometric means, its
 *                    interval exp(d -/+ t se) - 1: always above -100%,
 *                    and skew that is multiplicative (a cache warming, a
 *                    writeback burst) becomes symmetric. The default.
 *   STATS_TEST_WELCH Welch's t-test on the figures, Fieller's interval
 *                    of the ratio of means (stats_compare()).
 *   STATS_TEST_RANK  Mann-Whitney U (stats_rank_compare()): no
 *                    assumption of shape, but with 3 repeats a side its
 *                    smallest p is 0.1, so it needs 4 or more.
 */
enum stats_test {
	STATS_TEST_LOG,
	STATS_TEST_WELCH,
	STATS_TEST_RANK,
	STATS_TEST__COUNT,
};

/* "log", "welch", "rank"; NULL out of range. */
const char *stats_test_key(enum stats_test t);
/* The test named key (as stats_test_key() spells it); -1 if none. */
int stats_test_parse(const char *key, enum stats_test *t);

/*
 * b against a by Welch's t-test on ln(v): c->diff is mean(ln b) -
 * mean(ln a), t, df and p are Welch's on the logs, pct is (exp(diff) -
 * 1) x 100 (the change of the geometric mean) and pct_lo, pct_hi the
 * conf interval of it, exp(diff -/+ t(conf, df) se) - 1, never at or
 * below -100%. The interval excludes 0% exactly when p < 1 - conf; se
 * is that of diff. Every figure must be finite and above 0; otherwise
 * the kind is STATS_TOO_FEW and the figures NAN. With n < 2 (and >= 1)
 * the kind is STATS_TOO_FEW, diff and pct given, the rest NAN, as
 * stats_compare() does. Both variances 0: as stats_compare().
 */
void stats_log_compare(const double *a, size_t na, const double *b, size_t nb,
    double conf, struct stats_change *c);

/*
 * b against a by the Mann-Whitney U test, two-sided: exact (every
 * arrangement of ranks counted) when there are no ties and na x nb is at
 * most STATS_RANK_EXACT_MAX, otherwise the normal approximation with the
 * tie and continuity corrections (as scipy.stats.mannwhitneyu with
 * method "exact" and "asymptotic"). c->t holds U of b (the count of
 * pairs with b > a, ties counting a half), c->df is NAN, c->diff is the
 * Hodges-Lehmann shift of ln(b) against ln(a) (the median of the na x nb
 * differences ln b_j - ln a_i), pct is (exp(diff) - 1) x 100, the median
 * ratio, and pct_lo, pct_hi its distribution-free interval (Moses: order
 * statistics k and na nb + 1 - k of the differences, k the largest whose
 * coverage by U's exact distribution, or its normal approximation with
 * the continuity correction when na x nb > STATS_RANK_EXACT_MAX, is at
 * least conf); both NAN when no such interval exists (3 and 3 cannot
 * reach 95%: their widest interval, the whole range, covers 90%). Without
 * ties the interval excludes 0% exactly when p < 1 - conf. c->se is the
 * half-width of that interval in ln units over the normal quantile of its
 * own coverage (of the whole range when none reaches conf). Any sizes:
 * U costs a sort, each order statistic 64 passes over the samples, and no
 * array of the pairs is built. Figures finite and above 0, else
 * STATS_TOO_FEW with NAN figures; n < 2 (and >= 1): STATS_TOO_FEW with
 * diff and pct given.
 */
#define STATS_RANK_EXACT_MAX 400
void stats_rank_compare(const double *a, size_t na, const double *b, size_t nb,
    double conf, struct stats_change *c);

/* stats_log_compare(), stats_compare() or stats_rank_compare(). */
void stats_compare_by(enum stats_test t, const double *a, size_t na,
    const double *b, size_t nb, double conf, struct stats_change *c);

/*
 * Equivalence by two one-sided tests (TOST) at level alpha each: the
 * change of b against a lies within -margin..+margin percent (margin
 * 2.0 is +-2%) when the (1 - 2 alpha) interval of test t lies inside
 * it. *lo and *hi get that interval (NAN when it has none: then false).
 */
bool
stats_equivalent(enum stats_test t, const double *a, size_t na, const double *b,
    size_t nb, double alpha, double margin, double *lo, double *hi);

/*
 * Benjamini-Hochberg adjusted p-values (q-values) of p[0..n): q_(i) =
 * min over j >= i of p_(j) n / j, at most 1, in the order given. A NAN
 * p is no test: its q is NAN and it does not count in n. Returns the
 * number of tests counted. With every null true, rejecting where q <
 * alpha keeps the chance of any false rejection at most alpha.
 */
size_t stats_bh(const double *p, size_t n, double *q);
/* Holm's step-down adjusted p-values, for the family-wise rate; NAN as
   stats_bh(). Returns the tests counted. */
size_t stats_holm(const double *p, size_t n, double *q);

/*
 * The confidence level of the intervals shown beside a family of m tests
 * of which r were rejected at alpha after Benjamini-Hochberg
 * (Benjamini and Yekutieli's false coverage-statement rate): 1 - max(r,
 * 1) alpha / m. With it a shown interval excludes 0% exactly where the
 * adjusted verdict says "different". conf itself when m is 0.
 */
double stats_fcr_conf(size_t m, size_t r, double alpha);

/*
 * The smallest change in percent (of the geometric mean, > 0) that
 * samples of na and nb repeats with these coefficients of variation
 * would show with probability power (0.8) at conf: (exp((t(conf, df) +
 * t(power, df)) s) - 1) x 100, s = sqrt(ln(1 + cva^2)/na + ln(1 +
 * cvb^2)/nb), Welch-Satterthwaite df. The rank test's is the log test's
 * with s times sqrt(pi/3) (it needs pi/3 the repeats: its efficiency is
 * 3/pi). Welch's is x x 100 with x = (t(conf, df) + t(power, df))
 * sqrt(cva^2/na + (1 + x)^2 cvb^2/nb), df of those two terms (the
 * variant's spread grows with its mean), and INFINITY when no rise would
 * do (Welch's t cannot pass sqrt(nb)/cvb). 0 when both cvs are 0; NAN
 * when a cv is NAN or n < 2.
 */
double stats_mde(enum stats_test t, double cva, double cvb, size_t na,
    size_t nb, double conf, double power);

/*
 * Repeats per side (>= 3, at most max) that would settle a change now
 * measured at pct percent with these CVs, with probability power: tell
 * it from no change (at conf) when |pct| >= margin, or show it inside
 * +-margin (TOST, 1 - conf a side) when |pct| < margin. The power is
 * that of stats_mde() for the first (the same scales and spreads), and
 * for the second the sum of the two one-sided tests' t powers less 1. 0
 * when it cannot be told (NAN inputs, |pct| = margin) or would exceed
 * max.
 */
size_t stats_n_settle(enum stats_test t, double cva, double cvb, double pct,
    double margin, double conf, double power, size_t max);

/*
 * The geometric mean of k ratios given as log-ratios lr[i] with standard
 * errors se[i] and degrees of freedom df[i] (each from its own test;
 * treated as independent): *gm = exp(mean lr), and its conf interval
 * exp(mean -/+ t(conf, df*) sqrt(sum se^2) / k), df* by
 * Welch-Satterthwaite over the terms; a term whose df is NAN or
 * infinite (the rank test's, or one whose variances were 0) counts as
 * normal. All se 0: *lo = *hi = *gm. NAN outputs when k is 0, an lr or
 * se is not finite or an se or df is negative.
 */
void stats_geomean_ratio(const double *lr, const double *se, const double *df,
    size_t k, double conf, double *gm, double *lo, double *hi);

/*
 * One effect measured in k blocks (the hosts of a fleet, each running
 * every variant): lr[i] is block i's log-ratio, se[i] its standard error
 * and df[i] its degrees of freedom (NAN or infinite: normal). The
 * blocks are weighted equally (each ran the same lab: a balanced
 * design, where weights from a few repeats' variances would add noise,
 * not precision), mean = mean lr. Two standard errors of it:
 *   se_between  sd(lr) / sqrt(k), on k - 1 df: the blocks as a random
 *               sample of hosts, their disagreement included (the
 *               paired t-test over blocks, the randomized block design);
 *   se_within   sqrt(sum se^2) / k, Welch-Satterthwaite df: what the
 *               repeats alone allow (stats_geomean_ratio()'s).
 * The interval is the wider of the two at conf and p the larger, so
 * that a few hosts agreeing by chance never make the interval narrower
 * than their own repeats allow (as the Hartung-Knapp interval is kept
 * at least as wide as the fixed-effect one, Roever et al. 2015); the
 * interval excludes 0 exactly when p < 1 - conf. between says which;
 * se, df and t are its. Heterogeneity, descriptive: Cochran's Q with
 * weights 1/se^2, I^2 = max(0, (Q - (k - 1)) / Q) in percent (0 when Q
 * is 0) and DerSimonian-Laird's tau^2; all three NAN when an se is 0.
 * Every output NAN when k < 2, an lr or se is not finite, an se or df
 * is negative, or conf is not within (0, 1).
 */
struct stats_meta {
	size_t k;
	double mean; /* of lr: the combined log-ratio */
	double se, df, t, p; /* of the chosen interval; p two-sided */
	bool between; /* se_between chosen (else se_within) */
	double se_between, se_within, df_within;
	double lo, hi; /* the conf interval of mean, log scale */
	double q_stat, i2, tau2;
};
void stats_meta_blocks(const double *lr, const double *se, const double *df,
    size_t k, double conf, struct stats_meta *m);

/*
 * The smallest n per sample (>= 3, at most max) for which a change of
 * pct percent would lie just outside the conf interval (even odds of
 * telling it), given the samples' coefficients of variation: the n where
 * t(conf, 2n - 2) x sqrt((cva^2 + r^2 cvb^2) / n) x 100 < |pct|, r = 1 +
 * pct / 100. 0 when it cannot be told (a NAN input, pct 0) or would
 * exceed max.
 */
size_t
stats_n_needed(double cva, double cvb, double pct, double conf, size_t max);

/*
 * The rounds a sample needs for its interval's half-width to be within
 * goal (a fraction of the mean: 0.02 is +-2%) if its CV stays as it is:
 * the smallest n with t(conf, n - 1) x cv / sqrt(n) <= goal, at least 2,
 * at most max (max when cv is NAN).
 */
size_t stats_rounds_needed(double cv, double goal, double conf, size_t max);

/* ---------------------------------------------------------------- stable */

/*
 * Mann-Kendall's test for a monotonic trend of v against its index:
 * Kendall's tau (-1: falls at every step, +1: rises) in *tau and the
 * two-sided p-value, exact (every ordering counted) for n <= 10 without
 * ties, the normal approximation with the tie and continuity corrections
 * otherwise. NAN (and *tau NAN) when n < 3. Four values that fall at
 * every step give p = 1/12.
 */
double stats_trend(const double *v, size_t n, double *tau);

/* The score outliers are judged by: |x - median| / (1.4826 MAD), where
   MAD is the median absolute deviation (Iglewicz and Hoaglin's modified
   z-score). A score over STATS_OUTLIER_Z marks an outlier. */
#define STATS_OUTLIER_Z 3.5

/*
 * Mark out[i] for each v[i] whose score is over STATS_OUTLIER_Z (out[0..n)
 * is cleared first); returns how many. With MAD 0 (more than half the
 * values equal), a value more than 5% off the median counts. None when
 * n < 3.
 */
size_t stats_outliers(const double *v, size_t n, bool *out);

/*
 * The first value is a warm-up: n >= 3, v[0] lies outside the range of
 * the rest, and its score against the rest (their median and MAD, as
 * stats_outliers() scores) is over STATS_OUTLIER_Z, or with the rest's
 * MAD 0, it differs from them by more than 5%.
 */
bool stats_warmup(const double *v, size_t n);

#endif
