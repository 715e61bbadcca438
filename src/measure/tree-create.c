/*
 * Writing a tree (tree.h) to disk from a worker thread: directories with
 * mkdirat, files with openat + write from a caller's buffer filled with
 * TREE_FILL_BYTE. No allocation; every write is counted as it happens.
 * Worker threads of wl_parallel() (tree_fill: any thread).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/i18n.h"
#include "engine.h"
#include "tree.h"

void
tree_fill(void *buf, size_t len)
{
	memset(buf, TREE_FILL_BYTE, len);
}

/* Close fd after a failure of what on root/path, keeping errno's value. */
static int
fail_close(struct wl_worker *w, int fd, int e, const char *what,
    const char *root, const char *path)
{
	if (fd >= 0)
		close(fd);
	/* TRANSLATORS: "write /mnt/x/linux/Makefile: No space left..." */
	return wl_fail(w, -e, _("%s %s/%s: %s"), what, root, path, strerror(e));
}

int
tree_write_file(struct wl_worker *w, int rootfd, const char *root,
    const struct tree_file *f, const void *buf, size_t buflen)
{
	uint64_t left = f->size, t;
	int fd;

	if (wl_worker_stopping(w))
		return -EINTR;
	t = wl_now_ns();
	fd = openat(rootfd, f->path,
	    O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW,
	    (mode_t)f->mode);
	if (fd < 0)
		return fail_close(w, -1, errno, _("create"), root, f->path);
	wl_lat(w, WL_OP_CREATE, t);
	wl_count_files(w, 1);
	while (left > 0) {
		size_t len = left < buflen ? (size_t)left : buflen;
		ssize_t n;

		if (wl_worker_stopping(w)) {
			close(fd);
			return -EINTR;
		}
		t = wl_now_ns();
		n = write(fd, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return fail_close(w, fd, n < 0 ? errno : ENOSPC,
			    _("write"), root, f->path);
		wl_lat(w, WL_OP_WRITE, t);
		wl_count_write(w, (uint64_t)n);
		left -= (uint64_t)n;
	}
	if (close(fd) < 0)
		return fail_close(w, -1, errno, _("close"), root, f->path);
	return 0;
}

int
tree_create(struct wl_worker *w, const struct tree *t, int rootfd,
    const char *root, const void *buf, size_t buflen)
{
	size_t i;
	int rc = 0;

	for (i = 0; i < t->ndirs && rc == 0; i++) {
		if (wl_worker_stopping(w)) {
			rc = -EINTR;
			break;
		}
		if (mkdirat(rootfd, t->dirs[i].path, (mode_t)t->dirs[i].mode) <
			0 &&
		    errno != EEXIST) {
			rc = fail_close(w, -1, errno, _("mkdir"), root,
			    t->dirs[i].path);
			break;
		}
		wl_count_ops(w, 1);
	}
	for (i = 0; i < t->nfiles && rc == 0; i++)
		rc =
		    tree_write_file(w, rootfd, root, &t->files[i], buf, buflen);
	return rc;
}
