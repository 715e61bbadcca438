/*
 * Internal to the engine (engine.c, engine-wl.c): struct engine itself.
 * Not for workloads or front ends, which use engine.h.
 */
#ifndef RAIDLAB_ENGINE_INT_H
#define RAIDLAB_ENGINE_INT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "engine.h"

/* engine.stop: why workers should stop. */
enum {
	ENGINE_RUNNING,
	ENGINE_STOPPED, /* engine_stop(): the user asked */
	ENGINE_FAILED, /* a worker or the workload failed */
};

struct engine {
	/* Worker counters first: each on its own cache line. */
	struct wl_counters slots[ENGINE_MAX_WORKERS];
	_Atomic int stop;
	struct evq *q;
	pthread_t driver;
	bool started;

	/* Copies of the job, owned. */
	struct engine_job job;
	struct param_value *params;
	char *name, *target, *dir;
	char *base; /* dir's name in target */
	int tfd, dirfd; /* target and dir, open (engine-dir.c); -1: not */

	struct wl_run run;
	struct wl_result *res;
	uint64_t t0; /* wl_now_ns() at start */

	pthread_mutex_t lock; /* guards error */
	char *error; /* the first failure */

	/* The open test (driver thread only). */
	struct wl_test *cur;
	struct engine_totals at_begin;
	uint64_t begin_ns;
	double drv_user, drv_sys;
	bool value_set;
	double value;
	/* wl_test_progress() for the next test start (driver thread) */
	char prog_what[32];
	unsigned long long prog_done, prog_total;
	bool cache_noted;
};

/*
 * engine-dir.c. Open the target (not through a link), make the run's
 * directory in it (0700, a random name) and open that: eng->tfd,
 * dirfd, base and dir. 0, or a negative errno with e filled.
 */
int engine_dir_make(struct engine *eng, struct err *e);
/* Remove the run's directory through eng->dirfd: -ESTALE when its name
   in the target is now another directory's (left alone). */
int engine_dir_remove(struct engine *eng);
void engine_dir_close(struct engine *eng);

double engine_elapsed(const struct engine *eng);
void engine_event(struct engine *eng, enum evq_type type, const char *key,
    const char *text);
/* CPU seconds of the calling thread so far. */
void engine_thread_cpu(double *user, double *sys);

#endif
