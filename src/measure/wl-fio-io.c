/*
 * fio workload, the I/O side: which block comes next (sequential per
 * direction, or a random map that covers every block once per pass),
 * the psync worker (one pread/pwrite at a time per thread, as fio's
 * psync engine), fsync, and the per-direction figures of a test. The
 * workers run in wl_parallel() threads; fio_dir_figures() in any thread.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <unistd.h>

#include "base/i18n.h"
#include "wl-fio.h"

fio_trace_fn fio_trace;

/* ---------------------------------------------------------------- offsets */

/* A bijection on the bits of mask: spreads the LCG's weak low bits. */
static uint64_t
rmap_scramble(const struct fio_rmap *m, uint64_t x)
{
	if (m->shift == 0)
		return x;
	x ^= x >> m->shift;
	x = (x * UINT64_C(0x9e3779b97f4a7c15)) & m->mask;
	x ^= x >> m->shift;
	return x;
}

void
fio_rmap_init(struct fio_rmap *m, uint64_t n, uint64_t *seed)
{
	uint64_t mask = 0;
	unsigned k = 0;

	while (mask < n - 1) {
		mask = mask << 1 | 1;
		k++;
	}
	m->n = n;
	m->mask = mask;
	m->shift = (k + 1) / 2;
	/* mul = 1 mod 4 and inc odd: period 2^k (Hull-Dobell). */
	m->mul = ((wl_rand(seed) << 2) | 1) & mask;
	if (m->mul == 0)
		m->mul = 1;
	m->inc = (wl_rand(seed) | 1) & mask;
	m->x = wl_rand(seed) & mask;
	m->left = n;
}

uint64_t
fio_rmap_next(struct fio_rmap *m, uint64_t *seed)
{
	uint64_t v;

	if (m->left == 0)
		fio_rmap_init(m, m->n, seed);
	do {
		m->x = (m->x * m->mul + m->inc) & m->mask;
		v = rmap_scramble(m, m->x);
	} while (v >= m->n);
	m->left--;
	return v;
}

void
fio_cursor_init(const struct fio_job *j, struct fio_cursor *c, uint64_t seed)
{
	memset(c, 0, sizeof *c);
	c->seed = seed ? seed : 1;
	if (j->random)
		fio_rmap_init(&c->map, j->nblocks, &c->seed);
}

bool
fio_next(const struct fio_job *j, struct fio_cursor *c, struct fio_io *io)
{
	uint64_t blk;

	if (j->runtime_ns == 0 && c->issued >= j->nblocks)
		return false;
	if (j->reads && j->writes)
		io->write = wl_rand(&c->seed) % 100 >= j->rwmixread;
	else
		io->write = j->writes;
	if (j->random) {
		blk = fio_rmap_next(&c->map, &c->seed);
	} else {
		blk = c->seq[io->write];
		c->seq[io->write] = (blk + 1) % j->nblocks;
	}
	io->off = blk * j->bs;
	c->issued++;
	return true;
}

/* ---------------------------------------------------------------- psync */

int
fio_do_fsync(struct wl_worker *w, const struct fio_file *f)
{
	uint64_t t = wl_now_ns();

	if (fsync(f->fd) < 0)
		return wl_fail(w, -errno, _("fsync %s: %s"), f->path,
		    strerror(errno));
	wl_lat(w, WL_OP_FSYNC, t);
	return 0;
}

int
fio_io_fail(struct wl_worker *w, const struct fio_job *j,
    const struct fio_file *f, const struct fio_io *io, long n, int err)
{
	const char *what = io->write ? _("write") : _("read");

	if (n >= 0)
		return wl_fail(w, -EIO,
		    _("short %s of %s at offset %" PRIu64 ": %ld of %" PRIu64
		      " bytes"),
		    what, f->path, io->off, n, j->bs);
	if (err == EINVAL && j->direct)
		return wl_fail(w, -err,
		    _("%s %s at offset %" PRIu64 ": %s (direct = true needs "
		      "bs to be a multiple of the device's logical block "
		      "size)"),
		    what, f->path, io->off, strerror(err));
	return wl_fail(w, -err, _("%s %s at offset %" PRIu64 ": %s"), what,
	    f->path, io->off, strerror(err));
}

void
fio_account(struct wl_worker *w, const struct fio_job *j,
    const struct fio_io *io, uint64_t start)
{
	wl_lat(w, io->write ? WL_OP_WRITE : WL_OP_READ, start);
	if (io->write)
		wl_count_write(w, j->bs);
	else
		wl_count_read(w, j->bs);
	wl_count_ops(w, 1);
	if (fio_trace != NULL)
		fio_trace(w->index, io->write, io->off, j->bs, start);
}

int
fio_psync_worker(struct wl_worker *w)
{
	const struct fio_job *j = w->arg;
	const struct fio_file *f = &j->files[w->index];
	struct fio_cursor c;
	struct fio_io io;
	uint64_t t;
	ssize_t n;
	int rc;

	fio_cursor_init(j, &c, w->seed);
	while (fio_next(j, &c, &io)) {
		if (wl_worker_stopping(w))
			return -EINTR;
		t = wl_now_ns();
		if (j->runtime_ns != 0 && t >= j->deadline_ns)
			break;
		if (io.write)
			n = pwrite(f->fd, f->buf, j->bs, (off_t)io.off);
		else
			n = pread(f->fd, f->buf, j->bs, (off_t)io.off);
		if (n != (ssize_t)j->bs)
			return fio_io_fail(w, j, f, &io, (long)n, errno);
		fio_account(w, j, &io, t);
		if (io.write && j->fsync_every != 0 &&
		    ++c.writes % j->fsync_every == 0 &&
		    (rc = fio_do_fsync(w, f)) < 0)
			return rc;
	}
	if (j->end_fsync && j->writes)
		return fio_do_fsync(w, f);
	return 0;
}

/* ---------------------------------------------------------------- figures */

void
fio_dir_figures(const struct wl_test *t, enum wl_op op,
    struct fio_dir_figs *out)
{
	const struct hist *h = &t->lat[op];

	memset(out, 0, sizeof *out);
	out->ios = h->n;
	out->bytes = op == WL_OP_READ ? t->bytes_read : t->bytes_written;
	if (t->wall > 0) {
		out->iops = (double)out->ios / t->wall;
		out->mbps = (double)out->bytes / t->wall / 1e6;
		out->mibps = (double)out->bytes / t->wall / 1048576.0;
	}
	if (h->n == 0)
		return;
	out->p50 = hist_quantile(h, 0.50);
	out->p90 = hist_quantile(h, 0.90);
	out->p99 = hist_quantile(h, 0.99);
	out->p999 = hist_quantile(h, 0.999);
	out->max = h->max;
	out->mean = hist_mean(h);
}
