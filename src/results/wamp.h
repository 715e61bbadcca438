/*
 * Write amplification: what the member devices wrote while a workload
 * ran, divided by what the workload itself wrote (the sum of its tests'
 * bytes_written), from the run's series (series.h: one dev series per
 * watched device, with its role), split by what a device is to the
 * variant: the array's members (data and parity or mirror copies
 * together: RAID5/6 parity rotates over the members, so their bytes
 * cannot tell parity from data), an md write journal, a filesystem's
 * external journal or log. Beside it, the level's ideal ratio where one
 * is defined (a mirror of n: n; RAID10 or a btrfs profile of k copies: k;
 * RAID5 of n written in full stripes: n/(n-1); RAID6: n/(n-2); RAID0,
 * single: 1).
 *
 * Which devices count: the bottom ones. An md array (role "array", a
 * nested array's legs too) is never counted, its members are; a
 * "device" beside "member"s is a holder of them (a dm device over the
 * disks of a directory) and is left out too, so nothing is counted
 * twice. Records written before the "journal" and "log" roles existed
 * load as they are: their journal is a member (md) or a device.
 * Pure functions; any thread.
 */
#ifndef RAIDLAB_WAMP_H
#define RAIDLAB_WAMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct lab_array;
struct series;
struct wl_result;

/* What the counted devices are to the variant. */
enum wamp_part {
	WAMP_MEMBERS, /* the array's members, or the one device */
	WAMP_JOURNAL, /* an md write journal (role "journal") */
	WAMP_LOG, /* an fs external journal or log (role "log") */
	WAMP__PARTS,
};

/* One run's bytes. */
struct wamp {
	uint64_t wrote; /* by the workload */
	uint64_t dev[WAMP__PARTS]; /* by the counted devices */
	size_t ndev[WAMP__PARTS]; /* devices counted in each part */
};

/* The part a device of role counts in, with have_members: some device
   of the series is a "member"; -1: not counted. */
int wamp_part_of(const char *role, bool have_members);

/*
 * The bytes of one run: the devices of s counted as above, over the
 * whole series, against wrote. false when nothing can be said: no
 * device counted, nothing written, or samples dropped (records of older
 * raidlabs lost some).
 */
bool wamp_measure(const struct series *s, uint64_t wrote, struct wamp *out);

/* The bytes a workload run wrote: its tests' bytes_written, summed. */
uint64_t wamp_wrote(const struct wl_result *res);

/* dev[part] / wrote, or every part together for part < 0; NAN when
   wrote is 0. */
double wamp_ratio(const struct wamp *w, int part);

/* "wamp", "wamp_journal", "wamp_log"; "wamp_members" for WAMP_MEMBERS
   when shown apart from the total. */
const char *wamp_key(int part);

/*
 * The ideal ratio of array a (as the lab wrote it, legs included: a
 * nested array's is the top level's times its legs', when the legs are
 * alike) of n members (0: its devices; a variant's scratch disks that
 * no other role names are its members when it lists none,
 * lab_scratch_implicit()), NAN when none is defined (RAID4/5/6 with too few
 * members, legs that differ). how gets the rule in words, translated
 * ("RAID5 of 4 in full stripes: 4/3"), or "" when none.
 */
double wamp_ideal(const struct lab_array *a, size_t n, char *how, size_t len);

#endif
