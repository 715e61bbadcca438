/*
 * Room for a lab's workloads: the data set of the selected workloads and
 * the free space of each variant's target and scratch directory (see
 * space.h), and whether the user may write there. Reads statvfs, stat
 * and access only; any thread.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "base/err.h"
#include "base/i18n.h"
#include "base/units.h"
#include "base/xalloc.h"
#include "dirtrust.h"
#include "lab/lab.h"
#include "measure/param.h"
#include "measure/workload.h"
#include "space.h"

/* ---------------------------------------------------------------- data set */

uint64_t
space_dataset(const struct lab *lab, const bool *wsel, int64_t repeats,
    bool keep)
{
	uint64_t kept = 0, largest = 0;
	int64_t n = repeats > 0 ? repeats : lab->repeats > 0 ? lab->repeats : 1;

	for (size_t i = 0; i < lab->nworkloads; i++) {
		const struct lab_workload *w = &lab->workloads[i];
		const struct param_value *k = lab_workload_param(w, "keep");
		bool stays = keep || (k != NULL && k->i != 0);
		uint64_t d;

		if ((wsel != NULL && !wsel[i]) || w->wl == NULL)
			continue;
		d = workload_dataset(w->wl, w->values, stays);
		if (stays)
			kept = workload_add(kept, workload_mul(d, (uint64_t)n));
		else if (d > largest)
			largest = d;
	}
	return workload_add(kept, largest);
}

/* ---------------------------------------------------------------- facts */

/*
 * The bytes free for the workloads on the filesystem of path, or of the
 * nearest directory above it that exists (a directory variant is made
 * by the run); that directory into where. False when none can be read.
 */
static bool
free_bytes(const char *path, uint64_t *avail, char *where, size_t len)
{
	struct statvfs sv;
	char *p = xstrdup(path), *slash;
	bool ok = false;

	for (;;) {
		if (statvfs(p[0] != '\0' ? p : "/", &sv) == 0) {
			ok = true;
			break;
		}
		if (errno != ENOENT && errno != ENOTDIR)
			break;
		if ((slash = strrchr(p, '/')) == NULL) {
			/* A relative path whose first component is gone. */
			free(p);
			p = xstrdup(".");
			ok = statvfs(p, &sv) == 0;
			break;
		}
		*slash = '\0';
	}
	if (ok) {
		uint64_t blocks = geteuid() == 0 ? sv.f_bfree : sv.f_bavail;

		*avail = workload_mul(blocks, sv.f_frsize);
		snprintf(where, len, "%s", p[0] != '\0' ? p : "/");
	}
	free(p);
	return ok;
}

/* The copies of each byte a btrfs profile keeps over n devices. */
static double
profile_copies(enum lab_profile p, unsigned n)
{
	unsigned k = lab_profile_parity(p);

	if (k == 0)
		return lab_profile_copies(p);
	return n > k ? (double)n / (n - k) : 1;
}

/* The bytes written on the members, per byte of data, for array a of n
   members: mirrors and parity count. */
static double
copies(const struct lab_array *a, unsigned n)
{
	unsigned c;

	if (a->engine == LAB_ENGINE_SINGLE)
		return 1;
	if (a->engine == LAB_ENGINE_BTRFS)
		return profile_copies(a->profile, n);
	switch (a->md_level) {
	case LAB_MD_LEVEL_1:
		return n > 0 ? n : 1;
	case LAB_MD_LEVEL_4:
	case LAB_MD_LEVEL_5:
		return n > 1 ? (double)n / (n - 1) : 1;
	case LAB_MD_LEVEL_6:
		return n > 2 ? (double)n / (n - 2) : 1;
	case LAB_MD_LEVEL_10:
		c = lab_raid10_copies(a->layout);
		return c > 0 ? c : 2;
	default:
		return 1;
	}
}

/* The top array's members: how many, how many are scratch disks. */
static unsigned
members(const struct lab_variant *v, unsigned *scratch)
{
	const struct lab_array *a = &v->array;
	size_t n = 0;

	*scratch = 0;
	if (a->nlegs > 0) {
		for (size_t i = 0; i < a->nlegs; i++) {
			const struct lab_strv *d = &a->legs[i].devices;

			for (size_t k = 0; k < d->n; k++)
				*scratch += lab_scratch_index(d->v[k]) >= 0;
			n += d->n;
		}
		return (unsigned)n;
	}
	if (lab_array_isset(a, LAB_A_DEVICES)) {
		for (size_t k = 0; k < a->devices.n; k++)
			*scratch += lab_scratch_index(a->devices.v[k]) >= 0;
		return (unsigned)a->devices.n;
	}
	n = lab_scratch_implicit(v);
	*scratch = (unsigned)n;
	return (unsigned)n;
}

/* The copies an array keeps, legs included (RAID1 over RAID0 legs and
   RAID0 over mirrors both keep 2). */
static double
variant_copies(const struct lab_variant *v, unsigned n)
{
	const struct lab_array *a = &v->array;
	double legs = 0;

	if (a->nlegs == 0)
		return copies(a, n);
	for (size_t i = 0; i < a->nlegs; i++)
		legs += copies(&a->legs[i], (unsigned)a->legs[i].devices.n);
	return copies(a, (unsigned)a->nlegs) * legs / (double)a->nlegs;
}

/*
 * Whether this user may make the run's directory in dir: write and
 * search in dir, or in the nearest directory above it that exists (the
 * run makes the rest). A directory another user left (the default lab's,
 * made by an earlier run as root) is named with its owner, rather than
 * leaving a bare EACCES to the run.
 */
static bool
writable(const char *dir, struct err *e)
{
	char *p = xstrdup(dir), *slash, o[256], me[256];
	struct stat st;
	bool ok = true;
	int err;

	while (stat(p[0] != '\0' ? p : "/", &st) < 0) {
		if ((errno != ENOENT && errno != ENOTDIR) ||
		    (slash = strrchr(p, '/')) == NULL)
			goto out; /* unreadable: the run says why */
		*slash = '\0';
	}
	/* Not a directory: the run says so. */
	if (!S_ISDIR(st.st_mode))
		goto out;
	if (p[0] == '\0') {
		free(p);
		p = xstrdup("/");
	}
	if (faccessat(AT_FDCWD, p, W_OK | X_OK, AT_EACCESS) == 0)
		goto out;
	if ((err = errno) != EACCES && err != EPERM && err != EROFS)
		goto out;
	ok = false;
	dirtrust_user(st.st_uid, o, sizeof o);
	dirtrust_user(geteuid(), me, sizeof me);
	if (err == EROFS)
		err_setf(e, -EROFS, _("%s: %s is on a read-only filesystem"),
		    dir, p);
	else if (strcmp(p, dir) != 0)
		err_setf(e, -EACCES,
		    _("%s cannot be made: %s (owned by %s) is not writable by "
		      "%s"),
		    dir, p, o, me);
	else if (st.st_uid != geteuid())
		err_setf(e, -EACCES,
		    _("%s belongs to %s and is not writable by %s: have it "
		      "removed, or use a directory of your own (%%u in a "
		      "lab's directory is your user name)"),
		    dir, o, me);
	else
		err_setf(e, -EACCES,
		    _("%s is not writable by its owner %s (mode %04o)"), dir, o,
		    (unsigned)(st.st_mode & 07777));
out:
	free(p);
	return ok;
}

/* ---------------------------------------------------------------- checks */

enum space_verdict
space_directory(const char *dir, uint64_t need, struct err *e)
{
	char where[PATH_MAX], a[UNITS_BUF], b[UNITS_BUF];
	uint64_t avail;

	if (!writable(dir, e) || !dirtrust_check(dir, e))
		return SPACE_REFUSE;
	if (need == 0 || !free_bytes(dir, &avail, where, sizeof where) ||
	    avail >= need)
		return SPACE_OK;
	err_setf(e, -ENOSPC,
	    _("%s: its filesystem (%s) has %s free, less than the %s the "
	      "workloads write there"),
	    dir, where, units_format_size(avail, a, sizeof a),
	    units_format_size(need, b, sizeof b));
	return SPACE_REFUSE;
}

/* The scratch disks of v against a data set of need bytes. */
static enum space_verdict
scratch_room(const struct lab_variant *v, const char *file, uint64_t need,
    struct err *e)
{
	const char *dir =
	    v->scratch_dir ? v->scratch_dir : LAB_SCRATCH_DIR_DEFAULT;
	char where[PATH_MAX], field[LAB_PATH_MAX];
	char a[UNITS_BUF], b[UNITS_BUF], c[UNITS_BUF], d[UNITS_BUF];
	unsigned scratch, n = members(v, &scratch);
	double k = variant_copies(v, n);
	uint64_t full =
	    workload_mul((uint64_t)v->scratch_count, v->scratch_size);
	uint64_t avail, cap = 0, raw;

	/* The array's room, when all of it is scratch disks. */
	if (v->array.nlegs == 0 && n > 0 && scratch == n)
		cap = (uint64_t)((double)n * (double)v->scratch_size / k);
	if (cap > 0 && need > cap) {
		err_set(e, -ENOSPC, file,
		    lab_variant_line(v, LAB_V_SCRATCH_SIZE),
		    lab_variant_path(v, LAB_V_SCRATCH_SIZE, field,
			sizeof field),
		    _("the workloads' data set (%s) does not fit on the array "
		      "(about %s for data on %u scratch disks of %s)"),
		    units_format_size(need, a, sizeof a),
		    units_format_size(cap, b, sizeof b), n,
		    units_format_size(v->scratch_size, c, sizeof c));
		return SPACE_REFUSE;
	}
	if (!free_bytes(dir, &avail, where, sizeof where))
		return SPACE_OK;
	if (n > 0) {
		/* need may be saturated: a double past 2^64 does not convert */
		double r = (double)need * k * scratch / n;

		raw = r >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)r;
	} else {
		raw = need;
	}
	lab_variant_path(v, LAB_V_SCRATCH_DIR, field, sizeof field);
	if (raw > avail) {
		err_set(e, -ENOSPC, file, lab_variant_line(v, LAB_V_SCRATCH),
		    field,
		    _("%s has %s free, less than the %s the workloads' data "
		      "set (%s) takes on the scratch disks"),
		    where, units_format_size(avail, a, sizeof a),
		    units_format_size(raw, b, sizeof b),
		    units_format_size(need, c, sizeof c));
		return SPACE_REFUSE;
	}
	if (full > avail) {
		err_set(e, 0, file, lab_variant_line(v, LAB_V_SCRATCH), field,
		    _("%s has %s free, less than the scratch disks' full size "
		      "(%lld x %s = %s): the sparse files could outgrow it, "
		      "and the scratch filesystem would then fail"),
		    where, units_format_size(avail, a, sizeof a),
		    (long long)v->scratch_count,
		    units_format_size(v->scratch_size, b, sizeof b),
		    units_format_size(full, d, sizeof d));
		return SPACE_WARN;
	}
	return SPACE_OK;
}

/* text has a %u (not a %%u). */
static bool
names_user(const char *text)
{
	for (const char *p = text; p != NULL && *p != '\0'; p++) {
		if (*p != '%')
			continue;
		if (*++p == 'u')
			return true;
		if (*p == '\0')
			break;
	}
	return false;
}

/*
 * A directory that %u names as this user's, made by another (in /var/tmp
 * anyone may make /var/tmp/raidlab-quick-alice first): writable or not,
 * a run there would work in somebody else's directory.
 */
static bool
own_as_named(const struct lab_variant *v, struct err *e)
{
	char o[256], me[256];
	struct stat st;

	if (!names_user(v->directory_text) || lstat(v->directory, &st) < 0 ||
	    st.st_uid == geteuid())
		return true;
	err_setf(e, -EPERM,
	    _("%s belongs to %s, but %%u makes it %s's: have it removed, or "
	      "use another directory"),
	    v->directory, dirtrust_user(st.st_uid, o, sizeof o),
	    dirtrust_user(geteuid(), me, sizeof me));
	return false;
}

enum space_verdict
space_variant(const struct lab_variant *v, const char *file, uint64_t need,
    struct err *e)
{
	char field[LAB_PATH_MAX];
	enum space_verdict r;
	struct err de;

	if (v->directory != NULL) {
		err_clear(&de);
		r = own_as_named(v, &de)
		    ? space_directory(v->directory, need, &de)
		    : SPACE_REFUSE;
		if (r == SPACE_OK)
			return r;
		err_set(e, de.code, file, lab_variant_line(v, LAB_V_DIRECTORY),
		    lab_variant_path(v, LAB_V_DIRECTORY, field, sizeof field),
		    "%s", de.msg);
		return r;
	}
	if (!lab_variant_isset(v, LAB_V_SCRATCH) || v->scratch_count <= 0)
		return SPACE_OK; /* real devices: their size is theirs */
	/* losetup attaches a scratch file by its name: nobody else may be
	   able to put another file there */
	err_clear(&de);
	if (!dirtrust_check(v->scratch_dir ? v->scratch_dir
					   : LAB_SCRATCH_DIR_DEFAULT,
		&de)) {
		err_set(e, de.code, file,
		    lab_variant_line(v, LAB_V_SCRATCH_DIR),
		    lab_variant_path(v, LAB_V_SCRATCH_DIR, field, sizeof field),
		    "%s", de.msg);
		return SPACE_REFUSE;
	}
	return scratch_room(v, file, need, e);
}

int
space_check(const struct lab *lab, const bool *vsel, const bool *wsel,
    int64_t repeats, bool keep, const char *target, struct errlist *errs,
    struct errlist *notes)
{
	uint64_t need = space_dataset(lab, wsel, repeats, keep);
	int rc = 0;
	struct err e;

	if (target != NULL) {
		err_clear(&e);
		if (space_directory(target, need, &e) == SPACE_REFUSE) {
			errlist_push(errs, &e);
			rc = -ENOSPC;
		}
		return rc;
	}
	for (size_t i = 0; i < lab->nvariants; i++) {
		if (vsel != NULL && !vsel[i])
			continue;
		err_clear(&e);
		switch (space_variant(&lab->variants[i], lab->path, need, &e)) {
		case SPACE_REFUSE:
			errlist_push(errs, &e);
			rc = -ENOSPC;
			break;
		case SPACE_WARN:
			errlist_push(notes, &e);
			break;
		case SPACE_OK:
			break;
		}
	}
	return rc;
}
