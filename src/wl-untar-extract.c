/*
 * untar's timed part: `tar xf TARBALL; sync` with libarchive. Reads the
 * archive in 10 KiB records (GNU tar's default blocking), writes each
 * entry under the run's directory, counts every entry and every data
 * block as it is written, and syncs at the end. Member names are made
 * safe the way GNU tar makes them: a leading "/" and everything up to the
 * last ".." component are removed, and once the archive has made a
 * symlink nothing is written through one (SECURE_SYMLINKS). libarchive
 * allocates inside its calls; we allocate nothing per entry. One worker
 * thread.
 */
#include "config.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "engine.h"
#include "i18n.h"
#include "wl-untar.h"

#define UNTAR_BLOCK 10240

/*
 * The safe form of a member name: no leading "/", nothing up to and
 * including the last ".." component, no leading "./". NULL when nothing
 * is left ("..", "/"). *changed is set when a "/" or ".." went.
 */
static const char *
name_safe(const char *name, bool *changed)
{
	const char *p = name, *s = name;

	*changed = false;
	for (;;) {
		const char *end = strchr(p, '/');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		if (len == 2 && p[0] == '.' && p[1] == '.') {
			s = end ? end + 1 : p + len;
			*changed = true;
		}
		if (end == NULL)
			break;
		p = end + 1;
	}
	if (*s == '/')
		*changed = true;
	for (;;) {
		if (*s == '/')
			s++;
		else if (s[0] == '.' && s[1] == '/')
			s += 2;
		else
			break;
	}
	/* "." or "./": the directory extracted into, as tar takes it. */
	if (*s == '\0' && !*changed && name[0] == '.')
		return ".";
	return *s ? s : NULL;
}

/* u->dest + "/" + the safe form of name into buf; false to skip it. */
static bool
name_dest(struct untar *u, const char *name, char *buf, size_t len)
{
	bool changed;
	const char *s = name ? name_safe(name, &changed) : NULL;

	if (s == NULL)
		return false;
	if (changed)
		u->renamed++;
	return (size_t)snprintf(buf, len, "%s/%s", u->dest, s) < len;
}

/* Errors that end the run; others skip the entry, as tar goes on. */
static bool
is_fatal(int e)
{
	return e == ENOSPC || e == EDQUOT || e == EIO || e == EROFS ||
	    e == ENOMEM || e == EMFILE || e == ENFILE || e == ENODEV ||
	    e == ENXIO || e == ESTALE;
}

static void
warn(struct untar *u, struct archive *a, const char *name)
{
	const char *msg = archive_error_string(a);

	if (u->warnings + u->skipped > 0)
		return;
	snprintf(u->first_warning, sizeof u->first_warning, "%.*s: %.400s",
	    PATH_MAX * 2, name, msg != NULL ? msg : "?");
}

static int
fail(struct wl_worker *w, struct archive *a, const char *what, const char *name)
{
	int e = archive_errno(a) > 0 ? archive_errno(a) : EIO;
	const char *msg = archive_error_string(a);

	/* An errno says more than libarchive's "Write failed". */
	if (archive_errno(a) > 0 || msg == NULL)
		msg = strerror(e);
	return wl_fail(w, -e, _("%s %s: %s"), what, name, msg);
}

/* The data of the current entry, block by block. */
static int
copy_data(struct wl_worker *w, struct archive *ar, struct archive *aw,
    const char *name)
{
	const void *buf;
	size_t size;
	la_int64_t off;
	uint64_t t;
	int rc;

	for (;;) {
		if (wl_worker_stopping(w))
			return -EINTR;
		rc = archive_read_data_block(ar, &buf, &size, &off);
		if (rc == ARCHIVE_EOF)
			return 0;
		if (rc < ARCHIVE_WARN)
			return fail(w, ar, _("read"), name);
		t = wl_now_ns();
		if (archive_write_data_block(aw, buf, size, off) < ARCHIVE_OK)
			return fail(w, aw, _("write"), name);
		wl_lat(w, WL_OP_WRITE, t);
		wl_count_write(w, size);
	}
}

/* Rename entry e under the destination; false: skip it. */
static bool
entry_rewrite(struct untar *u, struct archive_entry *e)
{
	const char *link = archive_entry_hardlink(e);

	if (link != NULL) {
		if (!name_dest(u, link, u->path, sizeof u->path))
			return false;
		archive_entry_copy_hardlink(e, u->path);
	}
	if (!name_dest(u, archive_entry_pathname(e), u->path, sizeof u->path))
		return false;
	archive_entry_copy_pathname(e, u->path);
	return true;
}

/* One entry: header (create), data, finish (times, modes). */
static int
extract_entry(struct wl_worker *w, struct untar *u, struct archive *ar,
    struct archive *aw, struct archive_entry *e)
{
	uint64_t t = wl_now_ns();
	int rc = archive_write_header(aw, e);

	if (rc < ARCHIVE_WARN) {
		if (rc == ARCHIVE_FATAL || is_fatal(archive_errno(aw)))
			return fail(w, aw, _("create"), u->path);
		warn(u, aw, u->path);
		u->skipped++;
		return 0;
	}
	wl_lat(w, WL_OP_CREATE, t);
	wl_count_files(w, 1);
	if (rc == ARCHIVE_WARN) {
		warn(u, aw, u->path);
		u->warnings++;
	}
	if (archive_entry_size(e) > 0 &&
	    (rc = copy_data(w, ar, aw, u->path)) < 0)
		return rc;
	rc = archive_write_finish_entry(aw);
	if (rc == ARCHIVE_FATAL ||
	    (rc < ARCHIVE_WARN && is_fatal(archive_errno(aw))))
		return fail(w, aw, _("write"), u->path);
	if (rc < ARCHIVE_OK) {
		warn(u, aw, u->path);
		u->warnings++;
	}
	return 0;
}

static int
extract_all(struct wl_worker *w, struct untar *u, struct archive *ar,
    struct archive *aw)
{
	struct archive_entry *e;
	int rc;

	for (;;) {
		if (wl_worker_stopping(w))
			return -EINTR;
		rc = archive_read_next_header(ar, &e);
		if (rc == ARCHIVE_EOF)
			return 0;
		if (rc < ARCHIVE_WARN)
			return fail(w, ar, _("read"), u->tarball);
		if (!entry_rewrite(u, e)) {
			u->skipped++;
			continue;
		}
		/*
		 * The run's directory starts empty: until the archive makes
		 * a symlink, no path can lead out of it, and libarchive's
		 * check (an lstat of every component of every path) would
		 * only cost time tar does not spend.
		 */
		if (!u->secure && archive_entry_filetype(e) == AE_IFLNK) {
			u->secure = true;
			archive_write_disk_set_options(aw,
			    u->flags | ARCHIVE_EXTRACT_SECURE_SYMLINKS);
		}
		if ((rc = extract_entry(w, u, ar, aw, e)) < 0)
			return rc;
	}
}

int
untar_extract(struct wl_worker *w)
{
	struct untar *u = w->arg;
	struct archive *ar = archive_read_new(), *aw = archive_write_disk_new();
	int rc;

	u->flags = ARCHIVE_EXTRACT_TIME | ARCHIVE_EXTRACT_PERM |
	    ARCHIVE_EXTRACT_SECURE_NODOTDOT;
	/* As root GNU tar restores owners (--same-owner); so do we. */
	if (geteuid() == 0)
		u->flags |= ARCHIVE_EXTRACT_OWNER;
	u->secure = false;
	archive_read_support_filter_all(ar);
	archive_read_support_format_all(ar);
	archive_write_disk_set_options(aw, u->flags);
	if (archive_read_open_filename(ar, u->tarball, UNTAR_BLOCK) != 0) {
		rc = fail(w, ar, _("open"), u->tarball);
		goto out;
	}
	rc = extract_all(w, u, ar, aw);
	/* Directories get their times and modes last, as tar does. */
	if (archive_write_close(aw) != ARCHIVE_OK && rc == 0)
		rc = fail(w, aw, _("write"), u->dest);
	if (rc == 0 && u->sync) {
		uint64_t t = wl_now_ns();

		sync();
		wl_lat(w, WL_OP_FSYNC, t);
	}
out:
	archive_read_free(ar);
	archive_write_free(aw);
	return rc;
}
