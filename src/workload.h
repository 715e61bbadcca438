/*
 * Workload types: one const struct workload per type (wl-*.c), listed in
 * workload_table[] (workload.c): its name, its parameter schema (so that
 * lab files are typed), how the engine runs it, and how its figures are
 * reported. Read-only data, any thread.
 */
#ifndef RAIDLAB_WORKLOAD_H
#define RAIDLAB_WORKLOAD_H

#include <stddef.h>

#include "param.h"

struct strbuf;
struct wl_result;
struct wl_run;

struct workload {
	const char *name; /* the lab file's `type` */
	const char *summary; /* N_(), one line */
	const struct param *params; /* terminated by { NULL } */
	/* params bounded by others, terminated by { NULL }; NULL: none */
	const struct param_bound *bounds;
	/*
	 * Driver thread (engine.h). prepare: check the parameters against
	 * the target, build data sets (not timed); NULL for none. run: the
	 * measured tests, through wl_test_begin/end and wl_parallel.
	 * cleanup: free r->priv; the engine removes the run's directory.
	 * Each returns 0 or a negative errno (after wl_run_fail()).
	 */
	int (*prepare)(struct wl_run *r);
	int (*run)(struct wl_run *r);
	void (*cleanup)(struct wl_run *r);
	/*
	 * Append the figures of n results (repeats of this workload on one
	 * variant) in the layout users of the original tool know (bonnie++'s
	 * two-row table, compilebench's per-phase lines). NULL: the generic
	 * table of report.h.
	 */
	void (*report)(const struct wl_result *const *res, size_t n,
	    struct strbuf *out);
};

extern const struct workload wl_bonnie;
extern const struct workload wl_smallfiles;
extern const struct workload wl_untar;
extern const struct workload wl_compilebench;
extern const struct workload wl_fio;

/* Every workload type, NULL-terminated, in the order help lists them. */
extern const struct workload *const workload_table[];

/* The type named name, or NULL. */
const struct workload *workload_find(const char *name);

#endif
