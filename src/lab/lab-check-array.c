/*
 * lab_check() rules for one array: md levels against member counts,
 * layouts, chunks, spares, bitmaps, write journals, superblock versions
 * and nested legs; btrfs profiles; single devices. See lab-check.h. The
 * thread that owns the lab.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/i18n.h"
#include "base/units.h"
#include "base/xalloc.h"
#include "lab-check.h"
#include "lab.h"

/* ---------------------------------------------------------------- arrays */

/* The md superblock 0.90 limits (mdadm(8)). */
#define MD090_MAX_DEVICES 28
#define MD090_MAX_MEMBER (2 * TIB)

/* md level -> fewest members it can be created with. */
static const size_t md_min[] = {
	[LAB_MD_LEVEL_0] = 2,
	[LAB_MD_LEVEL_1] = 2,
	[LAB_MD_LEVEL_4] = 3,
	[LAB_MD_LEVEL_5] = 3,
	[LAB_MD_LEVEL_6] = 4,
	[LAB_MD_LEVEL_10] = 2,
};

/*
 * btrfs profile -> fewest devices. mkfs.btrfs 6.2 accepts raid0 on one
 * device; raidlab asks for 2 since a one-device stripe is not raid0.
 */
static const size_t btrfs_min[] = {
	[LAB_PROFILE_SINGLE] = 1,
	[LAB_PROFILE_DUP] = 1,
	[LAB_PROFILE_RAID0] = 2,
	[LAB_PROFILE_RAID1] = 2,
	[LAB_PROFILE_RAID1C3] = 3,
	[LAB_PROFILE_RAID1C4] = 4,
	[LAB_PROFILE_RAID10] = 2,
	[LAB_PROFILE_RAID5] = 2,
	[LAB_PROFILE_RAID6] = 3,
};

/* mdadm's names (maps.c r5layout/r6layout), by the levels taking them. */
static const char *const r5_layouts[] = {
	"left-asymmetric",
	"right-asymmetric",
	"left-symmetric",
	"right-symmetric",
	"default",
	"la",
	"ra",
	"ls",
	"rs",
	"parity-first",
	"parity-last",
	"ddf-zero-restart",
	"ddf-N-restart",
	"ddf-N-continue",
	NULL,
};
static const char *const r6_only_layouts[] = {
	"left-asymmetric-6",
	"right-asymmetric-6",
	"left-symmetric-6",
	"right-symmetric-6",
	"parity-first-6",
	NULL,
};
static const char *const r0_layouts[] = {
	"original",
	"alternate",
	"o",
	"a",
	"1",
	"2",
	"dangerous",
	NULL,
};

/* Keys only md has, with the mdadm option they become. */
static const struct {
	enum lab_a_field f;
	const char *opt;
} md_only[] = {
	{ LAB_A_LAYOUT, "--layout" },
	{ LAB_A_CHUNK, "--chunk" },
	{ LAB_A_SPARES, "--spare-devices" },
	{ LAB_A_METADATA, "--metadata" },
	{ LAB_A_BITMAP, "--bitmap" },
	{ LAB_A_BITMAP_CHUNK, "--bitmap-chunk" },
	{ LAB_A_JOURNAL, "--write-journal" },
	{ LAB_A_ASSUME_CLEAN, "--assume-clean" },
};

static bool
in_list(const char *const *v, const char *s)
{
	for (; *v != NULL; v++)
		if (strcmp(*v, s) == 0)
			return true;
	return false;
}

/* Copies of a RAID10 layout as written; 0 when unset or malformed. */
static unsigned
raid10_copies(const char *layout)
{
	return layout != NULL ? lab_raid10_copies(layout) : 0;
}

size_t
lab_chk_members(const struct lab_array *a, long implicit)
{
	if (a->nlegs > 0)
		return a->nlegs;
	if (lab_array_isset(a, LAB_A_DEVICES) || implicit < 0)
		return a->devices.n;
	return (size_t)implicit;
}

uint64_t
lab_chk_capacity(const struct lab_array *a, size_t n, uint64_t member)
{
	unsigned copies;

	if (n == 0 || member == 0 || a->nlegs > 0)
		return 0;
	if (a->engine == LAB_ENGINE_SINGLE)
		return member;
	if (a->engine == LAB_ENGINE_BTRFS)
		return 0; /* chunk allocator: no simple formula */
	switch (a->md_level) {
	case LAB_MD_LEVEL_0:
		return member * n;
	case LAB_MD_LEVEL_1:
		return member;
	case LAB_MD_LEVEL_4:
	case LAB_MD_LEVEL_5:
		return n > 1 ? member * (n - 1) : 0;
	case LAB_MD_LEVEL_6:
		return n > 2 ? member * (n - 2) : 0;
	case LAB_MD_LEVEL_10:
		copies = raid10_copies(a->layout);
		if (copies == 0)
			copies = 2;
		return member * n / copies;
	}
	return 0;
}

/* Where a member-count message points: devices, legs or scratch.count. */
static void
count_fail(struct lab_chk *c, const struct lab_variant *v,
    const struct lab_array *a, const char *msg)
{
	char f[LAB_PATH_MAX];

	if (a->nlegs > 0)
		lab_chk_array(c, v, a, LAB_A_LEGS, "%s", msg);
	else if (lab_array_isset(a, LAB_A_DEVICES))
		lab_chk_array(c, v, a, LAB_A_DEVICES, "%s", msg);
	else
		lab_chk_add(c, lab_variant_line(v, LAB_V_SCRATCH_COUNT),
		    lab_variant_path(v, LAB_V_SCRATCH_COUNT, f, sizeof f), "%s",
		    msg);
}

/* Why a level needs md_min[level] lab_chk_members (literal formats for
 * -Wformat). */
static void
md_count_msg(enum lab_md_level l, size_t n, char *msg, size_t len)
{
	switch (l) {
	case LAB_MD_LEVEL_0:
		snprintf(msg, len,
		    _("RAID0 needs at least 2 devices, got %zu "
		      "(one device stripes nothing; mdadm wants --force)"),
		    n);
		break;
	case LAB_MD_LEVEL_1:
		snprintf(msg, len,
		    _("RAID1 needs at least 2 devices, got %zu "
		      "(one device mirrors nothing)"),
		    n);
		break;
	case LAB_MD_LEVEL_4:
	case LAB_MD_LEVEL_5:
		snprintf(msg, len,
		    _("RAID%d needs at least 3 devices, got %zu "
		      "(with 2 the parity is a copy of the data: use RAID1)"),
		    lab_md_level_number(l), n);
		break;
	case LAB_MD_LEVEL_6:
		snprintf(msg, len,
		    _("RAID6 needs at least 4 devices, got %zu "
		      "(2 for P and Q parity plus at least 2 for data)"),
		    n);
		break;
	case LAB_MD_LEVEL_10:
		snprintf(msg, len,
		    _("RAID10 needs at least 2 devices, got "
		      "%zu"),
		    n);
		break;
	}
}

static void
md_count(struct lab_chk *c, const struct lab_variant *v,
    const struct lab_array *a, size_t n)
{
	char msg[ERR_MSG_MAX];
	unsigned copies = raid10_copies(a->layout);

	if (a->nlegs > 0)
		return; /* md_legs() counts legs */
	if (n < md_min[a->md_level]) {
		md_count_msg(a->md_level, n, msg, sizeof msg);
		count_fail(c, v, a, msg);
	} else if (a->md_level == LAB_MD_LEVEL_10 && copies > n) {
		snprintf(msg, sizeof msg,
		    _("RAID10 layout %s keeps %u copies: "
		      "it needs at least %u devices, got %zu"),
		    a->layout, copies, copies, n);
		count_fail(c, v, a, msg);
	}
}

static void
md_layout(struct lab_chk *c, const struct lab_variant *v,
    const struct lab_array *a)
{
	const char *l = a->layout;
	int lv = lab_md_level_number(a->md_level);
	unsigned copies = raid10_copies(l);

	if (l == NULL || !lab_array_isset(a, LAB_A_LAYOUT))
		return;
	switch (a->md_level) {
	case LAB_MD_LEVEL_1:
	case LAB_MD_LEVEL_4:
		if (lab_chk_array_own(a, LAB_A_LAYOUT))
			lab_chk_array(c, v, a, LAB_A_LAYOUT,
			    _("RAID%d has no "
			      "layout (layouts exist for RAID0 zones, RAID5, "
			      "RAID6 and RAID10)"),
			    lv);
		return;
	case LAB_MD_LEVEL_0:
		if (!in_list(r0_layouts, l) &&
		    lab_chk_array_own(a, LAB_A_LAYOUT))
			lab_chk_array(c, v, a, LAB_A_LAYOUT,
			    _("RAID0 layout "
			      "%s does not exist: RAID0 takes only original or "
			      "alternate"),
			    l);
		return;
	case LAB_MD_LEVEL_10:
		if (copies < 2)
			lab_chk_array(c, v, a, LAB_A_LAYOUT,
			    _("RAID10 layout "
			      "%s does not exist: use n, f or o followed by "
			      "the "
			      "number of copies (2 or more), as in n2, f2, o3"),
			    l);
		return;
	case LAB_MD_LEVEL_5:
	case LAB_MD_LEVEL_6:
		break;
	}
	if (in_list(r5_layouts, l) ||
	    (a->md_level == LAB_MD_LEVEL_6 && in_list(r6_only_layouts, l)))
		return;
	if (!lab_chk_array_own(a, LAB_A_LAYOUT))
		return;
	if (copies > 0)
		lab_chk_array(c, v, a, LAB_A_LAYOUT,
		    _("%s is a RAID10 layout "
		      "(near/far/offset copies); RAID%d takes left-symmetric, "
		      "left-asymmetric, right-symmetric, right-asymmetric, "
		      "parity-first or parity-last"),
		    l, lv);
	else if (in_list(r6_only_layouts, l))
		lab_chk_array(c, v, a, LAB_A_LAYOUT,
		    _("%s is a RAID6 layout "
		      "(Q parity on the last device); RAID5 takes it without "
		      "the -6"),
		    l);
	else
		lab_chk_array(c, v, a, LAB_A_LAYOUT,
		    _("RAID%d layout %s does "
		      "not exist: use left-symmetric, left-asymmetric, "
		      "right-symmetric, right-asymmetric, parity-first or "
		      "parity-last"),
		    lv, l);
}

static void
md_chunk(struct lab_chk *c, const struct lab_variant *v,
    const struct lab_array *a)
{
	char b[UNITS_BUF], b2[UNITS_BUF];
	uint64_t ch = a->chunk;

	if (!lab_array_isset(a, LAB_A_CHUNK))
		return;
	if (a->md_level == LAB_MD_LEVEL_1) {
		if (lab_chk_array_own(a, LAB_A_CHUNK))
			lab_chk_array(c, v, a, LAB_A_CHUNK,
			    _("RAID1 has no "
			      "chunk: a mirror does not stripe"));
		return;
	}
	if (ch < 4 * KIB)
		lab_chk_array(c, v, a, LAB_A_CHUNK,
		    _("chunk %s is too small: "
		      "md chunks are at least 4K"),
		    lab_chk_size(ch, b));
	else if (a->md_level != LAB_MD_LEVEL_0 && !lab_chk_pow2(ch))
		lab_chk_array(c, v, a, LAB_A_CHUNK,
		    _("chunk %s is not a power "
		      "of two, which RAID%d requires (4K, 8K, ..., 64K, 512K)"),
		    lab_chk_size(ch, b), lab_md_level_number(a->md_level));
	else if (ch % (4 * KIB) != 0)
		lab_chk_array(c, v, a, LAB_A_CHUNK,
		    _("chunk %s is not a "
		      "multiple of 4K"),
		    lab_chk_size(ch, b));
	else if (v->scratch_size > 0 && ch > v->scratch_size &&
	    !lab_array_isset(a, LAB_A_DEVICES))
		lab_chk_array(c, v, a, LAB_A_CHUNK,
		    _("chunk %s is larger "
		      "than a scratch disk (%s)"),
		    lab_chk_size(ch, b), lab_chk_size(v->scratch_size, b2));
}

static void
md_bitmap(struct lab_chk *c, const struct lab_variant *v,
    const struct lab_array *a)
{
	char b[UNITS_BUF], p[LAB_PATH_MAX];
	bool has = a->bitmap != LAB_BITMAP_NONE;

	if (has && a->md_level == LAB_MD_LEVEL_0 &&
	    lab_chk_array_own(a, LAB_A_BITMAP))
		lab_chk_array(c, v, a, LAB_A_BITMAP,
		    _("RAID0 has no "
		      "redundancy to resync: a write-intent bitmap means "
		      "nothing "
		      "there (use bitmap = \"none\")"));
	if (has && a->journal != NULL)
		lab_chk_array(c, v, a, LAB_A_BITMAP,
		    _("a write-intent bitmap "
		      "and a write journal (journal, line %d) are mutually "
		      "exclusive: md keeps one or the other"),
		    lab_array_line(a, LAB_A_JOURNAL));
	if (a->bitmap == LAB_BITMAP_FILE && a->bitmap_file != NULL &&
	    a->bitmap_file[0] != '/')
		lab_chk_array(c, v, a, LAB_A_BITMAP_FILE,
		    _("bitmap file %s "
		      "must be an absolute path (on a filesystem outside the "
		      "array)"),
		    a->bitmap_file);
	else if (a->bitmap == LAB_BITMAP_FILE && a->bitmap_file != NULL &&
	    strncmp(a->bitmap_file, "/dev/", 5) == 0)
		lab_chk_array(c, v, a, LAB_A_BITMAP_FILE,
		    _("bitmap file %s "
		      "is under /dev: an external bitmap is a regular file on "
		      "another filesystem"),
		    a->bitmap_file);
	else if (a->bitmap == LAB_BITMAP_FILE && a->bitmap_file != NULL)
		lab_chk_path(c, lab_array_line(a, LAB_A_BITMAP_FILE),
		    lab_array_path(v, a, LAB_A_BITMAP_FILE, p, sizeof p),
		    a->bitmap_file, false);
	if (!lab_array_isset(a, LAB_A_BITMAP_CHUNK))
		return;
	if (!has) {
		if (lab_chk_array_own(a, LAB_A_BITMAP_CHUNK))
			lab_chk_array(c, v, a, LAB_A_BITMAP_CHUNK,
			    _("bitmap_chunk without a bitmap: set bitmap to "
			      "\"internal\" or a file"));
	} else if (!lab_chk_pow2(a->bitmap_chunk) || a->bitmap_chunk < KIB) {
		lab_chk_array(c, v, a, LAB_A_BITMAP_CHUNK,
		    _("bitmap chunk %s "
		      "must be a power of two of at least 1K (mdadm counts it "
		      "in K)"),
		    lab_chk_size(a->bitmap_chunk, b));
	}
}

static void
md_journal(struct lab_chk *c, const struct lab_variant *v,
    const struct lab_array *a)
{
	int lv = lab_md_level_number(a->md_level);

	if (a->journal == NULL)
		return;
	if (lv != 4 && lv != 5 && lv != 6)
		lab_chk_array(c, v, a, LAB_A_JOURNAL,
		    _("a write journal "
		      "exists only for RAID4, RAID5 and RAID6 (it closes the "
		      "parity write hole); RAID%d has no parity"),
		    lv);
	if (a->metadata == LAB_MD_METADATA_0_90)
		lab_chk_array(c, v, a, LAB_A_JOURNAL,
		    _("superblock 0.90 "
		      "(metadata, line %d) cannot record a write journal: use "
		      "metadata 1.0, 1.1 or 1.2"),
		    lab_array_line(a, LAB_A_METADATA));
}

static void
md_superblock(struct lab_chk *c, const struct lab_variant *v,
    const struct lab_array *a, size_t n)
{
	char b[UNITS_BUF];

	if (a->metadata != LAB_MD_METADATA_0_90)
		return;
	if (n + a->spares.n > MD090_MAX_DEVICES)
		lab_chk_array(c, v, a, LAB_A_METADATA,
		    _("superblock 0.90 "
		      "holds at most %d devices, this array has %zu with "
		      "spares: use metadata 1.2"),
		    MD090_MAX_DEVICES, n + a->spares.n);
	if (v->scratch_size > MD090_MAX_MEMBER &&
	    !lab_array_isset(a, LAB_A_DEVICES))
		lab_chk_array(c, v, a, LAB_A_METADATA,
		    _("superblock 0.90 "
		      "limits members to 2T, scratch disks are %s: use "
		      "metadata 1.2"),
		    lab_chk_size(v->scratch_size, b));
}

/*
 * Data a leg holds, in disks, when all its members are scratch disks (of
 * one size); 0 when unknown.
 */
static uint64_t
leg_disks(const struct lab_array *g)
{
	size_t i;

	if (g->nlegs > 0 || g->devices.n == 0)
		return 0;
	for (i = 0; i < g->devices.n; i++)
		if (lab_scratch_index(g->devices.v[i]) < 0)
			return 0;
	return lab_chk_capacity(g, g->devices.n, 1);
}

/* Nested arrays: RAID1 over RAID0 legs (0+1), RAID0 over RAID1 (1+0). */
static void
md_legs(struct lab_chk *c, const struct lab_variant *v,
    const struct lab_array *a)
{
	uint64_t first, cap;
	size_t i;

	if (a->nlegs == 0)
		return;
	if (a->md_level != LAB_MD_LEVEL_0 && a->md_level != LAB_MD_LEVEL_1)
		lab_chk_array(c, v, a, LAB_A_LEVEL,
		    _("a nested array is "
		      "RAID1 over its legs (RAID0+1) or RAID0 over them "
		      "(RAID1+0): level must be 0 or 1, not %d"),
		    lab_md_level_number(a->md_level));
	if (a->nlegs < 2)
		lab_chk_array(c, v, a, LAB_A_LEGS,
		    _("a nested array needs at "
		      "least 2 legs, got %zu"),
		    a->nlegs);
	if (a->devices.n > 0 && lab_array_isset(a, LAB_A_DEVICES))
		lab_chk_array(c, v, a, LAB_A_DEVICES,
		    _("devices and legs "
		      "(line %d) are both given: the members of a nested array "
		      "are its legs"),
		    lab_array_line(a, LAB_A_LEGS));
	for (i = 0; i < a->nlegs; i++)
		lab_chk_check_array(c, v, &a->legs[i], LAB_CHK_LEG, -1);
	/* A mirror of unequal legs wastes the larger: not what was meant. */
	first = leg_disks(&a->legs[0]);
	for (i = 1; i < a->nlegs && a->md_level == LAB_MD_LEVEL_1; i++) {
		cap = leg_disks(&a->legs[i]);
		if (first != 0 && cap != 0 && cap != first)
			lab_chk_array(c, v, &a->legs[i], LAB_A_DEVICES,
			    _("legs differ in size: legs[0] holds %llu disks "
			      "of data, this leg %llu; a mirror of them is "
			      "only "
			      "as large as the smallest"),
			    (unsigned long long)first, (unsigned long long)cap);
	}
}

/* Keys given to an engine that has no such thing. */
static void
not_md(struct lab_chk *c, const struct lab_variant *v,
    const struct lab_array *a, size_t n)
{
	const char *eng = lab_engine_name(a->engine);
	size_t i;

	for (i = 0; i < sizeof md_only / sizeof md_only[0]; i++) {
		enum lab_a_field f = md_only[i].f;

		if (!lab_chk_array_own(a, f) ||
		    (f == LAB_A_BITMAP && a->bitmap == LAB_BITMAP_NONE) ||
		    (f == LAB_A_ASSUME_CLEAN && !a->assume_clean))
			continue;
		lab_chk_array(c, v, a, f,
		    _("%s is an md setting (mdadm %s): "
		      "engine %s has none"),
		    lab_array_key(f), md_only[i].opt, eng);
	}
	lab_chk_md_knobs_not_md(c, v, a, n);
	if (a->nlegs > 0 && lab_chk_array_own(a, LAB_A_LEGS))
		lab_chk_array(c, v, a, LAB_A_LEGS,
		    _("legs nest md arrays: "
		      "engine %s cannot have legs"),
		    eng);
}

static void
check_btrfs(struct lab_chk *c, const struct lab_variant *v,
    const struct lab_array *a, size_t n)
{
	char msg[ERR_MSG_MAX];

	not_md(c, v, a, n);
	if (n < btrfs_min[a->profile]) {
		snprintf(msg, sizeof msg,
		    _("btrfs %s needs at least %zu "
		      "devices, got %zu"),
		    lab_profile_name(a->profile), btrfs_min[a->profile], n);
		count_fail(c, v, a, msg);
	}
	if (lab_array_isset(a, LAB_A_METADATA_PROFILE) &&
	    n < btrfs_min[a->metadata_profile])
		lab_chk_array(c, v, a, LAB_A_METADATA_PROFILE,
		    _("btrfs "
		      "metadata profile %s needs at least %zu devices, got "
		      "%zu"),
		    lab_profile_name(a->metadata_profile),
		    btrfs_min[a->metadata_profile], n);
}

static void
check_single(struct lab_chk *c, const struct lab_variant *v,
    const struct lab_array *a, size_t n)
{
	char msg[ERR_MSG_MAX];

	not_md(c, v, a, n);
	if (lab_chk_array_own(a, LAB_A_LEVEL))
		lab_chk_array(c, v, a, LAB_A_LEVEL,
		    _("engine single is one "
		      "plain device: it has no level"));
	if (lab_chk_array_own(a, LAB_A_METADATA_PROFILE))
		lab_chk_array(c, v, a, LAB_A_METADATA_PROFILE,
		    _("metadata_profile is a btrfs setting (mkfs.btrfs -m): "
		      "engine single has none"));
	if (n != 1) {
		snprintf(msg, sizeof msg,
		    _("engine single uses exactly one "
		      "device, got %zu"),
		    n);
		count_fail(c, v, a, msg);
	}
}

static void
check_md(struct lab_chk *c, const struct lab_variant *v,
    const struct lab_array *a, size_t n)
{
	if (!lab_array_isset(a, LAB_A_LEVEL))
		lab_chk_array(c, v, a, LAB_A_LEVEL,
		    _("an md array needs a "
		      "level: 0, 1, 4, 5, 6 or 10"));
	else
		md_count(c, v, a, n);
	if (lab_chk_array_own(a, LAB_A_METADATA_PROFILE))
		lab_chk_array(c, v, a, LAB_A_METADATA_PROFILE,
		    _("metadata_profile is a btrfs setting (mkfs.btrfs -m); "
		      "for the md superblock version use metadata"));
	md_layout(c, v, a);
	md_chunk(c, v, a);
	if (a->md_level == LAB_MD_LEVEL_0 && a->spares.n > 0 &&
	    lab_chk_array_own(a, LAB_A_SPARES))
		lab_chk_array(c, v, a, LAB_A_SPARES,
		    _("RAID0 cannot use "
		      "spares: with no redundancy there is nothing to rebuild "
		      "onto them"));
	md_bitmap(c, v, a);
	md_journal(c, v, a);
	md_superblock(c, v, a, n);
	md_legs(c, v, a);
	lab_chk_md_knobs(c, v, a, n);
}

void
lab_chk_check_array(struct lab_chk *c, const struct lab_variant *v,
    const struct lab_array *a, enum lab_chk_role role, long implicit)
{
	size_t n = lab_chk_members(a, implicit);

	if (n == 0 && a->nlegs == 0 && implicit < 0 &&
	    !lab_array_isset(a, LAB_A_DEVICES)) {
		lab_chk_array(c, v, a, LAB_A_DEVICES,
		    role == LAB_CHK_TOP ? _("the array has no devices: list "
					    "devices, give legs, or "
					    "add a scratch group")
					: _("no devices: list the devices "
					    "this array is built from"));
		return;
	}
	switch (a->engine) {
	case LAB_ENGINE_MD:
		check_md(c, v, a, n);
		break;
	case LAB_ENGINE_BTRFS:
		if (role != LAB_CHK_TOP) {
			lab_chk_array(c, v, a, LAB_A_ENGINE,
			    _("engine btrfs "
			      "builds a filesystem, not a block device: %s "
			      "must "
			      "be md or single"),
			    role == LAB_CHK_LEG
				? _("a leg")
				: _("an external journal array"));
			break;
		}
		check_btrfs(c, v, a, n);
		break;
	case LAB_ENGINE_SINGLE:
		check_single(c, v, a, n);
		break;
	}
}
