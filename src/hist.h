/*
 * Latency histograms, log-linear: values (nanoseconds) below 2^HIST_SUB
 * are exact; above, each power of two is split into 2^HIST_SUB buckets,
 * so a quantile is off by at most 1/2^HIST_SUB (6%) of its value. Fixed
 * size, no allocation: a worker owns its histograms and updates them on
 * the hot path; they are merged only after the worker is joined. Not
 * thread-safe by itself.
 */
#ifndef RAIDLAB_HIST_H
#define RAIDLAB_HIST_H

#include <stdint.h>

#define HIST_SUB 4
#define HIST_GROUPS (64 - HIST_SUB)
#define HIST_BUCKETS ((HIST_GROUPS + 1) << HIST_SUB)

struct hist {
	uint64_t n;
	uint64_t sum; /* ns, saturating */
	uint64_t min, max; /* ns; min is UINT64_MAX when n == 0 */
	uint64_t b[HIST_BUCKETS];
};

void hist_init(struct hist *h);
void hist_add(struct hist *h, uint64_t ns);
void hist_merge(struct hist *dst, const struct hist *src);
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
