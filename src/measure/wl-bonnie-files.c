/*
 * bonnie's file tests, as bonnie++ 2.00 runs them: NUM x 1024 files of
 * MIN..MAX random bytes (0: empty) evenly over DIRS directories, named
 * with 7 digits and 0 to 12 random alphanumerics. Sequential: create in
 * numeric order (digits first), stat ("Read": and read the data of files
 * that have some) in readdir order, delete in readdir order. Random: the
 * random characters come first, files are created in numeric order (so
 * the names look random to the filesystem), then stat'ed and deleted in
 * random order. Create and delete end with sync() inside their timing;
 * the directories are removed inside the delete's timing. With -b every
 * file is fsynced and its directory after a create or delete.
 * bonnie_files_run() on the driver thread; *_worker on a worker thread.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/i18n.h"
#include "base/xalloc.h"
#include "engine.h"
#include "result.h"
#include "wl-bonnie.h"

/* "DDDDD/" + up to 10 digits and 12 characters. */
#define REL_MAX 64
#define DENTS_BUF 32768
/* "%05" of a 64-bit directory index, "/" and the NUL. */
#define DIRNAME_MAX 24

struct files_job {
	const struct bonnie *b;
	char (*rel)[REL_MAX]; /* path of file i under top */
	uint64_t *order; /* a permutation, for the random tests */
	char *buf; /* file data, buflen bytes */
	size_t buflen;
	char *dents; /* getdents64 buffer */
	int topfd;
	uint64_t ndirs; /* directories to walk: dirs, or 1 (top) */
};

/* linux_dirent64, as getdents64(2) fills it. */
struct dent64 {
	uint64_t ino;
	int64_t off;
	unsigned short reclen;
	unsigned char type;
	char name[];
};

static const char alnum[] =
    "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

static uint64_t
dir_of(const struct bonnie *b, uint64_t i)
{
	return b->dirs > 0 ? i * b->dirs / b->files : 0;
}

/* Directory d relative to top: "00003", or "." without dirs. */
static void
dir_name(const struct bonnie *b, uint64_t d, char *p, size_t len)
{
	if (b->dirs > 0)
		snprintf(p, len, "%05" PRIu64, d);
	else
		snprintf(p, len, ".");
}

/* The names of a phase: digits first (sequential) or last (random). */
static void
files_names(struct files_job *job, bool random, uint64_t *seed)
{
	const struct bonnie *b = job->b;
	char rnd[BONNIE_RANDCHARS + 1], dir[DIRNAME_MAX] = "";
	uint64_t i, k, n;

	for (i = 0; i < b->files; i++) {
		n = wl_rand(seed) % (BONNIE_RANDCHARS + 1);
		for (k = 0; k < n; k++)
			rnd[k] = alnum[wl_rand(seed) % (sizeof alnum - 1)];
		rnd[n] = '\0';
		if (b->dirs > 0)
			snprintf(dir, sizeof dir, "%05" PRIu64 "/",
			    dir_of(b, i));
		if (random)
			snprintf(job->rel[i], REL_MAX, "%s%s%0*" PRIu64, dir,
			    rnd, BONNIE_DIGITS, i);
		else
			snprintf(job->rel[i], REL_MAX, "%s%0*" PRIu64 "%s", dir,
			    BONNIE_DIGITS, i, rnd);
	}
}

static void
files_shuffle(struct files_job *job, uint64_t *seed)
{
	uint64_t i, j, x;

	for (i = 0; i < job->b->files; i++)
		job->order[i] = i;
	for (i = job->b->files; i > 1; i--) {
		j = wl_rand(seed) % i;
		x = job->order[i - 1];
		job->order[i - 1] = job->order[j];
		job->order[j] = x;
	}
}

/* -b: fsync the directory of file i after a create or delete. */
static int
fsync_dir(struct wl_worker *w, const struct files_job *job, uint64_t d)
{
	char name[DIRNAME_MAX];
	int fd;

	dir_name(job->b, d, name, sizeof name);
	fd = openat(job->topfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || fsync(fd) < 0) {
		int e = errno;

		if (fd >= 0)
			close(fd);
		return wl_fail(w, -e, _("fsync %s/%s: %s"), job->b->top, name,
		    strerror(e));
	}
	close(fd);
	return 0;
}

/* Write size bytes in buflen pieces; 0 or a positive errno. */
static int
fill_file(struct wl_worker *w, const struct files_job *job, int fd,
    uint64_t size)
{
	while (size > 0) {
		size_t len = size < job->buflen ? (size_t)size : job->buflen;
		ssize_t n = write(fd, job->buf, len);

		if (n < 0)
			return errno;
		if (n == 0)
			return ENOSPC;
		wl_count_write(w, (uint64_t)n);
		size -= (uint64_t)n;
	}
	return 0;
}

static int
create_one(struct wl_worker *w, const struct files_job *job, uint64_t i)
{
	const struct bonnie *b = job->b;
	uint64_t size = 0, t = wl_now_ns();
	int fd, e = 0;

	if (b->max_size > 0)
		size = b->min_size +
		    wl_rand(&w->seed) % (b->max_size - b->min_size + 1);
	fd = openat(job->topfd, job->rel[i],
	    O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return wl_fail(w, -errno, _("create %s/%s: %s"), b->top,
		    job->rel[i], strerror(errno));
	e = fill_file(w, job, fd, size);
	if (e == 0 && b->fsync && fsync(fd) < 0)
		e = errno;
	if (close(fd) < 0 && e == 0)
		e = errno;
	if (e != 0)
		return wl_fail(w, -e, _("write %s/%s: %s"), b->top, job->rel[i],
		    strerror(e));
	if (b->fsync && (e = fsync_dir(w, job, dir_of(b, i))) < 0)
		return e;
	wl_lat(w, WL_OP_CREATE, t);
	wl_count_files(w, 1);
	return 0;
}

/* sync() at the end of a create or delete, inside the timing. */
static void
files_sync(struct wl_worker *w)
{
	uint64_t t = wl_now_ns();

	sync();
	wl_lat(w, WL_OP_FSYNC, t);
}

/* Both creates: in numeric order; the names make the difference. */
static int
create_worker(struct wl_worker *w)
{
	const struct files_job *job = w->arg;
	uint64_t i;
	int rc;

	for (i = 0; i < job->b->files; i++) {
		if (wl_worker_stopping(w))
			return -EINTR;
		if ((rc = create_one(w, job, i)) < 0)
			return rc;
	}
	files_sync(w);
	return 0;
}

/* stat name in dfd and read its data if it has some. */
static int
stat_one(struct wl_worker *w, const struct files_job *job, int dfd,
    const char *name)
{
	uint64_t t = wl_now_ns();
	struct stat st;
	ssize_t n;
	int fd;

	if (fstatat(dfd, name, &st, 0) < 0)
		return wl_fail(w, -errno, _("stat %s: %s"), name,
		    strerror(errno));
	if (st.st_size > 0) {
		fd = openat(dfd, name, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return wl_fail(w, -errno, _("open %s: %s"), name,
			    strerror(errno));
		while ((n = read(fd, job->buf, job->buflen)) > 0)
			wl_count_read(w, (uint64_t)n);
		if (n < 0) {
			int e = errno;

			close(fd);
			return wl_fail(w, -e, _("read %s: %s"), name,
			    strerror(e));
		}
		close(fd);
	}
	wl_lat(w, WL_OP_STAT, t);
	wl_count_files(w, 1);
	return 0;
}

static bool
dot_or_dotdot(const char *n)
{
	return n[0] == '.' && (n[1] == '\0' || (n[1] == '.' && n[2] == '\0'));
}

/*
 * Walk directory d in readdir order, calling stat_one or unlinking each
 * entry. Deleting rewinds until a pass finds nothing, as entries may
 * move under a cursor while others are removed.
 */
static int
walk_dir(struct wl_worker *w, const struct files_job *job, uint64_t d, bool del)
{
	uint64_t t, found = 1;
	char name[DIRNAME_MAX];
	long n;
	int dfd, rc = 0;

	dir_name(job->b, d, name, sizeof name);
	dfd = openat(job->topfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return wl_fail(w, -errno, _("open %s/%s: %s"), job->b->top,
		    name, strerror(errno));
	while (rc == 0 && found > 0) {
		found = 0;
		while (rc == 0 &&
		    (n = syscall(SYS_getdents64, dfd, job->dents, DENTS_BUF)) >
			0) {
			for (long off = 0; off < n && rc == 0;) {
				struct dent64 *de =
				    (struct dent64 *)(job->dents + off);

				off += de->reclen;
				if (dot_or_dotdot(de->name))
					continue;
				if (wl_worker_stopping(w)) {
					rc = -EINTR;
					break;
				}
				if (!del) {
					rc = stat_one(w, job, dfd, de->name);
					continue;
				}
				t = wl_now_ns();
				if (unlinkat(dfd, de->name, 0) < 0) {
					rc = wl_fail(w, -errno,
					    _("unlink %s: %s"), de->name,
					    strerror(errno));
					break;
				}
				if (job->b->fsync && fsync(dfd) < 0) {
					rc = wl_fail(w, -errno,
					    _("fsync %s: %s"), name,
					    strerror(errno));
					break;
				}
				wl_lat(w, WL_OP_DELETE, t);
				wl_count_files(w, 1);
				found++;
			}
		}
		if (rc == 0 && n < 0)
			rc = wl_fail(w, -errno, _("read directory %s/%s: %s"),
			    job->b->top, name, strerror(errno));
		if (!del)
			break;
		if (found > 0 && lseek(dfd, 0, SEEK_SET) < 0)
			rc = wl_fail(w, -errno, _("rewind %s: %s"), name,
			    strerror(errno));
	}
	close(dfd);
	return rc;
}

/* Remove the directories and the top one: part of a delete's timing. */
static int
remove_dirs(struct wl_worker *w, const struct files_job *job)
{
	char name[DIRNAME_MAX];
	uint64_t d;

	for (d = 0; d < job->b->dirs; d++) {
		dir_name(job->b, d, name, sizeof name);
		if (unlinkat(job->topfd, name, AT_REMOVEDIR) < 0)
			return wl_fail(w, -errno, _("rmdir %s/%s: %s"),
			    job->b->top, name, strerror(errno));
	}
	if (unlinkat(w->run->dirfd, job->b->top_name, AT_REMOVEDIR) < 0)
		return wl_fail(w, -errno, _("rmdir %s: %s"), job->b->top,
		    strerror(errno));
	files_sync(w);
	return 0;
}

static int
seq_stat_worker(struct wl_worker *w)
{
	const struct files_job *job = w->arg;
	uint64_t d;
	int rc;

	for (d = 0; d < job->ndirs; d++)
		if ((rc = walk_dir(w, job, d, false)) < 0)
			return rc;
	return 0;
}

static int
seq_delete_worker(struct wl_worker *w)
{
	const struct files_job *job = w->arg;
	uint64_t d;
	int rc;

	for (d = 0; d < job->ndirs; d++)
		if ((rc = walk_dir(w, job, d, true)) < 0)
			return rc;
	return remove_dirs(w, job);
}

static int
random_stat_worker(struct wl_worker *w)
{
	const struct files_job *job = w->arg;
	uint64_t k;
	int rc;

	for (k = 0; k < job->b->files; k++) {
		if (wl_worker_stopping(w))
			return -EINTR;
		rc = stat_one(w, job, job->topfd, job->rel[job->order[k]]);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static int
random_delete_worker(struct wl_worker *w)
{
	const struct files_job *job = w->arg;
	const struct bonnie *b = job->b;
	uint64_t k, i, t;
	int rc;

	for (k = 0; k < b->files; k++) {
		if (wl_worker_stopping(w))
			return -EINTR;
		i = job->order[k];
		t = wl_now_ns();
		if (unlinkat(job->topfd, job->rel[i], 0) < 0)
			return wl_fail(w, -errno, _("unlink %s/%s: %s"), b->top,
			    job->rel[i], strerror(errno));
		if (b->fsync && (rc = fsync_dir(w, job, dir_of(b, i))) < 0)
			return rc;
		wl_lat(w, WL_OP_DELETE, t);
		wl_count_files(w, 1);
	}
	return remove_dirs(w, job);
}

static int
files_test(struct wl_run *r, struct files_job *job, enum bonnie_test bt,
    wl_worker_fn fn)
{
	char *label = bonnie_label(job->b, bt);
	int rc;

	wl_test_begin(r, bonnie_keys[bt], label, WL_UNIT_FILES_S);
	rc = wl_parallel(r, 1, fn, job);
	wl_test_end(r, BONNIE_MIN_TIME);
	free(label);
	return rc;
}

/* The top directory and its subdirectories, untimed; opens topfd. */
static int
files_mkdirs(struct wl_run *r, struct files_job *job)
{
	const struct bonnie *b = job->b;
	char name[DIRNAME_MAX];
	uint64_t d;

	job->topfd = wl_mkdir_open(r->dirfd, b->top_name, 0700);
	if (job->topfd < 0)
		return wl_run_fail(r, job->topfd, _("mkdir %s: %s"), b->top,
		    strerror(-job->topfd));
	for (d = 0; d < b->dirs; d++) {
		dir_name(b, d, name, sizeof name);
		if (mkdirat(job->topfd, name, 0700) < 0)
			return wl_run_fail(r, -errno, _("mkdir %s/%s: %s"),
			    b->top, name, strerror(errno));
	}
	return 0;
}

/* One phase: create, stat, delete, sequential or random. */
static int
files_phase(struct wl_run *r, struct files_job *job, bool random,
    uint64_t *seed)
{
	int rc;

	files_names(job, random, seed);
	if ((rc = files_mkdirs(r, job)) < 0)
		goto out;
	rc = files_test(r, job, random ? BT_RAN_CREATE : BT_SEQ_CREATE,
	    create_worker);
	if (rc < 0)
		goto out;
	files_shuffle(job, seed);
	rc = random ? files_test(r, job, BT_RAN_STAT, random_stat_worker)
		    : files_test(r, job, BT_SEQ_STAT, seq_stat_worker);
	if (rc < 0)
		goto out;
	files_shuffle(job, seed);
	rc = random ? files_test(r, job, BT_RAN_DEL, random_delete_worker)
		    : files_test(r, job, BT_SEQ_DEL, seq_delete_worker);
out:
	if (job->topfd >= 0)
		close(job->topfd);
	job->topfd = -1;
	return rc;
}

int
bonnie_files_run(struct wl_run *r, struct bonnie *b)
{
	struct files_job job;
	uint64_t seed = UINT64_C(0x5eed0b0441e);
	int rc;

	memset(&job, 0, sizeof job);
	job.b = b;
	job.topfd = -1;
	job.ndirs = b->dirs > 0 ? b->dirs : 1;
	job.rel = xcalloc(b->files, sizeof *job.rel);
	job.order = xcalloc(b->files, sizeof *job.order);
	job.buflen = b->max_size > 65536 ? 65536 : 4096;
	job.buf = xmalloc(job.buflen);
	memset(job.buf, 'b', job.buflen);
	job.dents = xmalloc(DENTS_BUF);
	rc = files_phase(r, &job, false, &seed);
	if (rc == 0)
		rc = files_phase(r, &job, true, &seed);
	free(job.rel);
	free(job.order);
	free(job.buf);
	free(job.dents);
	return rc;
}
