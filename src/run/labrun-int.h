/*
 * Internals of the lab runner (labrun.h), shared by labrun.c (life,
 * queue, hand-over), labrun-exec.c (the thread: variants, runs,
 * sampling), labrun-build.c (precheck, array variants), labrun-rounds.c
 * (the rounds), labrun-hook.c (--hook) and labrun-record.c (the record).
 * Fields marked "lock" are read and written under lr->lock; "runner"
 * ones only by the runner thread; the rest are set by labrun_start() and
 * never change.
 */
#ifndef RAIDLAB_LABRUN_INT_H
#define RAIDLAB_LABRUN_INT_H

#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "build/confirm.h"
#include "disk/disk.h"
#include "lab/lab.h"
#include "labrun.h"
#include "rounds.h"

struct evq;
struct prov;
struct prov_progress;
struct statej;

struct labrun_rnode {
	struct labrun_rnode *next;
	struct labrun_result *r;
};

struct labrun {
	struct lab *lab; /* the copy */
	struct lab_variant target; /* opts.target's variant */
	bool has_target;
	bool *vsel; /* [lab->nvariants + 1] */
	bool *wsel; /* [lab->nworkloads + 1] */
	int64_t repeats; /* the most rounds: room and data set plan for it */
	struct rounds_goal goal; /* the rounds asked for */
	enum lab_order order;
	size_t nv; /* variants of the run: the lab's, or 1 (the target) */
	char **confirmed;
	size_t nconfirmed;
	bool confirm_typed;
	/* What each confirmed name designated when the confirmation was
	   given (opts.bound), or, not given, at the precheck (runner). */
	struct confirm_set bound;
	bool bound_given;
	char *state_dir; /* NULL: /run/raidlab */
	unsigned tick_ms;
	bool keep;
	bool record; /* opts.record */
	char *results; /* opts.results, or the lab's results directory */
	char *scaled; /* opts.scaled */
	char *hook; /* opts.hook */
	labrun_round_fn before_round; /* opts' */
	void *before_round_arg;
	long rounds_started; /* runner: before_round calls so far */
	char *fleet_host; /* opts.fleet_host */

	pthread_t thread;
	bool joined;
	struct evq *q; /* the events (struct labrun_event) */
	atomic_bool stop;

	pthread_mutex_t lock;
	struct labrun_rnode *rhead, *rtail; /* lock */
	struct engine *eng; /* lock: the run in progress */
	unsigned long eng_gen; /* lock: engines published so far */
	char **devs; /* lock */
	char **roles; /* lock: ndevs of them, each NULL (sysfs tells) or
			 a role sysfs cannot tell (devstat.h) */
	size_t ndevs;
	struct labrun_summary sum; /* lock */

	struct disk_list inv; /* runner: the precheck's inventory */
	struct statej *j; /* runner: opened with the first build */
	int nbuilds; /* runner */
	uint64_t dataset; /* runner: space_dataset() of the selection */
	struct rounds_pair *pairs; /* runner: [nv x nworkloads] */
	char **dead; /* runner: [nv]: why a variant's rounds ended */
	double *build_s; /* runner: [nv]: seconds its builds and teardowns
			    took, summed over nbuilt[] */
	int64_t *nbuilt;
	struct record *rec; /* runner until done (lock: the hand-over) */
	/* runner: the array variant whose workloads run, when it has a
	   phase; NULL otherwise. Its telling: when the last LABRUN_PHASE
	   went, and whether its end was told. */
	struct prov *phase;
	double phase_said;
	bool phase_ended;
	bool rec_said; /* runner: a failed save was said */
};

/* labrun.c */
void labrun_push(struct labrun *lr, const struct labrun_event *ev);
/* An event with text from fmt (NULL: none). */
void labrun_emit(struct labrun *lr, enum labrun_ev type, int variant,
    int workload, const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* Append r to the hand-over list and announce it (LABRUN_RESULT). */
void labrun_hand(struct labrun *lr, struct labrun_result *r);
/* Add to the summary's counters. */
void labrun_count(struct labrun *lr, int ran, int failed);
/* Replace the member devices (takes the strvs; NULL clears; roles NULL:
   every role from sysfs). */
void labrun_set_devices(struct labrun *lr, char **devs, char **roles, size_t n);
/* The roles of labrun_devices()' devices, n of them (the runner's own
   call, so they match); NULL when none was tagged. Caller frees. */
char **labrun_device_roles(struct labrun *lr, size_t n);
/* Make eng the run in progress (NULL: none); stop it at once if a stop
   was asked. */
void labrun_publish(struct labrun *lr, struct engine *eng);
bool labrun_stopping(const struct labrun *lr);
/* A variant's name for messages: its name, else its directory, else
   "?". */
const char *labrun_vname(const struct lab_variant *v);

/* labrun-exec.c: the thread. */
void *labrun_main(void *arg);
/* Variant vi's round k (0: every round of it, order grouped): built or
   created, measured, torn down; skipped when its rounds ended. */
void labrun_run_variant(struct labrun *lr, int vi, int64_t k);
/* Run the selected workloads on dir, the target of variant vi: round k
   of each (k 0: each repeated until its pair is done). */
void labrun_variant_runs(struct labrun *lr, int vi, const char *dir, int64_t k);
/* Record every selected workload of variant vi as skipped for why in
   round k (0: the first), and end the variant's rounds. */
void labrun_skip_variant(struct labrun *lr, int vi, int64_t k, const char *why);

/* labrun-rounds.c: the rounds (rounds.h). */
void labrun_rounds_init(struct labrun *lr);
void labrun_rounds_free(struct labrun *lr);
/* Every selected variant in the lab's order: round after round
   (interleaved) or variant after variant (grouped). */
void labrun_rounds(struct labrun *lr);
struct rounds_pair *labrun_pair(struct labrun *lr, int vi, int wi);
/* The pair (vi, wi) needs another round (order grouped). */
bool labrun_pair_more(struct labrun *lr, int vi, int wi);
/* The variant's rounds end: why, for its later rounds and pairs. */
void labrun_variant_dead(struct labrun *lr, int vi, const char *why);
/* An array variant's build and teardown took s seconds. */
void labrun_build_took(struct labrun *lr, int vi, double s);
/* Fill a LABRUN_RUN event's total, ci, goal and left for round k. */
void labrun_rounds_event(struct labrun *lr, int vi, int wi, int64_t k,
    struct labrun_event *ev);
/* A round (interleaved) or a run (grouped) is about to start:
   opts.before_round; false when it stopped the run. */
bool labrun_round_gate(struct labrun *lr);
/* The record's "rounds" as things stand (final: with stopped, why). */
json_t *labrun_rounds_json(struct labrun *lr, bool final);

/* labrun-build.c */
/* What the workloads of a run need: its selection, for the room checks
   (space.h). */
struct labrun_need {
	const bool *wsel; /* NULL: every workload */
	int64_t repeats; /* 0: the lab's */
	bool keep;
	const char *target; /* --target's directory, or NULL */
};
/* The precheck for sel, into c (inventory left in inv); typed: the
   user confirms as labrun_opts.confirm_typed says, fleet_host as
   labrun_opts.fleet_host; devices false: the
   room checks alone (no array selected, nothing confirmed). */
int labrun_precheck(const struct lab *lab, const bool *sel,
    const struct labrun_need *need, bool devices, const char *const *confirmed,
    size_t nconfirmed, bool typed, const char *fleet_host,
    const char *state_dir, struct disk_list *inv, struct labrun_check *c);
/* Build array variant vi, run round k on it (0: every round), tear it
   down. */
void labrun_array_variant(struct labrun *lr, int vi, int64_t k);

/* labrun-phase.c: the phase told (LABRUN_PHASE). */
/* Push pr as variant vi's LABRUN_PHASE: its end once, a running
   rebuild or scrub once a second, anything when force. */
void labrun_phase_say(struct labrun *lr, int vi, const struct prov_progress *pr,
    bool force);
/* lr->phase as it stands, said as labrun_phase_say() says it; nothing
   when lr->phase is NULL. */
void labrun_phase_tick(struct labrun *lr, int vi, bool force);

/* labrun-hook.c */
/* Run opts.hook on variant vi, ready on target; what it did goes into
   build (its build object; NULL for a directory variant). 0, or the
   failure (said, counted). */
int labrun_hook(struct labrun *lr, int vi, const char *target, json_t *build);

/* labrun-record.c: the runner's record (labrun.h). */
/* The results directory takes a record (record_results_check()), or
   opts.record is false; else false, said and counted as refused. */
bool labrun_record_check(struct labrun *lr);
/* Create and save it (status "running"), when opts.record. */
void labrun_record_begin(struct labrun *lr);
/* Add an item about to be handed over, and save. */
void labrun_record_item(struct labrun *lr, const struct labrun_result *r);
/* A workload run starts (and save). */
void labrun_record_progress(struct labrun *lr, int vi, int wi, int repeat);
/* The final status from the summary, and save (a failure sets the
   summary's record_lost). */
void labrun_record_end(struct labrun *lr);
/* A directory variant's hook result (labrun-hook.c), and save. */
void labrun_record_hook(struct labrun *lr, json_t *hook);

#endif
