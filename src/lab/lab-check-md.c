/*
 * lab_check()'s rules for md's own knobs (md(4)): the consistency policy
 * and what each needs, the write journal's mode, the RAID4/5/6 stripe
 * cache and its threads, write-mostly members and behind writes. What
 * this machine's md lacks (a bitmap file under mdadm 4.4, the lockless
 * bitmap) is not the lab's fault: src/build/mdtools.c refuses it where
 * the lab runs. The thread that owns the lab.
 */
#include "config.h"

#include <inttypes.h>
#include <string.h>

#include "base/i18n.h"
#include "lab-check.h"
#include "lab-schema.h"
#include "lab.h"

/* PPL keeps its log in the metadata area of each of at most 64 members
   (Documentation/driver-api/md/raid5-ppl.rst). */
#define PPL_MAX_DEVICES 64
/* md's stripe cache when nobody set it (raid5.c NR_STRIPES). */
#define STRIPE_CACHE_DEFAULT 256

/* ---------------------------------------------------------------- rules */

static bool
parity(const struct lab_array *a)
{
	return a->md_level == LAB_MD_LEVEL_4 || a->md_level == LAB_MD_LEVEL_5 ||
	    a->md_level == LAB_MD_LEVEL_6;
}

static void
consistency(struct lab_chk *c, const struct lab_variant *v,
    const struct lab_array *a, size_t n)
{
	int lv = lab_md_level_number(a->md_level);
	int bl = lab_array_line(a, LAB_A_BITMAP);

	if (!lab_array_isset(a, LAB_A_CONSISTENCY))
		return;
	if (a->md_level == LAB_MD_LEVEL_0) {
		lab_chk_array(c, v, a, LAB_A_CONSISTENCY,
		    _("RAID0 has no redundancy to keep consistent: it has no "
		      "consistency policy"));
		return;
	}
	switch (a->consistency) {
	case LAB_CONSISTENCY_RESYNC:
		if (a->bitmap != LAB_BITMAP_NONE)
			lab_chk_array(c, v, a, LAB_A_CONSISTENCY,
			    _("\"resync\" is md's policy without a bitmap; "
			      "this array has one (bitmap, line %d), which "
			      "makes it \"bitmap\""),
			    bl);
		else if (a->journal != NULL)
			lab_chk_array(c, v, a, LAB_A_CONSISTENCY,
			    _("\"resync\" is md's policy without a journal; "
			      "this array has one (journal, line %d), which "
			      "makes it \"journal\""),
			    lab_array_line(a, LAB_A_JOURNAL));
		break;
	case LAB_CONSISTENCY_BITMAP:
		if (a->bitmap == LAB_BITMAP_NONE)
			lab_chk_array(c, v, a, LAB_A_CONSISTENCY,
			    _("policy \"bitmap\" needs a write-intent bitmap: "
			      "set bitmap = \"internal\""));
		break;
	case LAB_CONSISTENCY_JOURNAL:
		if (a->journal == NULL)
			lab_chk_array(c, v, a, LAB_A_CONSISTENCY,
			    _("policy \"journal\" needs a write journal "
			      "device: set journal (RAID4, RAID5 and RAID6 "
			      "only)"));
		break;
	case LAB_CONSISTENCY_PPL:
		if (a->md_level != LAB_MD_LEVEL_5)
			lab_chk_array(c, v, a, LAB_A_CONSISTENCY,
			    _("PPL (partial parity log) exists only for "
			      "RAID5; this is RAID%d"),
			    lv);
		if (a->bitmap != LAB_BITMAP_NONE)
			lab_chk_array(c, v, a, LAB_A_CONSISTENCY,
			    _("PPL and a write-intent bitmap (bitmap, line "
			      "%d) are mutually exclusive: md keeps one or "
			      "the other"),
			    bl);
		if (a->journal != NULL)
			lab_chk_array(c, v, a, LAB_A_CONSISTENCY,
			    _("PPL and a write journal (journal, line %d) "
			      "are mutually exclusive: both close the write "
			      "hole"),
			    lab_array_line(a, LAB_A_JOURNAL));
		if (a->metadata == LAB_MD_METADATA_0_90)
			lab_chk_array(c, v, a, LAB_A_CONSISTENCY,
			    _("PPL needs metadata 1.x; superblock 0.90 "
			      "(metadata, line %d) has no room for it"),
			    lab_array_line(a, LAB_A_METADATA));
		if (n > PPL_MAX_DEVICES)
			lab_chk_array(c, v, a, LAB_A_CONSISTENCY,
			    _("PPL takes at most %d members; this array has "
			      "%zu"),
			    PPL_MAX_DEVICES, n);
		break;
	}
}

/* The keys that mean something only for RAID4/5/6's stripe cache. */
static const enum lab_a_field stripe_keys[] = {
	LAB_A_STRIPE_CACHE,
	LAB_A_GROUP_THREADS,
	LAB_A_SKIP_COPY,
	LAB_A_PREREAD_BYPASS,
};

static void
stripe_cache(struct lab_chk *c, const struct lab_variant *v,
    const struct lab_array *a)
{
	int64_t cache = lab_array_isset(a, LAB_A_STRIPE_CACHE)
	    ? a->stripe_cache
	    : STRIPE_CACHE_DEFAULT;

	for (size_t i = 0; i < sizeof stripe_keys / sizeof *stripe_keys; i++)
		if (!parity(a) && lab_chk_array_own(a, stripe_keys[i]))
			lab_chk_array(c, v, a, stripe_keys[i],
			    _("%s is a setting of md's stripe cache, which "
			      "only RAID4, RAID5 and RAID6 have; this is "
			      "RAID%d"),
			    lab_array_key(stripe_keys[i]),
			    lab_md_level_number(a->md_level));
	if (parity(a) && lab_array_isset(a, LAB_A_PREREAD_BYPASS) &&
	    a->preread_bypass > cache)
		lab_chk_array(c, v, a, LAB_A_PREREAD_BYPASS,
		    _("%" PRId64 " is more than the stripe cache's %" PRId64
		      " stripes: md refuses a threshold above it"),
		    a->preread_bypass, cache);
}

static bool
has_member(const struct lab_array *a, size_t n, const char *dev)
{
	int k = lab_scratch_index(dev);

	if (!lab_array_isset(a, LAB_A_DEVICES))
		return k >= 0 && (size_t)k < n;
	for (size_t i = 0; i < a->devices.n; i++)
		if (strcmp(a->devices.v[i], dev) == 0)
			return true;
	return false;
}

static void
write_mostly(struct lab_chk *c, const struct lab_variant *v,
    const struct lab_array *a, size_t n)
{
	const struct lab_strv *wm = &a->write_mostly;
	bool mirror =
	    a->md_level == LAB_MD_LEVEL_1 || a->md_level == LAB_MD_LEVEL_10;

	if (wm->n > 0 && !mirror) {
		lab_chk_array(c, v, a, LAB_A_WRITE_MOSTLY,
		    _("write-mostly members are a RAID1 and RAID10 setting "
		      "(reads go to the other mirrors); this is RAID%d"),
		    lab_md_level_number(a->md_level));
		return;
	}
	for (size_t i = 0; i < wm->n; i++) {
		if (!has_member(a, n, wm->v[i]))
			lab_chk_array(c, v, a, LAB_A_WRITE_MOSTLY,
			    _("%s is not a member of this array (devices)"),
			    wm->v[i]);
		for (size_t j = 0; j < i; j++)
			if (strcmp(wm->v[i], wm->v[j]) == 0)
				lab_chk_array(c, v, a, LAB_A_WRITE_MOSTLY,
				    _("%s is listed twice"), wm->v[i]);
	}
	if (wm->n > 0 && n > 0 && wm->n >= n)
		lab_chk_array(c, v, a, LAB_A_WRITE_MOSTLY,
		    _("every member is write-mostly: reads would have no "
		      "other member to go to"));
}

static void
write_behind(struct lab_chk *c, const struct lab_variant *v,
    const struct lab_array *a)
{
	if (!lab_array_isset(a, LAB_A_WRITE_BEHIND))
		return;
	if (a->md_level != LAB_MD_LEVEL_1)
		lab_chk_array(c, v, a, LAB_A_WRITE_BEHIND,
		    _("behind writes are RAID1's; this is RAID%d"),
		    lab_md_level_number(a->md_level));
	else if (a->bitmap == LAB_BITMAP_NONE)
		lab_chk_array(c, v, a, LAB_A_WRITE_BEHIND,
		    _("write_behind needs a write-intent bitmap: md counts "
		      "the writes that are behind in it"));
	else if (a->write_mostly.n == 0)
		lab_chk_array(c, v, a, LAB_A_WRITE_BEHIND,
		    _("write_behind needs write-mostly members "
		      "(write_mostly): only their writes go behind"));
}

/* Members a btrfs profile survives losing: its parity, or one copy
   less than it keeps (dup's copies share one device). */
static size_t
profile_survives(enum lab_profile p)
{
	if (lab_profile_parity(p) > 0)
		return lab_profile_parity(p);
	if (p == LAB_PROFILE_DUP)
		return 0;
	return lab_profile_copies(p) - 1;
}

/* Members the level survives losing; md's RAID10 is held to one copy
   less than it keeps, whichever members share a chunk; btrfs to its
   data and its metadata profiles both (mkfs.btrfs picks RAID1 metadata
   on several devices). */
static size_t
survives(const struct lab_array *a, size_t n)
{
	size_t d, m;

	if (a->engine == LAB_ENGINE_BTRFS) {
		d = profile_survives(a->profile);
		m = lab_array_isset(a, LAB_A_METADATA_PROFILE)
		    ? profile_survives(a->metadata_profile)
		    : 1;
		return d < m ? d : m;
	}
	switch (a->md_level) {
	case LAB_MD_LEVEL_1:
		return n > 0 ? n - 1 : 0;
	case LAB_MD_LEVEL_4:
	case LAB_MD_LEVEL_5:
		return 1;
	case LAB_MD_LEVEL_6:
		return 2;
	case LAB_MD_LEVEL_10:
		return lab_raid10_copies(a->layout) - 1;
	default:
		return 0;
	}
}

/* A member that is a disk the lab names, not a new scratch file. */
static bool
named_disks(const struct lab_array *a)
{
	for (size_t i = 0; i < a->devices.n; i++)
		if (lab_scratch_index(a->devices.v[i]) < 0)
			return true;
	return false;
}

static void
phases(struct lab_chk *c, const struct lab_variant *v,
    const struct lab_array *a, size_t n)
{
	bool faults =
	    a->phase == LAB_PHASE_DEGRADED || a->phase == LAB_PHASE_REBUILD;
	int64_t fail = lab_array_isset(a, LAB_A_FAIL) ? a->fail : 1;
	int lv = lab_md_level_number(a->md_level);

	if (lab_chk_array_own(a, LAB_A_FAIL) && !faults)
		lab_chk_array(c, v, a, LAB_A_FAIL,
		    _("fail is how many members the degraded and rebuild "
		      "phases fail; this phase is \"%s\""),
		    lab_phase_name(a->phase));
	if (lab_array_isset(a, LAB_A_SYNC_SPEED_MIN) &&
	    lab_array_isset(a, LAB_A_SYNC_SPEED_MAX) &&
	    a->sync_speed_min > a->sync_speed_max)
		lab_chk_array(c, v, a, LAB_A_SYNC_SPEED_MIN,
		    _("%" PRId64 " KiB/s is above sync_speed_max (%" PRId64
		      " KiB/s, line %d)"),
		    a->sync_speed_min, a->sync_speed_max,
		    lab_array_line(a, LAB_A_SYNC_SPEED_MAX));
	if (a->phase == LAB_PHASE_HEALTHY)
		return;
	if (a->md_level == LAB_MD_LEVEL_0) {
		lab_chk_array(c, v, a, LAB_A_PHASE,
		    _("RAID0 has no redundancy: a failed member takes the "
		      "array with it, and there is nothing to rebuild or "
		      "check"));
		return;
	}
	if (a->nlegs > 0) {
		lab_chk_array(c, v, a, LAB_A_PHASE,
		    _("phases fail and scrub the members of a plain md "
		      "array; a nested array's members are its legs"));
		return;
	}
	if (faults && a->spares.n > 0)
		lab_chk_array(c, v, a, LAB_A_PHASE,
		    _("a spare (spares, line %d) takes over at once: md "
		      "would rebuild onto it, not run degraded"),
		    lab_array_line(a, LAB_A_SPARES));
	/* --assume-clean keeps the parity the disks had: read-modify-write
	   carries it on, so a lost member is reconstructed wrong, and a
	   scrub counts every stripe never written. Scratch disks are new
	   sparse files, all zeros: consistent from the start. */
	if (a->assume_clean && named_disks(a) &&
	    (a->phase == LAB_PHASE_CHECK || (faults && lv >= 4 && lv <= 6)))
		lab_chk_array(c, v, a, LAB_A_ASSUME_CLEAN,
		    a->phase == LAB_PHASE_CHECK
			? _("assume_clean skips md's initial sync: on disks "
			    "not known to be zeros (not scratch), the scrub "
			    "would count every block never written as a "
			    "mismatch; drop it, and raidlab waits for the sync")
			: _("assume_clean skips md's initial sync: on disks "
			    "not known to be zeros (not scratch), RAID%d's "
			    "parity stays as the disks had it, and the member "
			    "failed would read back wrong; drop it, and "
			    "raidlab waits for the sync"),
		    lv);
	if (faults && n > 0 && (size_t)fail > survives(a, n))
		lab_chk_array(c, v, a, LAB_A_FAIL,
		    _("RAID%d of %zu members survives the loss of %zu; "
		      "failing %" PRId64 " would lose the data"),
		    lv, n, survives(a, n), fail);
}

void
lab_chk_md_knobs(struct lab_chk *c, const struct lab_variant *v,
    const struct lab_array *a, size_t n)
{
	if (a->bitmap == LAB_BITMAP_LOCKLESS &&
	    a->metadata != LAB_MD_METADATA_1_2)
		lab_chk_array(c, v, a, LAB_A_BITMAP,
		    _("a lockless bitmap needs metadata 1.2 (metadata, line "
		      "%d)"),
		    lab_array_line(a, LAB_A_METADATA));
	consistency(c, v, a, n);
	if (lab_array_isset(a, LAB_A_JOURNAL_MODE) && a->journal == NULL)
		lab_chk_array(c, v, a, LAB_A_JOURNAL_MODE,
		    _("journal_mode is the write journal's: set journal to "
		      "a device (RAID4, RAID5 and RAID6)"));
	stripe_cache(c, v, a);
	write_mostly(c, v, a, n);
	write_behind(c, v, a);
	phases(c, v, a, n);
}

/* btrfs's phases: degraded (a mount with members missing), rebuild
   (btrfs replace onto a blank disk) and check (a scrub). */
static void
btrfs_phase(struct lab_chk *c, const struct lab_variant *v,
    const struct lab_array *a, size_t n)
{
	int64_t fail = lab_array_isset(a, LAB_A_FAIL) ? a->fail : 1;

	if (a->phase == LAB_PHASE_HEALTHY || a->phase == LAB_PHASE_CHECK) {
		if (lab_chk_array_own(a, LAB_A_FAIL))
			lab_chk_array(c, v, a, LAB_A_FAIL,
			    _("fail is how many members the degraded and "
			      "rebuild phases fail; this phase is \"%s\""),
			    lab_phase_name(a->phase));
		return;
	}
	if (n > 0 && (size_t)fail > survives(a, n))
		lab_chk_array(c, v, a, LAB_A_FAIL,
		    _("btrfs %s of %zu devices survives the loss of %zu; "
		      "failing %" PRId64 " would lose the data"),
		    lab_profile_name(a->profile), n, survives(a, n), fail);
	else if (a->phase == LAB_PHASE_REBUILD && fail > 1)
		lab_chk_array(c, v, a, LAB_A_FAIL,
		    _("btrfs runs one replace at a time: the rebuild phase "
		      "replaces 1 member, not %" PRId64),
		    fail);
}

void
lab_chk_md_knobs_not_md(struct lab_chk *c, const struct lab_variant *v,
    const struct lab_array *a, size_t n)
{
	if (a->engine == LAB_ENGINE_BTRFS)
		btrfs_phase(c, v, a, n);
	/* md(4)'s knobs follow assume_clean in the table (the keys before
	   it, mdadm's, are lab-check-array.c's md_only[]); the table says
	   which engines have each */
	for (const struct lab_key *k = &lab_array_keys[LAB_A_CONSISTENCY];
	     k->name != NULL; k++)
		if (k->field != LAB_A_LEGS &&
		    !(k->where & (1u << (unsigned)a->engine)) &&
		    lab_chk_array_own(a, (enum lab_a_field)k->field))
			lab_chk_array(c, v, a, (enum lab_a_field)k->field,
			    _("%s is an md setting (md(4)): engine %s has "
			      "none"),
			    k->name, lab_engine_name(a->engine));
}
