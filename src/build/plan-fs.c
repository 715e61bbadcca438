/*
 * Plan builder, filesystem part: mkfs with its external journal or log
 * and its stripe geometry, the mount point and mount, readahead, and the
 * commands whose output records what was built. See plan.h. Thread of
 * the caller.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/i18n.h"
#include "base/strbuf.h"
#include "base/units.h"
#include "base/xalloc.h"
#include "lab/lab.h"
#include "plan-int.h"

/* raidlab makes ext filesystems with 4K blocks: the geometry's unit, and
   an external journal must match the filesystem's block size. */
#define EXT_BLOCK 4096

static char **
argv_of(const char *a0, const char *a1, const char *a2, const char *a3)
{
	struct av v = { 0 };

	av_add(&v, a0);
	if (a1 != NULL)
		av_add(&v, a1);
	if (a2 != NULL)
		av_add(&v, a2);
	if (a3 != NULL)
		av_add(&v, a3);
	return av_take(&v);
}

/* An undo list of one command. */
static char ***
undo_one(char **argv)
{
	struct undo u = { 0 };

	undo_add(&u, argv);
	return undo_take(&u);
}

static bool
is_ext(enum lab_fs_type t)
{
	return t == LAB_FS_EXT2 || t == LAB_FS_EXT3 || t == LAB_FS_EXT4;
}

/* -E stride=,stripe-width= per the lab's geometry; sets p->geometry. */
static void
ext_geometry(struct pb *b, struct av *c)
{
	const struct lab_fs *fs = &b->v->fs;
	const struct geom *g = &b->p->geom;
	uint64_t st = 0, sw = 0;
	bool rule = geom_ext(g, EXT_BLOCK, &st, &sw);
	char *s = NULL;

	if (fs->geometry == LAB_GEOMETRY_EXT) {
		av_addf(c, "-E");
		av_addf(c, "stride=%" PRId64 ",stripe-width=%" PRId64,
		    fs->stride, fs->stripe_width);
		if (rule &&
		    ((uint64_t)fs->stride != st ||
			(uint64_t)fs->stripe_width != sw))
			s = xasprintf(
			    _("stride=%" PRId64 ", stripe-width=%" PRId64
			      " as the lab says; the rule gives stride=%" PRIu64
			      ", stripe-width=%" PRIu64 " (%s, 4K blocks)"),
			    fs->stride, fs->stripe_width, st, sw, g->rule);
		else
			s = xasprintf(_("stride=%" PRId64
					", stripe-width=%" PRId64
					" as the lab says (%s)"),
			    fs->stride, fs->stripe_width, g->rule);
	} else if (fs->geometry == LAB_GEOMETRY_AUTO && rule) {
		av_add(c, "-E");
		av_addf(c, "stride=%" PRIu64 ",stripe-width=%" PRIu64, st, sw);
		s = xasprintf(_("stride = chunk / 4K block = %" PRIu64
				", stripe-width = stride x data disks = "
				"%" PRIu64 " (%s)"),
		    st, sw, g->rule);
	} else if (fs->geometry == LAB_GEOMETRY_NONE) {
		s = xasprintf("%s",
		    _("none: mkfs is told nothing (it may still read the "
		      "array's own hints)"));
	} else {
		s = xasprintf("%s", g->rule);
	}
	b->p->geometry = s;
}

/* -d su=,sw= (or noalign) per the lab's geometry; sets p->geometry. */
static void
xfs_geometry(struct pb *b, struct av *c)
{
	const struct lab_fs *fs = &b->v->fs;
	const struct geom *g = &b->p->geom;
	bool rule = g->striped && g->data_disks > 0;
	char cb[UNITS_BUF], *s = NULL;

	if (fs->geometry == LAB_GEOMETRY_XFS) {
		av_add(c, "-d");
		av_addf(c, "su=%" PRIu64 ",sw=%" PRId64, fs->su, fs->sw);
		s = xasprintf(_("su=%s, sw=%" PRId64 " as the lab says (%s)"),
		    units_format_exact(fs->su, cb, sizeof cb), fs->sw, g->rule);
	} else if (fs->geometry == LAB_GEOMETRY_AUTO && rule) {
		av_add(c, "-d");
		av_addf(c, "su=%" PRIu64 ",sw=%u", g->chunk, g->data_disks);
		s = xasprintf(_("su = chunk = %s, sw = data disks = %u (%s)"),
		    units_format_exact(g->chunk, cb, sizeof cb), g->data_disks,
		    g->rule);
	} else if (fs->geometry == LAB_GEOMETRY_NONE) {
		av_add(c, "-d");
		av_add(c, "noalign");
		s = xasprintf("%s",
		    _("none: -d noalign, XFS ignores the array's hints"));
	} else {
		s = xasprintf("%s", g->rule);
	}
	b->p->geometry = s;
}

/* The most a version 2 log's stripe unit may be, and what mkfs.xfs
   uses instead of a larger one (xfsprogs, mkfs/xfs_mkfs.c). */
#define XFS_LOG_SU_MAX (256 * 1024)
#define XFS_LOG_SU_FALLBACK (32 * 1024)

/* mkfs_options that set the log's stripe unit themselves (-l su=...). */
static bool
opts_set_log_su(const char *opts)
{
	const char *l = opts ? strstr(opts, "-l") : NULL;

	for (; l != NULL; l = strstr(l + 2, "-l")) {
		const char *end = l + 2 + strspn(l + 2, " \t");

		end += strcspn(end, " \t");
		for (const char *q = l + 2; q < end; q++)
			if (strncmp(q, "su=", 3) == 0 ||
			    strncmp(q, "sunit=", 6) == 0)
				return true;
	}
	return false;
}

/*
 * Where the log goes and the stripe unit mkfs.xfs will give it: an
 * internal log takes the data's su, but one above 256K is replaced by
 * 32K ("log stripe unit adjusted to 32KiB"), which decides how log
 * writes meet the array (seed 000's question); an external log takes
 * none from the data's.
 */
static char *
xfs_log_note(struct pb *b)
{
	const struct lab_fs *fs = &b->v->fs;
	const struct geom *g = &b->p->geom;
	char a[UNITS_BUF], c[UNITS_BUF];
	uint64_t su = 0;

	if (opts_set_log_su(fs->mkfs_options))
		return b->logdev != NULL
		    ? xasprintf(_("on %s, stripe unit as mkfs_options set it"),
			  b->logdev)
		    : xstrdup(_("internal, stripe unit as mkfs_options set "
				"it"));
	if (b->logdev != NULL)
		return xasprintf(_("on %s, no stripe unit: mkfs.xfs takes "
				   "none from the data's for an external log"),
		    b->logdev);
	if (fs->geometry == LAB_GEOMETRY_XFS)
		su = fs->su;
	else if (fs->geometry == LAB_GEOMETRY_AUTO && g->striped)
		su = g->chunk;
	if (su == 0)
		return xstrdup(
		    _("internal, no stripe unit: the data has none"));
	units_format_exact(su, a, sizeof a);
	if (su <= XFS_LOG_SU_MAX)
		return xasprintf(_("internal, stripe unit %s: the data's su"),
		    a);
	return xasprintf(_("internal, stripe unit %s: mkfs.xfs takes the "
			   "data's su (%s) for the log, but above %s it uses "
			   "%s instead"),
	    units_format_exact(XFS_LOG_SU_FALLBACK, c, sizeof c), a, "256K", c);
}

static void
mkfs_ext(struct pb *b, const char *dev)
{
	const struct lab_fs *fs = &b->v->fs;
	struct av c = { 0 };
	char *why = NULL;

	if (b->logdev != NULL && fs->type != LAB_FS_EXT2) {
		struct av j = { 0 };

		av_add(&j, "mke2fs");
		av_add(&j, "-F");
		av_add(&j, "-O");
		av_add(&j, "journal_dev");
		av_add(&j, "-b");
		av_addf(&j, "%d", EXT_BLOCK);
		av_add(&j, b->logdev);
		pb_run(b, av_take(&j),
		    _("the external journal is a device of its own, made "
		      "first, with the filesystem's block size"),
		    NULL,
		    undo_one(argv_of("wipefs", "--all", b->logdev, NULL)));
	}
	av_addf(&c, "mkfs.%s", lab_fs_type_name(fs->type));
	av_add(&c, "-F");
	av_add(&c, "-b");
	av_addf(&c, "%d", EXT_BLOCK);
	if (b->logdev != NULL && fs->type != LAB_FS_EXT2) {
		av_add(&c, "-J");
		av_addf(&c, "device=%s", b->logdev);
	} else if (fs->journal_size != 0 && fs->type != LAB_FS_EXT2) {
		av_add(&c, "-J");
		av_addf(&c, "size=%" PRIu64, fs->journal_size >> 20);
	}
	ext_geometry(b, &c);
	av_split(&c, fs->mkfs_options);
	av_add(&c, dev);
	why = xasprintf(_("-F: the device was just wiped; 4K blocks; "
			  "geometry: %s"),
	    b->p->geometry);
	pb_run(b, av_take(&c), why, NULL,
	    undo_one(argv_of("wipefs", "--all", dev, NULL)));
	free(why);
	pb_fact(b, "dumpe2fs", argv_of("dumpe2fs", "-h", dev, NULL));
}

static void
mkfs_xfs(struct pb *b, const char *dev)
{
	const struct lab_fs *fs = &b->v->fs;
	struct av c = { 0 };
	char *why = NULL;

	av_add(&c, "mkfs.xfs");
	av_add(&c, "-f");
	if (b->logdev != NULL) {
		av_add(&c, "-l");
		if (fs->journal_size != 0)
			av_addf(&c, "logdev=%s,size=%" PRIu64, b->logdev,
			    fs->journal_size);
		else
			av_addf(&c, "logdev=%s", b->logdev);
	} else if (fs->journal_size != 0) {
		av_add(&c, "-l");
		av_addf(&c, "size=%" PRIu64, fs->journal_size);
	}
	xfs_geometry(b, &c);
	b->p->log = xfs_log_note(b);
	av_split(&c, fs->mkfs_options);
	av_add(&c, dev);
	why = xasprintf(_("-f: the device was just wiped; geometry: %s"),
	    b->p->geometry);
	if (b->logdev != NULL) {
		char ***u = undo_one(argv_of("wipefs", "--all", dev, NULL));
		struct undo uu = { .v = u, .n = 1 };

		undo_add(&uu, argv_of("wipefs", "--all", b->logdev, NULL));
		pb_run(b, av_take(&c), why, NULL, undo_take(&uu));
	} else {
		pb_run(b, av_take(&c), why, NULL,
		    undo_one(argv_of("wipefs", "--all", dev, NULL)));
	}
	free(why);
}

/* btrfs over members (the btrfs engine) or on the one device an md
   array or a single disk gives (no profiles: mkfs.btrfs's defaults). */
static void
mkfs_btrfs(struct pb *b, char **members, size_t n)
{
	const struct lab_array *a = &b->v->array;
	bool native = a->engine == LAB_ENGINE_BTRFS;
	struct av c = { 0 }, f = { 0 }, w = { 0 }, s = { 0 };
	struct undo u = { 0 };
	const char *why;
	char *label = NULL;

	av_add(&c, "mkfs.btrfs");
	av_add(&c, "-f");
	if (native) {
		av_add(&c, "-d");
		av_add(&c, lab_profile_name(a->profile));
	}
	if (native && lab_array_isset(a, LAB_A_METADATA_PROFILE)) {
		av_add(&c, "-m");
		av_add(&c, lab_profile_name(a->metadata_profile));
	}
	av_split(&c, b->v->fs.mkfs_options);
	av_add(&f, "btrfs");
	av_add(&f, "device");
	av_add(&f, "scan");
	av_add(&f, "--forget");
	av_add(&w, "wipefs");
	av_add(&w, "--all");
	av_add(&s, "btrfs");
	av_add(&s, "device");
	av_add(&s, "scan");
	for (size_t i = 0; i < n; i++) {
		av_add(&c, members[i]);
		av_add(&f, members[i]);
		av_add(&w, members[i]);
		av_add(&s, members[i]);
	}
	undo_add(&u, av_take(&w));
	undo_add(&u, av_take(&f));
	label = xasprintf("btrfs %s", members[0]);
	if (!native)
		why = _("-f: the device was just wiped; one device: "
			"mkfs.btrfs's single data and dup metadata");
	else if (lab_array_isset(a, LAB_A_METADATA_PROFILE))
		why = _("-f: the devices were just wiped");
	else
		why = _("-f: the devices were just wiped; no -m: mkfs.btrfs "
			"picks the metadata profile");
	pb_run(b, av_take(&c), why, label, undo_take(&u));
	free(label);
	pb_run(b, av_take(&s),
	    _("register every member with the kernel before mounting (no "
	      "udev does it here)"),
	    NULL, NULL);
	b->p->geometry = native ? xasprintf("%s", b->p->geom.rule)
				: xasprintf(_("mkfs.btrfs takes no stripe "
					      "geometry (%s)"),
				      b->p->geom.rule);
}

/*
 * btrfs's degraded and rebuild phases: the last `fail` members lost, as
 * dead disks are (their btrfs signature wiped, the kernel told to forget
 * them), so that the filesystem mounts with -o degraded on the others.
 */
static void
btrfs_degraded(struct pb *b, char **members, size_t n)
{
	const struct lab_array *a = &b->v->array;
	struct plan *p = b->p;
	size_t k = lab_array_isset(a, LAB_A_FAIL) ? (size_t)a->fail : 1;

	if ((a->phase != LAB_PHASE_DEGRADED && a->phase != LAB_PHASE_REBUILD) ||
	    k >= n)
		return;
	p->phase = xstrdup(lab_phase_name(a->phase));
	for (size_t i = n - k; i < n; i++) {
		struct av f = { 0 };

		pb_failed(b, members[i]);
		pb_run(b, argv_of("wipefs", "--all", members[i], NULL),
		    _("the phase: this member is lost, as a dead disk is; "
		      "btrfs mounts degraded on the others"),
		    NULL, NULL);
		av_add(&f, "btrfs");
		av_add(&f, "device");
		av_add(&f, "scan");
		av_add(&f, "--forget");
		av_add(&f, members[i]);
		pb_run(b, av_take(&f), NULL, NULL, NULL);
	}
}

/*
 * btrfs's check phase, once mounted: a scrub in the background (btrfs
 * scrub start returns at once), so that the workloads run while it reads
 * and verifies everything allocated. Its undo cancels it: a running
 * scrub holds the mount, and no umount (the teardown's, `raidlab
 * cleanup`'s) passes while it runs.
 */
static void
btrfs_check(struct pb *b)
{
	struct plan *p = b->p;
	char *label;

	if (b->v->array.phase != LAB_PHASE_CHECK)
		return;
	p->phase = xstrdup(lab_phase_name(LAB_PHASE_CHECK));
	label = xasprintf("scrub %s", p->mountpoint);
	pb_run(b, argv_of("btrfs", "scrub", "start", p->mountpoint),
	    _("the phase: btrfs reads every copy of what is allocated and "
	      "checks its checksums; the workloads run while it does, and "
	      "the record keeps its progress and errors"),
	    label,
	    undo_one(argv_of("btrfs", "scrub", "cancel", p->mountpoint)));
	p->phase_step = (int)p->nsteps - 1;
	free(label);
}

/*
 * btrfs's rebuild phase, once mounted degraded: the lost member's device
 * (mkfs.btrfs numbers the members from 1 in its order) replaced by the
 * wiped disk, in the background (btrfs replace start returns at once),
 * so that the workloads run while btrfs copies onto it. One at a time:
 * btrfs runs one replace per filesystem. Its undo cancels it before the
 * umount, which would only suspend it.
 */
static void
btrfs_replace(struct pb *b, char **members, size_t n)
{
	struct plan *p = b->p;
	struct av c = { 0 };
	char *label;

	if (b->v->array.phase != LAB_PHASE_REBUILD || p->nfailed != 1)
		return;
	for (size_t i = 0; i < n; i++) {
		if (strcmp(members[i], p->failed[0]) != 0)
			continue;
		av_add(&c, "btrfs");
		av_add(&c, "replace");
		av_add(&c, "start");
		av_addf(&c, "%zu", i + 1);
		av_add(&c, members[i]);
		av_add(&c, p->mountpoint);
		label = xasprintf("replace %s", p->mountpoint);
		pb_run(b, av_take(&c),
		    _("btrfs rebuilds the lost device's copies onto this "
		      "blank disk; the workloads run while it does, and the "
		      "record keeps its progress and errors"),
		    label,
		    undo_one(
			argv_of("btrfs", "replace", "cancel", p->mountpoint)));
		p->phase_step = (int)p->nsteps - 1;
		free(label);
	}
}

/* A new ext4 zeroes its inode tables from a kernel thread for as long
   as they take (ext4lazyinit: 64 MiB in the first 5 s of a 4G one),
   unless the lab's options say how (init_itable=, noinit_itable). */
static bool
no_lazy_init(const struct lab_fs *fs)
{
	return fs->type == LAB_FS_EXT4 &&
	    (fs->mount_options == NULL ||
		strstr(fs->mount_options, "init_itable") == NULL);
}

/* mount -o: the lab's options, then data=, noinit_itable, logdev=. */
static char *
mount_options(struct pb *b)
{
	const struct lab_fs *fs = &b->v->fs;
	struct strbuf o;

	strbuf_init(&o);
	if (fs->mount_options != NULL && fs->mount_options[0] != '\0')
		strbuf_add(&o, fs->mount_options);
	if ((fs->type == LAB_FS_EXT3 || fs->type == LAB_FS_EXT4) &&
	    lab_fs_isset(fs, LAB_F_DATA))
		strbuf_printf(&o, "%sdata=%s", o.len ? "," : "",
		    lab_data_mode_name(fs->data));
	if (b->v->array.engine != LAB_ENGINE_BTRFS && no_lazy_init(fs))
		strbuf_printf(&o, "%snoinit_itable", o.len ? "," : "");
	if (fs->type == LAB_FS_XFS && b->logdev != NULL)
		strbuf_printf(&o, "%slogdev=%s", o.len ? "," : "", b->logdev);
	if (b->v->array.engine == LAB_ENGINE_BTRFS && b->p->nfailed > 0)
		strbuf_printf(&o, "%sdegraded", o.len ? "," : "");
	if (o.len == 0) {
		strbuf_done(&o);
		return NULL;
	}
	return strbuf_take(&o);
}

static void
mount_step(struct pb *b, const char *dev, enum lab_fs_type type)
{
	struct plan *p = b->p;
	struct av m = { 0 };
	char *label = NULL;

	p->mount_options = mount_options(b);
	av_add(&m, "mount");
	av_add(&m, "-t");
	av_add(&m, lab_fs_type_name(type));
	if (p->mount_options != NULL) {
		av_add(&m, "-o");
		av_add(&m, p->mount_options);
	}
	av_add(&m, dev);
	av_add(&m, p->mountpoint);
	label = xasprintf("mount %s", p->mountpoint);
	pb_run(b, av_take(&m),
	    type == LAB_FS_XFS && b->logdev != NULL
		? _("an XFS with an external log mounts only with logdev=")
		: type == LAB_FS_EXT4 && no_lazy_init(&b->v->fs)
		? _("noinit_itable: a new ext4 zeroes its inode tables in "
		    "the background while the workloads run, writing far more "
		    "than small ones do; one in service finished long ago "
		    "(mount_options \"init_itable\" keeps it)")
		: NULL,
	    label, undo_one(argv_of("umount", p->mountpoint, NULL, NULL)));
	pb_product(b, p->mountpoint);
	free(label);
}

void
pb_mountpoint(struct pb *b)
{
	struct plan *p = b->p;
	char *label = xasprintf("dir %s", p->mountpoint);

	/* Without -p: a mount point that exists already (a dead run's, or
	   anybody's) stops the run here, before anything is wiped. Its
	   parent is the state directory's mnt/, which the provisioner
	   makes. */
	pb_run(b, argv_of("mkdir", p->mountpoint, NULL, NULL), NULL, label,
	    undo_one(argv_of("rmdir", p->mountpoint, NULL, NULL)));
	pb_product(b, p->mountpoint);
	free(label);
}

static void
readahead(struct pb *b, const char *dev, char **members, size_t n, bool btrfs)
{
	struct plan *p = b->p;
	uint64_t ra = b->v->readahead;
	char sect[32];

	if (!lab_variant_isset(b->v, LAB_V_READAHEAD))
		return;
	p->readahead = ra;
	snprintf(sect, sizeof sect, "%" PRIu64, ra / 512);
	for (size_t i = 0; i < (btrfs ? n : 1); i++) {
		const char *d = btrfs ? members[i] : dev;

		pb_run(b, argv_of("blockdev", "--setra", sect, d),
		    btrfs ? _("readahead in 512-byte sectors, on every member: "
			      "btrfs reads through each member's queue")
			  : _("readahead in 512-byte sectors"),
		    NULL, NULL);
		p->ra_devices = xreallocarray(p->ra_devices, p->nra + 1,
		    sizeof *p->ra_devices);
		p->ra_devices[p->nra++] = xstrdup(d);
	}
}

void
pb_fs(struct pb *b, const char *dev, char **members, size_t n)
{
	struct plan *p = b->p;
	const struct lab_variant *v = b->v;
	bool btrfs = v->array.engine == LAB_ENGINE_BTRFS;
	enum lab_fs_type type = btrfs ? LAB_FS_BTRFS : v->fs.type;

	if (!btrfs && b->logdev == NULL &&
	    v->fs.journal == LAB_JOURNAL_DEVICE && v->fs.journal_device != NULL)
		b->logdev = pb_dev(b, v->fs.journal_device);
	p->fstype = xstrdup(lab_fs_type_name(type));
	if (btrfs) {
		if (n == 0)
			return;
		p->fsdev = xstrdup(members[0]);
		mkfs_btrfs(b, members, n);
		btrfs_degraded(b, members, n);
	} else {
		if (dev == NULL)
			return;
		p->fsdev = xstrdup(dev);
		if (is_ext(type))
			mkfs_ext(b, dev);
		else if (type == LAB_FS_XFS)
			mkfs_xfs(b, dev);
		else
			mkfs_btrfs(b, &p->fsdev, 1);
	}
	mount_step(b, p->fsdev, type);
	readahead(b, dev, members, n, btrfs);
	if (btrfs) {
		btrfs_check(b);
		btrfs_replace(b, members, n);
	}
	if (type == LAB_FS_XFS)
		pb_fact(b, "xfs_info",
		    argv_of("xfs_info", p->mountpoint, NULL, NULL));
	if (type == LAB_FS_BTRFS) {
		pb_fact(b, "btrfs_df",
		    argv_of("btrfs", "filesystem", "df", p->mountpoint));
		pb_fact(b, "btrfs_show",
		    argv_of("btrfs", "filesystem", "show", p->mountpoint));
	}
	for (size_t i = 0; i < p->nra; i++) {
		char *key = NULL;

		key = xasprintf("readahead %s", p->ra_devices[i]);
		pb_fact(b, key,
		    argv_of("blockdev", "--getra", p->ra_devices[i], NULL));
		free(key);
	}
}
