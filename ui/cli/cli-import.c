/*
 * raidlab import [-f FORMAT] [-n NAMES] [-o FILE | -O DIR] INPUT...:
 * turn another tool's results (import.h) into result records that show
 * and compare read beside raidlab's own, one record per input, written
 * into the results directory (or DIR, or FILE for one input). Every
 * input is read before anything is written: one bad input writes
 * nothing. Exit 0, 1 when a record cannot be written, 2 on bad usage or
 * input. Main thread.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/afile.h"
#include "base/err.h"
#include "base/i18n.h"
#include "base/xalloc.h"
#include "cli.h"
#include "results/import.h"
#include "results/record.h"

#define ERRBUF (ERR_FILE_MAX + ERR_FIELD_MAX + ERR_MSG_MAX + 16)

static const struct cli_opt import_options[] = {
	{ 'f', "format", "FORMAT",
	    N_("the input's format (default: found from its contents)") },
	{ 'n', "name", "NAMES",
	    N_("name the results (rows of compare): one name per\nresult, "
	       "comma-separated, or one for all") },
	{ 'o', "output", "FILE",
	    N_("write the record to FILE (one INPUT only)") },
	{ 'O', "dir", "DIR",
	    N_("write the records into DIR (default: the results\n"
	       "directory)") },
	{ 0, NULL, NULL, NULL },
};

/* The formats, from the importers' table. */
static void
import_more(FILE *fp)
{
	fprintf(fp, "%s", _("\nFormats:\n"));
	for (size_t i = 0; import_formats[i] != NULL; i++)
		fprintf(fp, "  %-14s %s\n", import_formats[i]->name,
		    _(import_formats[i]->summary));
}

/* Write one record; false (said) when it cannot be. */
static bool
write_one(struct record *rec, const char *file, const char *dir,
    const char *input, size_t nruns, const char *from)
{
	char b[ERRBUF];
	struct err e;
	char *text;
	int rc;

	err_clear(&e);
	if (file != NULL) {
		if ((text = record_dumps(rec)) == NULL)
			rc = err_set(&e, -ENOMEM, file, 0, NULL, "%s",
			    _("cannot encode the record as JSON"));
		else
			rc = afile_write(file, text, strlen(text), &e);
		free(text);
	} else {
		rc = record_save(rec, dir, &e);
	}
	if (rc < 0) {
		cli_error(&cli_import, "%s", err_format(&e, b, sizeof b));
		return false;
	}
	cli_printf(_("%s: %zu results (%s) -> %s\n"), input, nruns, from,
	    file ? file : rec->path);
	return true;
}

/* Parse every input into recs[]; false (said) at the first bad one. */
static bool
read_all(char **inputs, int n, const struct import_format *fmt,
    const char *names, struct import_result **res, struct record **recs)
{
	char b[ERRBUF];
	struct err e;

	for (int i = 0; i < n; i++) {
		err_clear(&e);
		if (import_file(inputs[i], fmt, &res[i], &e) < 0 ||
		    (names != NULL && import_rename(res[i], names, &e) < 0) ||
		    import_record(res[i], inputs[i], &recs[i], &e) < 0) {
			if (e.file[0] == '\0')
				snprintf(e.file, sizeof e.file, "%s",
				    inputs[i]);
			cli_error(&cli_import, "%s",
			    err_format(&e, b, sizeof b));
			return false;
		}
	}
	return true;
}

static int
import_exec(int argc, char **argv)
{
	const struct import_format *fmt = NULL;
	const char *names = NULL, *file = NULL, *dir_arg = NULL;
	struct import_result **res;
	struct record **recs;
	char *dir = NULL;
	int ch, n, rc = CLI_OK;

	while ((ch = cli_getopt(&cli_import, argc, argv)) != -1) {
		switch (ch) {
		case CLI_GETOPT_HELP:
			return CLI_OK;
		case 'f':
			if ((fmt = import_format_find(optarg)) == NULL) {
				cli_error(&cli_import,
				    _("unknown format '%s' (see --help)"),
				    optarg);
				return CLI_USAGE;
			}
			break;
		case 'n':
			names = optarg;
			break;
		case 'o':
			file = optarg;
			break;
		case 'O':
			dir_arg = optarg;
			break;
		default:
			return CLI_USAGE;
		}
	}
	n = argc - optind;
	if (n < 1 || (file != NULL && (n > 1 || dir_arg != NULL))) {
		cli_error(&cli_import, "%s",
		    n < 1 ? _("no INPUT given")
			  : _("-o FILE takes one INPUT and no -O"));
		cli_try_help(&cli_import);
		return CLI_USAGE;
	}
	res = xcalloc((size_t)n, sizeof *res);
	recs = xcalloc((size_t)n, sizeof *recs);
	if (!read_all(argv + optind, n, fmt, names, res, recs)) {
		rc = CLI_USAGE;
		goto out;
	}
	dir = dir_arg ? xstrdup(dir_arg) : record_results_dir(NULL);
	for (int i = 0; i < n && rc == CLI_OK; i++)
		if (!write_one(recs[i], file, dir, argv[optind + i],
			res[i]->nruns, res[i]->from))
			rc = CLI_FAIL;
out:
	for (int i = 0; i < n; i++) {
		import_result_free(res[i]);
		record_free(recs[i]);
	}
	free(res);
	free(recs);
	free(dir);
	return rc;
}

const struct cli_cmd cli_import = {
	.name = "import",
	.args = "[-f FORMAT] [-n NAMES] [-o FILE | -O DIR] INPUT...",
	.summary = N_("turn bonnie++, fio or compilebench results into "
		      "records"),
	.opts = import_options,
	.more = import_more,
	.exec = import_exec,
};
