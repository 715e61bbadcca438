/*
 * Workload types: one const struct workload per type (wl-*.c), listed in
 * workload_table[] (workload.c): its name, its parameter schema (so that
 * lab files are typed), how the engine runs it, and how its figures are
 * reported. Read-only data, any thread.
 */
#ifndef RAIDLAB_WORKLOAD_H
#define RAIDLAB_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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
	 * Rules between parameters that bounds cannot say, on the lab's
	 * values (v[i] for params[i], defaults counted): lab_check() runs
	 * it before anything runs. True when refused, with the parameter
	 * to blame in *param and the reason (translated) in msg. NULL:
	 * none. Any thread.
	 *  bonnie: size = 0 with files = 0 (no test left); a size under
	 *    one chunk.
	 */
	bool (*check)(const struct param_value *v, const char **param,
	    char *msg, size_t len);
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
	 * table of show.h.
	 */
	void (*report)(const struct wl_result *const *res, size_t n,
	    struct strbuf *out);
	/*
	 * The data set: the most bytes one run has on the target at once,
	 * estimated from the lab's values (v[i] for params[i]) before
	 * anything runs, for the free-space checks (space.h). With keep,
	 * what the run leaves there (its files are not removed as it
	 * goes). Each file counts in whole WORKLOAD_BLOCK blocks; the
	 * filesystem's own metadata and journal come on top. Any thread.
	 *  bonnie: the file of the I/O tests (size, auto: twice the RAM,
	 *    rounded down to chunk; none with size 0), then files x 1024
	 *    files of max_size (the larger of the two; both with keep);
	 *  smallfiles: count (the largest of counts; their sum with keep)
	 *    files of size;
	 *  untar: the tarball's entries, unpacked (read from its headers),
	 *    or the synthetic tree: synthetic_size and a block's slack per
	 *    file;
	 *  compilebench: the trees alive at the worst moment of the seed's
	 *    operations (initial, then runs: create adds a tree, compile its
	 *    objects, delete takes them away), a tree being size bytes of
	 *    files with a block's slack each and its objects as tree.h
	 *    derives them;
	 *  fio: size per job, x threads.
	 * NULL: nothing worth counting (0).
	 */
	uint64_t (*dataset)(const struct param_value *v, bool keep);
};

/* The block a file's size is rounded up to in data set estimates. */
#define WORKLOAD_BLOCK 4096

/* size rounded up to whole WORKLOAD_BLOCKs. */
uint64_t workload_blocks(uint64_t size);

/* a + b and a x b, saturated at UINT64_MAX (an estimate never wraps). */
static inline uint64_t
workload_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static inline uint64_t
workload_mul(uint64_t a, uint64_t b)
{
	return b != 0 && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

/* Physical RAM in bytes (0 when unknown): what a size "auto" follows
   (bonnie's ram), in the lab's estimates and in the run alike. */
uint64_t workload_ram_bytes(void);

/* wl's data set for values v (0 when it has no estimate). */
uint64_t workload_dataset(const struct workload *wl,
    const struct param_value *v, bool keep);

/* v's value of the parameter named name in params (which has it). */
const struct param_value *workload_value(const struct param *params,
    const struct param_value *v, const char *name);

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
