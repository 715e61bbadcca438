/*
 * The statistics behind every verdict: Student's t through the regularized
 * incomplete beta function, Welch's test and Fieller's interval for two
 * samples, Mann-Kendall's trend test and the median/MAD outlier score. See
 * stats.h. No state and no locale: callable from any thread (lgamma_r, not
 * lgamma, so that nothing writes signgam).
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "stats-int.h"
#include "stats.h"

/* The continued fraction stops when a step changes it by less than this. */
#define CF_EPS 1e-15
/* Lentz's stand-in for a zero denominator. */
#define CF_TINY 1e-300
/* The fraction takes about 4 sqrt(df) terms at its slowest point, and its
   rounding grows with them: relative 1e-11 at df = 1e6, 3e-10 at 1e7.
   Above DF_NORMAL the normal distribution with its first correction in
   1/df (below 1e-16 relative for |t| < 6 there) takes over. */
#define CF_MAX 100000
#define DF_NORMAL 1e8

/* Above this a, ln Gamma(a + 1/2) - ln Gamma(a) comes from Stirling's
   series, whose omitted terms are below 1e-17 there; below it, from
   lgamma_r, whose absolute error is then below 1e-15. */
#define STIRLING_MIN 8.0

/* ---------------------------------------------------------------- t */

/* Stirling's series of ln Gamma(x) without its (x - 1/2) ln x - x +
   ln(2 pi)/2 part: the sum of B_2k / (2k (2k - 1) x^(2k - 1)), k = 1..6. */
static double
stirling_tail(double x)
{
	static const double c[] = {
		1.0 / 12,
		-1.0 / 360,
		1.0 / 1260,
		-1.0 / 1680,
		1.0 / 1188,
		-691.0 / 360360,
	};
	double x2 = x * x, p = 1.0 / x, s = 0;

	for (size_t k = 0; k < sizeof c / sizeof c[0]; k++) {
		s += c[k] * p;
		p /= x2;
	}
	return s;
}

/*
 * ln Gamma(a + 1/2) - ln Gamma(a) for a > 0. Differencing two lgamma
 * values of size a ln a would lose their absolute error (about 1e-16 a ln
 * a) in the result, which is only about (ln a) / 2; for large a the
 * difference of Stirling's series is written so that the big terms
 * cancel on paper: (a) ln(a + 1/2) - (a - 1/2) ln a - 1/2 = ln(a) / 2 +
 * a log1p(1 / 2a) - 1/2.
 */
static double
lgamma_half_step(double a)
{
	int sign;

	if (a < STIRLING_MIN)
		return lgamma_r(a + 0.5, &sign) - lgamma_r(a, &sign);
	return 0.5 * log(a) + (a * log1p(0.5 / a) - 0.5) +
	    (stirling_tail(a + 0.5) - stirling_tail(a));
}

/*
 * The continued fraction of I_x(a, b) (DLMF 8.17.22) by the modified
 * Lentz method: I_x(a, b) = x^a (1 - x)^b / (a B(a, b)) / F with F = 1 +
 * d1 / (1 + d2 / (1 + ...)), d_2m = m (b - m) x / ((a + 2m - 1)(a + 2m)),
 * d_2m+1 = -(a + m)(a + b + m) x / ((a + 2m)(a + 2m + 1)). Returns F; it
 * converges quickly for x < (a + 1) / (a + b + 2).
 */
static double
beta_cf(double a, double b, double x)
{
	double f = 1, c = 1, d = 0;

	for (long j = 1; j <= CF_MAX; j++) {
		long m = j / 2;
		double aj, delta;

		if (j % 2 == 0)
			aj = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
		else
			aj = -(a + m) * (a + b + m) * x /
			    ((a + 2 * m) * (a + 2 * m + 1));
		d = 1 + aj * d;
		if (fabs(d) < CF_TINY)
			d = CF_TINY;
		c = 1 + aj / c;
		if (fabs(c) < CF_TINY)
			c = CF_TINY;
		d = 1 / d;
		delta = c * d;
		f *= delta;
		if (fabs(delta - 1) < CF_EPS)
			break;
	}
	return f;
}

/*
 * P(|T| > |t|) for T ~ t(df): I_x(df/2, 1/2) with x = df / (df + t^2),
 * whose complement 1 - x = t^2 / (df + t^2) is kept apart so that
 * neither loses digits near 0 or 1. The fraction is evaluated on
 * whichever side converges, by I_x(a, b) = 1 - I_(1-x)(b, a).
 */
static double
t_two_tail(double t, double df)
{
	double a = df / 2, b = 0.5, u = t * t / df;
	double x, y, lx, ly, lbeta, front;

	if (u == 0)
		return 1;
	if (isinf(u))
		return 0;
	if (df > DF_NORMAL) {
		/* P(T <= t) = Phi(t) - phi(t) (t^3 + t) / 4df + O(1/df^2). */
		double at = fabs(t);
		double phi = exp(-at * at / 2) / sqrt(2 * M_PI);

		return erfc(at / M_SQRT2) +
		    phi * (at * at * at + at) / (2 * df);
	}
	x = 1 / (1 + u);
	if (u >= 1) {
		y = 1 / (1 + 1 / u);
		ly = -log1p(1 / u);
	} else {
		y = u / (1 + u);
		ly = log(u) - log1p(u);
	}
	lx = -log1p(u);
	/* ln B(a, 1/2) = ln Gamma(1/2) + ln Gamma(a) - ln Gamma(a + 1/2). */
	lbeta = 0.5 * log(M_PI) - lgamma_half_step(a);
	front = exp(a * lx + b * ly - lbeta);
	if (x < (a + 1) / (a + b + 2))
		return front / (a * beta_cf(a, b, x));
	return 1 - front / (b * beta_cf(b, a, y));
}

double
stats_t_cdf(double t, double df)
{
	double tail;

	if (isnan(t) || isnan(df) || df <= 0)
		return NAN;
	tail = t_two_tail(t, df) / 2;
	return t < 0 ? tail : 1 - tail;
}

/* The density of t(df) at t. */
static double
t_pdf(double t, double df)
{
	double a = df / 2;

	return exp(lgamma_half_step(a) - 0.5 * log(df * M_PI) -
	    (a + 0.5) * log1p(t * t / df));
}

/*
 * The t <= 0 with P(T <= t) = q, for 0 < q <= 1/2: a bracket found by
 * doubling, then Newton's steps, any that would leave the bracket
 * replaced by bisection, until t is known to about 1e-14 relative.
 */
static double
t_lower_quantile(double q, double df)
{
	double lo = -1, hi = 0, t, f;

	if (q == 0.5)
		return 0;
	while (stats_t_cdf(lo, df) > q) {
		hi = lo;
		lo *= 2;
		if (isinf(lo))
			return -INFINITY;
	}
	t = (lo + hi) / 2;
	for (int i = 0; i < 400; i++) {
		double next, d;

		f = stats_t_cdf(t, df) - q;
		if (f == 0)
			break;
		if (f > 0)
			hi = t;
		else
			lo = t;
		d = t_pdf(t, df);
		next = d > 0 ? t - f / d : NAN;
		if (!(next > lo && next < hi))
			next = lo / 2 + hi / 2;
		if (fabs(next - t) <= 1e-14 * fabs(t) || next == lo ||
		    next == hi) {
			t = next;
			break;
		}
		t = next;
	}
	return t;
}

double
stats_t_quantile(double p, double df)
{
	if (isnan(p) || isnan(df) || df <= 0 || p <= 0 || p >= 1)
		return NAN;
	/* 1 - p is exact for p >= 1/2, so the upper half loses nothing. */
	if (p < 0.5)
		return t_lower_quantile(p, df);
	return -t_lower_quantile(1 - p, df);
}

/* Where t's CDF is the normal's to 1e-15 (its 1/df correction is below
   that), and the incomplete beta still sees t^2 / df > 0. */
#define DF_Z 1e15

double
stats_t_crit(double conf, double df)
{
	return stats_t_quantile((1 + conf) / 2, isinf(df) ? DF_Z : df);
}

double
stats_z_quantile(double p)
{
	return stats_t_quantile(p, DF_Z);
}

/* ---------------------------------------------------------------- one */

int
stats_cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return (a > b) - (a < b);
}

/* The median of the sorted s[0..n), n > 0. */
static double
median_sorted(const double *s, size_t n)
{
	if (n % 2 == 1)
		return s[n / 2];
	return s[n / 2 - 1] / 2 + s[n / 2] / 2;
}

/* The median of v[0..n), n > 0, sorted in a copy. */
static double
median_of(const double *v, size_t n)
{
	double *s = xmalloc(n * sizeof *s), m;

	memcpy(s, v, n * sizeof *s);
	qsort(s, n, sizeof *s, stats_cmp_double);
	m = median_sorted(s, n);
	free(s);
	return m;
}

/* By two passes with the mean corrected by the first pass's residue; all
   equal values are caught first, so that equal samples compare as equal. */
void
stats_mean_var(const double *v, size_t n, double *mean, double *var)
{
	double sum = 0, m, r = 0, ss = 0;
	bool same = true;

	for (size_t i = 0; i < n; i++) {
		sum += v[i];
		same = same && v[i] == v[0];
	}
	if (same) {
		*mean = v[0];
		*var = 0;
		return;
	}
	m = sum / n;
	for (size_t i = 0; i < n; i++)
		r += v[i] - m;
	m += r / n;
	for (size_t i = 0; i < n; i++)
		ss += (v[i] - m) * (v[i] - m);
	*mean = m;
	*var = n > 1 ? ss / (n - 1) : 0;
}

void
stats_describe(const double *v, size_t n, double conf, struct stats_desc *d)
{
	double var, *s;

	d->n = n;
	d->mean = d->sd = d->cv = d->median = d->min = d->max = NAN;
	d->ci_lo = d->ci_hi = d->ci_half = NAN;
	if (n == 0)
		return;
	stats_mean_var(v, n, &d->mean, &var);
	d->sd = sqrt(var);
	s = xmalloc(n * sizeof *s);
	memcpy(s, v, n * sizeof *s);
	qsort(s, n, sizeof *s, stats_cmp_double);
	d->min = s[0];
	d->max = s[n - 1];
	d->median = median_sorted(s, n);
	free(s);
	if (n < 2)
		return;
	if (d->mean != 0)
		d->cv = d->sd / fabs(d->mean);
	d->ci_half =
	    stats_t_crit(conf, (double)(n - 1)) * d->sd / sqrt((double)n);
	d->ci_lo = d->mean - d->ci_half;
	d->ci_hi = d->mean + d->ci_half;
}

void
stats_log_interval(const double *v, size_t n, double conf, double *lo,
    double *hi)
{
	double *l, m, var, h;

	*lo = *hi = NAN;
	if (n < 2)
		return;
	l = xmalloc(n * sizeof *l);
	for (size_t i = 0; i < n; i++) {
		if (!(v[i] > 0) || !isfinite(v[i])) {
			free(l);
			return;
		}
		l[i] = log(v[i]);
	}
	stats_mean_var(l, n, &m, &var);
	free(l);
	h = stats_t_crit(conf, (double)(n - 1)) * sqrt(var / (double)n);
	*lo = exp(m - h);
	*hi = exp(m + h);
}

/* ---------------------------------------------------------------- two */

/*
 * Fieller's interval of r = mb / ma: the r with (mb - r ma)^2 <= q (B + r^2
 * A), q = t^2, A = va/na, B = vb/nb, i.e. r^2 (ma^2 - qA) - 2 r ma mb +
 * (mb^2 - qB) <= 0, an interval between the roots when ma^2 > qA. The
 * discriminant ma^2 mb^2 - (ma^2 - qA)(mb^2 - qB) is written as q (A mb^2 +
 * B (ma^2 - qA)), which has no cancellation.
 */
static void
fieller(double ma, double A, double mb, double B, double q,
    struct stats_change *c)
{
	double g = ma * ma - q * A, disc, r1, r2;

	if (!(g > 0))
		return;
	disc = q * (A * mb * mb + B * g);
	r1 = (ma * mb - sqrt(disc)) / g;
	r2 = (ma * mb + sqrt(disc)) / g;
	/* A ratio of two positive figures is never below 0: a lower root
	   under it only says the variant's own mean is not clearly above
	   0, so the interval is cut at -100%. */
	if (ma > 0 && mb >= 0 && r1 < 0)
		r1 = 0;
	c->pct_lo = (r1 - 1) * 100;
	c->pct_hi = (r2 - 1) * 100;
}

void
stats_welch(double ma, double va, size_t na, double mb, double vb, size_t nb,
    double conf, struct stats_change *c)
{
	double A = va / (double)na, B = vb / (double)nb, se2 = A + B;

	c->diff = mb - ma;
	c->se = sqrt(se2);
	if (se2 == 0) {
		/* Nothing varies: the means are the whole truth. */
		c->t = c->diff == 0 ? 0 : copysign(INFINITY, c->diff);
		c->df = NAN;
		c->p = c->diff == 0 ? 1 : 0;
	} else {
		c->t = c->diff / c->se;
		c->df = se2 * se2 /
		    (A * A / (double)(na - 1) + B * B / (double)(nb - 1));
		c->p = 2 * stats_t_cdf(-fabs(c->t), c->df);
		if (c->p > 1)
			c->p = 1;
	}
	c->kind = c->p < 1 - conf ? STATS_DIFFERENT : STATS_NO_DIFFERENCE;
}

/*
 * On paper Fieller's interval excludes r = 1 exactly when (mb - ma)^2 >
 * q (A + B), i.e. |t| > t(conf, df), i.e. p < 1 - conf, since both use
 * Welch's df; the kind is decided by p, so a rounding difference right at
 * the boundary cannot make the verdict and the p-value disagree.
 */
void
stats_compare(const double *a, size_t na, const double *b, size_t nb,
    double conf, struct stats_change *c)
{
	double ma, va, mb, vb;

	c->kind = STATS_TOO_FEW;
	c->test = STATS_TEST_WELCH;
	c->diff = c->t = c->df = c->p = c->pct = c->se = NAN;
	c->pct_lo = c->pct_hi = NAN;
	if (na > 0 && nb > 0) {
		stats_mean_var(a, na, &ma, &va);
		stats_mean_var(b, nb, &mb, &vb);
		c->diff = mb - ma;
		if (ma != 0)
			c->pct = (mb / ma - 1) * 100;
	}
	if (na < 2 || nb < 2)
		return;
	stats_welch(ma, va, na, mb, vb, nb, conf, c);
	if (c->se == 0) {
		c->pct_lo = c->pct_hi = c->pct;
	} else if (ma != 0) {
		double tc = stats_t_crit(conf, c->df);

		fieller(ma, va / (double)na, mb, vb / (double)nb, tc * tc, c);
	}
}

/* Whether n per sample would tell a change of pct (see stats.h). */
static bool
n_tells(size_t n, double cv2, double pct, double conf)
{
	double df = 2 * (double)n - 2;

	return stats_t_crit(conf, df) * sqrt(cv2 / (double)n) * 100 < fabs(pct);
}

/* The left side falls as n grows (t's quantile falls with df, and so does
   1/sqrt(n)), so the smallest n that tells is found by bisection. */
size_t
stats_n_needed(double cva, double cvb, double pct, double conf, size_t max)
{
	/* The change's relative variance: cva^2 + r^2 cvb^2 with r the
	   ratio of the means, as the delta method gives it. */
	double r = 1 + pct / 100, cv2 = cva * cva + r * r * cvb * cvb;
	size_t lo = 3, hi = max;

	if (isnan(cv2) || isnan(pct) || pct == 0 || max < 3)
		return 0;
	if (n_tells(lo, cv2, pct, conf))
		return lo;
	if (!n_tells(hi, cv2, pct, conf))
		return 0;
	/* n_tells(lo) is false, n_tells(hi) true. */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (n_tells(mid, cv2, pct, conf))
			hi = mid;
		else
			lo = mid;
	}
	return hi;
}

static bool
rounds_enough(size_t n, double cv, double goal, double conf)
{
	return stats_t_crit(conf, (double)n - 1) * cv / sqrt((double)n) <= goal;
}

size_t
stats_rounds_needed(double cv, double goal, double conf, size_t max)
{
	size_t lo = 2, hi = max;

	if (max < 2 || isnan(cv) || isnan(goal))
		return max;
	cv = fabs(cv);
	if (rounds_enough(lo, cv, goal, conf))
		return lo;
	if (!rounds_enough(hi, cv, goal, conf))
		return max;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (rounds_enough(mid, cv, goal, conf))
			hi = mid;
		else
			lo = mid;
	}
	return hi;
}

/* ---------------------------------------------------------------- stable */

/* The exact trend test's largest n: 10! orderings, 46 inversion counts. */
#define TREND_EXACT_MAX 10

/*
 * P(|S| >= |s|) under no trend for n <= TREND_EXACT_MAX distinct values:
 * each of the n! orderings is equally likely, and one with k inversions
 * has S = N - 2k, N = n(n - 1)/2. The number with k inversions (the
 * Mahonian numbers) follows from placing the m-th value: it adds 0..m-1
 * inversions, so M(m, k) = sum over j < m of M(m - 1, k - j).
 */
static double
trend_exact_p(size_t n, long s)
{
	uint64_t m[TREND_EXACT_MAX * (TREND_EXACT_MAX - 1) / 2 + 1] = { 1 };
	uint64_t total = 1, hit = 0;
	long big = labs(s), kmax = 0;

	for (size_t r = 2; r <= n; r++) {
		kmax += (long)r - 1;
		/* In place, from the top: M(r, k) needs M(r - 1, <= k). */
		for (long k = kmax; k >= 0; k--) {
			uint64_t sum = 0;

			for (long j = 0; j < (long)r && j <= k; j++)
				sum += m[k - j];
			m[k] = sum;
		}
		total *= r;
	}
	for (long k = 0; k <= kmax; k++)
		if (labs(kmax - 2 * k) >= big)
			hit += m[k];
	return (double)hit / (double)total;
}

double
stats_trend(const double *v, size_t n, double *tau)
{
	long s = 0;
	bool ties = false;
	double nn, var, z, *sorted;

	*tau = NAN;
	if (n < 3)
		return NAN;
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++) {
			s += (v[j] > v[i]) - (v[j] < v[i]);
			ties = ties || v[j] == v[i];
		}
	nn = (double)n;
	*tau = (double)s / (nn * (nn - 1) / 2);
	if (n <= TREND_EXACT_MAX && !ties)
		return trend_exact_p(n, s);

	/* Var S = (n(n-1)(2n+5) - sum over tied groups of t(t-1)(2t+5)) / 18.
	 */
	var = nn * (nn - 1) * (2 * nn + 5);
	sorted = xmalloc(n * sizeof *sorted);
	memcpy(sorted, v, n * sizeof *sorted);
	qsort(sorted, n, sizeof *sorted, stats_cmp_double);
	for (size_t i = 0, j; i < n; i = j) {
		double t;

		for (j = i + 1; j < n && sorted[j] == sorted[i]; j++)
			;
		t = (double)(j - i);
		var -= t * (t - 1) * (2 * t + 5);
	}
	free(sorted);
	var /= 18;
	if (!(var > 0) || s == 0)
		return 1;
	/* Continuity correction: S moves in steps of 2, half a step is 1. */
	z = (fabs((double)s) - 1) / sqrt(var);
	return fmin(1, erfc(z / M_SQRT2));
}

/* The median of v and its median absolute deviation, n > 0. */
static void
median_mad(const double *v, size_t n, double *med, double *mad)
{
	double *dev = xmalloc(n * sizeof *dev);

	*med = median_of(v, n);
	for (size_t i = 0; i < n; i++)
		dev[i] = fabs(v[i] - *med);
	*mad = median_of(dev, n);
	free(dev);
}

/* Whether x is an outlier against a sample of this median and MAD. */
static bool
is_outlier(double x, double med, double mad)
{
	/* More than half the values equal: no spread to score by, so only
	   a value more than 5% off them stands out (figures printed to a
	   few digits repeat exactly). */
	if (mad == 0)
		return fabs(x - med) > 0.05 * fabs(med);
	return fabs(x - med) / (1.4826 * mad) > STATS_OUTLIER_Z;
}

size_t
stats_outliers(const double *v, size_t n, bool *out)
{
	double med, mad;
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		out[i] = false;
	if (n < 3)
		return 0;
	median_mad(v, n, &med, &mad);
	for (size_t i = 0; i < n; i++)
		if (is_outlier(v[i], med, mad)) {
			out[i] = true;
			k++;
		}
	return k;
}

bool
stats_warmup(const double *v, size_t n)
{
	double lo, hi, med, mad;

	if (n < 3)
		return false;
	lo = hi = v[1];
	for (size_t i = 2; i < n; i++) {
		lo = fmin(lo, v[i]);
		hi = fmax(hi, v[i]);
	}
	if (v[0] >= lo && v[0] <= hi)
		return false;
	median_mad(v + 1, n - 1, &med, &mad);
	if (mad == 0)
		return fabs(v[0] - med) > 0.05 * fabs(med);
	return fabs(v[0] - med) / (1.4826 * mad) > STATS_OUTLIER_Z;
}
