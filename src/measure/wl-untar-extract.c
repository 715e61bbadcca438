/*
 * untar's timed part: `tar xf TARBALL; sync`. libarchive only reads: the
 * archive in 10 KiB records (GNU tar's default blocking), each member's
 * header and its data blocks (zero-copy for an uncompressed tar); the
 * writer (wl-untar-write.h) makes the members under the run's directory
 * as GNU tar does, symlinks deferred behind placeholders, so no path
 * needs a per-component check. Names are made safe the way GNU tar 1.34
 * makes them: a leading "/" is removed; a member whose name has a ".."
 * component is not extracted; a hard link target loses everything up
 * to its last ".." instead. Every
 * entry and every data block is counted as it is written, and the
 * archive file as libarchive gets through it (read_archive()); the sync
 * is at the end. One worker thread.
 */
#include "config.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/i18n.h"
#include "engine.h"
#include "wl-untar-write.h"
#include "wl-untar.h"

#define UNTAR_BLOCK 10240

/*
 * The safe form of a name: no leading "/" or "./". A ".." component
 * makes *dotdot true; for a hard link target (strip) everything up to
 * and including the last one is removed instead, as GNU tar does with
 * link targets (member names with ".." it refuses). NULL when nothing is
 * left ("/"). *changed is set when a "/" or ".." went.
 */
static const char *
name_safe(const char *name, bool strip, bool *changed, bool *dotdot)
{
	const char *p = name, *s = name;

	*changed = *dotdot = false;
	for (;;) {
		const char *end = strchr(p, '/');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		if (len == 2 && p[0] == '.' && p[1] == '.') {
			*dotdot = true;
			if (strip) {
				s = end ? end + 1 : p + len;
				*changed = true;
			}
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

/* The safe form of name, relative to the run's directory, into buf;
   false (and why in *why) to skip the entry. */
static bool
name_rel(struct untar *u, const char *name, bool strip, char *buf, size_t len,
    const char **why)
{
	bool changed, dotdot;
	const char *s = name ? name_safe(name, strip, &changed, &dotdot) : NULL;
	size_t n;

	*why = _("nothing left of the name");
	if (s == NULL)
		return false;
	if (dotdot && !strip) {
		*why = _("member name contains \"..\"");
		return false;
	}
	if (changed)
		u->renamed++;
	*why = strerror(ENAMETOOLONG);
	n = strlen(s);
	/* "d/": a directory's name as archived; the call wants "d" (a
	   trailing slash would make stat fail on a placeholder). */
	while (n > 1 && s[n - 1] == '/')
		n--;
	if (n >= len)
		return false;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return true;
}

/* Errors that end the run; others skip the entry, as tar goes on. */
static bool
is_fatal(int e)
{
	return e == ENOSPC || e == EDQUOT || e == EIO || e == EROFS ||
	    e == ENOMEM || e == EMFILE || e == ENFILE || e == ENODEV ||
	    e == ENXIO || e == ESTALE;
}

/* The first warning or skip is the one the run's note quotes. */
static void
warn(struct untar *u, const char *name, const char *what, const char *msg)
{
	if (u->warnings + u->skipped > 0)
		return;
	snprintf(u->first_warning, sizeof u->first_warning, "%.*s: %s: %.400s",
	    PATH_MAX * 2, name, what, msg);
}

static int
fail_archive(struct wl_worker *w, struct archive *a, const char *what,
    const char *name)
{
	int e = archive_errno(a) > 0 ? archive_errno(a) : EIO;
	const char *msg = archive_error_string(a);

	if (archive_errno(a) > 0 || msg == NULL)
		msg = strerror(e);
	return wl_fail(w, -e, _("%s %s: %s"), what, name, msg);
}

/*
 * A writer error err (negative) on name: fatal ones end the run, others
 * count as skipped (the entry is not there) or as warnings (it is).
 */
static int
writer_error(struct wl_worker *w, struct untar *u, const char *name,
    const char *what, int err, bool made)
{
	if (is_fatal(-err))
		return wl_fail(w, err, _("%s %s: %s"), what, name,
		    strerror(-err));
	warn(u, name, what, strerror(-err));
	if (made)
		u->warnings++;
	else
		u->skipped++;
	return 0;
}

static void
meta_of(struct archive_entry *e, struct untar_meta *m)
{
	m->mode = archive_entry_perm(e) & 07777;
	m->uid = archive_entry_uid(e);
	m->gid = archive_entry_gid(e);
	m->mtime.tv_sec = archive_entry_mtime(e);
	m->mtime.tv_nsec = archive_entry_mtime_nsec(e);
	m->has_atime = archive_entry_atime_is_set(e);
	m->atime.tv_sec = archive_entry_atime(e);
	m->atime.tv_nsec = archive_entry_atime_nsec(e);
	m->rdev = archive_entry_rdev(e);
}

/*
 * The archive file read so far, counted as read: the furthest of its
 * bytes libarchive has used (its raw position, which a seekable format
 * may move back): all of a compressed archive, a tar up to its
 * end-of-archive blocks, not the zeros that pad it to a record.
 */
static void
read_archive(struct wl_worker *w, struct untar *u, struct archive *ar)
{
	int64_t pos = archive_filter_bytes(ar, -1);

	if (pos > u->read_to) {
		wl_count_read(w, (uint64_t)(pos - u->read_to));
		u->read_to = pos;
	}
}

/* All of buf at off. */
static int
write_all(int fd, const char *buf, size_t size, int64_t off)
{
	while (size > 0) {
		ssize_t n = pwrite(fd, buf, size, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		buf += n;
		size -= (size_t)n;
		off += n;
	}
	return 0;
}

/* The data of the current entry into fd, block by block, at the blocks'
   offsets (sparse files keep their holes); *end: past the last byte. */
static int
copy_data(struct wl_worker *w, struct untar *u, struct archive *ar, int fd,
    int64_t *end)
{
	const char *name = u->path;
	const void *buf;
	size_t size;
	la_int64_t off;
	uint64_t t;
	int rc;

	for (;;) {
		if (wl_worker_stopping(w))
			return -EINTR;
		rc = archive_read_data_block(ar, &buf, &size, &off);
		read_archive(w, u, ar);
		if (rc == ARCHIVE_EOF)
			return 0;
		if (rc < ARCHIVE_WARN)
			return fail_archive(w, ar, _("read"), name);
		t = wl_now_ns();
		if ((rc = write_all(fd, buf, size, off)) < 0)
			return wl_fail(w, rc, _("%s %s: %s"), _("write"), name,
			    strerror(-rc));
		wl_lat(w, WL_OP_WRITE, t);
		wl_count_write(w, size);
		if (off + (int64_t)size > *end)
			*end = off + (int64_t)size;
	}
}

/* A regular file: create, data, status. */
static int
extract_file(struct wl_worker *w, struct untar *u, struct untar_writer *wr,
    struct archive *ar, struct archive_entry *e)
{
	struct untar_meta m;
	uint64_t t = wl_now_ns();
	int64_t end = 0, size = archive_entry_size(e);
	int fd, rc;

	meta_of(e, &m);
	if ((fd = untar_writer_open(wr, u->path, m.mode)) < 0)
		return writer_error(w, u, u->path, wr->what, fd, false);
	wl_lat(w, WL_OP_CREATE, t);
	wl_count_files(w, 1);
	if (size > 0 && (rc = copy_data(w, u, ar, fd, &end)) < 0) {
		close(fd);
		return rc;
	}
	if ((rc = untar_writer_close(wr, fd, u->path, &m, size, end)) < 0)
		return writer_error(w, u, u->path, wr->what, rc, true);
	return 0;
}

/* Any other member: made in one step by the writer. */
static int
extract_other(struct wl_worker *w, struct untar *u, struct untar_writer *wr,
    struct archive_entry *e)
{
	struct untar_meta m;
	uint64_t t = wl_now_ns();
	mode_t type = archive_entry_filetype(e);
	int rc;

	meta_of(e, &m);
	if (archive_entry_hardlink(e) != NULL)
		rc = untar_writer_hardlink(wr, u->path, u->target);
	else if (type == AE_IFDIR)
		rc = untar_writer_dir(wr, u->path, &m);
	else if (type == AE_IFLNK)
		rc = untar_writer_symlink(wr, u->path,
		    archive_entry_symlink(e) ? archive_entry_symlink(e) : "",
		    &m);
	else if (type == AE_IFIFO || type == AE_IFCHR || type == AE_IFBLK)
		rc = untar_writer_node(wr, u->path, type, &m);
	else {
		warn(u, u->path, _("extract"), _("unsupported file type"));
		u->skipped++;
		return 0;
	}
	if (rc < 0)
		return writer_error(w, u, u->path, wr->what, rc, false);
	wl_lat(w, WL_OP_CREATE, t);
	wl_count_files(w, 1);
	return 0;
}

/* Safe names for the entry (and its hard link target); false: skip,
   with a warning. */
static bool
entry_names(struct untar *u, struct archive_entry *e)
{
	const char *link = archive_entry_hardlink(e);
	const char *name = archive_entry_pathname(e), *why;

	if (!name_rel(u, name, false, u->path, sizeof u->path, &why) ||
	    (link != NULL &&
		!name_rel(u, link, true, u->target, sizeof u->target, &why))) {
		warn(u, name != NULL ? name : "?", _("extract"), why);
		u->skipped++;
		return false;
	}
	return true;
}

static int
extract_all(struct wl_worker *w, struct untar *u, struct untar_writer *wr,
    struct archive *ar)
{
	struct archive_entry *e;
	int rc;

	for (;;) {
		if (wl_worker_stopping(w))
			return -EINTR;
		rc = archive_read_next_header(ar, &e);
		read_archive(w, u, ar);
		if (rc == ARCHIVE_EOF)
			return 0;
		if (rc < ARCHIVE_WARN)
			return fail_archive(w, ar, _("read"), u->tarball);
		if (!entry_names(u, e)) {
			warn(u,
			    archive_entry_pathname(e)
				? archive_entry_pathname(e)
				: "?",
			    _("extract"), _("nothing left of the name"));
			u->skipped++;
			continue;
		}
		untar_writer_next(wr, u->path);
		if (archive_entry_hardlink(e) == NULL &&
		    archive_entry_filetype(e) == AE_IFREG)
			rc = extract_file(w, u, wr, ar, e);
		else
			rc = extract_other(w, u, wr, e);
		if (rc < 0)
			return rc;
	}
}

struct finish_ctx {
	struct wl_worker *w;
	struct untar *u;
};

/* A delayed step that failed: the entry is there, with a warning. */
static int
finish_warn(void *arg, const char *name, const char *what, int err)
{
	struct finish_ctx *c = arg;

	return writer_error(c->w, c->u, name, what, -err, true);
}

int
untar_extract(struct wl_worker *w)
{
	struct untar *u = w->arg;
	struct archive *ar = archive_read_new();
	struct untar_writer wr;
	struct finish_ctx c = { w, u };
	int rc;

	/* As root GNU tar restores owners (--same-owner); so do we. */
	if ((rc = untar_writer_init(&wr, w->run->dirfd, geteuid() == 0)) < 0) {
		rc = wl_fail(w, rc, _("%s %s: %s"), _("open"), u->dest,
		    strerror(-rc));
		goto out;
	}
	u->read_to = 0;
	untar_support(ar);
	if (archive_read_open_filename(ar, u->tarball, UNTAR_BLOCK) != 0) {
		rc = fail_archive(w, ar, _("open"), u->tarball);
		goto out;
	}
	rc = extract_all(w, u, &wr, ar);
	/* Symlinks, then directories' times and modes, last, as tar. */
	if (rc == 0)
		rc = untar_writer_finish(&wr, finish_warn, &c);
	if (rc == 0 && u->sync) {
		uint64_t t = wl_now_ns();

		sync();
		wl_lat(w, WL_OP_FSYNC, t);
	}
out:
	archive_read_free(ar);
	untar_writer_done(&wr);
	return rc;
}
