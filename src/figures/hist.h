/*
 * Latency histograms, log-linear: values (nanoseconds) below 2^HIST_SUB
 * are exact; above, each power of two is split into 2^HIST_SUB buckets,
 * so a quantile is off by at most 1/2^HIST_SUB (6%) of its value. The
 * buckets are held only over the range in use, allocated on demand: an
 * empty histogram costs its header, one value one bucket, so a result
 * with thousands of tests (an import) costs what its latencies need,
 * not 7.6 KiB per operation. A worker that updates one on the hot path
 * calls hist_reserve() first, after which adding never allocates; they
 * are merged only after the worker is joined. hist_done() frees. Not
 * thread-safe by itself.
 */
#ifndef RAIDLAB_HIST_H
#define RAIDLAB_HIST_H

#include <stdbool.h>
#include <stdint.h>

#define HIST_SUB 4
#define HIST_GROUPS (64 - HIST_SUB)
#define HIST_BUCKETS ((HIST_GROUPS + 1) << HIST_SUB)

struct hist {
	uint64_t n;
	uint64_t sum; /* ns, saturating */
	uint64_t min, max; /* ns; min is UINT64_MAX when n == 0 */
	uint64_t *b; /* counts of buckets lo .. lo + nb - 1; NULL: none */
	unsigned lo, nb;
};

void hist_init(struct hist *h);
/* Free the buckets; h is empty again. */
void hist_done(struct hist *h);
/* Hold every bucket, so that hist_add() never allocates. */
void hist_reserve(struct hist *h);
void hist_add(struct hist *h, uint64_t ns);
void hist_merge(struct hist *dst, const struct hist *src);
/* Count c more values in bucket i (< HIST_BUCKETS), leaving n, sum, min
   and max to the caller (a histogram read back or rebuilt). */
void hist_add_bucket(struct hist *h, unsigned i, uint64_t c);
/* The count of bucket i. */
uint64_t hist_count(const struct hist *h, unsigned i);
/* Same values: n, sum, min, max and every bucket's count. */
bool hist_equal(const struct hist *a, const struct hist *b);
/*
 * The value at quantile q (0 < q <= 1): the upper bound of the bucket
 * holding it, clamped to max. 0 when empty.
 */
uint64_t hist_quantile(const struct hist *h, double q);
/* Mean in ns; 0 when empty. */
double hist_mean(const struct hist *h);

/* Bucket index of a value, and the largest value in a bucket. */
unsigned hist_bucket(uint64_t ns);
uint64_t hist_bucket_max(unsigned i);

#endif
