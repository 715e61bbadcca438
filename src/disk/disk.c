/*
 * The disk inventory model: list ownership, display order, lookup, and
 * the verdict rules that every front end and the builder's guards share.
 * See disk.h. Any thread, one list per thread.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "base/err.h"
#include "base/i18n.h"
#include "base/textsafe.h"
#include "base/xalloc.h"
#include "disk-usage.h"
#include "disk.h"

void
disk_list_init(struct disk_list *l)
{
	memset(l, 0, sizeof *l);
}

static void
strv_free(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static void
disk_done(struct disk *d)
{
	free(d->name);
	free(d->path);
	free(d->syspath);
	free(d->model);
	free(d->vendor);
	free(d->serial);
	free(d->transport);
	free(d->backing_file);
	free(d->parent);
	strv_free(d->partitions, d->n_partitions);
	strv_free(d->holders, d->n_holders);
	strv_free(d->slaves, d->n_slaves);
	free(d->pttype);
	free(d->fstype);
	free(d->label);
	free(d->uuid);
	strv_free(d->mountpoints, d->n_mountpoints);
	free(d->mount_fstype);
}

void
disk_list_done(struct disk_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		disk_done(&l->v[i]);
	free(l->v);
	disk_list_init(l);
}

struct disk *
disk_list_add(struct disk_list *l, const char *name)
{
	struct disk *d;

	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 32;
		l->v = xreallocarray(l->v, l->cap, sizeof *l->v);
	}
	d = &l->v[l->n++];
	memset(d, 0, sizeof *d);
	d->name = xstrdup(name);
	return d;
}

void
disk_strv_push(char ***v, size_t *n, const char *s)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (strcmp((*v)[i], s) == 0)
			return;
	*v = xreallocarray(*v, *n + 1, sizeof **v);
	(*v)[(*n)++] = xstrdup(s);
}

struct disk *
disk_list_by_devnum(struct disk_list *l, unsigned maj, unsigned min)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (l->v[i].major == maj && l->v[i].minor == min)
			return &l->v[i];
	return NULL;
}

struct disk *
disk_list_by_name(struct disk_list *l, const char *name)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (strcmp(l->v[i].name, name) == 0)
			return &l->v[i];
	return NULL;
}

/* Natural order: "loop2" before "loop10", "sda" before "sdb". */
static int
natcmp(const char *a, const char *b)
{
	while (*a != '\0' && *b != '\0') {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			unsigned long x = 0, y = 0;

			for (; isdigit((unsigned char)*a); a++)
				x = 10 * x + (unsigned long)(*a - '0');
			for (; isdigit((unsigned char)*b); b++)
				y = 10 * y + (unsigned long)(*b - '0');
			if (x != y)
				return x < y ? -1 : 1;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	return (*a != '\0') - (*b != '\0');
}

static int
disk_order(const void *pa, const void *pb)
{
	const struct disk *a = pa, *b = pb;
	const char *ka = a->parent ? a->parent : a->name;
	const char *kb = b->parent ? b->parent : b->name;
	int c = natcmp(ka, kb);

	if (c != 0)
		return c;
	if ((a->parent != NULL) != (b->parent != NULL))
		return a->parent != NULL ? 1 : -1;
	return natcmp(a->name, b->name);
}

void
disk_list_link(struct disk_list *l)
{
	size_t i;

	if (l->n > 1)
		qsort(l->v, l->n, sizeof *l->v, disk_order);
	for (i = 0; i < l->n; i++) {
		struct disk *d = &l->v[i], *p;

		if (d->parent == NULL)
			continue;
		p = disk_list_by_name(l, d->parent);
		if (p != NULL)
			disk_strv_push(&p->partitions, &p->n_partitions,
			    d->name);
	}
}

bool
disk_is_hidden(const struct disk *d)
{
	if (d->type == DISK_TYPE_LOOP && d->backing_file == NULL)
		return true;
	return strncmp(d->name, "zram", 4) == 0 ||
	    strncmp(d->name, "ram", 3) == 0;
}

const char *
disk_type_name(enum disk_type t)
{
	static const char *const names[] = {
		[DISK_TYPE_DISK] = "disk",
		[DISK_TYPE_PART] = "part",
		[DISK_TYPE_LOOP] = "loop",
		[DISK_TYPE_DM] = "dm",
		[DISK_TYPE_MD] = "md",
		[DISK_TYPE_ROM] = "rom",
	};

	return (unsigned)t < sizeof names / sizeof names[0] ? names[t] : "?";
}

const char *
disk_verdict_name(enum disk_verdict v)
{
	static const char *const names[] = {
		[DISK_FREE] = "free",
		[DISK_HAS_DATA] = "has-data",
		[DISK_BUSY] = "busy",
	};

	return (unsigned)v < sizeof names / sizeof names[0] ? names[v] : "?";
}

const char *
disk_why_name(enum disk_why w)
{
	static const char *const names[] = {
		[DISK_WHY_NONE] = "none",
		[DISK_WHY_ROOT] = "root",
		[DISK_WHY_MOUNTED] = "mounted",
		[DISK_WHY_SWAP] = "swap",
		[DISK_WHY_HELD] = "held",
		[DISK_WHY_PART_BUSY] = "partition-busy",
		[DISK_WHY_READ_ONLY] = "read-only",
		[DISK_WHY_NO_MEDIUM] = "no-medium",
		[DISK_WHY_UNKNOWN] = "unknown",
		[DISK_WHY_SIGNATURE] = "signature",
		[DISK_WHY_PTABLE] = "partition-table",
	};

	return (unsigned)w < sizeof names / sizeof names[0] ? names[w] : "?";
}

/* "md127" or "dm-0, dm-1": the holders of d, for a reason sentence. */
static const char *
holder_names(const struct disk *d, char *buf, size_t len)
{
	size_t i, off = 0;

	buf[0] = '\0';
	for (i = 0; i < d->n_holders && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s",
		    i ? ", " : "", d->holders[i]);
	return buf;
}

/* Busy for reasons of its own (not through partitions): set and true. */
static bool
judge_own_busy(struct disk *d)
{
	char b[DISK_REASON_MAX];
	size_t len = sizeof d->reason;

	d->verdict = DISK_BUSY;
	if (d->root && d->n_mountpoints > 0) {
		d->why = DISK_WHY_ROOT;
		snprintf(d->reason, len, "%s", _("holds /"));
	} else if (d->n_mountpoints > 0) {
		d->why = DISK_WHY_MOUNTED;
		snprintf(d->reason, len, _("mounted on %s"), d->mountpoints[0]);
	} else if (d->swap) {
		d->why = DISK_WHY_SWAP;
		snprintf(d->reason, len, "%s", _("active swap"));
	} else if (d->n_holders > 0) {
		d->why = DISK_WHY_HELD;
		snprintf(d->reason, len, _("held by %s"),
		    holder_names(d, b, sizeof b));
	} else {
		return false;
	}
	return true;
}

/* Busy because partition p is: set and true. */
static bool
judge_part_busy(struct disk *d, const struct disk *p)
{
	char b[DISK_REASON_MAX];
	size_t len = sizeof d->reason;

	if (p->verdict != DISK_BUSY)
		return false;
	d->verdict = DISK_BUSY;
	d->why = p->why == DISK_WHY_ROOT ? DISK_WHY_ROOT : DISK_WHY_PART_BUSY;
	switch (p->why) {
	case DISK_WHY_ROOT:
		snprintf(d->reason, len, _("partition %s holds /"), p->name);
		break;
	case DISK_WHY_MOUNTED:
		snprintf(d->reason, len, _("partition %s is mounted on %s"),
		    p->name, p->mountpoints[0]);
		break;
	case DISK_WHY_SWAP:
		snprintf(d->reason, len, _("partition %s is active swap"),
		    p->name);
		break;
	case DISK_WHY_HELD:
		snprintf(d->reason, len, _("partition %s is held by %s"),
		    p->name, holder_names(p, b, sizeof b));
		break;
	default:
		d->verdict = DISK_FREE;
		d->why = DISK_WHY_NONE;
		return false;
	}
	return true;
}

/* Not busy: what is on it, or free. */
static void
judge_contents(struct disk *d)
{
	size_t len = sizeof d->reason;

	d->verdict = DISK_HAS_DATA;
	if (d->probe == DISK_PROBE_NONE) {
		d->why = DISK_WHY_UNKNOWN;
		snprintf(d->reason, len, "%s", _("contents not probed"));
	} else if (d->probe == DISK_PROBE_FAILED) {
		d->why = DISK_WHY_UNKNOWN;
		snprintf(d->reason, len, _("contents unknown: %s"),
		    strerror(d->probe_errno));
	} else if (d->fstype != NULL && d->label != NULL && *d->label) {
		/* Anyone who formats a stick writes its label. */
		char *l = textsafe_dup(d->label, 0);

		d->why = DISK_WHY_SIGNATURE;
		snprintf(d->reason, len, _("%s signature (label '%s')"),
		    d->fstype, l);
		free(l);
	} else if (d->fstype != NULL) {
		d->why = DISK_WHY_SIGNATURE;
		snprintf(d->reason, len, _("%s signature"), d->fstype);
	} else if (d->pttype != NULL) {
		d->why = DISK_WHY_PTABLE;
		snprintf(d->reason, len, _("%s partition table"), d->pttype);
	} else if (d->n_partitions > 0) {
		d->why = DISK_WHY_PTABLE;
		snprintf(d->reason, len, "%s", _("has partitions"));
	} else {
		d->verdict = DISK_FREE;
		d->why = DISK_WHY_NONE;
		snprintf(d->reason, len, "%s", _("no signature, not in use"));
	}
}

static void
judge_one(struct disk_list *l, struct disk *d)
{
	size_t i;
	int pass;

	d->reason[0] = '\0';
	if (judge_own_busy(d))
		return;
	/* The partition that holds / names the disk's reason, if any. */
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < d->n_partitions; i++) {
			struct disk *p = disk_list_by_name(l, d->partitions[i]);

			if (p != NULL && (pass || p->why == DISK_WHY_ROOT) &&
			    judge_part_busy(d, p))
				return;
		}
	}
	if (d->root) {
		d->verdict = DISK_BUSY;
		d->why = DISK_WHY_ROOT;
		snprintf(d->reason, sizeof d->reason, "%s", _("holds /"));
	} else if (d->read_only) {
		d->verdict = DISK_BUSY;
		d->why = DISK_WHY_READ_ONLY;
		snprintf(d->reason, sizeof d->reason, "%s", _("read-only"));
	} else if (d->size == 0) {
		d->verdict = DISK_BUSY;
		d->why = DISK_WHY_NO_MEDIUM;
		snprintf(d->reason, sizeof d->reason, "%s",
		    _("no medium (size 0)"));
	} else {
		judge_contents(d);
	}
}

void
disk_list_judge(struct disk_list *l)
{
	size_t i;

	/* Partitions first: a parent's verdict depends on theirs. */
	for (i = 0; i < l->n; i++)
		if (l->v[i].parent != NULL)
			judge_one(l, &l->v[i]);
	for (i = 0; i < l->n; i++)
		if (l->v[i].parent == NULL)
			judge_one(l, &l->v[i]);
	/* A busy disk's reason says so when its FSTYPE is a bare "?". */
	for (i = 0; i < l->n; i++) {
		struct disk *d = &l->v[i];
		size_t n = strlen(d->reason);

		if (d->verdict == DISK_BUSY && d->probe == DISK_PROBE_FAILED &&
		    d->mount_fstype == NULL && n < sizeof d->reason)
			snprintf(d->reason + n, sizeof d->reason - n,
			    _("; contents unknown: %s"),
			    strerror(d->probe_errno));
	}
}

/* Mounts, swaps, loops and root; fails only when mountinfo is unreadable
 * (without it nothing could be called free). */
static int
usage_apply(struct disk_list *l, struct err *e)
{
	struct disk_mounts m;
	struct disk_swaps s;
	dev_t root;
	FILE *fp;
	int rc;

	disk_mounts_init(&m);
	fp = fopen("/proc/self/mountinfo", "re");
	if (fp == NULL)
		return err_set(e, -errno, "/proc/self/mountinfo", 0, NULL, "%s",
		    strerror(errno));
	rc = disk_mounts_parse(&m, fp, e);
	fclose(fp);
	if (rc < 0)
		goto out;
	disk_usage_apply_mounts(l, &m);
	disk_swaps_init(&s);
	fp = fopen("/proc/swaps", "re");
	if (fp != NULL) {
		if (disk_swaps_parse(&s, fp, NULL) == 0)
			disk_usage_apply_swaps(l, &s);
		fclose(fp);
	}
	disk_swaps_done(&s);
	disk_usage_apply_loops(l);
	if (disk_usage_root_dev(&m, &root))
		disk_usage_mark_root(l, root);
out:
	disk_mounts_done(&m);
	return rc;
}

#define PROBE_THREADS 8

struct probe_pool {
	struct disk_list *list;
	atomic_size_t next;
};

static void *
probe_worker(void *arg)
{
	struct probe_pool *p = arg;
	size_t i;

	while ((i = atomic_fetch_add_explicit(&p->next, 1,
		    memory_order_relaxed)) < p->list->n)
		disk_probe(&p->list->v[i]);
	return NULL;
}

/*
 * Probe every disk. Each probe waits on a few dozen small reads, mostly
 * latency (a loop device reads through a kernel worker), so a few threads
 * overlap them; each owns the disks it takes and nothing else. Falls back
 * to this thread when threads cannot be started.
 */
static void
probe_all(struct disk_list *l)
{
	struct probe_pool pool = { .list = l };
	pthread_t tid[PROBE_THREADS];
	sigset_t all, old;
	size_t n = 0, want = l->n / 4;

	atomic_init(&pool.next, 0);
	if (want > PROBE_THREADS)
		want = PROBE_THREADS;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	while (
	    n < want && pthread_create(&tid[n], NULL, probe_worker, &pool) == 0)
		n++;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	probe_worker(&pool);
	while (n > 0)
		pthread_join(tid[--n], NULL);
}

int
disk_list_scan(struct disk_list *l, unsigned flags, struct err *e)
{
	int rc;

	disk_list_done(l);
	rc = disk_list_enumerate(l, e);
	if (rc < 0)
		return rc;
	disk_list_link(l);
	if (!(flags & DISK_SCAN_NO_PROBE))
		probe_all(l);
	rc = usage_apply(l, e);
	if (rc < 0)
		return rc;
	disk_list_judge(l);
	return 0;
}

int
disk_list_scan_one(struct disk_list *l, const char *what, struct disk **out,
    struct err *e)
{
	struct disk *d, *p;
	size_t i;
	int rc;

	rc = disk_list_scan(l, DISK_SCAN_NO_PROBE, e);
	if (rc < 0)
		return rc;
	rc = disk_list_find(l, what, &d, e);
	if (rc < 0)
		return rc;
	disk_probe(d);
	if (d->parent != NULL && (p = disk_list_by_name(l, d->parent)) != NULL)
		disk_probe(p);
	for (i = 0; i < d->n_partitions; i++)
		if ((p = disk_list_by_name(l, d->partitions[i])) != NULL)
			disk_probe(p);
	disk_list_judge(l);
	*out = d;
	return 0;
}

int
disk_list_find(struct disk_list *l, const char *what, struct disk **out,
    struct err *e)
{
	char *path = NULL;
	struct stat st;
	size_t i;
	int rc;

	*out = NULL;
	if (strchr(what, '/') == NULL) {
		if ((*out = disk_list_by_name(l, what)) != NULL)
			return 0;
		what = path = xasprintf("/dev/%s", what);
	}
	if (stat(what, &st) < 0) {
		rc = err_setf(e, -errno, "%s: %s", what, strerror(errno));
		goto out;
	}
	if (!S_ISBLK(st.st_mode)) {
		rc = err_setf(e, -ENOTBLK, _("%s is not a block device"), what);
		goto out;
	}
	rc = err_setf(e, -ENOENT, _("%s: no such device in the inventory"),
	    what);
	for (i = 0; i < l->n; i++) {
		if (l->v[i].major == major(st.st_rdev) &&
		    l->v[i].minor == minor(st.st_rdev)) {
			*out = &l->v[i];
			rc = 0;
			if (e != NULL)
				err_clear(e);
			break;
		}
	}
out:
	free(path);
	return rc;
}
