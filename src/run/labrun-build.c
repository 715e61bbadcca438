/*
 * Array variants in the lab runner: the precheck before anything is
 * touched (every selected array variant planned and guarded against one
 * inventory and the confirmations), and one variant built (provision.h),
 * measured and torn down, its steps and resync progress told as events
 * and its build object handed over. labrun_check() runs the precheck in
 * the caller's thread; everything else is the runner thread's.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "base/err.h"
#include "base/i18n.h"
#include "base/strbuf.h"
#include "base/tick.h"
#include "base/xalloc.h"
#include "build/confirm.h"
#include "build/guard.h"
#include "build/mdtools.h"
#include "build/plan.h"
#include "build/provision.h"
#include "build/space.h"
#include "build/statej.h"
#include "disk/devstat.h"
#include "disk/disk.h"
#include "lab/lab.h"
#include "labrun-int.h"
#include "labrun.h"
#include "rounds.h"

/* ---------------------------------------------------------------- check */

static void
msg_add(struct labrun_check *c, bool note, const char *text)
{
	c->msgs = xreallocarray(c->msgs, c->nmsgs + 1, sizeof *c->msgs);
	c->msgs[c->nmsgs].note = note;
	c->msgs[c->nmsgs++].text = xstrdup(text);
}

/* Selected variants placed on hosts: said, and true. Running them here
   instead would measure the wrong machine and still look like an
   answer; the fleet runner (issue 25) is what will run them. */
static bool
remote_refused(const struct lab *lab, const bool *sel, struct labrun_check *c)
{
	char field[LAB_PATH_MAX];
	char b[ERR_FILE_MAX + ERR_FIELD_MAX + ERR_MSG_MAX + 16];
	struct err e;
	bool any = false;

	for (size_t i = 0; i < lab->nvariants; i++) {
		const struct lab_variant *v = &lab->variants[i];

		if (!sel[i] || !lab_variant_remote(v))
			continue;
		err_set(&e, -EPERM, lab->path, lab_variant_line(v, LAB_V_HOSTS),
		    lab_variant_path(v, LAB_V_HOSTS, field, sizeof field),
		    _("runs on hosts: raidlab run runs it there, not "
		      "together with the local variants; choose them apart "
		      "with -v, or set hosts = \"local\""));
		msg_add(c, false, err_format(&e, b, sizeof b));
		any = true;
	}
	return any;
}

/* Selected array variants as non-root: said, and true. Without this the
   checks pass and the run fails later, on the state journal. */
static bool
needs_root(const struct lab *lab, const bool *sel, struct labrun_check *c)
{
	struct strbuf names;
	size_t n = 0;

	if (geteuid() == 0)
		return false;
	strbuf_init(&names);
	for (size_t i = 0; i < lab->nvariants; i++)
		if (sel[i] && lab->variants[i].directory == NULL)
			strbuf_printf(&names, "%s%s", n++ ? ", " : "",
			    lab->variants[i].name ? lab->variants[i].name
						  : "?");
	if (n > 0) {
		char *msg = xasprintf(
		    ngettext("building arrays needs root: variant %s is an "
			     "array (directory variants run without root)",
			"building arrays needs root: variants %s are arrays "
			"(directory variants run without root)",
			n),
		    names.s);

		msg_add(c, false, msg);
		free(msg);
	}
	strbuf_done(&names);
	return n > 0;
}

/* Every selected array variant's plan, with placeholders for scratch. */
static struct plan **
plan_all(const struct lab *lab, const bool *sel, const char *state_dir,
    struct labrun_check *c)
{
	struct plan **plans = xcalloc(lab->nvariants + 1, sizeof *plans);
	char run[24];
	struct plan_env env = { .state_dir = state_dir,
		.run = plan_run_self(run, sizeof run) };
	char b[ERR_FILE_MAX + ERR_MSG_MAX];

	for (size_t i = 0; i < lab->nvariants; i++) {
		struct err e;

		if (!sel[i] || lab->variants[i].directory != NULL)
			continue;
		err_clear(&e);
		if (plan_build(&lab->variants[i], &env, &plans[i], &e) < 0) {
			msg_add(c, false, err_format(&e, b, sizeof b));
			c->rc = e.code;
		}
	}
	return plans;
}

/* The device at path holds data in inv. */
static bool
has_data(struct disk_list *inv, const char *path)
{
	char p[4096];
	struct stat st;
	struct disk *d;

	snprintf(p, sizeof p, "%s%s", strchr(path, '/') ? "" : "/dev/", path);
	if (stat(p, &st) < 0 || !S_ISBLK(st.st_mode))
		return false;
	d = disk_list_by_devnum(inv, major(st.st_rdev), minor(st.st_rdev));
	return d != NULL && d->verdict == DISK_HAS_DATA;
}

/* Add path to c->destroy when it holds data and is not there yet. */
static void
destroy_add(struct disk_list *inv, const char *path, struct labrun_check *c)
{
	for (size_t k = 0; k < c->ndestroy; k++)
		if (strcmp(c->destroy[k], path) == 0)
			return;
	if (!has_data(inv, path))
		return;
	c->destroy =
	    xreallocarray(c->destroy, c->ndestroy + 2, sizeof *c->destroy);
	c->destroy[c->ndestroy++] = xstrdup(path);
	c->destroy[c->ndestroy] = NULL;
}

/* What a confirmation must name: the devices of every plan that hold
   data (also of the variants the guards did not reach after a
   refusal). */
static void
destroy_list(struct disk_list *inv, struct plan **plans, size_t nplans,
    struct labrun_check *c)
{
	for (size_t i = 0; i < nplans; i++) {
		struct guard_dev *d;
		size_t n;

		if (plans[i] == NULL)
			continue;
		d = xcalloc(plans[i]->ndevs + 1, sizeof *d);
		n = prov_guard_devs(plans[i], d);
		for (size_t k = 0; k < n; k++)
			destroy_add(inv, d[k].path, c);
		free(d);
	}
	c->destroy_text = guard_confirmed_describe(inv,
	    (const char *const *)c->destroy, c->ndestroy);
	confirm_set_take(c->bound, inv, (const char *const *)c->destroy,
	    c->ndestroy);
}

/* Guard every plan's devices; the devices go into *all. */
static int
guard_all(const struct lab *lab, struct plan **plans,
    const char *const *confirmed, size_t nconfirmed, struct disk_list *inv,
    struct guard_dev **all, size_t *nall, struct errlist *errs,
    const struct guard_sys *sys, struct labrun_check *c)
{
	char msg[512];
	int rc = c->rc;

	/* Every variant, so that one refusal lists all there is to fix. */
	for (size_t i = 0; i < lab->nvariants && c->rc == 0; i++) {
		const char **conf;
		size_t n, nc;

		if (plans[i] == NULL)
			continue;
		if (!prov_md_available(&lab->variants[i])) {
			snprintf(msg, sizeof msg,
			    _("variant %s: this kernel has no md driver "
			      "(/proc/mdstat is missing): it will fail"),
			    plans[i]->variant);
			msg_add(c, true, msg);
		}
		*all = xreallocarray(*all, *nall + plans[i]->ndevs + 1,
		    sizeof **all);
		n = prov_guard_devs(plans[i], *all + *nall);
		conf = xcalloc(nconfirmed + 1, sizeof *conf);
		nc = guard_confirmed_for(*all + *nall, n, confirmed, nconfirmed,
		    conf);
		if (n > 0 &&
		    guard_check_sys(sys, inv, *all + *nall, n, conf, nc,
			lab->path, errs) < 0)
			rc = -EPERM;
		if (guard_files(&lab->variants[i], lab->path, errs) < 0)
			rc = -EPERM;
		/* real disks now; scratch disks once made (prov_prepare) */
		if (prov_queue_check(plans[i], &lab->variants[i], NULL,
			lab->path, errs) < 0)
			rc = -EPERM;
		free(conf);
		*nall += n;
	}
	return rc;
}

/* Room for the workloads on every selected variant (space.h): refusals
   into errs, warnings said as notes. -EPERM when one is refused. */
static int
room_all(const struct lab *lab, const bool *sel, const struct labrun_need *need,
    struct errlist *errs, struct labrun_check *c)
{
	char b[ERR_FILE_MAX + ERR_FIELD_MAX + ERR_MSG_MAX + 16];
	struct errlist notes;
	int rc;

	errlist_init(&notes);
	rc = space_check(lab, sel, need->wsel, need->repeats, need->keep,
	    need->target, errs, &notes);
	errlist_sort(&notes);
	for (size_t i = 0; i < notes.n; i++)
		msg_add(c, true, err_format(&notes.v[i], b, sizeof b));
	errlist_done(&notes);
	return rc < 0 ? -EPERM : 0;
}

/* The end of a refusal on a fleet's host: the user confirms on the
   controller, naming each device with data as HOST:DEV. */
static void
fleet_refused(const struct errlist *errs, const char *host,
    struct labrun_check *c)
{
	struct strbuf list;
	bool lifts = false;
	char *line;

	for (size_t i = 0; i < errs->n; i++)
		lifts = lifts || errs->v[i].code == -EPERM;
	if (!lifts || c->ndestroy == 0) {
		msg_add(c, false,
		    guard_refused_line(errs, GUARD_CONFIRM_OPTION));
		return;
	}
	strbuf_init(&list);
	for (size_t i = 0; i < c->ndestroy; i++)
		strbuf_printf(&list, "%s%s:%s", i ? "," : "", host,
		    c->destroy[i]);
	line = xasprintf(_("refused: nothing was changed. Free the devices, "
			   "or confirm the ones whose data may be destroyed "
			   "on the fleet's controller with --yes-destroy=%s"),
	    list.s);
	msg_add(c, false, line);
	free(line);
	strbuf_done(&list);
}

int
labrun_precheck(const struct lab *lab, const bool *sel,
    const struct labrun_need *need, bool devices, const char *const *confirmed,
    size_t nconfirmed, bool typed, const char *fleet_host,
    const char *state_dir, struct disk_list *inv, struct labrun_check *c)
{
	char b[ERR_FILE_MAX + ERR_FIELD_MAX + ERR_MSG_MAX + 16];
	struct guard_sys sys = { .confirm = typed ? GUARD_CONFIRM_TYPED
						  : GUARD_CONFIRM_OPTION };
	struct guard_dev *all = NULL;
	struct plan **plans;
	struct errlist errs;
	struct strbuf t;
	size_t nall = 0;
	struct err e;
	int rc;

	memset(c, 0, sizeof *c);
	c->plans = xstrdup("");
	c->bound = xcalloc(1, sizeof *c->bound);
	err_clear(&e);
	if (remote_refused(lab, sel, c))
		return c->rc = -EPERM;
	if (devices && needs_root(lab, sel, c))
		return c->rc = -EPERM;
	if (devices && disk_list_scan(inv, 0, &e) < 0) {
		msg_add(c, false, err_format(&e, b, sizeof b));
		return c->rc = e.code;
	}
	plans = devices ? plan_all(lab, sel, state_dir, c)
			: xcalloc(lab->nvariants + 1, sizeof *plans);
	errlist_init(&errs);
	rc = guard_all(lab, plans, confirmed, nconfirmed, inv, &all, &nall,
	    &errs, &sys, c);
	/* also beside a refusal: one pass lists all there is to fix */
	if (c->rc == 0 && devices &&
	    guard_confirmed_unclaimed(all, nall, confirmed, nconfirmed,
		lab->path, &errs) < 0)
		rc = -EPERM;
	/* what this machine's md cannot build: the lab is fine */
	if (c->rc == 0 && mdtools_check(lab, sel, NULL, &errs) < 0 && rc == 0)
		rc = -EPERM;
	if (c->rc == 0 && room_all(lab, sel, need, &errs, c) < 0) {
		c->space_refused = true;
		if (rc == 0)
			rc = -EPERM;
	}
	errlist_sort(&errs);
	for (size_t i = 0; i < errs.n; i++)
		msg_add(c, false, err_format(&errs.v[i], b, sizeof b));
	/* How to go on only when a confirmation can (a device with data),
	   in the words of the front end's confirmation. */
	if (devices)
		destroy_list(inv, plans, lab->nvariants, c);
	if (rc == -EPERM && fleet_host != NULL)
		fleet_refused(&errs, fleet_host, c);
	else if (rc == -EPERM)
		msg_add(c, false, guard_refused_line(&errs, sys.confirm));
	strbuf_init(&t);
	for (size_t i = 0; i < lab->nvariants; i++)
		if (plans[i] != NULL) {
			plan_format(plans[i], &t);
			strbuf_add(&t, "\n");
		}
	free(c->plans);
	c->plans = strbuf_take(&t);
	strbuf_done(&t);
	for (size_t i = 0; i < lab->nvariants; i++)
		plan_free(plans[i]);
	free(plans);
	free(all);
	errlist_done(&errs);
	return c->rc = rc;
}

int
labrun_check(const struct lab *lab, const struct labrun_opts *o,
    struct labrun_check *c)
{
	bool *sel = xcalloc(lab->nvariants + 1, sizeof *sel);
	const char *sd =
	    o->state_dir ? o->state_dir : getenv("RAIDLAB_STATE_DIR");
	struct labrun_need need = { .wsel = o->workloads,
		.repeats = o->repeats,
		.keep = o->keep,
		.target = o->target };
	struct disk_list inv;
	size_t narrays = 0;
	int rc;

	for (size_t i = 0; i < lab->nvariants; i++) {
		sel[i] = o->target == NULL &&
		    (o->variants == NULL || o->variants[i]);
		narrays += sel[i] && lab->variants[i].directory == NULL;
	}
	disk_list_init(&inv);
	rc = labrun_precheck(lab, sel, &need, true, o->confirmed, o->nconfirmed,
	    o->confirm_typed, o->fleet_host,
	    sd != NULL && *sd != '\0' ? sd : NULL, &inv, c);
	c->rounds = rounds_describe(lab, o->repeats, narrays);
	disk_list_done(&inv);
	free(sel);
	return rc;
}

void
labrun_check_done(struct labrun_check *c)
{
	for (size_t i = 0; i < c->nmsgs; i++)
		free(c->msgs[i].text);
	free(c->msgs);
	free(c->plans);
	free(c->rounds);
	for (size_t i = 0; i < c->ndestroy; i++)
		free(c->destroy[i]);
	free(c->destroy);
	free(c->destroy_text);
	if (c->bound != NULL)
		confirm_set_done(c->bound);
	free(c->bound);
	memset(c, 0, sizeof *c);
}

/* ---------------------------------------------------------------- build */

struct build_ctx {
	struct labrun *lr;
	int vi;
};

static void
on_step(void *arg, const char *what)
{
	struct build_ctx *b = arg;

	labrun_emit(b->lr, LABRUN_STEP, b->vi, -1, "%s", what);
}

static void
on_sync(void *arg, const char *dev, unsigned long long done,
    unsigned long long total)
{
	struct build_ctx *b = arg;
	struct labrun_event ev;

	memset(&ev, 0, sizeof ev);
	ev.type = LABRUN_RESYNC;
	ev.variant = b->vi;
	ev.workload = -1;
	ev.repeat = -1;
	snprintf(ev.text, sizeof ev.text, "%s", dev);
	ev.done = done;
	ev.total = total;
	labrun_push(b->lr, &ev);
}

static bool
on_stopping(void *arg)
{
	struct build_ctx *b = arg;

	return labrun_stopping(b->lr);
}

static void
on_phase(void *arg, const struct prov_progress *pr)
{
	struct build_ctx *b = arg;

	labrun_phase_say(b->lr, b->vi, pr, false);
}

/* The confirmations that still apply to the variant now: the entries
   naming devices that hold data in the fresh inventory (an earlier
   variant's teardown wiped the rest, which the precheck already
   matched). */
static size_t
confirmed_now(struct labrun *lr, const char **out)
{
	size_t n = 0;

	for (size_t i = 0; i < lr->nconfirmed; i++)
		if (has_data(&lr->inv, lr->confirmed[i]))
			out[n++] = lr->confirmed[i];
	return n;
}

/* Scratch disks, guards again (the disks may have changed since the
   precheck), the plan's steps, facts. 0 with the target mounted. */
static int
build(struct labrun *lr, int vi, struct prov *p, const struct prov_cb *cb)
{
	const struct lab_variant *v = labrun_variant(lr, vi);
	const char *name = v->name ? v->name : "?";
	const char **conf = xcalloc(lr->nconfirmed + 1, sizeof *conf);
	char b[ERR_FILE_MAX + ERR_FIELD_MAX + ERR_MSG_MAX + 16];
	struct errlist errs;
	struct err e;
	int rc;

	err_clear(&e);
	errlist_init(&errs);
	if ((rc = disk_list_scan(&lr->inv, 0, &e)) == 0) {
		size_t nc = confirmed_now(lr, conf);

		p->confirm = lr->confirm_typed ? GUARD_CONFIRM_TYPED
					       : GUARD_CONFIRM_OPTION;
		p->bound = &lr->bound;
		rc = prov_prepare(p, false, &lr->inv, conf, nc, lr->lab->path,
		    &errs, &e);
	}
	free(conf);
	if (rc == -EPERM) {
		for (size_t i = 0; i < errs.n; i++)
			labrun_emit(lr, LABRUN_ERROR, vi, -1, "%s",
			    err_format(&errs.v[i], b, sizeof b));
	} else if (rc < 0) {
		labrun_emit(lr, LABRUN_ERROR, vi, -1, _("variant %s: %s"), name,
		    err_format(&e, b, sizeof b));
	} else {
		if (p->plan->scratch)
			labrun_emit(lr, LABRUN_NOTE, vi, -1, "%s: %s", name,
			    _(PROV_SCRATCH_LABEL));
		if ((rc = prov_setup(p, cb, &e)) < 0)
			labrun_emit(lr, LABRUN_ERROR, vi, -1,
			    _("variant %s: %s"), name,
			    err_format(&e, b, sizeof b));
		else
			prov_facts(p);
	}
	errlist_done(&errs);
	return rc;
}

/* The build object as it stands: a copy, or (final) the object itself. */
static void
hand_build(struct labrun *lr, int vi, struct prov *p, int index, bool final)
{
	struct labrun_result *r = xcalloc(1, sizeof *r);

	r->kind = LABRUN_ITEM_BUILD;
	r->variant = vi;
	r->workload = -1;
	r->build_index = index;
	r->final = final;
	if (final) {
		r->build = p->build;
		p->build = NULL;
	} else {
		r->build = json_deep_copy(p->build);
	}
	labrun_hand(lr, r);
}

/* The role sysfs cannot tell of a plan device (devstat.h), or NULL. */
static const char *
dev_role(enum plan_role r)
{
	switch (r) {
	case PLAN_ROLE_JOURNAL:
		return DEVSTAT_ROLE_JOURNAL;
	case PLAN_ROLE_FSLOG:
		return DEVSTAT_ROLE_LOG;
	default:
		return NULL;
	}
}

/* The built variant's devices and md arrays, for activity bars and the
   write amplification: a journal or log device tagged as one. */
static void
publish_devices(struct labrun *lr, const struct plan *pl)
{
	char **devs = NULL, **roles;
	size_t n = 0;

	roles = xcalloc(pl->ndevs + pl->nmd + 1, sizeof *roles);
	for (size_t i = 0; i < pl->ndevs; i++) {
		const char *r = dev_role(pl->devs[i].role);
		size_t was = n;

		if (disk_dev_push(pl->devs[i].path, &devs, &n) && n > was &&
		    r != NULL)
			roles[was] = xstrdup(r);
	}
	for (size_t i = 0; i < pl->nmd; i++)
		disk_dev_push(pl->md[i], &devs, &n);
	labrun_set_devices(lr, devs, roles, n);
}

/* The phase's rebuild or scrub ended before the workloads did. */
static void
phase_note(struct labrun *lr, int vi, const struct lab_variant *v,
    const struct plan *pl)
{
	if (pl->phase_md == NULL)
		labrun_emit(lr, LABRUN_NOTE, vi, -1,
		    _("variant %s: btrfs's %s ended before the workloads "
		      "did: their figures mix it with the filesystem at rest "
		      "(btrfs copies and reads only what is allocated, and a "
		      "new filesystem holds little)"),
		    v->name ? v->name : "?",
		    strcmp(pl->phase, "rebuild") == 0 ? "replace" : "scrub");
	else
		labrun_emit(lr, LABRUN_NOTE, vi, -1,
		    _("variant %s: md's %s ended before the workloads did: "
		      "their figures mix it with the array at rest (a larger "
		      "array, or a lower sync_speed_max, keeps it going)"),
		    v->name ? v->name : "?", pl->phase);
}

/* Open the state journal with the first build; false (said why, runs
   of round k skipped) when it cannot be. */
static bool
journal(struct labrun *lr, int vi, int64_t k)
{
	char b[ERR_FILE_MAX + ERR_MSG_MAX];
	struct err e;

	if (lr->j != NULL)
		return true;
	err_clear(&e);
	if (statej_open(&lr->j, &e) == 0)
		return true;
	labrun_emit(lr, LABRUN_ERROR, vi, -1, "%s",
	    err_format(&e, b, sizeof b));
	labrun_skip_variant(lr, vi, k, e.msg);
	labrun_count(lr, 0, 1);
	return false;
}

void
labrun_array_variant(struct labrun *lr, int vi, int64_t k)
{
	const struct lab_variant *v = labrun_variant(lr, vi);
	struct build_ctx ctx = { lr, vi };
	const struct prov_cb cb = {
		.step = on_step,
		.sync = on_sync,
		.stopping = on_stopping,
		.phase = on_phase,
		.arg = &ctx,
	};
	char b[ERR_FILE_MAX + ERR_MSG_MAX];
	struct prov p;
	struct err e;
	double t0 = tick_now_s(), runs = 0;
	int bi;

	if (!journal(lr, vi, k))
		return;
	bi = lr->nbuilds++;
	prov_init(&p, v, lr->j, lr->state_dir);
	p.dataset = lr->dataset;
	if (build(lr, vi, &p, &cb) < 0) {
		const char *why =
		    json_string_value(json_object_get(p.build, "error"));

		hand_build(lr, vi, &p, bi, false);
		/* Not built again in later rounds: it would fail alike. */
		labrun_skip_variant(lr, vi, k,
		    why ? why : _("the variant could not be built"));
		labrun_count(lr, 0, 1);
	} else {
		labrun_hook(lr, vi, prov_target(&p), p.build);
		hand_build(lr, vi, &p, bi, false);
		publish_devices(lr, p.plan);
		lr->phase = &p;
		lr->phase_ended = false;
		labrun_phase_tick(lr, vi, true);
		runs = tick_now_s();
		labrun_variant_runs(lr, vi, prov_target(&p), k);
		runs = tick_now_s() - runs;
		/* a rebuild or scrub is measured to its end */
		if (prov_phase_end(&p, &cb, true) == 0)
			phase_note(lr, vi, v, p.plan);
		labrun_phase_tick(lr, vi, false); /* its end, if not told */
		lr->phase = NULL;
		labrun_set_devices(lr, NULL, NULL, 0);
	}
	err_clear(&e);
	if (prov_teardown(&p, &cb, &e) < 0) {
		labrun_emit(lr, LABRUN_ERROR, vi, -1,
		    _("variant %s: %s; `raidlab cleanup` retries what is left"),
		    v->name ? v->name : "?", err_format(&e, b, sizeof b));
		labrun_count(lr, 0, 1);
		/* A next round would build on what is left of this one. */
		if (k > 0)
			labrun_variant_dead(lr, vi, e.msg);
	}
	/* What a rebuild costs, for the ETA of interleaved rounds. */
	labrun_build_took(lr, vi, tick_now_s() - t0 - runs);
	hand_build(lr, vi, &p, bi, true);
	prov_done(&p);
}
