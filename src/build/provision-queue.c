/*
 * The member disks' request queues: the scheduler a variant asks for
 * checked against what each member offers (only this machine knows), the
 * plan's writes to queue/ATTR each journaled with the value it found so
 * that a teardown or `raidlab cleanup` puts it back, and the queues as
 * found or set, for the record. See provision.h. The caller's thread.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/i18n.h"
#include "base/jsonx.h"
#include "base/xalloc.h"
#include "blkqueue.h"
#include "ident.h"
#include "lab/lab.h"
#include "provision.h"
#include "statej.h"

/* The attribute under queue/ a restore step writes ("scheduler"). */
static const char *
queue_attr(const struct plan_step *s)
{
	return strncmp(s->attr, "queue/", 6) == 0 ? s->attr + 6 : s->attr;
}

int
prov_queue_check(const struct plan *pl, const struct lab_variant *v,
    const char *sysroot, const char *file, struct errlist *errs)
{
	char field[LAB_PATH_MAX], depth[LAB_PATH_MAX];
	int rc = 0;

	lab_variant_path(v, LAB_V_SCHEDULER, field, sizeof field);
	lab_variant_path(v, LAB_V_NR_REQUESTS, depth, sizeof depth);
	for (size_t i = 0; i < pl->nsteps; i++) {
		const struct plan_step *s = &pl->steps[i];
		char *list;

		if (s->kind != PLAN_SYSFS || !s->restore || s->device[0] == '<')
			continue;
		/* the disk's queue serves its other partitions too, which
		   may hold anything, / included */
		if (blkqueue_is_partition(sysroot, s->device)) {
			bool sched = strcmp(s->attr, "queue/scheduler") == 0;

			rc = errlist_add(errs, -EPERM, file,
			    lab_variant_line(v,
				sched ? LAB_V_SCHEDULER : LAB_V_NR_REQUESTS),
			    sched ? field : depth,
			    _("%s is a partition: its queue is its whole "
			      "disk's, shared with the disk's other "
			      "partitions; give whole disks as members, or "
			      "leave scheduler and nr_requests unset"),
			    s->device);
			continue;
		}
		if (strcmp(s->attr, "queue/scheduler") != 0)
			continue;
		list = blkqueue_attr(sysroot, s->device, "scheduler");
		if (list == NULL)
			rc = errlist_add(errs, -ENODEV, file,
			    lab_variant_line(v, LAB_V_SCHEDULER), field,
			    _("%s has no request queue in sysfs: its I/O "
			      "scheduler cannot be set"),
			    s->device);
		else if (!blkqueue_sched_offers(list, s->value))
			/* TRANSLATORS: the device, the scheduler asked for,
			   and the kernel's list ("[none] mq-deadline") */
			rc = errlist_add(errs, -EOPNOTSUPP, file,
			    lab_variant_line(v, LAB_V_SCHEDULER), field,
			    _("%s offers no I/O scheduler '%s' (it offers: "
			      "%s)"),
			    s->device, s->value, list);
		free(list);
	}
	return rc < 0 ? -EPERM : 0;
}

/* [[attr, found]], and for a scheduler the depth it found too: switching
   the elevator resets nr_requests, so its undo puts both back. NULL
   when attr is absent. */
static json_t *
found_now(const struct prov *p, const char *dev, const char *attr, char **found)
{
	json_t *r;
	char *nr;

	if ((*found = blkqueue_value(p->sysroot, dev, attr)) == NULL)
		return NULL;
	r = json_pack("[[s, s]]", attr, *found);
	if (strcmp(attr, "scheduler") == 0 &&
	    (nr = blkqueue_value(p->sysroot, dev, "nr_requests")) != NULL) {
		json_array_append_new(r,
		    json_pack("[s, s]", "nr_requests", nr));
		free(nr);
	}
	return r;
}

int
prov_queue_step(struct prov *p, size_t i, json_t *steps,
    const struct prov_cb *cb, char *why, size_t wlen, struct err *e)
{
	const struct plan_step *s = &p->plan->steps[i];
	const char *attr = queue_attr(s);
	char *line = plan_sysfs_command(s), *found, *now = NULL, *was = NULL;
	struct statej_sysfs js = { .device = s->device };
	json_t *r;
	int rc;

	if (cb != NULL && cb->step != NULL)
		cb->step(cb->arg, line);
	/* Journaled before the write, with what it finds: a run killed
	   right after it leaves `raidlab cleanup` the values to put back. */
	if ((r = found_now(p, s->device, attr, &found)) == NULL) {
		rc = -ENOENT;
	} else {
		p->pre[i] = ident_take(s->device, false);
		js.restore = r;
		js.pre = p->pre[i];
		if ((rc = statej_add_sysfs(p->j, &js, &p->ids[i], e)) < 0) {
			json_decref(r);
			free(found);
			free(line);
			return rc;
		}
		p->restore[i] = r;
		p->ran = i + 1;
		rc = blkqueue_write(p->sysroot, s->device, attr, s->value, &was,
		    &now);
		if (rc == 0)
			statej_created(p->j, p->ids[i], NULL, NULL);
	}
	json_array_append_new(steps,
	    json_pack("{s:s, s:s?, s:{s:s, s:s, s:s, s:o, s:o}, s:s, s:i}",
		"command", line, "reason", s->reason, "sysfs", "device",
		s->device, "attr", s->attr, "value", s->value, "found",
		jsonx_str(found), "now", jsonx_str(now), "status",
		rc == 0 ? "ok" : strerror(-rc), "exit_status",
		rc == 0 ? 0 : 1));
	if (rc < 0)
		snprintf(why, wlen, "%s: %s", line, strerror(-rc));
	free(found);
	free(was);
	free(now);
	free(line);
	return rc;
}

bool
prov_queue_undo(struct prov *p, size_t i, json_t *list,
    const struct prov_cb *cb, int *first, struct err *e)
{
	const struct plan_step *s = &p->plan->steps[i];
	char why[ERR_MSG_MAX], line[ERR_MSG_MAX];
	enum ident_verdict v;
	bool ok = true;
	size_t k;
	json_t *r;

	if (p->restore[i] == NULL)
		return true;
	v = ident_check(s->device, p->pre[i], why, sizeof why);
	json_array_foreach(p->restore[i], k, r)
	{
		const char *attr = json_string_value(json_array_get(r, 0));
		const char *val = json_string_value(json_array_get(r, 1));
		char *was = NULL, *now = NULL;
		int rc = 0;

		/* TRANSLATORS: device, attribute ("scheduler"), value */
		snprintf(line, sizeof line, _("put back %s queue/%s: %s"),
		    s->device, attr, val);
		if (v == IDENT_SAME) {
			if (cb != NULL && cb->step != NULL)
				cb->step(cb->arg, line);
			rc = blkqueue_write(p->sysroot, s->device, attr, val,
			    &was, &now);
			/* a device gone meanwhile took its queue along */
			if (rc == -ENOENT && was == NULL)
				rc = 0;
		}
		json_array_append_new(list,
		    json_pack("{s:s, s:{s:s, s:s, s:s, s:o}, s:s, s:s?}",
			"command", line, "sysfs", "device", s->device, "attr",
			attr, "value", val, "now", jsonx_str(now), "status",
			v == IDENT_SAME       ? (rc == 0 ? "ok" : strerror(-rc))
			    : v == IDENT_GONE ? "moot"
					      : "left alone",
			"note", v == IDENT_SAME ? NULL : why));
		if (rc < 0 && *first == 0)
			*first = err_setf(e, rc, _("teardown: %s: %s"), line,
			    strerror(-rc));
		ok = ok && rc == 0;
		free(was);
		free(now);
	}
	return ok;
}

json_t *
prov_queue_facts(const struct prov *p)
{
	const struct plan *pl = p->plan;
	json_t *o = json_object(), *f;

	for (size_t i = 0; i < pl->ndevs; i++) {
		const char *d = pl->devs[i].path;

		if ((pl->devs[i].role != PLAN_ROLE_MEMBER &&
			pl->devs[i].role != PLAN_ROLE_SPARE) ||
		    json_object_get(o, d) != NULL)
			continue;
		if ((f = blkqueue_facts(p->sysroot, d)) != NULL)
			json_object_set_new(o, d, f);
	}
	return o;
}
