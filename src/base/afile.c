/*
 * Temp file + fsync + rename: see afile.h. Any thread.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "afile.h"
#include "err.h"
#include "i18n.h"
#include "xalloc.h"

static int
write_all(int fd, const char *p, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* fsync the directory holding path, so the rename itself is durable. */
static int
sync_dir(const char *path)
{
	char *copy = xstrdup(path);
	int fd, rc = 0;

	fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || fsync(fd) < 0)
		rc = -errno;
	if (fd >= 0)
		close(fd);
	free(copy);
	return rc;
}

int
afile_write(const char *path, const void *data, size_t len, struct err *e)
{
	char *tmp = xasprintf("%s.XXXXXX", path);
	struct stat st;
	int fd, rc;

	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		rc = err_set(e, -errno, path, 0, NULL,
		    _("cannot create a temporary file beside it: %s"),
		    strerror(errno));
		free(tmp);
		return rc;
	}
	if (stat(path, &st) == 0)
		rc = fchmod(fd, st.st_mode & 07777);
	else
		rc = fchmod(fd, 0644 & ~afile_umask());
	if (rc < 0) {
		rc = err_set(e, -errno, path, 0, NULL, "%s", strerror(errno));
		goto fail;
	}
	if ((rc = write_all(fd, data, len)) < 0 || fsync(fd) < 0) {
		if (rc == 0)
			rc = -errno;
		err_set(e, rc, path, 0, NULL, _("cannot write: %s"),
		    strerror(-rc));
		goto fail;
	}
	if (close(fd) < 0) {
		fd = -1;
		rc = err_set(e, -errno, path, 0, NULL, _("cannot write: %s"),
		    strerror(errno));
		goto fail;
	}
	fd = -1;
	if (rename(tmp, path) < 0) {
		rc = err_set(e, -errno, path, 0, NULL,
		    _("cannot replace the file: %s"), strerror(errno));
		goto fail;
	}
	free(tmp);
	if ((rc = sync_dir(path)) < 0)
		return err_set(e, rc, path, 0, NULL,
		    _("cannot sync its directory: %s"), strerror(-rc));
	return 0;
fail:
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	free(tmp);
	return rc;
}

int
afile_mkdirs(const char *path, mode_t mode)
{
	char *p = xstrdup(path), *s;
	int rc = 0;

	for (s = p + 1; rc == 0; s++) {
		char c = *s;

		if (c != '/' && c != '\0')
			continue;
		*s = '\0';
		if (mkdir(p, mode) < 0 && errno != EEXIST)
			rc = -errno;
		*s = c;
		if (c == '\0')
			break;
	}
	free(p);
	return rc;
}

mode_t
afile_umask(void)
{
	char line[128];
	unsigned m;
	mode_t old;
	FILE *f = fopen("/proc/self/status", "re");

	if (f != NULL) {
		while (fgets(line, sizeof line, f) != NULL)
			if (sscanf(line, "Umask: %o", &m) == 1) {
				fclose(f);
				return (mode_t)m & 0777;
			}
		fclose(f);
	}
	old = umask(077);
	umask(old);
	return old & 0777;
}
