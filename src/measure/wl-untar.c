/*
 * untar: time sh -c 'tar xf linux-2.6.20.tar; sync'. Extracts a tarball
 * the user gives (libarchive, any format and compression it reads), or a
 * synthetic tree with a kernel-like small-file size distribution (tree.h)
 * made once into the cache as a tar (prepare, not timed). One test, "tar
 * xf + sync", timed like time(1): wall, user, sys; the final sync is
 * inside the timing. When the lab drops caches, they are dropped before
 * the test so the tarball is read cold, unless it sits in memory (tmpfs,
 * ramfs), which no drop empties. Driver thread; the extraction
 * runs in one worker (wl-untar-extract.c).
 */
#include "config.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>

#include "base/i18n.h"
#include "base/strbuf.h"
#include "base/units.h"
#include "base/xalloc.h"
#include "engine.h"
#include "result.h"
#include "tree.h"
#include "wl-untar.h"
#include "workload.h"

/* statfs(2)'s f_type of the memory-backed filesystems (linux/magic.h). */
#define UNTAR_TMPFS_MAGIC 0x01021994UL
#define UNTAR_RAMFS_MAGIC 0x858458f6UL

static const struct param untar_params[] = {
	{ "tarball", PARAM_STRING, NULL, 0, 0, NULL, 0, NULL,
	    N_("tar archive to extract; none: a synthetic tree") },
	{ "synthetic_files", PARAM_INT, "20000", 1, 10000000, NULL, 0, NULL,
	    N_("files in the synthetic tree (2.6.20: about 20000)") },
	{ "synthetic_size", PARAM_SIZE, "240M", 1, 0, NULL, 0, NULL,
	    N_("total bytes of the synthetic tree (2.6.20: about 240M)") },
	{ "synthetic_seed", PARAM_INT, "2620", 0, INT64_MAX, NULL, 0, NULL,
	    N_("seed of the synthetic tree (same seed: same tree)") },
	{ "sync", PARAM_BOOL, "true", 0, 0, NULL, 0, NULL,
	    N_("sync at the end, inside the timing") },
	{ "keep", PARAM_BOOL, "false", 0, 0, NULL, 0, NULL,
	    N_("leave the extracted tree on the target after the run") },
	{ NULL, 0, NULL, 0, 0, NULL, 0, NULL, NULL },
};

/* The synthetic tree's data set, for wl_check_dataset(). */
static int
untar_prepare_synthetic(struct wl_run *r, struct untar *u)
{
	struct tree_spec spec;
	int64_t files = wl_param_int(r, "synthetic_files");

	spec.seed = (uint64_t)wl_param_int(r, "synthetic_seed");
	spec.files = files > 0 && files <= UINT32_MAX ? (uint32_t)files : 1;
	spec.bytes = wl_param_size(r, "synthetic_size");
	if (spec.bytes < tree_spec_min_bytes(&spec))
		return wl_run_fail(r, -EINVAL,
		    _("synthetic_size (%llu bytes) is smaller than the "
		      "%llu non-empty files of synthetic_files (%u): each has "
		      "at least a byte"),
		    (unsigned long long)spec.bytes,
		    (unsigned long long)tree_spec_min_bytes(&spec), spec.files);
	wl_check_dataset(r, spec.bytes);
	return untar_synthetic(r, &spec, &u->tarball);
}

void
untar_support(struct archive *ar)
{
	archive_read_support_filter_all(ar);
	archive_read_support_format_tar(ar);
	archive_read_support_format_gnutar(ar);
	archive_read_support_format_cpio(ar);
	archive_read_support_format_zip(ar);
	archive_read_support_format_7zip(ar);
	archive_read_support_format_ar(ar);
	archive_read_support_format_iso9660(ar);
	archive_read_support_format_xar(ar);
	archive_read_support_format_cab(ar);
	archive_read_support_format_lha(ar);
	archive_read_support_format_rar(ar);
	archive_read_support_format_rar5(ar);
}

int
untar_probe(const char *path, char *why, size_t len)
{
	struct archive *ar = archive_read_new();
	struct archive_entry *e;
	int rc = 0, st;

	untar_support(ar);
	if (archive_read_open_filename(ar, path, 64 * 1024) != ARCHIVE_OK ||
	    ((st = archive_read_next_header(ar, &e)) != ARCHIVE_OK &&
		st != ARCHIVE_WARN && st != ARCHIVE_EOF)) {
		rc = archive_errno(ar) > 0 ? -archive_errno(ar) : -EINVAL;
		snprintf(why, len, "%s",
		    archive_error_string(ar) ? archive_error_string(ar)
					     : strerror(-rc));
	}
	archive_read_free(ar);
	return rc;
}

static int
untar_prepare(struct wl_run *r)
{
	struct untar *u = xcalloc(1, sizeof *u);
	const char *tarball = wl_param_str(r, "tarball");
	char real[PATH_MAX], why[256];
	struct stat st;
	int rc;

	r->priv = u;
	u->sync = wl_param_bool(r, "sync");
	if (realpath(r->dir, real) == NULL)
		return wl_run_fail(r, -errno, _("%s: %s"), r->dir,
		    strerror(errno));
	u->dest = xstrdup(real);
	if (tarball == NULL || tarball[0] == '\0')
		return untar_prepare_synthetic(r, u);
	if (stat(tarball, &st) < 0)
		return wl_run_fail(r, -errno, _("tarball %s: %s"), tarball,
		    strerror(errno));
	if (!S_ISREG(st.st_mode))
		return wl_run_fail(r, -EINVAL,
		    _("tarball %s: not a regular file"), tarball);
	if ((rc = untar_probe(tarball, why, sizeof why)) < 0)
		return wl_run_fail(r, rc,
		    _("tarball %s: not an archive (tar, cpio, zip...): %s"),
		    tarball, why);
	u->tarball = xstrdup(tarball);
	/* Uncompressed, the tree is at least the archive's size. */
	wl_check_dataset(r, (uint64_t)st.st_size);
	return 0;
}

/* Say what the worker had to change or skip, as tar prints it. */
static void
untar_notes(struct wl_run *r, const struct untar *u)
{
	if (u->renamed > 0)
		wl_note(r,
		    _("%llu names had a leading \"/\" (hard link targets: "
		      "up to the last \"../\") removed, as GNU tar does"),
		    (unsigned long long)u->renamed);
	if (u->skipped > 0)
		wl_note(r, _("%llu entries were not extracted; first: %s"),
		    (unsigned long long)u->skipped, u->first_warning);
	else if (u->warnings > 0)
		wl_note(r,
		    _("%llu entries extracted with a warning; first: "
		      "%s"),
		    (unsigned long long)u->warnings, u->first_warning);
}

/* Is path on a filesystem whose files live in the page cache only, so
   that dropping caches cannot make reading them cold? */
static bool
untar_in_memory(const char *path)
{
	struct statfs fs;

	if (statfs(path, &fs) < 0)
		return false;
	return (unsigned long)fs.f_type == UNTAR_TMPFS_MAGIC ||
	    (unsigned long)fs.f_type == UNTAR_RAMFS_MAGIC;
}

/* Where the tarball is read from, as far as we can tell. */
static void
untar_note_cache(struct wl_run *r, const struct untar *u)
{
	bool dropped = wl_drop_caches(r), mem = untar_in_memory(u->tarball);

	if (mem && dropped)
		wl_note(r,
		    _("caches dropped before the test, but the tarball is on "
		      "tmpfs or ramfs: it is read from memory (there is no "
		      "disk copy to drop it to)"));
	else if (mem)
		wl_note(r,
		    _("the tarball is on tmpfs or ramfs: it is read from "
		      "memory (there is no disk copy to drop it to)"));
	else if (dropped)
		wl_note(r,
		    _("caches dropped before the test: the tarball is "
		      "read cold"));
	else
		wl_note(r,
		    _("caches not dropped: the tarball may be read "
		      "from the page cache"));
}

static int
untar_run(struct wl_run *r)
{
	struct untar *u = r->priv;
	int rc;

	untar_note_cache(r, u);
	wl_test_begin(r, "untar", N_("tar xf + sync"), WL_UNIT_SECONDS);
	rc = wl_parallel(r, 1, untar_extract, u);
	wl_test_end(r, 0);
	untar_notes(r, u);
	return rc;
}

static void
untar_cleanup(struct wl_run *r)
{
	struct untar *u = r->priv;

	if (u == NULL)
		return;
	free(u->tarball);
	free(u->dest);
	free(u);
	r->priv = NULL;
}

/* "3m12.345s", as time(1) prints its figures. A record read from a file
   may hold any figure: one no int of minutes holds is printed plain. */
static const char *
time_fmt(double s, char *buf, size_t len)
{
	int m;

	if (!(s >= 0 && s < 1e9)) {
		snprintf(buf, len, "%gs", s);
		return buf;
	}
	m = (int)(s / 60);
	snprintf(buf, len, "%dm%.3fs", m, s - 60.0 * m);
	return buf;
}

/* MB/s of the tree written, as tar users work it out by hand; the
   archive read (bytes_read) is not in it. */
static double
tree_mbps(const struct wl_test *t)
{
	return t->wall > 0 ? (double)t->bytes_written / 1e6 / t->wall : 0.0;
}

static void
report_one(const struct wl_test *t, struct strbuf *out)
{
	char a[32], b[32], c[32];

	strbuf_printf(out,
	    _("%s: real %s  user %s  sys %s  %.0f%% CPU  "
	      "%.1f MB/s  %.0f files/s%s\n"),
	    _(t->label), time_fmt(t->wall, a, sizeof a),
	    time_fmt(t->user, b, sizeof b), time_fmt(t->sys, c, sizeof c),
	    wl_test_cpu_percent(t), tree_mbps(t),
	    wl_test_rate(t, WL_UNIT_FILES_S),
	    t->interrupted ? _(" [interrupted]") : "");
}

/*
 * time(1)'s figures per repeat, with the rates tar users compute by
 * hand, then the mean:
 * "tar xf + sync: real 0m21.350s  user 0m0.810s  sys 0m4.120s  23% CPU
 * 11.8 MB/s  937 files/s".
 */
static void
untar_report(const struct wl_result *const *res, size_t n, struct strbuf *out)
{
	double wall = 0, mbps = 0, fps = 0;
	size_t i, got = 0;
	char a[32];

	for (i = 0; i < n; i++) {
		const struct wl_test *t = wl_result_test(res[i], "untar");

		if (t == NULL)
			continue;
		report_one(t, out);
		wall += t->wall;
		mbps += tree_mbps(t);
		fps += wl_test_rate(t, WL_UNIT_FILES_S);
		got++;
	}
	if (got > 1)
		strbuf_printf(out,
		    _("%s: mean of %zu runs real %s  %.1f MB/s  "
		      "%.0f files/s\n"),
		    _("tar xf + sync"), got,
		    time_fmt(wall / (double)got, a, sizeof a),
		    mbps / (double)got, fps / (double)got);
}

static const struct param_bound wl_untar_bounds[] = {
	{ "synthetic_files", "synthetic_size" },
	{ NULL, NULL },
};

/* ---------------------------------------------------------------- data set */

/*
 * The regular files of the archive at path, unpacked, in whole blocks;
 * 0 when it cannot be read (the run says why). Reading the headers goes
 * through a compressed archive once: the answer for the last archive
 * (by device, inode, size and mtime) is kept.
 */
static uint64_t
tarball_bytes(const char *path)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	static struct stat c_st;
	static uint64_t c_bytes;
	static bool c_ok;
	struct archive_entry *e;
	struct archive *ar;
	struct stat st;
	uint64_t n = 0;

	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode))
		return 0;
	pthread_mutex_lock(&lock);
	if (c_ok && c_st.st_dev == st.st_dev && c_st.st_ino == st.st_ino &&
	    c_st.st_size == st.st_size &&
	    c_st.st_mtim.tv_sec == st.st_mtim.tv_sec &&
	    c_st.st_mtim.tv_nsec == st.st_mtim.tv_nsec) {
		n = c_bytes;
		pthread_mutex_unlock(&lock);
		return n;
	}
	ar = archive_read_new();
	untar_support(ar);
	if (archive_read_open_filename(ar, path, 64 * 1024) == ARCHIVE_OK) {
		while (archive_read_next_header(ar, &e) == ARCHIVE_OK)
			if (archive_entry_filetype(e) == AE_IFREG &&
			    archive_entry_size(e) > 0)
				n = workload_add(n,
				    workload_blocks(
					(uint64_t)archive_entry_size(e)));
		c_st = st;
		c_bytes = n;
		c_ok = true;
	}
	archive_read_free(ar);
	pthread_mutex_unlock(&lock);
	return n;
}

/* The archive unpacked, or the synthetic tree with at most a block's
   slack per file. */
static uint64_t
untar_dataset(const struct param_value *v, bool keep)
{
	const char *tarball = workload_value(untar_params, v, "tarball")->s;

	(void)keep;
	if (tarball != NULL && tarball[0] != '\0')
		return tarball_bytes(tarball);
	return workload_add(workload_value(untar_params, v, "synthetic_size")
				->size,
	    workload_mul((uint64_t)workload_value(untar_params, v,
			     "synthetic_files")
			     ->i,
		WORKLOAD_BLOCK - 1));
}

const struct workload wl_untar = {
	.name = "untar",
	.summary = N_("extract a kernel-sized tar archive, then sync"),
	.params = untar_params,
	.bounds = wl_untar_bounds,
	.prepare = untar_prepare,
	.run = untar_run,
	.cleanup = untar_cleanup,
	.report = untar_report,
	.dataset = untar_dataset,
};
