/*
 * Plan builder: the variant's devices, steps and facts, the md names and
 * the text `raidlab plan` prints. The md arrays are in plan-md.c, the
 * filesystem in plan-fs.c. See plan.h. Thread of the caller.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/err.h"
#include "base/i18n.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "exec.h"
#include "lab/lab.h"
#include "plan-int.h"
#include "plan.h"
#include "statej.h"

/* md keeps "homehost:name" in 32 bytes; raidlab's names stay under 24. */
#define MD_NAME_MAX 24

/* ---------------------------------------------------------------- argv */

void
av_add(struct av *a, const char *s)
{
	a->v = xreallocarray(a->v, a->n + 2, sizeof *a->v);
	a->v[a->n++] = xstrdup(s);
	a->v[a->n] = NULL;
}

void
av_addf(struct av *a, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	if (s == NULL)
		fatal(_("out of memory"));
	a->v = xreallocarray(a->v, a->n + 2, sizeof *a->v);
	a->v[a->n++] = s;
	a->v[a->n] = NULL;
}

void
av_split(struct av *a, const char *s)
{
	char *copy, *w, *save = NULL;

	if (s == NULL)
		return;
	copy = xstrdup(s);
	for (w = strtok_r(copy, " \t\n", &save); w != NULL;
	     w = strtok_r(NULL, " \t\n", &save))
		av_add(a, w);
	free(copy);
}

char **
av_take(struct av *a)
{
	char **v = a->v;

	if (v == NULL)
		v = xcalloc(1, sizeof *v);
	a->v = NULL;
	a->n = 0;
	return v;
}

static void
argv_free(char **v)
{
	if (v == NULL)
		return;
	for (char **p = v; *p != NULL; p++)
		free(*p);
	free(v);
}

void
undo_add(struct undo *u, char **argv)
{
	u->v = xreallocarray(u->v, u->n + 2, sizeof *u->v);
	u->v[u->n++] = argv;
	u->v[u->n] = NULL;
}

char ***
undo_take(struct undo *u)
{
	char ***v = u->v;

	u->v = NULL;
	u->n = 0;
	return v;
}

/* ---------------------------------------------------------------- steps */

static struct plan_step *
pb_step(struct pb *b)
{
	struct plan *p = b->p;

	p->steps = xreallocarray(p->steps, p->nsteps + 1, sizeof *p->steps);
	memset(&p->steps[p->nsteps], 0, sizeof *p->steps);
	return &p->steps[p->nsteps++];
}

void
pb_run(struct pb *b, char **argv, const char *reason, const char *label,
    char ***undo)
{
	struct plan_step *s = pb_step(b);

	s->kind = PLAN_RUN;
	s->argv = argv;
	s->reason = reason ? xstrdup(reason) : NULL;
	s->label = label ? xstrdup(label) : NULL;
	s->undo = undo;
}

void
pb_product(struct pb *b, const char *path)
{
	struct plan_step *s = &b->p->steps[b->p->nsteps - 1];

	free(s->product);
	s->product = xstrdup(path);
}

void
pb_wait(struct pb *b, const char *dev, const char *reason)
{
	struct plan_step *s = pb_step(b);

	s->kind = PLAN_WAIT_SYNC;
	s->device = xstrdup(dev);
	s->reason = reason ? xstrdup(reason) : NULL;
}

void
pb_sysfs(struct pb *b, const char *dev, const char *attr, const char *value,
    const char *reason)
{
	struct plan_step *s = pb_step(b);

	s->kind = PLAN_SYSFS;
	s->device = xstrdup(dev);
	s->attr = xstrdup(attr);
	s->value = xstrdup(value);
	s->reason = reason ? xstrdup(reason) : NULL;
}

char *
plan_sysfs_command(const struct plan_step *s)
{
	if (strncmp(s->attr, "queue/", 6) == 0)
		return xasprintf("q=/sys/class/block/$(basename $(realpath "
				 "%s)); [ -e $q/partition ] && q=$q/..; "
				 "echo %s > $q/%s",
		    s->device, s->value, s->attr);
	return xasprintf("echo %s > /sys/block/$(basename $(realpath %s))/%s",
	    s->value, s->device, s->attr);
}

void
pb_queues(struct pb *b)
{
	const struct lab_variant *v = b->v;
	struct plan *p = b->p;
	char nr[32];
	size_t i, n = p->ndevs;

	snprintf(nr, sizeof nr, "%" PRId64, v->nr_requests);
	for (i = 0; i < n; i++) {
		const char *d = p->devs[i].path;

		if (p->devs[i].role != PLAN_ROLE_MEMBER &&
		    p->devs[i].role != PLAN_ROLE_SPARE)
			continue;
		if (lab_variant_isset(v, LAB_V_SCHEDULER) &&
		    v->scheduler != NULL) {
			pb_sysfs(b, d, "queue/scheduler", v->scheduler,
			    _("the member's I/O scheduler: it orders and "
			      "merges requests before the device sees them; "
			      "put back as found at teardown"));
			p->steps[p->nsteps - 1].restore = true;
		}
		if (lab_variant_isset(v, LAB_V_NR_REQUESTS)) {
			pb_sysfs(b, d, "queue/nr_requests", nr,
			    _("requests the member's queue holds at once: "
			      "deeper lets the scheduler merge more, at the "
			      "cost of latency; put back as found at "
			      "teardown"));
			p->steps[p->nsteps - 1].restore = true;
		}
	}
}

void
pb_failed(struct pb *b, const char *dev)
{
	struct plan *p = b->p;

	p->failed = xreallocarray(p->failed, p->nfailed + 1, sizeof *p->failed);
	p->failed[p->nfailed++] = xstrdup(dev);
}

void
pb_fact(struct pb *b, const char *key, char **argv)
{
	struct plan *p = b->p;

	p->facts = xreallocarray(p->facts, p->nfacts + 1, sizeof *p->facts);
	p->facts[p->nfacts].key = xstrdup(key);
	p->facts[p->nfacts].argv = argv;
	p->nfacts++;
}

/* ---------------------------------------------------------------- devices */

char *
pb_dev(struct pb *b, const char *name)
{
	int i = lab_scratch_index(name);
	char *s;

	if (i < 0)
		return xstrdup(name);
	if (b->env->scratch == NULL) {
		s = xasprintf("<scratch:%d>", i);
		return s;
	}
	if ((size_t)i >= b->env->nscratch) {
		b->rc = err_setf(b->e, -EINVAL,
		    _("%s: the variant has %zu scratch disks"), name,
		    b->env->nscratch);
		return xstrdup(name);
	}
	return xstrdup(b->env->scratch[i]);
}

void
pb_touch(struct pb *b, const char *path, const char *name, enum plan_role role,
    const char *field, int line)
{
	struct plan *p = b->p;
	struct plan_dev *d;

	p->devs = xreallocarray(p->devs, p->ndevs + 1, sizeof *p->devs);
	d = &p->devs[p->ndevs++];
	d->path = xstrdup(path);
	d->role = role;
	d->scratch = lab_scratch_index(name);
	d->field = xstrdup(field);
	d->line = line;
	if (d->scratch >= 0)
		p->scratch = true;
}

size_t
pb_members(struct pb *b, const struct lab_array *a, bool top, char ***out)
{
	const struct lab_variant *v = b->v;
	char **m = NULL;
	size_t n = 0;

	if (lab_array_isset(a, LAB_A_DEVICES) || !top ||
	    !lab_variant_isset(v, LAB_V_SCRATCH)) {
		m = xcalloc(a->devices.n + 1, sizeof *m);
		for (n = 0; n < a->devices.n; n++)
			m[n] = xstrdup(a->devices.v[n]);
	} else {
		m = xcalloc((size_t)v->scratch_count + 1, sizeof *m);
		for (int i = 0; i < v->scratch_count; i++) {
			if (lab_scratch_named(v, i))
				continue;
			m[n] = xasprintf("scratch:%d", i);
			n++;
		}
	}
	*out = m;
	return n;
}

/* ---------------------------------------------------------------- names */

const char *
plan_run_self(char *buf, size_t len)
{
	snprintf(buf, len, "%d", (int)getpid());
	return buf;
}

char *
plan_md_name(const char *variant, const char *suffix)
{
	size_t vl = strlen(variant), sl = strlen(suffix);
	char *s;

	if (3 + vl + sl <= MD_NAME_MAX) {
		s = xasprintf("/dev/md/rl-%s%s", variant, suffix);
		return s;
	}
	/* Too long: keep a prefix and a hash of the whole name, so two long
	   variant names that share a prefix still differ. */
	uint32_t h = 2166136261u;

	for (const char *c = variant; *c; c++)
		h = (h ^ (unsigned char)*c) * 16777619u;
	int keep = (int)(MD_NAME_MAX - 3 - 5 - sl);

	s = xasprintf("/dev/md/rl-%.*s-%04x%s", keep, variant,
	    (unsigned)(h & 0xffff), suffix);
	return s;
}

/* ---------------------------------------------------------------- build */

int
plan_build(const struct lab_variant *v, const struct plan_env *env,
    struct plan **out, struct err *e)
{
	struct pb b = { .v = v, .env = env, .e = e };
	struct plan *p;
	const char *sd = env->state_dir ? env->state_dir : STATEJ_DIR_DEFAULT;
	const char *name = v->name ? v->name : "variant";
	char *dev = NULL, **members = NULL;
	size_t n = 0;

	*out = NULL;
	if (!lab_variant_isset(v, LAB_V_ARRAY))
		return err_setf(e, -EINVAL,
		    _("variant %s: not an array variant: nothing to build"),
		    name);
	p = xcalloc(1, sizeof *p);
	b.p = p;
	p->variant = xstrdup(name);
	p->own_prefix =
	    xasprintf("%s/mnt/%s-", sd, env->run ? env->run : "<pid>");
	p->mountpoint = xasprintf("%s%s", p->own_prefix, name);
	pb_mountpoint(&b);
	if (v->array.engine == LAB_ENGINE_MD) {
		dev = pb_md(&b);
	} else {
		n = pb_members(&b, &v->array, true, &members);
		pb_wipe(&b, members, n);
		for (size_t i = 0; i < n; i++) {
			char *d = pb_dev(&b, members[i]);

			free(members[i]);
			members[i] = d;
		}
		geom_of(&v->array, (unsigned)n, &p->geom);
		if (v->array.engine == LAB_ENGINE_SINGLE && n > 0)
			dev = xstrdup(members[0]);
	}
	p->phase_step = p->fault_step = -1;
	if (b.rc == 0)
		pb_fs(&b, dev, members, n);
	if (b.rc == 0 && v->array.engine == LAB_ENGINE_MD && dev != NULL)
		pb_phase(&b, dev);
	for (size_t i = 0; i < n; i++)
		free(members[i]);
	free(members);
	free(dev);
	free(b.logdev);
	if (b.rc < 0) {
		plan_free(p);
		return b.rc;
	}
	*out = p;
	return 0;
}

void
plan_free(struct plan *p)
{
	size_t i;

	if (p == NULL)
		return;
	for (i = 0; i < p->nsteps; i++) {
		struct plan_step *s = &p->steps[i];

		argv_free(s->argv);
		free(s->device);
		free(s->attr);
		free(s->value);
		free(s->reason);
		free(s->label);
		free(s->product);
		if (s->undo != NULL) {
			for (char ***u = s->undo; *u != NULL; u++)
				argv_free(*u);
			free(s->undo);
		}
	}
	for (i = 0; i < p->ndevs; i++) {
		free(p->devs[i].path);
		free(p->devs[i].field);
	}
	for (i = 0; i < p->nfacts; i++) {
		free(p->facts[i].key);
		argv_free(p->facts[i].argv);
	}
	for (i = 0; i < p->nmd; i++)
		free(p->md[i]);
	for (i = 0; i < p->nra; i++)
		free(p->ra_devices[i]);
	free(p->ra_devices);
	free(p->md);
	free(p->steps);
	free(p->devs);
	free(p->facts);
	free(p->variant);
	free(p->fstype);
	free(p->fsdev);
	free(p->mountpoint);
	free(p->own_prefix);
	free(p->mount_options);
	free(p->geometry);
	free(p->log);
	free(p->bitmap);
	free(p->phase);
	free(p->phase_md);
	for (i = 0; i < p->nfailed; i++)
		free(p->failed[i]);
	free(p->failed);
	free(p);
}

/* ---------------------------------------------------------------- text */

static void
format_argv(struct strbuf *b, char *const *argv)
{
	char *line = exec_argv_string((const char *const *)argv);

	strbuf_add(b, line);
	free(line);
}

static void
sysfs_line(struct strbuf *b, const struct plan_step *s)
{
	char *line = plan_sysfs_command(s);

	strbuf_add(b, line);
	strbuf_add(b, "\n");
	free(line);
}

void
plan_format(const struct plan *p, struct strbuf *b)
{
	size_t i;

	strbuf_printf(b, _("# variant %s\n"), p->variant);
	if (p->scratch)
		strbuf_printf(b, "# %s\n",
		    _("scratch: functional, not representative (the members "
		      "share one physical disk)"));
	if (p->geometry != NULL)
		strbuf_printf(b, _("# geometry: %s\n"), p->geometry);
	if (p->log != NULL)
		strbuf_printf(b, _("# log: %s\n"), p->log);
	if (p->bitmap != NULL)
		strbuf_printf(b, _("# bitmap: %s\n"), p->bitmap);
	if (p->phase != NULL)
		strbuf_printf(b, _("# phase: %s (the workloads meet %s so)\n"),
		    p->phase, p->phase_md ? p->phase_md : p->mountpoint);
	strbuf_printf(b, "%s\n", _("# setup"));
	for (i = 0; i < p->nsteps; i++) {
		const struct plan_step *s = &p->steps[i];

		if (s->kind == PLAN_WAIT_SYNC)
			strbuf_printf(b,
			    _("# wait for the initial resync of %s "
			      "(/sys/block/mdN/md/sync_completed)\n"),
			    s->device);
		else if (s->kind == PLAN_SYSFS)
			sysfs_line(b, s);
		else
			format_argv(b, s->argv), strbuf_add(b, "\n");
		if (s->reason != NULL)
			strbuf_printf(b, "    # %s\n", s->reason);
	}
	strbuf_printf(b, "%s\n", _("# teardown"));
	for (i = p->nsteps; i-- > 0;) {
		char ***u = p->steps[i].undo;

		/* TRANSLATORS: the attribute ("queue/scheduler"), the
		   device, and the number of the step that wrote it */
		if (p->steps[i].restore)
			strbuf_printf(b,
			    _("# put back %s of %s as step %zu found it\n"),
			    p->steps[i].attr, p->steps[i].device, i + 1);

		for (; u != NULL && *u != NULL; u++) {
			format_argv(b, *u);
			strbuf_add(b, "\n");
		}
	}
}

/* ---------------------------------------------------------------- JSON */

const char *
plan_role_name(enum plan_role r)
{
	switch (r) {
	case PLAN_ROLE_MEMBER:
		return "member";
	case PLAN_ROLE_SPARE:
		return "spare";
	case PLAN_ROLE_JOURNAL:
		return "journal";
	case PLAN_ROLE_FSLOG:
		return "fs log";
	}
	return "?";
}

static json_t *
argv_json(char *const *argv)
{
	json_t *a = json_array();

	for (; argv != NULL && *argv != NULL; argv++)
		json_array_append_new(a, json_string(*argv));
	return a;
}

static json_t *
opt_string(const char *s)
{
	return s != NULL ? json_string(s) : json_null();
}

json_t *
plan_json(const struct plan *p)
{
	json_t *o = json_object(), *a;
	size_t i;

	json_object_set_new(o, "variant", json_string(p->variant));
	json_object_set_new(o, "scratch", json_boolean(p->scratch));
	json_object_set_new(o, "fstype", opt_string(p->fstype));
	json_object_set_new(o, "fsdev", opt_string(p->fsdev));
	json_object_set_new(o, "mountpoint", opt_string(p->mountpoint));
	json_object_set_new(o, "mount_options", opt_string(p->mount_options));
	json_object_set_new(o, "geometry", opt_string(p->geometry));
	json_object_set_new(o, "log", opt_string(p->log));
	json_object_set_new(o, "bitmap", opt_string(p->bitmap));
	json_object_set_new(o, "phase", opt_string(p->phase));
	a = json_array();
	for (i = 0; i < p->nfailed; i++)
		json_array_append_new(a, json_string(p->failed[i]));
	json_object_set_new(o, "failed", a);
	a = json_array();
	for (i = 0; i < p->nmd; i++)
		json_array_append_new(a, json_string(p->md[i]));
	json_object_set_new(o, "md", a);
	a = json_array();
	for (i = 0; i < p->ndevs; i++)
		json_array_append_new(a,
		    json_pack("{s:s, s:s, s:s, s:i}", "path", p->devs[i].path,
			"role", plan_role_name(p->devs[i].role), "field",
			p->devs[i].field, "line", p->devs[i].line));
	json_object_set_new(o, "devices", a);
	a = json_array();
	for (i = 0; i < p->nsteps; i++) {
		const struct plan_step *s = &p->steps[i];
		json_t *st = json_object();

		if (s->kind == PLAN_WAIT_SYNC)
			json_object_set_new(st, "wait_sync",
			    json_string(s->device));
		else if (s->kind == PLAN_SYSFS)
			json_object_set_new(st, "sysfs",
			    json_pack("{s:s, s:s, s:s, s:b}", "device",
				s->device, "attr", s->attr, "value", s->value,
				"restore", s->restore));
		else
			json_object_set_new(st, "argv", argv_json(s->argv));
		json_object_set_new(st, "reason", opt_string(s->reason));
		json_array_append_new(a, st);
	}
	json_object_set_new(o, "setup", a);
	a = json_array();
	for (i = p->nsteps; i-- > 0;)
		for (char ***u = p->steps[i].undo; u != NULL && *u; u++)
			json_array_append_new(a, argv_json(*u));
	json_object_set_new(o, "teardown", a);
	a = json_array();
	for (i = p->nsteps; i-- > 0;)
		if (p->steps[i].restore)
			json_array_append_new(a,
			    json_pack("{s:s, s:s}", "device",
				p->steps[i].device, "attr", p->steps[i].attr));
	json_object_set_new(o, "restore", a);
	return o;
}
