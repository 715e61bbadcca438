/*
 * Loop devices by backing file, through sysfs and the loop ioctls. Any
 * thread.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/loop.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "base/err.h"
#include "base/i18n.h"
#include "loopdev.h"

/* How long a detached-but-open loop may take to clear by itself. */
#define LOOPDEV_SETTLE_MS 5000
#include "base/xalloc.h"

#define DELETED " (deleted)"

/* "loop7" from "/dev/loop7" or "loop7"; NULL when it is no loop name. */
static const char *
loop_name(const char *dev)
{
	const char *b = strrchr(dev, '/');
	const char *p;

	b = b != NULL ? b + 1 : dev;
	if (strncmp(b, "loop", 4) != 0 || b[4] == '\0')
		return NULL;
	for (p = b + 4; *p != '\0'; p++)
		if (*p < '0' || *p > '9')
			return NULL;
	return b;
}

int
loopdev_backing(const char *dev, char *buf, size_t len)
{
	const char *name = loop_name(dev);
	char path[PATH_MAX];
	ssize_t n;
	int fd;

	if (name == NULL || len == 0)
		return -ENXIO;
	snprintf(path, sizeof path, "/sys/block/%s/loop/backing_file", name);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -ENXIO;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -ENXIO;
	if ((size_t)n == len - 1)
		return -ENAMETOOLONG;
	while (n > 0 && buf[n - 1] == '\n')
		n--;
	buf[n] = '\0';
	return 0;
}

/* Whether backing is p, or p followed by " (deleted)". */
static bool
same_path(const char *backing, const char *p)
{
	size_t n = strlen(p);

	return strncmp(backing, p, n) == 0 &&
	    (backing[n] == '\0' || strcmp(backing + n, DELETED) == 0);
}

bool
loopdev_names(const char *backing, const struct loopdev_file *f)
{
	char *real;
	bool ok;

	if (f->path == NULL || *f->path == '\0')
		return false;
	if (same_path(backing, f->path))
		return true;
	if ((real = realpath(f->path, NULL)) == NULL)
		return false;
	ok = same_path(backing, real);
	free(real);
	return ok;
}

size_t
loopdev_find(const struct loopdev_file *f, char ***devs)
{
	char backing[PATH_MAX + 16], dev[300];
	struct dirent *d;
	size_t n = 0;
	char **v;
	DIR *dir;

	v = xcalloc(1, sizeof *v);
	*devs = v;
	if ((dir = opendir("/sys/block")) == NULL)
		return 0;
	while ((d = readdir(dir)) != NULL) {
		if (loop_name(d->d_name) == NULL)
			continue;
		snprintf(dev, sizeof dev, "/dev/%s", d->d_name);
		if (loopdev_backing(dev, backing, sizeof backing) < 0 ||
		    !loopdev_names(backing, f))
			continue;
		v = xreallocarray(v, n + 2, sizeof *v);
		v[n++] = xstrdup(dev);
		v[n] = NULL;
	}
	closedir(dir);
	*devs = v;
	return n;
}

void
loopdev_list_free(char **devs)
{
	size_t i;

	for (i = 0; devs != NULL && devs[i] != NULL; i++)
		free(devs[i]);
	free(devs);
}

void
loopdev_file_stat(struct loopdev_file *f, const char *path)
{
	struct stat st;

	f->path = path;
	f->dev = f->ino = 0;
	if (stat(path, &st) == 0) {
		f->dev = (uint64_t)st.st_dev;
		f->ino = (uint64_t)st.st_ino;
	}
}

/* Whether the opened device is backed by the inode f names. */
static int
check_inode(int fd, const char *dev, const struct loopdev_file *f,
    struct err *e)
{
	struct loop_info64 li;

	if (f->ino == 0)
		return 0;
	memset(&li, 0, sizeof li);
	if (ioctl(fd, LOOP_GET_STATUS64, &li) < 0) {
		if (errno == ENXIO)
			return -ENXIO;
		return err_setf(e, -errno, _("%s: cannot read its status: %s"),
		    dev, strerror(errno));
	}
	if (li.lo_inode != f->ino ||
	    major((dev_t)li.lo_device) != major((dev_t)f->dev) ||
	    minor((dev_t)li.lo_device) != minor((dev_t)f->dev))
		return err_setf(e, -ESTALE,
		    _("%s is backed by another file than %s (inode %llu, "
		      "not %llu): left alone"),
		    dev, f->path, (unsigned long long)li.lo_inode,
		    (unsigned long long)f->ino);
	return 0;
}

int
loopdev_detach(const char *dev, const struct loopdev_file *f, struct err *e)
{
	char backing[PATH_MAX + 16];
	int fd, rc;

	if (loopdev_backing(dev, backing, sizeof backing) < 0)
		return -ENXIO;
	if (!loopdev_names(backing, f))
		return err_setf(e, -ESTALE,
		    _("%s is backed by %s, not %s: left alone"), dev, backing,
		    f->path);
	/*
	 * Holding the device open pins its binding: nobody can attach
	 * another file to it until we close, so the checks below hold for
	 * the LOOP_CLR_FD that follows.
	 */
	if ((fd = open(dev, O_RDONLY | O_CLOEXEC)) < 0) {
		if (errno == ENOENT || errno == ENXIO)
			return -ENXIO;
		return err_setf(e, -errno, _("cannot open %s: %s"), dev,
		    strerror(errno));
	}
	if (loopdev_backing(dev, backing, sizeof backing) < 0) {
		close(fd);
		return -ENXIO;
	}
	if (!loopdev_names(backing, f)) {
		close(fd);
		return err_setf(e, -ESTALE,
		    _("%s is backed by %s, not %s: left alone"), dev, backing,
		    f->path);
	}
	if ((rc = check_inode(fd, dev, f, e)) < 0) {
		close(fd);
		return rc;
	}
	if (ioctl(fd, LOOP_CLR_FD, 0) < 0) {
		rc = errno;
		close(fd);
		if (rc == ENXIO)
			return -ENXIO;
		return err_setf(e, -rc, _("cannot detach %s: %s"), dev,
		    strerror(rc));
	}
	close(fd);
	/*
	 * The kernel clears the device on its last close. Still backed by
	 * our file: someone else holds it open (often a passing blkid or an
	 * inventory scan), and it detaches when they let go. Give short
	 * openers LOOPDEV_SETTLE_MS before calling it deferred.
	 */
	for (int ms = 0; ms < LOOPDEV_SETTLE_MS; ms += 20) {
		struct timespec ts = { 0, 20 * 1000000L };

		if (loopdev_backing(dev, backing, sizeof backing) < 0 ||
		    !loopdev_names(backing, f))
			return 0;
		nanosleep(&ts, NULL);
	}
	if (loopdev_backing(dev, backing, sizeof backing) == 0 &&
	    loopdev_names(backing, f))
		return err_setf(e, -EBUSY,
		    _("%s is in use: it will detach when its last user closes "
		      "it (autoclear)"),
		    dev);
	return 0;
}
