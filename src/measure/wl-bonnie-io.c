/*
 * bonnie's I/O tests on one file of size bytes, in bonnie++ 2.00's order
 * and manner: per-char write (one write(2) per byte over char_size bytes,
 * in a file of its own that is removed after), block write, rewrite (read
 * a chunk, dirty it, lseek back, write it), per-char read (one read(2)
 * per byte over the first char_size bytes), block read, and random seeks
 * (seekers workers share seeks lseek + read of a chunk; one in ten is
 * dirtied and written back). Each test ends with an fsync of the file,
 * inside its timing, as bonnie++ 2.00 does; with -b every write is
 * followed by an fsync. bonnie_io_run() on the driver thread; the
 * *_worker functions on worker threads.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/i18n.h"
#include "base/xalloc.h"
#include "engine.h"
#include "result.h"
#include "wl-bonnie.h"

struct io_job {
	const struct bonnie *b;
	char *buf; /* chunk bytes per worker, page aligned */
	size_t stride; /* distance between two workers' buffers */
	_Atomic uint64_t next_seek; /* seeks handed out so far */
};

static int
io_open(struct wl_worker *w, const struct bonnie *b, int flags, bool direct)
{
	int fd;

	if (direct)
		flags |= O_DIRECT;
	/* Below the run's directory, never through a link. */
	fd = openat(w->run->dirfd, b->path_name, flags | O_NOFOLLOW | O_CLOEXEC,
	    0600);
	if (fd < 0)
		return wl_fail(w, -errno,
		    direct ? _("open %s with O_DIRECT: %s") : _("open %s: %s"),
		    b->path, strerror(errno));
	return fd;
}

/* Fail with "what PATH: error" and close fd; e is a positive errno. */
static int
io_fail(struct wl_worker *w, int fd, const char *what, const char *path, int e)
{
	if (fd >= 0)
		close(fd);
	return wl_fail(w, -e, _("%s %s: %s"), what, path, strerror(e));
}

/* write(2) all of len bytes; 0 or a positive errno. */
static int
io_write(int fd, const char *buf, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno;
		if (n == 0)
			return ENOSPC;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/* One write of a test, then the fsync -b asks for. 0 or a positive errno. */
static int
io_put(const struct bonnie *b, int fd, const char *buf, size_t len)
{
	int e = io_write(fd, buf, len);

	if (e == 0 && b->fsync && fsync(fd) < 0)
		e = errno;
	return e;
}

/* The fsync that ends every test, then close. */
static int
io_finish(struct wl_worker *w, const struct bonnie *b, int fd)
{
	uint64_t t = wl_now_ns();

	if (fsync(fd) < 0)
		return io_fail(w, fd, _("fsync"), b->path, errno);
	wl_lat(w, WL_OP_FSYNC, t);
	if (close(fd) < 0)
		return wl_fail(w, -errno, _("close %s: %s"), b->path,
		    strerror(errno));
	return 0;
}

/*
 * Per-char write: one write(2) per byte. As bonnie++ 2.00, a latency
 * sample (and here a counter update) covers a chunk's worth of bytes.
 */
static int
putc_worker(struct wl_worker *w)
{
	const struct io_job *job = w->arg;
	const struct bonnie *b = job->b;
	uint64_t i = 0, k, n, t;
	char c;
	int fd, e;

	fd = io_open(w, b, O_WRONLY | O_CREAT | O_EXCL, false);
	if (fd < 0)
		return fd;
	while (i < b->char_size) {
		if (wl_worker_stopping(w)) {
			close(fd);
			return -EINTR;
		}
		n = b->char_size - i < b->chunk ? b->char_size - i : b->chunk;
		t = wl_now_ns();
		for (k = 0; k < n; k++, i++) {
			c = (char)('a' + i % 26);
			if ((e = io_put(b, fd, &c, 1)) != 0) {
				wl_count_write(w, k);
				return io_fail(w, fd, _("write"), b->path, e);
			}
		}
		wl_lat(w, WL_OP_WRITE, t);
		wl_count_write(w, n);
	}
	return io_finish(w, b, fd);
}

static int
block_write_worker(struct wl_worker *w)
{
	const struct io_job *job = w->arg;
	const struct bonnie *b = job->b;
	uint64_t i, n = b->size / b->chunk, t;
	int fd, e;

	fd = io_open(w, b, O_WRONLY | O_CREAT | O_TRUNC, b->direct);
	if (fd < 0)
		return fd;
	for (i = 0; i < n; i++) {
		if (wl_worker_stopping(w)) {
			close(fd);
			return -EINTR;
		}
		/* A different block each time, as bonnie++ dirties it. */
		memcpy(job->buf, &i, sizeof i);
		t = wl_now_ns();
		if ((e = io_put(b, fd, job->buf, b->chunk)) != 0)
			return io_fail(w, fd, _("write"), b->path, e);
		wl_lat(w, WL_OP_WRITE, t);
		wl_count_write(w, b->chunk);
	}
	return io_finish(w, b, fd);
}

/* Read a chunk, dirty it, lseek back, write it: one latency sample. */
static int
rewrite_worker(struct wl_worker *w)
{
	const struct io_job *job = w->arg;
	const struct bonnie *b = job->b;
	uint64_t t;
	ssize_t n;
	int fd, e;

	fd = io_open(w, b, O_RDWR, b->direct);
	if (fd < 0)
		return fd;
	if (lseek(fd, 0, SEEK_SET) < 0)
		return io_fail(w, fd, _("lseek"), b->path, errno);
	for (;;) {
		if (wl_worker_stopping(w)) {
			close(fd);
			return -EINTR;
		}
		t = wl_now_ns();
		n = read(fd, job->buf, b->chunk);
		if (n < 0)
			return io_fail(w, fd, _("read"), b->path, errno);
		if (n == 0)
			break;
		wl_count_read(w, (uint64_t)n);
		job->buf[0]++;
		if (lseek(fd, -(off_t)n, SEEK_CUR) < 0)
			return io_fail(w, fd, _("lseek"), b->path, errno);
		if ((e = io_put(b, fd, job->buf, (size_t)n)) != 0)
			return io_fail(w, fd, _("write"), b->path, e);
		wl_lat(w, WL_OP_WRITE, t);
		wl_count_write(w, (uint64_t)n);
	}
	return io_finish(w, b, fd);
}

/* Per-char read: one read(2) per byte, sampled per chunk as putc. */
static int
getc_worker(struct wl_worker *w)
{
	const struct io_job *job = w->arg;
	const struct bonnie *b = job->b;
	uint64_t i = 0, k, n, t;
	ssize_t got;
	char c;
	int fd;

	fd = io_open(w, b, O_RDONLY, false);
	if (fd < 0)
		return fd;
	while (i < b->char_size) {
		if (wl_worker_stopping(w)) {
			close(fd);
			return -EINTR;
		}
		n = b->char_size - i < b->chunk ? b->char_size - i : b->chunk;
		t = wl_now_ns();
		for (k = 0; k < n; k++, i++) {
			got = read(fd, &c, 1);
			if (got != 1) {
				wl_count_read(w, k);
				return io_fail(w, fd, _("read"), b->path,
				    got < 0 ? errno : ENODATA);
			}
		}
		wl_lat(w, WL_OP_READ, t);
		wl_count_read(w, n);
	}
	return io_finish(w, b, fd);
}

static int
block_read_worker(struct wl_worker *w)
{
	const struct io_job *job = w->arg;
	const struct bonnie *b = job->b;
	uint64_t left = b->size, t;
	ssize_t n;
	int fd;

	fd = io_open(w, b, O_RDONLY, b->direct);
	if (fd < 0)
		return fd;
	while (left > 0) {
		if (wl_worker_stopping(w)) {
			close(fd);
			return -EINTR;
		}
		t = wl_now_ns();
		n = read(fd, job->buf, b->chunk);
		if (n < 0)
			return io_fail(w, fd, _("read"), b->path, errno);
		if (n == 0)
			return io_fail(w, fd, _("read"), b->path, ENODATA);
		wl_lat(w, WL_OP_READ, t);
		wl_count_read(w, (uint64_t)n);
		left -= (uint64_t)n < left ? (uint64_t)n : left;
	}
	return io_finish(w, b, fd);
}

/* One seek: lseek + read a chunk; one time in ten dirty it and write it. */
static int
seek_one(struct wl_worker *w, const struct bonnie *b, int fd, char *buf)
{
	off_t off =
	    (off_t)(wl_rand(&w->seed) % (b->size / b->chunk) * b->chunk);
	uint64_t t = wl_now_ns();
	ssize_t n;
	int e;

	if (lseek(fd, off, SEEK_SET) < 0)
		return io_fail(w, -1, _("lseek"), b->path, errno);
	n = read(fd, buf, b->chunk);
	if (n < 0)
		return io_fail(w, -1, _("read"), b->path, errno);
	wl_count_read(w, (uint64_t)n);
	if (n > 0 && wl_rand(&w->seed) % 10 == 0) {
		buf[0]++;
		if (lseek(fd, off, SEEK_SET) < 0)
			return io_fail(w, -1, _("lseek"), b->path, errno);
		if ((e = io_put(b, fd, buf, (size_t)n)) != 0)
			return io_fail(w, -1, _("write"), b->path, e);
		wl_count_write(w, (uint64_t)n);
	}
	wl_lat(w, WL_OP_SEEK, t);
	wl_count_ops(w, 1);
	return 0;
}

/* Workers take seeks from a shared count until all are done. */
static int
seek_worker(struct wl_worker *w)
{
	struct io_job *job = w->arg;
	const struct bonnie *b = job->b;
	char *buf = job->buf + job->stride * w->index;
	int fd, rc = 0;

	fd = io_open(w, b, O_RDWR, b->direct);
	if (fd < 0)
		return fd;
	for (;;) {
		if (wl_worker_stopping(w)) {
			rc = -EINTR;
			break;
		}
		if (atomic_fetch_add_explicit(&job->next_seek, 1,
			memory_order_relaxed) >= b->seeks)
			break;
		if ((rc = seek_one(w, b, fd, buf)) < 0)
			break;
	}
	if (rc < 0) {
		close(fd);
		return rc;
	}
	return io_finish(w, b, fd);
}

/* One test: n workers of fn between begin and end. */
static int
io_test(struct wl_run *r, struct io_job *job, enum bonnie_test bt, unsigned n,
    wl_worker_fn fn, enum wl_unit unit)
{
	char *label = bonnie_label(job->b, bt);
	struct wl_test *t;
	uint64_t start;
	int rc;

	wl_test_begin(r, bonnie_keys[bt], label, unit);
	start = wl_now_ns();
	rc = wl_parallel(r, n, fn, job);
	if (bt == BT_REWRITE) {
		/* bonnie++ counts the file once, not its reads and writes. */
		double wall = (double)(wl_now_ns() - start) / 1e9;

		wl_test_set_value(r,
		    wall > 0 ? (double)job->b->size / 1024.0 / wall : 0.0);
	}
	t = wl_test_end(r, BONNIE_MIN_TIME);
	if (bt == BT_REWRITE && t != NULL)
		t->value = t->wall > 0
		    ? (double)t->bytes_written / 1024.0 / t->wall
		    : 0.0;
	free(label);
	return rc;
}

int
bonnie_io_run(struct wl_run *r, struct bonnie *b)
{
	struct io_job job;
	void *mem;
	int rc, e;

	memset(&job, 0, sizeof job);
	job.b = b;
	job.stride = (b->chunk + 4095) / 4096 * 4096;
	e = posix_memalign(&mem, 4096, job.stride * b->seekers);
	if (e != 0)
		fatal(_("out of memory (%zu bytes)"), job.stride * b->seekers);
	job.buf = mem;
	for (size_t i = 0; i < job.stride * b->seekers; i++)
		job.buf[i] = (char)(i * 7 + 1);
	atomic_init(&job.next_seek, 0);

	if (b->char_size > 0) {
		rc = io_test(r, &job, BT_PUTC, 1, putc_worker, WL_UNIT_KBPS);
		if (rc < 0)
			goto out;
		if (unlinkat(r->dirfd, b->path_name, 0) < 0) {
			rc = wl_run_fail(r, -errno, _("unlink %s: %s"), b->path,
			    strerror(errno));
			goto out;
		}
	}
	rc =
	    io_test(r, &job, BT_PUT_BLOCK, 1, block_write_worker, WL_UNIT_KBPS);
	if (rc == 0)
		rc = io_test(r, &job, BT_REWRITE, 1, rewrite_worker,
		    WL_UNIT_KBPS);
	if (rc == 0 && b->char_size > 0)
		rc = io_test(r, &job, BT_GETC, 1, getc_worker, WL_UNIT_KBPS);
	if (rc == 0)
		rc = io_test(r, &job, BT_GET_BLOCK, 1, block_read_worker,
		    WL_UNIT_KBPS);
	if (rc == 0)
		rc = io_test(r, &job, BT_SEEKS, b->seekers, seek_worker,
		    WL_UNIT_SEEKS_S);
	/* The file tests need the space (untimed, as bonnie++). */
	if (rc == 0 && !r->keep && unlinkat(r->dirfd, b->path_name, 0) < 0)
		rc = wl_run_fail(r, -errno, _("unlink %s: %s"), b->path,
		    strerror(errno));
out:
	free(job.buf);
	return rc;
}
