/*
 * fleet_fio_run() (fleet-fio.h): versions, job files, servers, one fio
 * --client per round, records per host and the aggregate; everything it
 * started is stopped before it returns. The controller's thread.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/afile.h"
#include "base/err.h"
#include "base/i18n.h"
#include "base/xalloc.h"
#include "build/exec.h"
#include "fleet-fio-int.h"
#include "fleet-fio.h"
#include "lab/lab.h"
#include "measure/param.h"
#include "measure/result.h"
#include "results/record.h"

#define FIO_NOTE                                                               \
	"raidlab summed the hosts' own figures from fio's client_stats; "      \
	"fio's \"All clients\" entry is ignored (wrong or missing in some "    \
	"fio versions)"

struct ffrun {
	const struct lab *lab;
	const struct lab_variant *v;
	const struct lab_workload *w;
	const struct fleet_fio_opts *o;
	const struct lab_host *const *hosts;
	size_t n;
	struct fio_server *srv;
	bool *in; /* takes part */
	bool *made; /* its record was made here */
	char **dirs; /* the job's directory on each host */
	char **jobs; /* each host's job file here */
	char *work; /* this machine's directory for them */
	char version[64]; /* this machine's fio */
	json_t *agg;
};

static void
event(struct ffrun *f, enum fleet_fio_event_kind kind, const char *host,
    int round, const char *text)
{
	struct fleet_fio_event ev = { kind, host, round, 0, text };

	if (f->o->on_event != NULL)
		f->o->on_event(f->o->arg, &ev);
}

static void
left_out(struct ffrun *f, size_t i, const char *why)
{
	f->in[i] = false;
	json_array_append_new(json_object_get(f->agg, "left_out"),
	    json_pack("{s:s, s:s}", "host", f->hosts[i]->name, "reason", why));
	event(f, FLEET_FIO_LEFT_OUT, f->hosts[i]->name, 0, why);
}

static size_t
count_in(const struct ffrun *f)
{
	size_t k = 0;

	for (size_t i = 0; i < f->n; i++)
		k += f->in[i];
	return k;
}

/* fio --version here; then on each host, leaving out those that differ
   or cannot be asked. */
static int
versions(struct ffrun *f, struct err *e)
{
	static const char *const argv[] = { "fio", "--version", NULL };
	struct exec_result r;
	struct err he;
	char theirs[64], why[ERR_MSG_MAX + 64];
	int rc;

	memset(&r, 0, sizeof r);
	rc = exec_run(argv, NULL, &r);
	if (rc < 0 ||
	    !fleet_fio_version(r.output, f->version, sizeof f->version)) {
		exec_result_done(&r);
		return err_setf(e, rc < 0 ? rc : -EPROTO, "%s",
		    _("fio --version failed on this machine: fio must be "
		      "installed here, the same version as on every host"));
	}
	exec_result_done(&r);
	for (size_t i = 0; i < f->n; i++) {
		memset(&r, 0, sizeof r);
		err_clear(&he);
		rc = ssh_run(&f->srv[i].ssh, argv, NULL, &r, &he);
		if (rc < 0)
			snprintf(why, sizeof why,
			    _("%s: fio --version failed there: %s"),
			    f->hosts[i]->name, he.msg);
		else if (!fleet_fio_version(r.output, theirs, sizeof theirs))
			snprintf(why, sizeof why,
			    _("%s: fio --version says nothing that reads as "
			      "a version"),
			    f->hosts[i]->name);
		else if (strcmp(theirs, f->version) != 0)
			snprintf(why, sizeof why,
			    _("%s runs %s, this controller %s: fio's client "
			      "and server must be the same version"),
			    f->hosts[i]->name, theirs, f->version);
		else
			why[0] = '\0';
		exec_result_done(&r);
		if (why[0] != '\0')
			left_out(f, i, why);
	}
	return 0;
}

static int
write_jobs(struct ffrun *f, struct err *e)
{
	char tmpl[] = "/tmp/raidlab-fio-jobs.XXXXXX";
	const char *tmp = getenv("TMPDIR");
	char *text;
	int rc;

	f->work = tmp != NULL && *tmp == '/'
	    ? xasprintf("%s/raidlab-fio-jobs.XXXXXX", tmp)
	    : xstrdup(tmpl);
	if (mkdtemp(f->work) == NULL) {
		rc = -errno;
		free(f->work);
		f->work = NULL;
		return err_setf(e, rc,
		    _("cannot make a directory for fio's "
		      "job files: %s"),
		    strerror(-rc));
	}
	for (size_t i = 0; i < f->n; i++) {
		f->jobs[i] = xasprintf("%s/%s.fio", f->work, f->hosts[i]->name);
		text = fleet_fio_job_text(f->w, f->hosts[i]->name, f->dirs[i]);
		rc = afile_write(f->jobs[i], text, strlen(text), e);
		free(text);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* Stop every server and tunnel, remove every file made here. */
static void
teardown(struct ffrun *f)
{
	struct err se;

	for (size_t i = 0; i < f->n; i++) {
		err_clear(&se);
		if (fio_server_stop(&f->srv[i], &se) < 0)
			event(f, FLEET_FIO_NOTE, f->hosts[i]->name, 0, se.msg);
		if (f->jobs[i] != NULL)
			unlink(f->jobs[i]);
	}
	if (f->work != NULL && rmdir(f->work) < 0)
		event(f, FLEET_FIO_NOTE, NULL, 0, strerror(errno));
}

static int
start_servers(struct ffrun *f)
{
	double t = f->o->start_timeout > 0 ? f->o->start_timeout
					   : FLEET_FIO_START_TIMEOUT;
	struct err se;

	for (size_t i = 0; i < f->n; i++) {
		if (!f->in[i])
			continue;
		err_clear(&se);
		if (fio_server_start(&f->srv[i], t, &se) < 0) {
			fio_server_stop(&f->srv[i], NULL);
			left_out(f, i, se.msg);
		} else if (f->o->on_event != NULL) {
			struct fleet_fio_event ev = { FLEET_FIO_STARTED,
				f->hosts[i]->name, 0, f->srv[i].pid, NULL };

			f->o->on_event(f->o->arg, &ev);
		}
	}
	if (count_in(f) > 0)
		event(f, FLEET_FIO_SERVERS_UP, NULL, 0, NULL);
	return 0;
}

/* A host's record: this lab, no host facts of this machine, fleet.host. */
static struct record *
host_record(const struct lab *lab, const struct lab_host *h,
    const char *version)
{
	struct record *rec = record_new(lab);

	json_object_set_new(rec->root, "host", json_object());
	json_object_set_new(rec->root, "fleet",
	    json_pack("{s:s, s:s, s:s, s:s, s:[]}", "host", h->name, "address",
		h->address, "engine", "fio client/server", "fio_version",
		version, "aggregate"));
	return rec;
}

/* The test as raidlab's own fio runs label it, plus where it ran. */
static void
relabel(struct ffrun *f, struct wl_result *res, size_t i)
{
	struct wl_test *t = res->ntests > 0 ? &res->tests[0] : NULL;
	char note[512];

	if (t != NULL) {
		free(t->label);
		t->label =
		    xasprintf("%s (%s client/server)", t->key, f->version);
	}
	snprintf(note, sizeof note,
	    "run by %s itself on host %s through fio's client/server, "
	    "together with %zu other host(s)",
	    f->version, f->hosts[i]->name, count_in(f) - 1);
	wl_result_add_note(res, note);
}

static void
client_argv(struct ffrun *f, const char *out, const char **argv, char **specs)
{
	size_t k = 0;

	argv[k++] = "fio";
	for (size_t i = 0; i < f->n; i++) {
		char spec[320];

		if (!f->in[i])
			continue;
		specs[i] = xasprintf("--client=%s",
		    fio_server_spec(f->srv[i].addr, f->srv[i].port, spec,
			sizeof spec));
		argv[k++] = specs[i];
		argv[k++] = f->jobs[i];
	}
	argv[k++] = "--output-format=json";
	argv[k++] = out;
	argv[k] = NULL;
}

/* Keep fio's raw output of round r in opts->raw_dir; its path, or NULL. */
static char *
keep_raw(struct ffrun *f, const char *text, int round)
{
	char *path;
	struct err e;

	if (f->o->raw_dir == NULL)
		return NULL;
	path = xasprintf("%s/fio-%s-%s-r%d.json", f->o->raw_dir,
	    f->v->name ? f->v->name : "variant", lab_workload_name(f->w),
	    round);
	if (afile_mkdirs(f->o->raw_dir, 0755) < 0 ||
	    afile_write(path, text, strlen(text), &e) < 0) {
		free(path);
		return NULL;
	}
	return path;
}

/* Round r's results into the records and the aggregate. */
static int
round_store(struct ffrun *f, int round, const char *text, const char *file,
    struct record **records, struct err *e)
{
	const char **names = xcalloc(f->n, sizeof *names);
	size_t *idx = xcalloc(f->n, sizeof *idx), k = 0;
	struct fleet_fio_figs *figs = xcalloc(f->n, sizeof *figs);
	struct wl_result **res = xcalloc(f->n, sizeof *res);
	json_t *target;
	char *raw;
	int rc;

	for (size_t i = 0; i < f->n; i++)
		if (f->in[i]) {
			idx[k] = i;
			names[k++] = f->hosts[i]->name;
		}
	rc = fleet_fio_parse(text, file, names, k, figs, res, NULL, 0, e);
	for (size_t j = 0; rc == 0 && j < k; j++) {
		size_t i = idx[j];

		relabel(f, res[j], i);
		record_add_run(records[i], f->v, NULL, f->w, round, res[j],
		    NULL);
		target = json_pack("{s:s, s:s}", "path", f->dirs[i], "host",
		    f->hosts[i]->name);
		record_set_run_target(records[i], target);
		json_decref(target);
		wl_result_free(res[j]);
	}
	if (rc == 0) {
		raw = keep_raw(f, text, round);
		json_array_append_new(json_object_get(f->agg, "rounds"),
		    fleet_fio_round_json(round, raw, names, figs, k));
		free(raw);
	}
	free(names);
	free(idx);
	free(figs);
	free(res);
	return rc;
}

/* The whole file; NULL when it cannot be read. */
static char *
slurp(const char *path)
{
	FILE *fp = fopen(path, "re");
	char *buf = NULL;
	size_t len = 0, cap = 0, got;

	if (fp == NULL)
		return NULL;
	do {
		if (cap - len < 4096)
			buf = xrealloc(buf, cap = cap * 2 + 8192);
		got = fread(buf + len, 1, cap - len - 1, fp);
		len += got;
	} while (got > 0);
	buf[len] = '\0';
	fclose(fp);
	return buf;
}

static double
round_timeout(const struct lab_workload *w)
{
	const struct param_value *pv = lab_workload_param(w, "runtime");

	return pv != NULL && pv->i > 0 ? (double)pv->i + FLEET_FIO_SLACK
				       : FLEET_FIO_PASS_TIMEOUT;
}

static int
one_round(struct ffrun *f, int round, struct record **records, struct err *e)
{
	const char **argv = xcalloc(2 * f->n + 4, sizeof *argv);
	char **specs = xcalloc(f->n, sizeof *specs);
	char *file = xasprintf("%s/round-%d.json", f->work, round);
	char *out = xasprintf("--output=%s", file), *text = NULL;
	struct exec_opts o = { .timeout = round_timeout(f->w) };
	struct exec_result r;
	char how[128];
	int rc;

	client_argv(f, out, argv, specs);
	memset(&r, 0, sizeof r);
	event(f, FLEET_FIO_ROUND, NULL, round, NULL);
	rc = exec_run(argv, &o, &r);
	if (rc < 0)
		err_setf(e, rc, _("round %d: fio --client failed (%s): %s"),
		    round, exec_result_describe(&r, how, sizeof how),
		    r.output[0] ? r.output : "");
	else if ((text = slurp(file)) == NULL)
		rc = err_setf(e, -EIO, _("round %d: fio wrote no %s"), round,
		    file);
	else
		rc = round_store(f, round, text, file, records, e);
	if (rc == 0)
		event(f, FLEET_FIO_ROUND_DONE, NULL, round, NULL);
	exec_result_done(&r);
	unlink(file);
	for (size_t i = 0; i < f->n; i++)
		free(specs[i]);
	free(specs);
	free(argv);
	free(out);
	free(file);
	free(text);
	return rc;
}

static void
ffrun_done(struct ffrun *f)
{
	for (size_t i = 0; i < f->n; i++) {
		free(f->dirs[i]);
		free(f->jobs[i]);
	}
	free(f->dirs);
	free(f->jobs);
	free(f->srv);
	free(f->in);
	free(f->made);
	free(f->work);
}

int
fleet_fio_run(const struct lab *lab, const struct lab_variant *v,
    const struct lab_workload *w, const struct lab_host *const *hosts, size_t n,
    const struct fleet_fio_opts *opts, struct record **records,
    json_t **aggregate, struct err *e)
{
	static const struct fleet_fio_opts none;
	struct ffrun f = { .lab = lab,
		.v = v,
		.w = w,
		.o = opts ? opts : &none,
		.hosts = hosts,
		.n = n };
	int rounds = f.o->rounds > 0 ? f.o->rounds : (int)lab->repeats;
	int rc, round;

	f.srv = xcalloc(n, sizeof *f.srv);
	f.in = xcalloc(n, sizeof *f.in);
	f.made = xcalloc(n, sizeof *f.made);
	f.dirs = xcalloc(n, sizeof *f.dirs);
	f.jobs = xcalloc(n, sizeof *f.jobs);
	f.agg = json_pack("{s:s?, s:s, s:s, s:[], s:[], s:[]}", "variant",
	    v->name, "workload", lab_workload_name(w), "note", FIO_NOTE,
	    "hosts", "left_out", "rounds");
	for (size_t i = 0; i < n; i++) {
		f.in[i] = true;
		f.dirs[i] = fleet_fio_directory(v, hosts[i]->name);
		fio_server_init(&f.srv[i], hosts[i], f.o->ssh_config);
		f.srv[i].dir = f.dirs[i];
	}
	if ((rc = versions(&f, e)) < 0)
		goto out;
	json_object_set_new(f.agg, "fio_version", json_string(f.version));
	if ((rc = write_jobs(&f, e)) < 0)
		goto out;
	start_servers(&f);
	if (count_in(&f) == 0) {
		rc = err_setf(e, -EHOSTUNREACH, "%s",
		    _("no host can run the fio job: each was left out (see "
		      "above)"));
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		if (!f.in[i])
			continue;
		json_array_append_new(json_object_get(f.agg, "hosts"),
		    json_string(hosts[i]->name));
		if (records[i] == NULL) {
			records[i] = host_record(lab, hosts[i], f.version);
			f.made[i] = true;
		}
	}
	for (round = 1; round <= rounds && rc == 0; round++) {
		if (f.o->stop != NULL && *f.o->stop) {
			rc = err_setf(e, -EINTR, "%s",
			    _("stopped: fio's servers are stopped"));
			break;
		}
		rc = one_round(&f, round, records, e);
	}
out:
	teardown(&f);
	for (size_t i = 0; i < n; i++) {
		json_t *fl;

		if (records[i] == NULL)
			continue;
		fl = json_object_get(records[i]->root, "fleet");
		if (fl == NULL)
			json_object_set_new(records[i]->root, "fleet",
			    fl = json_object());
		if (json_object_get(fl, "aggregate") == NULL)
			json_object_set_new(fl, "aggregate", json_array());
		json_array_append(json_object_get(fl, "aggregate"), f.agg);
		if (f.made[i])
			record_set_status(records[i],
			    rc == 0            ? "ok"
				: rc == -EINTR ? "interrupted"
					       : "failed");
	}
	if (aggregate != NULL)
		*aggregate = json_incref(f.agg);
	json_decref(f.agg);
	ffrun_done(&f);
	return rc;
}
