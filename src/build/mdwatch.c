/*
 * Following a rebuild or scrub (mdwatch.h). Only the watcher thread
 * writes the samples, the action and t_idle, and calls the ops; the owner
 * reads them after joining it, so they need no lock. While it runs they
 * share atomics alone: stop, idle (t_idle is written before it is set),
 * and the newest sample behind a sequence count for mdwatch_now() (the
 * action is written before the first count is published, and never
 * again).
 */
#include "config.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/tick.h"
#include "base/xalloc.h"
#include "mdsys.h"
#include "mdwatch.h"

/* How long md may stay idle after the step before the watch believes
   there is nothing to follow. */
#define START_GRACE_S 5.0

struct mdwatch {
	const struct mdwatch_ops *ops;
	void *ctx;
	unsigned interval_ms;
	double t0, t_idle;
	pthread_t thread;
	bool joined;
	atomic_bool stop, idle;
	/* The newest sample: seq is odd while the watcher stores it. Each
	   store is a release and each load an acquire, so a reader that saw
	   any of a newer store also sees seq changed, and tries again. */
	atomic_uint seq;
	_Atomic unsigned long long now_done, now_total, now_speed;
	char action[32];
	struct mdwatch_sample *v;
	size_t n;
};

static void
nap(unsigned ms)
{
	struct timespec ts = { .tv_sec = ms / 1000,
		.tv_nsec = (long)(ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* md's side: its sysfs. */
struct md_ctx {
	char *sysroot, *name;
};

static enum mdwatch_look
md_look(void *ctx, struct mdwatch_sample *s, char *action, size_t alen)
{
	struct md_ctx *m = ctx;
	char a[32], *sp;
	bool busy = mdsys_sync_progress(m->sysroot, m->name, &s->done,
	    &s->total, a, sizeof a);

	if ((sp = mdsys_attr(m->sysroot, m->name, "sync_speed")) != NULL)
		s->speed = strtoull(sp, NULL, 10);
	free(sp);
	if (busy && action[0] == '\0')
		snprintf(action, alen, "%s", a);
	return busy ? MDWATCH_BUSY : MDWATCH_IDLE;
}

static void
md_end(void *ctx, json_t *rec)
{
	struct md_ctx *m = ctx;

	(void)rec;
	free(m->sysroot);
	free(m->name);
	free(m);
}

static const struct mdwatch_ops md_ops = {
	.look = md_look,
	.end = md_end,
	.done_bytes = 512,
	.speed_bytes = 1024,
};

static void
publish(struct mdwatch *w, const struct mdwatch_sample *s)
{
	unsigned q = atomic_load_explicit(&w->seq, memory_order_relaxed);

	atomic_store_explicit(&w->seq, q + 1, memory_order_relaxed);
	atomic_store_explicit(&w->now_done, s->done, memory_order_release);
	atomic_store_explicit(&w->now_total, s->total, memory_order_release);
	atomic_store_explicit(&w->now_speed, s->speed, memory_order_release);
	atomic_store_explicit(&w->seq, q + 2, memory_order_release);
}

static void *
watch(void *arg)
{
	struct mdwatch *w = arg;

	while (!atomic_load(&w->stop)) {
		struct mdwatch_sample s = { .t = tick_now_s() - w->t0 };
		enum mdwatch_look l =
		    w->ops->look(w->ctx, &s, w->action, sizeof w->action);
		bool busy = l == MDWATCH_BUSY;

		if (l != MDWATCH_IDLE) {
			w->v = xreallocarray(w->v, w->n + 1, sizeof *w->v);
			w->v[w->n++] = s;
			publish(w, &s);
		}
		if (!busy)
			w->t_idle = s.t;
		/* md takes a moment to start what the step asked for: idle
		   before anything was seen is not the end yet */
		if (!busy && w->n == 0 && s.t < START_GRACE_S) {
			nap(w->interval_ms);
			continue;
		}
		if (!busy) {
			atomic_store(&w->idle, true);
			break;
		}
		nap(w->interval_ms);
	}
	return NULL;
}

struct mdwatch *
mdwatch_start(const char *sysroot, const char *name, unsigned interval_ms)
{
	struct md_ctx *m = xcalloc(1, sizeof *m);

	m->sysroot = sysroot ? xstrdup(sysroot) : NULL;
	m->name = xstrdup(name);
	return mdwatch_start_ops(&md_ops, m, interval_ms);
}

struct mdwatch *
mdwatch_start_ops(const struct mdwatch_ops *ops, void *ctx,
    unsigned interval_ms)
{
	struct mdwatch *w = xcalloc(1, sizeof *w);

	w->ops = ops;
	w->ctx = ctx;
	w->interval_ms = interval_ms;
	w->t0 = tick_now_s();
	w->t_idle = -1;
	atomic_init(&w->stop, false);
	atomic_init(&w->idle, false);
	atomic_init(&w->seq, 0);
	atomic_init(&w->now_done, 0);
	atomic_init(&w->now_total, 0);
	atomic_init(&w->now_speed, 0);
	if (pthread_create(&w->thread, NULL, watch, w) != 0) {
		ops->end(ctx, NULL);
		free(w);
		return NULL;
	}
	return w;
}

bool
mdwatch_done(struct mdwatch *w)
{
	return atomic_load(&w->idle);
}

void
mdwatch_now(struct mdwatch *w, struct mdwatch_now *n)
{
	unsigned long long db = w->ops->done_bytes ? w->ops->done_bytes : 1;
	unsigned long long sb = w->ops->speed_bytes;
	unsigned q;

	memset(n, 0, sizeof *n);
	do {
		q = atomic_load_explicit(&w->seq, memory_order_acquire);
		n->done =
		    atomic_load_explicit(&w->now_done, memory_order_acquire);
		n->total =
		    atomic_load_explicit(&w->now_total, memory_order_acquire);
		n->speed =
		    atomic_load_explicit(&w->now_speed, memory_order_acquire);
	} while ((q & 1) != 0 ||
	    q != atomic_load_explicit(&w->seq, memory_order_relaxed));
	n->done *= db;
	n->total *= db;
	n->speed *= sb;
	/* written before the first sample was published */
	if (q > 0)
		snprintf(n->action, sizeof n->action, "%s", w->action);
	n->finished = atomic_load(&w->idle);
	n->elapsed = n->finished ? w->t_idle : tick_now_s() - w->t0;
}

bool
mdwatch_wait(struct mdwatch *w, double timeout_s, bool (*stop)(void *),
    void *arg)
{
	double until = tick_now_s() + timeout_s;

	while (!atomic_load(&w->idle) && tick_now_s() < until &&
	    (stop == NULL || !stop(arg)))
		nap(w->interval_ms);
	atomic_store(&w->stop, true);
	pthread_join(w->thread, NULL);
	w->joined = true;
	return atomic_load(&w->idle);
}

json_t *
mdwatch_end(struct mdwatch *w)
{
	json_t *o, *t = json_array(), *d = json_array(), *tot = json_array(),
		   *sp = json_array();
	bool idle;

	if (!w->joined) {
		atomic_store(&w->stop, true);
		pthread_join(w->thread, NULL);
	}
	idle = atomic_load(&w->idle);
	for (size_t i = 0; i < w->n; i++) {
		json_array_append_new(t, json_real(w->v[i].t));
		json_array_append_new(d,
		    json_integer((json_int_t)w->v[i].done));
		json_array_append_new(tot,
		    json_integer((json_int_t)w->v[i].total));
		json_array_append_new(sp,
		    json_integer((json_int_t)w->v[i].speed));
	}
	/* seen false: it ended (or never began) before the first look, so
	   seconds is the wait, not its length */
	o = json_pack("{s:s, s:b, s:b, s:f, s:{s:o, s:o, s:o, s:o}}", "action",
	    w->action, "complete", idle, "seen", w->n > 0, "seconds",
	    idle ? w->t_idle : tick_now_s() - w->t0, "samples", "t", t, "done",
	    d, "total", tot, "speed", sp);
	w->ops->end(w->ctx, o);
	free(w->v);
	free(w);
	return o;
}
