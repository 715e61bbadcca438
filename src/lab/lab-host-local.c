/*
 * One host's share of a fleet lab made this machine's (lab.h,
 * lab_host_localize()): what `raidlab run --fleet-host NAME` runs. Each
 * variant placed on the host becomes a local one, its devices mapped by
 * the host's `disks` as `--disk` maps them here: a mapped scratch disk is
 * the host's device, the scratch disks it does not map stay loop devices
 * over sparse files (numbered again from scratch:0, in their order), and
 * a mapped path is the host's path. The thread that owns the lab.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/i18n.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "lab-load.h"
#include "lab.h"

struct lctx {
	const struct lab_host *h;
	/* scratch:N of the variant -> what it becomes: the host's device,
	   or "scratch:M" (renumbered); [count] */
	char **to;
	int count;
};

/* lab_devmap_fn: a scratch disk to its host device or new number, a
   path the host maps to its path there. */
static const char *
map_dev(void *arg, const char *dev)
{
	struct lctx *c = arg;
	int idx = lab_scratch_index(dev);

	if (idx >= 0 && idx < c->count)
		return c->to[idx];
	return lab_host_device(c->h, dev);
}

/* Name the scratch disks the array takes without naming them. False
   when they cannot be named: members listed beside them. */
static bool
name_implicit(struct lab_variant *v)
{
	struct lab_array *a = &v->array;

	if (lab_scratch_implicit(v) == 0 || !lab_variant_isset(v, LAB_V_ARRAY))
		return true;
	if (a->devices.n != 0 || a->nlegs != 0)
		return false;
	lab_scratch_name_implicit(v);
	return true;
}

/* Variant v placed on h, made local with h's devices; false (said)
   when h maps a scratch disk v cannot name. */
static bool
localize(const struct lab *lab, struct lab_variant *v, const struct lab_host *h,
    struct errlist *errs)
{
	struct lctx c = { h, NULL, v->scratch_count };
	char field[LAB_PATH_MAX], name[32];
	int mapped = 0, left = 0;

	c.to = xcalloc((size_t)c.count + 1, sizeof *c.to);
	for (int i = 0; i < c.count; i++) {
		const char *to;

		snprintf(name, sizeof name, "scratch:%d", i);
		if ((to = lab_host_device(h, name)) != NULL) {
			c.to[i] = xstrdup(to);
			mapped++;
		}
	}
	if (mapped > 0 && !name_implicit(v)) {
		errlist_add(errs, -EINVAL, lab->path,
		    lab_host_line(h, LAB_H_DISKS),
		    lab_host_path(h, LAB_H_DISKS, field, sizeof field),
		    _("variant %s lists some members and takes the others "
		      "from its scratch disks: name them all to map its "
		      "scratch disks on this host"),
		    v->name ? v->name : "?");
		for (int i = 0; i < c.count; i++)
			free(c.to[i]);
		free(c.to);
		return false;
	}
	for (int i = 0; i < c.count; i++)
		if (c.to[i] == NULL)
			c.to[i] = xasprintf("scratch:%d", left++);
	lab_variant_map_devices(v, map_dev, &c);
	if (mapped > 0 && left == 0) {
		/* every scratch disk is the host's: no scratch group left */
		lab_scratch_drop(v);
	} else if (mapped > 0) {
		v->scratch_count = left;
		v->set |= 1u << LAB_V_SCRATCH_COUNT;
		v->own |= 1u << LAB_V_SCRATCH_COUNT;
	}
	/* local now, in its own words, whatever the defaults say */
	lab_strv_done(&v->hosts);
	lab_strv_push(&v->hosts, "local");
	v->set |= 1u << LAB_V_HOSTS;
	v->own |= 1u << LAB_V_HOSTS;
	for (int i = 0; i < c.count; i++)
		free(c.to[i]);
	free(c.to);
	return true;
}

int
lab_host_localize(struct lab *lab, const char *name, bool *on,
    struct errlist *errs)
{
	const struct lab_host *h = lab_host_find(lab, name);
	int bad = 0;

	if (h == NULL)
		return -ENOENT;
	for (size_t i = 0; i < lab->nvariants; i++) {
		struct lab_variant *v = &lab->variants[i];

		on[i] = lab_variant_on_host(v, h);
		if (on[i] && !localize(lab, v, h, errs))
			bad++;
	}
	return bad ? -EINVAL : 0;
}
