/*
 * The phase the workloads meet, in the record (provision.h): the array's
 * state once the phase's steps ran (the failed members; md's
 * /proc/mdstat and md/degraded, or btrfs's device stats and scrub
 * status); a rebuild or scrub followed from the step that started it
 * (mdwatch.h, btrfswatch.h) until it ended, however long after the
 * workloads; and the state after it, with md/mismatch_cnt or btrfs's
 * error counters. The provisioner's thread.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/i18n.h"
#include "base/jsonx.h"
#include "base/xalloc.h"
#include "btrfswatch.h"
#include "exec.h"
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
/* A btrfs status command that takes longer is stuck. */
#define BTRFS_STATE_TIMEOUT 30.0
/* Where btrfs-progs keeps each filesystem's last scrub (its
   scrub.status.FSID), for `btrfs scrub status` after the fact. */
#define BTRFS_STATUS_DIR "/var/lib/btrfs"

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

/* The phase is btrfs's own (engine btrfs): no md array, the mount. */
static bool
is_btrfs(const struct prov *p)
{
	return p->plan->phase_md == NULL && p->plan->fstype != NULL &&
	    strcmp(p->plan->fstype, "btrfs") == 0;
}

/* What btrfs runs in the phase: "scrub" (check), "replace" (rebuild). */
static const char *
btrfs_op(const struct prov *p)
{
	return strcmp(p->plan->phase, "rebuild") == 0 ? "replace" : "scrub";
}

/* The output of av (btrfs ... mnt), whatever its status: the record
   keeps what btrfs said. */
static json_t *
btrfs_output(const char *const *av)
{
	struct exec_opts o = { .timeout = BTRFS_STATE_TIMEOUT };
	struct exec_result r;
	json_t *v;

	exec_run(av, &o, &r);
	v = jsonx_str_bytes(r.output);
	exec_result_done(&r);
	return v;
}

/* btrfs's state as the record keeps it: {device_stats (per member: read,
   write, flush, corruption and generation errors), scrub_status (the
   last scrub's outcome; its "Total to scrub" is what is allocated now),
   scrub_stats (its counts: bytes read, each error), show (the devices,
   and any missing), replace_status}. */
static json_t *
btrfs_state(const struct prov *p)
{
	const char *m = p->plan->mountpoint;
	const char *stats[] = { "btrfs", "device", "stats", m, NULL };
	const char *scrub[] = { "btrfs", "scrub", "status", "--raw", m, NULL };
	const char *raw[] = { "btrfs", "scrub", "status", "--raw", "-R", m,
		NULL };
	const char *show[] = { "btrfs", "filesystem", "show", m, NULL };
	const char *rep[] = { "btrfs", "replace", "status", "-1", m, NULL };

	return json_pack("{s:o, s:o, s:o, s:o, s:o}", "device_stats",
	    btrfs_output(stats), "scrub_status", btrfs_output(scrub),
	    "scrub_stats", btrfs_output(raw), "show", btrfs_output(show),
	    "replace_status", btrfs_output(rep));
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

/* The allowances of ident.h, taken once before the first fault: the
   array's UUID, and the devices of the members the phase fails. */
static void
take_allow(struct prov *p)
{
	const struct plan *pl = p->plan;
	json_t *md = ident_take(pl->phase_md, true), *rdevs = json_array();
	const char *uuid = json_string_value(json_object_get(md, "md_uuid"));
	struct stat st;

	for (size_t i = 0; i < pl->nfailed; i++)
		if (stat(pl->failed[i], &st) == 0 && S_ISBLK(st.st_mode))
			json_array_append_new(rdevs,
			    json_integer((json_int_t)st.st_rdev));
	json_decref(p->allow);
	p->allow = uuid == NULL
	    ? NULL
	    : json_pack("{s:s, s:O}", "uuid", uuid, "rdevs", rdevs);
	json_decref(rdevs);
	json_decref(md);
}

/* ids ({path: identity}) with the allowances on the array and on the
   members it fails. */
static void
allow(const struct prov *p, json_t *ids)
{
	const struct plan *pl = p->plan;
	const char *path;
	json_t *id;

	if (p->allow == NULL)
		return;
	json_object_foreach(ids, path, id)
	{
		if (strcmp(path, pl->phase_md) == 0)
			json_object_set(id, "md_leaving",
			    json_object_get(p->allow, "rdevs"));
		for (size_t i = 0; i < pl->nfailed; i++)
			if (strcmp(path, pl->failed[i]) == 0)
				json_object_set(id, "md_joining",
				    json_object_get(p->allow, "uuid"));
	}
}

/*
 * The phase changed the array's members on purpose (failed, removed, a
 * new superblock on the one added back): the identities that the undos
 * naming it (its own, the filesystem's wipe) and `raidlab cleanup` hold
 * it to are taken again, so that they still know it for the array this
 * run built. A kill between a fault and this leaves the journal one
 * state behind: the allowances cover that.
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
		allow(p, p->post[j]);
		statej_created(p->j, p->ids[j], p->post[j], NULL);
	}
}

void
prov_phase_before(struct prov *p, size_t i)
{
	if (p->plan->phase_md == NULL || (int)i != p->plan->fault_step)
		return;
	take_allow(p);
	refresh(p, i);
}

void
prov_phase_step(struct prov *p, size_t i)
{
	char name[64];

	if (p->plan->phase == NULL)
		return;
	refresh(p, i);
	/* btrfs's scrub or replace may end in moments: its state before
	   is the one the phase's own step met (degraded, not scrubbed) */
	if ((int)i + 1 == p->plan->phase_step && is_btrfs(p))
		json_object_set_new(phase_obj(p), "before", btrfs_state(p));
	if ((int)i != p->plan->phase_step)
		return;
	if (is_btrfs(p) && strcmp(p->plan->phase, "rebuild") == 0)
		p->watch = btrfswatch_replace(p->plan->mountpoint, WATCH_MS);
	else if (is_btrfs(p))
		p->watch = btrfswatch_scrub(p->plan->mountpoint, WATCH_MS);
	else if (p->plan->phase_md != NULL &&
	    mdsys_kernel_name(p->plan->phase_md, name, sizeof name))
		p->watch = mdwatch_start(p->sysroot, name, WATCH_MS);
}

void
prov_phase_begin(struct prov *p)
{
	char name[64];

	if (p->plan->phase == NULL)
		return;
	phase_obj(p);
	/* the degraded phase has no step of its own to take it before */
	if (is_btrfs(p) && json_object_get(phase_obj(p), "before") == NULL)
		json_object_set_new(phase_obj(p), "before", btrfs_state(p));
	if (p->plan->phase_md == NULL ||
	    !mdsys_kernel_name(p->plan->phase_md, name, sizeof name))
		return;
	json_object_set_new(phase_obj(p), "before", state(p, name));
}

/* The watch's reading in the generic form (mdwatch_now() gives bytes;
   a btrfs replace, its permille of 1000). */
static void
watch_read(struct mdwatch *w, struct prov_progress *pr)
{
	struct mdwatch_now n;

	mdwatch_now(w, &n);
	pr->watched = true;
	snprintf(pr->action, sizeof pr->action, "%s", n.action);
	pr->done = n.done;
	pr->total = n.total;
	pr->rate = n.speed;
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
			line = is_btrfs(p)
			    ? xasprintf(_("waiting for btrfs to finish the "
					  "%s of %s (btrfs %s status)"),
				  btrfs_op(p), p->plan->mountpoint, btrfs_op(p))
			    : xasprintf(_("waiting for md to finish the %s of "
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
		/* btrfs's replace wrote the filesystem onto the wiped
		   member while it ran: the undos know it as it is now */
		if (is_btrfs(p))
			refresh(p, p->ran);
	}
	if (json_object_get(o, "after") == NULL && is_btrfs(p) && p->mounted)
		json_object_set_new(o, "after", btrfs_state(p));
	if (json_object_get(o, "after") == NULL && p->plan->phase_md != NULL &&
	    mdsys_kernel_name(p->plan->phase_md, name, sizeof name))
		json_object_set_new(o, "after", state(p, name));
	return covered;
}

/* The filesystem's UUID as btrfs scrub status names it, into u; false
   when text has none that looks like one. */
static bool
scrub_uuid(const char *text, char *u, size_t len)
{
	const char *l = text != NULL ? strstr(text, "UUID:") : NULL;
	size_t n;

	if (l == NULL)
		return false;
	l += 5 + strspn(l + 5, " \t");
	n = strspn(l, "0123456789abcdef-");
	if (n != 36 || n >= len)
		return false;
	memcpy(u, l, n);
	u[n] = '\0';
	return true;
}

void
prov_phase_gone(struct prov *p, json_t *list)
{
	json_t *o = json_object_get(p->build, "phase");
	char u[40], *path;

	if (p->plan == NULL || p->plan->phase == NULL || !is_btrfs(p) ||
	    p->plan->phase_step < 0)
		return;
	/* after: the status of the scrub that ran; before it, btrfs
	   may not print the UUID */
	if (!scrub_uuid(json_string_value(
			    json_object_get(json_object_get(o, "after"),
				"scrub_status")),
		u, sizeof u) &&
	    !scrub_uuid(json_string_value(
			    json_object_get(json_object_get(o, "before"),
				"scrub_status")),
		u, sizeof u))
		return;
	path = xasprintf("%s/scrub.status.%s", BTRFS_STATUS_DIR, u);
	if (unlink(path) == 0)
		json_array_append_new(list,
		    json_pack("{s:s, s:s, s:s}", "path", path, "status", "ok",
			"note",
			_("removed: btrfs-progs's record of the last scrub of "
			  "a filesystem that no longer exists")));
	free(path);
}
