/*
 * The workload-facing half of the engine: parameters, tests, worker
 * threads, failures, notes and cache discipline. wl_*() on a struct
 * wl_run from the driver thread; on a struct wl_worker from that worker.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "base/i18n.h"
#include "base/tick.h"
#include "base/units.h"
#include "base/xalloc.h"
#include "engine-int.h"
#include "param.h"
#include "workload.h"

/* ---------------------------------------------------------------- params */

static const struct param_value *
value_of(const struct wl_run *r, const char *name)
{
	int i = param_index(r->wl->params, name);

	if (i < 0)
		fatal(_("workload %s has no parameter %s"), r->wl->name, name);
	return &r->params[i];
}

int64_t
wl_param_int(const struct wl_run *r, const char *name)
{
	return value_of(r, name)->i;
}

uint64_t
wl_param_size(const struct wl_run *r, const char *name)
{
	return value_of(r, name)->size;
}

bool
wl_param_bool(const struct wl_run *r, const char *name)
{
	return value_of(r, name)->i != 0;
}

const char *
wl_param_str(const struct wl_run *r, const char *name)
{
	return value_of(r, name)->s;
}

bool
wl_param_is_auto(const struct wl_run *r, const char *name)
{
	return value_of(r, name)->is_auto;
}

const int64_t *
wl_param_list(const struct wl_run *r, const char *name, size_t *n)
{
	const struct param_value *v = value_of(r, name);

	*n = v->nlist;
	return v->list;
}

bool
wl_param_isset(const struct wl_run *r, const char *name)
{
	return value_of(r, name)->set;
}

/* ---------------------------------------------------------------- time */

uint64_t
wl_now_ns(void)
{
	return tick_now_ns();
}

void
engine_thread_cpu(double *user, double *sys)
{
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	*user = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6;
	*sys = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

uint64_t
wl_rand(uint64_t *state)
{
	uint64_t x = *state ? *state : UINT64_C(0x9e3779b97f4a7c15);

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * UINT64_C(0x2545f4914f6cdd1d);
}

/* ---------------------------------------------------------------- tests */

void
wl_test_begin(struct wl_run *r, const char *key, const char *label,
    enum wl_unit unit)
{
	struct engine *eng = r->eng;

	if (eng->cur != NULL)
		wl_test_end(r, 0);
	eng->cur = wl_result_add_test(r->res, key, label, unit);
	eng->value_set = false;
	engine_thread_cpu(&eng->drv_user, &eng->drv_sys);
	engine_totals(eng, &eng->at_begin);
	eng->begin_ns = wl_now_ns();
	eng->cur->begin_ns = eng->begin_ns;
	if (eng->prog_total > 0) {
		struct evq_event ev;

		memset(&ev, 0, sizeof ev);
		ev.type = EVQ_TEST_START;
		snprintf(ev.key, sizeof ev.key, "%s", key ? key : "");
		/* TRANSLATORS: a test's label, then e.g. "run 5/100" */
		snprintf(ev.text, sizeof ev.text, _("%s, %s %llu/%llu"),
		    label ? label : "", eng->prog_what, eng->prog_done,
		    eng->prog_total);
		ev.done = eng->prog_done;
		ev.total = eng->prog_total;
		evq_push(eng->q, &ev);
		eng->prog_total = 0;
	} else {
		engine_event(eng, EVQ_TEST_START, key, label);
	}
}

void
wl_test_progress(struct wl_run *r, const char *what, unsigned long long done,
    unsigned long long total)
{
	struct engine *eng = r->eng;

	snprintf(eng->prog_what, sizeof eng->prog_what, "%s", what);
	eng->prog_done = done;
	eng->prog_total = total;
}

void
wl_test_set_value(struct wl_run *r, double value)
{
	r->eng->value_set = true;
	r->eng->value = value;
}

struct wl_test *
wl_test_end(struct wl_run *r, double min_wall)
{
	struct engine *eng = r->eng;
	struct wl_test *t = eng->cur;
	struct engine_totals now;
	struct evq_event ev;
	double u, s;

	if (t == NULL)
		return NULL;
	t->end_ns = wl_now_ns();
	t->wall = (double)(t->end_ns - eng->begin_ns) / 1e9;
	engine_totals(eng, &now);
	engine_thread_cpu(&u, &s);
	t->user += u - eng->drv_user;
	t->sys += s - eng->drv_sys;
	t->bytes_read = now.bytes_read - eng->at_begin.bytes_read;
	t->bytes_written = now.bytes_written - eng->at_begin.bytes_written;
	t->files = now.files - eng->at_begin.files;
	t->ops = now.ops - eng->at_begin.ops;
	t->value = eng->value_set ? eng->value : wl_test_rate(t, t->unit);
	t->too_fast = min_wall > 0 && t->wall < min_wall;
	t->interrupted = wl_stopping(r);
	eng->cur = NULL;

	memset(&ev, 0, sizeof ev);
	ev.type = EVQ_TEST_END;
	snprintf(ev.key, sizeof ev.key, "%s", t->key);
	snprintf(ev.text, sizeof ev.text, "%s", t->label);
	ev.value = t->value;
	ev.unit = (int)t->unit;
	ev.too_fast = t->too_fast;
	evq_push(eng->q, &ev);
	return t;
}

/* ---------------------------------------------------------------- workers */

struct start {
	struct wl_worker w;
	wl_worker_fn fn;
	pthread_t tid;
	int rc;
};

static void *
worker_main(void *arg)
{
	struct start *st = arg;
	double u0, s0, u1, s1;

	/* Named, so that top -H, gdb and the tests can tell the workers
	   (alive only while wl_parallel() runs) from the other threads. */
	pthread_setname_np(pthread_self(), "rl-worker");
	engine_thread_cpu(&u0, &s0);
	st->rc = st->fn(&st->w);
	engine_thread_cpu(&u1, &s1);
	st->w.user = u1 - u0;
	st->w.sys = s1 - s0;
	return NULL;
}

/* Fold a joined worker into the open test, if any. */
static void
fold(struct engine *eng, const struct wl_worker *w)
{
	struct wl_test *t = eng->cur;
	unsigned i;

	if (t == NULL)
		return;
	t->user += w->user;
	t->sys += w->sys;
	for (i = 0; i < WL_OP__COUNT; i++)
		hist_merge(&t->lat[i], &w->lat[i]);
}

int
wl_parallel(struct wl_run *r, unsigned n, wl_worker_fn fn, void *arg)
{
	struct engine *eng = r->eng;
	struct start *st;
	unsigned i, started = 0;
	int rc = 0, err;

	if (n < 1 || n > ENGINE_MAX_WORKERS)
		return wl_run_fail(r, -EINVAL,
		    _("%u workers: the engine runs "
		      "1 to %d"),
		    n, ENGINE_MAX_WORKERS);
	if (wl_stopping(r))
		return -EINTR;
	/* Histograms are large: keep them off the driver's stack. */
	st = xcalloc(n, sizeof *st);
	for (i = 0; i < n; i++) {
		st[i].fn = fn;
		st[i].w.run = r;
		st[i].w.index = i;
		st[i].w.n = n;
		st[i].w.arg = arg;
		st[i].w.c = &eng->slots[i];
		st[i].w.seed = UINT64_C(0x9e3779b97f4a7c15) * (i + 1) ^
		    (uint64_t)r->res->ntests;
		/* Every bucket now: the hot path never allocates. */
		for (unsigned k = 0; k < WL_OP__COUNT; k++) {
			hist_init(&st[i].w.lat[k]);
			hist_reserve(&st[i].w.lat[k]);
		}
		/* Signals stay blocked: the driver's mask is inherited. */
		err = pthread_create(&st[i].tid, NULL, worker_main, &st[i]);
		if (err != 0) {
			rc = wl_run_fail(r, -err,
			    _("cannot start a thread: %s"), strerror(err));
			break;
		}
		started++;
	}
	for (i = 0; i < started; i++) {
		pthread_join(st[i].tid, NULL);
		fold(eng, &st[i].w);
		if (st[i].rc < 0 && rc == 0)
			rc = st[i].rc;
	}
	for (i = 0; i < n; i++)
		for (unsigned k = 0; k < WL_OP__COUNT; k++)
			hist_done(&st[i].w.lat[k]);
	free(st);
	if (rc == 0 && wl_stopping(r))
		rc = -EINTR;
	return rc;
}

bool
wl_stopping(const struct wl_run *r)
{
	return atomic_load_explicit(&r->eng->stop, memory_order_relaxed) !=
	    ENGINE_RUNNING;
}

/* ---------------------------------------------------------------- failures */

static void
fail_msg(struct engine *eng, const char *msg)
{
	int want = ENGINE_RUNNING;
	bool first;

	pthread_mutex_lock(&eng->lock);
	first = eng->error == NULL && atomic_load(&eng->stop) != ENGINE_STOPPED;
	if (first)
		eng->error = xstrdup(msg);
	pthread_mutex_unlock(&eng->lock);
	atomic_compare_exchange_strong(&eng->stop, &want, ENGINE_FAILED);
	if (first)
		engine_event(eng, EVQ_ERROR, NULL, msg);
}

/* Failing because the run is stopping is not a failure. */
static int vfail(struct engine *eng, int err, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));

static int
vfail(struct engine *eng, int err, const char *fmt, va_list ap)
{
	char msg[EVQ_TEXT];

	if (err == -EINTR)
		return err;
	vsnprintf(msg, sizeof msg, fmt, ap);
	fail_msg(eng, msg);
	return err;
}

int
wl_fail(struct wl_worker *w, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	err = vfail(w->run->eng, err, fmt, ap);
	va_end(ap);
	return err;
}

int
wl_run_fail(struct wl_run *r, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	err = vfail(r->eng, err, fmt, ap);
	va_end(ap);
	return err;
}

void
wl_note(struct wl_run *r, const char *fmt, ...)
{
	char msg[EVQ_TEXT];
	va_list ap;
	size_t i;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	for (i = 0; i < r->res->nnotes; i++)
		if (strcmp(r->res->notes[i], msg) == 0)
			return;
	wl_result_add_note(r->res, msg);
	engine_event(r->eng, EVQ_NOTE, NULL, msg);
}

/* ---------------------------------------------------------------- caches */

bool
wl_drop_caches(struct wl_run *r)
{
	int fd;
	bool ok;

	if (!r->drop_caches)
		return false;
	sync();
	fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
	ok = fd >= 0 && write(fd, "3\n", 2) == 2;
	if (fd >= 0)
		close(fd);
	if (!ok && !r->eng->cache_noted) {
		r->eng->cache_noted = true;
		wl_note(r,
		    _("page cache not dropped between phases (%s): "
		      "reads may come from memory"),
		    geteuid() == 0 ? strerror(errno) : _("needs root"));
	}
	return ok;
}

void
wl_check_dataset(struct wl_run *r, uint64_t bytes)
{
	char a[UNITS_BUF], b[UNITS_BUF];
	uint64_t ram = workload_ram_bytes();

	if (ram == 0 || bytes >= ram)
		return;
	if (r->drop_caches && geteuid() == 0)
		return;
	wl_note(r,
	    _("the data set (%s) fits in RAM (%s) and caches are not "
	      "dropped: figures may measure memory, not the disks"),
	    units_format_size(bytes, a, sizeof a),
	    units_format_size(ram, b, sizeof b));
}
