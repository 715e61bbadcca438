/*
 * Scratch disks: sparse files attached to loop devices with losetup, each
 * journaled before it exists. Any thread.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "err.h"
#include "exec.h"
#include "i18n.h"
#include "loopdev.h"
#include "scratch.h"
#include "statej.h"
#include "xalloc.h"

/* losetup -f --show takes milliseconds; this is for a wedged kernel. */
#define LOSETUP_TIMEOUT 60.0

/* The "/dev/loopN" line of losetup's output, or NULL (caller frees). */
static char *
device_line(const char *out)
{
	const char *p = out, *end;
	size_t n;

	for (; *p != '\0'; p = *end ? end + 1 : end) {
		end = p + strcspn(p, "\n");
		n = (size_t)(end - p);
		while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\r'))
			n--;
		if (n > 9 && strncmp(p, "/dev/loop", 9) == 0 &&
		    strspn(p + 9, "0123456789") == n - 9)
			return xstrndup(p, n);
	}
	return NULL;
}

/* Make the sparse file of disk i; journaled first. */
static int
make_file(struct scratch *s, size_t i, const char *dir, const char *tag,
    uint64_t size, struct statej *j, struct err *e)
{
	char *path =
	    xasprintf("%s/raidlab-%s-%d-%zu.img", dir, tag, (int)getpid(), i);
	int fd, rc;

	if (j != NULL &&
	    (rc = statej_add(j, STATEJ_FILE, path, NULL, &s->ids[2 * i], e)) <
		0) {
		free(path);
		return rc;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0) {
		rc = err_setf(e, -errno, _("cannot create scratch file %s: %s"),
		    path, strerror(errno));
		if (j != NULL)
			statej_release(j, s->ids[2 * i], NULL);
		s->ids[2 * i] = -1;
		free(path);
		return rc;
	}
	s->files[i] = path;
	if (ftruncate(fd, (off_t)size) < 0) {
		rc = err_setf(e, -errno, _("cannot size scratch file %s: %s"),
		    path, strerror(errno));
		close(fd);
		return rc;
	}
	if (close(fd) < 0)
		return err_setf(e, -errno,
		    _("cannot create scratch file %s: %s"), path,
		    strerror(errno));
	return 0;
}

/* Attach disk i's file to a free loop device; journaled first. */
static int
attach(struct scratch *s, size_t i, struct statej *j, struct err *e)
{
	const char *argv[] = { "losetup", "-f", "--show", s->files[i], NULL };
	struct exec_opts o = { .timeout = LOSETUP_TIMEOUT };
	char backing[PATH_MAX + 16], d[256];
	struct loopdev_file f = { .path = s->files[i] };
	struct exec_result r;
	char *dev;
	int rc;

	if (j != NULL &&
	    (rc = statej_add(j, STATEJ_LOOP, s->files[i], NULL,
		 &s->ids[2 * i + 1], e)) < 0)
		return rc;
	rc = exec_run(argv, &o, &r);
	dev = rc == 0 ? device_line(r.output) : NULL;
	if (dev == NULL) {
		char *line = exec_argv_string(argv);
		int len = (int)strcspn(r.output, "\n");

		rc = err_setf(e, rc < 0 ? rc : -EPROTO, "%s: %s%s%.*s", line,
		    rc < 0 ? exec_result_describe(&r, d, sizeof d)
			   : _("no device in its output"),
		    len > 0 ? ": " : "", len > 200 ? 200 : len, r.output);
		free(line);
		exec_result_done(&r);
		return rc;
	}
	exec_result_done(&r);
	s->devices[i] = dev;
	if (loopdev_backing(dev, backing, sizeof backing) < 0 ||
	    !loopdev_names(backing, &f))
		return err_setf(e, -EPROTO,
		    _("losetup attached %s to %s, but it is not backed by it"),
		    s->files[i], dev);
	if (j != NULL)
		return statej_named(j, s->ids[2 * i + 1], dev, e);
	return 0;
}

static void
scratch_free(struct scratch *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		if (s->files != NULL)
			free(s->files[i]);
		if (s->devices != NULL)
			free(s->devices[i]);
	}
	free(s->files);
	free(s->devices);
	free(s->ids);
	memset(s, 0, sizeof *s);
}

int
scratch_create(struct scratch *s, const char *dir, const char *tag, size_t n,
    uint64_t size, struct statej *j, struct err *e)
{
	char *real;
	size_t i;
	int rc = 0;

	memset(s, 0, sizeof *s);
	if (size == 0 || size % 512 != 0)
		return err_setf(e, -EINVAL,
		    _("scratch disk size %llu: not a non-zero multiple of 512 "
		      "bytes"),
		    (unsigned long long)size);
	if (tag == NULL || *tag == '\0' || strchr(tag, '/') != NULL)
		return err_setf(e, -EINVAL, _("bad scratch disk tag '%s'"),
		    tag ? tag : "");
	if ((real = realpath(dir, NULL)) == NULL)
		return err_setf(e, -errno, _("scratch directory %s: %s"), dir,
		    strerror(errno));
	s->files = xcalloc(n + 1, sizeof *s->files);
	s->devices = xcalloc(n + 1, sizeof *s->devices);
	s->ids = xmalloc((2 * n + 1) * sizeof *s->ids);
	for (i = 0; i < 2 * n; i++)
		s->ids[i] = -1;
	for (i = 0; i < n && rc == 0; i++) {
		s->n = i + 1;
		rc = make_file(s, i, real, tag, size, j, e);
		if (rc == 0)
			rc = attach(s, i, j, e);
	}
	free(real);
	if (rc < 0)
		scratch_destroy(s, j, NULL);
	return rc;
}

/* Keep the first error. */
static void
first_error(int *rc, struct err *e, int code, const struct err *got)
{
	if (*rc < 0 || code >= 0)
		return;
	*rc = code;
	if (e != NULL)
		*e = *got;
}

/* Detach disk i's loop (the named device, or any backed by its file). */
static int
detach(struct scratch *s, size_t i, struct err *e)
{
	struct loopdev_file f;
	char **devs;
	size_t k;
	int rc = 0, r;

	if (s->files[i] == NULL)
		return 0; /* no file, so no loop over it */
	loopdev_file_stat(&f, s->files[i]);
	if (s->devices[i] != NULL) {
		r = loopdev_detach(s->devices[i], &f, e);
		if (r == 0 || r == -ENXIO)
			return 0;
		if (r != -ESTALE)
			return r;
	}
	/* Not named (losetup's answer lost), or the name went stale. */
	loopdev_find(&f, &devs);
	for (k = 0; devs[k] != NULL && rc == 0; k++) {
		r = loopdev_detach(devs[k], &f, e);
		if (r < 0 && r != -ENXIO && r != -ESTALE)
			rc = r;
	}
	loopdev_list_free(devs);
	return rc;
}

void
scratch_forget(struct scratch *s)
{
	scratch_free(s);
}

int
scratch_destroy(struct scratch *s, struct statej *j, struct err *e)
{
	struct err ie;
	size_t i;
	int rc = 0, r;

	for (i = s->n; i > 0 && s->files != NULL; i--) {
		err_clear(&ie);
		if ((r = detach(s, i - 1, &ie)) < 0) {
			/* Still attached: keep its file and journal. */
			first_error(&rc, e, r, &ie);
			continue;
		}
		if (j != NULL && s->ids[2 * (i - 1) + 1] >= 0)
			statej_release(j, s->ids[2 * (i - 1) + 1], NULL);
		if (s->files[i - 1] != NULL && unlink(s->files[i - 1]) < 0 &&
		    errno != ENOENT) {
			r = err_setf(&ie, -errno,
			    _("cannot remove scratch file %s: %s"),
			    s->files[i - 1], strerror(errno));
			first_error(&rc, e, r, &ie);
			continue;
		}
		if (j != NULL && s->ids[2 * (i - 1)] >= 0)
			statej_release(j, s->ids[2 * (i - 1)], NULL);
	}
	scratch_free(s);
	return rc;
}
