/*
 * raidlab check [--quiet] LAB...: load and validate lab files, print every
 * problem as "file:line: field: reason" on stderr and, for a valid lab,
 * the normalized lab on stdout. Exit 0 when all are valid and can run
 * here, 2 when one is invalid, else 3 (CLI_CANNOT) when one is valid but
 * `raidlab run` would refuse it here before building anything: its
 * workloads have no room (space.h), said on stderr as the run says it.
 * Main thread.
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/err.h"
#include "base/i18n.h"
#include "base/paths.h"
#include "build/mdtools.h"
#include "build/space.h"
#include "cli-scale.h"
#include "cli.h"
#include "lab/lab-scale.h"
#include "lab/lab.h"

static void
print_errors(struct errlist *errs)
{
	char buf[ERR_FILE_MAX + ERR_FIELD_MAX + ERR_MSG_MAX + 16];
	size_t i;

	errlist_sort(errs);
	for (i = 0; i < errs->n; i++)
		cli_fprintf(stderr, "%s\n",
		    err_format(&errs->v[i], buf, sizeof buf));
}

/* Room for the workloads on this machine (space.h): not the file's
   fault, so not an invalid lab; true when a run would refuse it. */
static bool
print_room(const struct lab *lab)
{
	char buf[ERR_FILE_MAX + ERR_FIELD_MAX + ERR_MSG_MAX + 16];
	struct errlist refused, notes;
	bool ok;

	errlist_init(&refused);
	errlist_init(&notes);
	space_check(lab, NULL, NULL, 0, false, NULL, &refused, &notes);
	mdtools_check(lab, NULL, NULL, &refused);
	errlist_sort(&refused);
	for (size_t i = 0; i < refused.n; i++)
		cli_fprintf(stderr, _("%s (raidlab run refuses this here)\n"),
		    err_format(&refused.v[i], buf, sizeof buf));
	print_errors(&notes);
	ok = refused.n == 0;
	errlist_done(&refused);
	errlist_done(&notes);
	return ok;
}

/* Check one file: CLI_OK, CLI_USAGE (invalid) or CLI_CANNOT. */
static int
check_one(const char *arg, bool quiet, bool many, struct lab_scale *s)
{
	char *path = paths_lab(arg);
	struct errlist errs;
	struct lab *lab = NULL;
	char *text;
	bool ok, room = true;

	errlist_init(&errs);
	lab_scale_clear_changes(s);
	ok = lab_load(path, &lab, &errs) == 0 &&
	    lab_scale_apply(lab, s, &errs) == 0 && lab_check(lab, &errs) == 0;
	print_errors(&errs);
	if (ok)
		room = print_room(lab);
	if (ok && !quiet) {
		text = lab_format(lab);
		if (many)
			cli_printf("# %s\n", path);
		cli_scale_print(s, stdout);
		cli_puts(text, stdout);
		free(text);
	}
	lab_free(lab);
	errlist_done(&errs);
	free(path);
	return !ok ? CLI_USAGE : room ? CLI_OK : CLI_CANNOT;
}

static const struct cli_opt check_options[] = {
	{ 'q', "quiet", NULL,
	    N_("print problems only, not the normalized lab") },
	{ 0, NULL, NULL, NULL },
};

static int
check_exec(int argc, char **argv)
{
	bool quiet = false;
	struct lab_scale scale;
	int ch, i, rc = CLI_OK;

	lab_scale_init(&scale);
	while ((ch = cli_getopt(&cli_check, argc, argv)) != -1) {
		switch (ch) {
		case CLI_GETOPT_HELP:
			lab_scale_done(&scale);
			return CLI_OK;
		case 'q':
			quiet = true;
			break;
		case CLI_OPT_SCALE:
		case CLI_OPT_SET:
		case CLI_OPT_DISK:
			if (cli_scale_opt(&cli_check, ch, optarg, &scale))
				break;
			lab_scale_done(&scale);
			return CLI_USAGE;
		default:
			lab_scale_done(&scale);
			return CLI_USAGE;
		}
	}
	if (optind >= argc) {
		cli_error(&cli_check, _("no lab file given"));
		cli_try_help(&cli_check);
		lab_scale_done(&scale);
		return CLI_USAGE;
	}
	/* An invalid lab outranks one that cannot run here. */
	for (i = optind; i < argc; i++) {
		int r = check_one(argv[i], quiet, argc - optind > 1, &scale);

		if (r == CLI_USAGE || (r == CLI_CANNOT && rc == CLI_OK))
			rc = r;
	}
	lab_scale_done(&scale);
	fflush(stdout);
	return rc;
}

const struct cli_cmd cli_check = {
	.name = "check",
	.args = "[--quiet] [--scale F] [--set W.KEY=VALUE] "
		"[--disk scratch:N=DEV] LAB...",
	.summary = N_("check lab files and print them normalized"),
	.opts = check_options,
	.shared = cli_scale_opts,
	.exec = check_exec,
};
