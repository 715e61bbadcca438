/*
 * The state directory and its journals are trusted only when nobody but
 * the caller could have written them: owner and mode checks, and the
 * identity (birth time) helpers the journal records files with. Any
 * thread.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/afile.h"
#include "base/err.h"
#include "base/i18n.h"
#include "statej-int.h"
#include "statej.h"

/* "root (uid 0)" for uid, into buf. */
static const char *
owner_name(uid_t uid, char *buf, size_t len)
{
	struct passwd pw, *res = NULL;
	char pb[1024];

	if (getpwuid_r(uid, &pw, pb, sizeof pb, &res) == 0 && res != NULL)
		snprintf(buf, len, "%s (uid %u)", res->pw_name, (unsigned)uid);
	else
		snprintf(buf, len, "uid %u", (unsigned)uid);
	return buf;
}

/* A state directory or journal somebody else may have written decides
   what cleanup removes: only the caller's own, closed to others, is
   trusted. */
static int
check_private(const struct stat *st, const char *path, bool dir, struct err *e)
{
	char who[300], me[300];

	if (dir ? !S_ISDIR(st->st_mode) : !S_ISREG(st->st_mode))
		return err_setf(e, -EPERM,
		    dir ? _("state directory %s: not a directory")
			: _("state journal %s: not a regular file"),
		    path);
	if (st->st_uid == geteuid() && (st->st_mode & 077) == 0)
		return 0;
	owner_name(st->st_uid, who, sizeof who);
	owner_name(geteuid(), me, sizeof me);
	return err_setf(e, -EPERM,
	    dir ? _("state directory %s is owned by %s with mode %04o: "
		    "refused; it must be yours (%s) with mode 0700, since "
		    "whoever can write journals there decides what cleanup "
		    "removes")
		: _("state journal %s is owned by %s with mode %04o: refused "
		    "and not read; it must be yours (%s) with mode 0600, "
		    "since it decides what cleanup removes"),
	    path, who, (unsigned)(st->st_mode & 07777), me);
}

int
statej_check_journal(int fd, const char *path, struct err *e)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return err_setf(e, -errno, _("cannot read %s: %s"), path,
		    strerror(errno));
	return check_private(&st, path, false, e);
}

int
statej_dir_open(const char *dir, bool create, struct err *e)
{
	struct stat st;
	int fd, rc;

	if (create && (rc = afile_mkdirs(dir, 0700)) < 0)
		return err_setf(e, rc,
		    _("cannot create the state directory %s: %s"), dir,
		    strerror(-rc));
	/* Not through a symbolic link: whoever may replace the link would
	   choose the directory. */
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 && lstat(dir, &st) == 0 && S_ISLNK(st.st_mode))
		return err_setf(e, -EPERM,
		    _("state directory %s is a symbolic link: refused (name "
		      "the directory itself)"),
		    dir);
	if (fd < 0)
		return err_setf(e, -errno,
		    _("cannot open the state directory %s: %s"), dir,
		    strerror(errno));
	if (fstat(fd, &st) < 0)
		rc = err_setf(e, -errno, _("cannot read %s: %s"), dir,
		    strerror(errno));
	else
		rc = check_private(&st, dir, true, e);
	if (rc < 0) {
		close(fd);
		return rc;
	}
	return fd;
}

int64_t
statej_btime(int dfd, const char *name, int flags)
{
	struct statx sx;

	if (statx(dfd, name, flags, STATX_BTIME, &sx) < 0 ||
	    !(sx.stx_mask & STATX_BTIME))
		return 0;
	return (int64_t)sx.stx_btime.tv_sec * 1000000000 +
	    (int64_t)sx.stx_btime.tv_nsec;
}
