/*
 * The state journal, cleaning side: find the journals of raidlab
 * processes that are gone and undo what they left, newest object first,
 * releasing each undone object in its journal as it goes (a cleanup that
 * is itself interrupted loses nothing). Any thread; one cleanup at a time
 * per state directory (flock on the directory).
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/err.h"
#include "base/i18n.h"
#include "base/xalloc.h"
#include "blkqueue.h"
#include "exec.h"
#include "holders.h"
#include "ident.h"
#include "loopdev.h"
#include "statej-int.h"
#include "statej.h"

/* An undo command that runs longer than this is killed. */
#define UNDO_TIMEOUT 300.0

struct cleaner {
	void (*report)(void *arg, const char *line);
	void *arg;
	bool force;
	size_t failed; /* objects that could not be undone */
	size_t refused; /* journals not trusted: not ours, or open */
	size_t held; /* objects left alone: not provably the run's */
};

static void __attribute__((format(printf, 2, 3)))
say(struct cleaner *c, const char *fmt, ...)
{
	char line[ERR_MSG_MAX + PATH_MAX];
	va_list ap;

	if (c->report == NULL)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	c->report(c->arg, line);
}

/* The basename of /proc/PID/exe ("self" for ours), into buf; "" if none. */
static const char *
exe_base(const char *pid, char *buf, size_t len)
{
	char path[64], exe[PATH_MAX], *b, *d;
	ssize_t n;

	snprintf(path, sizeof path, "/proc/%s/exe", pid);
	n = readlink(path, exe, sizeof exe - 1);
	exe[n > 0 ? n : 0] = '\0';
	if ((d = strstr(exe, " (deleted)")) != NULL && d[10] == '\0')
		*d = '\0';
	b = strrchr(exe, '/');
	snprintf(buf, len, "%s", b != NULL ? b + 1 : exe);
	return buf;
}

/* For journals without a start time: is pid running a raidlab binary? */
static bool
exe_is_raidlab(pid_t pid, const char *journal_exe)
{
	char id[32], base[PATH_MAX], self[PATH_MAX];
	const char *jb;

	snprintf(id, sizeof id, "%d", (int)pid);
	exe_base(id, base, sizeof base);
	if (*base == '\0')
		return true; /* cannot tell (not ours to read): assume so */
	if (strncmp(base, "raidlab", 7) == 0 ||
	    strcmp(base, exe_base("self", self, sizeof self)) == 0)
		return true;
	if (journal_exe != NULL) {
		jb = strrchr(journal_exe, '/');
		return strcmp(base, jb != NULL ? jb + 1 : journal_exe) == 0;
	}
	return false;
}

/* Whether the process that wrote f still runs (pid reuse defeated by
 * the start time). */
static bool
owner_running(const struct statej_file *f)
{
	char st;

	if (f->pid <= 0)
		return false;
	if (kill(f->pid, 0) < 0 && errno == ESRCH)
		return false;
	st = statej_proc_state(f->pid);
	if (st == 0 || st == 'Z' || st == 'X')
		return false;
	if (f->start != 0)
		return statej_proc_start(f->pid) == f->start;
	return exe_is_raidlab(f->pid, f->exe);
}

/*
 * The first of devs (found by a file's path) backed by the file now at
 * that path, or NULL: one showing "PATH (deleted)" is backed by an
 * earlier file of that name.
 */
static const char *
backing_loop(char **devs)
{
	char backing[PATH_MAX + 16];
	size_t i, n;

	for (i = 0; devs[i] != NULL; i++) {
		if (loopdev_backing(devs[i], backing, sizeof backing) < 0)
			continue;
		n = strlen(backing);
		if (n < 10 || strcmp(backing + n - 10, " (deleted)") != 0)
			return devs[i];
	}
	return NULL;
}

/* The parent directory of the absolute path, opened, and its last
   component in *base; -1 with errno on failure. */
static int
open_parent(const char *path, const char **base)
{
	const char *slash = strrchr(path, '/');
	char *dir;
	int fd;

	if (slash == NULL) {
		errno = EINVAL;
		return -1;
	}
	dir = slash == path ? xstrdup("/")
			    : xstrndup(path, (size_t)(slash - path));
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(dir);
	*base = slash + 1;
	return fd;
}

/*
 * Whether the entry base of dfd is the very file or directory o
 * recorded (device, inode, birth time): a name is not an identity, and
 * the user may have put a file of theirs where a scratch file was.
 * IDENT_SAME, IDENT_GONE, IDENT_OTHER or IDENT_UNPROVEN (no identity
 * recorded) with why; -1 with errno when it cannot be looked at.
 */
static int
entry_judge(const struct statej_obj *o, int dfd, const char *base, char *why,
    size_t len)
{
	bool dir = o->kind == STATEJ_DIR;
	struct stat st;

	if (fstatat(dfd, base, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT ? IDENT_GONE : -1;
	if (!o->ident) {
		snprintf(why, len, "%s",
		    _("raidlab recorded no identity for it (a journal of an "
		      "older raidlab, or a run killed while creating it), so "
		      "nothing proves it is the run's"));
		return IDENT_UNPROVEN;
	}
	if (dir ? !S_ISDIR(st.st_mode) : !S_ISREG(st.st_mode))
		snprintf(why, len, "%s",
		    dir ? _("it is no longer a directory")
			: _("it is no longer a regular file"));
	else if ((uint64_t)st.st_dev != o->fdev ||
	    (uint64_t)st.st_ino != o->ino)
		snprintf(why, len, "%s",
		    dir ? _("it is not the directory raidlab created (another "
			    "inode, or something mounted on it)")
			: _("it is not the file raidlab created (another "
			    "inode)"));
	else if (o->btime != 0 &&
	    statej_btime(dfd, base, AT_SYMLINK_NOFOLLOW) != o->btime)
		snprintf(why, len, "%s",
		    _("it is not the one raidlab created (its inode number, "
		      "reused by a file created later)"));
	else
		return IDENT_SAME;
	return IDENT_OTHER;
}

/*
 * Open the parent of o's path and judge its entry: true when the undo
 * may go on with *dfd and *base (the very object), false when o is
 * settled (*ok: gone, or left alone with a line saying why) or failed.
 */
static bool
entry_open(struct cleaner *c, const struct statej_obj *o, int *dfd,
    const char **base, bool *ok)
{
	char why[512];
	int v;

	*ok = true;
	if ((*dfd = open_parent(o->name, base)) < 0 &&
	    (errno == ENOENT || errno == ENOTDIR))
		return false;
	v = *dfd < 0 ? -1 : entry_judge(o, *dfd, *base, why, sizeof why);
	if (v == IDENT_SAME)
		return true;
	if (v < 0) {
		say(c, _("could not check %s: %s"), o->name, strerror(errno));
		*ok = false;
	} else if (v != IDENT_GONE) {
		say(c, _("left %s alone: %s"), o->name, why);
		c->held++;
	}
	if (*dfd >= 0)
		close(*dfd);
	return false;
}

/* Detach one device; true when it is no longer ours to detach. */
static bool
detach_one(struct cleaner *c, const char *dev, const struct loopdev_file *f,
    bool *done)
{
	char b[ERR_MSG_MAX + 64];
	struct err e;
	int rc;

	err_clear(&e);
	rc = loopdev_detach(dev, f, &e);
	if (rc == 0) {
		say(c, _("detached %s (%s): ok"), dev, f->path);
		*done = true;
		return true;
	}
	if (rc == -ENXIO || rc == -ESTALE)
		return true; /* not attached, or somebody else's now */
	say(c, _("could not detach %s (%s): %s"), dev, f->path,
	    err_format(&e, b, sizeof b));
	return false;
}

static bool
undo_file(struct cleaner *c, const struct statej_obj *o)
{
	struct loopdev_file lf = { .path = o->name };
	const char *dev, *base;
	char **devs;
	bool ok;
	int dfd;

	if (!entry_open(c, o, &dfd, &base, &ok))
		return ok;
	ok = false;
	loopdev_find(&lf, &devs);
	if (backing_loop(devs) != NULL && o->ident) {
		/* attached after its loop's undo looked: a losetup the kill
		   left finishing its ioctl. Ours by the file's identity. */
		struct loopdev_file mine = { .path = o->name,
			.dev = o->fdev,
			.ino = o->ino };
		bool done = false;

		for (size_t i = 0; devs[i] != NULL; i++)
			detach_one(c, devs[i], &mine, &done);
		loopdev_list_free(devs);
		loopdev_find(&lf, &devs);
	}
	if ((dev = backing_loop(devs)) != NULL) {
		say(c, _("kept %s: it still backs %s"), o->name, dev);
	} else if (unlinkat(dfd, base, 0) == 0 || errno == ENOENT) {
		say(c, _("removed %s"), o->name);
		ok = true;
	} else {
		say(c, _("could not remove %s: %s"), o->name, strerror(errno));
	}
	loopdev_list_free(devs);
	close(dfd);
	return ok;
}

static bool
undo_dir(struct cleaner *c, const struct statej_obj *o)
{
	const char *base;
	bool ok;
	int dfd;

	if (!entry_open(c, o, &dfd, &base, &ok))
		return ok;
	ok = unlinkat(dfd, base, AT_REMOVEDIR) == 0 || errno == ENOENT;
	if (ok)
		say(c, _("removed directory %s"), o->name);
	else
		say(c, _("could not remove directory %s: %s"), o->name,
		    strerror(errno));
	close(dfd);
	return ok;
}

static bool
undo_loop(struct cleaner *c, const struct statej_obj *o)
{
	struct loopdev_file f = { .path = o->name,
		.dev = o->fdev,
		.ino = o->ino };
	bool ok = true, done = false;
	char **devs;
	size_t i;

	if (o->device != NULL) {
		ok = detach_one(c, o->device, &f, &done);
		if (!ok || done)
			return ok;
	}
	/* Never named, or its device now backs another file: find it. */
	loopdev_find(&f, &devs);
	for (i = 0; devs[i] != NULL; i++)
		ok = detach_one(c, devs[i], &f, &done) && ok;
	loopdev_list_free(devs);
	return ok;
}

/* The last non-empty line of s, into buf. */
static const char *
last_line(const char *s, char *buf, size_t len)
{
	const char *end = s + strlen(s), *p;

	while (end > s && (end[-1] == '\n' || end[-1] == ' '))
		end--;
	for (p = end; p > s && p[-1] != '\n'; p--)
		;
	snprintf(buf, len, "%.*s", (int)(end - p), p);
	return buf;
}

/* The undo lists of o as argv vectors of borrowed strings, NULL when
   malformed (free with undo_argv_free). */
static void undo_argv_free(const char ***u);

static const char ***
undo_argv(const struct statej_obj *o)
{
	size_t n = json_array_size(o->undo), i, k, m;
	const char ***u = xcalloc(n + 1, sizeof *u);

	for (i = 0; i < n; i++) {
		json_t *a = json_array_get(o->undo, i);

		m = json_array_size(a);
		u[i] = xcalloc(m + 1, sizeof *u[i]);
		for (k = 0; k < m; k++)
			if ((u[i][k] = json_string_value(
				 json_array_get(a, k))) == NULL)
				break;
		if (m == 0 || k < m) {
			undo_argv_free(u);
			return NULL;
		}
	}
	return u;
}

static void
undo_argv_free(const char ***u)
{
	for (size_t i = 0; u != NULL && u[i] != NULL; i++)
		free(u[i]);
	free(u);
}

/* " (pid 42 (sh): ...)": what holds the first path of av that a busy
   output names a holder of, or "". */
static const char *
held(const char *const *av, const char *output, char *buf, size_t len)
{
	char h[1024];

	buf[0] = '\0';
	if (!holders_busy_output(output))
		return buf;
	for (const char *const *a = av + 1; *a != NULL; a++)
		if (holders_describe(*a, h, sizeof h) > 0) {
			snprintf(buf, len, " (%s)", h);
			break;
		}
	return buf;
}

/* Run one undo command (its unproven paths already left out); true when
   it succeeded. */
static bool
run_undo(struct cleaner *c, const struct statej_obj *o, const char **av)
{
	struct exec_opts opts = { .timeout = UNDO_TIMEOUT };
	char desc[256], tail[256], hold[1100];
	struct exec_result r;
	const char *moot = NULL;
	char *line = exec_argv_string(av);
	int rc;

	rc = exec_run(av, &opts, &r);
	/* busy: tried again as a run's own teardown does (provision.c),
	   when it exited by itself (not one that timed out or was killed) */
	for (size_t k = 0; rc < 0 && o->created && k < HOLDERS_TRIES &&
	     r.status > 0 && holders_busy_output(r.output);
	     k++) {
		say(c, _("%s: %s: busy, trying again"), o->name, line);
		exec_result_done(&r);
		usleep(holders_retry_ms[k] * 1000u);
		rc = exec_run(av, &opts, &r);
	}
	if (rc < 0 && (moot = statej_undo_moot(av, r.status, r.output)) != NULL)
		rc = 0;
	if (rc == 0 && moot != NULL)
		say(c, _("%s: %s: ok: %s"), o->name, line, moot);
	else if (rc == 0)
		say(c, _("%s: %s: ok"), o->name, line);
	else
		say(c, "%s: %s: %s%s%s%s%s", o->name, line,
		    exec_result_describe(&r, desc, sizeof desc),
		    *last_line(r.output, tail, sizeof tail) ? ": " : "", tail,
		    o->created ? "" : _(" (it may never have been created)"),
		    held(av, r.output, hold, sizeof hold));
	exec_result_done(&r);
	free(line);
	return rc == 0;
}

static bool
is_block(const json_t *want)
{
	const char *kind = json_string_value(json_object_get(want, "kind"));

	return kind != NULL && strcmp(kind, "block") == 0;
}

/* Say what the judgement leaves alone, and why. */
static void
say_judged(struct cleaner *c, const struct statej_obj *o,
    const struct ident_judgement *j)
{
	for (size_t i = 0; i < j->n; i++) {
		if (j->v[i] == IDENT_OTHER || j->v[i] == IDENT_UNPROVEN)
			say(c, _("%s: left %s alone: %s"), o->name, j->paths[i],
			    j->why[i]);
		/* a device gone by itself (a loop detached): said, so that
		   its undo is not taken for forgotten */
		else if (j->v[i] == IDENT_GONE && is_block(j->want[i]))
			say(c, _("%s: nothing to undo: %s"), o->name,
			    j->why[i]);
	}
}

static bool
undo_cmds(struct cleaner *c, const struct statej_obj *o)
{
	struct ident_obj io = { .pre = o->pre,
		.post = o->post,
		.product = o->product,
		.created = o->created,
		.own_prefix = o->own_prefix };
	struct ident_judgement jd;
	const char ***u = undo_argv(o);
	bool ok = true;

	if (u == NULL) {
		say(c, _("%s: malformed undo command in the journal"), o->name);
		return false;
	}
	ident_judge(&io, (const char *const *const *)u, &jd);
	say_judged(c, o, &jd);
	if (jd.hold)
		c->held++;
	for (size_t i = 0; u[i] != NULL; i++) {
		const char **av = ident_apply(&jd, u[i]);

		if (av != NULL)
			ok = run_undo(c, o, av) && ok;
		free(av);
	}
	ident_judgement_done(&jd);
	undo_argv_free(u);
	/* Never known to be created: a failure only means it never was. */
	return ok || !o->created;
}

/* Write back what queue attributes were, on the very device they were
   found on: a loop device detached since is moot, and a name that is
   another device now is not ours to tune. */
static bool
undo_sysfs(struct cleaner *c, const struct statej_obj *o)
{
	char why[ERR_MSG_MAX];
	enum ident_verdict v;
	bool ok = true;
	size_t i;
	json_t *r;

	v = o->pre != NULL ? ident_check(o->name, o->pre, why, sizeof why)
			   : IDENT_UNPROVEN;
	if (v == IDENT_GONE)
		return true;
	if (v != IDENT_SAME) {
		if (o->pre == NULL)
			snprintf(why, sizeof why, "%s",
			    _("no identity was recorded"));
		say(c, _("left %s alone: %s"), o->name, why);
		c->held++;
		return true;
	}
	json_array_foreach(o->restore, i, r)
	{
		const char *attr = json_string_value(json_array_get(r, 0));
		const char *val = json_string_value(json_array_get(r, 1));
		char *found = NULL, *now = NULL;
		int rc;

		if (attr == NULL || val == NULL)
			continue;
		rc = blkqueue_write(NULL, o->name, attr, val, &found, &now);
		/* TRANSLATORS: device, attribute ("scheduler"), the value
		   put back, and the one it replaced */
		if (rc == 0)
			say(c, _("put back %s queue/%s: %s (was %s): ok"),
			    o->name, attr, val, found ? found : "?");
		else if (rc != -ENOENT || found != NULL) /* else: gone */
			say(c, _("could not put back %s queue/%s to %s: %s"),
			    o->name, attr, val, strerror(-rc)),
			    ok = false;
		free(found);
		free(now);
	}
	return ok || !o->created;
}

static bool
undo(struct cleaner *c, const struct statej_obj *o)
{
	switch (o->kind) {
	case STATEJ_FILE:
		return undo_file(c, o);
	case STATEJ_DIR:
		return undo_dir(c, o);
	case STATEJ_LOOP:
		return undo_loop(c, o);
	case STATEJ_CMDS:
		return undo_cmds(c, o);
	case STATEJ_SYSFS:
		return undo_sysfs(c, o);
	}
	return false;
}

/* The mount point o's undo unmounts, when that mount still stands (its
   umount failed); NULL otherwise. */
static const char *
mount_standing(const struct statej_obj *o)
{
	size_t i;
	json_t *a;

	if (o->kind != STATEJ_CMDS)
		return NULL;
	json_array_foreach(o->undo, i, a)
	{
		const char *cmd = json_string_value(json_array_get(a, 0));
		const char *mp = json_string_value(json_array_get(a, 1));

		if (cmd != NULL && strcmp(cmd, "umount") == 0 && mp != NULL &&
		    holders_mount_stands(mp))
			return mp;
	}
	return NULL;
}

/* Undo the live objects of f, newest first; true when none is left. The
   objects older than a mount that could not be unmounted lie under it
   (its filesystem, array, devices, mount point): they are left for the
   next cleanup, never wiped or detached under a mounted filesystem. */
static bool
undo_all(struct cleaner *c, struct statej_file *f, int fd, const char *path)
{
	size_t i, left = 0;
	const char *held = NULL;
	json_t *rel;

	for (i = f->n; i > 0; i--) {
		struct statej_obj *o = &f->v[i - 1];

		if (!o->live)
			continue;
		if (held != NULL) {
			left++;
			continue;
		}
		if (!undo(c, o)) {
			left++;
			if ((held = mount_standing(o)) != NULL)
				say(c,
				    _("%s is still mounted: what lies under "
				      "it is left for the next `raidlab "
				      "cleanup`"),
				    held);
			continue;
		}
		o->live = false;
		rel = json_pack("{s:s, s:i, s:s}", "op", "release", "id", o->id,
		    "by", "cleanup");
		statej_append(fd, path, rel, NULL);
	}
	c->failed += left;
	return left == 0;
}

/* Clean journal name of the state directory dfd when its process is
   gone (or with force). */
static void
clean_one(struct cleaner *c, int dfd, const char *name, const char *path)
{
	char b[ERR_MSG_MAX + 64];
	struct statej_file f;
	bool locked, running;
	struct err e;
	int fd;

	err_clear(&e);
	fd = openat(dfd, name,
	    O_RDWR | O_APPEND | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT)
		return; /* its owner removed it meanwhile */
	if (fd < 0 || statej_check_journal(fd, path, &e) < 0) {
		if (fd < 0)
			err_setf(&e, -errno, _("cannot read %s: %s"), path,
			    strerror(errno));
		say(c, "%s", err_format(&e, b, sizeof b));
		c->refused++;
		if (fd >= 0)
			close(fd);
		return;
	}
	if (statej_read_fd(fd, path, &f, NULL) < 0) {
		close(fd);
		return;
	}
	if (f.pid == getpid() && f.start == statej_proc_start(getpid()))
		goto out; /* our own: never */
	/* A live owner holds a shared lock on its journal. */
	locked = flock(fd, LOCK_EX | LOCK_NB) == 0;
	running = !locked || owner_running(&f);
	if (running && !c->force) {
		if (statej_file_live(&f) > 0)
			say(c,
			    ngettext("raidlab process %d is still running: its "
				     "%zu object was left alone (--force "
				     "undoes it)",
				"raidlab process %d is still running: its %zu "
				"objects were left alone (--force undoes "
				"them)",
				statej_file_live(&f)),
			    (int)f.pid, statej_file_live(&f));
		goto out;
	}
	if (undo_all(c, &f, fd, path))
		unlinkat(dfd, name, 0);
out:
	statej_file_done(&f);
	close(fd);
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The journal files of dir, sorted. */
static size_t
list_journals(DIR *d, const char *dir, char ***out)
{
	struct dirent *de;
	char **v = NULL;
	size_t n = 0, len;

	while ((de = readdir(d)) != NULL) {
		len = strlen(de->d_name);
		if (de->d_name[0] == '.' || len <= 8 ||
		    strcmp(de->d_name + len - 8, ".journal") != 0)
			continue;
		v = xreallocarray(v, n + 1, sizeof *v);
		v[n++] = xasprintf("%s/%s", dir, de->d_name);
	}
	if (n > 0)
		qsort(v, n, sizeof *v, cmp_str);
	*out = v;
	return n;
}

int
statej_cleanup(bool force, void (*report)(void *arg, const char *line),
    void *arg, struct err *e)
{
	struct cleaner c = { report, arg, force, 0, 0, 0 };
	const char *dir = statej_dir();
	char **paths;
	size_t i, n;
	int dfd;
	DIR *d;

	if (dir[0] != '/')
		return err_setf(e, -EINVAL,
		    _("RAIDLAB_STATE_DIR=%s: not an absolute path"), dir);
	/* Nothing in a directory somebody else may write is read. */
	if ((dfd = statej_dir_open(dir, false, e)) < 0)
		return dfd == -ENOENT ? 0 : dfd;
	if ((d = fdopendir(dfd)) == NULL) {
		close(dfd);
		return err_setf(e, -errno, _("cannot read %s: %s"), dir,
		    strerror(errno));
	}
	if (flock(dirfd(d), LOCK_EX | LOCK_NB) < 0) {
		closedir(d);
		return err_setf(e, -EBUSY,
		    _("another raidlab cleanup is running (%s is locked)"),
		    dir);
	}
	n = list_journals(d, dir, &paths);
	for (i = 0; i < n; i++) {
		clean_one(&c, dirfd(d), strrchr(paths[i], '/') + 1, paths[i]);
		free(paths[i]);
	}
	free(paths);
	closedir(d);
	if (c.held > 0)
		say(&c,
		    ngettext("%zu object was left alone, as said above: what "
			     "it names is not provably the run's any more, so "
			     "raidlab forgets it (check it by hand)",
			"%zu objects were left alone, as said above: what "
			"they name is not provably the run's any more, so "
			"raidlab forgets them (check them by hand)",
			c.held),
		    c.held);
	if (c.refused > 0)
		return err_setf(e, -EPERM,
		    ngettext("%zu state journal in %s was refused, as said "
			     "above: nothing it names was touched",
			"%zu state journals in %s were refused, as said "
			"above: nothing they name was touched",
			c.refused),
		    c.refused, dir);
	if (c.failed > 0)
		return err_setf(e, -EIO,
		    ngettext("%zu object could not be undone: it stays in "
			     "the journal in %s",
			"%zu objects could not be undone: they stay in the "
			"journals in %s",
			c.failed),
		    c.failed, dir);
	return 0;
}

static bool
argv_is(const char *const *argv, const char *a0, const char *a1, const char *a2)
{
	return argv[0] != NULL && strcmp(argv[0], a0) == 0 && argv[1] != NULL &&
	    strcmp(argv[1], a1) == 0 && argv[2] != NULL &&
	    strcmp(argv[2], a2) == 0;
}

const char *
statej_undo_moot(const char *const *argv, int status, const char *output)
{
	/* exec runs commands with LC_ALL=C: strerror is English. */
	/* btrfs-progs: "INFO: ioctl(DEV_REPLACE_CANCEL)"MNT": not
	   started", exit status 2 */
	if (argv_is(argv, "btrfs", "replace", "cancel"))
		return status == 2 && output != NULL &&
			strstr(output, "not started") != NULL
		    ? _("no replace was running (it had ended)")
		    : NULL;
	if (argv_is(argv, "btrfs", "scrub", "cancel"))
		/* btrfs-progs: "ERROR: scrub cancel failed on MNT: not
		   running", exit status 2 */
		return status == 2 && output != NULL &&
			strstr(output, "not running") != NULL
		    ? _("no scrub was running (it had ended)")
		    : NULL;
	if (!argv_is(argv, "btrfs", "device", "scan") || argv[3] == NULL ||
	    strcmp(argv[3], "--forget") != 0)
		return NULL;
	if (status != 1 || output == NULL ||
	    strstr(output, "No such file or directory") == NULL)
		return NULL;
	return _("the kernel had forgotten the device already (it does at "
		 "unmount for a one-device btrfs)");
}
