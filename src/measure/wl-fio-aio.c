/*
 * fio workload, the queued engines: libaio and io_uring keep up to
 * iodepth I/Os in flight per thread (fio's iodepth with batch submit and
 * complete of 1: refill as completions come back). One loop drives both
 * through a small ops table. Completion latency runs from submission to
 * the reaped completion. fsync=N waits for the queue to drain, then
 * fsyncs. Each engine is compiled only when configure found its library.
 * Workers in wl_parallel() threads.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef HAVE_LIBAIO
#include <libaio.h>
#endif
#ifdef HAVE_LIBURING
#include <liburing.h>
#endif

#include "base/i18n.h"
#include "wl-fio.h"

struct aio_slot {
	struct fio_io io;
	uint64_t start;
	unsigned char *buf;
	unsigned idx;
};

struct aio_ctx {
	const struct fio_job *j;
	const struct fio_file *f;
	unsigned depth;
#ifdef HAVE_LIBAIO
	io_context_t ctx;
	struct iocb *cbs;
	struct iocb **pending;
	struct io_event *ev;
	unsigned npending;
#endif
#ifdef HAVE_LIBURING
	struct io_uring ring;
	bool ring_up;
#endif
};

struct aio_ops {
	const char *name;
	int (*setup)(struct aio_ctx *a);
	void (*queue)(struct aio_ctx *a, struct aio_slot *s);
	/* Submit what was queued; *n: how many went in. 0 or -errno. */
	int (*submit)(struct aio_ctx *a, unsigned *n);
	/* Wait for at least one completion; the number reaped or -errno. */
	int (*reap)(struct aio_ctx *a, struct aio_slot **done, long *res,
	    unsigned max);
	void (*teardown)(struct aio_ctx *a);
};

/* ---------------------------------------------------------------- libaio */

#ifdef HAVE_LIBAIO
static int
libaio_setup(struct aio_ctx *a)
{
	a->cbs = calloc(a->depth, sizeof *a->cbs);
	a->pending = calloc(a->depth, sizeof *a->pending);
	a->ev = calloc(a->depth, sizeof *a->ev);
	if (a->cbs == NULL || a->pending == NULL || a->ev == NULL)
		return -ENOMEM;
	return io_setup((int)a->depth, &a->ctx);
}

static void
libaio_queue(struct aio_ctx *a, struct aio_slot *s)
{
	struct iocb *cb = &a->cbs[s->idx];

	if (s->io.write)
		io_prep_pwrite(cb, a->f->fd, s->buf, a->j->bs,
		    (long long)s->io.off);
	else
		io_prep_pread(cb, a->f->fd, s->buf, a->j->bs,
		    (long long)s->io.off);
	cb->data = s;
	a->pending[a->npending++] = cb;
}

static int
libaio_submit(struct aio_ctx *a, unsigned *n)
{
	unsigned done = 0;
	int rc = 0;

	while (done < a->npending) {
		rc = io_submit(a->ctx, (long)(a->npending - done),
		    a->pending + done);
		if (rc == -EINTR || rc == -EAGAIN)
			continue;
		if (rc <= 0) {
			rc = rc == 0 ? -EAGAIN : rc;
			break;
		}
		done += (unsigned)rc;
		rc = 0;
	}
	a->npending = 0;
	*n = done;
	return rc;
}

static int
libaio_reap(struct aio_ctx *a, struct aio_slot **done, long *res, unsigned max)
{
	int n, i;

	do
		n = io_getevents(a->ctx, 1, (long)max, a->ev, NULL);
	while (n == -EINTR);
	for (i = 0; i < n; i++) {
		done[i] = a->ev[i].data;
		res[i] = (long)a->ev[i].res;
	}
	return n;
}

static void
libaio_teardown(struct aio_ctx *a)
{
	/* io_destroy() waits for what is still in flight. */
	if (a->ctx != 0)
		io_destroy(a->ctx);
	free(a->cbs);
	free(a->pending);
	free(a->ev);
}

static const struct aio_ops libaio_ops = {
	.name = "libaio",
	.setup = libaio_setup,
	.queue = libaio_queue,
	.submit = libaio_submit,
	.reap = libaio_reap,
	.teardown = libaio_teardown,
};
#endif

/* ---------------------------------------------------------------- io_uring */

#ifdef HAVE_LIBURING
static int
uring_setup(struct aio_ctx *a)
{
	int rc = io_uring_queue_init(a->depth, &a->ring, 0);

	a->ring_up = rc == 0;
	return rc;
}

static void
uring_queue(struct aio_ctx *a, struct aio_slot *s)
{
	/* Never NULL: at most depth I/Os are queued or in flight. */
	struct io_uring_sqe *sqe = io_uring_get_sqe(&a->ring);

	if (s->io.write)
		io_uring_prep_write(sqe, a->f->fd, s->buf, (unsigned)a->j->bs,
		    s->io.off);
	else
		io_uring_prep_read(sqe, a->f->fd, s->buf, (unsigned)a->j->bs,
		    s->io.off);
	io_uring_sqe_set_data(sqe, s);
}

static int
uring_submit(struct aio_ctx *a, unsigned *n)
{
	int rc;

	do
		rc = io_uring_submit(&a->ring);
	while (rc == -EINTR);
	*n = rc > 0 ? (unsigned)rc : 0;
	return rc < 0 ? rc : 0;
}

static int
uring_reap(struct aio_ctx *a, struct aio_slot **done, long *res, unsigned max)
{
	struct io_uring_cqe *cqe;
	unsigned n = 0;
	int rc;

	do
		rc = io_uring_wait_cqe(&a->ring, &cqe);
	while (rc == -EINTR);
	if (rc < 0)
		return rc;
	while (n < max && io_uring_peek_cqe(&a->ring, &cqe) == 0) {
		done[n] = io_uring_cqe_get_data(cqe);
		res[n] = cqe->res;
		io_uring_cqe_seen(&a->ring, cqe);
		n++;
	}
	return (int)n;
}

static void
uring_teardown(struct aio_ctx *a)
{
	if (a->ring_up)
		io_uring_queue_exit(&a->ring);
}

static const struct aio_ops uring_ops = {
	.name = "io_uring",
	.setup = uring_setup,
	.queue = uring_queue,
	.submit = uring_submit,
	.reap = uring_reap,
	.teardown = uring_teardown,
};
#endif

/* ---------------------------------------------------------------- loop */

static const struct aio_ops *
aio_ops_of(enum fio_engine e)
{
	switch (e) {
#ifdef HAVE_LIBAIO
	case FIO_LIBAIO:
		return &libaio_ops;
#endif
#ifdef HAVE_LIBURING
	case FIO_IO_URING:
		return &uring_ops;
#endif
	default:
		return NULL;
	}
}

bool
fio_engine_available(enum fio_engine e)
{
	return e == FIO_PSYNC || aio_ops_of(e) != NULL;
}

/* The queue's state, owned by one worker. */
struct aio_loop {
	struct aio_slot *slots, **free, **done;
	long *res;
	unsigned nfree, inflight;
	bool more, want_fsync;
	struct fio_cursor c;
};

/* Queue I/Os until the queue is full or the job is over. */
static unsigned
aio_fill(struct wl_worker *w, const struct aio_ops *ops, struct aio_ctx *a,
    struct aio_loop *l)
{
	const struct fio_job *j = a->j;
	struct fio_io io;
	unsigned queued = 0;

	while (l->more && !l->want_fsync && l->inflight + queued < a->depth) {
		struct aio_slot *s;

		if ((j->runtime_ns != 0 && wl_now_ns() >= j->deadline_ns) ||
		    !fio_next(j, &l->c, &io)) {
			l->more = false;
			break;
		}
		s = l->free[--l->nfree];
		s->io = io;
		s->start = wl_now_ns();
		ops->queue(a, s);
		queued++;
	}
	(void)w;
	return queued;
}

/* Take completions back; the first bad one fails the worker. */
static int
aio_complete(struct wl_worker *w, const struct aio_ops *ops, struct aio_ctx *a,
    struct aio_loop *l, int rc)
{
	const struct fio_job *j = a->j;
	int got, i;

	got = ops->reap(a, l->done, l->res, a->depth);
	if (got < 0) {
		l->inflight = 0; /* teardown waits for the rest */
		if (rc < 0)
			return rc;
		return wl_fail(w, got, _("%s wait: %s"), ops->name,
		    strerror(-got));
	}
	for (i = 0; i < got; i++) {
		struct aio_slot *s = l->done[i];

		l->inflight--;
		l->free[l->nfree++] = s;
		if (rc < 0)
			continue;
		if (l->res[i] != (long)j->bs) {
			rc = fio_io_fail(w, j, a->f, &s->io,
			    l->res[i] < 0 ? -1 : l->res[i],
			    l->res[i] < 0 ? (int)-l->res[i] : 0);
			continue;
		}
		fio_account(w, j, &s->io, s->start);
		if (s->io.write && j->fsync_every != 0 &&
		    ++l->c.writes % j->fsync_every == 0)
			l->want_fsync = true;
	}
	return rc;
}

static int
aio_run(struct wl_worker *w, const struct aio_ops *ops, struct aio_ctx *a,
    struct aio_loop *l)
{
	unsigned queued, sub;
	int rc = 0, e;

	for (;;) {
		if (rc == 0 && wl_worker_stopping(w))
			rc = -EINTR;
		if (rc < 0)
			l->more = false;
		if (rc == 0 && l->want_fsync && l->inflight == 0) {
			l->want_fsync = false;
			rc = fio_do_fsync(w, a->f);
			continue;
		}
		queued = aio_fill(w, ops, a, l);
		if (queued > 0) {
			sub = 0;
			e = ops->submit(a, &sub);
			l->inflight += sub;
			if (e < 0 && rc == 0)
				rc = wl_fail(w, e, _("%s submit: %s"),
				    ops->name, strerror(-e));
		}
		if (l->inflight == 0) {
			if (rc == 0 && l->want_fsync)
				continue;
			break;
		}
		rc = aio_complete(w, ops, a, l, rc);
	}
	if (rc == 0 && a->j->end_fsync && a->j->writes)
		rc = fio_do_fsync(w, a->f);
	return rc;
}

int
fio_aio_worker(struct wl_worker *w)
{
	const struct fio_job *j = w->arg;
	const struct aio_ops *ops = aio_ops_of(j->engine);
	struct aio_ctx a;
	struct aio_loop l;
	unsigned i;
	int rc;

	memset(&a, 0, sizeof a);
	memset(&l, 0, sizeof l);
	a.j = j;
	a.f = &j->files[w->index];
	a.depth = j->iodepth;
	if (ops == NULL)
		return wl_fail(w, -ENOTSUP,
		    _("this raidlab was built without the requested "
		      "ioengine"));
	/* Set-up, before the first I/O: not on the hot path. */
	l.slots = calloc(a.depth, sizeof *l.slots);
	l.free = calloc(a.depth, sizeof *l.free);
	l.done = calloc(a.depth, sizeof *l.done);
	l.res = calloc(a.depth, sizeof *l.res);
	if (l.slots == NULL || l.free == NULL || l.done == NULL ||
	    l.res == NULL) {
		rc = wl_fail(w, -ENOMEM, _("%s: out of memory"), ops->name);
		goto out;
	}
	for (i = 0; i < a.depth; i++) {
		l.slots[i].idx = i;
		l.slots[i].buf = a.f->buf + (size_t)i * j->bs;
		l.free[i] = &l.slots[i];
	}
	l.nfree = a.depth;
	l.more = true;
	fio_cursor_init(j, &l.c, w->seed);
	if ((rc = ops->setup(&a)) < 0) {
		rc = wl_fail(w, rc, _("%s set-up (iodepth %u): %s"), ops->name,
		    a.depth, strerror(-rc));
		goto out;
	}
	rc = aio_run(w, ops, &a, &l);
out:
	if (ops != NULL)
		ops->teardown(&a);
	free(l.slots);
	free(l.free);
	free(l.done);
	free(l.res);
	return rc;
}
