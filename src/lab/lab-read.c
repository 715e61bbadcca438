/*
 * Reading a lab file: see lab-read.h. Any thread.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "base/err.h"
#include "base/i18n.h"
#include "base/xalloc.h"
#include "lab-read.h"

/* statfs(2)'s f_type of the kernel's pipes (linux/magic.h). */
#define LAB_PIPEFS_MAGIC 0x50495045

/* What fd is, when it is not something a lab can be read from: a
   translated noun phrase, else NULL. A pipe made by a shell (stdin,
   <(...)) is; a FIFO in a directory is not: nobody may ever write it. */
static const char *
not_readable(int fd, const struct stat *st)
{
	struct statfs fs;

	if (S_ISREG(st->st_mode))
		return NULL;
	if (S_ISDIR(st->st_mode))
		return _("a directory, not a lab file");
	if (S_ISFIFO(st->st_mode)) {
		if (fstatfs(fd, &fs) == 0 && fs.f_type == LAB_PIPEFS_MAGIC)
			return NULL;
		return _("a FIFO (named pipe), not a regular file");
	}
	if (S_ISCHR(st->st_mode) || S_ISBLK(st->st_mode))
		return _("a device, not a regular file");
	return _("not a regular file");
}

/* Read fd to its end (at most LAB_FILE_MAX bytes) into *text. */
static int
read_to_end(int fd, const char *path, char **text, size_t *len,
    struct errlist *errs)
{
	size_t cap = 0;
	ssize_t n;

	*text = NULL;
	*len = 0;
	for (;;) {
		if (*len == cap) {
			if (cap >= LAB_FILE_MAX)
				return errlist_add(errs, -EFBIG, path, 0, NULL,
				    _("more than %d bytes: too big for a lab "
				      "file"),
				    LAB_FILE_MAX);
			cap = cap ? cap * 2 : 16384;
			*text = xrealloc(*text, cap + 1);
		}
		if ((n = read(fd, *text + *len, cap - *len)) == 0)
			break;
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errlist_add(errs, -errno, path, 0, NULL,
			    _("cannot read: %s"), strerror(errno));
		*len += (size_t)n;
	}
	(*text)[*len] = '\0';
	return 0;
}

char *
lab_read_file(const char *path, struct errlist *errs)
{
	const char *what, *nul;
	struct stat st;
	char *text = NULL;
	size_t len, line = 1;
	int fd, flags;

	/* O_NONBLOCK: opening a FIFO with no writer returns at once. */
	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) < 0 ||
	    fstat(fd, &st) < 0) {
		errlist_add(errs, -errno, path, 0, NULL, _("cannot read: %s"),
		    strerror(errno));
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	if ((what = not_readable(fd, &st)) != NULL) {
		errlist_add(errs, S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL, path,
		    0, NULL, "%s", what);
		close(fd);
		return NULL;
	}
	/* A pipe is read to its end: blocking again. */
	if ((flags = fcntl(fd, F_GETFL)) >= 0)
		(void)fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
	if (read_to_end(fd, path, &text, &len, errs) < 0) {
		close(fd);
		free(text);
		return NULL;
	}
	close(fd);
	if ((nul = memchr(text, '\0', len)) != NULL) {
		for (const char *p = text; p < nul; p++)
			line += *p == '\n';
		errlist_add(errs, -EINVAL, path, (int)line, NULL, "%s",
		    _("a NUL byte: a lab file is text (libconfig would stop "
		      "reading there)"));
		free(text);
		return NULL;
	}
	return text;
}
