/*
 * raidlab plan LAB: what `raidlab run` would build for each array
 * variant, as commands in order (setup, then teardown) with the reason
 * for every option that is not obvious; --json for scripts. Nothing is
 * run and no device is opened: scratch disks show as <scratch:N>.
 * When `raidlab run` would refuse the lab here before building anything
 * (no room for its workloads, space.h), the plan ends with the refusal
 * (on stderr with --json) and exits CLI_CANNOT. A variant placed on
 * hosts (raidlab.lab(5), HOSTS) is not planned here: the plan names each
 * host it runs on and its devices there, after the host's mapping, and
 * says that the fleet runner runs it. Main thread.
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/err.h"
#include "base/i18n.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "build/mdtools.h"
#include "build/plan.h"
#include "build/provision.h"
#include "build/space.h"
#include "cli-scale.h"
#include "cli.h"
#include "lab/lab-scale.h"
#include "lab/lab.h"
#include "run/rounds.h"

static const struct cli_opt plan_options[] = {
	{ 'v', "variant", "NAME", N_("only this variant (repeatable)") },
	{ 'j', "json", NULL, N_("print the plans as JSON") },
	{ 0, NULL, NULL, NULL },
};

static void
plan_more(FILE *fp)
{
	fprintf(fp, "%s",
	    _("\nLAB is a lab file, or the name of a lab of your own "
	      "or of a preset.\n"));
}

static bool
wanted(char **names, size_t n, const char *name)
{
	if (n == 0)
		return true;
	for (size_t i = 0; i < n; i++)
		if (name != NULL && strcmp(names[i], name) == 0)
			return true;
	return false;
}

/* What each of v's devices is on h: "scratch:0 = /dev/vdb". */
static void
host_devices(const struct lab_variant *v, const struct lab_host *h,
    struct strbuf *b, json_t *arr)
{
	struct lab_strv devs = { NULL, 0 };
	const char *to;

	lab_variant_devices(v, &devs);
	for (size_t i = 0; i < devs.n; i++) {
		to = lab_host_device(h, devs.v[i]);
		json_array_append_new(arr,
		    json_pack("{s:s, s:s?}", "device", devs.v[i], "on_host",
			to));
		strbuf_printf(b, "%s", i ? ", " : ": ");
		if (to != NULL)
			strbuf_printf(b, "%s = %s", devs.v[i], to);
		else if (lab_scratch_index(devs.v[i]) >= 0)
			strbuf_printf(b, _("%s (a loop device there)"),
			    devs.v[i]);
		else
			strbuf_printf(b, _("%s (the same path there)"),
			    devs.v[i]);
	}
	for (size_t i = 0; i < devs.n; i++)
		free(devs.v[i]);
	free(devs.v);
}

/* v's directory on host h: %h is h's name there, as `raidlab run
   --fleet-host` expands it. Caller frees. */
static char *
directory_on(const struct lab_variant *v, const struct lab_host *h)
{
	char why[ERR_MSG_MAX], *dir;

	if (v->directory_text == NULL ||
	    strstr(v->directory_text, "%h") == NULL)
		return xstrdup(v->directory);
	lab_expand_set_host(h->name);
	dir = lab_expand_directory(v->directory_text, why, sizeof why);
	lab_expand_set_host(NULL);
	return dir != NULL ? dir : xstrdup(v->directory);
}

/* A variant placed on hosts: where it runs, and its devices there. */
static void
plan_remote(const struct lab *lab, const struct lab_variant *v, bool json,
    json_t *all)
{
	json_t *hosts = json_array(), *devs;
	struct strbuf b;

	if (!json)
		cli_printf(_("# variant %s: runs on hosts, not here; the fleet "
			     "runner runs it there (not yet in raidlab), and "
			     "each host plans its own build\n"),
		    v->name);
	for (size_t i = 0; i < lab->nhosts; i++) {
		const struct lab_host *h = &lab->hosts[i];

		if (!lab_variant_on_host(v, h))
			continue;
		strbuf_init(&b);
		devs = json_array();
		host_devices(v, h, &b, devs);
		json_array_append_new(hosts,
		    json_pack("{s:s, s:s, s:s?, s:I, s:I, s:s, s:o}", "name",
			h->name, "address", h->address, "user", h->user, "port",
			(json_int_t)h->port, "fio_port",
			(json_int_t)h->fio_port, "fio_bind",
			lab_host_fio_bind(h), "devices", devs));
		if (!json && b.len == 0) {
			char *dir = directory_on(v, h);

			strbuf_printf(&b, _(": the directory %s there"), dir);
			free(dir);
		}
		if (!json)
			cli_printf(_("#   on %s (%s%s%s, ssh port %lld, fio "
				     "server %s:%lld)%s\n"),
			    h->name, h->user ? h->user : "", h->user ? "@" : "",
			    h->address, (long long)h->port,
			    lab_host_fio_bind(h), (long long)h->fio_port, b.s);
		strbuf_done(&b);
	}
	if (!json)
		cli_printf("\n");
	json_array_append_new(all,
	    json_pack("{s:s?, s:s, s:o}", "variant", v->name, "runner", "fleet",
		"hosts", hosts));
}

/* Print one variant's plan (or why there is none); false on error. */
static bool
plan_one(const struct lab_variant *v, bool json, json_t *all)
{
	struct plan_env env = { .state_dir = getenv("RAIDLAB_STATE_DIR") };
	struct plan *p = NULL;
	struct strbuf b;
	struct err e;
	char eb[ERR_FILE_MAX + ERR_MSG_MAX];

	if (v->directory != NULL) {
		if (!json)
			cli_printf(_("# variant %s: the directory %s, nothing "
				     "to "
				     "build\n\n"),
			    v->name, v->directory);
		return true;
	}
	err_clear(&e);
	if (plan_build(v, &env, &p, &e) < 0) {
		cli_error(&cli_plan, "%s", err_format(&e, eb, sizeof eb));
		return false;
	}
	if (json) {
		json_array_append_new(all, plan_json(p));
	} else {
		strbuf_init(&b);
		plan_format(p, &b);
		cli_printf("%s\n", b.s);
		strbuf_done(&b);
	}
	plan_free(p);
	return true;
}

/* Say each name in names that is no variant of lab; true if any. */
static bool
unknown_variants(const struct lab *lab, char **names, size_t nnames)
{
	bool any = false;

	for (size_t i = 0; i < nnames; i++) {
		size_t k;

		for (k = 0; k < lab->nvariants; k++)
			if (lab->variants[k].name &&
			    strcmp(lab->variants[k].name, names[i]) == 0)
				break;
		if (k == lab->nvariants) {
			cli_error(&cli_plan, _("%s: no variant named %s"),
			    lab->path, names[i]);
			any = true;
		}
	}
	return any;
}

/* The selected variants whose members here lack the scheduler asked
   for (scratch disks are not made: `raidlab run` checks them). */
static void
queue_refused(const struct lab *lab, const bool *vsel, struct errlist *out)
{
	struct plan_env env = { .state_dir = getenv("RAIDLAB_STATE_DIR") };

	for (size_t i = 0; i < lab->nvariants; i++) {
		const struct lab_variant *v = &lab->variants[i];
		struct plan *p = NULL;
		struct err e;

		err_clear(&e);
		if (!vsel[i] || v->directory != NULL ||
		    !lab_variant_isset(v, LAB_V_SCHEDULER) ||
		    plan_build(v, &env, &p, &e) < 0)
			continue;
		prov_queue_check(p, v, NULL, lab->path, out);
		plan_free(p);
	}
}

/*
 * What `raidlab run` would refuse of the selected variants here, after
 * the plans: a plan alone reads as "this will run". True when refused.
 */
static bool
plan_refused(const struct lab *lab, char **names, size_t nnames, bool json)
{
	char buf[ERR_FILE_MAX + ERR_FIELD_MAX + ERR_MSG_MAX + 16];
	bool *vsel = xcalloc(lab->nvariants + 1, sizeof *vsel);
	struct errlist refused, notes;
	bool any;

	/* a host's room and tools are the host's to check */
	for (size_t i = 0; i < lab->nvariants; i++)
		vsel[i] = wanted(names, nnames, lab->variants[i].name) &&
		    !lab_variant_remote(&lab->variants[i]);
	errlist_init(&refused);
	errlist_init(&notes);
	space_check(lab, vsel, NULL, 0, false, NULL, &refused, &notes);
	mdtools_check(lab, vsel, NULL, &refused);
	queue_refused(lab, vsel, &refused);
	errlist_sort(&refused);
	any = refused.n > 0;
	if (any && !json)
		cli_printf("%s\n",
		    _("# raidlab run refuses this lab here, before building "
		      "anything:"));
	for (size_t i = 0; i < refused.n; i++) {
		err_format(&refused.v[i], buf, sizeof buf);
		if (json)
			cli_error(&cli_plan,
			    _("%s (raidlab run refuses this "
			      "here)"),
			    buf);
		else
			cli_printf("#   %s\n", buf);
	}
	errlist_done(&refused);
	errlist_done(&notes);
	free(vsel);
	return any;
}

struct plan_opts {
	char **names; /* -v, in argv */
	size_t nnames;
	bool json;
	struct lab_scale scale;
};

/* CLI_OK, CLI_USAGE (said), or -1 after --help. */
static int
plan_parse(int argc, char **argv, struct plan_opts *o)
{
	int ch;

	while ((ch = cli_getopt(&cli_plan, argc, argv)) != -1) {
		if (cli_scale_is_opt(ch)) {
			if (!cli_scale_opt(&cli_plan, ch, optarg, &o->scale))
				return CLI_USAGE;
			continue;
		}
		switch (ch) {
		case 'v':
			o->names = xreallocarray(o->names, o->nnames + 1,
			    sizeof *o->names);
			o->names[o->nnames++] = optarg;
			break;
		case 'j':
			o->json = true;
			break;
		case CLI_GETOPT_HELP:
			return -1;
		default:
			return CLI_USAGE;
		}
	}
	if (!cli_one_operand(&cli_plan, argc, argv, "LAB"))
		return CLI_USAGE;
	return CLI_OK;
}

static int
plan_exec(int argc, char **argv)
{
	struct plan_opts o = { 0 };
	struct lab *lab = NULL;
	bool ok = true;
	json_t *all;
	int rc;

	lab_scale_init(&o.scale);
	if ((rc = plan_parse(argc, argv, &o)) != CLI_OK) {
		rc = rc < 0 ? CLI_OK : rc;
		goto out;
	}
	rc = CLI_USAGE;
	if ((lab = cli_load_lab_scaled(argv[optind], &o.scale)) == NULL)
		goto out;
	/* A name that is no variant is a usage error, said before any plan. */
	if (unknown_variants(lab, o.names, o.nnames))
		goto out;
	if (!o.json) {
		size_t narrays = 0;
		char *r;

		cli_scale_print(&o.scale, stdout);
		for (size_t i = 0; i < lab->nvariants; i++)
			narrays +=
			    wanted(o.names, o.nnames, lab->variants[i].name) &&
			    lab->variants[i].directory == NULL &&
			    !lab_variant_remote(&lab->variants[i]);
		r = rounds_describe(lab, 0, narrays);
		cli_comment_lines(stdout, r);
		free(r);
	}
	all = json_array();
	for (size_t i = 0; i < lab->nvariants; i++) {
		const struct lab_variant *v = &lab->variants[i];

		if (!wanted(o.names, o.nnames, v->name))
			continue;
		if (lab_variant_remote(v))
			plan_remote(lab, v, o.json, all);
		else
			ok = plan_one(v, o.json, all) && ok;
	}
	if (o.json) {
		char *s = json_dumps(all, JSON_INDENT(1));

		if (s != NULL)
			printf("%s\n", s);
		free(s);
	}
	json_decref(all);
	rc = ok ? CLI_OK : CLI_FAIL;
	if (ok && plan_refused(lab, o.names, o.nnames, o.json))
		rc = CLI_CANNOT;
out:
	lab_scale_done(&o.scale);
	if (lab != NULL)
		lab_free(lab);
	free(o.names);
	return rc;
}

const struct cli_cmd cli_plan = {
	.name = "plan",
	.args = "[-v VARIANT] [--scale F] [--set W.KEY=VALUE] "
		"[--disk scratch:N=DEV] [-j] LAB",
	.summary = N_("print the commands that build and tear down each "
		      "variant"),
	.opts = plan_options,
	.shared = cli_scale_opts,
	.more = plan_more,
	.exec = plan_exec,
};
