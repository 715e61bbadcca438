/*
 * The provisioner: turns one array variant into a mounted filesystem and
 * back, for real. prov_prepare() creates the scratch disks (journaled),
 * builds the plan (plan.h) and runs the guards (guard.h) against a fresh
 * inventory and the user's --yes-destroy list; prov_setup() opens every
 * device O_EXCL, then runs the plan's steps through exec.h, journaling
 * each object before it is created (statej.h) and waiting for every
 * initial resync; prov_facts() records what was built; prov_teardown()
 * undoes, newest first, exactly the steps that ran (also after a failed
 * step) and releases the scratch disks. Everything that happens goes
 * into one JSON object (prov->build) for the result record: the plan,
 * each step's command, exit status, duration and output, the resync
 * waits, the facts, the teardown, the status and the error.
 *
 * Thread: the lab runner's (labrun-build.c), for raidlab run and the TUI
 * alike; cb functions are called on it. The callbacks are the only
 * output.
 */
#ifndef RAIDLAB_PROVISION_H
#define RAIDLAB_PROVISION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "guard.h"
#include "lab/lab.h"
#include "plan.h"
#include "scratch.h"

struct confirm_set;
struct disk_list;
struct err;
struct errlist;
struct guard_dev;
struct mdwatch;
struct lab_variant;
struct statej;

/* Why raidlab labels scratch results (record, tables, plan). */
#define PROV_SCRATCH_LABEL "scratch: functional, not representative"

/*
 * A fault phase as it stands: what it did to the array, and how far the
 * rebuild, scrub or replace it started has gone. Not md's words: md's
 * watcher (mdwatch.h) fills it today, a btrfs scrub or replace watcher
 * fills the same fields. A plain copy, safe to hand to another thread.
 */
struct prov_progress {
	char phase[16]; /* the lab's phase: "degraded", "rebuild", "check" */
	char dev[64]; /* the array it acts on ("/dev/md/rl-a"); "" when
			 the phase acts on a filesystem's members (btrfs) */
	char failed[128]; /* the members it failed, ", " between them */
	unsigned nfailed, nmembers; /* of the array's members */
	bool watched; /* a rebuild, scrub or replace is followed */
	/* The rest only when watched. */
	char action[32]; /* the kernel's word ("recover", "check",
			    "scrub"); "" before it is seen running */
	uint64_t done, total; /* bytes (a btrfs replace: permille of 1000);
				 total 0: not known yet */
	uint64_t rate; /* bytes per second; 0: not known yet */
	double elapsed; /* seconds since it started; its whole length once
			   finished */
	bool finished; /* it ended by itself (the array is idle again) */
};

struct prov_cb {
	/* A step starts: its command line, or a translated description. */
	void (*step)(void *arg, const char *what);
	/* A resync runs on dev: done of total sectors (total 0: unknown). */
	void (*sync)(void *arg, const char *dev, unsigned long long done,
	    unsigned long long total);
	/* Abandon resync waits (a stop was asked). */
	bool (*stopping)(void *arg);
	/* Each interval of prov_phase_end()'s wait for the phase's rebuild
	   or scrub: how it stands. May be NULL. */
	void (*phase)(void *arg, const struct prov_progress *pr);
	void *arg;
};

struct prov {
	const struct lab_variant *v; /* borrowed */
	struct statej *j; /* borrowed */
	const char *state_dir; /* NULL: /run/raidlab */
	const char *sysroot; /* NULL: /sys (tests) */
	struct plan *plan;
	struct scratch scratch;
	bool has_scratch;
	int *ids; /* journal id per step, -1 when none */
	json_t **pre, **post; /* per step: identities of what its undo
				 names, before it ran and once it succeeded
				 (ident.h); NULL when not taken */
	json_t **restore; /* per step: what a restore step found, [[ATTR,
			     VALUE]...] to write back in order (its undo,
			     provision-queue.c); NULL when none */
	size_t ran; /* steps started (their undo is due) */
	bool mounted; /* setup completed */
	json_t *build; /* owned reference */
	/* The workloads' data set (space.h), set after prov_init():
	   prov_prepare() refuses a variant without room for it before it
	   makes a scratch disk. 0: not checked. */
	uint64_t dataset;
	/* How the front end confirms data to destroy, as the guards'
	   messages name it (GUARD_CONFIRM_OPTION after prov_init()). */
	enum guard_confirm confirm;
	/* What each confirmed name designated when the confirmation was
	   given (confirm.h), borrowed: prov_prepare() refuses a confirmed
	   device that is no longer that one. NULL: nothing was bound, so
	   no confirmation holds. */
	const struct confirm_set *bound;
	struct mdwatch *watch; /* the phase's rebuild or scrub, followed */
	/* The phase's allowances on identities (ident.h), {uuid, rdevs},
	   from its first fault on; NULL before or without one. */
	json_t *allow;
	/* The watch's last reading once prov_phase_end() ended it, for
	   prov_phase_progress(); watched false until then. */
	struct prov_progress watched;
};

/* Zero p for variant v; build gets {variant, scratch, status
   "planned"}. */
void prov_init(struct prov *p, const struct lab_variant *v, struct statej *j,
    const char *state_dir);
void prov_done(struct prov *p);

/* The guards' view of the plan's devices that exist (placeholders of
   scratch disks not made yet are left out); d has room for p->ndevs.
   Returns how many. */
size_t prov_guard_devs(const struct plan *p, struct guard_dev *d);

/* The variant needs no md, or the kernel has the md driver. */
bool prov_md_available(const struct lab_variant *v);

/*
 * Of lab's variants selected by sel (NULL: all), how many cannot build
 * here (prov_md_available() false); *nsel gets how many are selected and,
 * when buildable is not NULL, buildable[i] whether variant i is selected
 * and can build.
 */
size_t prov_md_missing(const struct lab *lab, const bool *sel, size_t *nsel,
    bool *buildable);

/*
 * Refuse an md variant on a kernel without md (-ENODEV), and one with
 * no room for p->dataset on its scratch disks or in their directory
 * (-ENOSPC, space.h). Create the
 * scratch disks (unless dry_run), build the plan and judge
 * its devices: inv must be a fresh probed inventory (it is rescanned
 * after the scratch disks appear); confirmed is the --yes-destroy list
 * for this variant, each entry checked against p->bound first.
 * Problems go into errs as "file:line: field: DEV: reason". Returns 0,
 * -EPERM when the guards refuse (nothing was touched; the scratch disks
 * made for it are released), or another negative errno with e set.
 */
int prov_prepare(struct prov *p, bool dry_run, struct disk_list *inv,
    const char *const *confirmed, size_t nconfirmed, const char *file,
    struct errlist *errs, struct err *e);

/*
 * Open all devices exclusively, then run the plan. On a failed step the
 * error names the step and why (the exit status and the last output
 * line); call prov_teardown() in every case.
 */
int prov_setup(struct prov *p, const struct prov_cb *cb, struct err *e);

/*
 * Record what was built in build.facts: md {DEV: {name, level, layout,
 * chunk_size, raid_disks, bitmap_location, consistency_policy, ... (md/
 * in sysfs, flat), mdadm_detail}}, mdstat (/proc/mdstat), dumpe2fs,
 * xfs_info, btrfs_df, btrfs_show, "readahead DEV" (outputs, or {error,
 * output}), mount {fstype, source, mount, super} (mountinfo), queues
 * {DEV: blkqueue_facts()} of every member and spare, as the plan's
 * steps left them.
 */
void prov_facts(struct prov *p);
/*
 * The lab's phase (plan.h), in build "phase": {name, md, failed [], before
 * {mdstat, degraded, sync_action, mismatch_cnt, array_state} (btrfs:
 * {device_stats, scrub_status, scrub_stats}), sync (mdwatch.h,
 * btrfswatch.h: the rebuild or scrub), after {...}}. prov_setup() calls
 * prov_phase_step() after each step (the one that starts a rebuild or
 * scrub starts the watch) and prov_phase_begin() once built; the runner
 * calls prov_phase_end(wait true) after the workloads: it records in
 * "covered" whether md was still busy when they ended (1; 0: the rebuild
 * or scrub ended first, and their figures mix both states; -1: nothing
 * followed), waits for md to be idle (cb's stopping() ends the wait;
 * cb's phase() hears how it stands each interval) and records the state
 * after. Nothing for a healthy variant. prov_teardown() ends a watch left
 * running, without waiting, and once the filesystem is gone calls
 * prov_phase_gone(): btrfs-progs's record of the scrub of a filesystem
 * that no longer exists (/var/lib/btrfs/scrub.status.FSID) is removed,
 * and the teardown's list says so.
 */
void prov_phase_step(struct prov *p, size_t i);
/* Before step i: the first that fails a member journals first what the
   identities of the array and its members may become (ident.h). */
void prov_phase_before(struct prov *p, size_t i);
void prov_phase_begin(struct prov *p);
int prov_phase_end(struct prov *p, const struct prov_cb *cb, bool wait);
void prov_phase_gone(struct prov *p, json_t *list);

/* The phase of p as it stands: false (pr zeroed) for a healthy variant.
   The provisioner's thread, during the workloads or after
   prov_phase_end(). */
bool prov_phase_progress(const struct prov *p, struct prov_progress *pr);
/* Seconds until pr's rebuild, scrub or replace ends at its rate; -1
   when not known (not running, no rate or total yet). */
double prov_progress_eta(const struct prov_progress *pr);

/* A small text file whole (the first 64K: /proc/mdstat); NULL when
   unreadable. Caller frees. */
char *prov_read_text(const char *path);

/* Run a PLAN_SYSFS step as run_cmd() runs a command: said through
   cb->step, its entry appended to steps (command, status, exit_status,
   sysfs {device, attr, value, found, now}); 0, or -errno with why
   filled. */
int prov_sysfs(struct prov *p, const struct plan_step *s, json_t *steps,
    const struct prov_cb *cb, char *why, size_t wlen);

/*
 * provision-queue.c. prov_queue_check(): the scheduler each member of
 * plan pl (of variant v) that exists is to get is one it offers, else an
 * entry in errs at v's scheduler key naming the member and what it
 * offers, and -EPERM (scratch disks not made yet are checked once they
 * are: prov_prepare() calls it).
 * prov_queue_step(): run restore step i (plan_step.restore): journal
 * what it finds (statej_add_sysfs(); for the scheduler, the depth too,
 * which a switch resets), then write, its entry appended to
 * steps as prov_sysfs() does; 0 or -errno with why filled (and e, when
 * the journal refused). prov_queue_undo(): write back what step i found,
 * on the same device only (ident.h), its entry in list; false when the
 * write failed (first and e get the first error). prov_queue_facts():
 * build.facts.queues.
 */
int prov_queue_check(const struct plan *pl, const struct lab_variant *v,
    const char *sysroot, const char *file, struct errlist *errs);
int prov_queue_step(struct prov *p, size_t i, json_t *steps,
    const struct prov_cb *cb, char *why, size_t wlen, struct err *e);
bool prov_queue_undo(struct prov *p, size_t i, json_t *list,
    const struct prov_cb *cb, int *first, struct err *e);
json_t *prov_queue_facts(const struct prov *p);

/* Undo every step that ran, newest first, and release the scratch
   disks. Goes on after a failure; returns the first error. */
int prov_teardown(struct prov *p, const struct prov_cb *cb, struct err *e);

/* Where the filesystem is mounted once prov_setup() succeeded. */
const char *prov_target(const struct prov *p);

#endif
