/*
 * The run's directory and the trees below it, through descriptors only:
 * made with mkdirat, opened with O_DIRECTORY | O_NOFOLLOW, removed with
 * unlinkat. A path is looked up again at each use, and whoever may
 * rename a directory on it meanwhile (the owner of the target, say)
 * could swap it for one of symlinks to any file; a descriptor stays on
 * the directory the run made. Any thread (the driver, workers).
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/err.h"
#include "base/i18n.h"
#include "base/xalloc.h"
#include "engine-int.h"

/* Deeper than any tree a workload makes; each level holds two fds. */
#define RMTREE_DEPTH_MAX 128

int
wl_open_dir(int dirfd, const char *name)
{
	int fd = openat(dirfd, name,
	    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

int
wl_mkdir_open(int dirfd, const char *name, mode_t mode)
{
	if (mkdirat(dirfd, name, mode) < 0)
		return -errno;
	return wl_open_dir(dirfd, name);
}

/*
 * Remove what the directory open as fd holds, depth first, staying on
 * dev. Entries are removed while the directory is read: passes repeat
 * until one finds nothing, in case a removal hid an entry from readdir.
 */
static int
empty_dir(int fd, dev_t dev, int depth)
{
	struct dirent *de;
	struct stat st;
	bool again = true;
	int rc = 0, r, sub, dfd;
	DIR *d;

	if (depth > RMTREE_DEPTH_MAX)
		return -ELOOP;
	for (int pass = 0; again && pass < 4; pass++) {
		again = false;
		if ((dfd = dup(fd)) < 0 || (d = fdopendir(dfd)) == NULL) {
			if (dfd >= 0)
				close(dfd);
			return -errno;
		}
		rewinddir(d);
		while ((de = readdir(d)) != NULL) {
			const char *n = de->d_name;

			if (strcmp(n, ".") == 0 || strcmp(n, "..") == 0)
				continue;
			again = true;
			if (unlinkat(fd, n, 0) == 0 || errno == ENOENT)
				continue;
			if (errno != EISDIR && errno != EPERM) {
				rc = -errno;
				continue;
			}
			if ((sub = wl_open_dir(fd, n)) < 0) {
				rc = sub;
				continue;
			}
			/* Another filesystem mounted there: not ours. */
			if (fstat(sub, &st) < 0 || st.st_dev != dev) {
				close(sub);
				rc = -EBUSY;
				continue;
			}
			if ((r = empty_dir(sub, dev, depth + 1)) < 0)
				rc = r;
			close(sub);
			if (unlinkat(fd, n, AT_REMOVEDIR) < 0 &&
			    errno != ENOENT)
				rc = -errno;
		}
		closedir(d);
		if (rc < 0)
			break;
	}
	return rc;
}

int
wl_rmtree_at(int dirfd, const char *name)
{
	struct stat st;
	int fd, rc;

	if ((fd = wl_open_dir(dirfd, name)) < 0) {
		/* A file or a link: only its name goes. */
		if (fd == -ENOTDIR || fd == -ELOOP)
			return unlinkat(dirfd, name, 0) < 0 && errno != ENOENT
			    ? -errno
			    : 0;
		return fd == -ENOENT ? 0 : fd;
	}
	rc = fstat(fd, &st) < 0 ? -errno : empty_dir(fd, st.st_dev, 0);
	close(fd);
	if (rc == 0 && unlinkat(dirfd, name, AT_REMOVEDIR) < 0 &&
	    errno != ENOENT)
		rc = -errno;
	return rc;
}

/* "raidlab-NAME." and six random letters, as mkdtemp would. */
static void
random_name(const char *name, char *buf, size_t len)
{
	static const char set[] = "abcdefghijklmnopqrstuvwxyz"
				  "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	unsigned char r[6];
	char s[7];

	if (getrandom(r, sizeof r, 0) != (ssize_t)sizeof r)
		for (size_t i = 0; i < sizeof r; i++)
			r[i] = (unsigned char)rand();
	for (size_t i = 0; i < sizeof r; i++)
		s[i] = set[r[i] % (sizeof set - 1)];
	s[6] = '\0';
	snprintf(buf, len, "raidlab-%s.%s", name, s);
}

int
engine_dir_make(struct engine *eng, struct err *e)
{
	const char *t = eng->target;
	char base[NAME_MAX + 1];
	struct stat st;
	int tries = 0;

	eng->tfd = open(t, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (eng->tfd < 0) {
		int err = errno;

		/* O_DIRECTORY | O_NOFOLLOW on a link: ENOTDIR. */
		if (lstat(t, &st) == 0 && S_ISLNK(st.st_mode))
			return err_set(e, -ELOOP, t, 0, NULL, "%s",
			    _("a symbolic link: name the directory it leads "
			      "to"));
		return err_set(e, -err, t, 0, NULL, "%s", strerror(err));
	}
	do {
		random_name(eng->name, base, sizeof base);
		eng->dirfd = wl_mkdir_open(eng->tfd, base, 0700);
	} while (eng->dirfd == -EEXIST && ++tries < 100);
	if (eng->dirfd < 0)
		return err_set(e, eng->dirfd, t, 0, NULL,
		    _("cannot create a directory for the run: %s"),
		    strerror(-eng->dirfd));
	eng->base = xstrdup(base);
	eng->dir = xasprintf("%s/%s", t, base);
	/* Swapped between mkdirat and openat: not the one made. */
	if (fstat(eng->dirfd, &st) < 0 || st.st_uid != geteuid())
		return err_set(e, -EPERM, t, 0, NULL,
		    _("%s was replaced as soon as it was made"), eng->dir);
	return 0;
}

int
engine_dir_remove(struct engine *eng)
{
	struct stat mine, now;
	int rc;

	if (eng->dirfd < 0)
		return 0;
	if (fstat(eng->dirfd, &mine) < 0)
		return -errno;
	if ((rc = empty_dir(eng->dirfd, mine.st_dev, 0)) < 0)
		return rc;
	/* Only the directory made, if it still has its name. */
	if (fstatat(eng->tfd, eng->base, &now, AT_SYMLINK_NOFOLLOW) < 0 ||
	    now.st_dev != mine.st_dev || now.st_ino != mine.st_ino)
		return -ESTALE;
	if (unlinkat(eng->tfd, eng->base, AT_REMOVEDIR) < 0 && errno != ENOENT)
		return -errno;
	return 0;
}

void
engine_dir_close(struct engine *eng)
{
	if (eng->dirfd >= 0)
		close(eng->dirfd);
	if (eng->tfd >= 0)
		close(eng->tfd);
	eng->dirfd = eng->tfd = -1;
}
