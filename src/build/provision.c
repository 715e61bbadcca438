/*
 * The provisioner: prepare (scratch disks, plan, guards), setup (the
 * plan's steps, journaled, with resync waits) and teardown (the undo of
 * every step that ran, newest first). Facts are in provision-facts.c.
 * See provision.h. The caller's thread.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/afile.h"
#include "base/err.h"
#include "base/i18n.h"
#include "base/jsonx.h"
#include "base/xalloc.h"
#include "confirm.h"
#include "disk/disk.h"
#include "exec.h"
#include "guard.h"
#include "holders.h"
#include "ident.h"
#include "lab/lab.h"
#include "mdsys.h"
#include "provision.h"
#include "space.h"
#include "statej.h"

/* Generous: mkfs on a large real disk, mdadm on many members. */
#define SETUP_TIMEOUT 3600.0
#define UNDO_TIMEOUT 600.0
#define SYNC_POLL_MS 250

void
prov_init(struct prov *p, const struct lab_variant *v, struct statej *j,
    const char *state_dir)
{
	memset(p, 0, sizeof *p);
	p->v = v;
	p->j = j;
	p->state_dir = state_dir;
	p->build = json_object();
	json_object_set_new(p->build, "variant",
	    json_string(v->name ? v->name : ""));
	json_object_set_new(p->build, "scratch",
	    json_boolean(lab_variant_isset(v, LAB_V_SCRATCH)));
	if (lab_variant_isset(v, LAB_V_SCRATCH))
		json_object_set_new(p->build, "label",
		    json_string(PROV_SCRATCH_LABEL));
	json_object_set_new(p->build, "status", json_string("planned"));
}

void
prov_done(struct prov *p)
{
	for (size_t i = 0; p->plan != NULL && i < p->plan->nsteps; i++) {
		if (p->pre != NULL)
			json_decref(p->pre[i]);
		if (p->post != NULL)
			json_decref(p->post[i]);
	}
	for (size_t i = 0; p->restore != NULL && i < p->plan->nsteps; i++)
		json_decref(p->restore[i]);
	free(p->restore);
	json_decref(p->allow);
	free(p->pre);
	free(p->post);
	plan_free(p->plan);
	free(p->ids);
	json_decref(p->build);
	memset(p, 0, sizeof *p);
}

const char *
prov_target(const struct prov *p)
{
	return p->mounted ? p->plan->mountpoint : NULL;
}

static void
set_status(struct prov *p, const char *status, const char *error)
{
	json_object_set_new(p->build, "status", json_string(status));
	if (error != NULL)
		json_object_set_new(p->build, "error", json_string(error));
}

size_t
prov_guard_devs(const struct plan *p, struct guard_dev *d)
{
	size_t n = 0;

	for (size_t i = 0; i < p->ndevs; i++) {
		if (p->devs[i].path[0] == '<')
			continue; /* a scratch disk not made (dry run) */
		d[n].path = p->devs[i].path;
		d[n].role = p->devs[i].role == PLAN_ROLE_SPARE ? GUARD_SPARE
		    : p->devs[i].role == PLAN_ROLE_JOURNAL     ? GUARD_JOURNAL
		    : p->devs[i].role == PLAN_ROLE_FSLOG       ? GUARD_FSLOG
							       : GUARD_MEMBER;
		d[n].field = p->devs[i].field;
		d[n].line = p->devs[i].line;
		n++;
	}
	return n;
}

/* Guard every device of the plan that exists now (placeholders of scratch
   disks not made in a dry run are left out). */
static int
prov_guard(struct prov *p, const struct disk_list *inv,
    const char *const *confirmed, size_t nconfirmed, const char *file,
    struct errlist *errs)
{
	const struct plan *pl = p->plan;
	struct guard_dev *d = xcalloc(pl->ndevs + 1, sizeof *d);
	size_t n = prov_guard_devs(pl, d), first = errs->n;
	struct guard_sys sys = { .confirm = p->confirm };
	const struct confirm_set none = { NULL, 0 };
	const char **conf = xcalloc(nconfirmed + 1, sizeof *conf);
	size_t nc;
	int rc;

	/* Only the entries naming this variant's devices: a run's list
	   names the disks of all its variants (the precheck matched every
	   entry to one). */
	nc = guard_confirmed_for(d, n, confirmed, nconfirmed, conf);
	/* A confirmation holds only for the disk it was given for: the
	   name may be another disk's by now. The record says what that
	   was. */
	if (nconfirmed > 0 && p->bound != NULL)
		json_object_set_new(p->build, "confirmed",
		    confirm_set_json(p->bound));
	if (n > 0 &&
	    confirm_refuse(p->bound ? p->bound : &none, inv, d, n, conf, nc,
		file, errs) < 0)
		rc = -EPERM;
	else
		rc = n > 0
		    ? guard_check_sys(&sys, inv, d, n, conf, nc, file, errs)
		    : 0;
	if (guard_files(p->v, file, errs) < 0)
		rc = -EPERM;
	if (prov_queue_check(p->plan, p->v, p->sysroot, file, errs) < 0)
		rc = -EPERM;
	free(conf);
	free(d);
	if (rc < 0) {
		json_t *a = json_array();
		char b[ERR_FILE_MAX + ERR_FIELD_MAX + ERR_MSG_MAX + 16];

		for (size_t i = first; i < errs->n; i++)
			json_array_append_new(a,
			    json_string(err_format(&errs->v[i], b, sizeof b)));
		json_object_set_new(p->build, "refused", a);
		set_status(p, "refused", _("the guards refused the variant"));
		return -EPERM;
	}
	return 0;
}

bool
prov_md_available(const struct lab_variant *v)
{
	/* a directory variant builds nothing, whatever its defaults say */
	bool md = v->directory == NULL &&
	    (v->array.engine == LAB_ENGINE_MD ||
		(lab_variant_isset(v, LAB_V_FS) &&
		    v->fs.journal == LAB_JOURNAL_ARRAY));

	return !md || access("/proc/mdstat", F_OK) == 0;
}

size_t
prov_md_missing(const struct lab *lab, const bool *sel, size_t *nsel,
    bool *buildable)
{
	size_t n = 0;

	*nsel = 0;
	for (size_t i = 0; i < lab->nvariants; i++) {
		bool on = sel == NULL || sel[i];
		bool ok = on && prov_md_available(&lab->variants[i]);

		*nsel += on;
		n += on && !ok;
		if (buildable != NULL)
			buildable[i] = ok;
	}
	return n;
}

/* Room for the workloads' data set on the scratch disks and in their
   directory, before one is made (space.h); a warning passes. */
static int
prov_room(struct prov *p, struct err *e)
{
	char b[ERR_FILE_MAX + ERR_FIELD_MAX + ERR_MSG_MAX + 16];
	struct err se;

	err_clear(&se);
	if (p->dataset == 0 || !lab_variant_isset(p->v, LAB_V_SCRATCH) ||
	    space_variant(p->v, NULL, p->dataset, &se) != SPACE_REFUSE)
		return 0;
	err_setf(e, -ENOSPC, "%s", se.msg);
	set_status(p, "refused", err_format(e, b, sizeof b));
	return -ENOSPC;
}

int
prov_prepare(struct prov *p, bool dry_run, struct disk_list *inv,
    const char *const *confirmed, size_t nconfirmed, const char *file,
    struct errlist *errs, struct err *e)
{
	const struct lab_variant *v = p->v;
	char run[24];
	struct plan_env env = { .state_dir = p->state_dir,
		.run = plan_run_self(run, sizeof run) };
	char b[ERR_FILE_MAX + ERR_MSG_MAX];
	int rc;

	if (!prov_md_available(v)) {
		err_setf(e, -ENODEV,
		    _("this kernel has no md driver (/proc/mdstat is missing): "
		      "md arrays cannot be built here (modprobe md_mod?)"));
		set_status(p, "failed", err_format(e, b, sizeof b));
		return -ENODEV;
	}
	if ((rc = prov_room(p, e)) < 0)
		return rc;
	if (lab_variant_isset(v, LAB_V_SCRATCH) && !dry_run) {
		rc = scratch_create(&p->scratch,
		    v->scratch_dir ? v->scratch_dir : LAB_SCRATCH_DIR_DEFAULT,
		    v->name ? v->name : "variant", (size_t)v->scratch_count,
		    v->scratch_size, p->j, e);
		if (rc < 0) {
			set_status(p, "failed", err_format(e, b, sizeof b));
			return rc;
		}
		p->has_scratch = true;
		env.scratch = (const char *const *)p->scratch.devices;
		env.nscratch = p->scratch.n;
		/* The new loop devices must be in the inventory the guards
		   read. */
		if ((rc = disk_list_scan(inv, 0, e)) < 0)
			goto fail;
	}
	if ((rc = plan_build(v, &env, &p->plan, e)) < 0)
		goto fail;
	json_object_set_new(p->build, "plan", plan_json(p->plan));
	rc = prov_guard(p, inv, confirmed, nconfirmed, file, errs);
	if (rc == 0)
		return 0;
	if (p->has_scratch) {
		scratch_destroy(&p->scratch, p->j, NULL);
		p->has_scratch = false;
	}
	return rc;
fail:
	set_status(p, "failed", err_format(e, b, sizeof b));
	if (p->has_scratch) {
		scratch_destroy(&p->scratch, p->j, NULL);
		p->has_scratch = false;
	}
	return rc;
}

/* ---------------------------------------------------------------- setup */

static json_t *
argv_json(const char *const *argv)
{
	json_t *a = json_array();

	for (; *argv != NULL; argv++)
		json_array_append_new(a, json_string(*argv));
	return a;
}

/* Run argv (a step, or an undo); append {argv, reason, status,
   exit_status, duration, output, note} to list. Returns exec_run's
   result, or 0 for an undo that had nothing left to undo (the note says
   so); fills why on failure. */
static int
run_cmd(const char *const *argv, const char *reason, bool undo, json_t *list,
    const struct prov_cb *cb, char *why, size_t wlen)
{
	struct exec_opts o = { .timeout = undo ? UNDO_TIMEOUT : SETUP_TIMEOUT };
	const char *moot = NULL;
	struct exec_result r;
	char *line = exec_argv_string(argv);
	char d[256];
	json_t *s;
	int rc;

	if (cb != NULL && cb->step != NULL)
		cb->step(cb->arg, line);
	rc = exec_run(argv, &o, &r);
	exec_result_describe(&r, d, sizeof d);
	if (rc < 0 && undo &&
	    (moot = statej_undo_moot(argv, r.status, r.output)) != NULL)
		rc = 0;
	s = json_object();
	json_object_set_new(s, "argv", argv_json(argv));
	json_object_set_new(s, "command", json_string(line));
	if (reason != NULL)
		json_object_set_new(s, "reason", json_string(reason));
	json_object_set_new(s, "status", json_string(rc == 0 ? "ok" : d));
	json_object_set_new(s, "exit_status", json_integer(r.status));
	json_object_set_new(s, "duration", json_real(r.duration));
	json_object_set_new(s, "output", jsonx_str_bytes(r.output));
	if (moot != NULL)
		json_object_set_new(s, "note", json_string(moot));
	json_array_append_new(list, s);
	if (rc < 0) {
		char l[512];

		exec_why_line(r.output, l, sizeof l);
		/* cut to fit: the record keeps the whole output */
		if (snprintf(why, wlen, "%s: %s%s%s", line, d, l[0] ? ": " : "",
			l) >= (int)wlen &&
		    wlen > 4)
			memcpy(why + wlen - 4, "...", 4);
	}
	exec_result_done(&r);
	free(line);
	return rc;
}

struct sync_ctx {
	const struct prov_cb *cb;
	const char *dev;
};

static void
sync_progress(void *arg, unsigned long long done, unsigned long long total)
{
	struct sync_ctx *c = arg;

	if (c->cb != NULL && c->cb->sync != NULL)
		c->cb->sync(c->cb->arg, c->dev, done, total);
}

static bool
sync_stop(void *arg)
{
	struct sync_ctx *c = arg;

	return c->cb != NULL && c->cb->stopping != NULL &&
	    c->cb->stopping(c->cb->arg);
}

/* Wait for the resync of dev; record it in build.resync[]. */
static int
wait_sync(struct prov *p, const char *dev, const struct prov_cb *cb,
    struct err *e)
{
	struct sync_ctx c = { cb, dev };
	char name[64], msg[256];
	double secs = 0;
	json_t *w;
	int rc;

	snprintf(msg, sizeof msg, _("waiting for the initial resync of %s"),
	    dev);
	if (cb != NULL && cb->step != NULL)
		cb->step(cb->arg, msg);
	if (!mdsys_kernel_name(dev, name, sizeof name))
		return err_setf(e, -ENOENT,
		    _("%s: no such md array after mdadm --create"), dev);
	rc = mdsys_wait_sync(p->sysroot, name, SYNC_POLL_MS, sync_progress,
	    sync_stop, &c, &secs);
	w = json_pack("{s:s, s:s, s:f, s:s}", "device", dev, "kernel_name",
	    name, "seconds", secs, "status",
	    rc == 0            ? "done"
		: rc == -EINTR ? "interrupted"
			       : "failed");
	json_array_append_new(json_object_get(p->build, "resync"), w);
	if (rc == -EINTR)
		return err_setf(e, rc,
		    _("interrupted while waiting for the resync of %s"), dev);
	if (rc < 0)
		return err_setf(e, rc, _("%s: cannot read its md state: %s"),
		    dev, strerror(-rc));
	return 0;
}

static int
exclusive(struct prov *p, struct err *e)
{
	const struct plan *pl = p->plan;
	const char **paths = xcalloc(pl->ndevs + 1, sizeof *paths);
	int rc;

	for (size_t i = 0; i < pl->ndevs; i++)
		paths[i] = pl->devs[i].path;
	rc = guard_exclusive(paths, pl->ndevs, e);
	free(paths);
	return rc;
}

/* The directory the run's mount point goes in (STATE_DIR/mnt). */
static int
mount_parent(struct prov *p, struct err *e)
{
	const char *mp = p->plan->mountpoint;
	char *dir = xstrndup(mp, (size_t)(strrchr(mp, '/') - mp));
	int rc = afile_mkdirs(dir, 0755);

	if (rc < 0)
		err_setf(e, rc, _("cannot create %s: %s"), dir, strerror(-rc));
	free(dir);
	return rc;
}

/* Journal step i before it runs, with the identities of what its undo
   names as they are now, signatures included: one that appears while the
   step never finished may be somebody else's. */
static int
journal_step(struct prov *p, size_t i, struct err *e)
{
	const struct plan_step *s = &p->plan->steps[i];
	const char *const *const *undo = (const char *const *const *)s->undo;
	char *label = s->label ? xstrdup(s->label)
			       : exec_argv_string((const char *const *)s->argv);
	struct statej_cmds c = { .label = label,
		.undo = undo,
		.product = s->product,
		.own_prefix = p->plan->own_prefix };
	int rc;

	p->pre[i] = ident_take_undo(undo, true);
	c.pre = p->pre[i];
	rc = statej_add_cmds(p->j, &c, &p->ids[i], e);
	free(label);
	return rc;
}

/* Step i of the setup, as its kind says; a command journaled first
   when it has an undo, and its identities taken once it succeeded. */
static int
setup_step(struct prov *p, size_t i, json_t *steps, const struct prov_cb *cb,
    struct err *e)
{
	const struct plan_step *s = &p->plan->steps[i];
	char why[ERR_MSG_MAX];
	int rc;

	if (s->kind == PLAN_WAIT_SYNC)
		return wait_sync(p, s->device, cb, e);
	prov_phase_before(p, i);
	if (s->kind == PLAN_SYSFS && s->restore) {
		/* a refusing journal has said why in e already */
		if ((rc = prov_queue_step(p, i, steps, cb, why, sizeof why,
			 e)) < 0 &&
		    (p->restore[i] != NULL || e->code == 0))
			err_setf(e, rc, _("step %zu failed: %s"), i + 1, why);
		return rc;
	}
	if (s->kind == PLAN_SYSFS) {
		if ((rc = prov_sysfs(p, s, steps, cb, why, sizeof why)) < 0)
			return err_setf(e, rc, _("step %zu failed: %s"), i + 1,
			    why);
		prov_phase_step(p, i);
		return 0;
	}
	if (s->undo != NULL && (rc = journal_step(p, i, e)) < 0)
		return rc;
	p->ran = i + 1;
	rc = run_cmd((const char *const *)s->argv, s->reason, false, steps, cb,
	    why, sizeof why);
	if (rc < 0)
		return err_setf(e, rc, _("step %zu failed: %s"), i + 1, why);
	if (s->undo != NULL) {
		p->post[i] =
		    ident_take_undo((const char *const *const *)s->undo, true);
		statej_created(p->j, p->ids[i], p->post[i], NULL);
	}
	/* btrfs's scrub has an undo (its cancel) and starts the phase's
	   watch */
	prov_phase_step(p, i);
	return 0;
}

int
prov_setup(struct prov *p, const struct prov_cb *cb, struct err *e)
{
	const struct plan *pl = p->plan;
	json_t *steps = json_array();
	char b[ERR_FILE_MAX + ERR_MSG_MAX];
	int rc = 0;

	json_object_set_new(p->build, "steps", steps);
	json_object_set_new(p->build, "resync", json_array());
	json_object_set_new(p->build, "assume_clean",
	    json_boolean(p->v->array.assume_clean));
	p->ids = xcalloc(pl->nsteps + 1, sizeof *p->ids);
	p->pre = xcalloc(pl->nsteps + 1, sizeof *p->pre);
	p->post = xcalloc(pl->nsteps + 1, sizeof *p->post);
	p->restore = xcalloc(pl->nsteps + 1, sizeof *p->restore);
	for (size_t i = 0; i < pl->nsteps; i++)
		p->ids[i] = -1;
	if ((rc = exclusive(p, e)) < 0 || (rc = mount_parent(p, e)) < 0)
		goto out;
	for (size_t i = 0; i < pl->nsteps && rc == 0; i++) {
		if (cb != NULL && cb->stopping != NULL &&
		    cb->stopping(cb->arg)) {
			rc = err_setf(e, -EINTR,
			    _("interrupted before step %zu"), i + 1);
			break;
		}
		rc = setup_step(p, i, steps, cb, e);
	}
	if (rc == 0)
		prov_phase_begin(p);
out:
	if (rc < 0) {
		set_status(p, "failed", err_format(e, b, sizeof b));
		return rc;
	}
	p->mounted = true;
	set_status(p, "built", NULL);
	return 0;
}

/* ---------------------------------------------------------------- teardown */

/* Record in list the paths of a step that its undo does not touch:
   {path, status "moot" (gone already) or "left alone", verdict, note}. */
static void
note_judged(const struct ident_judgement *jd, json_t *list,
    const struct prov_cb *cb)
{
	char line[ERR_MSG_MAX];

	for (size_t k = 0; k < jd->n; k++) {
		if (jd->v[k] == IDENT_SAME)
			continue;
		json_array_append_new(list,
		    json_pack("{s:s, s:s, s:s, s:s}", "path", jd->paths[k],
			"status",
			jd->v[k] == IDENT_GONE ? "moot" : "left alone",
			"verdict", ident_verdict_name(jd->v[k]), "note",
			jd->why[k]));
		/* Said where the user looks: the run must not seem to have
		   undone what it left. */
		if (jd->v[k] != IDENT_GONE && cb != NULL && cb->step != NULL) {
			snprintf(line, sizeof line, _("left %s alone: %s"),
			    jd->paths[k], jd->why[k]);
			cb->step(cb->arg, line);
		}
	}
}

/* Append a, b and c to the string in why (wlen bytes), cut to fit. */
static void
why_append(char *why, size_t wlen, const char *a, const char *b, const char *c)
{
	size_t n = strlen(why), add = strlen(a) + strlen(b) + strlen(c);

	/* a full line (run_cmd cut it) gives up its end, marked, so that
	   what is appended is seen: the record keeps both whole */
	if (n + add + 1 > wlen && wlen > add + 8) {
		n = wlen - add - 5;
		memcpy(why + n, "...", 4);
		n += 3;
	}
	if (n + 1 < wlen &&
	    snprintf(why + n, wlen - n, "%s%s%s", a, b, c) >= (int)(wlen - n))
		why[wlen - 1] = '\0'; /* cut: the record has it whole */
}

/* The output of the entry run_cmd appended last to list. */
static const char *
last_output(json_t *list)
{
	json_t *s = json_array_get(list, json_array_size(list) - 1);

	return json_string_value(json_object_get(s, "output"));
}

/* Whether that entry is worth another try: it exited by itself with a
   failure and said busy. Not one that timed out or was killed (another
   try would wait as long again, and hide the timeout). */
static bool
last_busy(json_t *list)
{
	json_t *s = json_array_get(list, json_array_size(list) - 1);

	return json_integer_value(json_object_get(s, "exit_status")) > 0 &&
	    holders_busy_output(last_output(list));
}

/*
 * run_cmd for an undo, tried again while it fails as "busy" (holders.h)
 * and the step it undoes had succeeded. The record keeps one entry, the
 * last try, with the failed ones under "earlier"; when it still fails,
 * "held_by" says what holds each block device it names.
 */
static int
run_undo(const char *const *argv, bool failed, json_t *list,
    const struct prov_cb *cb, char *why, size_t wlen)
{
	json_t *earlier = NULL, *last;
	size_t k = 0;
	int rc;

	while ((rc = run_cmd(argv, NULL, true, list, cb, why, wlen)) < 0 &&
	    !failed && k < HOLDERS_TRIES && last_busy(list)) {
		if (earlier == NULL)
			earlier = json_array();
		json_array_append(earlier,
		    json_array_get(list, json_array_size(list) - 1));
		json_array_remove(list, json_array_size(list) - 1);
		usleep(holders_retry_ms[k++] * 1000u);
	}
	last = json_array_get(list, json_array_size(list) - 1);
	if (earlier != NULL)
		json_object_set_new(last, "earlier", earlier);
	if (rc < 0 && holders_busy_output(last_output(list))) {
		json_t *held = json_object();
		char h[1024];

		for (const char *const *a = argv + 1; *a != NULL; a++)
			if (holders_describe(*a, h, sizeof h) > 0) {
				json_object_set_new(held, *a, json_string(h));
				/* where the user looks, not only the record */
				why_append(why, wlen, " (", h, ")");
			}
		if (json_object_size(held) > 0)
			json_object_set_new(last, "held_by", held);
		else
			json_decref(held);
	}
	return rc;
}

/*
 * Undo step i: each command with the paths that are not the step's left
 * out (ident.h), so that a name taken by something else meanwhile (a
 * loop device freed and reattached, a mount on the mount point) is never
 * touched. True when nothing of it is left (its journal entry may go).
 */
static bool
undo_step(struct prov *p, size_t i, bool failed, json_t *list,
    const struct prov_cb *cb, int *first, struct err *e)
{
	const struct plan_step *s = &p->plan->steps[i];
	struct ident_obj io = { .pre = p->pre != NULL ? p->pre[i] : NULL,
		.post = p->post != NULL ? p->post[i] : NULL,
		.product = s->product,
		.created = p->post != NULL && p->post[i] != NULL,
		.own_prefix = p->plan->own_prefix };
	struct ident_judgement jd;
	char why[ERR_MSG_MAX];
	bool ok = true;

	if (s->undo == NULL)
		return true;
	ident_judge(&io, (const char *const *const *)s->undo, &jd);
	note_judged(&jd, list, cb);
	for (char ***u = s->undo; *u != NULL; u++) {
		const char **av = ident_apply(&jd, (const char *const *)*u);
		int rc;

		if (av == NULL)
			continue;
		rc = run_undo(av, failed, list, cb, why, sizeof why);
		free(av);
		if (rc < 0 && !failed) {
			ok = false;
			if (*first == 0)
				*first =
				    err_setf(e, rc, _("teardown: %s"), why);
		}
	}
	ident_judgement_done(&jd);
	return ok;
}

/* The mount point step s unmounts in its undo, when that mount still
   stands (its umount failed): NULL otherwise. */
static const char *
mount_standing(const struct plan_step *s)
{
	for (char ***u = s->undo; u != NULL && *u != NULL; u++) {
		const char *mp =
		    (*u)[0] && strcmp((*u)[0], "umount") == 0 ? (*u)[1] : NULL;

		if (mp != NULL && holders_mount_stands(mp))
			return mp;
	}
	return NULL;
}

/* Record step i's undo commands as skipped: they sit under mp, a mount
   that still stands. Its journal entry stays for `raidlab cleanup`. */
static void
skip_step(struct prov *p, size_t i, const char *mp, json_t *list)
{
	char note[ERR_MSG_MAX];

	snprintf(note, sizeof note,
	    _("%s is still mounted: what lies under it is left for `raidlab "
	      "cleanup`"),
	    mp);
	for (char ***u = p->plan->steps[i].undo; u != NULL && *u != NULL; u++)
		json_array_append_new(list,
		    json_pack("{s:o, s:s, s:s}", "argv",
			argv_json((const char *const *)*u), "status", "skipped",
			"note", note));
}

/* The scratch disks released, or with a mount standing on them (mp)
   left attached and journaled. */
static void
release_scratch(struct prov *p, const char *mp, int *first, struct err *e)
{
	struct err se;

	if (!p->has_scratch)
		return;
	p->has_scratch = false;
	if (mp != NULL) {
		json_object_set_new(p->build, "scratch_left", json_string(mp));
		scratch_forget(&p->scratch);
		return;
	}
	err_clear(&se);
	if (scratch_destroy(&p->scratch, p->j, &se) < 0 && *first == 0)
		*first = err_setf(e, se.code, "%s", se.msg);
}

int
prov_teardown(struct prov *p, const struct prov_cb *cb, struct err *e)
{
	json_t *list = json_array();
	char b[ERR_FILE_MAX + ERR_MSG_MAX];
	const char *held = NULL; /* a mount whose umount failed */
	int first = 0;

	json_object_set_new(p->build, "teardown", list);
	if (p->watch != NULL) /* interrupted: the thread ends first */
		prov_phase_end(p, NULL, false);
	for (size_t i = p->ran; i-- > 0;) {
		/* A step that did not succeed (it failed, or setup
		   stopped at it) may have left nothing to undo: its undo
		   failing is expected, not a teardown failure. */
		bool failed = p->post == NULL || p->post[i] == NULL;

		/* Every older step lies under the mount (the filesystem,
		   the array, the mount point): wiping a device under a
		   mounted filesystem is never an undo. */
		if (held != NULL) {
			skip_step(p, i, held, list);
			continue;
		}
		if (p->plan->steps[i].restore
			? prov_queue_undo(p, i, list, cb, &first, e)
			: undo_step(p, i, failed, list, cb, &first, e)) {
			if (p->ids != NULL && p->ids[i] >= 0)
				statej_release(p->j, p->ids[i], NULL);
		} else if ((held = mount_standing(&p->plan->steps[i])) !=
			NULL &&
		    cb != NULL && cb->step != NULL) {
			snprintf(b, sizeof b,
			    _("%s is still mounted: what lies under it is "
			      "left for `raidlab cleanup`"),
			    held);
			cb->step(cb->arg, b);
		}
	}
	p->ran = 0;
	p->mounted = false;
	if (held == NULL)
		prov_phase_gone(p, list);
	release_scratch(p, held, &first, e);
	if (first < 0) {
		json_object_set_new(p->build, "teardown_error",
		    json_string(err_format(e, b, sizeof b)));
		return first;
	}
	const char *st = json_string_value(json_object_get(p->build, "status"));

	if (st != NULL && strcmp(st, "built") == 0)
		set_status(p, "ok", NULL);
	return 0;
}
