/*
 * The lab runner: a whole lab, or a selection of its variants and
 * workloads, run in one background thread of its own, exactly as `raidlab
 * run` runs it: the precheck before anything is touched (every selected
 * array variant's plan, guards against one fresh inventory and the
 * confirmations; for every variant the room for the workloads' data set,
 * space.h); then the rounds of repeats (rounds.h) in the lab's order:
 * interleaved, round 1 of every variant, then round 2 starting one
 * variant later, ...; grouped,
 * variant after variant, each workload's rounds in a row. For each
 * variant (each round, when interleaved) a directory variant is created
 * (mkdir -p; its room checked again) and measured, an array variant
 * provisioned (provision.h: scratch disks, guards again, the plan's
 * steps journaled in the state journal, resync waits, facts), measured
 * and torn down. A fixed repeats = N runs N rounds; a range adds rounds
 * until every test's interval is narrow enough, or max (the record's
 * "rounds" says why it stopped). Each run is sampled every tick into its
 * result's time series
 * (the runner thread polls the engine's queue with the tick as timeout, so
 * the series is complete however slow the front end is). The target is
 * checked before and after every run (health.h): one that went read-only,
 * errored or was unmounted fails the run that met it and the variant, and
 * the variant's remaining runs (and rounds) are skipped with the reason;
 * so are a variant's that could not be built, once per round.
 *
 * The front end (the TUI's Run screen, or `raidlab run`) never blocks on
 * any of it. It hears from the runner only through:
 *  - an event queue (labrun_pop()) whose descriptor (labrun_fd()) it
 *    polls: events are copies, in the order things happened;
 *  - labrun_totals() and labrun_devices(): the counters of the run in
 *    progress and the member devices of the variant being measured, read
 *    under the runner's mutex;
 *  - a hand-over list of finished items (labrun_take()): each run's
 *    result and each array variant's build object, which then belong to
 *    the front end (the runner recorded it already: front ends only
 *    show it);
 *  - with opts.record, the result record (record.h) the runner writes
 *    itself: once the precheck has passed, its directory is tried (a
 *    run whose record would be lost is refused, nothing built); saved
 *    with status "running" then
 *    (before anything is built or measured), rewritten (temp file,
 *    fsync, rename) when a workload run starts and after each item, and
 *    at the end with the final status ("ok", "failed", "interrupted"),
 *    so that a killed front end leaves a record of what happened; the
 *    front end takes it with labrun_take_record() once LABRUN_DONE came,
 *    to show it. Until then the record and its file are the runner's.
 *
 * Threads: every labrun_*() function from one front-end thread (the one
 * that called labrun_start()), except labrun_lab() and labrun_variant(),
 * which return data that never changes once started and may be read from
 * anywhere. labrun_check() is synchronous and independent of a run. The
 * runner thread blocks every signal; a front end that catches SIGINT calls
 * labrun_stop() from its loop, not from the handler.
 */
#ifndef RAIDLAB_LABRUN_H
#define RAIDLAB_LABRUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "build/provision.h"
#include "measure/engine.h"

struct confirm_set;
struct err;
struct lab;
struct lab_variant;
struct record;

/* labrun_opts.before_round: round n (1, 2, ...) is about to start;
   false stops the run as labrun_stop() does. Called on the runner's
   thread; it may block (a fleet's barrier waits for its controller). */
typedef bool (*labrun_round_fn)(void *arg, long n);

/* What to run. Everything is copied by labrun_start(). */
struct labrun_opts {
	/* variants[i] for lab->variants[i]; NULL: every variant. */
	const bool *variants;
	/* workloads[i] for lab->workloads[i]; NULL: every workload. */
	const bool *workloads;
	int64_t repeats; /* 0: the lab's */
	/* Devices whose data may be destroyed (`--yes-destroy`, or what
	   the user typed in the TUI's confirmation); a bare name means
	   /dev/NAME. They must name exactly the devices with data (see
	   guard.h). */
	const char *const *confirmed;
	size_t nconfirmed;
	/* The user confirms by typing the names when the run asks (the
	   TUI), not with --yes-destroy: refusals say so. */
	bool confirm_typed;
	/* What confirmed bound to: the identities of the devices as the
	   user saw them when confirming (labrun_check()'s bound, for the
	   typed confirmation). NULL: taken when the run's precheck has
	   passed, before anything is built (--yes-destroy). Either way a
	   variant refuses a confirmed device that is not that one any
	   more (confirm.h). Copied. */
	const struct confirm_set *bound;
	/* Mount points go under STATE_DIR/mnt. NULL: $RAIDLAB_STATE_DIR
	   (read by labrun_start()), else /run/raidlab. The state journal
	   itself is statej.h's: $RAIDLAB_STATE_DIR or /run/raidlab. */
	const char *state_dir;
	/* Run on this existing directory instead of the lab's variants:
	   one variant, index 0, named "target" (`raidlab run --target`). No
	   precheck then, and variants is ignored. */
	const char *target;
	unsigned tick_ms; /* sampling period of the series; 0: 250 */
	bool keep; /* leave the workloads' files on the target */
	/* Write the result record (see above) into results (NULL:
	   record_results_dir() of the lab). Not refused runs only. */
	bool record;
	const char *results;
	/* The run is scaled down (lab_scale_describe()): the record says
	   so. NULL: a full run. */
	const char *scaled;
	/* Run this program as `PROG VARIANT TARGET` once a variant is ready
	   (built and mounted, or its directory made), before its workloads
	   (`raidlab run --hook`); labrun-hook.c. NULL: none. */
	const char *hook;
	/* Called before each round starts: with order interleaved before
	   each round of the lab, with order grouped before each run (a
	   workload's round on a variant); n counts from 1. NULL: none.
	   arg is the caller's and must outlive the run. */
	labrun_round_fn before_round;
	void *before_round_arg;
	/* This run is host fleet_host's share of a fleet run (`raidlab run
	   --fleet-host`): the record (opts.record) says fleet.host =
	   fleet_host and is kept in memory only, for the front end to
	   print (a fleet leaves nothing behind on a host); a refusal that
	   a confirmation lifts names the devices as HOST:DEV, as the user
	   confirms them on the controller. NULL: an ordinary run. */
	const char *fleet_host;
};

enum labrun_ev {
	/* A variant starts (with order interleaved, again each round):
	   variant, text = its name (or its directory, or "?"), key =
	   "directory" or "array". */
	LABRUN_VARIANT,
	/* workload == -1: a build or teardown step of the variant starts:
	   text = the command line, or a description ("waiting for the
	   initial resync of /dev/md/rl-a"). workload >= 0: the workload's
	   own phase between tests (text "preparing", "cleaning up"). */
	LABRUN_STEP,
	/* A resync runs: variant, text = the md device, done of total
	   sectors (total 0: not known yet). */
	LABRUN_RESYNC,
	/* A workload run starts: variant, workload, repeat = the round
	   (1-based), total = the rounds it will likely take in all (a
	   fixed repeats = N: N; a range: stats_rounds_needed() of the
	   widest CV so far, from min to max), value = the seconds the
	   previous run of it took (0: none yet; for an ETA), ci = the
	   widest relative 95% CI half-width so far (ci_half / |mean|;
	   interleaved: of every pair, grouped: of this pair; NAN: none
	   yet), goal = the range's goal as a fraction (0: fixed), left =
	   the seconds from this run's start to the end of the runs (this
	   one's and the likely rounds still to come, from the seconds the
	   earlier runs took; with order interleaved also the array
	   variants' rebuilds; NAN: not known yet). */
	LABRUN_RUN,
	/* A test of the run starts (end false: key, text = its label) or
	   ends (end true: also value in unit, enum wl_unit). */
	LABRUN_TEST,
	/* Something to tell. workload >= 0: the engine of that run said
	   it (a note its result will carry too). workload == -1: the
	   runner's own message, a complete sentence ("b1: scratch:
	   functional, not representative", a precheck line "LAB:3:
	   variants.x.array.devices: /dev/sdb: mounted on /mnt"); variant
	   is -1 for the precheck. */
	LABRUN_NOTE,
	/* The same for failures: a run's error (workload >= 0), or the
	   runner's (a guard refusal, a failed step, a failed teardown, a
	   run that could not start, ...). */
	LABRUN_ERROR,
	/* An array variant's fault phase (the lab's "phase") while its
	   workloads run: variant, phase = how it stands (a copy). Once
	   when its workloads start; about once a second while a rebuild
	   or scrub runs, during the workloads and the wait for it after
	   them; once when it ends (phase.finished). Nothing for a healthy
	   variant. */
	LABRUN_PHASE,
	/* One item is ready: labrun_take() returns it. */
	LABRUN_RESULT,
	/* The runner has finished (labrun_summary() is final); nothing
	   more comes. */
	LABRUN_DONE,
};

struct labrun_event {
	enum labrun_ev type;
	int variant, workload, repeat; /* -1 when not about one */
	bool end; /* LABRUN_TEST */
	char text[256];
	char key[48];
	double value;
	double ci, goal, left; /* LABRUN_RUN */
	int unit; /* enum wl_unit */
	bool too_fast; /* LABRUN_TEST end: the figure is too fast to count */
	/* LABRUN_RESYNC: sectors; LABRUN_TEST start: the test's step in
	   its workload (wl_test_progress(); 0 and 0 when it said none) */
	unsigned long long done, total;
	struct prov_progress phase; /* LABRUN_PHASE */
};

/*
 * A LABRUN_PHASE's phase as one line of at most width columns (0: no
 * limit; display columns in the current locale), parts joined by " · "
 * (ascii: " - "): "phase rebuild · /dev/md/rl-a · failed /dev/loop5 ·
 * recover 43% · 12.3 MB/s · 0:21 elapsed · ETA 0:28", "phase degraded
 * (1 of 4 members failed) · ...", "rebuild done in 0:49 · ...". Too wide,
 * the parts go in this order: the array, the time so far, the failed
 * members, the rate, the head's words, the head (when the progress names
 * the kernel's action), the ETA; then the line is cut. Pure.
 */
void labrun_phase_line(const struct prov_progress *pr, int width, bool ascii,
    char *buf, size_t len);

enum labrun_item {
	/* A run of a workload on a variant, or one that did not happen
	   (skipped says why: the variant could not be built). */
	LABRUN_ITEM_RUN,
	/* An array variant's build object (provision.h) as it stands:
	   once when the variant is built or failed to build, then final
	   after its teardown. */
	LABRUN_ITEM_BUILD,
};

/* A finished item; the caller owns it (labrun_result_free()). */
struct labrun_result {
	enum labrun_item kind;
	int variant; /* labrun_variant() index */
	int workload; /* RUN: index in labrun_lab()->workloads; else -1 */
	int repeat; /* RUN: 1-based */
	struct wl_result *res; /* RUN: with the sampled series and tick;
				  NULL when skipped */
	char *skipped; /* RUN: why it did not run, or NULL */
	char *dir; /* RUN: the directory it ran in; NULL when skipped */
	json_t *target; /* RUN with res: record_target_json(dir), taken
			   when the variant's workloads started (the array
			   just mounted), the same for each of its runs */
	json_t *build; /* BUILD: a copy nobody else touches */
	int build_index; /* BUILD: 0 for the first array variant this run
			    built, 1 for the next, ... */
	bool final; /* BUILD: torn down; no newer copy will come */
};

/* How the run went; final once LABRUN_DONE was popped. */
struct labrun_summary {
	int ran; /* runs that produced a result */
	int failed; /* failed runs, runs that could not start, variants
		       that could not be built or torn down, a directory
		       that could not be created, a refused precheck */
	bool refused; /* the precheck refused (or could not be made):
			 nothing was touched, nothing will be recorded;
			 also for want of room (space.h), and when the
			 results directory cannot be written */
	bool space_refused; /* refused, and labrun_check's space_refused
			       among the reasons */
	bool stopped; /* labrun_stop() was called */
	bool record_lost; /* opts.record, and the final record could not
			     be saved (said): what is on disk, if anything,
			     is not how the run ended */
	bool done; /* the runner has finished */
};

struct labrun;

/*
 * Copy lab (a deep copy that keeps file and line numbers for messages:
 * the caller may go on editing or free its own), and start the runner
 * thread. lab must have passed lab_check(). Returns the run, or NULL with
 * e set when the thread cannot be started.
 */
struct labrun *
labrun_start(const struct lab *lab, const struct labrun_opts *o, struct err *e);

/* Readable (POLLIN) when events are waiting. */
int labrun_fd(const struct labrun *lr);

/* Take the oldest event; false when there is none. Drains the fd. */
bool labrun_pop(struct labrun *lr, struct labrun_event *ev);

/*
 * The counters of the run in progress (engine_totals() of its engine,
 * under the runner's mutex, so the engine is never freed under the
 * caller): t counts from the start of that run. Returns which run that
 * is (1, 2, ...: each workload run has its own counters from zero, so a
 * rate must not subtract across two), or 0 (t zeroed) when no workload
 * runs (building, tearing down, between runs).
 */
unsigned long labrun_totals(struct labrun *lr, struct engine_totals *t);

/*
 * The member devices of the variant being measured, as kernel names
 * ("loop3", "vdb", "md127", "sda2"), for activity bars read from
 * /sys/class/block/NAME/stat: an array variant's devices and md arrays
 * once it is built; for a directory variant the device of its filesystem
 * and, below it, the devices it is made of (md or dm members). NULL with
 * *n = 0 when none (tmpfs, btrfs of a directory, between variants). The
 * caller frees the strings and the array.
 */
char **labrun_devices(struct labrun *lr, size_t *n);

/* The oldest finished item, or NULL. Each LABRUN_RESULT event announces
   one, in order. */
struct labrun_result *labrun_take(struct labrun *lr);
void labrun_result_free(struct labrun_result *r);

/* The summary so far (see struct labrun_summary). */
void labrun_summary(struct labrun *lr, struct labrun_summary *s);

/*
 * The record the runner wrote (opts.record), final, with its path; the
 * caller owns it. NULL before LABRUN_DONE, when nothing was recorded (a
 * refused precheck, opts.record false), and on a second call. A record
 * that could not be saved was said as a LABRUN_ERROR; its path is NULL
 * (never saved) or the file holds an earlier state (the summary's
 * record_lost).
 */
struct record *labrun_take_record(struct labrun *lr);

/*
 * Stop now: the engine of the run in progress stops (within a second;
 * its result comes marked interrupted), a resync wait or the build is
 * abandoned, the remaining runs and variants are left out; what was
 * built is still torn down. Returns at once; LABRUN_DONE follows.
 */
void labrun_stop(struct labrun *lr);

/* Stop if still running, join the thread (which may wait for a command
   in progress, an mkfs, and for the teardown), free everything not
   taken. NULL is a no-op. */
void labrun_free(struct labrun *lr);

/* The runner's copy of the lab, and variant i of the run (the lab's
   variants[i], or with opts.target the "target" variant 0). */
const struct lab *labrun_lab(const struct labrun *lr);
const struct lab_variant *labrun_variant(const struct labrun *lr, int i);

/* ---------------------------------------------------------------- check */

/* One line of a check, in order ("LAB:3: field: DEV: reason"). */
struct labrun_msg {
	bool note; /* a warning that refuses nothing */
	char *text;
};

struct labrun_check {
	int rc; /* 0: everything may go ahead; -EPERM: refused; another
		   negative errno: the check could not be made */
	bool space_refused; /* refused, maybe among other reasons, by
			       space_check() (no room for the workloads,
			       a directory other users can change): the
			       lab cannot run here as it is, which
			       `raidlab check` says too */
	struct labrun_msg *msgs;
	size_t nmsgs;
	char *plans; /* plan_format() of every selected array variant,
			each followed by an empty line; "" when none */
	char *rounds; /* labrun_check(): rounds_describe() of the run (the
			 order, the rounds, how often each array variant
			 is built); NULL from a failed precheck's copy */
	char **destroy; /* devices (as the lab names them) that hold data
			   the run would destroy: what a confirmation must
			   name */
	size_t ndestroy;
	char *destroy_text; /* guard_confirmed_describe() of them */
	/* confirm_set_take() of destroy from the inventory the check
	   judged: what a confirmation of destroy binds to (pass it as
	   labrun_opts.bound). Never NULL after labrun_check(). */
	struct confirm_set *bound;
};

/*
 * The precheck alone, now, in the caller's thread (a dry run, or the
 * TUI before it asks for a typed confirmation): plan every selected
 * array variant (scratch disks as placeholders) and guard its devices
 * against a fresh inventory and o->confirmed, and check every selected
 * variant (or o->target) has room for the selected workloads' data set
 * (space.h: a refusal, or a note for sparse scratch files that could
 * outgrow their directory). Changes nothing. Fills c (free with
 * labrun_check_done()) and returns c->rc.
 */
/* opts.hook, before a run (and its dry run): 0 when prog is a program
   that can be run, else -ENOENT or -EACCES with e saying so (field
   "--hook"). labrun-hook.c. */
int labrun_hook_check(const char *prog, struct err *e);

int labrun_check(const struct lab *lab, const struct labrun_opts *o,
    struct labrun_check *c);
void labrun_check_done(struct labrun_check *c);

#endif
