/*
 * Log-linear latency histogram: see hist.h. The owner's thread.
 */
#include "config.h"

#include <string.h>

#include "hist.h"

void
hist_init(struct hist *h)
{
	memset(h, 0, sizeof *h);
	h->min = UINT64_MAX;
}

unsigned
hist_bucket(uint64_t ns)
{
	unsigned msb, shift;

	if (ns < (UINT64_C(1) << HIST_SUB))
		return (unsigned)ns;
	msb = 63u - (unsigned)__builtin_clzll(ns);
	shift = msb - HIST_SUB;
	/* Group msb - HIST_SUB + 1, sub-bucket the bits below the msb. */
	return ((shift + 1) << HIST_SUB) |
	    (unsigned)((ns >> shift) & ((1u << HIST_SUB) - 1));
}

uint64_t
hist_bucket_max(unsigned i)
{
	unsigned group = i >> HIST_SUB, sub = i & ((1u << HIST_SUB) - 1);
	unsigned shift;
	uint64_t lo;

	if (group == 0)
		return sub;
	shift = group - 1;
	lo = ((UINT64_C(1) << HIST_SUB) | sub) << shift;
	if (shift == 0)
		return lo;
	return lo + ((UINT64_C(1) << shift) - 1);
}

void
hist_add(struct hist *h, uint64_t ns)
{
	h->n++;
	h->sum = h->sum + ns < h->sum ? UINT64_MAX : h->sum + ns;
	if (ns < h->min)
		h->min = ns;
	if (ns > h->max)
		h->max = ns;
	h->b[hist_bucket(ns)]++;
}

void
hist_merge(struct hist *dst, const struct hist *src)
{
	unsigned i;

	if (src->n == 0)
		return;
	dst->n += src->n;
	dst->sum =
	    dst->sum + src->sum < dst->sum ? UINT64_MAX : dst->sum + src->sum;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	for (i = 0; i < HIST_BUCKETS; i++)
		dst->b[i] += src->b[i];
}

uint64_t
hist_quantile(const struct hist *h, double q)
{
	uint64_t rank, seen = 0, v;
	unsigned i;

	if (h->n == 0)
		return 0;
	if (q >= 1.0)
		return h->max;
	rank = (uint64_t)(q * (double)h->n + 0.999999);
	if (rank == 0)
		rank = 1;
	for (i = 0; i < HIST_BUCKETS; i++) {
		seen += h->b[i];
		if (seen >= rank) {
			v = hist_bucket_max(i);
			if (v > h->max)
				v = h->max;
			if (v < h->min)
				v = h->min;
			return v;
		}
	}
	return h->max;
}

double
hist_mean(const struct hist *h)
{
	return h->n ? (double)h->sum / (double)h->n : 0.0;
}
