/*
 * compilebench's operations, as its one worker thread runs them: create
 * a tree, patch it (read each file of the list, truncate it and write it
 * at its new size, after unlinking it when the plan says so), compile
 * (write the objects), clean (unlink them), and walk the tree to read
 * every file, stat every entry or delete everything below its root. The
 * walk reads directories with getdents64 into buffers the driver
 * allocated (one per level), so nothing is allocated on the hot path.
 * Worker thread of wl_parallel() only.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/i18n.h"
#include "engine.h"
#include "wl-compilebench.h"

/* What a walk does to each entry. */
enum walk_mode {
	WALK_READ,
	WALK_STAT,
	WALK_DELETE,
};

struct walk {
	struct wl_worker *w;
	struct cb_op *op;
	enum walk_mode mode;
	size_t plen; /* length of op->path */
};

static int
open_root(struct wl_worker *w, struct cb_op *op)
{
	int fd = wl_open_dir(w->run->dirfd, op->name);

	if (fd < 0)
		return wl_fail(w, fd, _("open %s: %s"), op->root,
		    strerror(-fd));
	return fd;
}

/*
 * Read what fd holds to the end with the 256 KiB buffer; touch: the bytes
 * are the operation's data set (read tree), not a means (patch).
 */
static int
read_fd(struct wl_worker *w, struct cb_op *op, int fd, const char *dir,
    const char *name, bool touch)
{
	ssize_t n;
	uint64_t t;

	for (;;) {
		t = wl_now_ns();
		n = read(fd, op->cb->rbuf, CB_READ_BUF);
		if (n < 0)
			return wl_fail(w, -errno, _("read %s/%s: %s"), dir,
			    name, strerror(errno));
		if (n == 0)
			return 0;
		wl_lat(w, WL_OP_READ, t);
		wl_count_read(w, (uint64_t)n);
		if (touch)
			op->bytes += (uint64_t)n;
	}
}

static int
read_file(struct wl_worker *w, struct cb_op *op, int dfd, const char *dir,
    const char *name, bool touch)
{
	int fd, rc;

	fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return wl_fail(w, -errno, _("open %s/%s: %s"), dir, name,
		    strerror(errno));
	rc = read_fd(w, op, fd, dir, name, touch);
	close(fd);
	return rc;
}

/* ---------------------------------------------------------------- walk */

static int walk_dir(struct walk *wk, int dfd, unsigned depth);

/* Enter the subdirectory name of dfd, walk it, and (delete) remove it. */
static int
walk_sub(struct walk *wk, int dfd, const char *name, unsigned depth)
{
	struct cb_op *op = wk->op;
	size_t len = strlen(name), plen = wk->plen;
	int fd, rc;

	if (depth + 1 >= CB_WALK_DEPTH || plen + 1 + len >= sizeof op->path)
		return wl_fail(wk->w, -ELOOP, _("walk %s/%s: %s"), op->path,
		    name, strerror(ELOOP));
	fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return wl_fail(wk->w, -errno, _("open %s/%s: %s"), op->path,
		    name, strerror(errno));
	op->path[plen] = '/';
	memcpy(op->path + plen + 1, name, len + 1);
	wk->plen = plen + 1 + len;
	rc = walk_dir(wk, fd, depth + 1);
	close(fd);
	wk->plen = plen;
	op->path[plen] = '\0';
	if (rc < 0 || wk->mode != WALK_DELETE)
		return rc;
	if (unlinkat(dfd, name, AT_REMOVEDIR) < 0)
		return wl_fail(wk->w, -errno, _("rmdir %s/%s: %s"), op->path,
		    name, strerror(errno));
	wl_count_ops(wk->w, 1);
	return 0;
}

/* One entry of a directory: stat it if asked or needed, then act. */
static int
walk_entry(struct walk *wk, int dfd, const char *name, unsigned char type,
    unsigned depth)
{
	struct wl_worker *w = wk->w;
	struct stat st;
	uint64_t t;

	if (type == DT_UNKNOWN || wk->mode == WALK_STAT) {
		t = wl_now_ns();
		if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			return wl_fail(w, -errno, _("stat %s/%s: %s"),
			    wk->op->path, name, strerror(errno));
		if (wk->mode == WALK_STAT) {
			wl_lat(w, WL_OP_STAT, t);
			wl_count_files(w, 1);
		}
		type = S_ISDIR(st.st_mode) ? DT_DIR : DT_REG;
	}
	if (type == DT_DIR)
		return walk_sub(wk, dfd, name, depth);
	if (wk->mode == WALK_READ && type == DT_REG)
		return read_file(w, wk->op, dfd, wk->op->path, name, true);
	if (wk->mode == WALK_DELETE) {
		t = wl_now_ns();
		if (unlinkat(dfd, name, 0) < 0)
			return wl_fail(w, -errno, _("unlink %s/%s: %s"),
			    wk->op->path, name, strerror(errno));
		wl_lat(w, WL_OP_DELETE, t);
		wl_count_files(w, 1);
	}
	return 0;
}

/* Every entry of dfd, in the order the filesystem returns them. */
static int
walk_dir(struct walk *wk, int dfd, unsigned depth)
{
	char *buf = wk->op->cb->dents + (size_t)depth * CB_DENTS_BUF;
	ssize_t n, off;
	int rc;

	wl_count_ops(wk->w, 1);
	for (;;) {
		n = getdents64(dfd, buf, CB_DENTS_BUF);
		if (n < 0)
			return wl_fail(wk->w, -errno,
			    _("read directory %s: %s"), wk->op->path,
			    strerror(errno));
		if (n == 0)
			return 0;
		for (off = 0; off < n;) {
			struct dirent64 *d = (struct dirent64 *)(buf + off);

			off += d->d_reclen;
			if (strcmp(d->d_name, ".") == 0 ||
			    strcmp(d->d_name, "..") == 0)
				continue;
			if (wl_worker_stopping(wk->w))
				return -EINTR;
			rc = walk_entry(wk, dfd, d->d_name, d->d_type, depth);
			if (rc < 0)
				return rc;
		}
	}
}

/*
 * Read, stat or delete the whole tree at op->root. Delete leaves the
 * empty root, as compilebench's rmrf does: its name stays taken.
 */
static int
op_walk(struct wl_worker *w, struct cb_op *op, enum walk_mode mode)
{
	struct walk wk = { w, op, mode, strlen(op->root) };
	int fd, rc;

	memcpy(op->path, op->root, wk.plen + 1);
	if ((fd = open_root(w, op)) < 0)
		return fd;
	rc = walk_dir(&wk, fd, 0);
	close(fd);
	return rc;
}

/* ---------------------------------------------------------------- writes */

/* A new tree: mkdir its root, then every directory and file. */
static int
op_create(struct wl_worker *w, struct cb_op *op)
{
	const struct cb *cb = op->cb;
	int fd, rc;

	if ((fd = wl_mkdir_open(w->run->dirfd, op->name, 0755)) < 0)
		return wl_fail(w, fd, _("mkdir %s: %s"), op->root,
		    strerror(-fd));
	wl_count_ops(w, 1);
	rc = tree_create(w, op->set, fd, op->root, cb->wbuf, cb->wlen);
	close(fd);
	if (rc == 0)
		op->bytes = op->set->bytes;
	return rc;
}

/* Write size bytes at fd's offset, in writes of at most wlen. */
static int
write_size(struct wl_worker *w, struct cb_op *op, int fd, const char *name,
    uint64_t size)
{
	const struct cb *cb = op->cb;
	uint64_t t;
	ssize_t n;

	while (size > 0) {
		size_t len = size < cb->wlen ? (size_t)size : cb->wlen;

		if (wl_worker_stopping(w))
			return -EINTR;
		t = wl_now_ns();
		n = write(fd, cb->wbuf, len);
		if (n < 0)
			return wl_fail(w, -errno, _("write %s/%s: %s"),
			    op->root, name, strerror(errno));
		if (n == 0)
			return wl_fail(w, -ENOSPC, _("write %s/%s: %s"),
			    op->root, name, strerror(ENOSPC));
		wl_lat(w, WL_OP_WRITE, t);
		wl_count_write(w, (uint64_t)n);
		size -= (uint64_t)n;
	}
	return 0;
}

/*
 * One file of a patch: unlink it first when asked (it may not exist),
 * open or create it, read it to the end (unless patch_read is off),
 * truncate it and write it at its new size.
 */
static int
patch_file(struct wl_worker *w, struct cb_op *op, int dfd,
    const struct tree_file *f)
{
	uint64_t t = wl_now_ns();
	int fd, rc;

	if (op->unlink) {
		if (unlinkat(dfd, f->path, 0) < 0 && errno != ENOENT)
			return wl_fail(w, -errno, _("unlink %s/%s: %s"),
			    op->root, f->path, strerror(errno));
		wl_lat(w, WL_OP_DELETE, t);
		t = wl_now_ns();
	}
	fd = openat(dfd, f->path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC,
	    (mode_t)f->mode);
	if (fd < 0)
		return wl_fail(w, -errno, _("open %s/%s: %s"), op->root,
		    f->path, strerror(errno));
	wl_lat(w, WL_OP_CREATE, t);
	rc = op->cb->patch_read ? read_fd(w, op, fd, op->root, f->path, false)
				: 0;
	/* Back to the start, as compilebench's seek(0): else a hole. */
	if (rc == 0 && (ftruncate(fd, 0) < 0 || lseek(fd, 0, SEEK_SET) < 0))
		rc = wl_fail(w, -errno, _("truncate %s/%s: %s"), op->root,
		    f->path, strerror(errno));
	if (rc == 0)
		rc = write_size(w, op, fd, f->path, f->size);
	close(fd);
	if (rc == 0) {
		wl_count_files(w, 1);
		op->bytes += f->size;
	}
	return rc;
}

/* patch: every file of the list; MiB/s counts the bytes written. */
static int
op_patch(struct wl_worker *w, struct cb_op *op)
{
	size_t i;
	int dfd, rc = 0;

	if ((dfd = open_root(w, op)) < 0)
		return dfd;
	for (i = 0; i < op->set->nfiles && rc == 0; i++)
		rc = patch_file(w, op, dfd, &op->set->files[i]);
	close(dfd);
	return rc;
}

/* make: the objects appear next to their sources. */
static int
op_compile(struct wl_worker *w, struct cb_op *op)
{
	int fd, rc;

	if ((fd = open_root(w, op)) < 0)
		return fd;
	rc = tree_create(w, op->set, fd, op->root, op->cb->wbuf, op->cb->wlen);
	close(fd);
	if (rc == 0)
		op->bytes = op->set->bytes;
	return rc;
}

/* make clean: unlink every object; MiB/s counts their sizes. */
static int
op_clean(struct wl_worker *w, struct cb_op *op)
{
	const struct tree *objs = op->set;
	uint64_t t;
	size_t i;
	int dfd, rc = 0;

	if ((dfd = open_root(w, op)) < 0)
		return dfd;
	for (i = 0; i < objs->nfiles; i++) {
		if (wl_worker_stopping(w)) {
			rc = -EINTR;
			break;
		}
		t = wl_now_ns();
		if (unlinkat(dfd, objs->files[i].path, 0) < 0) {
			rc = wl_fail(w, -errno, _("unlink %s/%s: %s"), op->root,
			    objs->files[i].path, strerror(errno));
			break;
		}
		wl_lat(w, WL_OP_DELETE, t);
		wl_count_files(w, 1);
		op->bytes += objs->files[i].size;
	}
	close(dfd);
	return rc;
}

int
cb_worker(struct wl_worker *w)
{
	struct cb_op *op = w->arg;
	uint64_t t;
	int rc;

	op->bytes = 0;
	switch (op->phase) {
	case CB_INITIAL:
	case CB_CREATE:
		rc = op_create(w, op);
		break;
	case CB_PATCH:
		rc = op_patch(w, op);
		break;
	case CB_COMPILE:
		rc = op_compile(w, op);
		break;
	case CB_CLEAN:
		rc = op_clean(w, op);
		break;
	case CB_READ_TREE:
	case CB_READ_COMPILED:
		rc = op_walk(w, op, WALK_READ);
		break;
	case CB_DELETE_TREE:
	case CB_DELETE_COMPILED:
		rc = op_walk(w, op, WALK_DELETE);
		break;
	default:
		rc = op_walk(w, op, WALK_STAT);
		break;
	}
	if (rc == 0 && op->sync) {
		t = wl_now_ns();
		sync();
		wl_lat(w, WL_OP_FSYNC, t);
	}
	return rc;
}
