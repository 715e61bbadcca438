/*
 * Cross-field validation of a loaded lab (lab_check() in lab.h): the lab
 * itself; each variant's target kind, scratch disks, the roles of devices
 * and the sizes mkfs can handle; md levels against device counts, layouts,
 * chunks, spares, bitmaps, write journals, superblocks and nested legs;
 * btrfs profiles; filesystem journals, data= modes, stripe geometry and
 * mount options. Only what is impossible or contradictory is reported,
 * every problem in one pass. Limits are those of mdadm 4.2, e2fsprogs
 * 1.47, xfsprogs 6.1 and btrfs-progs 6.2 (Debian 12), measured where the
 * comments say so. The thread that owns the lab.
 *
 * Convention: a rule that says "this key has no meaning here" fires only
 * for keys the variant wrote itself; a key inherited from `defaults` that
 * does not apply (a chunk on a RAID1 variant) is ignored, because a
 * variant cannot unset a default. Rules on a key's value fire either way.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/i18n.h"
#include "base/strmap.h"
#include "base/units.h"
#include "base/xalloc.h"
#include "figures/stats.h"
#include "lab-check.h"
#include "lab.h"
#include "measure/param.h"
#include "measure/workload.h"

/* ---------------------------------------------------------------- report */

/* Cut the other value's line from msg when it has none (0: set in the
   TUI, not read from a file), where "(line 0)" would only puzzle:
   " (line 0)" and " on line 0" go, ", line 0)" becomes ")". */
static void
drop_line0(char *msg)
{
	static const struct {
		const char *from, *to;
	} cut[] = { { " (line 0)", "" }, { ", line 0)", ")" },
		{ " on line 0", "" } };
	char *p;

	for (size_t i = 0; i < sizeof cut / sizeof cut[0]; i++)
		while ((p = strstr(msg, cut[i].from)) != NULL) {
			size_t fl = strlen(cut[i].from), tl = strlen(cut[i].to);

			memcpy(p, cut[i].to, tl);
			memmove(p + tl, p + fl, strlen(p + fl) + 1);
		}
}

static void
vadd(struct lab_chk *c, int line, const char *field, const char *fmt,
    va_list ap)
{
	char msg[ERR_MSG_MAX];

	vsnprintf(msg, sizeof msg, fmt, ap);
	drop_line0(msg);
	errlist_add(c->errs, -EINVAL, c->lab->path, line, field, "%s", msg);
	c->nerr++;
}

void
lab_chk_add(struct lab_chk *c, int line, const char *field, const char *fmt,
    ...)
{
	va_list ap;

	va_start(ap, fmt);
	vadd(c, line, field, fmt, ap);
	va_end(ap);
}

void
lab_chk_variant(struct lab_chk *c, const struct lab_variant *v,
    enum lab_v_field f, const char *fmt, ...)
{
	char p[LAB_PATH_MAX];
	va_list ap;

	va_start(ap, fmt);
	vadd(c, lab_variant_line(v, f),
	    lab_variant_path(v, (int)f, p, sizeof p), fmt, ap);
	va_end(ap);
}

void
lab_chk_array(struct lab_chk *c, const struct lab_variant *v,
    const struct lab_array *a, enum lab_a_field f, const char *fmt, ...)
{
	char p[LAB_PATH_MAX];
	va_list ap;

	va_start(ap, fmt);
	vadd(c, lab_array_line(a, f), lab_array_path(v, a, (int)f, p, sizeof p),
	    fmt, ap);
	va_end(ap);
}

void
lab_chk_fs(struct lab_chk *c, const struct lab_variant *v, enum lab_f_field f,
    const char *fmt, ...)
{
	char p[LAB_PATH_MAX];
	va_list ap;

	va_start(ap, fmt);
	vadd(c, lab_fs_line(&v->fs, f), lab_fs_path(v, (int)f, p, sizeof p),
	    fmt, ap);
	va_end(ap);
}

bool
lab_chk_array_own(const struct lab_array *a, enum lab_a_field f)
{
	return lab_array_isset(a, f) && !lab_array_inherited(a, f);
}

bool
lab_chk_fs_own(const struct lab_fs *fs, enum lab_f_field f)
{
	return lab_fs_isset(fs, f) && !lab_fs_inherited(fs, f);
}

bool
lab_chk_path(struct lab_chk *c, int line, const char *field, const char *path,
    bool dir)
{
	size_t len = strlen(path), max = dir ? LAB_CHK_DIR_MAX : PATH_MAX - 1;
	size_t n, cut;
	const char *p = path;

	if (len > max) {
		if (dir)
			lab_chk_add(c, line, field,
			    _("the path is %zu bytes long: a directory raidlab "
			      "makes files in has at most %zu (PATH_MAX is %d, "
			      "less room for a file name)"),
			    len, max, PATH_MAX);
		else
			lab_chk_add(c, line, field,
			    _("the path is %zu bytes long: at most %zu "
			      "(PATH_MAX "
			      "is %d)"),
			    len, max, PATH_MAX);
		return false;
	}
	for (p += strspn(p, "/"); *p != '\0'; p += strspn(p, "/")) {
		n = strcspn(p, "/");
		if (n > NAME_MAX) {
			/* The start of it, not cut inside a UTF-8 sequence. */
			cut = 24;
			while (
			    cut > 0 && ((unsigned char)p[cut] & 0xc0) == 0x80)
				cut--;
			lab_chk_add(c, line, field,
			    _("'%.*s...' is a path component of %zu bytes: a "
			      "file or directory name has at most %d "
			      "(NAME_MAX)"),
			    (int)cut, p, n, NAME_MAX);
			return false;
		}
		p += n;
	}
	return true;
}

bool
lab_chk_pow2(uint64_t x)
{
	return x != 0 && (x & (x - 1)) == 0;
}

const char *
lab_chk_size(uint64_t bytes, char *buf)
{
	return units_format_exact(bytes, buf, UNITS_BUF);
}

/* ---------------------------------------------------------------- roles */

/* One use of a device in a variant: as a member, spare, journal... */
struct role {
	const char *dev;
	char field[LAB_PATH_MAX]; /* full path, for the message field */
	const char *key; /* field relative to the variant */
	int line;
};

struct roles {
	struct role *v;
	size_t n, cap;
};

static void
role_add(struct roles *r, const struct lab_variant *v,
    const struct lab_array *a, int af, int ff, const char *dev)
{
	char pre[LAB_PATH_MAX];
	struct role *x;
	size_t k;

	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 16;
		r->v = xreallocarray(r->v, r->cap, sizeof *r->v);
	}
	x = &r->v[r->n++];
	x->dev = dev;
	if (a != NULL) {
		lab_array_path(v, a, af, x->field, sizeof x->field);
		x->line = lab_array_line(a, (enum lab_a_field)af);
	} else {
		lab_fs_path(v, ff, x->field, sizeof x->field);
		x->line = lab_fs_line(&v->fs, (enum lab_f_field)ff);
	}
	lab_variant_path(v, -1, pre, sizeof pre);
	k = strlen(pre);
	x->key = strncmp(x->field, pre, k) == 0 && x->field[k] == '.'
	    ? x->field + k + 1
	    : x->field;
}

static void
roles_of_array(struct roles *r, const struct lab_variant *v,
    const struct lab_array *a)
{
	size_t i;

	for (i = 0; i < a->devices.n; i++)
		role_add(r, v, a, LAB_A_DEVICES, -1, a->devices.v[i]);
	for (i = 0; i < a->spares.n; i++)
		role_add(r, v, a, LAB_A_SPARES, -1, a->spares.v[i]);
	if (a->journal != NULL)
		role_add(r, v, a, LAB_A_JOURNAL, -1, a->journal);
	for (i = 0; i < a->nlegs; i++)
		roles_of_array(r, v, &a->legs[i]);
}

static void
roles_collect(struct roles *r, const struct lab_variant *v)
{
	const struct lab_fs *fs = &v->fs;

	roles_of_array(r, v, &v->array);
	if (fs->journal == LAB_JOURNAL_DEVICE && fs->journal_device != NULL)
		role_add(r, v, NULL, -1, LAB_F_JOURNAL_DEVICE,
		    fs->journal_device);
	else if (fs->journal == LAB_JOURNAL_ARRAY && fs->journal_array != NULL)
		roles_of_array(r, v, fs->journal_array);
}

/* A device path or scratch:N that exists in this variant. */
static bool
role_device_ok(struct lab_chk *c, const struct lab_variant *v,
    const struct role *x)
{
	int k = lab_scratch_index(x->dev);
	long long n = v->scratch_count;

	if (k < 0 && strncmp(x->dev, "/dev/", 5) != 0) {
		lab_chk_add(c, x->line, x->field,
		    _("%s is not a device: give "
		      "a path under /dev or scratch:N"),
		    x->dev);
		return false;
	}
	if (k < 0)
		return true;
	if (!lab_variant_isset(v, LAB_V_SCRATCH)) {
		lab_chk_add(c, x->line, x->field,
		    _("%s names a scratch disk, "
		      "but the variant has no scratch group"),
		    x->dev);
		return false;
	}
	if (k >= n) {
		lab_chk_add(c, x->line, x->field,
		    _("%s is out of range: "
		      "scratch.count is %lld (line %d), so scratch:0 to "
		      "scratch:%lld exist"),
		    x->dev, n, lab_variant_line(v, LAB_V_SCRATCH_COUNT), n - 1);
		return false;
	}
	return true;
}

/*
 * Every device of a variant has one role. Returns how many distinct
 * scratch disks are named explicitly (the rest go to omitted devices).
 */
static long
check_roles(struct lab_chk *c, const struct lab_variant *v)
{
	struct roles r = { NULL, 0, 0 };
	long scratch = 0;
	size_t i, j;

	roles_collect(&r, v);
	for (i = 0; i < r.n; i++) {
		if (!role_device_ok(c, v, &r.v[i]))
			continue;
		for (j = 0; j < i; j++)
			if (strcmp(r.v[i].dev, r.v[j].dev) == 0)
				break;
		if (j < i) {
			lab_chk_add(c, r.v[i].line, r.v[i].field,
			    _("%s is "
			      "already used in %s (line %d): a device can have "
			      "only one role"),
			    r.v[i].dev, r.v[j].key, r.v[j].line);
			continue;
		}
		if (lab_scratch_index(r.v[i].dev) >= 0)
			scratch++;
	}
	free(r.v);
	return scratch;
}

/* ---------------------------------------------------------------- sizes */

/* Every member of the variant's array is a scratch disk. */
static bool
all_scratch(const struct lab_array *a, long implicit)
{
	size_t i;

	if (a->nlegs > 0)
		return false;
	if (!lab_array_isset(a, LAB_A_DEVICES))
		return implicit > 0;
	for (i = 0; i < a->devices.n; i++)
		if (lab_scratch_index(a->devices.v[i]) < 0)
			return false;
	return a->devices.n > 0;
}

static void
sizes_btrfs(struct lab_chk *c, const struct lab_variant *v, size_t n)
{
	const struct lab_array *a = &v->array;
	enum lab_profile m = a->metadata_profile;
	char b[UNITS_BUF], b2[UNITS_BUF];
	uint64_t need;

	if (!lab_array_isset(a, LAB_A_METADATA_PROFILE))
		m = n > 1 ? LAB_PROFILE_RAID1 : LAB_PROFILE_DUP;
	need = a->profile != LAB_PROFILE_SINGLE && m != LAB_PROFILE_SINGLE
	    ? BTRFS_MIN_DEV_RAID
	    : BTRFS_MIN_DEV;
	if (v->scratch_size < need)
		lab_chk_variant(c, v, LAB_V_SCRATCH_SIZE,
		    _("scratch disks of "
		      "%s are too small for btrfs data %s, metadata %s: "
		      "mkfs.btrfs 6.2 needs %s per device"),
		    lab_chk_size(v->scratch_size, b),
		    lab_profile_name(a->profile), lab_profile_name(m),
		    lab_chk_size(need, b2));
}

/* Filesystems mkfs refuses to make that small. */
static void
check_sizes(struct lab_chk *c, const struct lab_variant *v, long implicit)
{
	const struct lab_array *a = &v->array;
	const struct lab_fs *fs = &v->fs;
	size_t n = lab_chk_members(a, implicit);
	char b[UNITS_BUF], b2[UNITS_BUF];
	uint64_t cap;

	if (v->scratch_size == 0 || !lab_variant_isset(v, LAB_V_SCRATCH_SIZE))
		return;
	if (fs->type == LAB_FS_XFS && a->engine != LAB_ENGINE_BTRFS &&
	    fs->journal == LAB_JOURNAL_DEVICE &&
	    lab_scratch_index(fs->journal_device) >= 0 &&
	    v->scratch_size < XFS_MIN_LOG)
		lab_chk_fs(c, v, LAB_F_JOURNAL_DEVICE,
		    _("%s holds %s, but "
		      "xfs refuses a log smaller than 64M (xfsprogs 6.1)"),
		    fs->journal_device, lab_chk_size(v->scratch_size, b));
	if (!all_scratch(a, implicit))
		return;
	if (a->engine == LAB_ENGINE_BTRFS) {
		sizes_btrfs(c, v, n);
		return;
	}
	cap = lab_chk_capacity(a, n, v->scratch_size);
	if (cap == 0)
		return;
	if (fs->type == LAB_FS_XFS && cap < XFS_MIN_DATA)
		lab_chk_variant(c, v, LAB_V_SCRATCH_SIZE,
		    _("the array holds "
		      "%s on scratch disks of %s, but xfs needs at least 300M "
		      "(xfsprogs 6.1)"),
		    lab_chk_size(cap, b), lab_chk_size(v->scratch_size, b2));
	else if (fs->type == LAB_FS_BTRFS && cap < BTRFS_MIN_DEV)
		lab_chk_variant(c, v, LAB_V_SCRATCH_SIZE,
		    _("the array holds "
		      "%s on scratch disks of %s, but mkfs.btrfs 6.2 needs at "
		      "least 109M"),
		    lab_chk_size(cap, b), lab_chk_size(v->scratch_size, b2));
}

/* ---------------------------------------------------------------- variant */

static void
check_directory(struct lab_chk *c, const struct lab_variant *v)
{
	char p[LAB_PATH_MAX];

	if (v->directory[0] != '/')
		lab_chk_variant(c, v, LAB_V_DIRECTORY,
		    _("%s is not an "
		      "absolute path"),
		    v->directory_text ? v->directory_text : v->directory);
	else
		lab_chk_path(c, lab_variant_line(v, LAB_V_DIRECTORY),
		    lab_variant_path(v, LAB_V_DIRECTORY, p, sizeof p),
		    v->directory, true);
	if (lab_variant_isset(v, LAB_V_SCRATCH) &&
	    !lab_variant_inherited(v, LAB_V_SCRATCH))
		lab_chk_variant(c, v, LAB_V_SCRATCH,
		    _("scratch disks are for "
		      "arrays: a directory variant builds nothing on them"));
	if (lab_variant_isset(v, LAB_V_FS) &&
	    !lab_variant_inherited(v, LAB_V_FS))
		lab_chk_variant(c, v, LAB_V_FS,
		    _("a directory variant builds "
		      "no filesystem: the directory's own is tested, fs has no "
		      "effect"));
}

static void
check_array_variant(struct lab_chk *c, const struct lab_variant *v)
{
	const struct lab_array *a = &v->array;
	long implicit = -1, named;
	char p[LAB_PATH_MAX];

	if (v->scratch_dir != NULL && v->scratch_dir[0] != '/')
		lab_chk_variant(c, v, LAB_V_SCRATCH_DIR,
		    _("%s is not an "
		      "absolute path"),
		    v->scratch_dir);
	else if (v->scratch_dir != NULL)
		lab_chk_path(c, lab_variant_line(v, LAB_V_SCRATCH_DIR),
		    lab_variant_path(v, LAB_V_SCRATCH_DIR, p, sizeof p),
		    v->scratch_dir, true);
	/* scratch.c makes each disk a sparse file of this size. */
	if (lab_variant_isset(v, LAB_V_SCRATCH) &&
	    !lab_variant_isset(v, LAB_V_SCRATCH_SIZE))
		lab_chk_variant(c, v, LAB_V_SCRATCH,
		    _("scratch has no size: add "
		      "size = \"1G\" (each scratch disk is a sparse file "
		      "of that size)"));
	else if (lab_variant_isset(v, LAB_V_SCRATCH) &&
	    (v->scratch_size == 0 || v->scratch_size % 512 != 0))
		lab_chk_variant(c, v, LAB_V_SCRATCH_SIZE,
		    _("%" PRIu64 " bytes "
		      "is not a whole number of 512-byte sectors"),
		    v->scratch_size);
	named = check_roles(c, v);
	if (lab_variant_isset(v, LAB_V_SCRATCH) &&
	    !lab_array_isset(a, LAB_A_DEVICES) && a->nlegs == 0) {
		implicit = (long)v->scratch_count - named;
		if (implicit < 0)
			implicit = 0;
	}
	lab_chk_check_array(c, v, a, LAB_CHK_TOP, implicit);
	lab_chk_check_fs(c, v);
	check_sizes(c, v, implicit);
}

/* The member queue keys: a scheduler name as the kernel spells one
   (whether a member offers it is known only on the machine that builds),
   and neither on a directory variant, whose disks raidlab leaves alone. */
static void
check_queue(struct lab_chk *c, const struct lab_variant *v, bool dir)
{
	static const enum lab_v_field keys[] = { LAB_V_SCHEDULER,
		LAB_V_NR_REQUESTS };
	const char *s = v->scheduler;

	for (size_t i = 0; dir && i < sizeof keys / sizeof *keys; i++)
		if (lab_variant_isset(v, keys[i]) &&
		    !lab_variant_inherited(v, keys[i]))
			lab_chk_variant(c, v, keys[i],
			    _("a directory variant builds nothing: its "
			      "members' queues are not raidlab's to set"));
	if (!lab_variant_isset(v, LAB_V_SCHEDULER) || s == NULL)
		return;
	if (*s == '\0' || strlen(s) > 31 ||
	    strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789-_") != strlen(s))
		lab_chk_variant(c, v, LAB_V_SCHEDULER,
		    _("'%s' is not an I/O scheduler's name (the kernel's "
		      "names: none, mq-deadline, bfq, kyber)"),
		    s);
}

static void
check_variant(struct lab_chk *c, const struct lab_variant *v)
{
	bool dir =
	    v->directory != NULL && lab_variant_isset(v, LAB_V_DIRECTORY);
	bool arr = lab_variant_isset(v, LAB_V_ARRAY);
	bool dir_own = dir && !lab_variant_inherited(v, LAB_V_DIRECTORY);
	bool arr_own = arr && !lab_variant_inherited(v, LAB_V_ARRAY);
	char p[LAB_PATH_MAX];

	if (dir && arr && dir_own == arr_own)
		lab_chk_variant(c, v, LAB_V_DIRECTORY,
		    _("a variant has one "
		      "target: this directory or the array on line %d, not "
		      "both"),
		    lab_variant_line(v, LAB_V_ARRAY));
	else if (!dir && !arr)
		lab_chk_add(c, v->line, lab_variant_path(v, -1, p, sizeof p),
		    _("no target: give directory (an existing directory to "
		      "test) or array (devices to build on)"));
	else if (dir && (!arr || (dir_own && !arr_own)))
		check_directory(c, v);
	else
		check_array_variant(c, v);
	if (lab_variant_isset(v, LAB_V_READAHEAD) &&
	    (v->readahead == 0 || v->readahead % 512 != 0))
		lab_chk_variant(c, v, LAB_V_READAHEAD,
		    _("readahead must be a "
		      "positive multiple of 512 bytes (blockdev --setra counts "
		      "512-byte sectors)"));
	check_queue(c, v, dir && (!arr || (dir_own && !arr_own)));
}

/* ---------------------------------------------------------------- lab */

/* Names used twice: one lookup per entry, so a lab of 100 000 workloads
   is checked in linear time. */
static void
check_names(struct lab_chk *c, const struct lab *lab)
{
	char p[LAB_PATH_MAX];
	struct strmap names;
	size_t i, j;

	strmap_init(&names);
	for (i = 0; i < lab->nvariants; i++) {
		const struct lab_variant *v = &lab->variants[i];

		if (v->name == NULL || strmap_add(&names, v->name, i, &j))
			continue;
		lab_chk_variant(c, v, LAB_V_NAME,
		    _("variant name %s is already used on line %d"), v->name,
		    lab_variant_line(&lab->variants[j], LAB_V_NAME));
	}
	strmap_done(&names);
	strmap_init(&names);
	for (i = 0; i < lab->nworkloads; i++) {
		const struct lab_workload *w = &lab->workloads[i];

		if (w->name == NULL || strmap_add(&names, w->name, i, &j))
			continue;
		lab_chk_add(c, lab_workload_line(w, LAB_W_NAME),
		    lab_workload_path(w, "name", p, sizeof p),
		    _("workload name %s is already used on line %d"), w->name,
		    lab_workload_line(&lab->workloads[j], LAB_W_NAME));
	}
	strmap_done(&names);
}

/* A lab built in memory (the editor, --scale) keeps to what a file may
   say about its rounds. */
static void
check_rounds(struct lab_chk *c, const struct lab *lab)
{
	int line = lab_line(lab, LAB_L_REPEATS);
	const char *key = lab_key(LAB_L_REPEATS);

	if (lab->repeats > 1000)
		lab_chk_add(c, line, key, _("at most 1000 rounds, got %lld"),
		    (long long)lab->repeats);
	if (lab_repeats_range(lab) &&
	    (lab->repeats_min < 1 || lab->repeats_min > lab->repeats))
		lab_chk_add(c, line, key,
		    _("min = %lld must be from 1 to max = %lld"),
		    (long long)lab->repeats_min, (long long)lab->repeats);
	if (lab->repeats_ci < 0 || lab->repeats_ci >= LAB_PERCENT_MAX)
		lab_chk_add(c, line, key,
		    _("ci must be more than 0%% and less than 100%%"));
	if (lab->cv_limit <= 0 || lab->cv_limit >= LAB_PERCENT_MAX)
		lab_chk_add(c, lab_line(lab, LAB_L_CV_LIMIT),
		    lab_key(LAB_L_CV_LIMIT),
		    _("must be more than 0%% and less than 100%%"));
	if (lab->equivalence <= 0 || lab->equivalence >= LAB_PERCENT_MAX)
		lab_chk_add(c, lab_line(lab, LAB_L_EQUIVALENCE),
		    lab_key(LAB_L_EQUIVALENCE),
		    _("must be more than 0%% and less than 100%%"));
	if (lab->test < 0 || lab->test >= STATS_TEST__COUNT)
		lab_chk_add(c, lab_line(lab, LAB_L_TEST), lab_key(LAB_L_TEST),
		    _("not a test: log, welch or rank"));
}

static void
check_lab(struct lab_chk *c, const struct lab *lab)
{
	const char *r = lab->results;

	if (lab->name == NULL)
		lab_chk_add(c, lab_line(lab, LAB_L_NAME), lab_key(LAB_L_NAME),
		    _("the lab has no name: add name = \"...\" (letters, "
		      "digits, '.', '_' and '-')"));
	if (lab->nvariants == 0)
		lab_chk_add(c, lab_line(lab, LAB_L_VARIANTS),
		    lab_key(LAB_L_VARIANTS),
		    _("the lab has no variants: "
		      "add at least one storage set-up to test"));
	if (lab->repeats < 1)
		lab_chk_add(c, lab_line(lab, LAB_L_REPEATS),
		    lab_key(LAB_L_REPEATS),
		    _("repeats must be at least 1, "
		      "got %lld"),
		    (long long)lab->repeats);
	check_rounds(c, lab);
	if (r != NULL && r[0] != '/' &&
	    !(r[0] == '~' && (r[1] == '/' || r[1] == '\0')))
		lab_chk_add(c, lab_line(lab, LAB_L_RESULTS),
		    lab_key(LAB_L_RESULTS),
		    _("%s is neither an absolute path "
		      "nor under ~/"),
		    r);
	else if (r != NULL)
		lab_chk_path(c, lab_line(lab, LAB_L_RESULTS),
		    lab_key(LAB_L_RESULTS), r, true);
	check_names(c, lab);
}

/* ---------------------------------------------------------------- workloads */

/* A parameter's value as a number (int or size); false when it has none
   (auto, another kind). */
static bool
param_num(const struct param *p, const struct param_value *v, uint64_t *out)
{
	if (v->is_auto)
		return false;
	if (p->kind == PARAM_SIZE)
		*out = v->size;
	else if (p->kind == PARAM_INT && v->i >= 0)
		*out = (uint64_t)v->i;
	else
		return false;
	return true;
}

/* The workload's own rule between parameters (workload.check). */
static void
check_workload_rule(struct lab_chk *c, const struct lab_workload *w)
{
	char field[ERR_FIELD_MAX], msg[ERR_MSG_MAX];
	const char *param = NULL;
	int k;

	if (w->wl->check == NULL || w->nvalues != param_count(w->wl->params) ||
	    !w->wl->check(w->values, &param, msg, sizeof msg))
		return;
	k = param != NULL ? param_index(w->wl->params, param) : -1;
	lab_workload_path(w, param, field, sizeof field);
	lab_chk_add(c, k >= 0 && w->values[k].set ? w->values[k].line : w->line,
	    field, "%s", msg);
}

/* Parameters bounded by another (workload.bounds), with the defaults: a
   run would refuse them only once it started. */
static void
check_workload(struct lab_chk *c, const struct lab_workload *w)
{
	const struct param *ps = w->wl->params;
	char field[ERR_FIELD_MAX];

	check_workload_rule(c, w);

	for (const struct param_bound *pb = w->wl->bounds;
	     pb != NULL && pb->param != NULL; pb++) {
		int k = param_index(ps, pb->param),
		    o = param_index(ps, pb->at_most);
		char *a, *b;
		uint64_t x, y;

		if (k < 0 || o < 0 || (size_t)k >= w->nvalues ||
		    (size_t)o >= w->nvalues ||
		    !param_num(&ps[k], &w->values[k], &x) ||
		    !param_num(&ps[o], &w->values[o], &y) || x <= y)
			continue;
		a = param_value_format(&ps[k], &w->values[k]);
		b = param_value_format(&ps[o], &w->values[o]);
		lab_workload_path(w, ps[w->values[k].set ? k : o].name, field,
		    sizeof field);
		lab_chk_add(c,
		    w->values[k].set       ? w->values[k].line
			: w->values[o].set ? w->values[o].line
					   : w->line,
		    field, _("%s = %s is more than %s = %s%s"), ps[k].name, a,
		    ps[o].name, b, w->values[o].set ? "" : _(" (its default)"));
		free(a);
		free(b);
	}
}

int
lab_check(const struct lab *lab, struct errlist *errs)
{
	struct lab_chk c = { lab, errs, 0 };
	size_t i;

	check_lab(&c, lab);
	for (i = 0; i < lab->nvariants; i++)
		check_variant(&c, &lab->variants[i]);
	for (i = 0; i < lab->nworkloads; i++)
		check_workload(&c, &lab->workloads[i]);
	lab_chk_hosts(&c);
	return c.nerr > 0 ? -EINVAL : 0;
}
