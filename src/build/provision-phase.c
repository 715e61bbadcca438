/*
 * The phase the workloads meet, in the record (provision.h): the array's
 * state once the phase's steps ran (the failed members, /proc/mdstat,
 * md/degraded); a rebuild or scrub followed from the step that started
 * it (mdwatch.h) until md is idle again, however long after the
 * workloads; and the state after it, with md/mismatch_cnt. The
 * provisioner's thread.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/i18n.h"
#include "base/jsonx.h"
#include "base/xalloc.h"
#include "ident.h"
#include "mdsys.h"
#include "mdwatch.h"
#include "provision.h"
#include "statej.h"

/* A rebuild's progress every half second: a small array rebuilds in
   seconds, and md's own speed figure is a 30 s average. */
#define WATCH_MS 500
/* Longest wait for a rebuild or scrub after the workloads. */
#define PHASE_WAIT_S (24 * 3600.0)

/* md's state as the record keeps it: {mdstat, degraded, sync_action,
   mismatch_cnt, array_state}. */
static json_t *
state(const struct prov *p, const char *name)
{
	static const char *const attrs[] = { "degraded", "sync_action",
		"mismatch_cnt", "array_state", NULL };
	json_t *o = json_object();
	char *t = prov_read_text("/proc/mdstat");

	json_object_set_new(o, "mdstat", jsonx_str(t));
	free(t);
	for (const char *const *a = attrs; *a != NULL; a++) {
		char *v = mdsys_attr(p->sysroot, name, *a);

		json_object_set_new(o, *a, jsonx_str(v));
		free(v);
	}
	return o;
}

static json_t *
phase_obj(struct prov *p)
{
	json_t *o = json_object_get(p->build, "phase");

	if (o == NULL) {
		json_t *f = json_array();

		for (size_t i = 0; i < p->plan->nfailed; i++)
			json_array_append_new(f,
			    json_string(p->plan->failed[i]));
		o = json_pack("{s:s, s:o, s:o}", "name", p->plan->phase, "md",
		    jsonx_str(p->plan->phase_md), "failed", f);
		json_object_set_new(p->build, "phase", o);
	}
	return o;
}

/* Whether an undo of step s names the phase's array or a member it
   failed. */
static bool
names(const struct plan_step *s, const struct plan *pl)
{
	for (char ***u = s->undo; u != NULL && *u != NULL; u++)
		for (char **a = *u; *a != NULL; a++) {
			if (pl->phase_md != NULL &&
			    strcmp(*a, pl->phase_md) == 0)
				return true;
			for (size_t i = 0; i < pl->nfailed; i++)
				if (strcmp(*a, pl->failed[i]) == 0)
					return true;
		}
	return false;
}

/*
 * The phase changed the array's members on purpose (failed, removed, a
 * new superblock on the one added back): the identities that the undos
 * naming it (its own, the filesystem's wipe) and `raidlab cleanup` hold
 * it to are taken again, so that they still know it for the array this
 * run built.
 */
static void
refresh(struct prov *p, size_t upto)
{
	const struct plan *pl = p->plan;

	for (size_t j = 0; j < upto; j++) {
		const struct plan_step *s = &pl->steps[j];

		if (p->post[j] == NULL || !names(s, pl))
			continue;
		json_decref(p->post[j]);
		p->post[j] =
		    ident_take_undo((const char *const *const *)s->undo, true);
		statej_created(p->j, p->ids[j], p->post[j], NULL);
	}
}

void
prov_phase_step(struct prov *p, size_t i)
{
	char name[64];

	if (p->plan->phase == NULL)
		return;
	refresh(p, i);
	if ((int)i != p->plan->phase_step || p->plan->phase_md == NULL ||
	    !mdsys_kernel_name(p->plan->phase_md, name, sizeof name))
		return;
	p->watch = mdwatch_start(p->sysroot, name, WATCH_MS);
}

void
prov_phase_begin(struct prov *p)
{
	char name[64];

	if (p->plan->phase == NULL)
		return;
	phase_obj(p);
	if (p->plan->phase_md == NULL ||
	    !mdsys_kernel_name(p->plan->phase_md, name, sizeof name))
		return;
	json_object_set_new(phase_obj(p), "before", state(p, name));
}

/* The watch's reading in the generic form: md counts 512-byte sectors
   and KiB/s. */
static void
watch_read(struct mdwatch *w, struct prov_progress *pr)
{
	struct mdwatch_now n;

	mdwatch_now(w, &n);
	pr->watched = true;
	snprintf(pr->action, sizeof pr->action, "%s", n.action);
	pr->done = (uint64_t)n.done * 512;
	pr->total = (uint64_t)n.total * 512;
	pr->rate = (uint64_t)n.speed * 1024;
	pr->elapsed = n.elapsed;
	pr->finished = n.finished;
}

bool
prov_phase_progress(const struct prov *p, struct prov_progress *pr)
{
	const struct plan *pl = p->plan;
	size_t len = 0;

	memset(pr, 0, sizeof *pr);
	if (pl == NULL || pl->phase == NULL)
		return false;
	if (p->watch != NULL)
		watch_read(p->watch, pr);
	else if (p->watched.watched)
		*pr = p->watched;
	snprintf(pr->phase, sizeof pr->phase, "%s", pl->phase);
	snprintf(pr->dev, sizeof pr->dev, "%s",
	    pl->phase_md ? pl->phase_md : "");
	for (size_t i = 0; i < pl->nfailed && len < sizeof pr->failed; i++)
		len +=
		    (size_t)snprintf(pr->failed + len, sizeof pr->failed - len,
			"%s%s", i ? ", " : "", pl->failed[i]);
	pr->nfailed = (unsigned)pl->nfailed;
	for (size_t i = 0; i < pl->ndevs; i++)
		pr->nmembers += pl->devs[i].role == PLAN_ROLE_MEMBER;
	return true;
}

double
prov_progress_eta(const struct prov_progress *pr)
{
	if (!pr->watched || pr->finished || pr->rate == 0 || pr->total == 0 ||
	    pr->done > pr->total)
		return -1;
	return (double)(pr->total - pr->done) / (double)pr->rate;
}

/* prov_phase_end()'s wait: how the phase stands told each interval
   through cb->phase, then cb's own stop. */
struct wait_ctx {
	struct prov *p;
	const struct prov_cb *cb;
};

static bool
wait_tell(void *arg)
{
	struct wait_ctx *c = arg;
	struct prov_progress pr;

	if (c->cb->phase != NULL && prov_phase_progress(c->p, &pr))
		c->cb->phase(c->cb->arg, &pr);
	return c->cb->stopping != NULL && c->cb->stopping(c->cb->arg);
}

int
prov_phase_end(struct prov *p, const struct prov_cb *cb, bool wait)
{
	struct wait_ctx wc = { p, cb };
	char name[64], *line;
	int covered = -1;
	json_t *o;

	if (p->plan == NULL || p->plan->phase == NULL)
		return -1;
	o = phase_obj(p);
	if (p->watch != NULL) {
		/* md still busy now that the workloads ended: they all ran
		   beside the rebuild or scrub */
		covered = !mdwatch_done(p->watch);
		if (wait)
			json_object_set_new(o, "covered",
			    json_boolean(covered));
		if (wait && cb != NULL && cb->step != NULL) {
			line = xasprintf(_("waiting for md to finish the %s of "
					   "%s (md/sync_action idle)"),
			    p->plan->phase, p->plan->phase_md);
			cb->step(cb->arg, line);
			free(line);
		}
		if (wait)
			mdwatch_wait(p->watch, PHASE_WAIT_S,
			    cb != NULL ? wait_tell : NULL, &wc);
		/* joined by the wait, or read while it still runs: either way
		   its last reading */
		watch_read(p->watch, &p->watched);
		json_object_set_new(o, "sync", mdwatch_end(p->watch));
		p->watch = NULL;
	}
	if (json_object_get(o, "after") == NULL && p->plan->phase_md != NULL &&
	    mdsys_kernel_name(p->plan->phase_md, name, sizeof name))
		json_object_set_new(o, "after", state(p, name));
	return covered;
}
