/*
 * fio: one fio-style job: an I/O pattern at a block size over one file
 * of size per job (threads = numjobs), for one pass or for runtime
 * seconds, iodepth deep with libaio or io_uring (psync: one I/O at a time
 * per thread), with fio's meanings for direct, fsync=N, end_fsync and
 * rwmixread. Like fio, files are laid out first, untimed: written in full
 * when the job reads (or overwrite = true), else only allocated; their
 * cached pages are then invalidated (fio's invalidate=1) and the access
 * pattern advised (fio's fadvise_hint=1).
 *
 * The job is one test, keyed by the rw pattern: read and write bytes are
 * counted apart (bytes_read, bytes_written) and every I/O's completion
 * latency goes to the WL_OP_READ or WL_OP_WRITE histogram, so a mixed job
 * carries both directions of the same timed phase, and the report (and
 * fio_dir_figures()) splits them as fio prints "read:" and "write:"
 * lines. The test's own figure is MB/s of both directions together.
 *
 * prepare, run, cleanup and report on the driver thread; the workers are
 * in wl-fio-io.c and wl-fio-aio.c.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "base/i18n.h"
#include "base/strbuf.h"
#include "base/units.h"
#include "base/xalloc.h"
#include "engine.h"
#include "result.h"
#include "wl-fio.h"
#include "workload.h"

#ifndef TMPFS_MAGIC
#define TMPFS_MAGIC 0x01021994
#endif

/* Buffers: at most this much per run (threads x iodepth x bs). */
#define FIO_MAX_BUFFERS (UINT64_C(1) << 30)
/* Layout chunk. */
#define FIO_LAYOUT_CHUNK (UINT64_C(1) << 20)

static const char *const fio_rw[] = { "read", "write", "randread", "randwrite",
	"randrw", "rw", NULL };
static const char *const fio_engines[] = { "psync", "libaio", "io_uring",
	NULL };

static const struct param fio_params[] = {
	{ "rw", PARAM_ENUM, "read", 0, 0, fio_rw, 0, NULL,
	    N_("I/O pattern (rw=)") },
	{ "bs", PARAM_SIZE, "4K", 512, 64 << 20, NULL, 0, NULL,
	    N_("block size (bs=)") },
	{ "size", PARAM_SIZE, "1G", 4096, 0, NULL, 0, NULL,
	    N_("file size per job (size=)") },
	{ "runtime", PARAM_INT, "0", 0, 86400, NULL, 0, NULL,
	    N_("seconds to run, looping over the file (runtime= with "
	       "time_based); 0: one pass of size") },
	{ "threads", PARAM_INT, "1", 1, ENGINE_MAX_WORKERS, NULL, 0, NULL,
	    N_("parallel jobs, one file each (numjobs=)") },
	{ "iodepth", PARAM_INT, "1", 1, 4096, NULL, 0, NULL,
	    N_("I/Os in flight per job with libaio and io_uring (iodepth=)") },
	{ "ioengine", PARAM_ENUM, "psync", 0, 0, fio_engines, 0, NULL,
	    N_("how I/O is submitted (ioengine=)") },
	{ "direct", PARAM_BOOL, "false", 0, 0, NULL, 0, NULL,
	    N_("O_DIRECT, bypassing the page cache (direct=)") },
	{ "fsync", PARAM_INT, "0", 0, 1000000, NULL, 0, NULL,
	    N_("fsync every N writes; 0: never (fsync=)") },
	{ "end_fsync", PARAM_BOOL, "false", 0, 0, NULL, 0, NULL,
	    N_("fsync when the job is done, inside the timing (end_fsync=)") },
	{ "rwmixread", PARAM_INT, "50", 0, 100, NULL, 0, NULL,
	    N_("percentage of reads in randrw and rw (rwmixread=)") },
	{ "overwrite", PARAM_BOOL, "false", 0, 0, NULL, 0, NULL,
	    N_("write jobs: lay the file out with data first, so writes "
	       "overwrite (overwrite=)") },
	{ "keep", PARAM_BOOL, "false", 0, 0, NULL, 0, NULL,
	    N_("leave the files on the target after the run") },
	{ "fio_server", PARAM_BOOL, "false", 0, 0, NULL, 0, NULL,
	    N_("run the job with fio itself, through fio's client/server "
	       "on every host of the variant at once") },
	{ NULL, 0, NULL, 0, 0, NULL, 0, NULL, NULL },
};

/* ---------------------------------------------------------------- prepare */

static int
job_from_params(struct wl_run *r, struct fio_job *j)
{
	/* lab_check() keeps such a job off local variants; a lab built in
	   memory is refused here all the same. */
	if (wl_param_bool(r, "fio_server"))
		return wl_run_fail(r, -EINVAL, "%s",
		    _("fio_server = true runs through fio's client/server "
		      "on the variant's hosts, not in raidlab itself"));
	j->rw = (enum fio_rw)wl_param_int(r, "rw");
	j->engine = (enum fio_engine)wl_param_int(r, "ioengine");
	j->bs = wl_param_size(r, "bs");
	j->size = wl_param_size(r, "size");
	j->threads = (unsigned)wl_param_int(r, "threads");
	j->iodepth = (unsigned)wl_param_int(r, "iodepth");
	j->rwmixread = (unsigned)wl_param_int(r, "rwmixread");
	j->direct = wl_param_bool(r, "direct");
	j->end_fsync = wl_param_bool(r, "end_fsync");
	j->overwrite = wl_param_bool(r, "overwrite");
	j->fsync_every = (uint64_t)wl_param_int(r, "fsync");
	j->runtime_ns = (uint64_t)wl_param_int(r, "runtime") * 1000000000u;
	j->random = j->rw == FIO_RANDREAD || j->rw == FIO_RANDWRITE ||
	    j->rw == FIO_RANDRW;
	j->reads = j->rw != FIO_WRITE && j->rw != FIO_RANDWRITE;
	j->writes = j->rw != FIO_READ && j->rw != FIO_RANDREAD;
	if (j->reads && j->writes && j->rwmixread == 100)
		j->writes = false;
	else if (j->reads && j->writes && j->rwmixread == 0)
		j->reads = false;

	if (j->size < j->bs)
		return wl_run_fail(r, -EINVAL,
		    _("size (%" PRIu64 ") is smaller than bs (%" PRIu64 ")"),
		    j->size, j->bs);
	j->nblocks = j->size / j->bs;
	if (j->direct && j->bs % 512 != 0)
		return wl_run_fail(r, -EINVAL,
		    _("direct = true needs bs to be a multiple of 512 "
		      "(bs = %" PRIu64 ")"),
		    j->bs);
	if (!fio_engine_available(j->engine))
		return wl_run_fail(r, -ENOTSUP,
		    _("ioengine %s: this raidlab was built without it "
		      "(install %s and rebuild)"),
		    fio_engines[j->engine],
		    j->engine == FIO_LIBAIO ? "libaio-dev" : "liburing-dev");
	if (j->engine == FIO_PSYNC && j->iodepth > 1) {
		wl_note(r,
		    _("ioengine psync does one I/O at a time per "
		      "thread: iodepth %u is taken as 1 (as fio does)"),
		    j->iodepth);
		j->iodepth = 1;
	}
	if ((uint64_t)j->threads * j->iodepth * j->bs > FIO_MAX_BUFFERS)
		return wl_run_fail(r, -ENOMEM,
		    _("threads x iodepth x bs is over 1G of buffers"));
	return 0;
}

/* Random bytes (fio's default write content) in a page-aligned buffer. */
static int
buffer_alloc(struct wl_run *r, unsigned char **out, size_t len, uint64_t seed)
{
	void *p;
	size_t k;
	int e;

	if ((e = posix_memalign(&p, 4096, len)) != 0)
		return wl_run_fail(r, -e, _("buffers of %zu bytes: %s"), len,
		    strerror(e));
	*out = p;
	for (k = 0; k + 8 <= len; k += 8) {
		uint64_t v = wl_rand(&seed);

		memcpy(*out + k, &v, 8);
	}
	return 0;
}

/* Write the whole file (fio's layout for jobs that read), then fsync. */
static int
layout_write(struct wl_run *r, const struct fio_job *j,
    const struct fio_file *f, int fd, const unsigned char *buf)
{
	uint64_t done = 0, chunk;
	ssize_t n;

	while (done < j->size) {
		if (wl_stopping(r))
			return -EINTR;
		chunk = j->size - done;
		if (chunk > FIO_LAYOUT_CHUNK)
			chunk = FIO_LAYOUT_CHUNK;
		n = pwrite(fd, buf, (size_t)chunk, (off_t)done);
		if (n < 0)
			return wl_run_fail(r, -errno, _("lay out %s: %s"),
			    f->path, strerror(errno));
		if (n == 0)
			return wl_run_fail(r, -ENOSPC, _("lay out %s: %s"),
			    f->path, strerror(ENOSPC));
		done += (uint64_t)n;
	}
	return 0;
}

/* Allocate without writing (fio's fallocate=native for write jobs). */
static int
layout_alloc(struct wl_run *r, const struct fio_job *j,
    const struct fio_file *f, int fd)
{
	int e;

	if (fallocate(fd, 0, 0, (off_t)j->size) < 0 && errno != EOPNOTSUPP &&
	    errno != ENOSYS) {
		e = errno;
		return wl_run_fail(r, -e, _("lay out %s: %s"), f->path,
		    strerror(e));
	}
	if (ftruncate(fd, (off_t)j->size) < 0)
		return wl_run_fail(r, -errno, _("lay out %s: %s"), f->path,
		    strerror(errno));
	return 0;
}

/* Lay out file f, new in the run's directory: a name that exists (a
   link above all) is refused rather than followed. */
static int
layout_file(struct wl_run *r, const struct fio_job *j, const struct fio_file *f,
    const unsigned char *buf)
{
	int fd, rc;

	fd = openat(r->dirfd, f->name,
	    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return wl_run_fail(r, -errno, _("create %s: %s"), f->path,
		    strerror(errno));
	/*
	 * fio lays out with data whenever the pattern reads at all, and
	 * fsyncs that (create_fsync=1); write jobs are only allocated.
	 */
	if (j->overwrite || (j->rw != FIO_WRITE && j->rw != FIO_RANDWRITE)) {
		rc = layout_write(r, j, f, fd, buf);
		if (rc == 0 && fsync(fd) < 0)
			rc = wl_run_fail(r, -errno, _("fsync %s: %s"), f->path,
			    strerror(errno));
	} else {
		rc = layout_alloc(r, j, f, fd);
	}
	if (close(fd) < 0 && rc == 0)
		rc = wl_run_fail(r, -errno, _("close %s: %s"), f->path,
		    strerror(errno));
	return rc;
}

static int
fio_prepare(struct wl_run *r)
{
	struct fio_job *j = xcalloc(1, sizeof *j);
	unsigned char *lbuf = NULL;
	struct statfs sf;
	unsigned i;
	int rc;

	r->priv = j;
	if ((rc = job_from_params(r, j)) < 0)
		return rc;
	j->files = xcalloc(j->threads, sizeof *j->files);
	for (i = 0; i < j->threads; i++) {
		j->files[i].fd = -1;
		snprintf(j->files[i].name, sizeof j->files[i].name, "fio.%u.0",
		    i);
		j->files[i].path = xasprintf("%s/%s", r->dir, j->files[i].name);
	}
	if (j->direct && fstatfs(r->dirfd, &sf) == 0 &&
	    (unsigned long)sf.f_type == TMPFS_MAGIC)
		wl_note(r,
		    _("direct = true on tmpfs: the kernel accepts "
		      "O_DIRECT there but the data stays in memory"));
	if (!j->direct)
		wl_check_dataset(r, j->size * j->threads);
	for (i = 0; i < j->threads; i++)
		if ((rc = buffer_alloc(r, &j->files[i].buf,
			 (size_t)(j->iodepth * j->bs), i + 1)) < 0)
			return rc;
	if ((rc = buffer_alloc(r, &lbuf, FIO_LAYOUT_CHUNK, 0)) < 0)
		return rc;
	for (i = 0; i < j->threads && rc == 0; i++)
		rc = layout_file(r, j, &j->files[i], lbuf);
	free(lbuf);
	return rc;
}

/* ---------------------------------------------------------------- run */

static int
files_open(struct wl_run *r, struct fio_job *j)
{
	int flags = O_CLOEXEC | O_NOFOLLOW | (j->direct ? O_DIRECT : 0);
	unsigned i;

	if (j->reads && j->writes)
		flags |= O_RDWR;
	else
		flags |= j->writes ? O_WRONLY : O_RDONLY;
	for (i = 0; i < j->threads; i++) {
		struct fio_file *f = &j->files[i];

		f->fd = openat(r->dirfd, f->name, flags);
		if (f->fd < 0 && errno == EINVAL && j->direct)
			return wl_run_fail(r, -EINVAL,
			    _("direct = true: the filesystem of %s does not "
			      "support O_DIRECT (open %s: %s)"),
			    r->target, f->path, strerror(EINVAL));
		if (f->fd < 0)
			return wl_run_fail(r, -errno, _("open %s: %s"), f->path,
			    strerror(errno));
		/*
		 * fio's invalidate=1: start without the file's pages; and
		 * its fadvise_hint=1: no readahead for random jobs, more
		 * for sequential ones.
		 */
		posix_fadvise(f->fd, 0, 0, POSIX_FADV_DONTNEED);
		posix_fadvise(f->fd, 0, 0,
		    j->random ? POSIX_FADV_RANDOM : POSIX_FADV_SEQUENTIAL);
	}
	return 0;
}

static void
files_close(struct fio_job *j)
{
	unsigned i;

	for (i = 0; j->files != NULL && i < j->threads; i++)
		if (j->files[i].fd >= 0) {
			close(j->files[i].fd);
			j->files[i].fd = -1;
		}
}

static int
fio_run(struct wl_run *r)
{
	struct fio_job *j = r->priv;
	char label[160], bs[UNITS_BUF], size[UNITS_BUF];
	int rc;

	if ((rc = files_open(r, j)) < 0)
		goto out;
	wl_drop_caches(r);
	snprintf(label, sizeof label,
	    "%s bs=%s size=%s numjobs=%u "
	    "iodepth=%u %s%s",
	    fio_rw[j->rw], units_format_exact(j->bs, bs, sizeof bs),
	    units_format_exact(j->size, size, sizeof size), j->threads,
	    j->iodepth, fio_engines[j->engine], j->direct ? " direct" : "");
	wl_test_begin(r, fio_rw[j->rw], label, WL_UNIT_MBPS);
	j->deadline_ns = wl_now_ns() + j->runtime_ns;
	rc = wl_parallel(r, j->threads,
	    j->engine == FIO_PSYNC ? fio_psync_worker : fio_aio_worker, j);
	wl_test_end(r, 0);
out:
	files_close(j);
	return rc;
}

static void
fio_cleanup(struct wl_run *r)
{
	struct fio_job *j = r->priv;
	unsigned i;

	if (j == NULL)
		return;
	files_close(j);
	for (i = 0; j->files != NULL && i < j->threads; i++) {
		free(j->files[i].path);
		free(j->files[i].buf);
	}
	free(j->files);
	free(j);
	r->priv = NULL;
}

/* ---------------------------------------------------------------- report */

/* "12.3k" as fio prints IOPS. */
static const char *
iops_str(double v, char *buf, size_t len)
{
	if (v >= 1e6)
		snprintf(buf, len, "%.1fM", v / 1e6);
	else if (v >= 1e4)
		snprintf(buf, len, "%.1fk", v / 1e3);
	else
		snprintf(buf, len, "%.0f", v);
	return buf;
}

static void
report_dir(const struct wl_test *t, enum wl_op op, struct strbuf *out)
{
	struct fio_dir_figs d;
	char iops[32], tot[UNITS_BUF];

	fio_dir_figures(t, op, &d);
	if (d.ios == 0)
		return;
	strbuf_printf(out,
	    _("  %5s: IOPS=%s, BW=%.1fMiB/s (%.1fMB/s)(%s/%.2fs)\n"),
	    op == WL_OP_READ ? _("read") : _("write"),
	    iops_str(d.iops, iops, sizeof iops), d.mibps, d.mbps,
	    units_format_size(d.bytes, tot, sizeof tot), t->wall);
	strbuf_printf(out,
	    _("    lat (usec): avg=%.1f, 50th=%.1f, 90th=%.1f, 99th=%.1f, "
	      "99.9th=%.1f, max=%.1f\n"),
	    d.mean / 1e3, (double)d.p50 / 1e3, (double)d.p90 / 1e3,
	    (double)d.p99 / 1e3, (double)d.p999 / 1e3, (double)d.max / 1e3);
}

/*
 * fio's normal output, shortened: per repeat the job line, then "read:"
 * and "write:" with IOPS, BW in MiB/s and MB/s, and the latency
 * percentiles (fio's "lat": from when an I/O is queued to its completion;
 * for psync the call itself, fio's clat); then the CPU line. With several
 * repeats, the mean bandwidth per direction.
 */
static void
fio_report(const struct wl_result *const *res, size_t n, struct strbuf *out)
{
	double sum[2] = { 0, 0 };
	size_t i, got = 0;
	const struct wl_test *t = NULL;

	for (i = 0; i < n; i++) {
		struct fio_dir_figs rd, wr;

		if (res[i]->ntests == 0)
			continue;
		t = &res[i]->tests[0];
		strbuf_printf(out, _("%s: %s%s\n"), res[i]->name, t->label,
		    t->interrupted ? _(" [interrupted]") : "");
		report_dir(t, WL_OP_READ, out);
		report_dir(t, WL_OP_WRITE, out);
		if (t->lat[WL_OP_FSYNC].n > 0)
			strbuf_printf(out,
			    _("  fsync: %" PRIu64 " calls, 99th="
			      "%.1f usec\n"),
			    t->lat[WL_OP_FSYNC].n,
			    (double)hist_quantile(&t->lat[WL_OP_FSYNC], 0.99) /
				1e3);
		strbuf_printf(out, _("  cpu: usr=%.2f%%, sys=%.2f%%\n"),
		    t->wall > 0 ? t->user / t->wall * 100 : 0,
		    t->wall > 0 ? t->sys / t->wall * 100 : 0);
		fio_dir_figures(t, WL_OP_READ, &rd);
		fio_dir_figures(t, WL_OP_WRITE, &wr);
		sum[0] += rd.mbps;
		sum[1] += wr.mbps;
		got++;
	}
	if (got > 1)
		strbuf_printf(out,
		    _("mean of %zu runs: read %.1fMB/s, write "
		      "%.1fMB/s\n"),
		    got, sum[0] / (double)got, sum[1] / (double)got);
}

static const struct param_bound wl_fio_bounds[] = {
	{ "bs", "size" },
	{ NULL, NULL },
};

/* A file of size per job. */
static uint64_t
fio_dataset(const struct param_value *v, bool keep)
{
	(void)keep;
	return workload_mul(workload_blocks(
				workload_value(fio_params, v, "size")->size),
	    (uint64_t)workload_value(fio_params, v, "threads")->i);
}

const struct workload wl_fio = {
	.name = "fio",
	.summary = N_("one fio-style job: pattern, block size, depth"),
	.params = fio_params,
	.bounds = wl_fio_bounds,
	.prepare = fio_prepare,
	.run = fio_run,
	.cleanup = fio_cleanup,
	.report = fio_report,
	.dataset = fio_dataset,
};
