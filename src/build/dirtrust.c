/*
 * Whether a run's target is safe from other users (see dirtrust.h): a
 * walk from / down the path, one lstat per component, symbolic links
 * followed by hand so that each link and each directory it leads through
 * is judged too. Any thread.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/err.h"
#include "base/i18n.h"
#include "base/xalloc.h"
#include "dirtrust.h"

/* As the kernel: more links than this on one path is a loop. */
#define DIRTRUST_HOPS_MAX 40

const char *
dirtrust_user(uid_t uid, char *buf, size_t len)
{
	struct passwd pw, *res = NULL;
	char tmp[4096];

	if (getpwuid_r(uid, &pw, tmp, sizeof tmp, &res) == 0 && res != NULL)
		snprintf(buf, len, "%s", res->pw_name);
	else
		snprintf(buf, len, "%lu", (unsigned long)uid);
	return buf;
}

/*
 * Whether path (a component of dir, with st its lstat) can be changed by
 * root and this user only: the owner is one of them, and a directory
 * others may write in has the sticky bit (they cannot rename our
 * entries then). A link's own mode means nothing.
 */
static bool
trusted(const char *dir, const char *path, const struct stat *st, struct err *e)
{
	char o[256], me[256], fix[320];
	unsigned mode = (unsigned)(st->st_mode & 07777);
	bool self = strcmp(dir, path) == 0;

	dirtrust_user(st->st_uid, o, sizeof o);
	if (geteuid() == 0)
		snprintf(fix, sizeof fix, "%s",
		    _("use a directory that only root can change"));
	else
		snprintf(fix, sizeof fix,
		    _("use a directory that only root or %s can change"),
		    dirtrust_user(geteuid(), me, sizeof me));
	if (st->st_uid != 0 && st->st_uid != geteuid()) {
		if (self)
			err_setf(e, -EACCES,
			    _("%s belongs to %s (mode %04o), who could swap "
			      "what the run makes there for links to any "
			      "file: %s"),
			    dir, o, mode, fix);
		else
			err_setf(e, -EACCES,
			    _("%s is below %s, which belongs to %s (mode "
			      "%04o), who could swap what the run makes there "
			      "for links to any file: %s"),
			    dir, path, o, mode, fix);
		return false;
	}
	if (S_ISLNK(st->st_mode) || (mode & (S_IWGRP | S_IWOTH)) == 0 ||
	    (mode & S_ISVTX) != 0)
		return true;
	if (self)
		err_setf(e, -EACCES,
		    _("%s (owned by %s, mode %04o) is writable by other users "
		      "and has no sticky bit: they could swap what the run "
		      "makes there for links to any file: %s"),
		    dir, o, mode, fix);
	else
		err_setf(e, -EACCES,
		    _("%s is below %s (owned by %s, mode %04o), which is "
		      "writable by other users and has no sticky bit: they "
		      "could swap what the run makes there for links to any "
		      "file: %s"),
		    dir, path, o, mode, fix);
	return false;
}

/* Take the next component of *rest into comp; false at the end. */
static bool
next_component(const char **rest, char *comp, size_t len)
{
	const char *p = *rest, *end;

	while (*p == '/')
		p++;
	if (*p == '\0')
		return false;
	end = strchrnul(p, '/');
	snprintf(comp, len, "%.*s", (int)(end - p), p);
	*rest = end;
	return true;
}

/* Step cur (a directory walked so far, no links in it) to its parent. */
static void
to_parent(char *cur)
{
	char *slash = strrchr(cur, '/');

	if (slash == cur)
		cur[1] = '\0';
	else if (slash != NULL)
		*slash = '\0';
}

/*
 * The link at path, followed: what is left to walk becomes its target
 * then *rest (in a new *link), from / when the target is absolute, else
 * from cur. False when it cannot be read.
 */
static bool
follow(const char *path, char **link, const char **rest, char *cur)
{
	char target[PATH_MAX], *tmp;
	ssize_t n = readlink(path, target, sizeof target - 1);

	if (n < 0)
		return false;
	target[n] = '\0';
	/* *rest may point into *link: build, then free */
	tmp = xasprintf("%s/%s", target, *rest);
	free(*link);
	*rest = *link = tmp;
	if (target[0] == '/')
		snprintf(cur, PATH_MAX, "/");
	return true;
}

bool
dirtrust_check(const char *dir, struct err *e)
{
	char cur[PATH_MAX], next[PATH_MAX], comp[NAME_MAX + 1];
	char *buf, *link = NULL, cwd[PATH_MAX];
	const char *rest;
	struct stat st;
	int hops = 0;
	bool ok = false;

	if (dir[0] != '/' && getcwd(cwd, sizeof cwd) == NULL) {
		err_setf(e, -errno, _("%s: %s"), dir, strerror(errno));
		return false;
	}
	/* The run opens its target with O_NOFOLLOW: say so now. */
	if (lstat(dir, &st) == 0 && S_ISLNK(st.st_mode)) {
		err_setf(e, -ELOOP,
		    _("%s is a symbolic link: name the directory it leads to "
		      "(the run does not follow a link to its target)"),
		    dir);
		return false;
	}
	buf = dir[0] == '/' ? xstrdup(dir) : xasprintf("%s/%s", cwd, dir);
	rest = buf;
	snprintf(cur, sizeof cur, "/");
	if (lstat("/", &st) < 0 || !trusted(dir, "/", &st, e))
		goto out;
	while (next_component(&rest, comp, sizeof comp)) {
		if (strcmp(comp, ".") == 0)
			continue;
		if (strcmp(comp, "..") == 0) {
			to_parent(cur);
			continue;
		}
		if (snprintf(next, sizeof next, "%s%s%s", cur,
			strcmp(cur, "/") == 0 ? "" : "/",
			comp) >= (int)sizeof next) {
			err_setf(e, -ENAMETOOLONG, _("%s: %s"), dir,
			    strerror(ENAMETOOLONG));
			goto out;
		}
		if (lstat(next, &st) < 0) {
			/* The rest is made by the run, under cur. */
			ok = errno == ENOENT;
			if (!ok)
				err_setf(e, -errno,
				    _("%s: cannot check %s: %s"), dir, next,
				    strerror(errno));
			goto out;
		}
		if (!trusted(dir, next, &st, e))
			goto out;
		if (S_ISLNK(st.st_mode)) {
			if (++hops > DIRTRUST_HOPS_MAX ||
			    !follow(next, &link, &rest, cur)) {
				err_setf(e, -ELOOP,
				    _("%s: cannot check %s: %s"), dir, next,
				    strerror(ELOOP));
				goto out;
			}
			continue;
		}
		if (!S_ISDIR(st.st_mode)) {
			ok = true; /* not a directory: the run says so */
			goto out;
		}
		memcpy(cur, next, sizeof cur);
	}
	ok = true;
out:
	free(link);
	free(buf);
	return ok;
}
