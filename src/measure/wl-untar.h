/*
 * Internal to the untar workload (wl-untar*.c): the state of a run, the
 * synthetic tarball's cache (prepare, driver thread) and the extraction
 * (a worker thread of wl_parallel()).
 */
#ifndef RAIDLAB_WL_UNTAR_H
#define RAIDLAB_WL_UNTAR_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tree_spec;
struct wl_run;
struct wl_worker;

struct untar {
	char *tarball; /* the archive to extract */
	char *dest; /* realpath of the run's directory */
	bool sync;
	/* Written by the worker, read by the driver after the join. */
	uint64_t renamed; /* names with a leading / (or ../) removed */
	uint64_t skipped; /* entries not extracted (warned) */
	uint64_t warnings; /* extracted, with a warning */
	int64_t read_to; /* the archive file's bytes counted as read */
	char first_warning[PATH_MAX * 2 + 512];
	char path[PATH_MAX * 2]; /* the worker's name buffers */
	char target[PATH_MAX * 2];
};

/*
 * The directory generated tarballs are cached in: $XDG_CACHE_HOME/raidlab,
 * /var/cache/raidlab for root, ~/.cache/raidlab otherwise. Caller frees.
 */
char *untar_cache_dir(void);

struct archive;
/*
 * Let ar read the real archive formats (the tar family, cpio, zip, 7-Zip,
 * ar, ISO 9660, xar, cab, lha, rar) through any filter; not libarchive's
 * mtree, raw or empty formats, which take any text, or nothing, for an
 * archive.
 */
void untar_support(struct archive *ar);
/* 0 when path opens as one of those formats, else a negative errno with
   libarchive's reason in why. */
int untar_probe(const char *path, char *why, size_t len);

/*
 * The tarball of the synthetic tree of spec, in the cache (made there
 * once, atomically; named after the spec and TREE_VERSION): its path in
 * *path (caller frees). 0, -EINTR (stopped), or wl_run_fail()'s error
 * (*path NULL). Driver thread.
 */
int
untar_synthetic(struct wl_run *r, const struct tree_spec *spec, char **path);

/*
 * Worker: extract u->tarball into u->dest (read with libarchive, written
 * by wl-untar-write.h), then sync if u->sync. 0, -EINTR, or wl_fail()'s
 * error.
 */
int untar_extract(struct wl_worker *w);

#endif
