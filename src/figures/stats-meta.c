/*
 * One effect over many blocks (hosts): the per-block log-ratios combined
 * with equal weights, the interval the wider of the between-block one
 * (hosts as a random sample, Student's t on k - 1 df) and the
 * within-block one (each block's own standard error), and the
 * heterogeneity (Cochran's Q, I^2, DerSimonian-Laird tau^2). See
 * stats.h. Pure functions of their arguments, callable from any thread.
 */
#include "config.h"

#include <math.h>
#include <stdbool.h>

#include "stats-int.h"
#include "stats.h"

/* The two-sided p of mean against 0 with standard error se on df
   (infinite: the normal's; stats_t_cdf() takes the normal above 1e8).
   With se 0 the mean is exact: p 0 unless it is 0. */
static double
two_sided_p(double mean, double se, double df)
{
	if (!(se > 0))
		return mean != 0 ? 0 : 1;
	return 2 * stats_t_cdf(-fabs(mean / se), isfinite(df) ? df : 1e12);
}

/* Cochran's Q with inverse-variance weights, I^2 and DL tau^2; NAN
   when a block's se is 0 (an infinite weight). */
static void
heterogeneity(const double *lr, const double *se, size_t k,
    struct stats_meta *m)
{
	double sw = 0, sw2 = 0, swx = 0, q = 0, fe;

	m->q_stat = m->i2 = m->tau2 = NAN;
	for (size_t i = 0; i < k; i++) {
		if (!(se[i] > 0))
			return;
		sw += 1 / (se[i] * se[i]);
		sw2 += 1 / (se[i] * se[i] * se[i] * se[i]);
		swx += lr[i] / (se[i] * se[i]);
	}
	fe = swx / sw;
	for (size_t i = 0; i < k; i++)
		q += (lr[i] - fe) * (lr[i] - fe) / (se[i] * se[i]);
	m->q_stat = q;
	m->i2 = q > 0 ? fmax(0, (q - (double)(k - 1)) / q) * 100 : 0;
	m->tau2 = fmax(0, (q - (double)(k - 1)) / (sw - sw2 / sw));
}

/*
 * Of the two intervals, both centred on the mean, the wider holds 0
 * exactly when the larger p is at least 1 - conf: taking both the wider
 * and the larger p keeps interval and p in step.
 */
void
stats_meta_blocks(const double *lr, const double *se, const double *df,
    size_t k, double conf, struct stats_meta *m)
{
	double s2 = 0, s4df = 0, var, hb, hw, pb, pw;
	bool ok = k >= 2;

	*m = (struct stats_meta){ .k = k };
	m->mean = m->se = m->df = m->t = m->p = m->lo = m->hi = NAN;
	m->se_between = m->se_within = m->df_within = NAN;
	m->q_stat = m->i2 = m->tau2 = NAN;
	for (size_t i = 0; i < k; i++) {
		ok = ok && isfinite(lr[i]) && isfinite(se[i]) && se[i] >= 0 &&
		    !(df[i] <= 0);
		s2 += se[i] * se[i];
		if (isfinite(df[i]))
			s4df += se[i] * se[i] * se[i] * se[i] / df[i];
	}
	if (!ok || !(conf > 0 && conf < 1))
		return;
	stats_mean_var(lr, k, &m->mean, &var);
	m->se_between = sqrt(var / (double)k);
	m->se_within = sqrt(s2) / (double)k;
	m->df_within = s4df > 0 ? s2 * s2 / s4df : INFINITY;
	pb = two_sided_p(m->mean, m->se_between, (double)(k - 1));
	pw = two_sided_p(m->mean, m->se_within, m->df_within);
	hb = stats_t_crit(conf, (double)(k - 1)) * m->se_between;
	hw = stats_t_crit(conf, m->df_within) * m->se_within;
	m->between = hb >= hw;
	m->se = m->between ? m->se_between : m->se_within;
	m->df = m->between ? (double)(k - 1) : m->df_within;
	m->t = m->se > 0   ? m->mean / m->se
	    : m->mean == 0 ? 0
			   : copysign(INFINITY, m->mean);
	m->p = fmax(pb, pw);
	m->lo = m->mean - fmax(hb, hw);
	m->hi = m->mean + fmax(hb, hw);
	heterogeneity(lr, se, k, m);
}
