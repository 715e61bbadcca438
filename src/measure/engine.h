/*
 * The workload engine. A front end starts one run of one workload on one
 * directory; the engine's driver thread calls the workload's prepare, run
 * and cleanup (workload.h), and the workload does its measured work in
 * worker threads through wl_parallel(). Workers count what they do in
 * per-worker _Atomic counters (relaxed: no lock, no allocation on the hot
 * path) and time their operations into their own histograms; the front
 * end's loop reads the counters each tick (engine_totals(), through a
 * struct sampler below) and receives rare events through the engine's
 * queue (evq.h).
 *
 * Threads: engine_*() from the front end's thread (engine_stop() from a
 * signal handler too); wl_*() on struct wl_run from the driver thread (the
 * workload's prepare/run/cleanup); wl_*() on struct wl_worker from that
 * worker's thread. Workers block all signals.
 */
#ifndef RAIDLAB_ENGINE_H
#define RAIDLAB_ENGINE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/evq.h"
#include "disk/devstat.h"
#include "figures/hist.h"
#include "result.h"

struct err;
struct param_value;
struct workload;

#define ENGINE_MAX_WORKERS 64

/* ---------------------------------------------------------------- front end */

struct engine_job {
	const struct workload *wl;
	const struct param_value *params; /* values for wl->params */
	const char *name; /* the lab's workload name, or NULL */
	const char *target; /* an existing directory */
	bool drop_caches; /* drop the page cache where the workload says
			     (the lab's cache "drop") */
	bool keep; /* leave the workload's files */
};

/* Totals of every worker's counters at one instant. */
struct engine_totals {
	double t; /* seconds since engine_start() */
	uint64_t bytes_read, bytes_written, files, ops;
};

struct engine;

struct engine *engine_new(void);
/* The engine must be joined (or never started) first. NULL is a no-op. */
void engine_free(struct engine *e);
/*
 * Start the driver thread: it makes a private directory under
 * job->target, then runs prepare, run and cleanup, and removes the
 * directory (unless keep). The job's strings and params are copied.
 * Returns 0, or a negative errno with e filled (nothing started).
 */
int
engine_start(struct engine *eng, const struct engine_job *job, struct err *e);
/* Ask the run to stop soon (within a second). Async-signal-safe. */
void engine_stop(struct engine *eng);
/* The queue of events; EVQ_DONE says engine_join() will not block. */
struct evq *engine_events(struct engine *eng);
/* Read every worker's counters now (relaxed loads; cheap). */
void engine_totals(struct engine *eng, struct engine_totals *out);
/* Wait for the driver and take the result (the caller frees it). */
struct wl_result *engine_join(struct engine *eng);

/*
 * The front end's sampler: each call pushes the counters' change since
 * the previous call onto a series (series.h), with the change of each
 * watched device's sysfs counters (devstat.h) beside it. Armed, it also
 * watches for stalls: stretches in which the process did not run, so
 * that a test's figure that counts them is marked (wl_test.stalled).
 */
struct sampler_stall {
	uint64_t from, to; /* CLOCK_MONOTONIC ns: the ticks around it */
	double stopped; /* seconds stopped (SIGSTOP, ^Z), the last ones
			   before to */
	double suspended; /* seconds the machine slept, within from-to */
};

struct sampler {
	struct engine_totals last;
	struct series series;
	struct devstat dev;
	struct dev_sample *dbuf; /* one per watched device */
	uint64_t tick_ns; /* sampler_arm()'s period; 0: not armed */
	uint64_t mono_ns, boot_ns; /* the previous tick's clocks */
	struct sampler_stall *stalls;
	size_t nstalls;
};

/* A tick this many seconds later than its period means the process was
   stopped: a runner thread that only polls is never that late else. */
#define SAMPLER_STALL_GAP 2.0

void sampler_init(struct sampler *s, size_t cap);
void sampler_done(struct sampler *s);
/*
 * Watch the block devices names (kernel names; a partition whose disk is
 * listed too is left out, its I/O being the disk's), each a dev series
 * with its role, reading their counters now as the baseline: call it
 * before the engine starts. roles (NULL, or n entries each NULL) gives a
 * device's role where the caller knows better than sysfs
 * (DEVSTAT_ROLE_JOURNAL, DEVSTAT_ROLE_LOG); else devstat_role(). sysroot
 * NULL: /sys.
 */
void sampler_watch(struct sampler *s, const char *sysroot, char *const *names,
    char *const *roles, size_t n);
void sampler_tick(struct sampler *s, struct engine *eng);
/*
 * Watch for stalls from now on, sampler_tick() being called every
 * tick_ns: a tick more than SAMPLER_STALL_GAP seconds late (the process
 * was stopped; CLOCK_MONOTONIC counts that) or one that finds
 * CLOCK_BOOTTIME ahead of CLOCK_MONOTONIC by more than WL_STALL_MIN
 * seconds (the machine was suspended; CLOCK_MONOTONIC does not count
 * that) is a stall.
 */
void sampler_arm(struct sampler *s, uint64_t tick_ns);
/*
 * Mark each test of res (run while the sampler was armed) that stalls
 * took WL_STALL_MIN seconds or more from (wl_test.stalled), with a note
 * in the result. After the run's last sampler_tick().
 */
void sampler_mark_stalls(const struct sampler *s, struct wl_result *res);

/* ---------------------------------------------------------------- workloads */

/* Counters of one worker, on a cache line of its own. */
struct wl_counters {
	_Alignas(64) _Atomic uint64_t bytes_read;
	_Atomic uint64_t bytes_written;
	_Atomic uint64_t files; /* created, stat'ed or deleted */
	_Atomic uint64_t ops; /* seeks, I/Os, tree operations */
};

/* One run, as the workload's prepare/run/cleanup see it. */
struct wl_run {
	const struct workload *wl;
	const struct param_value *params;
	const char *dir; /* private, empty directory for the run */
	/*
	 * dir, open. Workloads make, open and remove everything below it
	 * relative to it (mkdirat, openat with O_NOFOLLOW, unlinkat;
	 * wl_mkdir_open, wl_open_dir), never by path: a path is looked up
	 * again at each use, and a user who may rename a directory on it
	 * could swap it for symlinks to any file. dir is for messages.
	 */
	int dirfd;
	const char *target; /* the directory it is in */
	bool drop_caches; /* engine_job's */
	bool keep;
	void *priv; /* the workload's state */
	struct engine *eng;
	struct wl_result *res;
};

/* A worker thread of wl_parallel(). */
struct wl_worker {
	struct wl_run *run;
	unsigned index, n; /* 0 <= index < n */
	void *arg; /* wl_parallel()'s arg */
	struct wl_counters *c;
	struct hist lat[WL_OP__COUNT];
	uint64_t seed; /* per-worker seed for wl_rand() */
	/* private to the engine */
	int error;
	char msg[EVQ_TEXT];
	double user, sys;
};

typedef int (*wl_worker_fn)(struct wl_worker *w);

/* Parameters of the run by name (the name must be in the schema). */
int64_t wl_param_int(const struct wl_run *r, const char *name);
uint64_t wl_param_size(const struct wl_run *r, const char *name);
bool wl_param_bool(const struct wl_run *r, const char *name);
const char *wl_param_str(const struct wl_run *r, const char *name);
bool wl_param_is_auto(const struct wl_run *r, const char *name);
const int64_t *
wl_param_list(const struct wl_run *r, const char *name, size_t *n);
bool wl_param_isset(const struct wl_run *r, const char *name);

/*
 * A test: everything between begin and end is its timing. Workers
 * started with wl_parallel() inside it add their counters, CPU time and
 * latencies to it. end computes the wall time and, unless the workload
 * set one with wl_test_set_value(), the primary figure from the unit:
 * K/sec and MB/s from bytes read + written, files/s from files, seeks/s
 * and IOPS from ops, seconds from the wall time. min_wall: below it the
 * test is marked too_fast (bonnie++: 1 s; 0 for none).
 */
void wl_test_begin(struct wl_run *r, const char *key, const char *label,
    enum wl_unit unit);
void wl_test_set_value(struct wl_run *r, double value);
/*
 * Where the next test stands in the workload's sequence, for the live
 * view only (not recorded): its start event reads "LABEL, WHAT DONE/TOTAL"
 * and carries done and total, of which a front end makes an ETA. For a
 * workload whose tests repeat many times (compilebench's runs), so the
 * user sees how far it is. what is a translated word ("run").
 */
void wl_test_progress(struct wl_run *r, const char *what,
    unsigned long long done, unsigned long long total);
struct wl_test *wl_test_end(struct wl_run *r, double min_wall);

/*
 * Run fn in n worker threads (1 <= n <= ENGINE_MAX_WORKERS) and join
 * them. Returns 0, the first worker error (a negative errno; the others
 * were asked to stop), or -EINTR when the run was stopped.
 */
int wl_parallel(struct wl_run *r, unsigned n, wl_worker_fn fn, void *arg);

/* True once the run should stop: a relaxed atomic load, for hot loops. */
bool wl_stopping(const struct wl_run *r);
static inline bool
wl_worker_stopping(const struct wl_worker *w)
{
	return wl_stopping(w->run);
}

/* Hot-path counters: relaxed atomic adds to the worker's own slot. */
static inline void
wl_count_read(struct wl_worker *w, uint64_t bytes)
{
	atomic_fetch_add_explicit(&w->c->bytes_read, bytes,
	    memory_order_relaxed);
}

static inline void
wl_count_write(struct wl_worker *w, uint64_t bytes)
{
	atomic_fetch_add_explicit(&w->c->bytes_written, bytes,
	    memory_order_relaxed);
}

static inline void
wl_count_files(struct wl_worker *w, uint64_t n)
{
	atomic_fetch_add_explicit(&w->c->files, n, memory_order_relaxed);
}

static inline void
wl_count_ops(struct wl_worker *w, uint64_t n)
{
	atomic_fetch_add_explicit(&w->c->ops, n, memory_order_relaxed);
}

/* CLOCK_MONOTONIC in ns: tick_now_ns(), the clock of the loops that
   sample a run (tick.h). */
uint64_t wl_now_ns(void);

/* Record the latency of an operation of kind op that began at start. */
static inline void
wl_lat(struct wl_worker *w, enum wl_op op, uint64_t start_ns)
{
	hist_add(&w->lat[op], wl_now_ns() - start_ns);
}

/*
 * Record a worker's failure and return err (a negative errno): the
 * message names what failed ("create /x/y: No space left on device").
 * The first failure of a run becomes its error.
 */
int wl_fail(struct wl_worker *w, int err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The same from the driver thread (prepare, run, cleanup). */
int wl_run_fail(struct wl_run *r, int err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Add a note to the result (and tell the front end). Driver thread. */
void wl_note(struct wl_run *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* xorshift64*: a worker's own reproducible random numbers. */
uint64_t wl_rand(uint64_t *state);

/*
 * Between phases, as the cache policy says: sync, then drop the page
 * cache when the job says so (drop_caches) and we are root. When it cannot (not
 * root), the result gets a note once. Returns true when caches were
 * dropped. Driver thread, outside a test or inside one (then it is part
 * of the timing, as compilebench does).
 */
bool wl_drop_caches(struct wl_run *r);

/*
 * Note in the result when a data set of bytes fits in RAM and caches are
 * not dropped: the figures then measure memory.
 */
void wl_check_dataset(struct wl_run *r, uint64_t bytes);

/*
 * Remove name (in the directory open as dirfd) and everything below it
 * through descriptors, without following links or crossing into another
 * filesystem. 0 or a negative errno. Any thread.
 */
int wl_rmtree_at(int dirfd, const char *name);

/* Open name in dirfd as a directory, never through a link (O_DIRECTORY
   | O_NOFOLLOW): the descriptor or a negative errno. Any thread. */
int wl_open_dir(int dirfd, const char *name);

/* Make directory name in dirfd, then wl_open_dir() it. One that exists
   already is refused (-EEXIST): the run makes its own. Any thread. */
int wl_mkdir_open(int dirfd, const char *name, mode_t mode);

#endif
