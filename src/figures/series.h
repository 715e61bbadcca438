/*
 * A bounded series of samples: what the counters did during the ticks of
 * one run, and beside it what each watched block device did (dev
 * series, aligned sample for sample). The front end's loop (TUI or
 * headless) pushes one sample a tick. Nothing is ever dropped: when the
 * series is full, neighbouring samples are merged in pairs (the
 * resolution halves), and from then on incoming ticks are summed into
 * the newest sample until it spans the current resolution, so the
 * samples cover the whole run, evenly spaced, in at most cap samples.
 * Plots and result records read it. Owned by that loop's thread.
 *
 * Contract after any number of merges: every sample but the newest spans
 * exactly `span` ticks (a power of two); the newest spans 1..span (its
 * `last_ticks`). A sample's t is the t of its last tick (seconds since
 * the run started, at its end); its dt is the sum of its ticks' dt (so
 * t - dt is where it started, the previous sample's t); counters are the
 * sums. Rates divide by dt and stay right at any resolution.
 */
#ifndef RAIDLAB_SERIES_H
#define RAIDLAB_SERIES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sample {
	double t; /* seconds since the run started, at the end */
	double dt; /* length of the sample, seconds */
	uint64_t bytes_read; /* during the sample */
	uint64_t bytes_written;
	uint64_t files;
	uint64_t ops;
};

/* What one block device did during a sample. */
struct dev_sample {
	uint64_t read_bytes; /* sectors read x 512 */
	uint64_t write_bytes;
	double busy_s; /* seconds the device was busy (io_ticks); NAN unknown */
};

/* One watched device: its kernel name, its role ("array" for an md
   device, "member" for a device an array or dm device is made of,
   "journal" for an md write journal, "log" for a filesystem's external
   journal or log, "device" otherwise; NULL in records older than roles)
   and one dev_sample per sample of the series. */
struct series_dev {
	char *name;
	char *role;
	struct dev_sample *v;
};

struct series {
	struct sample *v; /* oldest first */
	size_t cap, n; /* n <= cap */
	uint64_t span; /* ticks a sample spans (1, 2, 4...) */
	uint64_t last_ticks; /* ticks in the newest sample, 1..span */
	uint64_t dropped; /* samples lost by records of older raidlabs */
	struct series_dev *dev;
	size_t ndev;
};

void series_init(struct series *s, size_t cap);
void series_done(struct series *s);
/* Watch one more device, while the series is empty (or before its
   values are filled in by hand, reading a record); its index. */
size_t series_add_dev(struct series *s, const char *name, const char *role);
/* One tick; d holds one dev_sample per device (NULL: unknown). */
void series_push_devs(struct series *s, const struct sample *x,
    const struct dev_sample *d);
void series_push(struct series *s, const struct sample *x);
/* Append one sample as it is, spanning s->span ticks, never merging nor
   summing (reading a record back); false when full. */
bool series_append(struct series *s, const struct sample *x,
    const struct dev_sample *d);
/* The i-th oldest sample, 0 <= i < s->n, and device k's part of it. */
const struct sample *series_at(const struct series *s, size_t i);
const struct dev_sample *
series_dev_at(const struct series *s, size_t k, size_t i);
/* Rates of a sample: MB/s (10^6 bytes, as fio and dd print) and per s. */
double sample_read_mbps(const struct sample *x);
double sample_write_mbps(const struct sample *x);
double sample_files_per_s(const struct sample *x);
/*
 * Rates over seconds [t0, t1) of the run, for plotting against time
 * samples of any length (another series' resolution, an older record's
 * uneven ticks): each sample counts by the part of it inside (a sample
 * is taken as even within itself), averaged over the part of [t0, t1)
 * the series covers. false (out untouched) when it covers none of it.
 */
struct series_rates {
	double read_mbps, write_mbps, files_per_s;
};

bool series_rates_between(const struct series *s, double t0, double t1,
    struct series_rates *out);
/* The seconds a sample of the series spans at its current resolution
   (from what it covers so far); 0 when empty. */
double series_sample_seconds(const struct series *s);
/*
 * What a workload run's own totals (total: its counters and the seconds
 * they took, its result's figures) hold beyond what its ticks pushed
 * (seen: their sums, seen->dt the seconds they covered), as one last
 * sample (out->t is the caller's), so that a run shorter than a tick
 * still shows its figure. When no tick saw the run, the whole total (its
 * result's rate). false when nothing is left to show.
 */
bool sample_rest(const struct sample *total, const struct sample *seen,
    struct sample *out);
/* The fraction of the sample's dt device d was busy, 0..1; NAN unknown. */
double dev_sample_busy(const struct dev_sample *d, double dt);

#endif
