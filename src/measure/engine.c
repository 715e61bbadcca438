/*
 * The engine's front-end half and its driver thread: start, stop, join,
 * counters, and the life of one run (private directory, prepare, run,
 * cleanup, status). The workload-facing half (tests, workers, notes) is
 * engine-wl.c. Threads as engine.h says.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/err.h"
#include "base/i18n.h"
#include "base/xalloc.h"
#include "engine-int.h"
#include "param.h"
#include "workload.h"

struct engine *
engine_new(void)
{
	struct engine *eng = xcalloc(1, sizeof *eng);

	eng->q = evq_new(sizeof(struct evq_event));
	eng->tfd = eng->dirfd = -1;
	pthread_mutex_init(&eng->lock, NULL);
	atomic_init(&eng->stop, ENGINE_RUNNING);
	return eng;
}

void
engine_free(struct engine *eng)
{
	if (eng == NULL)
		return;
	if (eng->params != NULL)
		param_values_done(eng->job.wl->params, eng->params,
		    param_count(eng->job.wl->params));
	free(eng->params);
	free(eng->name);
	free(eng->target);
	free(eng->dir);
	free(eng->base);
	engine_dir_close(eng);
	wl_result_free(eng->res);
	evq_free(eng->q);
	pthread_mutex_destroy(&eng->lock);
	free(eng);
}

void
engine_stop(struct engine *eng)
{
	int want = ENGINE_RUNNING;

	/* A failure that came first keeps its status. */
	atomic_compare_exchange_strong(&eng->stop, &want, ENGINE_STOPPED);
}

struct evq *
engine_events(struct engine *eng)
{
	return eng->q;
}

double
engine_elapsed(const struct engine *eng)
{
	return (double)(wl_now_ns() - eng->t0) / 1e9;
}

void
engine_totals(struct engine *eng, struct engine_totals *out)
{
	unsigned i;

	memset(out, 0, sizeof *out);
	out->t = engine_elapsed(eng);
	for (i = 0; i < ENGINE_MAX_WORKERS; i++) {
		struct wl_counters *c = &eng->slots[i];

		out->bytes_read +=
		    atomic_load_explicit(&c->bytes_read, memory_order_relaxed);
		out->bytes_written += atomic_load_explicit(&c->bytes_written,
		    memory_order_relaxed);
		out->files +=
		    atomic_load_explicit(&c->files, memory_order_relaxed);
		out->ops += atomic_load_explicit(&c->ops, memory_order_relaxed);
	}
}

void
engine_event(struct engine *eng, enum evq_type type, const char *key,
    const char *text)
{
	struct evq_event ev;

	memset(&ev, 0, sizeof ev);
	ev.type = type;
	snprintf(ev.key, sizeof ev.key, "%s", key ? key : "");
	snprintf(ev.text, sizeof ev.text, "%s", text ? text : "");
	evq_push(eng->q, &ev);
}

static void
set_status(struct engine *eng)
{
	struct wl_result *res = eng->res;
	int stop = atomic_load(&eng->stop);

	if (eng->error != NULL) {
		res->status = WL_FAILED;
		res->error = eng->error;
		eng->error = NULL;
	} else if (stop == ENGINE_STOPPED) {
		res->status = WL_INTERRUPTED;
	} else {
		res->status = WL_OK;
	}
}

/* The driver thread: the whole life of one run. */
static void *
driver(void *arg)
{
	struct engine *eng = arg;
	const struct workload *wl = eng->job.wl;
	struct wl_run *r = &eng->run;
	int rc = 0;

	clock_gettime(CLOCK_REALTIME, &eng->res->start);
	engine_event(eng, EVQ_STEP, NULL, _("preparing"));
	if (wl->prepare != NULL && !wl_stopping(r))
		rc = wl->prepare(r);
	if (rc == 0 && !wl_stopping(r))
		rc = wl->run(r);
	if (eng->cur != NULL)
		wl_test_end(r, 0); /* stopped inside a test */
	if (rc < 0 && rc != -EINTR && eng->error == NULL)
		wl_run_fail(r, rc, _("%s failed: %s"), wl->name, strerror(-rc));
	engine_event(eng, EVQ_STEP, NULL, _("cleaning up"));
	if (wl->cleanup != NULL)
		wl->cleanup(r);
	if (!eng->job.keep && (rc = engine_dir_remove(eng)) == -ESTALE)
		wl_note(r,
		    _("%s was moved or replaced during the run: left "
		      "as it is"),
		    eng->dir);
	else if (!eng->job.keep && rc < 0)
		wl_note(r, _("could not remove %s: %s"), eng->dir,
		    strerror(-rc));
	else if (eng->job.keep)
		wl_note(r, _("files kept in %s"), eng->dir);
	clock_gettime(CLOCK_REALTIME, &eng->res->end);
	eng->res->wall = engine_elapsed(eng);
	set_status(eng);
	engine_event(eng, EVQ_DONE, NULL, wl_status_name(eng->res->status));
	return NULL;
}

static void
copy_job(struct engine *eng, const struct engine_job *job)
{
	const struct param *p = job->wl->params;
	size_t n = param_count(p);

	eng->job = *job;
	eng->name = xstrdup(job->name ? job->name : job->wl->name);
	eng->target = xstrdup(job->target);
	eng->params = xcalloc(n + 1, sizeof *eng->params);
	param_values_init(p, eng->params);
	if (job->params != NULL)
		param_values_copy(p, eng->params, job->params);
	eng->job.params = eng->params;
	eng->job.name = eng->name;
	eng->job.target = eng->target;
}

int
engine_start(struct engine *eng, const struct engine_job *job, struct err *e)
{
	struct stat st;
	sigset_t all, old;
	int rc;

	if (job->wl->run == NULL)
		return err_setf(e, -ENOSYS, _("workload %s cannot run yet"),
		    job->wl->name);
	if (stat(job->target, &st) < 0)
		return err_set(e, -errno, job->target, 0, NULL, "%s",
		    strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return err_set(e, -ENOTDIR, job->target, 0, NULL, "%s",
		    _("not a directory"));
	copy_job(eng, job);
	if ((rc = engine_dir_make(eng, e)) < 0) {
		engine_dir_close(eng);
		return rc;
	}
	eng->res = wl_result_new(job->wl->name, eng->name);
	eng->run = (struct wl_run){
		.wl = job->wl,
		.params = eng->params,
		.dir = eng->dir,
		.dirfd = eng->dirfd,
		.target = eng->target,
		.drop_caches = job->drop_caches,
		.keep = job->keep,
		.eng = eng,
		.res = eng->res,
	};
	eng->t0 = wl_now_ns();
	/* The driver and its workers block every signal: the front end's
	 * thread takes SIGINT and calls engine_stop(). */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&eng->driver, NULL, driver, eng);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc != 0) {
		engine_dir_remove(eng);
		engine_dir_close(eng);
		return err_setf(e, -rc, _("cannot start a thread: %s"),
		    strerror(rc));
	}
	eng->started = true;
	return 0;
}

struct wl_result *
engine_join(struct engine *eng)
{
	struct wl_result *res;

	if (!eng->started)
		return NULL;
	pthread_join(eng->driver, NULL);
	eng->started = false;
	res = eng->res;
	eng->res = NULL;
	return res;
}

/* CLOCK_BOOTTIME in ns: CLOCK_MONOTONIC plus the time suspended. */
static uint64_t
boot_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* A tick that came far too late, or after a suspend: a stall, kept. */
static void
stall_check(struct sampler *s)
{
	uint64_t mono, boot;
	double late, slept;

	if (s->tick_ns == 0)
		return;
	mono = wl_now_ns();
	boot = boot_ns();
	late = ((double)(mono - s->mono_ns) - (double)s->tick_ns) / 1e9;
	slept =
	    ((double)(boot - s->boot_ns) - (double)(mono - s->mono_ns)) / 1e9;
	if (late > SAMPLER_STALL_GAP || slept > WL_STALL_MIN) {
		struct sampler_stall *st;

		s->stalls =
		    xreallocarray(s->stalls, s->nstalls + 1, sizeof *s->stalls);
		st = &s->stalls[s->nstalls++];
		st->from = s->mono_ns;
		st->to = mono;
		st->stopped = late > SAMPLER_STALL_GAP ? late : 0;
		st->suspended = slept > WL_STALL_MIN ? slept : 0;
	}
	s->mono_ns = mono;
	s->boot_ns = boot;
}

void
sampler_init(struct sampler *s, size_t cap)
{
	memset(s, 0, sizeof *s);
	series_init(&s->series, cap);
}

void
sampler_done(struct sampler *s)
{
	free(s->stalls);
	s->stalls = NULL;
	s->nstalls = 0;
	series_done(&s->series);
	devstat_done(&s->dev);
	free(s->dbuf);
	s->dbuf = NULL;
}

void
sampler_watch(struct sampler *s, const char *sysroot, char *const *names,
    char *const *roles, size_t n)
{
	char **kept = xcalloc(n + 1, sizeof *kept);
	const char **role = xcalloc(n + 1, sizeof *role);
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (!devstat_part_of_listed(sysroot, names[i], names, n)) {
			role[k] = roles != NULL ? roles[i] : NULL;
			kept[k++] = names[i];
		}
	devstat_done(&s->dev);
	devstat_init(&s->dev, sysroot, kept, k);
	for (size_t i = 0; i < k; i++)
		series_add_dev(&s->series, kept[i],
		    role[i] != NULL ? role[i]
				    : devstat_role(sysroot, kept[i], kept, k));
	free(s->dbuf);
	s->dbuf = xcalloc(k + 1, sizeof *s->dbuf);
	free(role);
	free(kept);
}

void
sampler_tick(struct sampler *s, struct engine *eng)
{
	struct engine_totals now;
	struct sample x;

	engine_totals(eng, &now);
	x.t = now.t;
	x.dt = now.t - s->last.t;
	x.bytes_read = now.bytes_read - s->last.bytes_read;
	x.bytes_written = now.bytes_written - s->last.bytes_written;
	x.files = now.files - s->last.files;
	x.ops = now.ops - s->last.ops;
	if (s->dev.n > 0)
		devstat_delta(&s->dev, s->dbuf);
	series_push_devs(&s->series, &x, s->dev.n > 0 ? s->dbuf : NULL);
	s->last = now;
	stall_check(s);
}

void
sampler_arm(struct sampler *s, uint64_t tick_ns)
{
	s->tick_ns = tick_ns;
	s->mono_ns = wl_now_ns();
	s->boot_ns = boot_ns();
}

/* Seconds of stall st that fell within test t. */
static double
stall_in(const struct sampler_stall *st, const struct wl_test *t)
{
	uint64_t end = t->end_ns != 0 ? t->end_ns : UINT64_MAX;
	uint64_t from = st->to - (uint64_t)(st->stopped * 1e9);
	uint64_t lo = from > t->begin_ns ? from : t->begin_ns;
	uint64_t hi = st->to < end ? st->to : end;
	double lost = 0;

	/* Where in its tick the machine slept is not known: all of it
	   goes to each test that tick touched. */
	if (st->suspended > 0 && t->begin_ns < st->to && end > st->from)
		lost += st->suspended;
	if (st->stopped > 0 && hi > lo)
		lost += (double)(hi - lo) / 1e9;
	return lost;
}

void
sampler_mark_stalls(const struct sampler *s, struct wl_result *res)
{
	for (size_t i = 0; i < res->ntests; i++) {
		struct wl_test *t = &res->tests[i];
		double lost = 0;
		char *note;

		if (t->begin_ns == 0)
			continue;
		for (size_t k = 0; k < s->nstalls; k++)
			lost += stall_in(&s->stalls[k], t);
		if (lost < WL_STALL_MIN)
			continue;
		t->stalled = lost;
		note = xasprintf(_("%s stalled for %.1f s (raidlab was "
				   "stopped, or the machine suspended): its "
				   "figure counts that time"),
		    t->label ? t->label : t->key, lost);
		wl_result_add_note(res, note);
		free(note);
	}
}
