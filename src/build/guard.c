/*
 * Guards: judge the devices of a variant against the disk inventory and
 * the --yes-destroy list, and prove a set can be opened exclusively
 * before anything is wiped. Pure reads: stat, sysfs (mounted btrfs
 * members) and the inventory; never writes to a device. The names of
 * roles and the closing line of a refusal are guard-names.c's. See
 * guard.h. Any thread.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "base/err.h"
#include "base/i18n.h"
#include "base/strbuf.h"
#include "base/textsafe.h"
#include "base/xalloc.h"
#include "disk/disk.h"
#include "guard.h"

#define BTRFS_SYSFS "/sys/fs/btrfs"
#define TEXT_MAX 512

/* A path resolved to a device number (err 0), or why it could not be. */
struct resolved {
	char *path; /* the path stat saw ("/dev/NAME" for a bare name) */
	dev_t rdev;
	int err; /* 0, -ENOENT, -ENOTBLK or another negative errno */
};

/* One member of a mounted btrfs, from BTRFS_SYSFS/UUID/devices/NAME. */
struct btrfs_member {
	dev_t dev;
	char *uuid;
};

struct btrfs_members {
	struct btrfs_member *v;
	size_t n;
};

/* The state of one guard_check pass. */
struct pass {
	const struct guard_sys *sys;
	const struct disk_list *inv;
	const char *file;
	struct errlist *errs;
	size_t added;
	struct btrfs_members bt;
	struct resolved *conf; /* one per confirmed entry */
	bool *conf_used;
	size_t nconf;
};

static int
sys_stat(const struct guard_sys *sys, const char *path, struct stat *st)
{
	if (sys != NULL && sys->stat_fn != NULL)
		return sys->stat_fn(path, st);
	return stat(path, st);
}

/* Resolve name (a path, or a kernel name meaning /dev/NAME). */
static void
resolve(const struct guard_sys *sys, const char *name, struct resolved *r)
{
	struct stat st;

	r->path = strchr(name, '/') != NULL ? xstrdup(name)
					    : xasprintf("/dev/%s", name);
	r->rdev = 0;
	r->err = 0;
	if (sys_stat(sys, r->path, &st) < 0)
		r->err = errno > 0 ? -errno : -ENOENT;
	else if (!S_ISBLK(st.st_mode))
		r->err = -ENOTBLK;
	else
		r->rdev = st.st_rdev;
}

static const struct disk *
by_devnum(const struct disk_list *l, dev_t dev)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (l->v[i].major == major(dev) && l->v[i].minor == minor(dev))
			return &l->v[i];
	return NULL;
}

static const struct disk *
by_name(const struct disk_list *l, const char *name)
{
	size_t i;

	if (name == NULL)
		return NULL;
	for (i = 0; i < l->n; i++)
		if (strcmp(l->v[i].name, name) == 0)
			return &l->v[i];
	return NULL;
}

static dev_t
devnum_of(const struct disk *d)
{
	return makedev(d->major, d->minor);
}

/* The i-th partition of d (by the partitions' parent names, so lists
 * that were never linked work too), or NULL past the last. */
static const struct disk *
partition_of(const struct disk_list *l, const struct disk *d, size_t *i)
{
	for (; *i < l->n; (*i)++)
		if (l->v[*i].parent != NULL &&
		    strcmp(l->v[*i].parent, d->name) == 0)
			return &l->v[(*i)++];
	return NULL;
}

/* ---------------------------------------------------------------- btrfs */

/* "7:3" in NAME/dev under the devices directory dfd, or the device named
 * name in the inventory. */
static bool
member_devnum(const struct disk_list *inv, int dfd, const char *name,
    dev_t *out)
{
	char path[NAME_MAX + 8], buf[64];
	const struct disk *d;
	unsigned maj, min;
	ssize_t n;
	int fd;

	snprintf(path, sizeof path, "%s/dev", name);
	fd = openat(dfd, path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, buf, sizeof buf - 1);
		close(fd);
		if (n > 0) {
			buf[n] = '\0';
			if (sscanf(buf, "%u:%u", &maj, &min) == 2) {
				*out = makedev(maj, min);
				return true;
			}
		}
	}
	if ((d = by_name(inv, name)) == NULL)
		return false;
	*out = devnum_of(d);
	return true;
}

/* The members listed in the devices directory of one filesystem. */
static void
btrfs_load_fs(struct btrfs_members *m, int tfd, const char *uuid,
    const struct disk_list *inv)
{
	char sub[NAME_MAX + 16];
	struct dirent *de;
	dev_t dev;
	DIR *d;
	int fd;

	snprintf(sub, sizeof sub, "%s/devices", uuid);
	fd = openat(tfd, sub, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return; /* "features" and other non-filesystems */
	if ((d = fdopendir(fd)) == NULL) {
		close(fd);
		return;
	}
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.' ||
		    !member_devnum(inv, dirfd(d), de->d_name, &dev))
			continue;
		m->v = xreallocarray(m->v, m->n + 1, sizeof *m->v);
		m->v[m->n].dev = dev;
		m->v[m->n++].uuid = xstrdup(uuid);
	}
	closedir(d);
}

/* Every member of every mounted btrfs. The kernel lists a filesystem
 * under /sys/fs/btrfs only while it is mounted, with every device in it,
 * whereas mountinfo names one (the lowest devid, not the one mounted). */
static void
btrfs_load(struct btrfs_members *m, const char *top,
    const struct disk_list *inv)
{
	struct dirent *fe;
	DIR *t;

	if ((t = opendir(top)) == NULL)
		return;
	while ((fe = readdir(t)) != NULL)
		if (fe->d_name[0] != '.')
			btrfs_load_fs(m, dirfd(t), fe->d_name, inv);
	closedir(t);
}

static void
btrfs_done(struct btrfs_members *m)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		free(m->v[i].uuid);
	free(m->v);
}

static const char *
btrfs_uuid_of(const struct btrfs_members *m, dev_t dev)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		if (m->v[i].dev == dev)
			return m->v[i].uuid;
	return NULL;
}

/* Where the btrfs uuid is mounted, from its members' mount points. */
static const char *
btrfs_mountpoint(const struct pass *p, const char *uuid)
{
	const struct disk *d;
	size_t i;

	for (i = 0; i < p->bt.n; i++) {
		if (strcmp(p->bt.v[i].uuid, uuid) != 0)
			continue;
		d = by_devnum(p->inv, p->bt.v[i].dev);
		if (d != NULL && d->n_mountpoints > 0)
			return d->mountpoints[0];
	}
	return NULL;
}

/* "member of the mounted btrfs UUID (mounted on /mnt)" for d or, when d
 * is a whole disk, one of its partitions; false when neither is one. */
static bool
btrfs_busy(const struct pass *p, const struct disk *d, char *buf, size_t len)
{
	const struct disk *part = NULL;
	const char *uuid = btrfs_uuid_of(&p->bt, devnum_of(d)), *mnt;
	size_t i = 0;

	while (uuid == NULL && (part = partition_of(p->inv, d, &i)) != NULL)
		uuid = btrfs_uuid_of(&p->bt, devnum_of(part));
	if (uuid == NULL)
		return false;
	mnt = btrfs_mountpoint(p, uuid);
	if (part != NULL && mnt != NULL)
		snprintf(buf, len,
		    _("partition %s is a member of the mounted btrfs %s "
		      "(mounted on %s)"),
		    part->name, uuid, mnt);
	else if (part != NULL)
		snprintf(buf, len,
		    _("partition %s is a member of the mounted btrfs %s"),
		    part->name, uuid);
	else if (mnt != NULL)
		snprintf(buf, len,
		    _("member of the mounted btrfs %s (mounted on %s)"), uuid,
		    mnt);
	else
		snprintf(buf, len, _("member of the mounted btrfs %s"), uuid);
	return true;
}

/* ---------------------------------------------------------------- data */

/* "ext4 signature (label "x", UUID y)"; d->fstype is set. */
static void
signature_text(const struct disk *d, char *buf, size_t len)
{
	bool lbl = d->label != NULL && *d->label != '\0';
	/* A label is whatever the stick's owner wrote. */
	char *l = textsafe_dup(d->label, 0);

	if (lbl && d->uuid != NULL)
		snprintf(buf, len, _("%s signature (label \"%s\", UUID %s)"),
		    d->fstype, l, d->uuid);
	else if (lbl)
		snprintf(buf, len, _("%s signature (label \"%s\")"), d->fstype,
		    l);
	else if (d->uuid != NULL)
		snprintf(buf, len, _("%s signature (UUID %s)"), d->fstype,
		    d->uuid);
	else
		snprintf(buf, len, _("%s signature"), d->fstype);
	free(l);
}

/* "sdb1 (ext4 signature (...)), sdb2" into b: d's partitions. */
static size_t
partitions_text(const struct disk_list *inv, const struct disk *d,
    struct strbuf *b)
{
	const struct disk *p;
	char sig[TEXT_MAX];
	size_t i = 0, n = 0;

	while ((p = partition_of(inv, d, &i)) != NULL) {
		strbuf_add(b, n++ ? ", " : "");
		if (p->fstype != NULL) {
			signature_text(p, sig, sizeof sig);
			strbuf_printf(b, "%s (%s)", p->name, sig);
		} else {
			strbuf_add(b, p->name);
		}
	}
	return n;
}

/* What is on d, for the "has data" message: the signature with label
 * and UUID, the partition table and what its partitions hold, or the
 * inventory's reason (contents unknown, not probed). */
static void
data_text(const struct disk_list *inv, const struct disk *d, char *buf,
    size_t len)
{
	struct strbuf parts;
	size_t np;

	strbuf_init(&parts);
	np = partitions_text(inv, d, &parts);
	if (d->fstype != NULL)
		signature_text(d, buf, len);
	else if (d->pttype != NULL && np > 0)
		snprintf(buf, len, _("%s partition table with partitions %s"),
		    d->pttype, parts.s);
	else if (d->pttype != NULL)
		snprintf(buf, len, _("%s partition table"), d->pttype);
	else if (np > 0)
		snprintf(buf, len, _("partitions %s"), parts.s);
	else
		snprintf(buf, len, "%s", d->reason);
	strbuf_done(&parts);
}

/* Data: the inventory says so, or a whole disk has partitions anyway. */
static bool
has_data(const struct disk_list *inv, const struct disk *d)
{
	size_t i = 0;

	if (d->verdict == DISK_HAS_DATA)
		return true;
	return d->verdict == DISK_FREE && partition_of(inv, d, &i) != NULL;
}

/* ---------------------------------------------------------------- checks */

static void refuse(struct pass *p, int code, const struct guard_dev *g,
    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void
refuse(struct pass *p, int code, const struct guard_dev *g, const char *fmt,
    ...)
{
	char msg[ERR_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	errlist_add(p->errs, code, p->file, g != NULL ? g->line : 0,
	    g != NULL ? g->field : NULL, "%s", msg);
	p->added++;
}

/* How the user confirms, as messages name it. */
static const char *
how(const struct pass *p)
{
	return guard_confirm_name(
	    p->sys != NULL ? p->sys->confirm : GUARD_CONFIRM_OPTION);
}

/* "/dev/x", or "link (/dev/loop3)" when the lab names it otherwise. */
static const char *
shown(const char *path, const struct disk *d, char *buf, size_t len)
{
	if (d == NULL || d->path == NULL || strcmp(path, d->path) == 0)
		snprintf(buf, len, "%s", path);
	else
		snprintf(buf, len, "%s (%s)", path, d->path);
	return buf;
}

/* Is the confirmation list naming dev? Marks the entries it uses. */
static bool
is_confirmed(struct pass *p, dev_t dev)
{
	bool hit = false;
	size_t i;

	for (i = 0; i < p->nconf; i++) {
		if (p->conf[i].err == 0 && p->conf[i].rdev == dev) {
			p->conf_used[i] = true;
			hit = true;
		}
	}
	return hit;
}

/* The same device as an earlier one, or a disk and its partition. */
static bool
check_overlap(struct pass *p, const struct guard_dev *devs,
    const struct disk **ds, size_t i, const char *name)
{
	const struct disk *a = ds[i], *b;
	size_t j;

	for (j = 0; j < i; j++) {
		if ((b = ds[j]) == NULL)
			continue;
		if (a == b) {
			refuse(p, -EEXIST, &devs[i],
			    _("%s: appears twice: the same device as %s in "
			      "%s (line %d)"),
			    name, devs[j].path,
			    devs[j].field ? devs[j].field : "", devs[j].line);
			return true;
		}
		if ((a->parent != NULL && strcmp(a->parent, b->name) == 0) ||
		    (b->parent != NULL && strcmp(b->parent, a->name) == 0)) {
			refuse(p, -EEXIST, &devs[i],
			    _("%s: overlaps %s (%s, line %d): a disk and its "
			      "partitions cannot both be used"),
			    name, devs[j].path,
			    devs[j].field ? devs[j].field : "", devs[j].line);
			return true;
		}
	}
	return false;
}

/* The disk that holds /, or a partition of it: never, even confirmed. */
static bool
check_root(struct pass *p, const struct guard_dev *g, const struct disk *d,
    const char *name)
{
	const struct disk *parent = by_name(p->inv, d->parent);

	if (d->root && d->why == DISK_WHY_ROOT)
		refuse(p, -EBUSY, g, _("%s: %s: never used, not even with %s"),
		    name, d->reason, how(p));
	else if (d->root)
		refuse(p, -EBUSY, g,
		    _("%s: %s, and / lives on it: never used, not even with "
		      "%s"),
		    name, d->reason[0] ? d->reason : _("in use"), how(p));
	else if (parent != NULL && parent->root)
		refuse(p, -EBUSY, g,
		    _("%s: a partition of %s, the disk that holds /: never "
		      "used, not even with %s"),
		    name, parent->path ? parent->path : parent->name, how(p));
	else
		return false;
	return true;
}

/* Every rule for one resolved device. */
static void
check_device(struct pass *p, const struct guard_dev *g, const struct disk *d,
    const char *name)
{
	char why[TEXT_MAX];
	const char *busy = NULL;
	bool conf = is_confirmed(p, devnum_of(d));

	if (check_root(p, g, d, name))
		return;
	/* A member of a mounted btrfs is busy as the others are, and said
	   so the same way. */
	if (btrfs_busy(p, d, why, sizeof why))
		busy = why;
	else if (d->verdict == DISK_BUSY)
		busy = d->reason;
	if (busy != NULL && conf) {
		refuse(p, -EBUSY, g, _("%s: %s (%s cannot override this)"),
		    name, busy, how(p));
	} else if (busy != NULL) {
		refuse(p, -EBUSY, g, "%s: %s", name, busy);
	} else if (has_data(p->inv, d) && !conf) {
		data_text(p->inv, d, why, sizeof why);
		refuse(p, -EPERM, g,
		    _("%s: has data: %s; to destroy it, name it in %s"), name,
		    why, how(p));
	} else if (!has_data(p->inv, d) && conf) {
		refuse(p, -EINVAL, g,
		    _("%s names %s, which holds no data: remove it from %s"),
		    how(p), name, how(p));
	}
}

/* A path that cannot be used at all. */
static void
refuse_unresolved(struct pass *p, const struct guard_dev *g,
    const struct resolved *r)
{
	if (r->err == -ENOENT)
		refuse(p, -ENOENT, g, _("%s: does not exist"), g->path);
	else if (r->err == -ENOTBLK)
		refuse(p, -ENOTBLK, g, _("%s: not a block device"), g->path);
	else if (r->err < 0)
		refuse(p, r->err, g, "%s: %s", g->path, strerror(-r->err));
	else
		refuse(p, -ENODEV, g,
		    _("%s: not in the disk inventory (no such device)"),
		    g->path);
}

/* "--yes-destroy names X, which ..." for an entry that matched nothing. */
static void
refuse_confirmation(struct pass *p, const char *name, const struct resolved *r,
    bool any_variant)
{
	if (r->err == -ENOENT)
		refuse(p, -EINVAL, NULL, _("%s names %s, which does not exist"),
		    how(p), name);
	else if (r->err == -ENOTBLK)
		refuse(p, -EINVAL, NULL,
		    _("%s names %s, which is not a block device"), how(p),
		    name);
	else if (r->err < 0)
		refuse(p, -EINVAL, NULL, _("%s names %s: %s"), how(p), name,
		    strerror(-r->err));
	else if (any_variant)
		refuse(p, -EINVAL, NULL,
		    _("%s names %s, which no selected variant uses"), how(p),
		    name);
	else
		refuse(p, -EINVAL, NULL,
		    _("%s names %s, which is not in this variant"), how(p),
		    name);
}

static void
resolve_confirmed(struct pass *p, const char *const *confirmed, size_t n)
{
	size_t i;

	p->nconf = n;
	p->conf = xcalloc(n ? n : 1, sizeof *p->conf);
	p->conf_used = xcalloc(n ? n : 1, sizeof *p->conf_used);
	for (i = 0; i < n; i++)
		resolve(p->sys, confirmed[i], &p->conf[i]);
}

static void
pass_done(struct pass *p)
{
	size_t i;

	for (i = 0; i < p->nconf; i++)
		free(p->conf[i].path);
	free(p->conf);
	free(p->conf_used);
	btrfs_done(&p->bt);
}

static bool
paths_valid(const struct guard_dev *devs, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (devs[i].path == NULL || devs[i].path[0] == '\0')
			return false;
	return true;
}

int
guard_check_sys(const struct guard_sys *sys, const struct disk_list *inv,
    const struct guard_dev *devs, size_t n, const char *const *confirmed,
    size_t nconfirmed, const char *file, struct errlist *errs)
{
	struct pass p = { .sys = sys, .inv = inv, .file = file, .errs = errs };
	const struct disk **ds;
	char name[PATH_MAX + 64];
	struct resolved r;
	size_t i;

	if (!paths_valid(devs, n))
		return -EINVAL;
	btrfs_load(&p.bt,
	    sys != NULL && sys->btrfs_dir != NULL ? sys->btrfs_dir
						  : BTRFS_SYSFS,
	    inv);
	resolve_confirmed(&p, confirmed, nconfirmed);
	ds = xcalloc(n ? n : 1, sizeof *ds);
	for (i = 0; i < n; i++) {
		resolve(sys, devs[i].path, &r);
		if (r.err == 0)
			ds[i] = by_devnum(inv, r.rdev);
		free(r.path);
		if (ds[i] == NULL) {
			refuse_unresolved(&p, &devs[i], &r);
			continue;
		}
		shown(devs[i].path, ds[i], name, sizeof name);
		if (check_overlap(&p, devs, ds, i, name))
			(void)is_confirmed(&p, devnum_of(ds[i])); /* used */
		else
			check_device(&p, &devs[i], ds[i], name);
	}
	for (i = 0; i < nconfirmed; i++)
		if (!p.conf_used[i])
			refuse_confirmation(&p, confirmed[i], &p.conf[i],
			    false);
	free(ds);
	pass_done(&p);
	return p.added > 0 ? -EPERM : 0;
}

int
guard_check(const struct disk_list *inv, const struct guard_dev *devs, size_t n,
    const char *const *confirmed, size_t nconfirmed, const char *file,
    struct errlist *errs)
{
	return guard_check_sys(NULL, inv, devs, n, confirmed, nconfirmed, file,
	    errs);
}

/* ---------------------------------------------------------------- lists */

/* Does name resolve to the device of one of devs? */
static bool
names_one_of(const struct guard_dev *devs, size_t n, const struct resolved *c)
{
	struct resolved r;
	bool hit = false;
	size_t i;

	if (c->err != 0)
		return false;
	for (i = 0; i < n && !hit; i++) {
		if (devs[i].path == NULL)
			continue;
		resolve(NULL, devs[i].path, &r);
		hit = r.err == 0 && r.rdev == c->rdev;
		free(r.path);
	}
	return hit;
}

size_t
guard_confirmed_for(const struct guard_dev *devs, size_t n,
    const char *const *confirmed, size_t nconfirmed, const char **out)
{
	struct resolved c;
	size_t i, k = 0;

	for (i = 0; i < nconfirmed; i++) {
		resolve(NULL, confirmed[i], &c);
		if (names_one_of(devs, n, &c))
			out[k++] = confirmed[i];
		free(c.path);
	}
	return k;
}

int
guard_confirmed_unclaimed(const struct guard_dev *devs, size_t n,
    const char *const *confirmed, size_t nconfirmed, const char *file,
    struct errlist *errs)
{
	struct pass p = { .file = file, .errs = errs };
	struct resolved c;
	size_t i;

	for (i = 0; i < nconfirmed; i++) {
		resolve(NULL, confirmed[i], &c);
		if (!names_one_of(devs, n, &c))
			refuse_confirmation(&p, confirmed[i], &c, true);
		free(c.path);
	}
	return p.added > 0 ? -EPERM : 0;
}

char *
guard_confirmed_describe(const struct disk_list *inv,
    const char *const *confirmed, size_t nconfirmed)
{
	const struct disk *d;
	struct resolved c;
	struct strbuf b;
	size_t i, k = 0;
	char *out;

	strbuf_init(&b);
	for (i = 0; i < nconfirmed; i++) {
		resolve(NULL, confirmed[i], &c);
		d = c.err == 0 ? by_devnum(inv, c.rdev) : NULL;
		if (d != NULL && has_data(inv, d)) {
			strbuf_printf(&b, "%s%s (", k++ ? ", " : "",
			    confirmed[i]);
			if (d->fstype != NULL && d->label != NULL &&
			    *d->label != '\0') {
				strbuf_printf(&b, "%s \"", d->fstype);
				textsafe_add(&b, d->label, 0);
				strbuf_add(&b, "\")");
			} else if (d->fstype != NULL)
				strbuf_printf(&b, "%s)", d->fstype);
			else if (d->pttype != NULL)
				strbuf_printf(&b, _("%s partition table)"),
				    d->pttype);
			else
				strbuf_printf(&b, "%s)", d->reason);
		}
		free(c.path);
	}
	out = strbuf_take(&b);
	strbuf_done(&b);
	return out;
}

/* ---------------------------------------------------------------- O_EXCL */

int
guard_exclusive(const char *const *paths, size_t n, struct err *e)
{
	int *fds = xcalloc(n ? n : 1, sizeof *fds);
	size_t i, opened = 0;
	int rc = 0;

	for (i = 0; i < n; i++) {
		fds[i] = open(paths[i], O_RDONLY | O_EXCL | O_CLOEXEC);
		if (fds[i] >= 0) {
			opened++;
			continue;
		}
		rc = -errno;
		if (rc == -EBUSY)
			err_setf(e, rc,
			    _("%s is held by another process or the kernel "
			      "(open with O_EXCL failed: %s)"),
			    paths[i], strerror(EBUSY));
		else
			err_setf(e, rc, _("cannot open %s: %s"), paths[i],
			    strerror(-rc));
		break;
	}
	for (i = 0; i < opened; i++)
		close(fds[i]);
	free(fds);
	return rc;
}
