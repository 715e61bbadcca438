/*
 * Scratch disks: sparse files attached to loop devices with losetup, each
 * journaled before it exists. Any thread.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "base/err.h"
#include "base/i18n.h"
#include "base/xalloc.h"
#include "exec.h"
#include "loopdev.h"
#include "scratch.h"
#include "statej.h"

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

/* Tries at a new random name when one is taken (by chance: never). */
#define NAME_TRIES 3

/* len letters and digits nobody can guess, into buf (len + 1 bytes). */
static int
random_part(char *buf, size_t len)
{
	static const char set[] = "abcdefghijklmnopqrstuvwxyz0123456789";
	unsigned char r[32];
	size_t got = 0;
	ssize_t k;

	while (got < len && len <= sizeof r) {
		if ((k = getrandom(r + got, len - got, 0)) < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		got += (size_t)k;
	}
	for (size_t i = 0; i < len; i++)
		buf[i] = set[r[i] % (sizeof set - 1)];
	buf[len] = '\0';
	return 0;
}

/*
 * Create path as O_EXCL does, its identity in the journal (object id)
 * before the name exists where the filesystem allows: an unnamed file
 * (O_TMPFILE), identified, then linked to its name, so that a run killed
 * at any point leaves at path nothing, or the very file the journal
 * identifies. Elsewhere open(O_EXCL), then identify. The descriptor, or
 * a negative errno (-EEXIST: the name is taken), with e filled when
 * *said.
 */
static int
open_new(const char *dir, const char *path, struct statej *j, int id,
    bool *said, struct err *e)
{
	char proc[64];
	int fd, rc;

	*said = false;
	fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
	if (fd < 0) {
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (fd < 0)
			return -errno;
		if (j != NULL && (rc = statej_identify(j, id, fd, e)) < 0) {
			*said = true;
			close(fd);
			unlink(path);
			return rc;
		}
		return fd;
	}
	if (j != NULL && (rc = statej_identify(j, id, fd, e)) < 0) {
		*said = true;
		close(fd);
		return rc;
	}
	/* linkat(AT_EMPTY_PATH) needs CAP_DAC_READ_SEARCH; this does not. */
	snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
	if (linkat(AT_FDCWD, proc, AT_FDCWD, path, AT_SYMLINK_FOLLOW) < 0) {
		rc = -errno;
		close(fd);
		return rc;
	}
	return fd;
}

/*
 * Create disk i's file under a name nobody can guess, so that no other
 * user can take it first in a shared directory (/var/tmp) and stop the
 * run; journaled and identified before it has its name (open_new). The
 * open descriptor, or a negative errno (e filled); s->files[i] is set
 * once the file exists.
 */
static int
create_file(struct scratch *s, size_t i, const char *dir, const char *tag,
    struct statej *j, struct err *e)
{
	char rnd[13], *path = NULL;
	int fd = -1, rc = 0, tries;
	bool said = false;

	for (tries = 0; fd < 0 && tries < NAME_TRIES; tries++) {
		free(path);
		if ((rc = random_part(rnd, 12)) < 0)
			return err_setf(e, rc,
			    _("cannot name a scratch file: "
			      "no random numbers: %s"),
			    strerror(-rc));
		path = xasprintf("%s/raidlab-%s-%d.%s-%zu.img", dir, tag,
		    (int)getpid(), rnd, i);
		if (j != NULL &&
		    (rc = statej_add(j, STATEJ_FILE, path, NULL, &s->ids[2 * i],
			 e)) < 0) {
			free(path);
			return rc;
		}
		fd = rc = open_new(dir, path, j, s->ids[2 * i], &said, e);
		if (fd < 0 && j != NULL)
			statej_release(j, s->ids[2 * i], NULL);
		if (fd < 0)
			s->ids[2 * i] = -1;
		if (fd < 0 && rc != -EEXIST)
			break;
	}
	if (fd < 0) {
		if (!said)
			err_setf(e, rc, _("cannot create scratch file %s: %s"),
			    path, strerror(-rc));
		free(path);
		return rc;
	}
	s->files[i] = path;
	return fd;
}

/* Make the sparse file of disk i. */
static int
make_file(struct scratch *s, size_t i, const char *dir, const char *tag,
    uint64_t size, struct statej *j, struct err *e)
{
	int fd, rc;

	if ((fd = create_file(s, i, dir, tag, j, e)) < 0)
		return fd;
	if (ftruncate(fd, (off_t)size) < 0) {
		rc = err_setf(e, -errno, _("cannot size scratch file %s: %s"),
		    s->files[i], strerror(errno));
		close(fd);
		return rc;
	}
	if (close(fd) < 0)
		return err_setf(e, -errno,
		    _("cannot create scratch file %s: %s"), s->files[i],
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
