/*
 * src/fleet/fleet-fio as a command, for tests/system/fleet-fio.sh until
 * the fleet controller runs fio_server workloads itself: every variant x
 * workload of a lab whose workload says fio_server = true, on the hosts
 * the variant names, through fleet_fio_run(). Not a test itself; built by
 * make check.
 *
 *   fleet-fio-tool SSH_CONFIG LAB OUTDIR
 *
 * Writes OUTDIR/HOST.json (each host's record), OUTDIR/aggregate.json
 * (the aggregates, a list) and fio's raw JSON of each round into
 * OUTDIR/raw/. Prints "event: KIND HOST ROUND TEXT" lines as events
 * come ("event: started HOST pid PID" for a server), then "rc: N" and "msg:
 * SENTENCE" when it failed. Exits 0 when every call returned 0, else 1; 2 for a
 * bad command line or lab.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/xalloc.h"
#include "fleet/fleet-fio.h"
#include "lab/lab.h"
#include "results/record.h"

static void
on_event(void *arg, const struct fleet_fio_event *ev)
{
	static const char *const kinds[] = { "left_out", "started",
		"servers_up", "round", "round_done", "note" };

	(void)arg;
	if (ev->kind == FLEET_FIO_STARTED)
		printf("event: started %s pid %ld\n", ev->host, ev->pid);
	else
		printf("event: %s %s %d %s\n", kinds[ev->kind],
		    ev->host ? ev->host : "-", ev->round,
		    ev->text ? ev->text : "");
	fflush(stdout);
}

static int
write_text(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");

	if (fp == NULL || fputs(text, fp) < 0) {
		if (fp)
			fclose(fp);
		return -1;
	}
	return fclose(fp);
}

static int
run_pair(const struct lab *lab, const struct lab_variant *v,
    const struct lab_workload *w, const char *config, const char *outdir,
    json_t *aggs)
{
	const struct lab_host **hosts = xcalloc(lab->nhosts, sizeof *hosts);
	struct record **recs = xcalloc(lab->nhosts, sizeof *recs);
	char *raw = xasprintf("%s/raw", outdir), *path, *text;
	struct fleet_fio_opts o = { .ssh_config = config,
		.raw_dir = raw,
		.on_event = on_event };
	json_t *agg = NULL;
	struct err e;
	size_t n = 0;
	int rc;

	for (size_t i = 0; i < lab->nhosts; i++)
		if (lab_variant_on_host(v, &lab->hosts[i]))
			hosts[n++] = &lab->hosts[i];
	err_clear(&e);
	rc = fleet_fio_run(lab, v, w, hosts, n, &o, recs, &agg, &e);
	if (rc < 0)
		printf("rc: %d\nmsg: %s\n", rc, e.msg);
	for (size_t i = 0; i < n; i++) {
		if (recs[i] == NULL)
			continue;
		path = xasprintf("%s/%s.json", outdir, hosts[i]->name);
		text = record_dumps(recs[i]);
		write_text(path, text);
		free(text);
		free(path);
		record_free(recs[i]);
	}
	if (agg != NULL)
		json_array_append_new(aggs, agg);
	free(raw);
	free(recs);
	free(hosts);
	return rc;
}

int
main(int argc, char **argv)
{
	struct errlist errs;
	struct lab *lab = NULL;
	json_t *aggs = json_array();
	char *path;
	int bad = 0;

	if (argc != 4) {
		fprintf(stderr,
		    "usage: fleet-fio-tool SSH_CONFIG LAB OUTDIR\n");
		return 2;
	}
	errlist_init(&errs);
	if (lab_load(argv[2], &lab, &errs) < 0 || lab_check(lab, &errs) < 0) {
		for (size_t i = 0; i < errs.n; i++) {
			char buf[1024];

			fprintf(stderr, "%s\n",
			    err_format(&errs.v[i], buf, sizeof buf));
		}
		errlist_done(&errs);
		lab_free(lab);
		return 2;
	}
	errlist_done(&errs);
	for (size_t i = 0; i < lab->nvariants; i++)
		for (size_t j = 0; j < lab->nworkloads; j++)
			if (fleet_fio_workload(&lab->workloads[j]) &&
			    run_pair(lab, &lab->variants[i], &lab->workloads[j],
				argv[1], argv[3], aggs) < 0)
				bad = 1;
	path = xasprintf("%s/aggregate.json", argv[3]);
	json_dump_file(aggs, path, JSON_INDENT(1));
	free(path);
	json_decref(aggs);
	lab_free(lab);
	return bad;
}
