/*
 * --disk scratch:N=DEV on a loaded lab (lab-scale.h): every "scratch:N"
 * a variant names (members, spares, legs, write journal, journal device,
 * journal array) becomes DEV, and the variant's scratch group goes, so
 * the plan builds on the real device with the guards of any real device
 * (inventory, --yes-destroy). The defaults group is rewritten the same
 * way, so the record's lab text says what ran. A variant placed on hosts
 * is left as it is: its devices are the hosts' (their `disks`). The
 * thread that owns the lab.
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
#include "lab-scale.h"
#include "lab.h"

int
lab_scale_add_disk(struct lab_scale *s, const char *arg, struct err *e)
{
	const char *to = NULL;
	char *from;
	int idx = -1;

	/* a host's disks take the same pairs (lab-hosts.c) */
	if (lab_disk_pair(arg, &from, &to) == 0)
		idx = lab_scratch_index(from);
	free(from);
	if (idx < 0)
		return err_set(e, -EINVAL, NULL, 0, "--disk",
		    _("%s: expected scratch:N=/dev/DEVICE"), arg);
	for (size_t i = 0; i < s->ndisks; i++) {
		if (s->disks[i].index == idx)
			return err_set(e, -EINVAL, NULL, 0, "--disk",
			    _("scratch:%d is given twice"), idx);
		if (strcmp(s->disks[i].path, to) == 0)
			return err_set(e, -EINVAL, NULL, 0, "--disk",
			    _("%s is given for scratch:%d and scratch:%d"), to,
			    s->disks[i].index, idx);
	}
	s->disks = xreallocarray(s->disks, s->ndisks + 1, sizeof *s->disks);
	s->disks[s->ndisks].index = idx;
	s->disks[s->ndisks++].path = xstrdup(to);
	return 0;
}

struct dctx {
	const struct lab_scale *s;
	const struct lab_variant *v;
	struct errlist *errs;
	int bad;
	bool *used; /* [s->ndisks]: a variant names that --disk's index */
	int *seen; /* every scratch:N a variant names, once each */
	size_t nseen;
};

/* Note that a variant names scratch:idx. */
static void
seen_add(struct dctx *c, int idx)
{
	size_t i;

	for (i = 0; i < c->nseen && c->seen[i] != idx; i++)
		;
	if (i < c->nseen)
		return;
	c->seen = xreallocarray(c->seen, c->nseen + 1, sizeof *c->seen);
	c->seen[c->nseen++] = idx;
}

/* The device --disk gives for dev; dev itself when it is no scratch
   disk; NULL (said) when no --disk maps it. */
static const char *
mapped(struct dctx *c, const char *dev)
{
	char path[LAB_PATH_MAX];
	int idx = lab_scratch_index(dev);

	if (idx < 0)
		return dev;
	seen_add(c, idx);
	for (size_t i = 0; i < c->s->ndisks; i++)
		if (c->s->disks[i].index == idx) {
			c->used[i] = true;
			return c->s->disks[i].path;
		}
	errlist_add(c->errs, -EINVAL, "--disk", 0,
	    lab_variant_path(c->v, -1, path, sizeof path),
	    _("uses scratch:%d, which no --disk gives"), idx);
	c->bad++;
	return NULL;
}

/* lab_devmap_fn over mapped(). */
static const char *
map_dev(void *arg, const char *dev)
{
	return mapped(arg, dev);
}

static void
map_variant(struct dctx *c, struct lab_variant *v)
{
	struct lab_array *a = &v->array;

	c->v = v;
	if (!v->is_defaults && a->devices.n == 0 && a->nlegs == 0 &&
	    v->scratch_count > 0 && lab_variant_isset(v, LAB_V_ARRAY))
		lab_scratch_name_implicit(v);
	lab_variant_map_devices(v, map_dev, c);
	lab_scratch_drop(v);
}

static int
cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* A --disk for an index no variant uses is refused: a typo (scratch:4
   for scratch:3) would otherwise pass, and leave the disk meant
   unprotected by the guards of the one it was meant for. */
static void
unused_disks(struct dctx *c, const struct lab *lab)
{
	struct strbuf uses;

	strbuf_init(&uses);
	/* in index order: the lab's disks as a user numbers them */
	if (c->nseen > 0)
		qsort(c->seen, c->nseen, sizeof *c->seen, cmp_int);
	for (size_t i = 0; i < c->nseen; i++)
		strbuf_printf(&uses, "%sscratch:%d", i ? ", " : "", c->seen[i]);
	for (size_t i = 0; i < c->s->ndisks; i++) {
		if (c->used[i])
			continue;
		if (uses.len > 0)
			errlist_add(c->errs, -EINVAL, "--disk", 0, NULL,
			    _("scratch:%d=%s: no variant of %s uses scratch:%d "
			      "(it uses %s)"),
			    c->s->disks[i].index, c->s->disks[i].path,
			    lab->path ? lab->path : "<string>",
			    c->s->disks[i].index, uses.s);
		else
			errlist_add(c->errs, -EINVAL, "--disk", 0, NULL,
			    _("scratch:%d=%s: no variant of %s uses a scratch "
			      "disk"),
			    c->s->disks[i].index, c->s->disks[i].path,
			    lab->path ? lab->path : "<string>");
		c->bad++;
	}
	strbuf_done(&uses);
}

int
lab_scale_disks(struct lab *lab, struct lab_scale *s, struct errlist *errs)
{
	struct dctx c = { s, NULL, errs, 0, xcalloc(s->ndisks + 1, 1), NULL,
		0 };

	if (lab->defaults != NULL && !lab_variant_remote(lab->defaults))
		map_variant(&c, lab->defaults);
	/* --disk names this machine's disks: a variant placed on hosts
	   keeps its scratch names, which each host's disks map */
	for (size_t i = 0; i < lab->nvariants; i++)
		if (!lab_variant_remote(&lab->variants[i]))
			map_variant(&c, &lab->variants[i]);
	unused_disks(&c, lab);
	free(c.used);
	free(c.seen);
	return c.bad ? -EINVAL : 0;
}
