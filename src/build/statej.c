/*
 * The state journal, writing side, and reading a journal back. One
 * journal object per process, behind a mutex: any thread may record.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/afile.h"
#include "base/err.h"
#include "base/i18n.h"
#include "base/jsonx.h"
#include "base/xalloc.h"
#include "statej-int.h"
#include "statej.h"

struct statej {
	pthread_mutex_t lock;
	int refs;
	pid_t pid;
	int fd;
	char *path;
	int next_id;
	int *live; /* ids recorded and not released */
	size_t nlive, cap;
};

static pthread_mutex_t open_lock = PTHREAD_MUTEX_INITIALIZER;
static struct statej *the;

static const char *const kind_names[] = { "file", "dir", "loop", "cmds",
	"sysfs" };
#define NKINDS (sizeof kind_names / sizeof *kind_names)

const char *
statej_kind_name(enum statej_kind k)
{
	return (unsigned)k < NKINDS ? kind_names[k] : "?";
}

int
statej_kind_parse(const char *s)
{
	int i;

	for (i = 0; s != NULL && i < (int)NKINDS; i++)
		if (strcmp(s, kind_names[i]) == 0)
			return i;
	return -1;
}

const char *
statej_dir(void)
{
	const char *d = getenv("RAIDLAB_STATE_DIR");

	return d != NULL && *d != '\0' ? d : STATEJ_DIR_DEFAULT;
}

/* The fields of /proc/PID/stat after the command name, which may hold
 * spaces and parentheses: into buf, or NULL. */
static const char *
proc_stat_tail(pid_t pid, char *buf, size_t len)
{
	char path[64];
	ssize_t n;
	char *p;
	int fd;

	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return NULL;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	if ((p = strrchr(buf, ')')) == NULL || p[1] != ' ')
		return NULL;
	return p + 2;
}

char
statej_proc_state(pid_t pid)
{
	char buf[1024];
	const char *p = proc_stat_tail(pid, buf, sizeof buf);

	return p != NULL ? *p : 0;
}

uint64_t
statej_proc_start(pid_t pid)
{
	char buf[1024];
	const char *p = proc_stat_tail(pid, buf, sizeof buf);
	int field;

	/* p is field 3 (state); starttime is field 22. */
	for (field = 3; p != NULL && field < 22; field++) {
		p = strchr(p, ' ');
		if (p != NULL)
			p++;
	}
	return p != NULL ? strtoull(p, NULL, 10) : 0;
}

static double
wall_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)(ts.tv_nsec / 1000000) / 1e3;
}

int
statej_append(int fd, const char *path, json_t *o, struct err *e)
{
	size_t len, off = 0;
	ssize_t k;
	char *s;
	int rc = 0;

	json_object_set_new(o, "time", json_real(wall_now()));
	s = json_dumps(o, JSON_COMPACT);
	json_decref(o);
	if (s == NULL)
		return err_setf(e, -ENOMEM, _("%s: cannot encode a record"),
		    path);
	len = strlen(s);
	s[len++] = '\n'; /* over the NUL: written with its length */
	while (off < len) {
		k = write(fd, s + off, len - off);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0) {
			rc = -errno;
			break;
		}
		off += (size_t)k;
	}
	free(s);
	if (rc == 0 && fsync(fd) < 0)
		rc = -errno;
	if (rc < 0)
		return err_setf(e, rc,
		    _("cannot write the state journal %s: %s"), path,
		    strerror(-rc));
	return 0;
}

/* Adopt our own journal, left by an earlier statej_close() with live
 * objects: its ids go on. */
static void
adopt(struct statej *j, const struct statej_file *f)
{
	size_t i;

	for (i = 0; i < f->n; i++) {
		if (f->v[i].id >= j->next_id)
			j->next_id = f->v[i].id + 1;
		if (!f->v[i].live)
			continue;
		j->live = xreallocarray(j->live, j->nlive + 1, sizeof *j->live);
		j->live[j->nlive++] = f->v[i].id;
		j->cap = j->nlive; /* add_line() grows from here */
	}
}

/* Read the journal name in dfd into f (zeroed when it cannot). */
static void
read_at(int dfd, const char *name, const char *path, struct statej_file *f)
{
	int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);

	memset(f, 0, sizeof f[0]);
	if (fd >= 0 && statej_check_journal(fd, path, NULL) == 0)
		statej_read_fd(fd, path, f, NULL);
	if (fd >= 0)
		close(fd);
}

/*
 * Open PID.journal in the state directory dfd for appending: new, or
 * ours already, or a dead process's, moved aside first. Sets j->fd; 1
 * for a new one, 0 for ours, or -errno.
 */
static int
open_file(struct statej *j, int dfd, uint64_t start, struct err *e)
{
	const char *name = strrchr(j->path, '/') + 1;
	struct statej_file f;
	char aside[64];
	int tries;

	for (tries = 0; tries < 3; tries++) {
		j->fd = openat(dfd, name,
		    O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0600);
		if (j->fd >= 0)
			return 1;
		if (errno != EEXIST)
			break;
		read_at(dfd, name, j->path, &f);
		if (f.pid == j->pid && f.start == start && start != 0) {
			adopt(j, &f);
			statej_file_done(&f);
			j->fd = openat(dfd, name,
			    O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC);
			if (j->fd >= 0)
				return 0;
			break;
		}
		snprintf(aside, sizeof aside, "%d.%llu.journal", (int)j->pid,
		    (unsigned long long)(f.start != 0 ? f.start
						      : (uint64_t)time(NULL)));
		statej_file_done(&f);
		if (renameat(dfd, name, dfd, aside) < 0)
			break;
	}
	return err_setf(e, -errno, _("cannot create the state journal %s: %s"),
	    j->path, strerror(errno));
}

/* Write the first line: who we are. */
static int
write_open_line(struct statej *j, uint64_t start, struct err *e)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	json_t *o = json_object();

	exe[n > 0 ? n : 0] = '\0';
	json_object_set_new(o, "op", json_string("open"));
	json_object_set_new(o, "pid", json_integer(j->pid));
	json_object_set_new(o, "start", json_integer((json_int_t)start));
	json_object_set_new(o, "exe", jsonx_str(exe));
	json_object_set_new(o, "version", json_integer(STATEJ_VERSION));
	return statej_append(j->fd, j->path, o, e);
}

static void
journal_free(struct statej *j)
{
	if (j->fd >= 0)
		close(j->fd);
	pthread_mutex_destroy(&j->lock);
	free(j->live);
	free(j->path);
	free(j);
}

int
statej_open(struct statej **out, struct err *e)
{
	const char *dir = statej_dir();
	struct statej *j;
	uint64_t start;
	int rc, dfd = -1;

	*out = NULL;
	/* Undo commands name paths under it (mount points): relative ones
	   would mean another place in every process that reads them. */
	if (dir[0] != '/')
		return err_setf(e, -EINVAL,
		    _("RAIDLAB_STATE_DIR=%s: not an absolute path"), dir);
	pthread_mutex_lock(&open_lock);
	if (the != NULL && the->pid == getpid()) {
		the->refs++;
		*out = the;
		pthread_mutex_unlock(&open_lock);
		return 0;
	}
	if (the != NULL) /* our parent's, inherited through fork() */
		journal_free(the);
	the = NULL;
	j = xcalloc(1, sizeof *j);
	pthread_mutex_init(&j->lock, NULL);
	j->fd = -1;
	j->pid = getpid();
	j->refs = 1;
	j->next_id = 1;
	j->path = xasprintf("%s/%d.journal", dir, (int)j->pid);
	start = statej_proc_start(j->pid);
	if ((rc = dfd = statej_dir_open(dir, true, e)) < 0)
		goto fail;
	if ((rc = open_file(j, dfd, start, e)) < 0)
		goto fail;
	/* Held while we live: statej_cleanup() sees a live owner. */
	flock(j->fd, LOCK_SH);
	if (rc == 1) {
		if ((rc = write_open_line(j, start, e)) < 0) {
			unlink(j->path);
			goto fail;
		}
		fsync(dfd);
	}
	close(dfd);
	the = j;
	*out = j;
	pthread_mutex_unlock(&open_lock);
	return 0;
fail:
	if (dfd >= 0)
		close(dfd);
	journal_free(j);
	pthread_mutex_unlock(&open_lock);
	return rc;
}

/* Check the arguments of statej_add(). */
static int
add_check(enum statej_kind kind, const char *name,
    const char *const *const *undo, struct err *e)
{
	size_t i;

	if ((unsigned)kind > STATEJ_SYSFS || name == NULL || *name == '\0')
		return err_setf(e, -EINVAL, _("state journal: bad object"));
	if ((kind == STATEJ_CMDS) != (undo != NULL) ||
	    (undo != NULL && undo[0] == NULL))
		return err_setf(e, -EINVAL,
		    _("state journal: %s: undo commands are for 'cmds' objects "
		      "(and they need at least one)"),
		    name);
	for (i = 0; undo != NULL && undo[i] != NULL; i++)
		if (undo[i][0] == NULL || *undo[i][0] == '\0')
			return err_setf(e, -EINVAL,
			    _("state journal: %s: empty undo command"), name);
	return 0;
}

static json_t *
undo_json(const char *const *const *undo)
{
	json_t *a = json_array(), *v;
	size_t i, k;

	for (i = 0; undo[i] != NULL; i++) {
		v = json_array();
		for (k = 0; undo[i][k] != NULL; k++)
			json_array_append_new(v, jsonx_str(undo[i][k]));
		json_array_append_new(a, v);
	}
	return a;
}

/* Append the add line o (consumed) and make its id live. */
static int
add_line(struct statej *j, json_t *o, int *id, struct err *e)
{
	int rc;

	pthread_mutex_lock(&j->lock);
	json_object_set_new(o, "id", json_integer(j->next_id));
	if ((rc = statej_append(j->fd, j->path, o, e)) == 0) {
		*id = j->next_id++;
		if (j->nlive == j->cap) {
			j->cap = j->cap ? 2 * j->cap : 16;
			j->live =
			    xreallocarray(j->live, j->cap, sizeof *j->live);
		}
		j->live[j->nlive++] = *id;
	}
	pthread_mutex_unlock(&j->lock);
	return rc;
}

static json_t *
add_json(enum statej_kind kind, const char *name)
{
	json_t *o = json_object();

	json_object_set_new(o, "op", json_string("add"));
	json_object_set_new(o, "kind", json_string(statej_kind_name(kind)));
	json_object_set_new(o, "name", jsonx_str(name));
	return o;
}

int
statej_add(struct statej *j, enum statej_kind kind, const char *name,
    const char *const *const *undo, int *id, struct err *e)
{
	json_t *o;
	struct stat st;
	int rc;

	*id = -1;
	if ((rc = add_check(kind, name, undo, e)) < 0)
		return rc;
	o = add_json(kind, name);
	if (kind == STATEJ_LOOP && stat(name, &st) == 0) {
		json_object_set_new(o, "fdev",
		    json_integer((json_int_t)st.st_dev));
		json_object_set_new(o, "ino",
		    json_integer((json_int_t)st.st_ino));
	}
	if (undo != NULL)
		json_object_set_new(o, "undo", undo_json(undo));
	return add_line(j, o, id, e);
}

int
statej_add_cmds(struct statej *j, const struct statej_cmds *c, int *id,
    struct err *e)
{
	json_t *o;
	int rc;

	*id = -1;
	if ((rc = add_check(STATEJ_CMDS, c->label, c->undo, e)) < 0)
		return rc;
	o = add_json(STATEJ_CMDS, c->label);
	json_object_set_new(o, "undo", undo_json(c->undo));
	if (c->product != NULL)
		json_object_set_new(o, "product", jsonx_str(c->product));
	if (c->own_prefix != NULL)
		json_object_set_new(o, "own_prefix", jsonx_str(c->own_prefix));
	if (c->pre != NULL)
		json_object_set_new(o, "pre", json_deep_copy(c->pre));
	return add_line(j, o, id, e);
}

int
statej_add_sysfs(struct statej *j, const struct statej_sysfs *s, int *id,
    struct err *e)
{
	json_t *o;
	int rc;

	*id = -1;
	if ((rc = add_check(STATEJ_SYSFS, s->device, NULL, e)) < 0)
		return rc;
	if (!json_is_array(s->restore))
		return err_setf(e, -EINVAL, _("state journal: bad object"));
	o = add_json(STATEJ_SYSFS, s->device);
	json_object_set_new(o, "restore", json_deep_copy(s->restore));
	if (s->pre != NULL)
		json_object_set_new(o, "pre", json_deep_copy(s->pre));
	return add_line(j, o, id, e);
}

/* Index of id in j->live, or -1. Called with j->lock held. */
static ssize_t
live_index(const struct statej *j, int id)
{
	size_t i;

	for (i = 0; i < j->nlive; i++)
		if (j->live[i] == id)
			return (ssize_t)i;
	return -1;
}

/* Append fields (an object, consumed; NULL for none) with "op":op and
   "id":id, for a live id. */
static int
mark(struct statej *j, const char *op, int id, json_t *fields, struct err *e)
{
	json_t *o = fields != NULL ? fields : json_object();
	ssize_t i;
	int rc;

	pthread_mutex_lock(&j->lock);
	if ((i = live_index(j, id)) < 0) {
		pthread_mutex_unlock(&j->lock);
		json_decref(o);
		return err_setf(e, -ENOENT,
		    _("state journal: no live object %d"), id);
	}
	json_object_set_new(o, "op", json_string(op));
	json_object_set_new(o, "id", json_integer(id));
	rc = statej_append(j->fd, j->path, o, e);
	if (rc == 0 && strcmp(op, "release") == 0)
		j->live[i] = j->live[--j->nlive];
	pthread_mutex_unlock(&j->lock);
	return rc;
}

int
statej_named(struct statej *j, int id, const char *device, struct err *e)
{
	if (device == NULL || *device == '\0')
		return err_setf(e, -EINVAL, _("state journal: empty device"));
	return mark(j, "named", id,
	    json_pack("{s:o}", "device", jsonx_str(device)), e);
}

int
statej_created(struct statej *j, int id, const json_t *post, struct err *e)
{
	return mark(j, "created", id,
	    post != NULL ? json_pack("{s:o}", "post", json_deep_copy(post))
			 : NULL,
	    e);
}

int
statej_identify(struct statej *j, int id, int fd, struct err *e)
{
	struct stat st;
	int64_t bt;
	json_t *o;

	if (fstat(fd, &st) < 0)
		return err_setf(e, -errno,
		    _("state journal: cannot identify object %d: %s"), id,
		    strerror(errno));
	o = json_pack("{s:I, s:I}", "fdev", (json_int_t)st.st_dev, "ino",
	    (json_int_t)st.st_ino);
	if ((bt = statej_btime(fd, "", AT_EMPTY_PATH)) != 0)
		json_object_set_new(o, "btime", json_integer(bt));
	return mark(j, "created", id, o, e);
}

int
statej_release(struct statej *j, int id, struct err *e)
{
	return mark(j, "release", id, NULL, e);
}

size_t
statej_live(struct statej *j)
{
	size_t n;

	pthread_mutex_lock(&j->lock);
	n = j->nlive;
	pthread_mutex_unlock(&j->lock);
	return n;
}

const char *
statej_path(const struct statej *j)
{
	return j->path;
}

void
statej_close(struct statej *j)
{
	if (j == NULL)
		return;
	pthread_mutex_lock(&open_lock);
	if (j->pid != getpid() || --j->refs > 0) {
		pthread_mutex_unlock(&open_lock);
		return;
	}
	if (j->nlive == 0)
		unlink(j->path);
	if (the == j)
		the = NULL;
	journal_free(j);
	pthread_mutex_unlock(&open_lock);
}

/* ---------------------------------------------------------- reading */

static struct statej_obj *
obj_find(struct statej_file *f, json_t *o)
{
	json_int_t id = json_integer_value(json_object_get(o, "id"));
	size_t i;

	for (i = f->n; i > 0; i--)
		if (f->v[i - 1].id == id)
			return &f->v[i - 1];
	return NULL;
}

static void
obj_add(struct statej_file *f, json_t *o)
{
	int kind =
	    statej_kind_parse(json_string_value(json_object_get(o, "kind")));
	const char *name = json_string_value(json_object_get(o, "name"));
	json_t *undo = json_object_get(o, "undo");
	struct statej_obj *b;

	if (kind < 0 || name == NULL) {
		f->bad++;
		return;
	}
	f->v = xreallocarray(f->v, f->n + 1, sizeof *f->v);
	b = &f->v[f->n++];
	memset(b, 0, sizeof *b);
	b->id = (int)json_integer_value(json_object_get(o, "id"));
	b->kind = (enum statej_kind)kind;
	b->name = xstrdup(name);
	b->undo = json_is_array(undo) ? json_incref(undo) : NULL;
	b->fdev = (uint64_t)json_integer_value(json_object_get(o, "fdev"));
	b->ino = (uint64_t)json_integer_value(json_object_get(o, "ino"));
	b->product = (name = json_string_value(json_object_get(o, "product")))
	    ? xstrdup(name)
	    : NULL;
	b->own_prefix =
	    (name = json_string_value(json_object_get(o, "own_prefix")))
	    ? xstrdup(name)
	    : NULL;
	b->pre = json_incref(json_object_get(o, "pre"));
	b->restore = json_incref(json_object_get(o, "restore"));
	b->live = true;
}

static void
parse_line(struct statej_file *f, const char *line, size_t len)
{
	json_t *o = json_loadb(line, len, 0, NULL);
	const char *op = json_string_value(json_object_get(o, "op"));
	const char *dev;
	struct statej_obj *b = NULL;

	if (op == NULL) {
		f->bad++;
	} else if (strcmp(op, "open") == 0) {
		f->pid = (pid_t)json_integer_value(json_object_get(o, "pid"));
		f->start =
		    (uint64_t)json_integer_value(json_object_get(o, "start"));
		free(f->exe);
		f->exe = (dev = json_string_value(json_object_get(o, "exe")))
		    ? xstrdup(dev)
		    : NULL;
	} else if (strcmp(op, "add") == 0) {
		obj_add(f, o);
	} else if ((b = obj_find(f, o)) == NULL) {
		f->bad++;
	} else if (strcmp(op, "named") == 0) {
		dev = json_string_value(json_object_get(o, "device"));
		free(b->device);
		b->device = dev != NULL ? xstrdup(dev) : NULL;
		b->created = true;
	} else if (strcmp(op, "created") == 0) {
		b->created = true;
		if ((b->kind == STATEJ_FILE || b->kind == STATEJ_DIR) &&
		    json_is_integer(json_object_get(o, "ino"))) {
			b->ident = true;
			b->fdev = (uint64_t)json_integer_value(
			    json_object_get(o, "fdev"));
			b->ino = (uint64_t)json_integer_value(
			    json_object_get(o, "ino"));
			b->btime = (int64_t)json_integer_value(
			    json_object_get(o, "btime"));
		}
		json_decref(b->post);
		b->post = json_incref(json_object_get(o, "post"));
	} else if (strcmp(op, "release") == 0) {
		b->live = false;
	}
	json_decref(o);
}

/* The pid in a journal's file name: "DIR/4242.journal" or
 * "DIR/4242.START.journal". */
static pid_t
pid_from_name(const char *path)
{
	const char *b = strrchr(path, '/');

	return (pid_t)strtol(b != NULL ? b + 1 : path, NULL, 10);
}

int
statej_read(const char *path, struct statej_file *f, struct err *e)
{
	int fd, rc;

	memset(f, 0, sizeof *f);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return err_setf(e, -errno, _("cannot read %s: %s"), path,
		    strerror(errno));
	rc = statej_read_fd(fd, path, f, e);
	close(fd);
	return rc;
}

int
statej_read_fd(int fd, const char *path, struct statej_file *f, struct err *e)
{
	struct stat st;
	char *buf, *p, *nl;
	ssize_t n;
	size_t got = 0;

	memset(f, 0, sizeof *f);
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_size > STATEJ_READ_MAX)
		return err_setf(e, -EFBIG, _("%s: not a state journal"), path);
	buf = xmalloc((size_t)st.st_size + 1);
	while (got < (size_t)st.st_size &&
	    (n = read(fd, buf + got, (size_t)st.st_size - got)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		got += (size_t)n;
	}
	buf[got] = '\0';
	f->pid = pid_from_name(path);
	/* Whole lines only: a torn last line has no '\n'. */
	for (p = buf; (nl = memchr(p, '\n', got - (size_t)(p - buf))) != NULL;
	     p = nl + 1)
		if (nl > p)
			parse_line(f, p, (size_t)(nl - p));
	if (*p != '\0')
		f->bad++;
	free(buf);
	return 0;
}

void
statej_file_done(struct statej_file *f)
{
	size_t i;

	for (i = 0; i < f->n; i++) {
		free(f->v[i].name);
		free(f->v[i].device);
		free(f->v[i].product);
		free(f->v[i].own_prefix);
		json_decref(f->v[i].restore);
		json_decref(f->v[i].undo);
		json_decref(f->v[i].pre);
		json_decref(f->v[i].post);
	}
	free(f->v);
	free(f->exe);
	memset(f, 0, sizeof *f);
}

size_t
statej_file_live(const struct statej_file *f)
{
	size_t i, n = 0;

	for (i = 0; i < f->n; i++)
		n += f->v[i].live;
	return n;
}
