/*
 * Internal to the statistics (stats*.c): the pieces of Student's t and
 * Welch's test that the log and rank tests, the power figures and the
 * summaries share with stats.c. Pure functions, callable from any thread.
 */
#ifndef RAIDLAB_STATS_INT_H
#define RAIDLAB_STATS_INT_H

#include <stddef.h>

struct stats_change;

/* qsort's order of doubles, ascending. */
int stats_cmp_double(const void *pa, const void *pb);

/* The mean and the sample (n - 1) variance of v[0..n), n > 0; exactly
   v[0] and 0 when the values are all equal. */
void stats_mean_var(const double *v, size_t n, double *mean, double *var);

/* t(conf, df): the two-sided critical value, the quantile at (1 + conf) /
   2. An infinite df is the normal's. */
double stats_t_crit(double conf, double df);

/* The standard normal's quantile at 0 < p < 1 (through the t machinery at
   a df where the two agree to 1e-15); NAN outside. */
double stats_z_quantile(double p);

/*
 * Welch's test of means ma, mb with sample variances va, vb of na, nb >= 2
 * figures: fills c->diff (mb - ma), t, df, p, se (sqrt(va/na + vb/nb)) and
 * kind (by p against 1 - conf), leaves the rest alone. Both variances 0:
 * t is 0 or +-INFINITY, df NAN, p 1 or 0, se 0.
 */
void stats_welch(double ma, double va, size_t na, double mb, double vb,
    size_t nb, double conf, struct stats_change *c);

#endif
