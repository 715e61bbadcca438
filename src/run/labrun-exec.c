/*
 * The lab runner's thread: the precheck, then the rounds in the lab's
 * order (labrun-rounds.c) of each variant (array variants in
 * labrun-build.c) and each selected workload, each run followed the way
 * a front end follows an engine (poll its queue with the sampling tick
 * as timeout, sample the counters into the series, forward its events) and
 * handed over with its series and the target's facts. See labrun.h. Runner
 * thread only.
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/afile.h"
#include "base/err.h"
#include "base/i18n.h"
#include "base/tick.h"
#include "base/xalloc.h"
#include "build/confirm.h"
#include "build/space.h"
#include "build/statej.h"
#include "health.h"
#include "labrun-int.h"
#include "labrun.h"
#include "measure/param.h"
#include "measure/workload.h"
#include "results/record.h"

/* An hour of samples at the default tick; a longer run's samples merge
   in pairs (series.h), so 8 hours take 8 ticks a sample. */
#define LABRUN_SAMPLES 14400

/* An engine event, as the runner's own event about run (vi, wi, k). */
static void
forward(struct labrun *lr, const struct evq_event *in, int vi, int wi, int k)
{
	struct labrun_event ev;

	memset(&ev, 0, sizeof ev);
	ev.variant = vi;
	ev.workload = wi;
	ev.repeat = k;
	snprintf(ev.key, sizeof ev.key, "%s", in->key);
	snprintf(ev.text, sizeof ev.text, "%s", in->text);
	ev.value = in->value;
	ev.unit = in->unit;
	ev.too_fast = in->too_fast;
	ev.done = in->done;
	ev.total = in->total;
	switch (in->type) {
	case EVQ_TEST_START:
	case EVQ_TEST_END:
		ev.type = LABRUN_TEST;
		ev.end = in->type == EVQ_TEST_END;
		break;
	case EVQ_STEP:
		ev.type = LABRUN_STEP;
		break;
	case EVQ_NOTE:
		ev.type = LABRUN_NOTE;
		break;
	case EVQ_ERROR:
		ev.type = LABRUN_ERROR;
		break;
	case EVQ_DONE:
		return;
	}
	labrun_push(lr, &ev);
}

/* The tests a stall marked, said as the run's notes (the live lines
   gave their figures before the stall was known). */
static void
said_stalls(struct labrun *lr, const struct wl_result *res, int vi, int wi)
{
	for (size_t i = 0; i < res->ntests; i++)
		if (res->tests[i].stalled > 0)
			labrun_emit(lr, LABRUN_NOTE, vi, wi,
			    _("%s: stalled for %.1f s (raidlab was stopped, or "
			      "the machine suspended): not a plain result"),
			    res->tests[i].label ? res->tests[i].label
						: res->tests[i].key,
			    res->tests[i].stalled);
}

/* Follow eng to its end, sampling each tick; the joined result with the
   series attached. */
static struct wl_result *
follow(struct labrun *lr, struct engine *eng, struct sampler *smp, int vi,
    int wi, int k)
{
	struct evq *q = engine_events(eng);
	uint64_t period = lr->tick_ms * 1000000ull;
	struct wl_result *res;
	struct evq_event ev;
	struct tick tick;
	bool done = false;

	tick_start(&tick, period, tick_now_ns());
	sampler_arm(smp, period);
	while (!done) {
		struct pollfd p = { evq_fd(q), POLLIN, 0 };

		if (poll(&p, 1, tick_timeout_ms(&tick, tick_now_ns())) < 0 &&
		    errno != EINTR)
			break;
		if (tick_due(&tick, tick_now_ns(), NULL)) {
			sampler_tick(smp, eng);
			labrun_phase_tick(lr, vi, false);
		}
		while (evq_pop(q, &ev)) {
			forward(lr, &ev, vi, wi, k);
			if (ev.type == EVQ_DONE)
				done = true;
		}
	}
	res = engine_join(eng);
	if (res != NULL) {
		/* The last partial tick, then hand the series over. */
		sampler_tick(smp, eng);
		sampler_mark_stalls(smp, res);
		said_stalls(lr, res, vi, wi);
		series_done(&res->series);
		res->series = smp->series;
		res->tick = lr->tick_ms / 1000.0;
		series_init(&smp->series, 1);
	}
	return res;
}

/* One workload once on dir; NULL if it could not start (said, and why
   into why). */
static struct wl_result *
run_once(struct labrun *lr, int vi, int wi, int k, const char *dir, char *why,
    size_t len)
{
	const struct lab_workload *w = &lr->lab->workloads[wi];
	struct engine_job job = {
		.wl = w->wl,
		.params = w->values,
		.name = w->name,
		.target = dir,
		.drop_caches = lr->lab->cache == LAB_CACHE_DROP,
	};
	struct engine *eng = engine_new();
	struct wl_result *res;
	struct sampler smp;
	char **devs, **roles;
	size_t ndevs = 0;
	char b[ERR_FILE_MAX + ERR_MSG_MAX];
	struct err e;
	int ki = param_index(w->wl->params, "keep");

	job.keep = lr->keep || (ki >= 0 && w->values[ki].i != 0);
	/* The devices' baseline before the workload's first I/O. */
	sampler_init(&smp, LABRUN_SAMPLES);
	devs = labrun_devices(lr, &ndevs);
	roles = labrun_device_roles(lr, ndevs);
	sampler_watch(&smp, NULL, devs, roles, ndevs);
	for (size_t i = 0; i < ndevs; i++) {
		free(devs[i]);
		free(roles ? roles[i] : NULL);
	}
	free(devs);
	free(roles);
	err_clear(&e);
	if (engine_start(eng, &job, &e) < 0) {
		labrun_emit(lr, LABRUN_ERROR, vi, -1, "%s",
		    err_format(&e, b, sizeof b));
		snprintf(why, len, _("not run: %s"), e.msg);
		sampler_done(&smp);
		engine_free(eng);
		return NULL;
	}
	labrun_publish(lr, eng);
	res = follow(lr, eng, &smp, vi, wi, k);
	labrun_publish(lr, NULL);
	sampler_done(&smp);
	engine_free(eng);
	return res;
}

static void
hand_run(struct labrun *lr, int vi, int wi, int k, struct wl_result *res,
    const char *dir, json_t *target, const char *skipped)
{
	struct labrun_result *r = xcalloc(1, sizeof *r);

	r->kind = LABRUN_ITEM_RUN;
	r->variant = vi;
	r->workload = wi;
	r->repeat = k;
	r->res = res;
	r->skipped = skipped ? xstrdup(skipped) : NULL;
	r->dir = dir ? xstrdup(dir) : NULL;
	r->build_index = -1;
	/* A copy: the front end's thread reads it while the runner goes on
	   handing the same facts with the variant's later runs. */
	r->target =
	    res != NULL && target != NULL ? json_deep_copy(target) : NULL;
	labrun_hand(lr, r);
}

/* The target of the variant whose workloads run now. */
struct vrun {
	int vi;
	const char *dir;
	json_t *target; /* record_target_json() when the workloads started */
	struct health h; /* the baseline then */
	char *broken; /* why the target is not used any more, or NULL */
};

/* The target is broken: said once, the variant counted failed, and the
   runs still to come (its later rounds too) are skipped with the
   reason. */
static void
target_broken(struct labrun *lr, struct vrun *v, const struct err *e)
{
	char why[ERR_MSG_MAX + 32];

	if (v->broken != NULL)
		return;
	v->broken = xstrdup(e->msg);
	labrun_emit(lr, LABRUN_ERROR, v->vi, -1, _("variant %s: %s"),
	    labrun_vname(labrun_variant(lr, v->vi)), e->msg);
	labrun_count(lr, 0, 1);
	snprintf(why, sizeof why, _("not run: %s"), v->broken);
	labrun_variant_dead(lr, v->vi, why);
}

/* A run that met a broken target failed, whatever its figures say. */
static void
fail_result(struct wl_result *res, const char *why)
{
	if (res->status == WL_FAILED) {
		wl_result_add_note(res, why);
		return;
	}
	res->status = WL_FAILED;
	free(res->error);
	res->error = xstrdup(why);
}

/* Round k of workload wi on the variant's target, checked before and
   after the run; prev: the seconds its previous run took. */
static void
one_round(struct labrun *lr, struct vrun *v, int wi, int64_t k, double *prev)
{
	char why[ERR_MSG_MAX + 32];
	struct rounds_pair *p = labrun_pair(lr, v->vi, wi);
	struct labrun_event ev;
	struct wl_result *res;
	struct err e;

	err_clear(&e);
	if (v->broken == NULL && health_check(&v->h, &e) < 0)
		target_broken(lr, v, &e);
	if (v->broken != NULL) {
		snprintf(why, sizeof why, _("not run: %s"), v->broken);
		rounds_pair_add(p, NULL);
		hand_run(lr, v->vi, wi, (int)k, NULL, NULL, NULL, why);
		return;
	}
	memset(&ev, 0, sizeof ev);
	ev.type = LABRUN_RUN;
	ev.variant = v->vi;
	ev.workload = wi;
	ev.repeat = (int)k;
	ev.value = *prev;
	labrun_rounds_event(lr, v->vi, wi, k, &ev);
	snprintf(ev.text, sizeof ev.text, "%s",
	    lab_workload_name(&lr->lab->workloads[wi]));
	labrun_push(lr, &ev);
	labrun_record_progress(lr, v->vi, wi, (int)k);
	res = run_once(lr, v->vi, wi, (int)k, v->dir, why, sizeof why);
	if (res == NULL) {
		/* Recorded all the same: a record must list every planned
		   run, and why it has no figures. */
		rounds_pair_add(p, NULL);
		labrun_count(lr, 0, 1);
		hand_run(lr, v->vi, wi, (int)k, NULL, NULL, NULL, why);
		err_clear(&e);
		if (health_check(&v->h, &e) < 0)
			target_broken(lr, v, &e);
		return;
	}
	*prev = res->wall;
	err_clear(&e);
	if (health_check(&v->h, &e) < 0) {
		target_broken(lr, v, &e);
		fail_result(res, e.msg);
	}
	labrun_count(lr, 1, res->status == WL_FAILED);
	/* Counted before the hand-over: res is the front end's after. */
	rounds_pair_add(p, res);
	hand_run(lr, v->vi, wi, (int)k, res, v->dir, v->target, NULL);
}

/* Workload wi on the variant's target: round k, or (k 0, order
   grouped) round after round until its pair is done. */
static void
workload_rounds(struct labrun *lr, struct vrun *v, int wi, int64_t k)
{
	double prev = 0;

	if (k > 0) {
		prev = labrun_pair(lr, v->vi, wi)->last;
		one_round(lr, v, wi, k, &prev);
		return;
	}
	/* At least one round, so that a variant that broke on an earlier
	   workload still lists this one, skipped with the reason. */
	k = 0;
	do {
		if (!labrun_round_gate(lr))
			break;
		one_round(lr, v, wi, ++k, &prev);
	} while (!labrun_stopping(lr) && labrun_pair_more(lr, v->vi, wi));
}

void
labrun_variant_runs(struct labrun *lr, int vi, const char *dir, int64_t k)
{
	struct vrun v = { .vi = vi, .dir = dir };
	struct err e;

	/* The target's facts as the variant's workloads find it (mounted,
	   for an array): taken later, a lazily unmounted target would be
	   recorded as whatever the path leads to then. */
	v.target = record_target_json(dir);
	err_clear(&e);
	if (health_take(&v.h, dir, &e) < 0)
		target_broken(lr, &v, &e);
	for (size_t i = 0; i < lr->lab->nworkloads && !labrun_stopping(lr); i++)
		if (lr->wsel[i])
			workload_rounds(lr, &v, (int)i, k);
	health_done(&v.h);
	json_decref(v.target);
	free(v.broken);
}

void
labrun_skip_variant(struct labrun *lr, int vi, int64_t k, const char *why)
{
	labrun_variant_dead(lr, vi, why);
	for (size_t i = 0; i < lr->lab->nworkloads; i++) {
		if (!lr->wsel[i])
			continue;
		rounds_pair_add(labrun_pair(lr, vi, (int)i), NULL);
		hand_run(lr, vi, (int)i, k > 0 ? (int)k : 1, NULL, NULL, NULL,
		    why);
	}
}

/* The first directory of path (absolute) that is missing, which mkdir
   -p would make; NULL when path is there. Caller frees. */
static char *
first_missing(const char *path)
{
	struct stat st;

	for (const char *p = path + 1;; p++) {
		if (*p != '/' && *p != '\0')
			continue;
		char *head = xstrndup(path, (size_t)(p - path));

		if (stat(head, &st) < 0 && errno == ENOENT)
			return head;
		free(head);
		if (*p == '\0')
			return NULL;
	}
}

/* Remove dir and its parents up to top, the directories a run made,
   as long as they are empty: a fleet's host keeps nothing. */
static void
remove_made(const char *dir, const char *top)
{
	char *d = xstrdup(dir), *slash;
	size_t n = strlen(top);

	while (strlen(d) >= n && rmdir(d) == 0 && strlen(d) > n &&
	    (slash = strrchr(d, '/')) != NULL && slash != d)
		*slash = '\0';
	free(d);
}

/* A directory variant: created when missing, then measured (round k;
   0: every round); on a fleet's host what was created is removed again
   (unless kept). */
static void
directory_variant(struct labrun *lr, int vi, int64_t k)
{
	const struct lab_variant *v = labrun_variant(lr, vi);
	char **devs = NULL, *made;
	size_t ndevs = 0;
	struct err e;
	int rc;

	made = lr->fleet_host != NULL && !lr->keep ? first_missing(v->directory)
						   : NULL;
	if ((rc = afile_mkdirs(v->directory, 0755)) < 0) {
		free(made);
		char why[ERR_MSG_MAX];

		snprintf(why, sizeof why, _("cannot create %s: %s"),
		    v->directory, strerror(-rc));
		labrun_emit(lr, LABRUN_ERROR, vi, -1, _("variant %s: %s"),
		    labrun_vname(v), why);
		labrun_skip_variant(lr, vi, k, why);
		labrun_count(lr, 0, 1);
		return;
	}
	/* Again: an earlier variant may have taken the room (kept files). */
	err_clear(&e);
	if (space_directory(v->directory, lr->dataset, &e) == SPACE_REFUSE) {
		labrun_emit(lr, LABRUN_ERROR, vi, -1, _("variant %s: %s"),
		    labrun_vname(v), e.msg);
		labrun_skip_variant(lr, vi, k, e.msg);
		labrun_count(lr, 0, 1);
	} else {
		labrun_hook(lr, vi, v->directory, NULL);
		disk_dir_devices(v->directory, &devs, &ndevs);
		labrun_set_devices(lr, devs, NULL, ndevs);
		labrun_variant_runs(lr, vi, v->directory, k);
		labrun_set_devices(lr, NULL, NULL, 0);
	}
	if (made != NULL)
		remove_made(v->directory, made);
	free(made);
}

static void
announce(struct labrun *lr, int vi)
{
	const struct lab_variant *v = labrun_variant(lr, vi);
	struct labrun_event ev;

	memset(&ev, 0, sizeof ev);
	ev.type = LABRUN_VARIANT;
	ev.variant = vi;
	ev.workload = -1;
	ev.repeat = -1;
	snprintf(ev.text, sizeof ev.text, "%s", labrun_vname(v));
	snprintf(ev.key, sizeof ev.key, "%s",
	    v->directory ? "directory" : "array");
	labrun_push(lr, &ev);
}

/* Every precheck line as an event; false when refused. devices: the
   devices too (an array is selected, or something confirmed), not only
   the room for the workloads. */
static bool
precheck(struct labrun *lr, bool devices)
{
	struct labrun_need need = { .wsel = lr->wsel,
		.repeats = lr->repeats,
		.keep = lr->keep,
		.target = lr->has_target ? lr->target.directory : NULL };
	struct labrun_check c;
	bool space_refused;
	int rc;

	rc = labrun_precheck(lr->lab, lr->vsel, &need, devices,
	    (const char *const *)lr->confirmed, lr->nconfirmed,
	    lr->confirm_typed, lr->fleet_host, lr->state_dir, &lr->inv, &c);
	space_refused = c.space_refused;
	for (size_t i = 0; i < c.nmsgs; i++)
		labrun_emit(lr, c.msgs[i].note ? LABRUN_NOTE : LABRUN_ERROR, -1,
		    -1, "%s", c.msgs[i].text);
	labrun_check_done(&c);
	/* The confirmation binds to the disks it was given for, as this
	   inventory shows them, before anything is built. */
	if (rc == 0 && !lr->bound_given)
		confirm_set_take(&lr->bound, &lr->inv,
		    (const char *const *)lr->confirmed, lr->nconfirmed);
	if (rc == 0)
		return true;
	pthread_mutex_lock(&lr->lock);
	lr->sum.failed++;
	lr->sum.refused = true;
	lr->sum.space_refused = space_refused;
	pthread_mutex_unlock(&lr->lock);
	return false;
}

void
labrun_run_variant(struct labrun *lr, int vi, int64_t k)
{
	/* Its rounds ended (not built, broken): each later round lists it
	   skipped, so that the record shows every round of every variant. */
	if (lr->dead[vi] != NULL) {
		labrun_skip_variant(lr, vi, k, lr->dead[vi]);
		return;
	}
	announce(lr, vi);
	if (lr->has_target) {
		labrun_hook(lr, 0, lr->target.directory, NULL);
		labrun_variant_runs(lr, 0, lr->target.directory, k);
	} else if (lr->lab->variants[vi].directory == NULL) {
		labrun_array_variant(lr, vi, k);
	} else {
		directory_variant(lr, vi, k);
	}
}

static void
run_lab(struct labrun *lr)
{
	const struct lab *lab = lr->lab;
	bool arrays = false;

	lr->dataset = space_dataset(lab, lr->wsel, lr->repeats, lr->keep);
	if (lr->has_target) {
		if (!precheck(lr, false))
			return;
	} else {
		for (size_t i = 0; i < lab->nvariants; i++)
			arrays |=
			    lr->vsel[i] && lab->variants[i].directory == NULL;
		if (!precheck(lr, arrays || lr->nconfirmed > 0))
			return;
	}
	/* Passed, nothing changed yet: a run whose record would be lost is
	   not worth making. */
	if (!labrun_record_check(lr))
		return;
	/* From here on there is something to record. */
	labrun_record_begin(lr);
	labrun_rounds(lr);
}

void *
labrun_main(void *arg)
{
	struct labrun *lr = arg;

	run_lab(lr);
	statej_close(lr->j);
	lr->j = NULL;
	labrun_record_end(lr);
	pthread_mutex_lock(&lr->lock);
	lr->sum.done = true;
	pthread_mutex_unlock(&lr->lock);
	labrun_emit(lr, LABRUN_DONE, -1, -1, NULL);
	return NULL;
}
