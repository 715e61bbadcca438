/*
 * Stripe geometry rules: see geom.h. Any thread.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/i18n.h"
#include "base/units.h"
#include "geom.h"
#include "lab/lab.h"

static void
geom_leg_rule(const struct lab_array *a, struct geom *g)
{
	const struct lab_array *leg = &a->legs[0];
	char cb[UNITS_BUF];

	if (lab_legs_differ(a, LAB_A_LEVEL) ||
	    lab_legs_differ(a, LAB_A_CHUNK) ||
	    lab_legs_differ(a, LAB_A_DEVICES)) {
		/* A mirror is as aligned as its worst leg; a stripe over
		   unlike legs has no one width. */
		snprintf(g->rule, sizeof g->rule, "%s",
		    _("the legs differ in level, chunk or device count: no "
		      "one stripe geometry fits them all"));
	} else if (a->md_level == LAB_MD_LEVEL_1 &&
	    leg->md_level == LAB_MD_LEVEL_0) {
		g->striped = true;
		g->data_disks = (unsigned)leg->devices.n;
		g->chunk = leg->chunk ? leg->chunk : GEOM_MD_DEFAULT_CHUNK;
		snprintf(g->rule, sizeof g->rule,
		    _("RAID1 over RAID0 legs stripes like one leg: %u data "
		      "disks, chunk %s"),
		    g->data_disks, units_format_exact(g->chunk, cb, sizeof cb));
	} else if (a->md_level == LAB_MD_LEVEL_0) {
		g->striped = true;
		g->data_disks = (unsigned)a->nlegs;
		snprintf(g->rule, sizeof g->rule,
		    _("RAID0 over %zu legs: one data disk per leg, chunk %s"),
		    a->nlegs, units_format_exact(g->chunk, cb, sizeof cb));
	} else {
		snprintf(g->rule, sizeof g->rule,
		    _("RAID%d over RAID%d legs: no simple stripe geometry"),
		    lab_md_level_number(a->md_level),
		    lab_md_level_number(leg->md_level));
	}
}

bool
geom_of(const struct lab_array *a, unsigned members, struct geom *g)
{
	char cb[UNITS_BUF];
	unsigned n = members, copies;

	memset(g, 0, sizeof *g);
	g->members = n;
	g->chunk = a->chunk ? a->chunk : GEOM_MD_DEFAULT_CHUNK;
	if (a->engine != LAB_ENGINE_MD) {
		snprintf(g->rule, sizeof g->rule, "%s",
		    a->engine == LAB_ENGINE_BTRFS
			? _("btrfs allocates its own chunks: no stripe "
			    "geometry for mkfs")
			: _("a single device: no stripe geometry"));
		return false;
	}
	if (a->nlegs > 0) {
		g->members = (unsigned)a->nlegs;
		geom_leg_rule(a, g);
		return g->striped && g->data_disks > 0;
	}
	units_format_exact(g->chunk, cb, sizeof cb);
	g->striped = true;
	switch (a->md_level) {
	case LAB_MD_LEVEL_0:
		g->data_disks = n;
		snprintf(g->rule, sizeof g->rule,
		    _("RAID0: all %u devices carry data, chunk %s"), n, cb);
		break;
	case LAB_MD_LEVEL_1:
		g->striped = false;
		snprintf(g->rule, sizeof g->rule, "%s",
		    _("RAID1 mirrors without striping: no stripe geometry"));
		break;
	case LAB_MD_LEVEL_4:
	case LAB_MD_LEVEL_5:
		g->data_disks = n > 1 ? n - 1 : 0;
		snprintf(g->rule, sizeof g->rule,
		    _("RAID%d: %u devices - 1 parity = %u data disks, chunk "
		      "%s"),
		    lab_md_level_number(a->md_level), n, g->data_disks, cb);
		break;
	case LAB_MD_LEVEL_6:
		g->data_disks = n > 2 ? n - 2 : 0;
		snprintf(g->rule, sizeof g->rule,
		    _("RAID6: %u devices - 2 parity = %u data disks, chunk %s"),
		    n, g->data_disks, cb);
		break;
	case LAB_MD_LEVEL_10:
		copies = lab_raid10_copies(a->layout);
		g->data_disks = copies && n % copies == 0 ? n / copies : 0;
		if (g->data_disks > 0 && a->layout != NULL &&
		    a->layout[0] != 'n')
			snprintf(g->rule, sizeof g->rule,
			    _("RAID10 %s: %u devices / %u copies = %u data "
			      "disks (near, far and offset alike), chunk %s; "
			      "md's own I/O hint, which mkfs reads when told "
			      "nothing, counts %u (it divides by near copies "
			      "only)"),
			    a->layout, n, copies, g->data_disks, cb, n);
		else if (g->data_disks > 0)
			snprintf(g->rule, sizeof g->rule,
			    _("RAID10 %s: %u devices / %u copies = %u data "
			      "disks (near, far and offset alike), chunk %s"),
			    a->layout ? a->layout : "n2", n, copies,
			    g->data_disks, cb);
		else
			snprintf(g->rule, sizeof g->rule,
			    _("RAID10 %s: %u devices / %u copies is not a "
			      "whole number of data disks: no stripe geometry"),
			    a->layout ? a->layout : "n2", n, copies);
		break;
	}
	return g->striped && g->data_disks > 0;
}

bool
geom_ext(const struct geom *g, unsigned block, uint64_t *stride,
    uint64_t *stripe_width)
{
	if (!g->striped || g->data_disks == 0 || block == 0 ||
	    g->chunk % block != 0)
		return false;
	*stride = g->chunk / block;
	*stripe_width = *stride * g->data_disks;
	return true;
}
