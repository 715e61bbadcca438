/*
 * raidlab run LAB: the lab's workloads on each variant, headless, with
 * repeats. Directory variants run in their directory; array variants are
 * checked (run-build.c: every device against the inventory and
 * --yes-destroy before anything is touched), built, measured and torn
 * down, each object journaled for `raidlab cleanup`. A live status line on a
 * terminal, a line per test otherwise; at the end the tables users know, or the
 * record as JSON or the figures as CSV. The record is saved after every
 * run. Main thread; SIGINT/SIGTERM stop the engine cleanly.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "afile.h"
#include "cli.h"
#include "engine.h"
#include "err.h"
#include "i18n.h"
#include "lab.h"
#include "param.h"
#include "record.h"
#include "report.h"
#include "run-build.h"
#include "statej.h"
#include "run-live.h"
#include "strbuf.h"
#include "workload.h"
#include "xalloc.h"

enum out_format { OUT_TABLE, OUT_JSON, OUT_CSV };

struct run_opts {
	char **variants; /* --variant, NULL-terminated; NULL: all */
	size_t nvariants;
	char **workloads;
	size_t nworkloads;
	const char *target; /* --target: one directory variant */
	const char *results; /* --results */
	int64_t repeats; /* --repeats; 0: the lab's */
	unsigned tick_ms;
	bool keep;
	enum out_format out;
	char **confirmed; /* --yes-destroy entries */
	size_t nconfirmed;
	bool dry_run;
};

/* The engine of the run in progress, for the signal handler. */
static struct engine *_Atomic running;
volatile sig_atomic_t run_interrupted; /* also read by run-build.c */
#define interrupted run_interrupted

static void
on_signal(int sig)
{
	struct engine *eng = atomic_load(&running);

	(void)sig;
	interrupted = 1;
	if (eng != NULL)
		engine_stop(eng);
}

static void
usage(FILE *fp)
{
	cli_usage(&cli_run, fp);
	fprintf(fp,
	    _("\nOptions:\n"
	      "  -v, --variant NAME    run only this variant (repeatable)\n"
	      "  -w, --workload NAME   run only this workload (repeatable)\n"
	      "  -t, --target DIR      run on DIR instead of the lab's "
	      "variants\n"
	      "  -r, --repeats N       override the lab's repeats\n"
	      "  -o, --results DIR     where the record goes (default: the "
	      "lab's results)\n"
	      "  -k, --keep            leave the workloads' files on the "
	      "target\n"
	      "      --yes-destroy=DEV,...  destroy the data on exactly these "
	      "devices\n"
	      "  -n, --dry-run         check everything and print the plans; "
	      "change nothing\n"
	      "      --tick MS         sampling period (default 250)\n"
	      "  -j, --json            print the record as JSON at the end\n"
	      "  -c, --csv             print every test as CSV at the end\n"
	      "  -h, --help            show this help\n\n"
	      "LAB is a lab file, or the name of a preset (quick, "
	      "seed-000-bitmap-xfs-log, ...).\n"));
}

static bool
selected(char **names, size_t n, const char *name)
{
	size_t i;

	if (n == 0)
		return true;
	for (i = 0; i < n; i++)
		if (name != NULL && strcmp(names[i], name) == 0)
			return true;
	return false;
}

/* One workload once on one directory; NULL if it could not start. */
static struct wl_result *
run_once(const struct lab *lab, const struct lab_workload *w, const char *dir,
    const struct run_opts *o, struct live *lv)
{
	struct engine_job job = {
		.wl = w->wl,
		.params = w->values,
		.name = w->name,
		.target = dir,
		.cache = lab->cache,
	};
	struct engine *eng = engine_new();
	struct wl_result *res;
	struct err e;
	int ki = param_index(w->wl->params, "keep");

	job.keep = o->keep || (ki >= 0 && w->values[ki].i != 0);
	err_clear(&e);
	if (engine_start(eng, &job, &e) < 0) {
		char b[ERR_FILE_MAX + ERR_MSG_MAX];

		cli_error(&cli_run, "%s", err_format(&e, b, sizeof b));
		engine_free(eng);
		return NULL;
	}
	atomic_store(&running, eng);
	if (interrupted)
		engine_stop(eng);
	res = live_follow(lv, eng);
	atomic_store(&running, NULL);
	engine_free(eng);
	return res;
}

struct tally {
	int failed, ran, skipped;
	bool refused; /* the precheck refused: nothing ran */
};

/* What the array variants of one run share. */
struct build_ctx {
	struct build_opts bo;
	struct disk_list inv;
	struct statej *j; /* opened with the first build */
};

static void
run_variant(const struct lab *lab, const struct lab_variant *v, const char *dir,
    const struct run_opts *o, struct record *rec, const char *resdir,
    struct tally *t)
{
	int64_t repeats = o->repeats > 0 ? o->repeats : lab->repeats;
	struct live lv;
	size_t i;
	char b[ERR_FILE_MAX + ERR_MSG_MAX];
	struct err e;

	for (i = 0; i < lab->nworkloads && !interrupted; i++) {
		const struct lab_workload *w = &lab->workloads[i];
		const char *wname = w->name ? w->name : w->type;

		if (!selected(o->workloads, o->nworkloads, wname))
			continue;
		double prev = 0;

		for (int64_t k = 1; k <= repeats && !interrupted; k++) {
			struct wl_result *res;

			/* The previous repeat's duration gives the ETA. */
			live_init(&lv, v->name ? v->name : dir, wname, (int)k,
			    (int)repeats, o->tick_ms, prev);
			res = run_once(lab, w, dir, o, &lv);
			live_done(&lv);
			if (res == NULL) {
				t->failed++;
				continue;
			}
			t->ran++;
			prev = res->wall;
			if (res->status == WL_FAILED)
				t->failed++;
			record_add_run(rec, v, dir, w, (int)k, res, NULL);
			wl_result_free(res);
			err_clear(&e);
			if (record_save(rec, resdir, &e) < 0)
				cli_error(&cli_run, "%s",
				    err_format(&e, b, sizeof b));
		}
	}
}

/* The variant's runs did not happen: record why. */
static void
skip_variant(const struct lab *lab, const struct lab_variant *v,
    const struct run_opts *o, struct record *rec, const char *why)
{
	for (size_t i = 0; i < lab->nworkloads; i++) {
		const struct lab_workload *w = &lab->workloads[i];

		if (selected(o->workloads, o->nworkloads,
			w->name ? w->name : w->type))
			record_add_run(rec, v, NULL, w, 1, NULL, why);
	}
}

/* Build an array variant, run its workloads on it, tear it down. */
static void
array_variant(const struct lab *lab, const struct lab_variant *v,
    const struct run_opts *o, struct build_ctx *bc, struct record *rec,
    const char *resdir, struct tally *t)
{
	struct prov p;
	struct err e;
	char b[ERR_FILE_MAX + ERR_MSG_MAX];

	if (bc->j == NULL) {
		err_clear(&e);
		if (statej_open(&bc->j, &e) < 0) {
			cli_error(&cli_run, "%s", err_format(&e, b, sizeof b));
			skip_variant(lab, v, o, rec, e.msg);
			t->failed++;
			return;
		}
	}
	if (build_variant(&p, lab, v, &bc->bo, bc->j, &bc->inv, rec) < 0) {
		const char *err =
		    json_string_value(json_object_get(p.build, "error"));

		skip_variant(lab, v, o, rec,
		    err ? err : _("the variant could not be built"));
		t->failed++;
	} else {
		run_variant(lab, v, prov_target(&p), o, rec, resdir, t);
	}
	if (build_teardown(&p) < 0)
		t->failed++;
	err_clear(&e);
	if (record_save(rec, resdir, &e) < 0)
		cli_error(&cli_run, "%s", err_format(&e, b, sizeof b));
}

static void
run_lab(const struct lab *lab, const struct run_opts *o, struct record *rec,
    const char *resdir, struct tally *t)
{
	struct build_ctx bc = { 0 };
	bool *sel, arrays = false;
	size_t i;

	if (o->target != NULL) {
		struct lab_variant tv;
		char name[] = "target";

		memset(&tv, 0, sizeof tv);
		tv.name = name;
		tv.directory = xstrdup(o->target);
		run_variant(lab, &tv, o->target, o, rec, resdir, t);
		free(tv.directory);
		return;
	}
	sel = xcalloc(lab->nvariants + 1, sizeof *sel);
	for (i = 0; i < lab->nvariants; i++) {
		sel[i] =
		    selected(o->variants, o->nvariants, lab->variants[i].name);
		arrays |= sel[i] && lab->variants[i].directory == NULL;
	}
	bc.bo.confirmed = (const char *const *)o->confirmed;
	bc.bo.nconfirmed = o->nconfirmed;
	bc.bo.dry_run = o->dry_run;
	bc.bo.state_dir = getenv("RAIDLAB_STATE_DIR");
	disk_list_init(&bc.inv);
	if ((arrays || o->nconfirmed > 0 || o->dry_run) &&
	    build_precheck(lab, sel, &bc.bo, &bc.inv) < 0) {
		t->failed++;
		t->refused = true;
		goto out;
	}
	if (o->dry_run)
		goto out;
	for (i = 0; i < lab->nvariants && !interrupted; i++) {
		const struct lab_variant *v = &lab->variants[i];
		int rc;

		if (!sel[i])
			continue;
		if (v->directory == NULL) {
			array_variant(lab, v, o, &bc, rec, resdir, t);
			continue;
		}
		if ((rc = afile_mkdirs(v->directory, 0755)) < 0) {
			cli_error(&cli_run,
			    _("variant %s: cannot create %s: %s"), v->name,
			    v->directory, strerror(-rc));
			t->failed++;
			continue;
		}
		run_variant(lab, v, v->directory, o, rec, resdir, t);
	}
out:
	statej_close(bc.j);
	disk_list_done(&bc.inv);
	free(sel);
}

static void
print_output(const struct record *rec, enum out_format out)
{
	struct strbuf b;

	strbuf_init(&b);
	if (out == OUT_JSON) {
		char *s = record_dumps(rec);

		fputs(s, stdout);
		free(s);
	} else if (out == OUT_CSV) {
		report_csv(rec, &b);
	} else {
		report_runs(rec, &b);
	}
	fputs(b.s, stdout);
	strbuf_done(&b);
}

/* --yes-destroy=A,B: each non-empty entry, in order. */
static void
add_confirmed(struct run_opts *o, const char *arg)
{
	char *copy = xstrdup(arg), *w, *save = NULL;

	for (w = strtok_r(copy, ",", &save); w != NULL;
	     w = strtok_r(NULL, ",", &save)) {
		o->confirmed = xreallocarray(o->confirmed, o->nconfirmed + 1,
		    sizeof *o->confirmed);
		o->confirmed[o->nconfirmed++] = xstrdup(w);
	}
	free(copy);
}

static int
parse_opts(int argc, char **argv, struct run_opts *o)
{
	static const struct option opts[] = {
		{ "variant", required_argument, NULL, 'v' },
		{ "workload", required_argument, NULL, 'w' },
		{ "target", required_argument, NULL, 't' },
		{ "repeats", required_argument, NULL, 'r' },
		{ "results", required_argument, NULL, 'o' },
		{ "keep", no_argument, NULL, 'k' },
		{ "tick", required_argument, NULL, 'T' },
		{ "json", no_argument, NULL, 'j' },
		{ "csv", no_argument, NULL, 'c' },
		{ "yes-destroy", required_argument, NULL, 'Y' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char *end;
	long n;
	int ch;

	while ((ch = getopt_long(argc, argv, "v:w:t:r:o:kjcnh", opts, NULL)) !=
	    -1) {
		switch (ch) {
		case 'v':
			o->variants = xreallocarray(o->variants,
			    o->nvariants + 1, sizeof *o->variants);
			o->variants[o->nvariants++] = optarg;
			break;
		case 'w':
			o->workloads = xreallocarray(o->workloads,
			    o->nworkloads + 1, sizeof *o->workloads);
			o->workloads[o->nworkloads++] = optarg;
			break;
		case 't':
			o->target = optarg;
			break;
		case 'r':
		case 'T':
			n = strtol(optarg, &end, 10);
			if (*end != '\0' || n < 1 || n > 100000) {
				cli_error(&cli_run,
				    _("%s: not a positive "
				      "number: %s"),
				    ch == 'r' ? "--repeats" : "--tick", optarg);
				return CLI_USAGE;
			}
			if (ch == 'r')
				o->repeats = n;
			else
				o->tick_ms = (unsigned)n;
			break;
		case 'o':
			o->results = optarg;
			break;
		case 'k':
			o->keep = true;
			break;
		case 'j':
			o->out = OUT_JSON;
			break;
		case 'c':
			o->out = OUT_CSV;
			break;
		case 'n':
			o->dry_run = true;
			break;
		case 'Y':
			add_confirmed(o, optarg);
			break;
		case 'h':
			usage(stdout);
			return -1;
		default:
			usage(stderr);
			return CLI_USAGE;
		}
	}
	if (optind != argc - 1) {
		usage(stderr);
		return CLI_USAGE;
	}
	return CLI_OK;
}

static void
free_opts(struct run_opts *o)
{
	for (size_t i = 0; i < o->nconfirmed; i++)
		free(o->confirmed[i]);
	free(o->confirmed);
	free(o->variants);
	free(o->workloads);
}

static int
run_exec(int argc, char **argv)
{
	struct run_opts o = { .tick_ms = 250 };
	struct sigaction sa;
	struct tally t = { 0, 0, 0, false };
	struct record *rec;
	struct lab *lab;
	char *resdir;
	int rc;

	if ((rc = parse_opts(argc, argv, &o)) != CLI_OK) {
		free_opts(&o);
		return rc < 0 ? CLI_OK : rc;
	}
	if ((lab = cli_load_lab(argv[optind])) == NULL) {
		free_opts(&o);
		return CLI_USAGE;
	}
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	rec = record_new(lab);
	resdir = o.results ? xstrdup(o.results) : record_results_dir(lab);
	run_lab(lab, &o, rec, resdir, &t);
	if (o.dry_run || t.refused) {
		/* Nothing ran: no record, nothing changed. */
		rc = t.failed ? CLI_FAIL : CLI_OK;
		goto out;
	}
	record_set_status(rec,
	    interrupted    ? "interrupted"
		: t.failed ? "failed"
			   : "ok");
	{
		struct err e;
		char b[ERR_FILE_MAX + ERR_MSG_MAX];

		err_clear(&e);
		if (record_save(rec, resdir, &e) < 0)
			cli_error(&cli_run, "%s", err_format(&e, b, sizeof b));
		else if (o.out == OUT_TABLE)
			fprintf(stderr, _("raidlab run: record saved to %s\n"),
			    rec->path);
	}
	print_output(rec, o.out);

	rc = interrupted ? 130 : t.failed ? CLI_FAIL : CLI_OK;
out:
	record_free(rec);
	free(resdir);
	lab_free(lab);
	free_opts(&o);
	return rc;
}

const struct cli_cmd cli_run = {
	.name = "run",
	.args = "[-v VARIANT] [-w WORKLOAD] [-t DIR] [-n] "
		"[--yes-destroy=DEV,...] [-j|-c] LAB",
	.summary = N_("run a lab's workloads headless and record the results"),
	.exec = run_exec,
};
