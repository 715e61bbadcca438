/*
 * The lab runner's result record (labrun.h, opts.record): created and
 * saved with status "running" when the run starts, rewritten when a
 * workload run starts and after every item handed over, and at the end
 * with the final status and how its rounds stopped, so that what a run
 * did is on disk whatever happens to the front end (a kill -9 leaves a
 * "running" record that record_load() reads as interrupted); a fleet's
 * host (opts.fleet_host) keeps it in memory only. The record
 * holds copies of what the front end is handed: nothing in it is shared with
 * another thread. Runner thread, except labrun_take_record() (the front end's,
 * after LABRUN_DONE).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "base/err.h"
#include "base/i18n.h"
#include "labrun-int.h"
#include "labrun.h"
#include "results/compare.h"
#include "results/record.h"

/* The record's "rounds" as things stand. */
static void
rounds(struct labrun *lr, bool final)
{
	json_t *o = labrun_rounds_json(lr, final);

	record_set_rounds(lr->rec, o);
	json_decref(o);
}

/* Save; a failure is said once (the next saves try again). Returns
   whether it was saved. */
static bool
save(struct labrun *lr)
{
	char b[ERR_FILE_MAX + ERR_MSG_MAX];
	struct err e;

	/* a fleet's host keeps its record for the controller alone */
	if (lr->fleet_host != NULL)
		return true;
	err_clear(&e);
	if (record_save(lr->rec, lr->results, &e) == 0)
		return true;
	if (lr->rec_said)
		return false;
	lr->rec_said = true;
	labrun_emit(lr, LABRUN_ERROR, -1, -1, _("the record: %s"),
	    err_format(&e, b, sizeof b));
	return false;
}

bool
labrun_record_check(struct labrun *lr)
{
	char b[ERR_FILE_MAX + ERR_MSG_MAX];
	struct err e;

	if (!lr->record || lr->fleet_host != NULL)
		return true;
	err_clear(&e);
	if (record_results_check(lr->results, &e) == 0)
		return true;
	labrun_emit(lr, LABRUN_ERROR, -1, -1,
	    _("no record could be kept, so nothing runs: %s"),
	    err_format(&e, b, sizeof b));
	pthread_mutex_lock(&lr->lock);
	lr->sum.failed++;
	lr->sum.refused = true;
	pthread_mutex_unlock(&lr->lock);
	return false;
}

void
labrun_record_begin(struct labrun *lr)
{
	if (!lr->record)
		return;
	lr->rec = record_new(lr->lab);
	record_set_scaled(lr->rec, lr->scaled);
	record_set_fleet_host(lr->rec, lr->fleet_host);
	rounds(lr, false);
	save(lr);
}

void
labrun_record_progress(struct labrun *lr, int vi, int wi, int repeat)
{
	const struct lab_workload *w;
	const struct lab_variant *v;

	if (lr->rec == NULL)
		return;
	v = labrun_variant(lr, vi);
	w = &lr->lab->workloads[wi];
	record_set_in_progress(lr->rec, labrun_vname(v), lab_workload_name(w),
	    repeat);
	save(lr);
}

void
labrun_record_item(struct labrun *lr, const struct labrun_result *r)
{
	json_t *copy;

	if (lr->rec == NULL)
		return;
	if (r->kind == LABRUN_ITEM_BUILD) {
		if (r->build == NULL)
			return;
		copy = json_deep_copy(r->build);
		record_set_build(lr->rec, (size_t)r->build_index, copy);
		json_decref(copy);
	} else {
		record_set_in_progress(lr->rec, NULL, NULL, 0);
		record_add_run(lr->rec, labrun_variant(lr, r->variant), NULL,
		    &lr->lab->workloads[r->workload], r->repeat, r->res,
		    r->skipped);
		if (r->target != NULL) {
			copy = json_deep_copy(r->target);
			record_set_run_target(lr->rec, copy);
			json_decref(copy);
		}
		rounds(lr, false);
	}
	save(lr);
}

void
labrun_record_end(struct labrun *lr)
{
	struct labrun_summary s;

	if (lr->rec == NULL)
		return;
	labrun_summary(lr, &s);
	record_set_in_progress(lr->rec, NULL, NULL, 0);
	rounds(lr, true);
	record_set_status(lr->rec,
	    s.stopped      ? "interrupted"
		: s.failed ? "failed"
			   : "ok");
	/* What the repeats say, as compare and show would say it, for
	   whoever reads the file without raidlab. */
	record_set_stability(lr->rec, compare_stability_json(lr->rec));
	if (save(lr))
		return;
	/* Whatever is on disk, if anything, is not how the run ended. */
	pthread_mutex_lock(&lr->lock);
	lr->sum.record_lost = true;
	pthread_mutex_unlock(&lr->lock);
}

void
labrun_record_hook(struct labrun *lr, json_t *hook)
{
	if (lr->rec == NULL)
		return;
	record_add_hook(lr->rec, hook);
	save(lr);
}

struct record *
labrun_take_record(struct labrun *lr)
{
	struct record *rec = NULL;

	pthread_mutex_lock(&lr->lock);
	if (lr->sum.done) {
		rec = lr->rec;
		lr->rec = NULL;
	}
	pthread_mutex_unlock(&lr->lock);
	return rec;
}
