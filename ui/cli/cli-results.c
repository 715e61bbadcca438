/*
 * raidlab results [-o DIR] [--json] [LAB]: the record files of the
 * results directory, newest first, with each one's lab, creation time,
 * status, variants and runs (only LAB's with LAB; a fleet's record as
 * LAB@HOST), so that nobody has to list the directory by hand. Also
 * cli_record_path() and cli_record_paths(): how show, compare and report
 * take a lab's name for its newest record (compare and report: every
 * host's record of its newest fleet run). Exit 0 (an empty
 * or absent directory lists nothing), 1 when the directory cannot be
 * read, 2 on bad usage. Main thread.
 */
#include "config.h"

#include <getopt.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/err.h"
#include "base/i18n.h"
#include "base/paths.h"
#include "base/textsafe.h"
#include "base/xalloc.h"
#include "cli.h"
#include "lab/lab.h"
#include "results/compare.h"
#include "results/record.h"

#define ERRBUF (ERR_FILE_MAX + ERR_FIELD_MAX + ERR_MSG_MAX + 16)

static const struct cli_opt results_options[] = {
	{ 'o', "results", "DIR",
	    N_("list DIR instead of the results directory") },
	{ 'j', "json", NULL, N_("print a JSON array, one object per record") },
	{ 0, NULL, NULL, NULL },
};

static void
results_more(FILE *fp)
{
	fprintf(fp, "%s",
	    _("\nLAB (a lab's name or file) lists only that lab's records, "
	      "from its\nown results directory when it names one. show, "
	      "compare and report\ntake a lab's name for its newest "
	      "record.\n"));
}

/* The lab arg names (a lab file, the user's own or a preset), quietly:
   NULL when there is none or it does not load. */
static struct lab *
quiet_lab(const char *arg)
{
	char *path = paths_find_lab(arg);
	struct errlist errs;
	struct lab *lab = NULL;

	if (path == NULL)
		return NULL;
	errlist_init(&errs);
	if (lab_load(path, &lab, &errs) < 0) {
		lab_free(lab);
		lab = NULL;
	}
	errlist_done(&errs);
	free(path);
	return lab;
}

/* The results directory for LAB (NULL: none named) and the lab name its
   records carry; *dir is dir_opt when given. Both the caller's. */
static void
lab_dir(const char *arg, const char *dir_opt, char **dir, char **name)
{
	struct lab *lab = arg != NULL ? quiet_lab(arg) : NULL;

	*dir = dir_opt != NULL ? xstrdup(dir_opt) : record_results_dir(lab);
	*name = NULL;
	if (arg != NULL)
		*name =
		    xstrdup(lab != NULL && lab->name != NULL ? lab->name : arg);
	lab_free(lab);
}

char *
cli_record_path(const struct cli_cmd *cmd, const char *arg)
{
	const struct compare_file *f;
	struct compare_files l;
	char *dir, *name, *path = NULL;
	struct err e;
	char b[ERRBUF];

	/* A file, or what looks like one, is read (and its error said) as
	   it always was. */
	if (strchr(arg, '/') != NULL || access(arg, F_OK) == 0 ||
	    (strlen(arg) > 5 && strcmp(arg + strlen(arg) - 5, ".json") == 0))
		return xstrdup(arg);
	lab_dir(arg, NULL, &dir, &name);
	err_clear(&e);
	if (compare_files_scan(&l, dir, &e) < 0) {
		cli_error(cmd, "%s", err_format(&e, b, sizeof b));
	} else if ((f = compare_files_latest(&l, name)) != NULL) {
		path = xstrdup(f->path);
		cli_fprintf(stderr,
		    _("raidlab %s: %s: its newest record, %s\n"), cmd->name,
		    name, path);
	} else {
		cli_error(cmd,
		    _("%s: no such record file, and no record of a lab of "
		      "that name in %s ('raidlab results' lists them)"),
		    arg, dir);
	}
	compare_files_done(&l);
	free(dir);
	free(name);
	return path;
}

char **
cli_record_paths(const struct cli_cmd *cmd, const char *arg, size_t *n)
{
	const struct compare_file *f, **run;
	struct compare_files l;
	char *dir, *name, **paths = NULL;
	struct err e;
	char b[ERRBUF];
	size_t k;

	*n = 0;
	if (strchr(arg, '/') != NULL || access(arg, F_OK) == 0 ||
	    (strlen(arg) > 5 && strcmp(arg + strlen(arg) - 5, ".json") == 0)) {
		paths = xcalloc(2, sizeof *paths);
		paths[(*n)++] = xstrdup(arg);
		return paths;
	}
	lab_dir(arg, NULL, &dir, &name);
	err_clear(&e);
	if (compare_files_scan(&l, dir, &e) < 0) {
		cli_error(cmd, "%s", err_format(&e, b, sizeof b));
	} else if ((f = compare_files_latest(&l, name)) == NULL) {
		cli_error(cmd,
		    _("%s: no such record file, and no record of a lab of "
		      "that name in %s ('raidlab results' lists them)"),
		    arg, dir);
	} else {
		run = compare_files_run(&l, f, &k);
		paths = xcalloc(k + 1, sizeof *paths);
		for (size_t i = 0; i < k; i++)
			paths[(*n)++] = xstrdup(run[i]->path);
		if (f->fleet_run != NULL)
			cli_fprintf(stderr,
			    ngettext("raidlab %s: %s: its newest fleet run, "
				     "%s: %zu record\n",
				"raidlab %s: %s: its newest fleet run, %s: "
				"%zu records (one per host)\n",
				(unsigned long)k),
			    cmd->name, name, f->fleet_run, k);
		else
			cli_fprintf(stderr,
			    _("raidlab %s: %s: its newest record, %s\n"),
			    cmd->name, name, f->path);
		free(run);
	}
	compare_files_done(&l);
	free(dir);
	free(name);
	return paths;
}

/* "2024-05-01 14:03" in local time, or "?" when unknown. */
static void
format_time(time_t t, char *buf, size_t len)
{
	struct tm tm;

	if (t == 0 || localtime_r(&t, &tm) == NULL ||
	    strftime(buf, len, "%Y-%m-%d %H:%M", &tm) == 0)
		snprintf(buf, len, "?");
}

static bool
wanted(const struct compare_file *f, const char *name)
{
	return name == NULL ||
	    (f->ok && f->lab != NULL && strcmp(f->lab, name) == 0);
}

static void
print_json(const struct compare_files *l, const char *name)
{
	json_t *a = json_array();
	char *s;

	for (size_t i = 0; i < l->n; i++) {
		const struct compare_file *f = &l->v[i];
		char t[32];
		struct tm tm;

		if (!f->ok || !wanted(f, name))
			continue;
		t[0] = '\0';
		if (f->created != 0 && gmtime_r(&f->created, &tm) != NULL)
			strftime(t, sizeof t, "%Y-%m-%dT%H:%M:%SZ", &tm);
		json_array_append_new(a,
		    json_pack("{s:s, s:s?, s:s?, s:s?, s:I, s:I}", "path",
			f->path, "lab", f->lab, "created", t[0] ? t : NULL,
			"status", f->status, "variants",
			(json_int_t)f->nvariants, "runs",
			(json_int_t)f->nruns));
		/* A fleet's record: its host and run, to group by. */
		if (f->fleet_run != NULL)
			json_object_set_new(json_array_get(a,
						json_array_size(a) - 1),
			    "fleet",
			    json_pack("{s:s, s:s?}", "run", f->fleet_run,
				"host", f->fleet_host));
	}
	if ((s = json_dumps(a, JSON_INDENT(1))) != NULL)
		printf("%s\n", s);
	free(s);
	json_decref(a);
}

/* The LAB column: "fl", or "fl@h2" for host h2's record of a fleet run.
   Caller frees. */
static char *
lab_col(const struct compare_file *f)
{
	if (f->fleet_host != NULL)
		return xasprintf("%s@%s", f->lab ? f->lab : "?", f->fleet_host);
	return xstrdup(f->lab ? f->lab : "?");
}

/* Column widths: lab names and statuses vary; times are fixed. */
static void
print_table(const struct compare_files *l, const char *name)
{
	int wl = (int)strlen(_("LAB")), ws = (int)strlen(_("STATUS"));
	size_t n = 0;
	char t[32], *lab;

	for (size_t i = 0; i < l->n; i++) {
		const struct compare_file *f = &l->v[i];

		if (!f->ok || !wanted(f, name))
			continue;
		n++;
		lab = lab_col(f);
		if ((int)strlen(lab) > wl)
			wl = (int)strlen(lab);
		free(lab);
		if (f->status != NULL && (int)strlen(f->status) > ws)
			ws = (int)strlen(f->status);
	}
	if (n == 0)
		return;
	cli_printf("%-16s  %-*s  %-*s  %8s  %5s  %s\n", _("CREATED"), wl,
	    _("LAB"), ws, _("STATUS"), _("VARIANTS"), _("RUNS"), _("FILE"));
	for (size_t i = 0; i < l->n; i++) {
		const struct compare_file *f = &l->v[i];

		if (!f->ok || !wanted(f, name))
			continue;
		format_time(f->created, t, sizeof t);
		lab = lab_col(f);
		cli_printf("%-16s  %-*s  %-*s  %8zu  %5zu  %s\n", t, wl, lab,
		    ws, f->status ? f->status : "?", f->nvariants, f->nruns,
		    f->path);
		free(lab);
	}
}

/* Say what was listed, or that nothing was; files that are not records
   are named, not hidden. */
static void
print_notes(const struct compare_files *l, const char *name, const char *dir)
{
	size_t n = 0;

	for (size_t i = 0; i < l->n; i++) {
		if (!l->v[i].ok)
			cli_error(&cli_results, _("%s: not a record: %s"),
			    l->v[i].path, l->v[i].error ? l->v[i].error : "?");
		else
			n += wanted(&l->v[i], name);
	}
	if (n > 0)
		return;
	if (name != NULL)
		cli_error(&cli_results, _("no record of lab %s in %s"), name,
		    dir);
	else
		cli_error(&cli_results, _("no records in %s"), dir);
}

static int
results_exec(int argc, char **argv)
{
	const char *dir_opt = NULL;
	struct compare_files l;
	bool json = false;
	char *dir, *name, b[ERRBUF];
	struct err e;
	int ch, rc = CLI_OK;

	while ((ch = cli_getopt(&cli_results, argc, argv)) != -1) {
		switch (ch) {
		case 'o':
			dir_opt = optarg;
			break;
		case 'j':
			json = true;
			break;
		case CLI_GETOPT_HELP:
			return CLI_OK;
		default:
			return CLI_USAGE;
		}
	}
	if (optind < argc - 1) {
		cli_error(&cli_results, _("unexpected argument '%s'"),
		    argv[optind + 1]);
		cli_try_help(&cli_results);
		return CLI_USAGE;
	}
	lab_dir(optind < argc ? argv[optind] : NULL, dir_opt, &dir, &name);
	err_clear(&e);
	if (compare_files_scan(&l, dir, &e) < 0) {
		cli_error(&cli_results, "%s", err_format(&e, b, sizeof b));
		rc = CLI_FAIL;
	} else {
		if (json)
			print_json(&l, name);
		else
			print_table(&l, name);
		print_notes(&l, name, dir);
	}
	compare_files_done(&l);
	free(dir);
	free(name);
	return fflush(stdout) == 0 ? rc : CLI_FAIL;
}

const struct cli_cmd cli_results = {
	.name = "results",
	.args = "[-o DIR] [-j] [LAB]",
	.summary = N_("list the result records, newest first"),
	.opts = results_options,
	.more = results_more,
	.exec = results_exec,
};
