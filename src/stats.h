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
};

/* b (a variant) against a (the baseline). The kind is decided by p; on
   paper Fieller's interval then agrees, and where rounding at the very
   boundary could make them differ, p wins. */
void stats_compare(const double *a, size_t na, const double *b, size_t nb,
    double conf, struct stats_change *c);

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
