/*
 * untar's synthetic tarball: the tree of tree.h written once as a tar
 * (ustar/pax, as GNU tar would list it: each directory, then its files,
 * then its links: symlinks, and hard links as tar hard-link entries that
 * name a file written before them)
 * into the user's cache, named after the spec, so that later runs only
 * extract it. Written to a temporary file, fsynced, then renamed: a
 * stopped or failed generation never leaves a half tarball under the
 * final name. Driver thread (prepare: not timed).
 */
#include "config.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/afile.h"
#include "base/i18n.h"
#include "base/paths.h"
#include "base/xalloc.h"
#include "engine.h"
#include "tree.h"
#include "wl-untar.h"

/* Linux 2.6.20's release, so that the archive is the same everywhere. */
#define UNTAR_MTIME 1170608760
#define FILL_LEN 65536

char *
untar_cache_dir(void)
{
	const char *x = getenv("XDG_CACHE_HOME");
	char *d;

	/* root shares the system's cache, unless told otherwise. */
	if (geteuid() == 0 && (x == NULL || x[0] != '/'))
		return xstrdup("/var/cache/raidlab");
	d = paths_xdg("XDG_CACHE_HOME", ".cache", NULL);
	return d != NULL ? d : xstrdup("/var/cache/raidlab");
}

static void
entry_set(struct archive_entry *e, const char *path, mode_t type, uint32_t perm,
    uint64_t size)
{
	archive_entry_clear(e);
	archive_entry_set_pathname(e, path);
	archive_entry_set_filetype(e, type);
	archive_entry_set_perm(e, perm);
	archive_entry_set_size(e, (la_int64_t)size);
	archive_entry_set_mtime(e, UNTAR_MTIME, 0);
	archive_entry_set_uid(e, 0);
	archive_entry_set_gid(e, 0);
	archive_entry_set_uname(e, "root");
	archive_entry_set_gname(e, "root");
}

/* One file's header and contents. */
static int
tar_file(struct archive *a, struct archive_entry *e, const struct tree_file *f,
    const char *buf)
{
	uint64_t left = f->size;

	entry_set(e, f->path, AE_IFREG, f->mode, f->size);
	if (archive_write_header(a, e) != ARCHIVE_OK)
		return -1;
	while (left > 0) {
		size_t n = left < FILL_LEN ? (size_t)left : FILL_LEN;

		if (archive_write_data(a, buf, n) != (la_ssize_t)n)
			return -1;
		left -= n;
	}
	return 0;
}

/*
 * A link's header: a symlink (mode 0777, as ls shows one), or a hard link
 * (the file's mode, no data: tar's typeflag '1').
 */
static int
tar_link(struct archive *a, struct archive_entry *e, const struct tree *t,
    const struct tree_link *l)
{
	if (l->type == TREE_SYMLINK) {
		entry_set(e, l->path, AE_IFLNK, 0777, 0);
		archive_entry_set_symlink(e, l->target);
	} else {
		entry_set(e, l->path, AE_IFREG, t->files[l->file].mode, 0);
		archive_entry_set_hardlink(e, l->target);
	}
	return archive_write_header(a, e) == ARCHIVE_OK ? 0 : -1;
}

/*
 * Write t as a tar on fd: directory i, then its files and its links (both
 * lists are in directory order), then directory i + 1. 0, -EINTR or -1
 * (see a).
 */
static int
tar_tree(struct wl_run *r, struct archive *a, const struct tree *t)
{
	struct archive_entry *e = archive_entry_new();
	char *buf = xmalloc(FILL_LEN), dpath[TREE_PATH_MAX + 2];
	size_t d, j = 0, k = 0;
	int rc = 0;

	tree_fill(buf, FILL_LEN);
	for (d = 0; d < t->ndirs && rc == 0; d++) {
		snprintf(dpath, sizeof dpath, "%s/", t->dirs[d].path);
		entry_set(e, dpath, AE_IFDIR, t->dirs[d].mode, 0);
		if (archive_write_header(a, e) != ARCHIVE_OK) {
			rc = -1;
			break;
		}
		for (; j < t->nfiles && t->files[j].dir == d && rc == 0; j++) {
			if (wl_stopping(r))
				rc = -EINTR;
			else
				rc = tar_file(a, e, &t->files[j], buf);
		}
		for (; k < t->nlinks && t->links[k].dir == d && rc == 0; k++)
			rc = tar_link(a, e, t, &t->links[k]);
	}
	archive_entry_free(e);
	free(buf);
	return rc;
}

/* Generate the tree of spec and write it as a tar to tmp (fd). */
static int
tar_write(struct wl_run *r, const struct tree_spec *spec, int fd,
    const char *tmp)
{
	struct archive *a = archive_write_new();
	struct tree t;
	int rc;

	if ((rc = tree_generate(spec, &t)) < 0) {
		archive_write_free(a);
		return wl_run_fail(r, rc, _("synthetic tree: %s"),
		    strerror(-rc));
	}
	archive_write_set_format_pax_restricted(a);
	archive_write_set_bytes_per_block(a, 10240);
	if (archive_write_open_fd(a, fd) != ARCHIVE_OK ||
	    (rc = tar_tree(r, a, &t)) == -1 ||
	    (rc == 0 && archive_write_close(a) != ARCHIVE_OK)) {
		int e = archive_errno(a) > 0 ? archive_errno(a) : EIO;

		rc = wl_run_fail(r, -e, _("write %s: %s"), tmp,
		    archive_error_string(a) ? archive_error_string(a)
					    : strerror(e));
	}
	archive_write_free(a);
	tree_free(&t);
	if (rc == 0 && fsync(fd) < 0)
		rc = wl_run_fail(r, -errno, _("fsync %s: %s"), tmp,
		    strerror(errno));
	return rc;
}

int
untar_synthetic(struct wl_run *r, const struct tree_spec *spec, char **out)
{
	char *dir = untar_cache_dir(), *path, *tmp = NULL;
	struct stat st;
	int fd = -1, rc = 0;

	path = xasprintf("%s/untar-tree-v%d-s%" PRIu64 "-f%" PRIu32 "-b%" PRIu64
			 ".tar",
	    dir, TREE_VERSION, spec->seed, spec->files, spec->bytes);
	if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
		goto out;
	if ((rc = afile_mkdirs(dir, 0755)) < 0) {
		rc = wl_run_fail(r, rc, _("cache directory %s: %s"), dir,
		    strerror(-rc));
		goto fail;
	}
	tmp = xasprintf("%s/.untar-tmp-XXXXXX", dir);
	if ((fd = mkstemp(tmp)) < 0) {
		rc = wl_run_fail(r, -errno, _("create %s: %s"), tmp,
		    strerror(errno));
		goto fail;
	}
	wl_note(r, _("generating the synthetic tarball %s (once; not timed)"),
	    path);
	if ((rc = tar_write(r, spec, fd, tmp)) < 0)
		goto fail;
	if (fchmod(fd, 0644) < 0 || close(fd) < 0) {
		fd = -1;
		rc = wl_run_fail(r, -errno, _("close %s: %s"), tmp,
		    strerror(errno));
		goto fail;
	}
	fd = -1;
	if (rename(tmp, path) < 0) {
		rc = wl_run_fail(r, -errno, _("rename %s: %s"), path,
		    strerror(errno));
		goto fail;
	}
	goto out;
fail:
	if (fd >= 0)
		close(fd);
	if (tmp != NULL)
		unlink(tmp);
	free(path);
	path = NULL;
out:
	*out = path;
	free(tmp);
	free(dir);
	return rc;
}
