/*
 * Plan builder, the fault experiments: once the filesystem is mounted,
 * the steps that put the top md array into the lab's phase for the
 * workloads (plan.h): fail and remove members (degraded), then also
 * clear and add them back so that md rebuilds while the workloads run
 * (rebuild), or start a scrub (check); and the rate limits of md's
 * resync. Every fault is a plan step, printed and recorded like the
 * rest; the teardown that stops the array and clears every member undoes
 * them all. Thread of the caller.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "base/i18n.h"
#include "base/xalloc.h"
#include "lab/lab.h"
#include "plan-int.h"

static char **
mdadm_argv(const char *op, const char *md, const char *dev)
{
	char **v = xcalloc(5, sizeof *v);

	v[0] = xstrdup("mdadm");
	v[1] = xstrdup(op);
	v[2] = xstrdup(md);
	if (dev != NULL)
		v[3] = xstrdup(dev);
	return v;
}

static void
speed(struct pb *b, const char *md, const char *attr, int64_t kib,
    const char *why)
{
	char v[32];

	snprintf(v, sizeof v, "%lld", (long long)kib);
	pb_sysfs(b, md, attr, v, why);
}

/* The last `fail` members, failed and removed; for a rebuild, cleared
   and added back. */
static void
faults(struct pb *b, const struct lab_array *a, const char *md)
{
	struct plan *p = b->p;
	char **m = NULL;
	size_t n = pb_members(b, a, true, &m);
	size_t k = lab_array_isset(a, LAB_A_FAIL) ? (size_t)a->fail : 1;

	p->fault_step = (int)p->nsteps;
	for (size_t i = n - (k < n ? k : n); i < n; i++) {
		char *d = pb_dev(b, m[i]);

		pb_failed(b, d);
		pb_run(b, mdadm_argv("--fail", md, d),
		    _("the phase: md stops using the member, as when a disk "
		      "dies; the array runs degraded"),
		    NULL, NULL);
		pb_run(b, mdadm_argv("--remove", md, d), NULL, NULL, NULL);
		free(d);
	}
	for (size_t i = 0; a->phase == LAB_PHASE_REBUILD && i < p->nfailed;
	     i++) {
		pb_run(b, mdadm_argv("--zero-superblock", p->failed[i], NULL),
		    _("a blank disk, as a replacement is: md rebuilds all of "
		      "it (--re-add with a bitmap would copy only what "
		      "changed)"),
		    NULL, NULL);
		pb_run(b, mdadm_argv("--add", md, p->failed[i]),
		    _("md starts rebuilding onto it at once; the workloads "
		      "run while it does, and the record keeps its progress "
		      "and how long it took"),
		    NULL, NULL);
		p->phase_step = (int)p->nsteps - 1;
	}
	for (size_t i = 0; i < n; i++)
		free(m[i]);
	free(m);
}

void
pb_phase(struct pb *b, const char *md)
{
	const struct lab_array *a = &b->v->array;
	struct plan *p = b->p;

	p->phase_step = -1;
	if (a->engine != LAB_ENGINE_MD || a->md_level == LAB_MD_LEVEL_0 ||
	    a->nlegs > 0)
		return;
	if (lab_array_isset(a, LAB_A_SYNC_SPEED_MIN))
		speed(b, md, "md/sync_speed_min", a->sync_speed_min,
		    _("the floor md keeps a resync at even when the array is "
		      "busy (KiB/s, per member)"));
	if (lab_array_isset(a, LAB_A_SYNC_SPEED_MAX))
		speed(b, md, "md/sync_speed_max", a->sync_speed_max,
		    _("the cap on md's resync, rebuild and check (KiB/s, per "
		      "member)"));
	if (a->phase == LAB_PHASE_HEALTHY)
		return;
	p->phase = xstrdup(lab_phase_name(a->phase));
	p->phase_md = xstrdup(md);
	if (a->phase == LAB_PHASE_CHECK) {
		pb_sysfs(b, md, "md/sync_action", "check",
		    _("a scrub: md reads every member and counts what "
		      "disagrees (md/mismatch_cnt); the workloads run while "
		      "it does"));
		p->phase_step = (int)p->nsteps - 1;
		return;
	}
	faults(b, a, md);
}
