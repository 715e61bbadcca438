/*
 * What one run of one workload measured: its tests (bonnie++'s columns,
 * compilebench's operations, one smallfiles batch...), each with wall and
 * CPU time, bytes and files counted, latency histograms and its primary
 * figure; the run's status, notes and time series. Built by the engine's
 * driver thread, handed to the front end by engine_join(); after that it
 * belongs to the front end's thread. Serialized by record.c.
 */
#ifndef RAIDLAB_RESULT_H
#define RAIDLAB_RESULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "figures/hist.h"
#include "figures/series.h"

/* What a test's primary figure counts. */
enum wl_unit {
	WL_UNIT_KBPS, /* KiB/s, as bonnie++ prints K/sec */
	WL_UNIT_MBPS, /* MB/s = 10^6 bytes/s (fio) */
	WL_UNIT_FILES_S, /* files/s */
	WL_UNIT_SEEKS_S, /* seeks/s (bonnie++ Random Seeks) */
	WL_UNIT_IOPS, /* I/O operations/s */
	WL_UNIT_SECONDS, /* wall seconds (delete, stat, tar+sync) */
	WL_UNIT_MIBPS, /* MiB/s = 2^20 bytes/s (compilebench's "MB/s") */
	WL_UNIT_USEC, /* a latency in microseconds, lower is better: no
			 test's own unit, the unit of compare's latency
			 columns (a percentile of a test's histogram) */
	WL_UNIT_RATIO, /* a ratio, lower is better: no test's own unit,
			  the unit of compare's write amplification
			  columns (bytes the devices wrote per byte the
			  workload wrote) */
	WL_UNIT__COUNT,
};

/* Operation kinds with their own latency histogram. */
enum wl_op {
	WL_OP_READ,
	WL_OP_WRITE,
	WL_OP_CREATE,
	WL_OP_STAT,
	WL_OP_DELETE,
	WL_OP_SEEK, /* lseek + read (+ write back) of a seek test */
	WL_OP_FSYNC,
	WL_OP__COUNT,
};

enum wl_status {
	WL_OK,
	WL_FAILED, /* result.error says why */
	WL_INTERRUPTED, /* stopped by the user: partial figures */
};

struct wl_test {
	char *key; /* stable id: "seq_output_block" */
	char *label; /* untranslated: "Block write" */
	enum wl_unit unit;
	double value; /* the primary figure, in unit */
	double wall; /* seconds */
	double user, sys; /* CPU seconds of the threads that worked */
	uint64_t bytes_read, bytes_written, files, ops;
	struct hist lat[WL_OP__COUNT];
	bool too_fast; /* under the workload's minimum time: the rate
			  means little (bonnie++ prints +++++) */
	bool interrupted; /* stopped before the end */
	/* Seconds during the test in which the process did not run (it
	   was stopped: SIGSTOP, ^Z; or the machine was suspended), as the
	   front end's sampler saw them (engine.h); 0: none. Its figure
	   counts that time, so it is not a plain result. */
	double stalled;
	/* CLOCK_MONOTONIC at its begin and end (ns), for the sampler to
	   place a stall; not recorded. */
	uint64_t begin_ns, end_ns;
};

/* A stall this long (seconds) marks a test (struct wl_test.stalled). */
#define WL_STALL_MIN 1.0

struct wl_result {
	char *workload; /* type name: "bonnie" */
	char *name; /* the lab's workload name, or the type */
	enum wl_status status;
	char *error; /* WL_FAILED: translated sentence */
	char **notes; /* cache policy, data set vs RAM, ... */
	size_t nnotes;
	struct wl_test *tests;
	size_t ntests;
	struct timespec start, end; /* CLOCK_REALTIME */
	double wall; /* seconds, whole run incl. prepare */
	struct series series; /* attached by the front end's sampler */
	double tick; /* sampling period, seconds */
};

struct wl_result *wl_result_new(const char *workload, const char *name);
void wl_result_free(struct wl_result *r);
/* Append a zeroed test (histograms initialised); returns it. */
struct wl_test *wl_result_add_test(struct wl_result *r, const char *key,
    const char *label, enum wl_unit unit);
void wl_result_add_note(struct wl_result *r, const char *text);
/* The test with key, or NULL. */
const struct wl_test *
wl_result_test(const struct wl_result *r, const char *key);

/* %CPU as bonnie++ and time(1) print it: (user + sys) / wall x 100. */
double wl_test_cpu_percent(const struct wl_test *t);
/* The figure of t in unit, from its counters and wall time. */
double wl_test_rate(const struct wl_test *t, enum wl_unit unit);

const char *wl_unit_name(enum wl_unit u); /* "K/sec", "MB/s", ... */
const char *wl_unit_key(enum wl_unit u); /* "kbps", "mbps", ... */
const char *wl_op_name(enum wl_op op); /* "read", "write", ... */
const char *wl_status_name(enum wl_status s); /* "ok", "failed", ... */
/* The reverse of the three above, for reading records back; -1 if none. */
int wl_unit_parse(const char *key);
int wl_op_parse(const char *name);
int wl_status_parse(const char *name);

#endif
