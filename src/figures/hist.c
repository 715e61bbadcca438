/*
 * Log-linear latency histogram: see hist.h. The owner's thread.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "hist.h"

void
hist_init(struct hist *h)
{
	memset(h, 0, sizeof *h);
	h->min = UINT64_MAX;
}

void
hist_done(struct hist *h)
{
	free(h->b);
	hist_init(h);
}

/* Widen the held range to take buckets lo .. hi. */
static void
cover(struct hist *h, unsigned lo, unsigned hi)
{
	unsigned nlo, nhi, nb;
	uint64_t *b;

	if (h->nb > 0 && lo >= h->lo && hi < h->lo + h->nb)
		return;
	nlo = h->nb > 0 && h->lo < lo ? h->lo : lo;
	nhi = h->nb > 0 && h->lo + h->nb - 1 > hi ? h->lo + h->nb - 1 : hi;
	nb = nhi - nlo + 1;
	b = xcalloc(nb, sizeof *b);
	if (h->nb > 0)
		memcpy(b + (h->lo - nlo), h->b, h->nb * sizeof *b);
	free(h->b);
	h->b = b;
	h->lo = nlo;
	h->nb = nb;
}

void
hist_reserve(struct hist *h)
{
	cover(h, 0, HIST_BUCKETS - 1);
}

void
hist_add_bucket(struct hist *h, unsigned i, uint64_t c)
{
	if (c == 0 || i >= HIST_BUCKETS)
		return;
	cover(h, i, i);
	h->b[i - h->lo] += c;
}

uint64_t
hist_count(const struct hist *h, unsigned i)
{
	return i >= h->lo && i - h->lo < h->nb ? h->b[i - h->lo] : 0;
}

bool
hist_equal(const struct hist *a, const struct hist *b)
{
	if (a->n != b->n || a->sum != b->sum || a->min != b->min ||
	    a->max != b->max)
		return false;
	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		if (hist_count(a, i) != hist_count(b, i))
			return false;
	return true;
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
	hist_add_bucket(h, hist_bucket(ns), 1);
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
	if (src->nb > 0)
		cover(dst, src->lo, src->lo + src->nb - 1);
	for (i = 0; i < src->nb; i++)
		dst->b[src->lo + i - dst->lo] += src->b[i];
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
	for (i = 0; i < h->nb; i++) {
		seen += h->b[i];
		if (seen >= rank) {
			v = hist_bucket_max(h->lo + i);
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
