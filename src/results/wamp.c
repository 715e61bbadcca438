/*
 * Write amplification from a run's series, and the level's ideal ratio:
 * see wamp.h. Any thread.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/i18n.h"
#include "disk/devstat.h"
#include "figures/series.h"
#include "lab/lab.h"
#include "measure/result.h"
#include "wamp.h"

int
wamp_part_of(const char *role, bool have_members)
{
	if (role == NULL)
		return have_members ? -1 : WAMP_MEMBERS;
	if (strcmp(role, DEVSTAT_ROLE_JOURNAL) == 0)
		return WAMP_JOURNAL;
	if (strcmp(role, DEVSTAT_ROLE_LOG) == 0)
		return WAMP_LOG;
	if (strcmp(role, "member") == 0)
		return WAMP_MEMBERS;
	/* An md array is its members' bytes again; a device beside members
	   holds them (dm over the disks). */
	if (strcmp(role, "array") == 0)
		return -1;
	return have_members ? -1 : WAMP_MEMBERS;
}

bool
wamp_measure(const struct series *s, uint64_t wrote, struct wamp *out)
{
	bool members = false;
	size_t counted = 0;

	memset(out, 0, sizeof *out);
	out->wrote = wrote;
	if (wrote == 0 || s->dropped > 0 || s->n == 0)
		return false;
	for (size_t k = 0; k < s->ndev; k++)
		if (s->dev[k].role != NULL &&
		    strcmp(s->dev[k].role, "member") == 0)
			members = true;
	for (size_t k = 0; k < s->ndev; k++) {
		int p = wamp_part_of(s->dev[k].role, members);

		if (p < 0)
			continue;
		for (size_t i = 0; i < s->n; i++)
			out->dev[p] += series_dev_at(s, k, i)->write_bytes;
		out->ndev[p]++;
		counted++;
	}
	return counted > 0;
}

uint64_t
wamp_wrote(const struct wl_result *res)
{
	uint64_t sum = 0;

	for (size_t t = 0; t < res->ntests; t++)
		sum += res->tests[t].bytes_written;
	return sum;
}

double
wamp_ratio(const struct wamp *w, int part)
{
	uint64_t dev = 0;

	if (w->wrote == 0)
		return NAN;
	if (part >= 0 && part < WAMP__PARTS)
		dev = w->dev[part];
	else
		for (int p = 0; p < WAMP__PARTS; p++)
			dev += w->dev[p];
	return (double)dev / (double)w->wrote;
}

const char *
wamp_key(int part)
{
	switch (part) {
	case WAMP_MEMBERS:
		return "wamp_members";
	case WAMP_JOURNAL:
		return "wamp_journal";
	case WAMP_LOG:
		return "wamp_log";
	default:
		return "wamp";
	}
}

/* Parity over n members: n / (n - parity), NAN with too few. */
static double
parity_ratio(size_t n, size_t parity, const char *what, char *how, size_t len)
{
	if (n <= parity) {
		how[0] = '\0';
		return NAN;
	}
	/* TRANSLATORS: "RAID5 of 4 in full stripes: 4/3". */
	snprintf(how, len, _("%s of %zu in full stripes: %zu/%zu"), what, n, n,
	    n - parity);
	return (double)n / (double)(n - parity);
}

static double
btrfs_ideal(const struct lab_array *a, size_t n, char *how, size_t len)
{
	const char *name = lab_profile_name(a->profile);
	unsigned k = lab_profile_copies(a->profile);

	if (a->profile == LAB_PROFILE_RAID5)
		return parity_ratio(n, 1, "btrfs raid5", how, len);
	if (a->profile == LAB_PROFILE_RAID6)
		return parity_ratio(n, 2, "btrfs raid6", how, len);
	/* TRANSLATORS: "btrfs raid1: 2 copies of the data". */
	snprintf(how, len, _("btrfs %s: %u copies of the data"), name, k);
	return k;
}

/* One md level over n members. */
static double
md_ideal(const struct lab_array *a, size_t n, char *how, size_t len)
{
	unsigned k;

	switch (a->md_level) {
	case LAB_MD_LEVEL_0:
		snprintf(how, len, _("RAID0: every byte once"));
		return 1;
	case LAB_MD_LEVEL_1:
		snprintf(how, len, _("RAID1 of %zu: %zu copies"), n, n);
		return (double)n;
	case LAB_MD_LEVEL_4:
		return parity_ratio(n, 1, "RAID4", how, len);
	case LAB_MD_LEVEL_5:
		return parity_ratio(n, 1, "RAID5", how, len);
	case LAB_MD_LEVEL_6:
		return parity_ratio(n, 2, "RAID6", how, len);
	case LAB_MD_LEVEL_10:
		k = lab_raid10_copies(a->layout);
		if (k == 0) {
			how[0] = '\0';
			return NAN;
		}
		snprintf(how, len, _("RAID10 %s: %u copies"),
		    a->layout ? a->layout : "n2", k);
		return k;
	}
	how[0] = '\0';
	return NAN;
}

/* Legs alike: the same level, layout and number of members. */
static bool
legs_alike(const struct lab_array *a)
{
	for (size_t i = 1; i < a->nlegs; i++) {
		const struct lab_array *x = &a->legs[0], *y = &a->legs[i];

		if (x->md_level != y->md_level ||
		    x->devices.n != y->devices.n || x->nlegs > 0 ||
		    y->nlegs > 0 ||
		    (x->layout == NULL) != (y->layout == NULL) ||
		    (x->layout && strcmp(x->layout, y->layout) != 0))
			return false;
	}
	return a->nlegs > 0;
}

double
wamp_ideal(const struct lab_array *a, size_t n, char *how, size_t len)
{
	char top[160], leg[160];
	double t, l;

	how[0] = '\0';
	if (a->engine == LAB_ENGINE_SINGLE) {
		snprintf(how, len, _("one device: every byte once"));
		return 1;
	}
	if (n == 0)
		n = a->devices.n;
	if (a->engine == LAB_ENGINE_BTRFS)
		return btrfs_ideal(a, n, how, len);
	if (a->nlegs == 0)
		return md_ideal(a, n, how, len);
	if (!legs_alike(a))
		return NAN;
	t = md_ideal(a, a->nlegs, top, sizeof top);
	l = md_ideal(&a->legs[0], a->legs[0].devices.n, leg, sizeof leg);
	if (!isfinite(t) || !isfinite(l))
		return NAN;
	/* TRANSLATORS: the top level's rule, then its legs'. */
	snprintf(how, len, _("%s, over legs of %s"), top, leg);
	return t * l;
}
