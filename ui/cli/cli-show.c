/*
 * raidlab show [--json] RESULT...: print result records (a lab's name
 * for its newest: cli_record_path()). For each: the
 * header (lab, created, host, raidlab version, status) and, per variant
 * and workload, the tables users of the original tools know, with notes,
 * errors and skipped runs; --json prints the record as stored. A record
 * still "running" whose raidlab is gone (kill -9, a crash) reads as
 * interrupted, with why (record_load()). Exit 0, 1 when a file cannot be
 * read as a record, 2 on bad usage. Main thread.
 */
#include "config.h"

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/err.h"
#include "base/i18n.h"
#include "base/strbuf.h"
#include "cli.h"
#include "results/record.h"
#include "results/show.h"

static const struct cli_opt show_options[] = {
	{ 'j', "json", NULL, N_("print the record as stored (JSON)") },
	{ 0, NULL, NULL, NULL },
};

static void
show_more(FILE *fp)
{
	fprintf(fp, "%s",
	    _("\nRESULT is a record written by 'raidlab run' (by default\n"
	      "under ~/.local/share/raidlab/results), or a lab's name for its\n"
	      "newest record ('raidlab results' lists them).\n"));
}

/* Print one record; false when it cannot be read. */
static bool
show_one(const char *arg, bool json, bool many)
{
	char b[ERR_FILE_MAX + ERR_FIELD_MAX + ERR_MSG_MAX + 16];
	struct record *rec;
	struct strbuf out;
	struct err e;
	char *s, *p;

	err_clear(&e);
	if ((p = cli_record_path(&cli_show, arg)) == NULL)
		return false;
	if (record_load(p, &rec, &e) < 0) {
		cli_error(&cli_show, "%s", err_format(&e, b, sizeof b));
		free(p);
		return false;
	}
	if (json) {
		if ((s = record_dumps(rec)) != NULL)
			fputs(s, stdout);
		free(s);
		record_free(rec);
		free(p);
		return true;
	}
	strbuf_init(&out);
	if (many)
		strbuf_printf(&out, "# %s\n", p);
	show_header(rec, &out);
	show_runs(rec, &out);
	cli_puts(out.s, stdout);
	strbuf_done(&out);
	record_free(rec);
	free(p);
	return true;
}

static int
show_exec(int argc, char **argv)
{
	bool json = false, ok = true;
	int ch, i;

	while ((ch = cli_getopt(&cli_show, argc, argv)) != -1) {
		switch (ch) {
		case CLI_GETOPT_HELP:
			return CLI_OK;
		case 'j':
			json = true;
			break;
		default:
			return CLI_USAGE;
		}
	}
	if (optind >= argc) {
		cli_error(&cli_show, _("no result file given"));
		cli_try_help(&cli_show);
		return CLI_USAGE;
	}
	for (i = optind; i < argc; i++) {
		if (i > optind && !json)
			putchar('\n');
		if (!show_one(argv[i], json, argc - optind > 1))
			ok = false;
	}
	fflush(stdout);
	return ok ? CLI_OK : CLI_FAIL;
}

const struct cli_cmd cli_show = {
	.name = "show",
	.args = "[--json] RESULT...",
	.summary = N_("print result records as tables (or JSON)"),
	.opts = show_options,
	.more = show_more,
	.exec = show_exec,
};
