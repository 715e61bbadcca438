/*
 * The lab runner's life and its two channels to the front end: the event
 * queue (evq.h), and the hand-over list of finished items; the
 * counters and devices read under the mutex. The runner's own record
 * is labrun-record.c. See labrun.h. The front end's
 * thread, except the internal labrun_push(), labrun_emit(),
 * labrun_hand(), labrun_count(), labrun_set_devices() and
 * labrun_publish(), which the runner thread calls.
 */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/evq.h"
#include "base/i18n.h"
#include "base/xalloc.h"
#include "lab/lab-edit.h"
#include "labrun-int.h"
#include "labrun.h"
#include "results/record.h"

/* ---------------------------------------------------------------- queue */

void
labrun_push(struct labrun *lr, const struct labrun_event *ev)
{
	evq_push(lr->q, ev);
}

void
labrun_emit(struct labrun *lr, enum labrun_ev type, int variant, int workload,
    const char *fmt, ...)
{
	struct labrun_event ev;
	va_list ap;

	memset(&ev, 0, sizeof ev);
	ev.type = type;
	ev.variant = variant;
	ev.workload = workload;
	ev.repeat = -1;
	if (fmt != NULL) {
		va_start(ap, fmt);
		vsnprintf(ev.text, sizeof ev.text, fmt, ap);
		va_end(ap);
	}
	labrun_push(lr, &ev);
}

bool
labrun_pop(struct labrun *lr, struct labrun_event *ev)
{
	return evq_pop(lr->q, ev);
}

int
labrun_fd(const struct labrun *lr)
{
	return evq_fd(lr->q);
}

/* ---------------------------------------------------------------- hand-over */

void
labrun_hand(struct labrun *lr, struct labrun_result *r)
{
	struct labrun_rnode *n = xmalloc(sizeof *n);

	/* On disk before the front end hears of it. */
	labrun_record_item(lr, r);
	n->next = NULL;
	n->r = r;
	pthread_mutex_lock(&lr->lock);
	if (lr->rtail != NULL)
		lr->rtail->next = n;
	else
		lr->rhead = n;
	lr->rtail = n;
	pthread_mutex_unlock(&lr->lock);
	labrun_emit(lr, LABRUN_RESULT, r->variant, r->workload, NULL);
}

struct labrun_result *
labrun_take(struct labrun *lr)
{
	struct labrun_rnode *n;
	struct labrun_result *r = NULL;

	pthread_mutex_lock(&lr->lock);
	n = lr->rhead;
	if (n != NULL) {
		lr->rhead = n->next;
		if (lr->rhead == NULL)
			lr->rtail = NULL;
	}
	pthread_mutex_unlock(&lr->lock);
	if (n != NULL) {
		r = n->r;
		free(n);
	}
	return r;
}

void
labrun_result_free(struct labrun_result *r)
{
	if (r == NULL)
		return;
	wl_result_free(r->res);
	free(r->skipped);
	free(r->dir);
	json_decref(r->target);
	json_decref(r->build);
	free(r);
}

/* ---------------------------------------------------------------- shared state
 */

void
labrun_count(struct labrun *lr, int ran, int failed)
{
	pthread_mutex_lock(&lr->lock);
	lr->sum.ran += ran;
	lr->sum.failed += failed;
	pthread_mutex_unlock(&lr->lock);
}

void
labrun_summary(struct labrun *lr, struct labrun_summary *s)
{
	pthread_mutex_lock(&lr->lock);
	*s = lr->sum;
	pthread_mutex_unlock(&lr->lock);
}

static void
strv_free(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void
labrun_set_devices(struct labrun *lr, char **devs, char **roles, size_t n)
{
	char **old, **oldr;
	size_t nold;

	pthread_mutex_lock(&lr->lock);
	old = lr->devs;
	oldr = lr->roles;
	nold = lr->ndevs;
	lr->devs = devs;
	lr->roles = devs != NULL ? roles : NULL;
	lr->ndevs = devs != NULL ? n : 0;
	pthread_mutex_unlock(&lr->lock);
	strv_free(old, nold);
	if (oldr != NULL)
		strv_free(oldr, nold);
	if (devs == NULL && roles != NULL)
		strv_free(roles, n);
}

char **
labrun_device_roles(struct labrun *lr, size_t n)
{
	char **v = NULL;

	pthread_mutex_lock(&lr->lock);
	if (lr->roles != NULL && n == lr->ndevs) {
		v = xcalloc(n + 1, sizeof *v);
		for (size_t i = 0; i < n; i++)
			v[i] = lr->roles[i] ? xstrdup(lr->roles[i]) : NULL;
	}
	pthread_mutex_unlock(&lr->lock);
	return v;
}

char **
labrun_devices(struct labrun *lr, size_t *n)
{
	char **v = NULL;

	pthread_mutex_lock(&lr->lock);
	*n = lr->ndevs;
	if (lr->ndevs > 0) {
		v = xcalloc(lr->ndevs + 1, sizeof *v);
		for (size_t i = 0; i < lr->ndevs; i++)
			v[i] = xstrdup(lr->devs[i]);
	}
	pthread_mutex_unlock(&lr->lock);
	return v;
}

void
labrun_publish(struct labrun *lr, struct engine *eng)
{
	pthread_mutex_lock(&lr->lock);
	lr->eng = eng;
	if (eng != NULL)
		lr->eng_gen++;
	if (eng != NULL && atomic_load(&lr->stop))
		engine_stop(eng);
	pthread_mutex_unlock(&lr->lock);
}

unsigned long
labrun_totals(struct labrun *lr, struct engine_totals *t)
{
	unsigned long gen = 0;

	pthread_mutex_lock(&lr->lock);
	if (lr->eng != NULL) {
		engine_totals(lr->eng, t);
		gen = lr->eng_gen;
	} else
		memset(t, 0, sizeof *t);
	pthread_mutex_unlock(&lr->lock);
	return gen;
}

bool
labrun_stopping(const struct labrun *lr)
{
	return atomic_load(&lr->stop);
}

void
labrun_stop(struct labrun *lr)
{
	pthread_mutex_lock(&lr->lock);
	atomic_store(&lr->stop, true);
	lr->sum.stopped = true;
	if (lr->eng != NULL)
		engine_stop(lr->eng);
	pthread_mutex_unlock(&lr->lock);
}

const char *
labrun_vname(const struct lab_variant *v)
{
	return v->name ? v->name : v->directory ? v->directory : "?";
}

const struct lab *
labrun_lab(const struct labrun *lr)
{
	return lr->lab;
}

const struct lab_variant *
labrun_variant(const struct labrun *lr, int i)
{
	if (lr->has_target)
		return i == 0 ? &lr->target : NULL;
	if (i < 0 || (size_t)i >= lr->lab->nvariants)
		return NULL;
	return &lr->lab->variants[i];
}

/* ---------------------------------------------------------------- life */

/* A copy of a selection over n entries; NULL: all. */
static bool *
sel_copy(const bool *sel, size_t n)
{
	bool *v = xcalloc(n + 1, sizeof *v);

	for (size_t i = 0; i < n; i++)
		v[i] = sel == NULL || sel[i];
	return v;
}

static struct labrun *
labrun_new(const struct lab *lab, const struct labrun_opts *o)
{
	struct labrun *lr = xcalloc(1, sizeof *lr);
	const char *sd =
	    o->state_dir ? o->state_dir : getenv("RAIDLAB_STATE_DIR");

	lr->lab = lab_dup(lab);
	lr->vsel = sel_copy(o->variants, lab->nvariants);
	lr->wsel = sel_copy(o->workloads, lab->nworkloads);
	rounds_goal_of(&lr->goal, lab, o->repeats);
	lr->repeats = lr->goal.max;
	/* The record's lab says what ran, so that rerunning it repeats as
	   often: --repeats N is repeats = N. */
	if (o->repeats > 0) {
		struct err e;

		err_clear(&e);
		(void)lab_edit_repeats(lr->lab, o->repeats, &e);
	}
	lr->order = lab->order;
	lr->nv = o->target != NULL ? 1 : lab->nvariants;
	lr->confirmed = xcalloc(o->nconfirmed + 1, sizeof *lr->confirmed);
	for (size_t i = 0; i < o->nconfirmed; i++)
		lr->confirmed[i] = xstrdup(o->confirmed[i]);
	lr->nconfirmed = o->nconfirmed;
	lr->confirm_typed = o->confirm_typed;
	confirm_set_init(&lr->bound);
	if (o->bound != NULL) {
		confirm_set_copy(&lr->bound, o->bound);
		lr->bound_given = true;
	}
	lr->state_dir = sd != NULL && *sd != '\0' ? xstrdup(sd) : NULL;
	lr->tick_ms = o->tick_ms ? o->tick_ms : 250;
	lr->keep = o->keep;
	lr->scaled = o->scaled ? xstrdup(o->scaled) : NULL;
	lr->hook = o->hook ? xstrdup(o->hook) : NULL;
	lr->before_round = o->before_round;
	lr->before_round_arg = o->before_round_arg;
	lr->fleet_host = o->fleet_host ? xstrdup(o->fleet_host) : NULL;
	lr->record = o->record;
	if (o->record)
		lr->results =
		    o->results ? xstrdup(o->results) : record_results_dir(lab);
	if (o->target != NULL) {
		/* As `raidlab run --target` always described it. */
		memset(&lr->target, 0, sizeof lr->target);
		lr->target.name = xstrdup("target");
		lr->target.directory = xstrdup(o->target);
		lr->has_target = true;
	}
	labrun_rounds_init(lr);
	pthread_mutex_init(&lr->lock, NULL);
	atomic_init(&lr->stop, false);
	lr->joined = true;
	disk_list_init(&lr->inv);
	lr->q = evq_new(sizeof(struct labrun_event));
	return lr;
}

struct labrun *
labrun_start(const struct lab *lab, const struct labrun_opts *o, struct err *e)
{
	struct labrun *lr = labrun_new(lab, o);
	sigset_t all, old;
	int rc;

	/* The runner and the engines it starts block every signal. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&lr->thread, NULL, labrun_main, lr);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc != 0) {
		err_setf(e, -rc, _("cannot start the lab runner: %s"),
		    strerror(rc));
		labrun_free(lr);
		return NULL;
	}
	lr->joined = false;
	return lr;
}

void
labrun_free(struct labrun *lr)
{
	struct labrun_rnode *r, *rn;

	if (lr == NULL)
		return;
	if (!lr->joined) {
		labrun_stop(lr);
		pthread_join(lr->thread, NULL);
	}
	for (r = lr->rhead; r != NULL; r = rn) {
		rn = r->next;
		labrun_result_free(r->r);
		free(r);
	}
	if (lr->roles != NULL)
		strv_free(lr->roles, lr->ndevs);
	strv_free(lr->devs, lr->ndevs);
	strv_free(lr->confirmed, lr->nconfirmed);
	confirm_set_done(&lr->bound);
	free(lr->target.name);
	free(lr->target.directory);
	free(lr->vsel);
	free(lr->wsel);
	free(lr->state_dir);
	free(lr->results);
	free(lr->scaled);
	free(lr->hook);
	free(lr->fleet_host);
	record_free(lr->rec);
	labrun_rounds_free(lr);
	disk_list_done(&lr->inv);
	lab_free(lr->lab);
	evq_free(lr->q);
	pthread_mutex_destroy(&lr->lock);
	free(lr);
}
