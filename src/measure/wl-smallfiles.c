/*
 * smallfiles: the seeds' dd loop. Write count files of size bytes, in
 * write_size pieces (dd bs=), spread over dirs directories filled one
 * after the other (1000 files of 4 KB in 10 directories of 100), fsync
 * each file if asked, then sync inside the timing. counts = [1000, 10000]
 * runs one batch per entry, each its own test, to show how the rate
 * scales with the number of files; the files of a batch are removed
 * (untimed) before the next. Everything is made and opened below the
 * run's directory descriptor, never following a link (engine.h, dirfd).
 * Driver thread and one worker.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/i18n.h"
#include "base/strbuf.h"
#include "base/units.h"
#include "base/xalloc.h"
#include "engine.h"
#include "result.h"
#include "workload.h"

static const struct param smallfiles_params[] = {
	{ "count", PARAM_INT, "1000", 1, 100000000, NULL, 0, "counts",
	    N_("files to write") },
	{ "counts", PARAM_INT_LIST, NULL, 1, 100000000, NULL, 0, "count",
	    N_("several batches, one result each (instead of count)") },
	{ "size", PARAM_SIZE, "4K", 0, 1LL << 30, NULL, 0, NULL,
	    N_("bytes per file") },
	{ "write_size", PARAM_SIZE, "1K", 1, 1LL << 30, NULL, 0, NULL,
	    N_("bytes per write(2), as dd bs=") },
	{ "dirs", PARAM_INT, "10", 1, 1000000, NULL, 0, NULL,
	    N_("directories the files are spread over") },
	{ "fsync", PARAM_BOOL, "false", 0, 0, NULL, 0, NULL,
	    N_("fsync each file before closing it") },
	{ "sync", PARAM_BOOL, "true", 0, 0, NULL, 0, NULL,
	    N_("sync at the end, inside the timing") },
	{ "keep", PARAM_BOOL, "false", 0, 0, NULL, 0, NULL,
	    N_("leave the files on the target after the run") },
	{ NULL, 0, NULL, 0, 0, NULL, 0, NULL, NULL },
};

struct batch {
	uint64_t count, size, wsize, dirs;
	bool fsync, sync;
	char *buf; /* wsize zero bytes, as from /dev/zero */
	char *dir; /* the batch's directory, for messages */
	int dirfd; /* the batch's directory, open */
};

/*
 * Create file name in dirfd (path for messages) and write it. A name
 * that exists, a link above all, is refused rather than followed.
 */
static int
write_file(struct wl_worker *w, const struct batch *b, int dirfd,
    const char *name, const char *path)
{
	uint64_t left = b->size, t;
	ssize_t n;
	int fd;

	t = wl_now_ns();
	fd = openat(dirfd, name,
	    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return wl_fail(w, -errno, _("create %s: %s"), path,
		    strerror(errno));
	wl_lat(w, WL_OP_CREATE, t);
	wl_count_files(w, 1);
	while (left > 0) {
		size_t len = left < b->wsize ? (size_t)left : (size_t)b->wsize;

		t = wl_now_ns();
		n = write(fd, b->buf, len);
		if (n < 0) {
			int e = errno;

			close(fd);
			return wl_fail(w, -e, _("write %s: %s"), path,
			    strerror(e));
		}
		wl_lat(w, WL_OP_WRITE, t);
		wl_count_write(w, (uint64_t)n);
		left -= (uint64_t)n;
	}
	if (b->fsync) {
		t = wl_now_ns();
		if (fsync(fd) < 0) {
			int e = errno;

			close(fd);
			return wl_fail(w, -e, _("fsync %s: %s"), path,
			    strerror(e));
		}
		wl_lat(w, WL_OP_FSYNC, t);
	}
	if (close(fd) < 0)
		return wl_fail(w, -errno, _("close %s: %s"), path,
		    strerror(errno));
	return 0;
}

/* The timed part: the dd loop, mkdir of each directory included. */
static int
batch_worker(struct wl_worker *w)
{
	const struct batch *b = w->arg;
	uint64_t per = (b->count + b->dirs - 1) / b->dirs, i;
	char dname[32], fname[32], path[4096];
	int rc = 0, dfd = -1;

	for (i = 0; i < b->count && rc == 0; i++) {
		if (wl_worker_stopping(w)) {
			rc = -EINTR;
			break;
		}
		snprintf(dname, sizeof dname, "d%04" PRIu64, i / per);
		if (i % per == 0) {
			if (dfd >= 0)
				close(dfd);
			if ((dfd = wl_mkdir_open(b->dirfd, dname, 0755)) < 0) {
				rc = wl_fail(w, dfd, _("mkdir %s/%s: %s"),
				    b->dir, dname, strerror(-dfd));
				break;
			}
		}
		snprintf(fname, sizeof fname, "f%07" PRIu64, i);
		snprintf(path, sizeof path, "%s/%s/%s", b->dir, dname, fname);
		rc = write_file(w, b, dfd, fname, path);
	}
	if (dfd >= 0)
		close(dfd);
	if (rc == 0 && b->sync) {
		uint64_t t = wl_now_ns();

		sync();
		wl_lat(w, WL_OP_FSYNC, t);
	}
	return rc;
}

static int
run_batch(struct wl_run *r, struct batch *b, size_t index)
{
	char key[48], label[96], sz[UNITS_BUF], name[32];
	int rc;

	snprintf(name, sizeof name, "batch%zu", index);
	b->dir = xasprintf("%s/%s", r->dir, name);
	if ((b->dirfd = wl_mkdir_open(r->dirfd, name, 0755)) < 0) {
		rc = wl_run_fail(r, b->dirfd, _("mkdir %s: %s"), b->dir,
		    strerror(-b->dirfd));
		goto out;
	}
	wl_drop_caches(r);
	snprintf(key, sizeof key, "files_%" PRIu64, b->count);
	/* Record data, so not _(); "1 dirs" read as a typo. */
	snprintf(label, sizeof label, "%" PRIu64 " %s of %s in %" PRIu64 " %s",
	    b->count, b->count == 1 ? "file" : "files",
	    units_format_exact(b->size, sz, sizeof sz), b->dirs,
	    b->dirs == 1 ? "dir" : "dirs");
	wl_test_begin(r, key, label, WL_UNIT_FILES_S);
	rc = wl_parallel(r, 1, batch_worker, b);
	wl_test_end(r, 0);
	close(b->dirfd);
	/* The next batch starts from an empty directory, untimed. */
	if (!r->keep && wl_rmtree_at(r->dirfd, name) < 0 && rc == 0)
		wl_note(r, _("could not remove %s"), b->dir);
out:
	free(b->dir);
	b->dir = NULL;
	return rc;
}

static int
smallfiles_run(struct wl_run *r)
{
	struct batch b;
	const int64_t *counts;
	int64_t one;
	size_t n, i;
	int rc = 0;

	counts = wl_param_list(r, "counts", &n);
	if (!wl_param_isset(r, "counts")) {
		one = wl_param_int(r, "count");
		counts = &one;
		n = 1;
	}
	memset(&b, 0, sizeof b);
	b.size = wl_param_size(r, "size");
	b.wsize = wl_param_size(r, "write_size");
	b.dirs = (uint64_t)wl_param_int(r, "dirs");
	b.fsync = wl_param_bool(r, "fsync");
	b.sync = wl_param_bool(r, "sync");
	b.buf = xcalloc(1, b.wsize);
	for (i = 0; i < n && rc == 0; i++) {
		b.count = (uint64_t)counts[i];
		wl_check_dataset(r, b.count * b.size);
		rc = run_batch(r, &b, i);
	}
	free(b.buf);
	return rc;
}

/*
 * "1000 files of 4K in 10 dirs: 5.02 s, 199.2 files/s (user 0.01 s, sys
 * 0.30 s, 6% CPU)", one line per batch and repeat, then the mean.
 */
static void
smallfiles_report(const struct wl_result *const *res, size_t n,
    struct strbuf *out)
{
	const struct wl_result *first = n ? res[0] : NULL;
	size_t i, k;

	for (k = 0; first != NULL && k < first->ntests; k++) {
		double sum = 0, secs = 0;
		size_t got = 0;

		for (i = 0; i < n; i++) {
			const struct wl_test *t =
			    wl_result_test(res[i], first->tests[k].key);

			if (t == NULL)
				continue;
			strbuf_printf(out,
			    _("%s: %.2f s, %.1f files/s (user %.2f s, sys "
			      "%.2f s, %.0f%% CPU)%s\n"),
			    t->label, t->wall, t->value, t->user, t->sys,
			    wl_test_cpu_percent(t),
			    t->interrupted ? _(" [interrupted]") : "");
			sum += t->value;
			secs += t->wall;
			got++;
		}
		if (got > 1)
			strbuf_printf(out,
			    _("%s: mean of %zu runs %.2f s, %.1f files/s\n"),
			    first->tests[k].label, got, secs / (double)got,
			    sum / (double)got);
	}
}

/* The largest batch (batches are removed in between), or all of them. */
static uint64_t
smallfiles_dataset(const struct param_value *v, bool keep)
{
	const struct param *ps = smallfiles_params;
	const struct param_value *counts = workload_value(ps, v, "counts");
	uint64_t per = workload_blocks(workload_value(ps, v, "size")->size);
	uint64_t n = 0, b;

	if (!counts->set || counts->nlist == 0)
		return workload_mul((uint64_t)workload_value(ps, v, "count")->i,
		    per);
	for (size_t i = 0; i < counts->nlist; i++) {
		b = workload_mul((uint64_t)counts->list[i], per);
		n = keep ? workload_add(n, b) : b > n ? b : n;
	}
	return n;
}

const struct workload wl_smallfiles = {
	.name = "smallfiles",
	.summary = N_("write many small files, as a dd loop does"),
	.params = smallfiles_params,
	.run = smallfiles_run,
	.report = smallfiles_report,
	.dataset = smallfiles_dataset,
};
