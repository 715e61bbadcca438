/*
 * A bounded ring of samples: what the counters did during one sampling
 * tick. The front end's loop (TUI or headless) pushes one sample a tick;
 * when full, the oldest sample is dropped and counted. Plots and result
 * records read it. Owned by that loop's thread.
 */
#ifndef RAIDLAB_SERIES_H
#define RAIDLAB_SERIES_H

#include <stddef.h>
#include <stdint.h>

struct sample {
	double t; /* seconds since the run started, at the end */
	double dt; /* length of the tick, seconds */
	uint64_t bytes_read; /* during the tick */
	uint64_t bytes_written;
	uint64_t files;
	uint64_t ops;
};

struct series {
	struct sample *v;
	size_t cap, head, n; /* oldest at head; n <= cap */
	uint64_t dropped;
};

void series_init(struct series *s, size_t cap);
void series_done(struct series *s);
void series_push(struct series *s, const struct sample *x);
/* The i-th oldest sample, 0 <= i < s->n. */
const struct sample *series_at(const struct series *s, size_t i);
/* Rates of a sample: MB/s (10^6 bytes, as fio and dd print) and per s. */
double sample_read_mbps(const struct sample *x);
double sample_write_mbps(const struct sample *x);
double sample_files_per_s(const struct sample *x);

#endif
