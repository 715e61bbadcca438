/*
 * Many tests at once: the Benjamini-Hochberg and Holm adjustments of a
 * family's p-values, the confidence level of intervals shown beside the
 * adjusted verdicts, and one summary ratio over a variant's tests. See
 * stats.h. Pure functions of their arguments, callable from any thread.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "base/xalloc.h"
#include "stats-int.h"
#include "stats.h"

/* One p-value and where it came from. */
struct ranked {
	double p;
	size_t at;
};

static int
cmp_ranked(const void *pa, const void *pb)
{
	const struct ranked *a = pa, *b = pb;

	if (a->p != b->p)
		return (a->p > b->p) - (a->p < b->p);
	return (a->at > b->at) - (a->at < b->at);
}

/* The counted (not NAN) p-values of p[0..n), ascending, in a new array;
   NAN in q for the others. */
static struct ranked *
ranked_of(const double *p, size_t n, double *q, size_t *m)
{
	struct ranked *r = xmalloc((n > 0 ? n : 1) * sizeof *r);

	*m = 0;
	for (size_t i = 0; i < n; i++) {
		q[i] = NAN;
		if (!isnan(p[i]))
			r[(*m)++] = (struct ranked){ p[i], i };
	}
	qsort(r, *m, sizeof *r, cmp_ranked);
	return r;
}

size_t
stats_bh(const double *p, size_t n, double *q)
{
	size_t m;
	struct ranked *r = ranked_of(p, n, q, &m);
	double run = 1;

	/* From the largest down, so each is the minimum over those above. */
	for (size_t i = m; i > 0; i--) {
		double v = r[i - 1].p * (double)m / (double)i;

		if (v < run)
			run = v;
		q[r[i - 1].at] = run;
	}
	free(r);
	return m;
}

size_t
stats_holm(const double *p, size_t n, double *q)
{
	size_t m;
	struct ranked *r = ranked_of(p, n, q, &m);
	double run = 0;

	/* From the smallest up, so each is the maximum over those below. */
	for (size_t i = 0; i < m; i++) {
		double v = fmin(1, r[i].p * (double)(m - i));

		if (v > run)
			run = v;
		q[r[i].at] = run;
	}
	free(r);
	return m;
}

double
stats_fcr_conf(size_t m, size_t r, double alpha)
{
	if (m == 0)
		return 1 - alpha;
	return 1 - (double)(r > 0 ? r : 1) * alpha / (double)m;
}

/*
 * A term with a NAN or infinite df (the rank test's, or one whose
 * variances were both 0) counts as a normal one: it adds nothing to the
 * Welch-Satterthwaite denominator.
 */
void
stats_geomean_ratio(const double *lr, const double *se, const double *df,
    size_t k, double conf, double *gm, double *lo, double *hi)
{
	double sum = 0, s2 = 0, s4df = 0, h, m;

	*gm = *lo = *hi = NAN;
	if (k == 0)
		return;
	for (size_t i = 0; i < k; i++) {
		double v = se[i] * se[i];

		if (!isfinite(lr[i]) || !isfinite(se[i]) || se[i] < 0 ||
		    df[i] <= 0)
			return;
		sum += lr[i];
		s2 += v;
		if (isfinite(df[i]))
			s4df += v * v / df[i];
	}
	m = sum / (double)k;
	*gm = exp(m);
	if (s2 == 0) {
		*lo = *hi = *gm;
		return;
	}
	h = stats_t_crit(conf, s4df > 0 ? s2 * s2 / s4df : INFINITY) *
	    sqrt(s2) / (double)k;
	*lo = exp(m - h);
	*hi = exp(m + h);
}
