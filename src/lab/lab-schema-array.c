/*
 * The array group's schema (lab-schema.h): a line per key of struct
 * lab_array, a variant's array, a leg and a journal's array alike, and
 * the rules of where each key applies. The thread that owns the lab.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>

#include "base/i18n.h"
#include "lab-load.h"
#include "lab-schema.h"
#include "lab.h"

#define AOFF(m) offsetof(struct lab_array, m)
#define MD LAB_KEY_MD
#define BTRFS LAB_KEY_BTRFS
#define ANY LAB_KEY_ANY

/* ---------------------------------------------------------------- rules */

static bool
level_not_0(const void *g)
{
	const struct lab_array *a = g;

	return a->md_level != LAB_MD_LEVEL_0;
}

static bool
level_not_1(const void *g)
{
	const struct lab_array *a = g;

	return a->md_level != LAB_MD_LEVEL_1;
}

/* RAID1 has no layout; RAID4 has one, but mdadm takes none for it. */
static bool
has_layout(const void *g)
{
	const struct lab_array *a = g;

	return a->md_level != LAB_MD_LEVEL_1 && a->md_level != LAB_MD_LEVEL_4;
}

static bool
parity(const void *g)
{
	const struct lab_array *a = g;

	return a->md_level == LAB_MD_LEVEL_4 || a->md_level == LAB_MD_LEVEL_5 ||
	    a->md_level == LAB_MD_LEVEL_6;
}

static bool
bitmap_file(const void *g)
{
	const struct lab_array *a = g;

	return level_not_0(g) && a->bitmap == LAB_BITMAP_FILE;
}

static bool
bitmap_some(const void *g)
{
	const struct lab_array *a = g;

	return level_not_0(g) && a->bitmap != LAB_BITMAP_NONE;
}

/* The write journal's mode: where there is a write journal. */
static bool
has_journal(const void *g)
{
	const struct lab_array *a = g;

	return parity(g) && a->journal != NULL;
}

/* md reads from write-mostly members last: RAID1, and RAID10's mirrors. */
static bool
mirrors(const void *g)
{
	const struct lab_array *a = g;

	return a->md_level == LAB_MD_LEVEL_1 || a->md_level == LAB_MD_LEVEL_10;
}

/* Behind writes are RAID1's, counted in its bitmap. */
static bool
behind(const void *g)
{
	const struct lab_array *a = g;

	return a->md_level == LAB_MD_LEVEL_1 && a->bitmap != LAB_BITMAP_NONE;
}

/* An array that survives a lost member: md but RAID0, btrfs with
   copies or parity. */
static bool
redundant(const void *g)
{
	const struct lab_array *a = g;

	if (a->engine == LAB_ENGINE_BTRFS)
		return a->profile != LAB_PROFILE_SINGLE &&
		    a->profile != LAB_PROFILE_DUP &&
		    a->profile != LAB_PROFILE_RAID0;
	return level_not_0(g);
}

/* Members fail in the degraded and rebuild phases. */
static bool
faults(const void *g)
{
	const struct lab_array *a = g;

	return redundant(g) &&
	    (a->phase == LAB_PHASE_DEGRADED || a->phase == LAB_PHASE_REBUILD);
}

/* Nesting is RAID1 over RAID0 legs or RAID0 over RAID1 legs. */
static bool
nests(const void *g)
{
	const struct lab_array *a = g;

	return a->md_level == LAB_MD_LEVEL_0 || a->md_level == LAB_MD_LEVEL_1;
}

/* ---------------------------------------------------------------- table */

/* In enum lab_a_field order: lab_array_schema() indexes it (and
   tests/unit/test-lab-schema.c checks that). */
const struct lab_key lab_array_keys[] = {
	{ "engine", LAB_KEY_ENUM, LAB_A_ENGINE, AOFF(engine),
	    .names = lab_engine_names, .dflt = LAB_ENGINE_MD, .where = ANY,
	    .flags = LAB_KEY_NOT_LEG, .label = N_("engine") },
	/* As written; its meaning waits for the merged engine
	   (lab_resolve_array()). */
	{ "level", LAB_KEY_STRING, LAB_A_LEVEL, AOFF(level_text),
	    .where = MD | BTRFS, .load = lab_load_level, .label = N_("level") },
	{ "metadata_profile", LAB_KEY_ENUM, LAB_A_METADATA_PROFILE,
	    AOFF(metadata_profile), .names = lab_profile_names,
	    .dflt = LAB_PROFILE_SINGLE, .where = BTRFS, .flags = LAB_KEY_FORM,
	    .label = N_("metadata profile"), .unset = N_("mkfs decides") },
	{ "layout", LAB_KEY_STRING, LAB_A_LAYOUT, AOFF(layout), .where = MD,
	    .applies = has_layout, .label = N_("layout") },
	{ "chunk", LAB_KEY_SIZE, LAB_A_CHUNK, AOFF(chunk), .where = MD,
	    .applies = level_not_1, .label = N_("chunk") },
	{ "devices", LAB_KEY_DEVICES, LAB_A_DEVICES, AOFF(devices),
	    .where = ANY, .label = N_("devices") },
	{ "spares", LAB_KEY_DEVICES, LAB_A_SPARES, AOFF(spares), .where = MD,
	    .applies = level_not_0, .label = N_("spares") },
	{ "metadata", LAB_KEY_ENUM, LAB_A_METADATA, AOFF(metadata),
	    .names = lab_md_metadata_names, .dflt = LAB_MD_METADATA_1_2,
	    .where = MD, .load = lab_load_md_metadata, .flags = LAB_KEY_FORM,
	    .label = N_("superblock") },
	{ "bitmap", LAB_KEY_SPECIAL, LAB_A_BITMAP, .merge = LAB_MERGE_WHOLE,
	    .where = MD, .applies = level_not_0, .label = N_("bitmap") },
	{ "bitmap.file", LAB_KEY_STRING, LAB_A_BITMAP_FILE, AOFF(bitmap_file),
	    .merge = LAB_MERGE_SUB, .where = MD, .applies = bitmap_file,
	    .label = N_("bitmap file") },
	{ "bitmap_chunk", LAB_KEY_SIZE, LAB_A_BITMAP_CHUNK, AOFF(bitmap_chunk),
	    .where = MD, .applies = bitmap_some, .load = lab_load_bitmap_chunk,
	    .label = N_("bitmap chunk") },
	{ "journal", LAB_KEY_DEVICE, LAB_A_JOURNAL, AOFF(journal), .where = MD,
	    .applies = parity, .label = N_("write journal") },
	{ "assume_clean", LAB_KEY_BOOL, LAB_A_ASSUME_CLEAN, AOFF(assume_clean),
	    .where = MD, .flags = LAB_KEY_FORM, .label = N_("assume clean") },
	/* md(4)'s knobs: each is left as md has it unless set, and the
	   record keeps what it was either way (lab-check-md.c, plan-md.c) */
	{ "consistency_policy", LAB_KEY_ENUM, LAB_A_CONSISTENCY,
	    AOFF(consistency), .names = lab_consistency_names,
	    .dflt = LAB_CONSISTENCY_RESYNC, .where = MD, .applies = level_not_0,
	    .flags = LAB_KEY_FORM, .label = N_("consistency policy"),
	    .unset = N_("md decides") },
	{ "journal_mode", LAB_KEY_ENUM, LAB_A_JOURNAL_MODE, AOFF(journal_mode),
	    .names = lab_journal_mode_names,
	    .dflt = LAB_JOURNAL_MODE_WRITE_THROUGH, .where = MD,
	    .applies = has_journal, .flags = LAB_KEY_FORM,
	    .label = N_("journal mode"), .unset = N_("as md has it") },
	{ "stripe_cache_size", LAB_KEY_INT, LAB_A_STRIPE_CACHE,
	    AOFF(stripe_cache), .min = 17, .max = 32768, .dflt = 256,
	    .where = MD, .applies = parity, .flags = LAB_KEY_FORM,
	    .label = N_("stripe cache (stripes)"),
	    .unset = N_("as md has it") },
	{ "group_thread_cnt", LAB_KEY_INT, LAB_A_GROUP_THREADS,
	    AOFF(group_threads), .min = 0, .max = 8192, .where = MD,
	    .applies = parity, .flags = LAB_KEY_FORM,
	    .label = N_("worker threads per group"),
	    .unset = N_("as md has it") },
	{ "skip_copy", LAB_KEY_BOOL, LAB_A_SKIP_COPY, AOFF(skip_copy),
	    .where = MD, .applies = parity, .flags = LAB_KEY_FORM,
	    .label = N_("skip copy"), .unset = N_("as md has it") },
	{ "preread_bypass_threshold", LAB_KEY_INT, LAB_A_PREREAD_BYPASS,
	    AOFF(preread_bypass), .min = 0, .max = 32768, .dflt = 1,
	    .where = MD, .applies = parity, .flags = LAB_KEY_FORM,
	    .label = N_("preread bypass threshold"),
	    .unset = N_("as md has it") },
	{ "write_mostly", LAB_KEY_DEVICES, LAB_A_WRITE_MOSTLY,
	    AOFF(write_mostly), .where = MD, .applies = mirrors,
	    .label = N_("write-mostly members") },
	{ "write_behind", LAB_KEY_INT, LAB_A_WRITE_BEHIND, AOFF(write_behind),
	    .min = 1, .max = 16383, .dflt = 256, .where = MD, .applies = behind,
	    .flags = LAB_KEY_FORM, .label = N_("write behind (writes)"),
	    .unset = N_("none") },
	{ "sync_speed_min", LAB_KEY_INT, LAB_A_SYNC_SPEED_MIN,
	    AOFF(sync_speed_min), .min = 1, .max = INT32_MAX, .where = MD,
	    .applies = level_not_0, .flags = LAB_KEY_FORM | LAB_KEY_NOT_LEG,
	    .label = N_("rebuild speed floor (KiB/s)"),
	    .unset = N_("as md has it") },
	{ "sync_speed_max", LAB_KEY_INT, LAB_A_SYNC_SPEED_MAX,
	    AOFF(sync_speed_max), .min = 1, .max = INT32_MAX, .where = MD,
	    .applies = level_not_0, .flags = LAB_KEY_FORM | LAB_KEY_NOT_LEG,
	    .label = N_("rebuild speed cap (KiB/s)"),
	    .unset = N_("as md has it") },
	/* the fault experiments (lab-check-md.c: never more failed than
	   the level survives) */
	{ "phase", LAB_KEY_ENUM, LAB_A_PHASE, AOFF(phase),
	    .names = lab_phase_names, .dflt = LAB_PHASE_HEALTHY,
	    .where = MD | BTRFS, .applies = redundant,
	    .flags = LAB_KEY_FORM | LAB_KEY_NOT_LEG, .label = N_("phase") },
	{ "fail", LAB_KEY_INT, LAB_A_FAIL, AOFF(fail), .min = 1, .max = 64,
	    .dflt = 1, .where = MD | BTRFS, .applies = faults,
	    .flags = LAB_KEY_FORM | LAB_KEY_NOT_LEG,
	    .label = N_("members failed") },
	{ "legs", LAB_KEY_SPECIAL, LAB_A_LEGS, .merge = LAB_MERGE_WHOLE,
	    .where = MD, .applies = nests, .flags = LAB_KEY_NOT_LEG,
	    .label = N_("nested legs") },
	{ NULL },
};

const struct lab_key *
lab_array_schema(enum lab_a_field f)
{
	if ((int)f < 0 || f >= LAB_A__COUNT)
		return NULL;
	return &lab_array_keys[f];
}

bool
lab_array_key_applies(const struct lab_array *a, enum lab_a_field f)
{
	const struct lab_key *k = lab_array_schema(f);

	if (k == NULL || !(k->where & (1u << (unsigned)a->engine)))
		return false;
	return k->applies == NULL || k->applies(a);
}
