/*
 * raidlab run LAB for fio workloads with fio_server = true on variants
 * placed on hosts: fio's own client/server, driven from here through
 * src/fleet/fleet-fio.h, before the fleet controller runs the rest. Each
 * host's record (its runs of every such variant and workload, and
 * fleet.aggregate) is saved as LAB-STAMP-HOST.json in the results
 * directory, with fleet.run naming this run so that compare takes the
 * hosts' records together; fio's raw JSON of each round goes next to
 * them (LAB-STAMP-fio/). Main thread.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/afile.h"
#include "base/err.h"
#include "base/i18n.h"
#include "base/xalloc.h"
#include "cli-run-hosts.h"
#include "fleet/fleet-run.h"
#include "cli.h"
#include "fleet/fleet-fio.h"
#include "lab/lab.h"
#include "results/record.h"

static void
on_event(void *arg, const struct fleet_fio_event *ev)
{
	(void)arg;
	switch (ev->kind) {
	case FLEET_FIO_LEFT_OUT:
		cli_fprintf(stderr, _("raidlab run: left out: %s\n"), ev->text);
		break;
	case FLEET_FIO_STARTED:
		cli_fprintf(stderr,
		    _("raidlab run: %s: fio server started (pid %ld "
		      "there)\n"),
		    ev->host, ev->pid);
		break;
	case FLEET_FIO_ROUND:
		cli_fprintf(stderr,
		    _("raidlab run: fio client/server: round %d\n"), ev->round);
		break;
	case FLEET_FIO_NOTE:
		cli_fprintf(stderr, "raidlab run: %s%s%s\n",
		    ev->host ? ev->host : "", ev->host ? ": " : "", ev->text);
		break;
	default:
		break;
	}
}

bool
cli_run_fio_wanted(const struct lab *lab, const struct fleet_opts *fo)
{
	for (size_t j = 0; j < lab->nworkloads; j++)
		if ((fo->workloads == NULL || fo->workloads[j]) &&
		    fleet_fio_workload(&lab->workloads[j]))
			return true;
	return false;
}

/* Host records: fleet.run and hosts set, saved into dir. */
static int
save_records(const struct lab *lab, struct record **recs, const char *dir,
    const char *stamp)
{
	char *host = fleet_controller_name(), *id, *text, *path;
	json_t *names = json_array();
	struct err e;
	int bad = 0;

	id = fleet_record_id(lab->name, stamp, host);
	for (size_t i = 0; i < lab->nhosts; i++)
		if (recs[i] != NULL)
			json_array_append_new(names,
			    json_string(lab->hosts[i].name));
	for (size_t i = 0; i < lab->nhosts; i++) {
		json_t *fl;

		if (recs[i] == NULL)
			continue;
		fl = json_object_get(recs[i]->root, "fleet");
		json_object_set_new(fl, "run", json_string(id));
		json_object_set(fl, "hosts", names);
		json_object_set_new(fl, "controller", json_string(host));
		path = fleet_record_path(dir, lab->name, stamp,
		    lab->hosts[i].name);
		text = record_dumps(recs[i]);
		err_clear(&e);
		if (text == NULL ||
		    afile_write(path, text, strlen(text), &e) < 0) {
			unlink(path);
			cli_error(&cli_run,
			    _("%s: its record was not saved: %s"),
			    lab->hosts[i].name, e.msg);
			bad = 1;
		} else {
			cli_fprintf(stderr,
			    _("raidlab run: %s: record saved to %s\n"),
			    lab->hosts[i].name, path);
		}
		free(text);
		free(path);
	}
	json_decref(names);
	free(id);
	free(host);
	return bad;
}

/* Variant v x workload w on v's hosts; recs per lab host. */
static int
run_pair(const struct lab *lab, const struct lab_variant *v,
    const struct lab_workload *w, struct record **recs,
    const struct fleet_fio_opts *fo)
{
	const struct lab_host **hosts = xcalloc(lab->nhosts, sizeof *hosts);
	struct record **mine = xcalloc(lab->nhosts, sizeof *mine);
	size_t *idx = xcalloc(lab->nhosts, sizeof *idx), n = 0;
	char b[ERR_FILE_MAX + ERR_MSG_MAX];
	struct err e;
	int rc;

	for (size_t i = 0; i < lab->nhosts; i++)
		if (lab_variant_on_host(v, &lab->hosts[i])) {
			idx[n] = i;
			mine[n] = recs[i];
			hosts[n++] = &lab->hosts[i];
		}
	cli_fprintf(stderr,
	    ngettext("raidlab run: %s on %s: through fio's client/server on "
		     "%zu host\n",
		"raidlab run: %s on %s: through fio's client/server on %zu "
		"hosts\n",
		n),
	    lab_workload_name(w), v->name, n);
	err_clear(&e);
	rc = fleet_fio_run(lab, v, w, hosts, n, fo, mine, NULL, &e);
	if (rc < 0)
		cli_error(&cli_run, "%s: %s: %s", v->name, lab_workload_name(w),
		    err_format(&e, b, sizeof b));
	for (size_t k = 0; k < n; k++)
		recs[idx[k]] = mine[k];
	free(idx);
	free(mine);
	free(hosts);
	return rc;
}

/* The rest mask: the selected workloads that are not fio_server ones;
   NULL when there is none. */
static bool *
rest_mask(const struct lab *lab, const struct fleet_opts *fo)
{
	bool *rest = xcalloc(lab->nworkloads + 1, sizeof *rest), any = false;

	for (size_t j = 0; j < lab->nworkloads; j++) {
		rest[j] = (fo->workloads == NULL || fo->workloads[j]) &&
		    !fleet_fio_workload(&lab->workloads[j]);
		any = any || rest[j];
	}
	if (!any) {
		free(rest);
		rest = NULL;
	}
	return rest;
}

bool *
cli_run_fio_dry(const struct lab *lab, const struct fleet_opts *fo)
{
	char spec[320], *dir, *job;

	cli_printf("%s",
	    _("Through fio's client/server from here (each "
	      "host's server started over ssh, one fio --client "
	      "per round):\n"));
	for (size_t j = 0; j < lab->nworkloads; j++) {
		const struct lab_workload *w = &lab->workloads[j];

		if ((fo->workloads != NULL && !fo->workloads[j]) ||
		    !fleet_fio_workload(w))
			continue;
		for (size_t i = 0; i < lab->nvariants; i++) {
			const struct lab_variant *v = &lab->variants[i];

			if ((fo->variants != NULL && !fo->variants[i]) ||
			    !lab_variant_remote(v))
				continue;
			for (size_t k = 0; k < lab->nhosts; k++) {
				const struct lab_host *h = &lab->hosts[k];

				if (!lab_variant_on_host(v, h))
					continue;
				snprintf(spec, sizeof spec, "ip:%s,%lld",
				    h->fio_tunnel ? "127.0.0.1"
						  : lab_host_fio_bind(h),
				    (long long)h->fio_port);
				cli_printf(_("%s on %s, host %s: fio "
					     "--server=%s%s; its job file:\n"),
				    lab_workload_name(w), v->name, h->name,
				    spec,
				    h->fio_tunnel
					? _(" (through an ssh tunnel)")
					: "");
				dir = fleet_fio_directory(v, h->name);
				job = fleet_fio_job_text(w, h->name, dir);
				cli_puts(job, stdout);
				free(job);
				free(dir);
			}
		}
	}
	return rest_mask(lab, fo);
}

int
cli_run_fio(const struct lab *lab, const struct fleet_opts *fo,
    volatile sig_atomic_t *interrupted, bool **rest)
{
	struct record **recs = xcalloc(lab->nhosts + 1, sizeof *recs);
	char *dir =
	    fo->results ? xstrdup(fo->results) : record_results_dir(lab);
	char stamp[32], *raw;
	struct fleet_fio_opts o = { .ssh_config = fo->ssh_config,
		.rounds = (int)fo->repeats,
		.stop = interrupted,
		.on_event = on_event };
	int failed = 0;

	record_stamp(time(NULL), stamp, sizeof stamp);
	o.raw_dir = raw = xasprintf("%s/%s-%s-fio", dir, lab->name, stamp);
	*rest = rest_mask(lab, fo);
	for (size_t j = 0; j < lab->nworkloads; j++) {
		const struct lab_workload *w = &lab->workloads[j];
		bool sel = fo->workloads == NULL || fo->workloads[j];

		if (!fleet_fio_workload(w))
			continue;
		for (size_t i = 0; sel && i < lab->nvariants; i++)
			if ((fo->variants == NULL || fo->variants[i]) &&
			    lab_variant_remote(&lab->variants[i]) &&
			    !*interrupted &&
			    run_pair(lab, &lab->variants[i], w, recs, &o) < 0)
				failed = 1;
	}
	if (afile_mkdirs(dir, 0755) < 0)
		cli_error(&cli_run, _("cannot create the results directory %s"),
		    dir);
	failed |= save_records(lab, recs, dir, stamp);
	for (size_t i = 0; i < lab->nhosts; i++)
		record_free(recs[i]);
	free(recs);
	free(raw);
	free(dir);
	return *interrupted ? 130 : failed ? CLI_FAIL : CLI_OK;
}
