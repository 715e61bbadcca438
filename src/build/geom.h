/*
 * Stripe geometry of an array, and what to tell mkfs about it: how many
 * disks carry data in one stripe (per level and layout), the chunk, and
 * the ext (stride, stripe-width) and XFS (su, sw) values derived from
 * them, each with the rule that produced it in words, because the rule is
 * what people dispute (seed 003: stripe-width on a 4-disk RAID10 f2).
 * Pure functions of the lab model; any thread.
 *
 * The rules: RAID0 n data disks; RAID1 1 (mirrors do not stripe: no
 * geometry); RAID4/5 n-1; RAID6 n-2; RAID10 n / copies for near, far and
 * offset layouts alike (a stripe holds n chunks of which n / copies are
 * distinct data); nested arrays: RAID1 over RAID0 legs stripes like one
 * leg, RAID0 over mirrored legs has one data disk per leg with the top's
 * chunk. Spares and write journals carry no data. btrfs and single
 * devices have no stripe geometry to hand to mkfs.
 */
#ifndef RAIDLAB_GEOM_H
#define RAIDLAB_GEOM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct lab_array;

/* mdadm's chunk when none is given (mdadm >= 3.1). */
#define GEOM_MD_DEFAULT_CHUNK (512 * 1024)

struct geom {
	bool striped; /* a stripe geometry exists (not RAID1/btrfs/single) */
	unsigned members; /* active members (or legs) of the top array */
	unsigned data_disks; /* 0 when not striped or not a whole number */
	uint64_t chunk; /* bytes; GEOM_MD_DEFAULT_CHUNK when unset */
	char rule[384]; /* translated: "RAID10 f2: 4 devices / 2 copies = 2
			   data disks; chunk 256K" */
};

/*
 * The geometry of a (the variant's top array) with members active
 * members (devices or scratch disks, spares excluded). Always fills g;
 * returns true when g->striped and data_disks > 0.
 */
bool geom_of(const struct lab_array *a, unsigned members, struct geom *g);

/* ext stride and stripe-width in blocks of block bytes; false when the
   chunk is not a multiple of the block. */
bool geom_ext(const struct geom *g, unsigned block, uint64_t *stride,
    uint64_t *stripe_width);

#endif
