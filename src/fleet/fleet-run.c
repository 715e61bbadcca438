/*
 * The fleet controller (fleet-run.h): the run's hosts, its event queue,
 * the barrier, stop and the supervisor thread that starts one worker per
 * host (fleet-run-host.c), kills the ssh clients of sessions that outlive
 * a stop by the grace, joins the workers and says FLEET_EV_DONE. The
 * front end's thread for the API; the barrier and the events from any
 * worker, under fr->mu.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/err.h"
#include "base/evq.h"
#include "base/i18n.h"
#include "base/tick.h"
#include "base/xalloc.h"
#include "fleet-proto.h"
#include "fleet-run-int.h"
#include "lab/lab.h"
#include "results/record.h"

const char *
fleet_host_state_name(enum fleet_host_state s)
{
	switch (s) {
	case FLEET_HOST_IDLE:
		return _("waiting to start");
	case FLEET_HOST_PROBING:
		return _("probing");
	case FLEET_HOST_COPYING:
		return _("copying");
	case FLEET_HOST_RUNNING:
		return _("running");
	case FLEET_HOST_WAITING:
		return _("at the barrier");
	case FLEET_HOST_DONE:
		return _("done");
	case FLEET_HOST_FAILED:
		return _("failed");
	case FLEET_HOST_UNREACHABLE:
		return _("unreachable");
	case FLEET_HOST_MISSING:
		return _("no raidlab");
	case FLEET_HOST_VERSION:
		return _("another version");
	case FLEET_HOST_STOPPED:
		return _("stopped");
	}
	return "?";
}

bool
fleet_host_state_final(enum fleet_host_state s)
{
	return s >= FLEET_HOST_DONE;
}

void
fleet_emit(struct fleet_run *fr, enum fleet_ev type, int host, const char *fmt,
    ...)
{
	struct fleet_event ev;
	va_list ap;

	memset(&ev, 0, sizeof ev);
	ev.type = type;
	ev.host = host;
	if (host >= 0) {
		ev.state = atomic_load(&fr->hosts[host].state);
		ev.round = atomic_load(&fr->hosts[host].round);
	}
	if (fmt != NULL) {
		va_start(ap, fmt);
		vsnprintf(ev.text, sizeof ev.text, fmt, ap);
		va_end(ap);
	}
	evq_push(fr->q, &ev);
}

void
fleet_host_set(struct fleet_host *h, enum fleet_host_state s, const char *fmt,
    ...)
{
	struct fleet_event ev;
	va_list ap;

	atomic_store(&h->state, (int)s);
	memset(&ev, 0, sizeof ev);
	ev.type = FLEET_EV_STATE;
	ev.host = (int)h->index;
	ev.state = s;
	ev.round = atomic_load(&h->round);
	va_start(ap, fmt);
	vsnprintf(ev.text, sizeof ev.text, fmt, ap);
	va_end(ap);
	evq_push(h->fr->q, &ev);
}

/* Under fr->mu: when every host still running waits, send each its "go
   N" and say the round. A host ended or failed does not count. */
static void
barrier_check(struct fleet_run *fr)
{
	struct fleet_event ev;
	long top = 0;
	size_t waiting = 0;
	char buf[64];

	for (size_t i = 0; i < fr->nhosts; i++) {
		struct fleet_host *h = &fr->hosts[i];

		if (h->ended || fleet_host_state_final(atomic_load(&h->state)))
			continue;
		if (h->waiting == 0)
			return;
		waiting++;
	}
	if (waiting == 0)
		return;
	for (size_t i = 0; i < fr->nhosts; i++) {
		struct fleet_host *h = &fr->hosts[i];
		int n;

		if (h->waiting == 0)
			continue;
		n = fleet_proto_go(h->waiting, buf, sizeof buf);
		/* A full pipe cannot happen: one line per round. A closed
		   one is a host that ended meanwhile; it ends anyway. */
		if (h->stdin_w >= 0 && write(h->stdin_w, buf, (size_t)n) < 0) {
			/* its session is ending: judged there */
		}
		top = h->waiting > top ? h->waiting : top;
		h->waiting = 0;
		atomic_store(&h->state, FLEET_HOST_RUNNING);
	}
	fr->released = top;
	fr->sum.rounds = top;
	memset(&ev, 0, sizeof ev);
	ev.type = FLEET_EV_ROUND;
	ev.host = -1;
	ev.round = top;
	evq_push(fr->q, &ev);
}

void
fleet_barrier_wait(struct fleet_host *h, long n)
{
	struct fleet_run *fr = h->fr;
	char buf[64];
	int k;

	pthread_mutex_lock(&fr->mu);
	if (n == 0) {
		h->waiting = 0;
		h->ended = true;
		if (fr->barrier)
			barrier_check(fr);
		pthread_mutex_unlock(&fr->mu);
		return;
	}
	if (!fr->barrier) {
		/* No barrier asked: a host that waits anyway goes on. */
		k = fleet_proto_go(n, buf, sizeof buf);
		if (h->stdin_w >= 0 && write(h->stdin_w, buf, (size_t)k) < 0) {
			/* ending: judged by its worker */
		}
		pthread_mutex_unlock(&fr->mu);
		return;
	}
	h->waiting = n;
	atomic_store(&h->state, FLEET_HOST_WAITING);
	barrier_check(fr);
	pthread_mutex_unlock(&fr->mu);
}

/* Kill the ssh clients still running (their process groups). */
static void
kill_sessions(struct fleet_run *fr)
{
	for (size_t i = 0; i < fr->nhosts; i++)
		if (fr->hosts[i].pid > 0)
			kill(-fr->hosts[i].pid, SIGKILL);
}

static void *
supervise(void *arg)
{
	struct fleet_run *fr = arg;
	bool killed = false;
	sigset_t all;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	pthread_mutex_lock(&fr->mu);
	for (size_t i = 0; i < fr->nhosts; i++) {
		struct fleet_host *h = &fr->hosts[i];

		if (pthread_create(&h->thread, NULL, fleet_host_main, h) == 0) {
			h->started = true;
			fr->running++;
		} else {
			atomic_store(&h->state, FLEET_HOST_FAILED);
			fr->sum.hosts_failed++;
			fleet_emit(fr, FLEET_EV_STATE, (int)i,
			    _("%s: cannot start a thread for it"), h->ssh.name);
		}
	}
	while (fr->running > 0) {
		struct timespec ts;
		double left;

		if (!fr->stop || killed) {
			pthread_cond_wait(&fr->cond, &fr->mu);
			continue;
		}
		left = fr->stop_at + fr->grace - tick_now_s();
		if (left <= 0) {
			kill_sessions(fr);
			killed = true;
			continue;
		}
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_sec += (time_t)left;
		ts.tv_nsec += (long)((left - (double)(time_t)left) * 1e9);
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&fr->cond, &fr->mu, &ts);
	}
	pthread_mutex_unlock(&fr->mu);
	for (size_t i = 0; i < fr->nhosts; i++)
		if (fr->hosts[i].started)
			pthread_join(fr->hosts[i].thread, NULL);
	pthread_mutex_lock(&fr->mu);
	fr->sum.done = true;
	pthread_mutex_unlock(&fr->mu);
	fleet_emit(fr, FLEET_EV_DONE, -1, NULL);
	return NULL;
}

static void
host_init(struct fleet_run *fr, struct fleet_host *h, size_t index,
    const struct lab_host *lh, const struct fleet_opts *o)
{
	h->fr = fr;
	h->index = index;
	h->lh = lh;
	fleet_ssh_host(lh, fr->ssh_config, &h->ssh);
	h->ssh.name = h->name_addr =
	    xasprintf("%s (%s)", lh->name, lh->address);
	h->remote = fleet_remote_argv(fr->lab, o, lh, fr->barrier, "LAB");
	h->stdin_w = -1;
	atomic_init(&h->state, FLEET_HOST_IDLE);
	atomic_init(&h->variant, -1);
	atomic_init(&h->workload, -1);
	atomic_init(&h->round, 0);
	atomic_init(&h->rd, 0);
	atomic_init(&h->wr, 0);
	atomic_init(&h->fs, 0);
	atomic_init(&h->live, false);
}

struct fleet_run *
fleet_run_start(const struct lab *lab, const char *lab_path,
    const struct fleet_opts *o, struct err *e)
{
	struct fleet_run *fr;
	size_t n = 0;

	if (fleet_confirm_check(lab, o, e) < 0)
		return NULL;
	if (!fleet_run_wanted(lab, o->variants)) {
		err_setf(e, -EINVAL,
		    _("%s: no selected variant runs on a host"),
		    lab->path != NULL ? lab->path : lab->name);
		return NULL;
	}
	if (lab_path == NULL || access(lab_path, R_OK) < 0) {
		err_setf(e, -ENOENT, _("%s: the lab file cannot be read: %s"),
		    lab_path != NULL ? lab_path : "?",
		    lab_path != NULL ? strerror(errno) : strerror(ENOENT));
		return NULL;
	}
	fr = xcalloc(1, sizeof *fr);
	fr->lab = lab_dup(lab);
	fr->lab_path = xstrdup(lab_path);
	fr->q = evq_new(sizeof(struct fleet_event));
	fr->barrier = o->barrier || lab->barrier;
	fr->record = o->record;
	fr->grace = o->stop_grace > 0 ? o->stop_grace : FLEET_STOP_GRACE;
	fr->ssh_config = o->ssh_config ? xstrdup(o->ssh_config) : NULL;
	fr->version =
	    xstrdup(o->version != NULL ? o->version : PACKAGE_VERSION);
	fr->results = o->results != NULL ? xstrdup(o->results)
					 : record_results_dir(fr->lab);
	fr->stamp = xmalloc(32);
	record_stamp(time(NULL), fr->stamp, 32);
	fr->controller = fleet_controller_name();
	fr->id = fleet_record_id(fr->lab->name, fr->stamp, fr->controller);
	fr->sum.barrier = fr->barrier;
	pthread_mutex_init(&fr->mu, NULL);
	pthread_cond_init(&fr->cond, NULL);
	fr->hosts = xcalloc(fr->lab->nhosts, sizeof *fr->hosts);
	for (size_t i = 0; i < fr->lab->nhosts; i++)
		if (fleet_host_wanted(fr->lab, o->variants, &fr->lab->hosts[i]))
			host_init(fr, &fr->hosts[n], n, &fr->lab->hosts[i], o),
			    n++;
	fr->nhosts = n;
	fr->sum.hosts = n;
	if (pthread_create(&fr->supervisor, NULL, supervise, fr) != 0) {
		err_setf(e, -EAGAIN, "%s",
		    _("cannot start the fleet's thread"));
		fleet_run_free(fr);
		return NULL;
	}
	fr->supervised = true;
	return fr;
}

int
fleet_run_fd(const struct fleet_run *fr)
{
	return evq_fd(fr->q);
}

bool
fleet_run_pop(struct fleet_run *fr, struct fleet_event *ev)
{
	return evq_pop(fr->q, ev);
}

size_t
fleet_run_nhosts(const struct fleet_run *fr)
{
	return fr->nhosts;
}

const char *
fleet_run_host_name(const struct fleet_run *fr, size_t i)
{
	return i < fr->nhosts ? fr->hosts[i].lh->name : NULL;
}

const char *
fleet_run_host_address(const struct fleet_run *fr, size_t i)
{
	return i < fr->nhosts ? fr->hosts[i].lh->address : NULL;
}

static double
load_dbl(const _Atomic uint64_t *a)
{
	uint64_t u = atomic_load_explicit(a, memory_order_relaxed);
	double v;

	memcpy(&v, &u, sizeof v);
	return v;
}

void
fleet_run_rates(const struct fleet_run *fr, size_t i, struct fleet_rates *r)
{
	const struct fleet_host *h = &fr->hosts[i];
	int v = atomic_load_explicit(&h->variant, memory_order_relaxed);
	int w = atomic_load_explicit(&h->workload, memory_order_relaxed);

	memset(r, 0, sizeof *r);
	r->state = atomic_load(&h->state);
	r->variant = v >= 0 ? fr->lab->variants[v].name : NULL;
	r->workload = w >= 0 ? lab_workload_name(&fr->lab->workloads[w]) : NULL;
	r->round = atomic_load_explicit(&h->round, memory_order_relaxed);
	r->live = atomic_load_explicit(&h->live, memory_order_relaxed) &&
	    !fleet_host_state_final(r->state);
	r->read_mbps = load_dbl(&h->rd);
	r->write_mbps = load_dbl(&h->wr);
	r->files_s = load_dbl(&h->fs);
}

void
fleet_run_rates_sum(const struct fleet_run *fr, struct fleet_rates *r)
{
	struct fleet_rates x;

	memset(r, 0, sizeof *r);
	r->state = FLEET_HOST_DONE;
	for (size_t i = 0; i < fr->nhosts; i++) {
		fleet_run_rates(fr, i, &x);
		if (!fleet_host_state_final(x.state))
			r->state = FLEET_HOST_RUNNING;
		if (!x.live)
			continue;
		r->live = true;
		r->round = x.round > r->round ? x.round : r->round;
		r->read_mbps += x.read_mbps;
		r->write_mbps += x.write_mbps;
		r->files_s += x.files_s;
	}
}

const char *
fleet_run_id(const struct fleet_run *fr)
{
	return fr->id;
}

void
fleet_run_summary(struct fleet_run *fr, struct fleet_summary *s)
{
	pthread_mutex_lock(&fr->mu);
	*s = fr->sum;
	pthread_mutex_unlock(&fr->mu);
}

json_t *
fleet_run_take_records(struct fleet_run *fr)
{
	json_t *o;

	pthread_mutex_lock(&fr->mu);
	if (!fr->sum.done || fr->taken) {
		pthread_mutex_unlock(&fr->mu);
		return NULL;
	}
	fr->taken = true;
	o = json_object();
	for (size_t i = 0; i < fr->nhosts; i++)
		if (fr->hosts[i].record != NULL)
			json_object_set(o, fr->hosts[i].lh->name,
			    fr->hosts[i].record);
	pthread_mutex_unlock(&fr->mu);
	return o;
}

void
fleet_run_stop(struct fleet_run *fr)
{
	pthread_mutex_lock(&fr->mu);
	if (!fr->stop) {
		fr->stop = true;
		fr->sum.stopped = true;
		fr->stop_at = tick_now_s();
		/* End of file on each host's stdin: its raidlab stops and
		   tears down what it built (fleet-proto.h). */
		for (size_t i = 0; i < fr->nhosts; i++)
			if (fr->hosts[i].stdin_w >= 0) {
				close(fr->hosts[i].stdin_w);
				fr->hosts[i].stdin_w = -1;
			}
		pthread_cond_broadcast(&fr->cond);
	}
	pthread_mutex_unlock(&fr->mu);
}

void
fleet_run_free(struct fleet_run *fr)
{
	if (fr == NULL)
		return;
	if (fr->supervised) {
		fleet_run_stop(fr);
		pthread_join(fr->supervisor, NULL);
	}
	for (size_t i = 0; i < fr->nhosts; i++) {
		fleet_strv_free(fr->hosts[i].remote);
		free(fr->hosts[i].name_addr);
		json_decref(fr->hosts[i].record);
	}
	free(fr->hosts);
	pthread_mutex_destroy(&fr->mu);
	pthread_cond_destroy(&fr->cond);
	evq_free(fr->q);
	lab_free(fr->lab);
	free(fr->lab_path);
	free(fr->id);
	free(fr->controller);
	free(fr->results);
	free(fr->stamp);
	free(fr->version);
	free(fr->ssh_config);
	free(fr);
}
