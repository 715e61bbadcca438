/*
 * The Mann-Whitney U test with the Hodges-Lehmann shift and Moses's
 * distribution-free interval of it. See stats.h. Pure functions of their
 * arguments, callable from any thread.
 *
 * No array of the na x nb pairwise differences is ever built: an order
 * statistic of them is found by bisecting over the doubles themselves,
 * counting the differences at or below a candidate in one merge-like pass
 * of the two sorted samples (at most 64 passes of na + nb steps). So
 * 10000 against 10000 repeats (1e8 differences) costs what sorting them
 * costs, and there is no cap on the sizes.
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "stats-int.h"
#include "stats.h"

/* A tail probability this close (relatively) to the level it is compared
   with counts as at the level: 1 - 0.9 is 0.09999999999999998 in doubles,
   and 3 against 3 reaches 90% exactly. */
#define LEVEL_SLACK 1e-9

/* One figure of the pooled sample and the side it came from. */
struct pooled {
	double v;
	bool in_b;
};

static int
cmp_pooled(const void *pa, const void *pb)
{
	const struct pooled *a = pa, *b = pb;

	return (a->v > b->v) - (a->v < b->v);
}

/*
 * U of b (the rank sum of b in the pooled sample, ties at their mid-rank,
 * less nb (nb + 1) / 2) and the tie term, the sum over groups of equal
 * figures of t^3 - t; returns whether there were ties.
 */
static bool
rank_u(const double *a, size_t na, const double *b, size_t nb, double *u,
    double *tie_term)
{
	size_t n = na + nb;
	struct pooled *p = xmalloc(n * sizeof *p);
	double rb = 0;

	for (size_t i = 0; i < na; i++)
		p[i] = (struct pooled){ a[i], false };
	for (size_t j = 0; j < nb; j++)
		p[na + j] = (struct pooled){ b[j], true };
	qsort(p, n, sizeof *p, cmp_pooled);
	*tie_term = 0;
	for (size_t i = 0, j; i < n; i = j) {
		double t, mid;

		for (j = i + 1; j < n && p[j].v == p[i].v; j++)
			;
		/* Ranks i + 1 .. j share their mean. */
		t = (double)(j - i);
		mid = ((double)i + 1 + (double)j) / 2;
		for (size_t k = i; k < j; k++)
			if (p[k].in_b)
				rb += mid;
		*tie_term += t * t * t - t;
	}
	free(p);
	*u = rb - (double)nb * ((double)nb + 1) / 2;
	return *tie_term > 0;
}

/*
 * The exact null distribution of U for samples of m and n figures without
 * ties: cnt[u] arrangements (of the C(m + n, m) equally likely) give U =
 * u, u = 0..mn. These are the coefficients of the Gaussian binomial [m +
 * n, m]_q, the product over i = 1..m of (1 - q^(n + i)) / (1 - q^i),
 * built one factor pair at a time so that every step is again a Gaussian
 * binomial of nonnegative counts below C(m + n, m). cnt has m n + m + 1
 * places; returns the total, C(m + n, m).
 */
static double
u_counts(size_t m, size_t n, int64_t *cnt)
{
	size_t deg = 0;
	int64_t total = 0;

	memset(cnt, 0, (m * n + m + 1) * sizeof *cnt);
	cnt[0] = 1;
	for (size_t i = 1; i <= m; i++) {
		size_t up = n + i;

		/* Times (1 - q^up), from the top so each term reads the
		   old one. */
		for (size_t k = deg + up; k >= up; k--)
			cnt[k] -= cnt[k - up];
		deg += up;
		/* Over (1 - q^i): Q[k] = P[k] + Q[k - i], from the bottom. */
		for (size_t k = i; k <= deg; k++)
			cnt[k] += cnt[k - i];
		deg -= i;
	}
	for (size_t k = 0; k <= deg; k++)
		total += cnt[k];
	return (double)total;
}

/* P(U <= u) from the counts of u_counts(). */
static double
u_cdf(const int64_t *cnt, double total, size_t u)
{
	int64_t s = 0;

	for (size_t k = 0; k <= u; k++)
		s += cnt[k];
	return (double)s / total;
}

/* ---------------------------------------------------------------- shift */

/* A signed integer in the order of the doubles: -0 and +0 both 0. */
static int64_t
dkey(double x)
{
	int64_t i;

	memcpy(&i, &x, sizeof i);
	return i < 0 ? INT64_MIN - i : i;
}

static double
dval(int64_t k)
{
	int64_t i = k < 0 ? INT64_MIN - k : k;
	double x;

	memcpy(&x, &i, sizeof x);
	return x;
}

/*
 * How many differences lb[j] - la[i] are at or below x, la and lb sorted
 * ascending. For each j they are those with i at or past a point that
 * only moves forward as j grows.
 */
static uint64_t
count_at_most(const double *la, size_t na, const double *lb, size_t nb,
    double x)
{
	uint64_t cnt = 0;
	size_t p = 0;

	for (size_t j = 0; j < nb; j++) {
		while (p < na && lb[j] - la[p] > x)
			p++;
		cnt += na - p;
	}
	return cnt;
}

/*
 * The k-th smallest (1-based, 1 <= k <= na nb) of the differences lb[j] -
 * la[i]: the smallest double x with at least k differences at or below
 * it, which is one of them. Bisection over the doubles in order between
 * the smallest and largest difference: at most 64 steps.
 */
static double
kth_diff(const double *la, size_t na, const double *lb, size_t nb, uint64_t k)
{
	/* count(lo) < k <= count(hi) throughout. */
	int64_t lo = dkey(lb[0] - la[na - 1]) - 1;
	int64_t hi = dkey(lb[nb - 1] - la[0]);

	while ((uint64_t)hi - (uint64_t)lo > 1) {
		int64_t mid = lo + (int64_t)(((uint64_t)hi - (uint64_t)lo) / 2);

		if (count_at_most(la, na, lb, nb, dval(mid)) >= k)
			hi = mid;
		else
			lo = mid;
	}
	return dval(hi);
}

/* The median of the differences. */
static double
hodges_lehmann(const double *la, size_t na, const double *lb, size_t nb)
{
	uint64_t N = (uint64_t)na * nb;

	if (N % 2 == 1)
		return kth_diff(la, na, lb, nb, N / 2 + 1);
	return kth_diff(la, na, lb, nb, N / 2) / 2 +
	    kth_diff(la, na, lb, nb, N / 2 + 1) / 2;
}

/*
 * Moses's interval is the k-th smallest to the k-th largest difference;
 * it misses the true shift with probability 2 P(U <= k - 1) under the
 * null distribution of U. k is the largest with that at most 1 - cover,
 * 0 when even k = 1 (the whole range) falls short. *miss gets the two
 * tails' probability of k, or of 1 when k is 0.
 */
static uint64_t
moses_k(const int64_t *cnt, double total, size_t na, size_t nb, double cover,
    double *miss)
{
	double N = (double)na * (double)nb, tail = (1 - cover) / 2;
	uint64_t k = 0;

	if (cnt != NULL) {
		/* The counts rise to the middle: stop at the first too big. */
		while (k < (uint64_t)N / 2 &&
		    u_cdf(cnt, total, k) <= tail * (1 + LEVEL_SLACK))
			k++;
		*miss = 2 * u_cdf(cnt, total, (k > 0 ? k : 1) - 1);
	} else {
		/* Normal with the continuity correction: P(U <= k - 1) =
		   Phi((k - 1/2 - N/2) / sd) <= tail. */
		double sd = sqrt(N * ((double)(na + nb) + 1) / 12);
		double kk =
		    floor(N / 2 - stats_z_quantile(1 - tail) * sd + 0.5);

		k = kk >= 1 ? (uint64_t)kk : 0;
		*miss = erfc(
		    -(((double)(k > 0 ? k : 1) - 0.5 - N / 2) / sd) / M_SQRT2);
	}
	return k;
}

/* Sorted logs of v[0..n) in a new array; NULL when a figure is not finite
   and above 0. */
static double *
sorted_logs(const double *v, size_t n)
{
	double *l = xmalloc(n * sizeof *l);

	for (size_t i = 0; i < n; i++) {
		if (!(v[i] > 0) || !isfinite(v[i])) {
			free(l);
			return NULL;
		}
		l[i] = log(v[i]);
	}
	qsort(l, n, sizeof *l, stats_cmp_double);
	return l;
}

/* The shift, its interval at conf and se, from sorted logs. */
static void
rank_shift(const double *la, size_t na, const double *lb, size_t nb,
    const int64_t *cnt, double total, double conf, struct stats_change *c)
{
	uint64_t N = (uint64_t)na * nb, k, ks;
	double miss, lo, hi, z;

	k = moses_k(cnt, total, na, nb, conf, &miss);
	if (k > 0) {
		lo = kth_diff(la, na, lb, nb, k);
		hi = kth_diff(la, na, lb, nb, N + 1 - k);
		c->pct_lo = expm1(lo) * 100;
		c->pct_hi = expm1(hi) * 100;
	}
	/* se: the interval's half-width over the normal quantile of its own
	   coverage, from the whole range when no interval reaches conf. */
	ks = k > 0 ? k : 1;
	if (k == 0) {
		lo = kth_diff(la, na, lb, nb, ks);
		hi = kth_diff(la, na, lb, nb, N + 1 - ks);
	}
	z = miss < 1 ? stats_z_quantile(1 - miss / 2) : NAN;
	c->se = z > 0 ? (hi - lo) / (2 * z) : NAN;
}

/*
 * Exact: P(U >= Umax) + P(U <= N - Umax), which by symmetry is twice the
 * lower tail at N - Umax. Asymptotic: z = (Umax - N/2 - 1/2) / sd with
 * the tie-corrected sd, p = 2 (1 - Phi(z)), at most 1.
 */
void
stats_rank_compare(const double *a, size_t na, const double *b, size_t nb,
    double conf, struct stats_change *c)
{
	double *la = NULL, *lb = NULL, u, tie_term, N, umax, total = 0;
	int64_t *cnt = NULL;
	bool ties;

	c->kind = STATS_TOO_FEW;
	c->test = STATS_TEST_RANK;
	c->diff = c->t = c->df = c->p = c->pct = c->se = NAN;
	c->pct_lo = c->pct_hi = NAN;
	if (na == 0 || nb == 0)
		return;
	la = sorted_logs(a, na);
	lb = sorted_logs(b, nb);
	if (la == NULL || lb == NULL)
		goto out;
	c->diff = hodges_lehmann(la, na, lb, nb);
	c->pct = expm1(c->diff) * 100;
	if (na < 2 || nb < 2)
		goto out;

	ties = rank_u(a, na, b, nb, &u, &tie_term);
	c->t = u;
	N = (double)na * (double)nb;
	umax = fmax(u, N - u);
	if (N <= STATS_RANK_EXACT_MAX) {
		size_t m = na < nb ? na : nb, n = na < nb ? nb : na;

		cnt = xmalloc((m * n + m + 1) * sizeof *cnt);
		total = u_counts(m, n, cnt);
	}
	if (cnt != NULL && !ties) {
		c->p = 2 * u_cdf(cnt, total, (size_t)(N - umax));
	} else {
		double nn = (double)(na + nb);
		double var = N / 12 * (nn + 1 - tie_term / (nn * (nn - 1)));
		double z = (umax - N / 2 - 0.5) / sqrt(var);

		c->p = var > 0 ? erfc(z / M_SQRT2) : 1;
	}
	if (c->p > 1)
		c->p = 1;
	rank_shift(la, na, lb, nb, cnt, total, conf, c);
	c->kind = c->p < 1 - conf ? STATS_DIFFERENT : STATS_NO_DIFFERENCE;
out:
	free(cnt);
	free(la);
	free(lb);
}
